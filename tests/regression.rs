//! Regression tests: each pins a failure found in use (on real inputs, or by a user's
//! command line) to the smallest case that showed it.

use std::io::{BufRead, BufReader};
use std::process::Stdio;

use expect_test::expect;

use crate::passes::PRINTS_42;
use crate::util::{is_interesting, numbers, Dir};

/// `--jobs 100000` is a usage error, not an attempt to start 100,000 threads.
#[test]
fn a_huge_jobs_value_is_a_usage_error_not_a_crash() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..5));
    d.script("ok.sh", "exit 0");
    d.run(&["--test", "ok.sh", "--jobs", "100000", "input.txt"])
        .expect_code(2)
        .expect_message(
            &d,
            &expect![[r#"
            error: invalid value '100000' for '--jobs <N>': 100000 is not in 1..=1024

            For more information, try '--help'.
        "#]],
        );
}

/// `--dump-tree` into a pipe whose reader has gone: treedd's writes fail with EPIPE, which
/// is the end of the output, not an error.
#[test]
fn dump_tree_into_a_closed_pipe_is_not_an_error() {
    let d = Dir::new();
    let src: String = (0..2000)
        .map(|i| format!("int f{i}(int a) {{ return a + {i}; }}\n"))
        .collect();
    d.write("big.c", src);
    let mut child = d
        .cmd()
        .args(["--dump-tree", "big.c"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let mut first = String::new();
    BufReader::new(child.stdout.take().unwrap())
        .read_line(&mut first)
        .unwrap();
    assert_eq!(first, "translation_unit\n");
    // The reader is gone: treedd's next writes fail with EPIPE.
    let out = child.wait_with_output().unwrap();
    assert_eq!(
        out.status.code(),
        Some(0),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

/// Two fixes found on the real c-ice crashes, shown with gcc: a parenthesized
/// expression whose pruning changes nothing (`(x)` is its own minimal replacement) stays open
/// to hoisting, so `(x)` becomes `x` (C's `identifier` is in two compatibility groups,
/// expressions and declarators, and both count); and the parts of `for (...)` are optional
/// positions (`field('update', optional(...))` in tree-sitter-c), so `for (0; x; 0)` becomes
/// `for (; x;)`.
#[test]
fn parentheses_are_hoisted_and_for_headers_emptied() {
    let d = Dir::new();
    d.write(
        "p.c",
        "int x;\nint f(void) { int total; total = (x); for (total = 0; x; total++) x--; return total; }\n",
    );
    d.script(
        "oracle.sh",
        "gcc -fsyntax-only -w \"$1\" && grep -q 'total *= *(*x' \"$1\" && grep -q 'for *(.*; *x *;' \"$1\"",
    );
    let out = reduce_text(&d, &["--no-passes"]);
    assert!(
        out.contains("total =x;") || out.contains("total = x;"),
        "{out}"
    );
    assert!(out.contains("for (;"), "{out}");
    assert!(!out.contains("(x)"), "{out}");
}

fn reduce_text(d: &Dir, extra: &[&str]) -> String {
    let mut args = vec!["--test", "oracle.sh", "-q"];
    args.extend_from_slice(extra);
    args.push("p.c");
    d.run(&args).expect_code(0);
    d.read_string("p.reduced.c")
}

/// Replacement strings left behind by pruning are ordinary nodes in the next round: no `;;`.
#[test]
fn no_semicolon_leftovers_and_treedd_is_a_fixed_point_of_itself() {
    let d = Dir::new();
    d.write(
        "semi.c",
        "int printf(const char *, ...);\n\
         struct unused_one { int x; };\n\
         int unused_two(void) { return 1; }\n\
         int main(void) { int k = 39; k = k + 1; k++; printf(\"%d\\n\", k + 1); return 0; }\n",
    );
    let oracle = d.script("oracle.sh", PRINTS_42);
    d.run(&["--test", "oracle.sh", "-q", "semi.c"])
        .expect_code(0);
    let first = d.read_string("semi.reduced.c");
    assert!(
        is_interesting(&oracle, "semi.c", first.as_bytes()),
        "{first}"
    );
    assert!(
        !first.contains(";;") && !first.trim_start().starts_with(';'),
        "{first}"
    );
    d.write("again.c", &first);
    d.run(&[
        "--test",
        "oracle.sh",
        "--stats",
        "stats.json",
        "-q",
        "again.c",
    ])
    .expect_code(0);
    assert_eq!(d.read_string("again.reduced.c"), first);
}
