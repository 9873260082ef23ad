//! Grammar-aware reduction end to end: C with a gcc oracle, JavaScript with a node oracle,
//! inputs with syntax errors, the syntax filter, and the debug options.

use expect_test::expect;

use crate::util::{is_interesting, Dir};

fn stats(d: &Dir) -> serde_json::Value {
    d.stats("s.json")
}

#[test]
fn c_helloworld_with_gcc() {
    let d = Dir::new();
    d.copy_fixture("c/helloworld");
    let run = d.run(&["--test", "./oracle.sh", "--stats", "s.json", "helloworld.c"]);
    run.expect_code(0)
        .expect_stderr("result in helloworld.reduced.c");
    let s = stats(&d);
    assert_eq!(s["language"], "c");
    assert_eq!(s["input_chars"], 42);
    let out = d.read("helloworld.reduced.c");
    assert!(is_interesting(&d.join("oracle.sh"), "helloworld.c", &out));
    // The paper's hoisting variants reach 35 non-whitespace characters (HDD with hoisting, Table II).
    assert!(
        s["output_chars"].as_u64().unwrap() <= 35,
        "{s}\n{}",
        String::from_utf8_lossy(&out)
    );
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn javascript_typeerror_with_node() {
    // The fixture's node oracle on a smaller program than the fixture's (node starts slowly).
    let d = Dir::new();
    d.copy_fixture("javascript/typeerror");
    let input = "const rate = 2;\nfunction note(o) {\n  return o.note.length;\n}\nconsole.log(rate * 21);\nnote({ id: 1 });\n";
    d.write("input.js", input);
    d.run(&[
        "--test",
        "oracle.sh",
        "-j",
        "2",
        "--stats",
        "s.json",
        "-q",
        "input.js",
    ])
    .expect_code(0);
    let out = d.read("input.reduced.js");
    assert!(is_interesting(&d.join("oracle.sh"), "input.js", &out));
    assert!(
        out.len() * 2 < input.len(),
        "{}",
        String::from_utf8_lossy(&out)
    );
    assert_eq!(stats(&d)["language"], "javascript");
}

#[test]
fn input_with_syntax_errors_is_reduced_with_a_warning() {
    let d = Dir::new();
    d.write(
        "broken.c",
        "int x = 1;\nint y = ;\nint z = 3;\nint w = 4;\n",
    );
    d.script("oracle.sh", r#"grep -q 'z = 3' "$1""#);
    let run = d.run(&["--test", "oracle.sh", "--stats", "s.json", "broken.c"]);
    run.expect_code(0).expect_stderr(
        "warning: broken.c does not parse cleanly as c (1 syntax errors); reducing anyway",
    );
    assert_eq!(stats(&d)["input_syntax_errors"], 1);
    let out = d.read_string("broken.reduced.c");
    assert!(out.contains("z = 3") && !out.contains("w = 4"), "{out}");
}

#[test]
fn syntax_filter_skips_broken_candidates() {
    let d = Dir::new();
    d.write(
        "f.c",
        "int f(int a, int b) { return a + b; }\nint g(void) { return f(1, 2); }\n",
    );
    d.script("oracle.sh", r#"grep -q 'return' "$1""#);
    d.run(&["--test", "oracle.sh", "--stats", "s.json", "f.c"])
        .expect_code(0);
    let s = stats(&d);
    assert!(s["syntax_filtered"].as_u64().unwrap() > 0, "{s}");
    assert_eq!(s["syntax_filter"], true);
    // Candidates kept are parsed against the best text's tree; rejected ones (and the
    // start) from scratch as well.
    let parses = |k: &str| s[k].as_u64().unwrap();
    assert!(parses("syntax_incremental_parses") > 0, "{s}");
    assert!(
        parses("syntax_fresh_parses") <= 1 + parses("syntax_filtered") + parses("oracle_runs"),
        "{s}"
    );
    // Every candidate the oracle saw parsed as well as the input, so the result does too.
    d.run(&["--print-tree-stats", "f.reduced.c"])
        .expect_code(0)
        .stdout
        .contains("syntax errors: 0\n")
        .then_some(())
        .expect("the filtered result has syntax errors");
    d.run(&[
        "--test",
        "oracle.sh",
        "--stats",
        "s.json",
        "--no-syntax-filter",
        "f.c",
    ])
    .expect_code(0);
    let s = stats(&d);
    assert_eq!(s["syntax_filtered"], 0);
    assert_eq!(s["syntax_filter"], false);
    assert_eq!(s["syntax_incremental_parses"], 0);
}

#[test]
fn dump_tree_and_tree_stats_need_no_oracle() {
    let d = Dir::new();
    d.write("a.c", "int main(void) { return 1; }\n");
    let run = d.run(&["--dump-tree", "a.c"]);
    run.expect_code(0);
    assert!(run.stdout.starts_with("translation_unit"), "{}", run.stdout);
    assert!(
        run.stdout.contains("      number_literal opt \"1\"\n"),
        "{}",
        run.stdout
    );
    let run = d.run(&["--print-tree-stats", "a.c"]);
    run.expect_code(0);
    assert!(
        run.stdout.contains("bytes: 29\nsyntax errors: 0\n"),
        "{}",
        run.stdout
    );
    // Without a debug option the oracle is required.
    d.run(&["a.c"]).expect_code(2).expect_message(
        &d,
        &expect![[r#"
            error: the following required arguments were not provided:
              --test <ORACLE>

            Usage: treedd --test ORACLE [OPTIONS] INPUT
                   treedd --test ORACLE [OPTIONS] DIR | FILE FILE...
                   treedd --dump-tree|--print-tree-stats [--language LANG] INPUT

            For more information, try '--help'.
        "#]],
    );
}

#[test]
fn jobs_do_not_change_a_tree_reduction() {
    // Several 1-minimal answers: any three `h(` survive, whichever the algorithm meets first.
    let d = Dir::three_calls_case();
    let mut results = Vec::new();
    for jobs in ["1", "3"] {
        let out = format!("out{jobs}.c");
        // (The reduction's own bytes: no final layout step.)
        d.run(&[
            "--test",
            "oracle.sh",
            "-j",
            jobs,
            "-o",
            &out,
            "-q",
            "--no-format",
            "m.c",
        ])
        .expect_code(0);
        results.push(d.read_string(&out));
    }
    assert_eq!(results[0], results[1]);
    // (This oracle only counts `h(`, a function's name included; after the early `bodies`
    // step and the passes, one function holding two calls is left.)
    assert_eq!(results[0], "int h() { h();  h(); }\n");
}

/// A program whose crash-like marker sits in one function that reaches a few of the other
/// declarations; the oracle compiles it as a C compiler would (undeclared names are errors).
const REACHING: &str = "typedef int T1;
typedef long T2;
int g1 = 1;
T2 g2 = 2;
static T1 g3[4] = {1, 2, 3, 4};
int h1(int x);
T2 h2(T2 y);
int h3(void);
int h1(int x) { return x + g1; }
T2 h2(T2 y) { return y * g2 + h1(3); }
int h3(void) { return g3[1] + 7; }
int crash(void) { T1 a = h1(g3[2]); return a + 12345; }
int main(void) { return h3() + (int)h2(1) + crash(); }
";
const COMPILES_WITH_12345: &str = r#"gcc -fsyntax-only -Werror=implicit-function-declaration \
  -Werror=implicit-int -x c "$1" 2>/dev/null && grep -q 12345 "$1""#;

/// `treedd --test oracle.sh --stats s.json -q INPUT` with `extra` in `d`: the stats and the
/// output, which must pass the oracle.
fn reduce_with_stats(d: &Dir, input: &str, extra: &[&str]) -> (serde_json::Value, String) {
    let mut args = vec!["--test", "oracle.sh", "--stats", "s.json", "-q", input];
    args.extend_from_slice(extra);
    d.run(&args).expect_code(0);
    let (stem, ext) = input.rsplit_once('.').unwrap();
    let out = d.read(&format!("{stem}.reduced.{ext}"));
    assert!(is_interesting(&d.join("oracle.sh"), input, &out));
    (stats(d), String::from_utf8(out).unwrap())
}

#[test]
fn reference_closure_saves_oracle_runs_on_declarations_and_their_uses() {
    let d = Dir::new();
    d.write("r.c", REACHING);
    d.script("oracle.sh", COMPILES_WITH_12345);
    let (plain, plain_out) = reduce_with_stats(&d, "r.c", &["--no-reference-closure"]);
    let (closure, out) = reduce_with_stats(&d, "r.c", &[]);
    assert_eq!(plain["reference_closure"], false);
    assert_eq!(closure["reference_closure"], true);
    let runs = |s: &serde_json::Value| s["oracle_runs"].as_u64().unwrap();
    let chars = |s: &serde_json::Value| s["output_chars"].as_u64().unwrap();
    assert!(runs(&closure) < runs(&plain), "{closure}\n{plain}");
    assert!(chars(&closure) <= chars(&plain), "{out}\n{plain_out}");
}

/// The memory of failed edits: a later round does not test again an edit that failed with
/// the same text around it, so the output is the same as without it, for fewer oracle runs
/// (a real Python crash); the last round recalls the failed edits too, unless
/// `--full-last-round`, which tests every edit of its text there.
#[test]
fn the_memory_of_failed_edits_saves_runs_for_the_same_output() {
    let d = Dir::new();
    d.copy_fixture("python/zerodiv");
    let one_job = ["--jobs", "1"];
    let (plain, plain_out) = reduce_with_stats(
        &d,
        "zerodiv.py",
        &[&one_job[..], &["--no-edit-memory"]].concat(),
    );
    let (memory, out) = reduce_with_stats(&d, "zerodiv.py", &one_job);
    assert_eq!(plain["edit_memory"], false);
    assert_eq!(memory["edit_memory"], true);
    assert_eq!(plain["recalled"], 0);
    assert!(memory["recalled"].as_u64().unwrap() > 0, "{memory}");
    let runs = |s: &serde_json::Value| s["oracle_runs"].as_u64().unwrap();
    assert!(runs(&memory) < runs(&plain), "{memory}\n{plain}");
    assert_eq!(out, plain_out);
    let (full, full_out) = reduce_with_stats(
        &d,
        "zerodiv.py",
        &[&one_job[..], &["--full-last-round"]].concat(),
    );
    assert_eq!(memory["last_round_memory"], true);
    assert_eq!(full["last_round_memory"], false);
    assert!(runs(&memory) < runs(&full), "{memory}\n{full}");
    assert!(runs(&full) < runs(&plain), "{full}\n{plain}");
    assert_eq!(full_out, plain_out);
}

/// What the last round's memory can miss: `T v;` fails to go while `b{{1},{2}}` initializes
/// it (no name links the two), and once the initializer is `{}` the memory recalls the
/// failure, as the text around `T v;` is the same. `--full-last-round` tests every edit of
/// its text in the last round and takes it.
#[test]
fn the_full_last_round_tests_again_what_the_memory_recalls() {
    let d = Dir::new();
    d.write(
        "t.cpp",
        "#include <vector>\ntemplate<typename T>struct Box{T v;T get()const{return v;}};\n\
         int main(){std::vector<Box<int>> b{{1},{2}};int s=0;for(auto&x:b){s+=x.get();}\n\
         return s==3?0:1;}\n",
    );
    d.script(
        "oracle.sh",
        "g++ -w -o ./a.out \"$1\" 2>/dev/null && timeout 2 ./a.out && grep -q 'for' \"$1\"",
    );
    let fastest = ["--preset", "fastest", "--jobs", "1", "--no-format"];
    let (memory, out) = reduce_with_stats(&d, "t.cpp", &fastest);
    let full = [&fastest[..], &["--full-last-round"]].concat();
    let (strict, strict_out) = reduce_with_stats(&d, "t.cpp", &full);
    assert!(out.contains("T v;"), "{out}");
    assert!(!strict_out.contains("v;"), "{strict_out}");
    let runs = |s: &serde_json::Value| s["oracle_runs"].as_u64().unwrap();
    assert!(runs(&memory) < runs(&strict), "{memory}\n{strict}");
}

/// Functions that only calls refer to; the marker needs both calls.
const CALLED: &str = "int g1 = 1;
int h1(int x) { return x + g1; }
int h2(void) { return 2; }
int crash(void) { return h1(3) + h2() + 12345; }
";

/// Whether a call needs the declaration of the function it calls is the oracle's choice in C:
/// the closure asks it (one run when the answer is no) and follows calls only if it says yes.
#[test]
fn the_reference_closure_asks_whether_a_call_needs_a_declaration() {
    let d = Dir::new();
    d.write("r.c", CALLED);
    let reduce = |oracle: &str| {
        d.script("oracle.sh", oracle);
        d.run(&["--test", "oracle.sh", "--stats", "s.json", "-q", "r.c"])
            .expect_code(0);
        let out = d.read_string("r.reduced.c");
        assert!(is_interesting(&d.join("oracle.sh"), "r.c", out.as_bytes()));
        (stats(&d), out)
    };
    // gcc 12 without -Werror: a call of an undeclared function is a warning.
    let (lenient, out) = reduce(
        r#"gcc -fsyntax-only -w -x c "$1" 2>/dev/null && grep -q 'h1(3)' "$1" && grep -q 12345 "$1""#,
    );
    assert_eq!(lenient["reference_closure_calls"], false, "{lenient}");
    assert_eq!(out.matches("h1").count(), 1, "{out}");
    let (strict, out) = reduce(
        r#"gcc -fsyntax-only -Werror=implicit-function-declaration -x c "$1" 2>/dev/null &&
        grep -q 'h1(3)' "$1" && grep -q 12345 "$1""#,
    );
    assert_eq!(strict["reference_closure_calls"], true, "{strict}");
    assert!(out.matches("h1").count() >= 2, "{out}");
    // Not asked without the closure.
    d.run(&[
        "--test",
        "oracle.sh",
        "--stats",
        "s.json",
        "-q",
        "--no-reference-closure",
        "r.c",
    ])
    .expect_code(0);
    assert_eq!(stats(&d).get("reference_closure_calls"), None);
}
