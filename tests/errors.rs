//! Every fatal error: a one-line message naming the problem, and its own exit code.

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
        .expect_stderr("treedd: error: cannot read input nope.txt: No such file or directory");
    // A missing input, or a directory, is reported as such even when its name has no
    // extension treedd knows, not as a language it cannot tell.
    d.run(&["--test", "ok.sh", "nope.zzz"])
        .expect_code(3)
        .expect_stderr("treedd: error: cannot read input nope.zzz: No such file or directory");
    std::fs::create_dir(d.join("somedir")).unwrap();
    d.run(&["--test", "ok.sh", "somedir"])
        .expect_code(3)
        .expect_stderr("cannot read input somedir: it is a directory");
}

#[test]
fn unreadable_input() {
    let d = setup();
    std::fs::create_dir(d.join("dir.txt")).unwrap();
    d.run(&["--test", "ok.sh", "dir.txt"])
        .expect_code(3)
        .expect_stderr("cannot read input dir.txt");
}

#[test]
fn missing_oracle() {
    let d = setup();
    d.run(&["--test", "./nope.sh", "input.txt"])
        .expect_code(4)
        .expect_stderr("nope.sh not found");
    d.run(&["--test", "treedd-no-such-command", "input.txt"])
        .expect_code(4)
        .expect_stderr("oracle treedd-no-such-command not found");
}

#[test]
fn oracle_not_executable() {
    let d = setup();
    d.write("plain.sh", "#!/bin/sh\nexit 0\n");
    d.run(&["--test", "plain.sh", "input.txt"])
        .expect_code(4)
        .expect_stderr("plain.sh is not an executable file");
}

#[test]
fn oracle_cannot_start() {
    let d = setup();
    // Executable, but no #! line: exec fails (treedd uses no shell).
    d.script("noshebang.sh", "");
    std::fs::write(d.join("noshebang.sh"), "exit 0\n").unwrap();
    d.run(&["--test", "noshebang.sh", "input.txt"])
        .expect_code(4)
        .expect_stderr("cannot run")
        .expect_stderr("noshebang.sh");
}

#[test]
fn original_not_interesting_shows_code_stderr_and_recipe() {
    let d = setup();
    d.script(
        "bad.sh",
        "echo 'oracle: cannot find needle' >&2; echo more >&2; exit 3",
    );
    let run = d.run(&["--test", "bad.sh", "input.txt"]);
    run.expect_code(5)
        .expect_stderr(
            "treedd: error: the oracle does not find the original input interesting (exit code 3)",
        )
        .expect_stderr("| oracle: cannot find needle\n  | more\n");
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
        .expect_stderr("(killed by signal 9)");
}

#[test]
fn original_times_out() {
    let d = setup();
    d.script("slow.sh", "sleep 1000");
    d.run(&["--test", "slow.sh", "--timeout", "0.2", "input.txt"])
        .expect_code(5)
        .expect_stderr("timed out after")
        .expect_stderr("raise --timeout");
}

#[test]
fn unknown_language() {
    let d = setup();
    d.run(&["--test", "ok.sh", "--language", "cobol", "input.txt"])
        .expect_code(6)
        .expect_stderr("unknown language \"cobol\"; use one of c, cpp, javascript, typescript, java, rust, python, go, text, or --grammar DIR");
    d.write("input.zzz", "x");
    d.run(&["--test", "ok.sh", "input.zzz"])
        .expect_code(6)
        .expect_stderr("cannot tell the language of input.zzz from its extension");
}

#[test]
fn conflicting_options() {
    let d = setup();
    d.write("input.c", "int main(void) { return 0; }\n");
    let cases: &[(&[&str], &str)] = &[
        (
            &["--hoist", "pre", "input.txt"],
            "--hoist pre needs a tree algorithm",
        ),
        (
            &["--algorithm", "hdd", "input.txt"],
            "--algorithm hdd needs a grammar",
        ),
        (
            &["--preset", "fastest", "input.txt"],
            "--preset chooses tree algorithms",
        ),
        (
            &["--unit", "line", "input.c"],
            "--unit applies to text reduction only",
        ),
        (
            &["--algorithm", "ddmin", "--hoist", "both", "input.c"],
            "--hoist both needs a tree algorithm",
        ),
        (
            &["--output", "./input.txt", "input.txt"],
            "is the input file; treedd never modifies its input",
        ),
        (
            &["--stats", "input.reduced.txt", "input.txt"],
            "is the input or the output file",
        ),
        (
            &["--dump-tree", "input.txt"],
            "--dump-tree and --print-tree-stats need a grammar",
        ),
    ];
    for (args, message) in cases {
        let mut all = vec!["--test", "ok.sh"];
        all.extend_from_slice(args);
        d.run(&all).expect_code(7).expect_stderr(message);
    }
    assert_eq!(d.read_string("input.txt"), numbers(0..5));
}

#[test]
fn usage_errors_are_clap_errors() {
    let d = setup();
    d.run(&["input.txt"])
        .expect_code(2)
        .expect_stderr("--test <ORACLE>");
    d.run(&["--test", "ok.sh", "--jobs", "0", "input.txt"])
        .expect_code(2);
    // Not a crash while starting 100,000 threads: a usage error.
    d.run(&["--test", "ok.sh", "--jobs", "100000", "input.txt"])
        .expect_code(2)
        .expect_stderr("100000 is not in 1..=1024");
    d.run(&["--test", "ok.sh", "--timeout=0", "input.txt"])
        .expect_code(2)
        .expect_stderr("is not a positive number of seconds");
    d.run(&["--test", "ok.sh", "--unit", "word", "input.txt"])
        .expect_code(2);
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
    run.expect_code(1)
        .expect_stderr("treedd: error: cannot make a temporary directory in ")
        .expect_stderr("missing: No such file or directory");
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
    .expect_stderr("cannot write output no/such/dir/out.txt");
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
