//! The transformation passes and the joint fixed point, end to end with real
//! oracles (gcc, node, javac).

use expect_test::expect;

use crate::util::{is_interesting, rounds_sum, Dir};

fn stats(d: &Dir) -> serde_json::Value {
    serde_json::from_slice(&d.read("stats.json")).unwrap()
}

/// Reduce `file` in `d` with `oracle.sh`, only the given passes and the `extra` flags, writing
/// `stats.json`; returns the output (`name.reduced.ext`).
fn reduce_with(d: &Dir, passes: &str, file: &str, extra: &[&str]) -> String {
    let mut args = vec![
        "--test",
        "oracle.sh",
        "--passes",
        passes,
        "--stats",
        "stats.json",
        "-q",
    ];
    args.extend_from_slice(extra);
    args.push(file);
    d.run(&args).expect_code(0);
    let (stem, ext) = file.rsplit_once('.').unwrap();
    d.read_string(&format!("{stem}.reduced.{ext}"))
}

/// Candidates of `pass` accepted over all rounds (`--stats` `rounds`).
fn accepted(s: &serde_json::Value, pass: &str) -> u64 {
    rounds_sum(s, "accepted", |r| r["pass"] == pass)
}

/// Identifiers of `text` (runs of letters, digits and `_` starting with a letter or `_`).
fn words(text: &str) -> Vec<&str> {
    text.split(|c: char| !(c.is_ascii_alphanumeric() || c == '_'))
        .filter(|w| {
            w.chars()
                .next()
                .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        })
        .collect()
}

/// A C program that must still print 42 when compiled with gcc and run; a program that does
/// not end within half a second does not (emptied bodies loop: `{for(;;);}`), an answer its
/// memo keeps where treedd's own timeout would leave none.
pub(crate) const PRINTS_42: &str = r#"gcc -w -o "$1.bin" "$1" 2>/dev/null || exit 1
out=$(timeout 0.5 "$1.bin"); rm -f "$1.bin"
[ "$out" = 42 ]"#;

#[test]
fn c_long_names_shrink_to_one_letter() {
    let d = Dir::new();
    d.write(
        "names.c",
        "int printf(const char *, ...);\n\
         typedef int counter_type;\n\
         static counter_type global_accumulator = 40;\n\
         static counter_type accumulate_values(counter_type first_value, counter_type second_value) {\n\
         \x20   return first_value + second_value;\n\
         }\n\
         int main(void) {\n\
         \x20   printf(\"%d\\n\", accumulate_values(global_accumulator, 2));\n\
         \x20   return 0;\n\
         }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "rename", "names.c", &[]);
    assert!(is_interesting(&oracle, "names.c", out.as_bytes()), "{out}");
    for w in words(&out) {
        assert!(
            w.len() == 1
                || [
                    "int", "printf", "const", "char", "main", "void", "return", "static", "typedef"
                ]
                .contains(&w),
            "{w:?} was not shortened in\n{out}"
        );
    }
    let s = stats(&d);
    let rename: Vec<&serde_json::Value> = s["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["pass"] == "rename")
        .collect();
    assert!(rename[0]["accepted"].as_u64().unwrap() >= 1);
    assert!(rename[0]["chars_removed"].as_i64().unwrap() > 40, "{s}");
    assert_eq!(s["passes"], serde_json::json!(["rename"]));
}

#[test]
fn c_renaming_never_clashes_with_names_in_the_file() {
    let d = Dir::new();
    // `a` and `b` are taken; `do` and `if` are keywords: none may be a new name.
    let mut src = String::from("int printf(const char *, ...);\nint a = 20, b = 22;\n");
    for i in 0..40 {
        src.push_str(&format!("int variable_{i} = {i};\n"));
    }
    src.push_str(
        "int main(void) { printf(\"%d\\n\", a + b + variable_0 * variable_39); return 0; }\n",
    );
    d.write("clash.c", &src);
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "rename", "clash.c", &[]);
    assert!(is_interesting(&oracle, "clash.c", out.as_bytes()), "{out}");
    assert!(!out.contains("variable_"), "{out}");
}

#[test]
fn c_unused_parameter_and_its_arguments_vanish_together() {
    let d = Dir::new();
    d.write(
        "params.c",
        "int printf(const char *, ...);\n\
         void show(int wanted, int ignored, int also_ignored) { printf(\"%d\", wanted); }\n\
         int main(void) { show(4, 7, 8); show(2, 9, 10); return 0; }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "params", "params.c", &[]);
    assert!(is_interesting(&oracle, "params.c", out.as_bytes()), "{out}");
    assert!(!out.contains("ignored"), "{out}");
    // The arguments of the removed parameters went with them.
    for arg in ["7", "8", "9", "10"] {
        assert!(!out.contains(arg), "{arg} left in\n{out}");
    }
    let params = accepted(&stats(&d), "params");
    assert!(
        params >= 2,
        "both unused parameters removed with their arguments"
    );
}

#[test]
fn c_call_inlined_and_if_turned_into_its_condition() {
    let d = Dir::new();
    d.write(
        "calls.c",
        "int printf(const char *, ...);\n\
         static int combine_values(int left, int right) { return left * 10 + right; }\n\
         int main(void) {\n\
         \x20   int r = 1;\n\
         \x20   if (r++ > 0) { r = r * 1; } else { r = 5; }\n\
         \x20   printf(\"%d\\n\", combine_values(4, r));\n\
         \x20   return 0;\n\
         }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "inline-calls,rewrite", "calls.c", &[]);
    assert!(is_interesting(&oracle, "calls.c", out.as_bytes()), "{out}");
    // The call became its value and the function went; the `if` became its condition, which
    // must stay for its side effect.
    assert!(!out.contains("combine_values"), "{out}");
    assert!(out.contains("4 * 10 + r"), "{out}");
    assert!(!out.contains("if") && out.contains("r++"), "{out}");
    let s = stats(&d);
    assert!(accepted(&s, "inline-calls") >= 1, "{s}");
    assert!(accepted(&s, "rewrite") >= 1, "{s}");
}

#[test]
fn c_statement_expressions_of_inlined_calls_are_opened_up() {
    // The function's body has two statements before its value, so the call becomes a GNU C
    // statement expression binding the parameter; `rewrite` then moves the statements in
    // front of the `printf` statement and leaves the value in the call's place.
    let d = Dir::new();
    d.write(
        "stmt.c",
        "int printf(const char *, ...);\n\
         static int bump_twice(int *counter) { *counter += 1; *counter += 1; return *counter; }\n\
         int main(void) {\n\
         \x20   int x = 40;\n\
         \x20   printf(\"%d\\n\", bump_twice(&x));\n\
         \x20   return 0;\n\
         }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "inline-calls,rewrite", "stmt.c", &[]);
    assert!(is_interesting(&oracle, "stmt.c", out.as_bytes()), "{out}");
    assert!(!out.contains("bump_twice") && !out.contains("({"), "{out}");
    let compact: String = out.split_whitespace().collect();
    assert!(
        compact.contains("*counter+=1;*counter+=1;printf(") && compact.contains(",*counter);"),
        "{out}"
    );
    let s = stats(&d);
    assert!(accepted(&s, "inline-calls") >= 1, "{s}");
    assert!(accepted(&s, "rewrite") >= 1, "{s}");
}

#[test]
fn c_a_call_with_fewer_arguments_is_inlined_with_the_rest_declared() {
    // `b` is declared without a prototype and called with one argument of its two: the call
    // becomes the body with `d` declared, uninitialized, and assigned by the body's first
    // statement.
    let d = Dir::new();
    d.write(
        "fewer.c",
        "int printf(const char *, ...);\n\
         static long b();\n\
         int main(void) {\n\
         \x20   long r = b(40L);\n\
         \x20   printf(\"%ld\\n\", r);\n\
         \x20   return 0;\n\
         }\n\
         static long b(long c, int d) { d = 2; c += d; return c; }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "inline-calls,rewrite", "fewer.c", &[]);
    assert!(is_interesting(&oracle, "fewer.c", out.as_bytes()), "{out}");
    assert!(!out.contains("b(") && out.contains("d = 2;"), "{out}");
    assert!(accepted(&stats(&d), "inline-calls") >= 1);
}

#[test]
fn c_declarations_merge_into_one_at_file_scope() {
    // `rewrite`'s merges (C-Reduce's combine-local-var, combine-global-var and
    // local-to-global): `int second` joins `int first` (same type), the block's declarations
    // join the file-scope `long total`, one `;` and one type less each time.
    let d = Dir::new();
    d.write(
        "merge.c",
        "int printf(const char *, ...);\n\
         long total;\n\
         int main(void) {\n\
         \x20   int first = 40;\n\
         \x20   int second = 2;\n\
         \x20   long third;\n\
         \x20   third = first + second;\n\
         \x20   total = third;\n\
         \x20   printf(\"%ld\\n\", total);\n\
         \x20   return 0;\n\
         }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "rewrite", "merge.c", &[]);
    assert!(is_interesting(&oracle, "merge.c", out.as_bytes()), "{out}");
    let compact: String = out.split_whitespace().collect();
    // Everything before `main` is one declaration holding all four variables.
    let head = compact.split("main").next().unwrap();
    assert_eq!(head.matches(';').count(), 1, "{out}");
    for part in ["total", "first=40", "second=2", "third"] {
        assert!(head.contains(part), "{out}");
    }
    assert!(accepted(&stats(&d), "rewrite") >= 3);
}

#[test]
fn python_and_rust_copies_of_variables_propagated_into_their_uses() {
    // `inline` with `[[inline]]`'s assignment (Python) and `let` (Rust) entries.
    let d = Dir::new();
    d.write("copy.py", "answer = 40\ntotal = answer + 2\nprint(total)\n");
    let oracle = d.script("oracle.sh", r#"[ "$(python3 "$1")" = 42 ]"#);
    let out = reduce_with(&d, "inline", "copy.py", &[]);
    assert!(is_interesting(&oracle, "copy.py", out.as_bytes()), "{out}");
    assert!(!out.contains("answer") && !out.contains("total"), "{out}");
    assert!(accepted(&stats(&d), "inline") >= 2);

    let d = Dir::new();
    d.write(
        "copy.rs",
        "fn main() {\n    let answer = 40;\n    let total = answer + 2;\n    \
         println!(\"{}\", total);\n}\n",
    );
    let oracle = d.script(
        "oracle.sh",
        r#"b="$TMPDIR/copy.$$"; rustc --edition 2021 -o "$b" "$1" 2>/dev/null && [ "$("$b")" = 42 ]"#,
    );
    let out = reduce_with(&d, "inline", "copy.rs", &[]);
    assert!(is_interesting(&oracle, "copy.rs", out.as_bytes()), "{out}");
    assert!(!out.contains("answer") && !out.contains("total"), "{out}");
    assert!(accepted(&stats(&d), "inline") >= 2);
}

#[test]
fn c_copies_of_variables_propagated_into_their_uses() {
    // `inline` with the `declaration` entry of `[[inline]]` (C-Vise's copy-propagation):
    // each declaration of one initialized variable goes, its value takes its uses' place.
    let d = Dir::new();
    d.write(
        "copy.c",
        "int printf(const char *, ...);\n\
         int main(void) {\n\
         \x20   int answer = 40;\n\
         \x20   int copy = answer;\n\
         \x20   int sum = copy + 2;\n\
         \x20   printf(\"%d\\n\", sum);\n\
         \x20   return 0;\n\
         }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "inline", "copy.c", &[]);
    assert!(is_interesting(&oracle, "copy.c", out.as_bytes()), "{out}");
    let compact: String = out.split_whitespace().collect();
    assert!(compact.contains("printf(\"%d\",40+2)"), "{out}");
    for gone in ["answer", "copy", "sum"] {
        assert!(!compact.contains(gone), "{out}");
    }
    assert!(accepted(&stats(&d), "inline") >= 3);
}

#[test]
fn javascript_declarations_merge_and_constants_propagate() {
    // node must still print `ok2`: the function's `var` and `const` join the top-level `var`
    // (`rewrite`), then the copies are propagated (`inline`).
    let d = Dir::new();
    d.write(
        "m.js",
        "var greeting = \"ok\";\nfunction show() {\n  var count = 2;\n  \
         const label = greeting + count;\n  console.log(label);\n}\nshow();\n",
    );
    let oracle = d.script("oracle.sh", r#"[ "$(node "$1" 2>/dev/null)" = ok2 ]"#);
    let out = reduce_with(&d, "rewrite", "m.js", &[]);
    assert!(is_interesting(&oracle, "m.js", out.as_bytes()), "{out}");
    let compact: String = out.split_whitespace().collect();
    assert!(
        compact.starts_with("vargreeting=\"ok\",count=2,label=greeting+count;"),
        "{out}"
    );
    let out = reduce_with(&d, "rewrite,inline", "m.js", &[]);
    let compact: String = out.split_whitespace().collect();
    assert!(compact.contains("console.log(\"ok\"+2)"), "{out}");
    assert!(!compact.contains("var"), "{out}");
}

#[test]
fn c_expression_replaced_by_zero_from_grammar_data() {
    // The exit status must be 0 from a `return`, and no `0` is in the file (hoisting only
    // finds `k`, `k * k` and `9`): sub-tree replacement takes it from `[constants]` in
    // passes.toml; then `k`'s declaration is dead.
    let d = Dir::new();
    d.write(
        "zero.c",
        "int main(void) {\n\
         \x20   int k = 3;\n\
         \x20   return k * k - 9;\n\
         }\n",
    );
    let oracle = d.script(
        "oracle.sh",
        r#"grep -q return "$1" && gcc -w -o "$1.bin" "$1" 2>/dev/null || exit 1
"$1.bin"; status=$?; rm -f "$1.bin"; exit $status"#,
    );
    let out = reduce_with(&d, "subtrees", "zero.c", &[]);
    assert!(is_interesting(&oracle, "zero.c", out.as_bytes()), "{out}");
    let compact: String = out.split_whitespace().collect();
    assert_eq!(compact.replace("(void)", "()"), "intmain(){return0;}");
    assert!(accepted(&stats(&d), "subtrees") >= 1);
}

#[test]
fn c_sized_type_replaced_by_int_from_grammar_data() {
    // `long` is a sized type whose shortest form is `long`, and no `int` is in the file:
    // sub-tree replacement takes `int` from `[constants]` in passes.toml. gcc must accept
    // the result with explicit types (no implicit int).
    let d = Dir::new();
    d.write("long.c", "unsigned long count(long n) { return n + 1; }\n");
    let oracle = d.script(
        "oracle.sh",
        r#"grep -q 'count(' "$1" && gcc -c -w -Werror=implicit-int -x c -o /dev/null "$1" 2>/dev/null"#,
    );
    let out = reduce_with(&d, "subtrees", "long.c", &[]);
    assert!(is_interesting(&oracle, "long.c", out.as_bytes()), "{out}");
    assert!(!out.contains("long"), "{out}");
    assert!(out.starts_with("int count("), "{out}");
    assert!(accepted(&stats(&d), "subtrees") >= 1);
}

#[test]
fn c_typedef_replaced_by_int_and_literals_shrunk() {
    let d = Dir::new();
    d.write(
        "lit.c",
        "int printf(const char *, ...);\n\
         typedef long my_long_integer_type;\n\
         my_long_integer_type g = 0x7FFFL;\n\
         int main(void) { my_long_integer_type x = 42; printf(\"%d\\n\", (int)x); return g == 0x7FFFL ? 0 : 0; }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    let out = reduce_with(&d, "literals,replace-ids", "lit.c", &[]);
    assert!(is_interesting(&oracle, "lit.c", out.as_bytes()), "{out}");
    assert!(!out.contains("0x7FFFL"), "literal shrunk: {out}");
    assert!(
        !out.contains("my_long_integer_type"),
        "typedef made dead and removed: {out}"
    );
}

#[test]
fn javascript_string_literal_emptied() {
    let d = Dir::new();
    d.write(
        "str.js",
        "console.log(typeof \"a long explanation nobody needs to read\");\n",
    );
    let oracle = d.script("oracle.sh", r#"node "$1" 2>/dev/null | grep -qx string"#);
    let out = reduce_with(&d, "literals", "str.js", &[]);
    assert!(is_interesting(&oracle, "str.js", out.as_bytes()), "{out}");
    let squeezed: String = out.split_whitespace().collect();
    assert_eq!(squeezed, "console.log(typeof\"\");");
}

#[test]
fn javascript_helper_called_once_becomes_its_body_and_the_declaration_its_value() {
    // node must still throw the RangeError. The helper returns nothing and is called as a
    // statement: `inline-calls` puts its body in the call's place, `rewrite` turns the
    // declaration into its initializer, and the tree algorithm removes the leftovers.
    let d = Dir::new();
    d.write(
        "range.js",
        "function makeBuffer(requestedLength) {\n  const buffer = new Array(requestedLength);\n}\n\
         makeBuffer(-1);\n",
    );
    let oracle = d.script(
        "oracle.sh",
        r#"node "$1" 2>&1 >/dev/null | grep -qF "RangeError: Invalid array length""#,
    );
    let out = reduce_with(&d, "inline-calls,rewrite", "range.js", &[]);
    assert!(is_interesting(&oracle, "range.js", out.as_bytes()), "{out}");
    let squeezed: String = out.split_whitespace().collect();
    assert_eq!(squeezed, "newArray(-1);");
    let s = stats(&d);
    assert_eq!(
        (accepted(&s, "inline-calls"), accepted(&s, "rewrite")),
        (1, 1)
    );
}

#[test]
fn token_search_removes_what_no_node_boundary_allows() {
    let d = Dir::new();
    // gcc accepts `main() {...}` (implicit int, -w): only token search can drop the `int`.
    // tree-sitter-c parses `main(){}` with an error, so the syntax filter is off here.
    d.write("tok.c", "int main() { return 0; }\n");
    let oracle = d.script(
        "oracle.sh",
        r#"gcc -w -std=gnu89 -fsyntax-only "$1" 2>/dev/null && grep -q main "$1""#,
    );
    let out = reduce_with(&d, "tokens", "tok.c", &["--no-syntax-filter"]);
    assert!(is_interesting(&oracle, "tok.c", out.as_bytes()), "{out}");
    assert!(!out.contains("int"), "{out}");
}

/// Idempotence on a JavaScript fixture (node, `smallest`) and a Java type error (javac,
/// default preset).
#[test]
fn fixed_point_of_itself_for_javascript_and_java() {
    let d = Dir::new();
    d.copy_fixture("javascript/typeerror");
    let input = std::fs::read_dir(&d.path)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .find(|n| n.ends_with(".js"))
        .unwrap();
    // The second reduction's first round is the first one's last: a memo answers it.
    d.memo_script("memo.sh", "oracle.sh");
    d.run(&["--test", "memo.sh", "--preset", "smallest", "-q", &input])
        .expect_code(0);
    let reduced = input.replace(".js", ".reduced.js");
    let first = d.read(&reduced);
    d.write("again.js", &first);
    d.run(&[
        "--test", "memo.sh", "--preset", "smallest", "-q", "again.js",
    ])
    .expect_code(0);
    assert_eq!(d.read("again.reduced.js"), first);

    // Java: javac must still report the same type error.
    let j = Dir::new();
    j.write(
        "Main.java",
        "public class Main {\n\
         \x20 static int unusedHelper(int value, int other) { return value * other; }\n\
         \x20 public static void main(String[] arguments) {\n\
         \x20   int counterValue = \"not a number\";\n\
         \x20   System.out.println(counterValue + unusedHelper(1, 2));\n\
         \x20 }\n\
         }\n",
    );
    j.script(
        "oracle.sh",
        concat!(
            crate::javac_fast!(),
            r#"dir=$(mktemp -d) || exit 1
cp "$1" "$dir/Main.java" && cd "$dir" &&
  javac_fast Main.java 2>&1 | grep -q "String cannot be converted to int"
r=$?; rm -rf "$dir"; exit $r"#
        ),
    );
    j.memo_script("memo.sh", "oracle.sh");
    j.run(&["--test", "memo.sh", "-q", "Main.java"])
        .expect_code(0);
    let first = j.read_string("Main.reduced.java");
    assert!(
        !first.contains("unusedHelper") && !first.contains("counterValue"),
        "{first}"
    );
    j.write("Again.java", &first);
    j.run(&["--test", "memo.sh", "-q", "Again.java"])
        .expect_code(0);
    assert_eq!(j.read_string("Again.reduced.java"), first);
}

#[test]
fn passes_do_not_depend_on_jobs() {
    let d = Dir::new();
    d.write(
        "jobs.c",
        "int printf(const char *, ...);\n\
         typedef int number_type;\n\
         number_type add_numbers(number_type left, number_type right, number_type unused) { return left + right; }\n\
         int main(void) { printf(\"%d\\n\", add_numbers(40, 2, 0x1234)); return 0; }\n",
    );
    d.script("oracle.sh", PRINTS_42);
    // Three jobs first: the one-job reduction then finds most answers in the memo.
    d.memo_script("memo.sh", "oracle.sh");
    let mut outputs = Vec::new();
    for jobs in ["3", "1"] {
        d.run(&[
            "--test",
            "memo.sh",
            "--preset",
            "smallest",
            "--jobs",
            jobs,
            "--output",
            &format!("out{jobs}.c"),
            "-q",
            "jobs.c",
        ])
        .expect_code(0);
        outputs.push(d.read_string(&format!("out{jobs}.c")));
    }
    assert_eq!(outputs[0], outputs[1]);
}

#[test]
fn passes_flags() {
    let d = Dir::new();
    d.write("x.c", "int main(void) { return 0; }\n");
    d.script("oracle.sh", "grep -q main \"$1\"");
    d.run(&["--test", "oracle.sh", "--passes", "rename,bogus", "x.c"])
        .expect_code(2)
        .expect_message(&d, &expect![[r#"
            error: invalid value 'bogus' for '--passes <LIST>': unknown pass `bogus`: use bodies, strip, literals, inline, inline-calls, rewrite, replace-ids, rename, params, subtrees, tokens

            For more information, try '--help'.
        "#]]);
    d.run(&[
        "--test",
        "oracle.sh",
        "--passes",
        "rename",
        "--no-passes",
        "x.c",
    ])
    .expect_code(2);
    d.run(&[
        "--test",
        "oracle.sh",
        "--language",
        "text",
        "--passes",
        "rename",
        "x.c",
    ])
    .expect_code(7)
    .expect_message(
        &d,
        &expect![[r#"
        treedd: error: --passes applies to the tree algorithms, but text is reduced by ddmin
    "#]],
    );
    d.run(&[
        "--test",
        "oracle.sh",
        "--no-passes",
        "--stats",
        "stats.json",
        "-q",
        "x.c",
    ])
    .expect_code(0);
    let s = stats(&d);
    assert_eq!(s["passes"], serde_json::json!([]));
    assert!(s["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .all(|r| r["pass"] == "tree"));
}

/// Every preset's output is a fixed point of the same preset (helloworld.c, gcc).
#[test]
fn every_preset_is_a_fixed_point_of_itself_on_helloworld() {
    for preset in ["smallest", "balanced", "fastest"] {
        let d = Dir::new();
        d.copy_fixture("c/helloworld");
        d.run(&[
            "--test",
            "oracle.sh",
            "--preset",
            preset,
            "-q",
            "helloworld.c",
        ])
        .expect_code(0);
        let first = d.read_string("helloworld.reduced.c");
        d.write("again.c", &first);
        d.run(&[
            "--test",
            "oracle.sh",
            "--preset",
            preset,
            "--stats",
            "stats.json",
            "-q",
            "again.c",
        ])
        .expect_code(0);
        assert_eq!(d.read_string("again.reduced.c"), first, "{preset}");
        let s = stats(&d);
        assert!(s["mean_busy_workers"].as_f64().is_some(), "{s}");
        assert!(s["discarded"].as_u64().is_some(), "{s}");
    }
}
