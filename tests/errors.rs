//! Every fatal error: a message naming the problem (snapshotted whole, the test directory
//! shown as `$DIR`; refresh with `UPDATE_EXPECT=1`), and its own exit code.

use expect_test::{expect, Expect};

use crate::util::{numbers, Dir};

/// A directory with `input.txt` (numbers) and an always-interesting `ok.sh`.
fn setup() -> Dir {
    let d = Dir::new();
    d.write("input.txt", numbers(0..5));
    d.script("ok.sh", "exit 0");
    d
}

#[test]
fn missing_input() {
    let d = setup();
    d.run(&["--test", "ok.sh", "nope.txt"])
        .expect_code(3)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: cannot read input nope.txt: No such file or directory (os error 2)
        "#]],
        );
    // A missing input, or an empty directory, is reported as such even when its name has no
    // extension treedd knows, not as a language it cannot tell.
    d.run(&["--test", "ok.sh", "nope.zzz"])
        .expect_code(3)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: cannot read input nope.zzz: No such file or directory (os error 2)
        "#]],
        );
    std::fs::create_dir(d.join("somedir")).unwrap();
    d.run(&["--test", "ok.sh", "somedir"])
        .expect_code(3)
        .expect_message(&d, &expect![[r#"
            treedd: error: cannot read input somedir: it holds no files; give a directory with the files to reduce
        "#]]);
}

#[test]
fn unreadable_input() {
    let d = setup();
    std::fs::create_dir(d.join("dir.txt")).unwrap();
    d.run(&["--test", "ok.sh", "dir.txt"])
        .expect_code(3)
        .expect_message(&d, &expect![[r#"
            treedd: error: cannot read input dir.txt: it holds no files; give a directory with the files to reduce
        "#]]);
}

#[test]
fn missing_oracle() {
    let d = setup();
    d.run(&["--test", "./nope.sh", "input.txt"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: oracle ./nope.sh not found
        "#]],
        );
    d.run(&["--test", "treedd-no-such-command", "input.txt"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: oracle treedd-no-such-command not found
        "#]],
        );
}

#[test]
fn oracle_not_executable() {
    let d = setup();
    d.write("plain.sh", "#!/bin/sh\nexit 0\n");
    d.run(&["--test", "plain.sh", "input.txt"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: oracle $DIR/plain.sh is not an executable file
        "#]],
        );
}

#[test]
fn oracle_cannot_start() {
    let d = setup();
    // Executable, but no #! line: exec fails (treedd uses no shell).
    d.script("noshebang.sh", "");
    std::fs::write(d.join("noshebang.sh"), "exit 0\n").unwrap();
    d.run(&["--test", "noshebang.sh", "input.txt"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: cannot run $DIR/noshebang.sh: Exec format error (os error 8)
        "#]],
        );
}

#[test]
fn original_not_interesting_shows_code_stderr_and_recipe() {
    let d = setup();
    d.script(
        "bad.sh",
        "echo 'oracle: cannot find needle' >&2; echo more >&2; exit 3",
    );
    let run = d.run(&["--test", "bad.sh", "input.txt"]);
    run.expect_code(5).expect_message(&d, &expect![[r#"
        treedd: error: the oracle does not find the original input interesting (exit code 3)
          its stderr began with:
          | oracle: cannot find needle
          | more
          the oracle must exit 0 on the original input; reproduce its run with:
          d=$(mktemp -d) && cp $DIR/input.txt "$d"/input.txt && (cd "$d" && $DIR/bad.sh "$d"/input.txt); echo "exit status $?"
    "#]]);
    assert!(!d.join("input.reduced.txt").exists());
    // The recipe is a working shell command reproducing the oracle's run.
    let (recipe, stdout, stderr) = run.run_recipe();
    assert!(recipe.starts_with("d=$(mktemp -d)"), "{recipe}");
    assert!(stdout.contains("exit status 3"), "{stdout}");
    assert!(stderr.contains("cannot find needle"), "{stderr}");
}

#[test]
fn original_killed_by_signal() {
    let d = setup();
    d.script("kill.sh", "kill -9 $$");
    d.run(&["--test", "kill.sh", "input.txt"])
        .expect_code(5)
        .expect_message(&d, &expect![[r#"
            treedd: error: the oracle does not find the original input interesting (killed by signal 9)
              the oracle must exit 0 on the original input; reproduce its run with:
              d=$(mktemp -d) && cp $DIR/input.txt "$d"/input.txt && (cd "$d" && $DIR/kill.sh "$d"/input.txt); echo "exit status $?"
        "#]]);
}

#[test]
fn original_times_out() {
    let d = setup();
    d.script("slow.sh", "sleep 1000");
    d.run(&["--test", "slow.sh", "--timeout", "0.2", "input.txt"])
        .expect_code(5)
        .expect_message(&d, &expect![[r#"
            treedd: error: the oracle does not find the original input interesting (timed out after 0.2s; raise --timeout if the oracle needs longer)
              the oracle must exit 0 on the original input; reproduce its run with:
              d=$(mktemp -d) && cp $DIR/input.txt "$d"/input.txt && (cd "$d" && $DIR/slow.sh "$d"/input.txt); echo "exit status $?"
        "#]]);
}

#[test]
fn unknown_language() {
    let d = setup();
    d.run(&["--test", "ok.sh", "--language", "cobol", "input.txt"])
        .expect_code(6)
        .expect_message(&d, &expect![[r#"
            treedd: error: unknown language "cobol"; use one of c, cpp, javascript, typescript, java, rust, python, go, html, css, text, or --grammar DIR
        "#]]);
    d.write("input.zzz", "x");
    d.run(&["--test", "ok.sh", "input.zzz"])
        .expect_code(6)
        .expect_message(&d, &expect![[r#"
            treedd: error: cannot tell the language of input.zzz from its extension; use --language c|cpp|javascript|typescript|java|rust|python|go|html|css|text (or --grammar DIR)
        "#]]);
}

#[test]
fn conflicting_options() {
    let d = setup();
    d.write("input.c", "int main(void) { return 0; }\n");
    let cases: Vec<(&[&str], Expect)> = vec![
        (
            &["--hoist", "pre", "input.txt"],
            expect![[r#"
            treedd: error: --hoist pre needs a tree algorithm, but text is reduced by ddmin
        "#]],
        ),
        (
            &["--algorithm", "hdd", "input.txt"],
            expect![[r#"
            treedd: error: --algorithm hdd needs a grammar, but the language is text
        "#]],
        ),
        (
            &["--preset", "fastest", "input.txt"],
            expect![[r#"
            treedd: error: --preset chooses tree algorithms, but the language is text
        "#]],
        ),
        (
            &["--unit", "line", "input.c"],
            expect![[r#"
            treedd: error: --unit applies to text reduction only (--language text or --algorithm ddmin), but the language is c
        "#]],
        ),
        (
            &["--algorithm", "ddmin", "--hoist", "both", "input.c"],
            expect![[r#"
                treedd: error: --hoist both needs a tree algorithm, but text is reduced by ddmin
            "#]],
        ),
        (
            &["--output", "./input.txt", "input.txt"],
            expect![[r#"
            treedd: error: --output ./input.txt is the input file; treedd never modifies its input
        "#]],
        ),
        (
            &["--stats", "input.reduced.txt", "input.txt"],
            expect![[r#"
                treedd: error: --stats input.reduced.txt is the input or the output file
            "#]],
        ),
        (
            &["--dump-tree", "input.txt"],
            expect![[r#"
            treedd: error: --dump-tree and --print-tree-stats need a grammar, but the language is text
        "#]],
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["--test", "ok.sh"];
        all.extend_from_slice(args);
        d.run(&all).expect_code(7).expect_message(&d, &message);
    }
    assert_eq!(d.read_string("input.txt"), numbers(0..5));
}

#[test]
fn usage_errors_are_clap_errors() {
    let d = setup();
    d.run(&["input.txt"]).expect_code(2).expect_message(
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
    d.run(&["--test", "ok.sh", "--jobs", "0", "input.txt"])
        .expect_code(2)
        .expect_message(
            &d,
            &expect![[r#"
            error: invalid value '0' for '--jobs <N>': 0 is not in 1..=1024

            For more information, try '--help'.
        "#]],
        );
    d.run(&["--test", "ok.sh", "--timeout=0", "input.txt"])
        .expect_code(2)
        .expect_message(&d, &expect![[r#"
            error: invalid value '0' for '--timeout <SECONDS|none>': "0" is not a positive number of seconds (or none)

            For more information, try '--help'.
        "#]]);
    d.run(&["--test", "ok.sh", "--unit", "word", "input.txt"])
        .expect_code(2)
        .expect_message(
            &d,
            &expect![[r#"
            error: invalid value 'word' for '--unit <UNIT>'
              [possible values: line, char, line+char]

            For more information, try '--help'.
        "#]],
        );
}

#[test]
fn no_temporary_directory() {
    let d = setup();
    let run = d
        .cmd()
        .args(["--test", "ok.sh", "input.txt"])
        .env("TMPDIR", d.join("missing"))
        .output()
        .unwrap();
    let run = crate::util::Run::from(run);
    run.expect_code(1).expect_message(&d, &expect![[r#"
        treedd: error: cannot make a temporary directory in $DIR/missing: No such file or directory (os error 2) at path "$DIR/missing/treedd-run-PID-XXXXXX"
    "#]]);
}

#[test]
fn output_not_writable() {
    let d = setup();
    d.run(&[
        "--test",
        "ok.sh",
        "--output",
        "no/such/dir/out.txt",
        "input.txt",
    ])
    .expect_code(9)
    .expect_message(&d, &expect![[r#"
        treedd: error: cannot write output no/such/dir/out.txt: No such file or directory (os error 2) at path "$DIR/no/such/dir/.treedd-XXXXXX"
    "#]]);
}

#[test]
fn help_explains_the_oracle() {
    let d = setup();
    let run = d.run(&["--help"]);
    run.expect_code(0);
    for needle in [
        "THE ORACLE",
        "#!/bin/sh",
        "--test <ORACLE>",
        "--timeout",
        "DEBUG OPTIONS",
        "130",
    ] {
        assert!(
            run.stdout.contains(needle),
            "--help lacks {needle:?}:\n{}",
            run.stdout
        );
    }
}
