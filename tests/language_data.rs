//! Each language's data (grammars/<lang>/) on its own compiler's terms: one test per
//! transformation or data change, with the language's real tool as the oracle (go, rustc,
//! python3, tsc, javac, g++).

use crate::util::{is_interesting, rounds_sum, Dir};

// C's and C++'s early bodies step: declarations, constexpr functions.
mod cpp_bodies;
// Names: renaming (contextual keywords, the case of a first letter) and aliases inlined.
mod names;

/// Reduce `file` in `d` with `oracle.sh` (`--jobs 2` unless `extra` sets `-j`, `extra`
/// flags), writing `s.json`; the output (`name.reduced.ext`), checked interesting, and the
/// stats.
#[track_caller]
fn reduce(d: &Dir, file: &str, extra: &[&str]) -> (String, serde_json::Value) {
    let mut args = vec!["--test", "oracle.sh", "-q", "--stats", "s.json"];
    if !extra.contains(&"-j") {
        args.extend_from_slice(&["-j", "2"]);
    }
    args.extend_from_slice(extra);
    args.push(file);
    d.run(&args).expect_code(0);
    let (stem, ext) = file.rsplit_once('.').unwrap();
    let out = d.read_string(&format!("{stem}.reduced.{ext}"));
    assert!(
        is_interesting(&d.join("oracle.sh"), file, out.as_bytes()),
        "not interesting:\n{out}"
    );
    assert!(d.tmp_entries().is_empty());
    (out, d.stats("s.json"))
}

/// A compiler as an oracle's check: its shell command on the candidate (`$1`), and the shell
/// filter that picks the line of its first error from its output.
struct Compiler {
    compile: &'static str,
    first_error: &'static str,
}

const GO: Compiler = Compiler {
    compile: r#"go tool compile -p p -o "$TMPDIR/p.o" "$1""#,
    first_error: "head -1",
};
const RUSTC: Compiler = Compiler {
    compile: r#"rustc --edition 2021 --crate-type lib --emit=metadata -o "$TMPDIR/m.rmeta" "$1""#,
    first_error: "grep -m1 '^error'",
};
const JAVAC: Compiler = Compiler {
    compile: concat!(
        crate::javac_fast!(),
        r#"mkdir -p "$TMPDIR/j" && cp "$1" "$TMPDIR/j/M.java" && javac_fast -d "$TMPDIR/j" "$TMPDIR/j/M.java""#
    ),
    first_error: "grep -m1 'error:'",
};
const TSC: Compiler = Compiler {
    compile: r#"tsc --noEmit --strict --target es2020 --skipLibCheck "$1""#,
    first_error: "grep -m1 'error TS'",
};
/// TypeScript 5, which still reads `module n {..}` as a namespace (TypeScript 6 and later
/// reject it), from the private install `.ci/run` makes.
const TSC5: Compiler = Compiler {
    compile: r#""$HOME/.cache/treedd-ci/typescript5/node_modules/.bin/tsc" --noEmit --strict --target es2020 --skipLibCheck "$1""#,
    first_error: "grep -m1 'error TS'",
};

/// `oracle.sh` in `d`: a candidate (`$1`) is interesting when `compiler` accepts it and it
/// still holds `marker`; when the compiler rejects it, its first error line goes to
/// `rejected.log` (see [`rejections`]).
fn compiler_oracle(d: &Dir, compiler: &Compiler, marker: &str) {
    let Compiler {
        compile,
        first_error,
    } = compiler;
    d.script(
        "oracle.sh",
        &format!(
            r#"out=$({compile} 2>&1)
if [ $? -ne 0 ]; then echo "$out" | {first_error} >> '{log}'; exit 1; fi
grep -q {marker} "$1""#,
            log = d.join("rejected.log").display()
        ),
    );
}

/// Lines of the oracle's log of rejected candidates (`rejected.log` in `d`) that contain
/// `what`.
fn rejections(d: &Dir, what: &str) -> usize {
    std::fs::read_to_string(d.join("rejected.log"))
        .unwrap_or_default()
        .lines()
        .filter(|l| l.contains(what))
        .count()
}

/// A Go package whose imports are each used by a method that does not matter: Go rejects an
/// unused import and an undefined name alike, so an import goes only with its last use.
const GO_IMPORTS: &str = r#"package p

import (
	"bytes"
	"errors"
	"strings"
	"unicode/utf8"
)

var errNeg = errors.New("negative")

type Buf struct {
	data []byte
	n    int
}

func (b *Buf) Index(c byte) int {
	i := bytes.IndexByte(b.data, c)
	return i
}

func (b *Buf) Runes() int {
	count := utf8.RuneCount(b.data)
	b.n = count
	return b.n
}

func (b *Buf) Join(parts []string) string {
	s := strings.Join(parts, ",")
	if len(s) < b.n {
		return errNeg.Error()
	}
	return s
}

func Marker(x int) int {
	total := 0
	for i := 0; i < x; i++ {
		total += i
	}
	return total * 42
}
"#;

#[test]
fn go_imports_and_locals_go_with_their_last_use() {
    let d = Dir::new();
    d.write("p.go", GO_IMPORTS);
    compiler_oracle(&d, &GO, "42");
    let (out, s) = reduce(&d, "p.go", &[]);
    // Every import went with the method that used it last; nothing else is left but the
    // function that holds 42.
    assert!(!out.contains("import"), "{out}");
    assert!(s["output_chars"].as_u64().unwrap() <= 40, "{s}\n{out}");
    // Hardly any candidate left an import without its uses (the closure takes each with its
    // last use; without it, hundreds of candidates are rejected for an unused import).
    assert!(rejections(&d, "imported and not used") <= 2, "{out}");
    assert!(s["oracle_runs"].as_u64().unwrap() <= 200, "{s}");
}

/// A Python module whose crash (a `ZeroDivisionError`) happens inside
/// `if __name__ == "__main__":`, a `try`, a `for`, a `with` and a decorated function.
const PY_NESTED: &str = r#"import functools
import sys


def log(f):
    @functools.wraps(f)
    def inner(*a):
        return f(*a)
    return inner


@log
def ratio(a, b=2):
    return a / b


class Holder:
    def __init__(self):
        self.items = []


if __name__ == "__main__":
    h = Holder()
    try:
        for i in range(3):
            h.items.append(i)
            sys.stdout.write("")
        with open("/dev/null") as fh:
            fh.read()
            print(ratio(len(h.items), 0))
    except KeyError:
        pass
"#;

const PY_ORACLE: &str = r#"python3 "$1" 2>&1 | grep -q ZeroDivisionError"#;

#[test]
fn python_compound_statements_open_up_to_their_column() {
    let d = Dir::new();
    d.write("m.py", PY_NESTED);
    d.script("oracle.sh", PY_ORACLE);
    let (out, s) = reduce(&d, "m.py", &[]);
    // The `if`, `try`, `with` and the decorator are gone: their blocks moved to their
    // columns (a block of several statements through `rewrite`).
    for gone in ["if ", "try", "with", "@", "def log"] {
        assert!(!out.contains(gone), "{gone} left in\n{out}");
    }
    assert!(s["output_chars"].as_u64().unwrap() <= 12, "{s}\n{out}");
}

#[test]
fn python_hoisting_re_indents_a_statement_to_its_new_column() {
    // Tree reduction alone (no passes): each block keeps one statement, which hoisting puts
    // in the compound statement's place at its column.
    let d = Dir::new();
    d.write(
        "h.py",
        "import sys\nif len(sys.argv) > 0:\n    for i in range(2):\n        with open('/dev/null'):\n            print(1 / 0)\n",
    );
    d.script("oracle.sh", PY_ORACLE);
    let (out, _) = reduce(&d, "h.py", &["--no-passes"]);
    // The compound statements are gone and what is left stands at column 0 (python3 rejects
    // a statement hoisted with its old indentation).
    for gone in ["if ", "for ", "with "] {
        assert!(!out.contains(gone), "{gone} left in\n{out}");
    }
    assert!(
        out.contains("/ 0") && out.lines().all(|l| !l.starts_with(' ')),
        "{out}"
    );
}

/// A Rust module whose items are used before their declaration: a function keeps the struct
/// and the function it names (`[[declarations]]`), so no candidate removes them first.
const RUST_ITEMS: &str = r#"pub fn marker() -> u32 {
    let w = Wrapper { inner: helper(2) };
    w.inner * 21
}

fn helper(x: u32) -> u32 {
    x
}

pub struct Wrapper {
    inner: u32,
}

pub struct Unused {
    a: u8,
    b: u16,
}

pub fn other(u: &Unused) -> u16 {
    u.b + u16::from(u.a)
}

pub enum Kind {
    One,
    Two(u32),
}

pub fn kind(k: Kind) -> u32 {
    match k {
        Kind::One => 1,
        Kind::Two(n) => n,
    }
}
"#;

#[test]
fn rust_items_keep_what_they_use_declared_after_them() {
    let d = Dir::new();
    d.write("m.rs", RUST_ITEMS);
    compiler_oracle(&d, &RUSTC, "21");
    let (out, _) = reduce(&d, "m.rs", &["--no-passes"]);
    assert!(!out.contains("Unused") && !out.contains("Kind"), "{out}");
    // The reference closure keeps `helper` with `marker`, which calls it before its
    // declaration: no candidate removes it while `marker` is there. (Renaming `Wrapper` to
    // `a` may still leave a use without its struct.)
    assert_eq!(rejections(&d, "cannot find function"), 0, "{out}");
}

/// Java classes that use classes declared after them, and classes nothing needs: javac
/// rejects a name declared nowhere, so a class keeps the classes it names
/// (`[[declarations]]`).
const JAVA_CLASSES: &str = r#"public class M {
    public static int marker() {
        Box b = new Box(Helper.twice(1));
        return b.inner * 21;
    }
}

class Helper {
    static int twice(int x) {
        return x + x;
    }
}

class Box {
    int inner;
    Box(int inner) {
        this.inner = inner;
    }
}

class Unused {
    int a;
    int b;
    int sum() {
        return a + b;
    }
}

class Other {
    static int other(Unused u) {
        return u.sum() + u.a;
    }
}

enum Kind { ONE, TWO }
"#;

#[test]
fn java_classes_keep_what_they_use_declared_after_them() {
    let d = Dir::new();
    d.write("M.java", JAVA_CLASSES);
    compiler_oracle(&d, &JAVAC, "21");
    // One job: every candidate the log sees is one the algorithm asked for.
    let (out, _) = reduce(&d, "M.java", &["--no-passes", "-j", "1"]);
    assert!(!out.contains("Unused") && !out.contains("Kind"), "{out}");
    // No candidate removes `Helper` or `Box` while `M` names them. Candidates that rename a
    // class or drop a field its constructor assigns still miss a symbol, so the count is not
    // 0; without the data it is higher by about a half.
    let missing = rejections(&d, "cannot find symbol");
    assert!(
        missing <= 14,
        "{missing} candidates missed a symbol:\n{out}"
    );
}

/// A Java class that uses library classes it imports, beside a class nothing needs that
/// imports others: an import declares its last name, so a kept class keeps the imports it
/// uses, and names the file never declares (`List`, `String`, `java`) are a library's, which
/// `rename` leaves alone (`rename_declared`).
const JAVA_IMPORTS: &str = r#"import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

public class M {
    public static int marker() {
        List<String> names = new ArrayList<>();
        names.add("first");
        return names.size() * 21;
    }
}

class Table {
    Map<String, Integer> counts = new HashMap<>();
    int count(String key) {
        return counts.getOrDefault(key, 0);
    }
}
"#;

#[test]
fn java_imports_stay_with_their_users_and_library_names_keep_their_spelling() {
    let d = Dir::new();
    d.write("M.java", JAVA_IMPORTS);
    compiler_oracle(&d, &JAVAC, "size");
    // One job: the runs of each pass are the same every time.
    let (out, stats) = reduce(&d, "M.java", &["-j", "1"]);
    assert!(!out.contains("Table") && !out.contains("HashMap"), "{out}");
    assert!(out.contains("import java.util."), "{out}");
    let runs = |pass: &str, round: u64| {
        rounds_sum(&stats, "oracle_runs", |r| {
            r["pass"] == pass && (round == 0 || r["round"] == round)
        })
    };
    // `rename`'s first candidate, every name the file declares renamed, compiles: without
    // the data it renamed `List` and `size` too, and ddmin needed 32 runs.
    assert!(runs("rename", 0) <= 2, "{stats}");
    // No candidate of the first tree phase drops an import its user keeps: 57 runs without
    // the imports' data, 35 with it.
    assert!(runs("tree", 1) <= 40, "{stats}");
}

/// A TypeScript module whose functions use a function, an interface and a type alias declared
/// after them: tsc rejects a name declared nowhere, so a use keeps its declaration.
const TS_ITEMS: &str = r#"export function marker(): number {
    const w: Wrapper = { inner: helper(2) };
    const k: Kind = "one";
    return w.inner * 21 + (k === "one" ? 0 : 1);
}

function helper(x: number): number {
    return x;
}

interface Wrapper {
    inner: number;
}

type Kind = "one" | "two";

interface Unused {
    a: number;
    b: string;
}

export function other(u: Unused): string {
    return u.b + String(u.a);
}

export class Counter {
    private n = 0;
    bump(): number {
        this.n += 1;
        return this.n;
    }
}
"#;

#[test]
fn typescript_items_keep_what_they_use_declared_after_them() {
    let d = Dir::new();
    d.write("m.ts", TS_ITEMS);
    compiler_oracle(&d, &TSC, "21");
    let (out, _) = reduce(&d, "m.ts", &["--no-passes", "-j", "1"]);
    assert!(!out.contains("Unused") && !out.contains("Counter"), "{out}");
    // TS2304 "Cannot find name": a use without its declaration. The few left come from
    // renamed declarations; removing a declaration its user keeps costs several times more.
    let missing = rejections(&d, "Cannot find name");
    assert!(missing <= 8, "{missing} candidates missed a name:\n{out}");
}

/// Non-whitespace characters of `text`.
fn chars(text: &str) -> i64 {
    text.chars().filter(|c| !c.is_whitespace()).count() as i64
}

/// `file` (`src`) reduced with the `bodies` pass alone (`--passes bodies`): before the first
/// tree phase, every function body of `emptied` becomes `text`, the language's body valid
/// for any signature, and the compiler of the oracle accepts it; the marker's body stays.
/// The early step does it in a few oracle runs and removes at least `extra` characters
/// besides the bodies (declarations that go with them). Returns the
/// output.
#[track_caller]
fn bodies_go_first(
    d: &Dir,
    file: &str,
    src: &str,
    emptied: &[&str],
    text: &str,
    extra: i64,
) -> String {
    for body in emptied {
        assert!(src.contains(body), "{body}");
    }
    d.write(file, src);
    let (out, early) = early_bodies(d, file);
    let want: i64 = emptied.iter().map(|b| chars(b) - chars(text)).sum::<i64>() + extra;
    assert!(early["accepted"].as_u64().unwrap() >= 1, "{early}");
    assert!(
        early["chars_removed"].as_i64().unwrap() >= want,
        "{early}: fewer than {want} characters removed\n{out}"
    );
    assert!(early["oracle_runs"].as_u64().unwrap() <= 8, "{early}");
    out
}

/// `file` in `d` reduced with the `bodies` pass alone at `--jobs 1`: the output and the
/// early step's record of `--stats`.
#[track_caller]
fn early_bodies(d: &Dir, file: &str) -> (String, serde_json::Value) {
    let (out, s) = reduce(d, file, &["--passes", "bodies", "-j", "1"]);
    let early = s["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["pass"] == "bodies (early)")
        .unwrap_or_else(|| panic!("no early bodies step: {s}"))
        .clone();
    (out, early)
}

#[test]
fn rust_bodies_become_an_endless_loop_of_any_return_type() {
    let new = r#"{
        Config { name: name.to_string(), level: 3 }
    }"#;
    let name = r#"{
        if self.level > 2 { &self.name } else { "none" }
    }"#;
    let parse = r#"{
    s.split(',').map(|p| p.trim().parse().ok()).collect()
}"#;
    let src = format!(
        "pub struct Config {{\n    name: String,\n    level: u8,\n}}\n\nimpl Config {{\n    \
         pub fn new(name: &str) -> Self {new}\n\n    pub fn name(&self) -> &str {name}\n}}\n\n\
         pub fn parse(s: &str) -> Option<Vec<u32>> {parse}\n\n\
         pub fn marker() -> u32 {{\n    let v = [1u32, 2];\n    v.len() as u32 * 21\n}}\n"
    );
    let d = Dir::new();
    compiler_oracle(&d, &RUSTC, "21");
    bodies_go_first(&d, "m.rs", &src, &[new, name, parse], "{loop{}}", 0);
}

#[test]
fn go_bodies_panic_and_take_the_imports_only_they_used() {
    let count = "{\n\treturn utf8.RuneCountInString(s) + len(s)\n}";
    let join = "{\n\treturn strings.Join(a, \",\") + \"!\"\n}";
    let imports = "import (\n\t\"strings\"\n\t\"unicode/utf8\"\n)";
    let src = format!(
        "package p\n\n{imports}\n\nfunc Count(s string) int {count}\n\n\
         func Join(a []string) string {join}\n\nfunc Marker(x int) int {{\n\treturn x * 42\n}}\n"
    );
    let d = Dir::new();
    compiler_oracle(&d, &GO, "42");
    // Both imports go, each with the body that used it: `import ()` is left for the tree.
    let tied = chars(imports) - chars("import ()");
    let out = bodies_go_first(&d, "p.go", &src, &[count, join], "{panic(0)}", tied);
    assert!(!out.contains("import"), "{out}");
    assert_eq!(rejections(&d, "imported and not used"), 0, "{out}");
}

#[test]
fn java_bodies_throw_in_methods_and_constructors() {
    let ctor = r#"{
        if (base < 0) {
            throw new IllegalArgumentException("negative");
        }
        this.base = base;
    }"#;
    let describe = r#"{
        StringBuilder sb = new StringBuilder();
        sb.append(base).append('!');
        return sb.toString();
    }"#;
    let src = format!(
        "public class M {{\n    private final int base;\n\n    M(int base) {ctor}\n\n    \
         String describe() {describe}\n\n    static int marker() {{\n        int x = 1;\n        \
         return x * 21;\n    }}\n}}\n"
    );
    let d = Dir::new();
    compiler_oracle(&d, &JAVAC, "21");
    bodies_go_first(&d, "M.java", &src, &[ctor, describe], "{throw null;}", 0);
}

#[test]
fn typescript_bodies_throw_in_functions_methods_and_arrows() {
    let bump = "{\n        this.n += 1;\n        return this.n;\n    }";
    let parse = "{\n    return s.split(\",\").map((p) => Number(p.trim()));\n}";
    let src = format!(
        "export class Counter {{\n    private n = 0;\n    bump(): number {bump}\n}}\n\n\
         export function parse(s: string): number[] {parse}\n\n\
         const twice = (x: number): number => x * 2 + 0;\n\n\
         export function marker(): number {{\n    return twice(1) * 21;\n}}\n"
    );
    let d = Dir::new();
    compiler_oracle(&d, &TSC, "21");
    // The arrow's expression body becomes a block too.
    let arrow = "x * 2 + 0";
    bodies_go_first(&d, "m.ts", &src, &[bump, parse, arrow], "{throw 0}", 0);
}

#[test]
fn python_bodies_become_one_expression() {
    let load = "with open(path) as f:\n        return json.load(f)";
    let init = "self.items = {}\n        self.count = 0";
    let put = "self.items[k] = v\n        return len(self.items)";
    let src = format!(
        "import json\n\n\ndef load(path):\n    {load}\n\n\nclass Store:\n    \
         def __init__(self):\n        {init}\n\n    def put(self, k, v):\n        {put}\n\n\n\
         def main():\n    print(1 / 0)\n\n\nif __name__ == \"__main__\":\n    main()\n"
    );
    let d = Dir::new();
    d.script("oracle.sh", PY_ORACLE);
    bodies_go_first(&d, "m.py", &src, &[load, init, put], "0", 0);
}

#[test]
fn python_pass_becomes_zero() {
    // The oracle wants a class: its body `pass` becomes `0`, the shortest statement.
    let d = Dir::new();
    d.write(
        "m.py",
        "class Error(Exception):\n    pass\n\n\ndef fail():\n    return 1 / 0\n\n\nfail()\n",
    );
    d.script(
        "oracle.sh",
        &format!(r#"grep -q '^class' "$1" && {PY_ORACLE}"#),
    );
    let (out, _) = reduce(&d, "m.py", &[]);
    assert!(out.contains("class") && !out.contains("pass"), "{out}");
    assert!(
        out.contains(":0") || out.contains(": 0") || out.contains("\n    0"),
        "{out}"
    );
}

#[test]
fn python_statement_lines_go_whole() {
    // A line of one simple statement (an assignment, a call, a docstring, an import) is
    // removed as a whole, in the module and in a block, never replaced by a placeholder
    // expression that python3 would then evaluate.
    let d = Dir::new();
    d.write(
        "m.py",
        "\"\"\"Doc.\"\"\"\nimport sys\nx = 1\ny = [x, 2]\nsys.stdout.write(\"\")\ndef f():\n    a = 1\n    b = a + 1\n    print(1 / 0)\n    return b\nz = 3\nf()\n",
    );
    d.script("oracle.sh", PY_ORACLE);
    let (out, s) = reduce(&d, "m.py", &["--no-passes"]);
    assert!(!out.contains('_') && !out.contains("Doc"), "{out}");
    assert!(s["output_chars"].as_u64().unwrap() <= 5, "{s}\n{out}");
}

#[test]
fn rust_modules_open_up_with_their_paths() {
    // `a` goes as a level: its items in its place, `a::` gone from the paths and the `use`
    // that names it removed, in one candidate (no step alone compiles).
    let d = Dir::new();
    d.write(
        "m.rs",
        "mod a {\n    pub struct Twenty(pub u32);\n    pub fn one() -> u32 {\n        1\n    }\n}\n\
         use a::one;\n\npub fn marker() -> u32 {\n    a::Twenty(20).0 + one()\n}\n",
    );
    compiler_oracle(&d, &RUSTC, "'(20).0 + one()'");
    let (out, _) = reduce(&d, "m.rs", &[]);
    assert!(!out.contains("mod") && !out.contains("use"), "{out}");
    assert!(!out.contains("a::"), "{out}");
}

#[test]
fn java_catch_types_go_with_their_bars() {
    // `|` separates the types of a multi-catch: the middle one goes with one bar, in the
    // tree phase (without the data, only the token pass finds it).
    let d = Dir::new();
    d.write(
        "M.java",
        "class M {\n    void f() throws java.io.IOException, InterruptedException {}\n\n\
         \x20   void g() {\n        try { f(); } catch (java.io.IOException | IllegalStateException \
         | InterruptedException e) {}\n    }\n}\n",
    );
    compiler_oracle(
        &d,
        &JAVAC,
        "'InterruptedException e)' \"$1\" && grep -q 'catch (java.io.IOException'",
    );
    let (out, _) = reduce(&d, "M.java", &["--no-passes"]);
    assert!(!out.contains("IllegalState"), "{out}");
}

#[test]
fn java_type_bounds_go_with_their_ampersands() {
    // `&` separates the bounds after `extends`: the middle one goes with one ampersand, in
    // the tree phase (without the data, a bound is required where it stands).
    let d = Dir::new();
    d.write(
        "M.java",
        "class M {\n    interface A {}\n    interface B {}\n    interface C {}\n\n\
         \x20   static <T extends A & B & C> void f(T t) {}\n}\n",
    );
    compiler_oracle(&d, &JAVAC, "'T extends A' \"$1\" && grep -q '& C>'");
    let (out, _) = reduce(&d, "M.java", &["--no-passes"]);
    assert!(!out.contains("& B"), "{out}");
}

#[test]
fn rust_generic_parameters_go_with_their_arguments() {
    // `A` and `B` go in one candidate each with their argument in `Pair<u8, String>`, and
    // the field types become the argument (the lifetime stays, and uses may leave it out).
    let d = Dir::new();
    d.write(
        "m.rs",
        "pub struct Pair<'a, A, B> {\n    a: A,\n    b: Option<&'a B>,\n}\n\n\
         pub fn marker(p: Pair<u8, String>) -> u8 {\n    p.a + 20\n}\n",
    );
    compiler_oracle(&d, &RUSTC, "'p.a + 20'");
    let (out, _) = reduce(&d, "m.rs", &[]);
    let header = out
        .lines()
        .find(|l| l.contains("struct"))
        .unwrap_or_default();
    assert!(header.ends_with("<'a> {"), "{out}");
    assert!(out.contains("a: u8") && out.contains("String"), "{out}");
}

#[test]
fn rust_lifetime_parameters_go_with_their_arguments() {
    // The struct's lifetime goes with the impl header's argument (`impl<'a> b<'a>` cannot
    // leave it out), its use becoming `'static`; then the impl's own lifetime is unused.
    let d = Dir::new();
    d.write(
        "m.rs",
        "pub struct Holder<'a> {\n    item: &'a u8,\n}\n\nimpl<'a> Holder<'a> {\n\
         \x20   pub fn get(&self) -> u8 {\n        *self.item + 20\n    }\n}\n",
    );
    compiler_oracle(&d, &RUSTC, "'item + 20'");
    let (out, _) = reduce(&d, "m.rs", &[]);
    assert!(!out.contains('\''), "{out}");
}

#[test]
fn java_type_parameters_go_with_their_arguments() {
    // `B` (bounded) goes with its argument `String` from both uses, and `A` becomes the
    // `Integer` every use gives it.
    let d = Dir::new();
    d.write(
        "M.java",
        "class M {\n    static class Pair<A, B extends Comparable<B>> {\n        A a;\n        B b;\n    }\n\n\
         \x20   static int g(Pair<Integer, String> p) {\n        Pair<Integer, String> q = p;\n\
         \x20       return q.a + 1;\n    }\n}\n",
    );
    compiler_oracle(&d, &JAVAC, "'a + 1'");
    let (out, _) = reduce(&d, "M.java", &["--passes", "rewrite"]);
    assert!(!out.contains('<'), "{out}");
    assert!(out.contains("Integer a;"), "{out}");
}

#[test]
fn typescript_type_parameters_go_with_their_arguments() {
    // `U` goes with its argument, and `T` becomes the argument every use gives it.
    let d = Dir::new();
    d.write(
        "m.ts",
        "interface Box<T, U> {\n  value: T;\n  extra?: U;\n}\n\n\
         export function marker(b: Box<string, number>): string {\n  return b.value + \"20\";\n}\n",
    );
    compiler_oracle(&d, &TSC, "'value + \"20\"'");
    let (out, _) = reduce(&d, "m.ts", &["--passes", "rewrite"]);
    assert!(!out.contains('<'), "{out}");
    assert!(out.contains("value:"), "{out}");
}

#[test]
fn typescript_namespace_becomes_module() {
    // TypeScript 5 reads `module n {..}` as `namespace n {..}`; the keyword is hidden from
    // the tree phase, so only the rewrite can shorten it.
    let tsc5 = dirs_home().join(".cache/treedd-ci/typescript5/node_modules/.bin/tsc");
    assert!(
        tsc5.exists(),
        "{} is missing; install it with `npm install --prefix ~/.cache/treedd-ci/typescript5 typescript@5` (.ci/run does)",
        tsc5.display()
    );
    let d = Dir::new();
    d.write(
        "m.ts",
        "namespace geometry.units {\n  export const scale = 2;\n}\ngeometry.units.scale;\n",
    );
    compiler_oracle(&d, &TSC5, "'units.scale;'");
    // `fastest`: a coarse tree phase of few candidates (TypeScript 5 takes about two
    // seconds a run).
    let (out, _) = reduce(&d, "m.ts", &["--preset", "fastest", "--passes", "rewrite"]);
    assert!(out.contains("module geometry.units"), "{out}");
    assert!(!out.contains("namespace"), "{out}");
}

/// The user's home folder, where `.ci/run` puts tools it installs privately.
fn dirs_home() -> std::path::PathBuf {
    std::path::PathBuf::from(std::env::var_os("HOME").expect("HOME is set"))
}

#[test]
fn java_abstract_method_gets_an_empty_body_and_the_class_is_no_longer_abstract() {
    // The method has no body to empty; the rewrite gives it one (`{}`, it is `void`), and
    // then nothing keeps the class abstract.
    let d = Dir::new();
    d.write(
        "M.java",
        "abstract class M {\n    abstract void run(Runnable task);\n\n    \
         void go() {\n        run(() -> {});\n        int marker = 42;\n    }\n}\n",
    );
    compiler_oracle(&d, &JAVAC, "'run(() ->'");
    let (out, _) = reduce(&d, "M.java", &["--passes", "rewrite"]);
    assert!(!out.contains("abstract"), "{out}");
    assert!(
        out.lines()
            .any(|l| l.contains("void run(Runnable") && l.trim_end().ends_with("{}")),
        "{out}"
    );
}

#[test]
fn python_locals_are_inlined_into_their_uses() {
    // `[[inline]]` (copy-propagation): the value takes the name's place and the assignment
    // goes in the same step; nothing else removes the name while its value must stay (the
    // oracle asks for `len(` and `dict()`).
    let d = Dir::new();
    d.write(
        "m.py",
        "def main():\n    items = dict()\n    print(1 // len(items))\n\n\nmain()\n",
    );
    d.script(
        "oracle.sh",
        r#"grep -q 'dict()' "$1" && grep -q 'len(' "$1" || exit 1
python3 "$1" 2>&1 | grep -q ZeroDivisionError"#,
    );
    let (out, _) = reduce(&d, "m.py", &[]);
    assert!(!out.contains('=') && out.contains("dict()"), "{out}");
}
