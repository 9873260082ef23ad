//! The oracle runner with real scripts, through the library (`CommandOracle`) and through
//! the binary (TMPDIR left empty).

use std::fs;
use std::path::Path;
use std::sync::Arc;
use std::time::{Duration, Instant};

use expect_test::expect;
use treedd_proc::{CommandOracle, CommandOracleBuilder, Oracle, Outcome};

use crate::util::{is_gone, numbers, Dir};

fn oracle(d: &Dir, body: &str, timeout: Option<f64>) -> CommandOracle {
    let script = d.script("oracle.sh", body);
    CommandOracleBuilder::new(script)
        .file_name("input.txt")
        .timeout(timeout.map(Duration::from_secs_f64))
        .temp_root(d.join("tmp"))
        .build()
        .unwrap()
}

#[test]
fn script_reads_the_candidate_by_name() {
    let d = Dir::new();
    let o = oracle(&d, "grep -q needle input.txt", None);
    assert_eq!(o.run(b"hay needle hay"), Outcome::Interesting);
    assert_eq!(o.run(b"hay hay"), Outcome::NotInteresting { code: Some(1) });
    // The run directory is kept for the next run until the oracle goes.
    drop(o);
    assert!(d.tmp_entries().is_empty());
}

#[test]
fn script_reads_dollar_one() {
    let d = Dir::new();
    let o = oracle(
        &d,
        r#"case "$1" in /*/input.txt) ;; *) exit 7;; esac; grep -q needle "$1""#,
        None,
    );
    assert_eq!(o.run(b"needle"), Outcome::Interesting);
    assert_eq!(o.run(b"none"), Outcome::NotInteresting { code: Some(1) });
    drop(o);
    assert!(d.tmp_entries().is_empty());
}

#[test]
fn hanging_oracle_is_killed_with_its_children_at_the_timeout() {
    let d = Dir::new();
    let pids = d.join("pids");
    let body = format!(
        "sh -c 'sleep 1000' & echo $! >> {pids}; sleep 1000 & echo $! >> {pids}; wait",
        pids = pids.display()
    );
    let o = oracle(&d, &body, Some(0.5));
    let start = Instant::now();
    assert_eq!(o.run(b""), Outcome::TimedOut);
    let took = start.elapsed();
    assert!(took >= Duration::from_millis(500), "{took:?}");
    assert!(took < Duration::from_secs(10), "{took:?}");
    let pids = fs::read_to_string(&pids).unwrap();
    for pid in pids.split_whitespace() {
        let pid: u32 = pid.parse().unwrap();
        assert!(is_gone(pid), "child {pid} of the timed-out oracle survived");
    }
    drop(o);
    assert!(d.tmp_entries().is_empty());
}

#[test]
fn cancel_stops_parallel_runs_and_cleans_up() {
    let d = Dir::new();
    let o = Arc::new(oracle(&d, "sleep 1000", None));
    let runners: Vec<_> = (0..3)
        .map(|_| {
            let o = Arc::clone(&o);
            std::thread::spawn(move || o.run(b"x"))
        })
        .collect();
    // Wait until all three temporary directories exist, i.e. the runs are under way.
    while d.tmp_entries().len() < 3 {
        std::thread::sleep(Duration::from_millis(5));
    }
    std::thread::sleep(Duration::from_millis(50));
    o.cancel();
    for r in runners {
        assert_eq!(r.join().unwrap(), Outcome::Cancelled);
    }
    assert_eq!(o.run(b"x"), Outcome::Cancelled);
    drop(o);
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn what_a_killed_run_left_in_tmpdir_goes_with_its_directory() {
    // A compiler killed mid-run leaves its temporary files (gcc's cc*.s) in TMPDIR: TMPDIR is
    // the run's own directory, which is emptied after the run.
    let d = Dir::new();
    let made = d.join("made");
    let body = format!(
        "f=$(mktemp) && echo \"$f\" > {made} && exec sleep 1000",
        made = made.display()
    );
    let o = oracle(&d, &body, Some(0.5));
    assert_eq!(o.run(b""), Outcome::TimedOut);
    let left = fs::read_to_string(&made).unwrap();
    let left = Path::new(left.trim());
    assert!(left.starts_with(d.join("tmp")), "{}", left.display());
    assert!(!left.exists(), "{} is still there", left.display());
    drop(o);
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn stderr_head_is_kept_for_diagnostics() {
    let d = Dir::new();
    let o = oracle(&d, "echo first >&2; echo second >&2; exit 4", None);
    let report = o.run_report(b"");
    assert_eq!(report.outcome, Outcome::NotInteresting { code: Some(4) });
    assert_eq!(report.code, Some(4));
    assert_eq!(report.stderr_head, "first\nsecond");
}

#[test]
fn binary_leaves_no_temporary_directory() {
    let d = Dir::text_case(numbers(0..20), r#"grep -qx 7 input.txt && grep -qx 7 "$1""#);
    d.run(&[
        "--test",
        "./oracle.sh",
        "--language",
        "text",
        "--jobs",
        "2",
        "input.txt",
    ])
    .expect_code(0);
    // line+char (the default) also removes the newline.
    assert_eq!(d.read_string("input.reduced.txt"), "7");
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn binary_timeout_counts_as_not_interesting() {
    let d = Dir::new();
    // Interesting on the original (4 lines); any smaller candidate hangs, with a child.
    d.write("input.txt", numbers(0..4));
    let pids = d.join("pids");
    d.script(
        "oracle.sh",
        &format!(
            r#"test "$(wc -l < "$1")" -eq 4 && exit 0; sleep 1000 & echo $! >> {}; wait"#,
            pids.display()
        ),
    );
    let run = d.reduce(&["--timeout", "0.2", "--unit", "line", "--stats", "s.json"]);
    run.expect_code(0);
    assert_eq!(d.read_string("input.reduced.txt"), numbers(0..4));
    let stats: serde_json::Value = d.stats("s.json");
    assert!(stats["timeouts"].as_u64().unwrap() > 0, "{stats}");
    for pid in fs::read_to_string(&pids).unwrap().split_whitespace() {
        assert!(is_gone(pid.parse().unwrap()), "oracle child {pid} survived");
    }
    assert!(d.tmp_entries().is_empty());
}

#[test]
fn launcher_runs_every_oracle_run_with_its_directory_under_workdir() {
    // The launcher (standing for `srun`/`ssh host`) logs how it was called and runs the rest;
    // the oracle logs its working directory.
    let d = Dir::new();
    d.write("input.txt", numbers(0..20));
    let log = |name: &str| d.join(name).display().to_string();
    d.script(
        "oracle.sh",
        &format!(r#"pwd >> {}; grep -qx 7 "$1""#, log("dirs")),
    );
    d.script(
        "launch.sh",
        &format!(r#"echo "$1|$2|$3" >> {}; shift; exec "$@""#, log("calls")),
    );
    fs::create_dir(d.join("work")).unwrap();
    d.reduce(&[
        "--launcher",
        "./launch.sh --flag",
        "--workdir",
        "work",
        "--language",
        "text",
        "-j",
        "2",
        "--stats",
        "s.json",
    ])
    .expect_code(0);
    assert_eq!(d.read_string("input.reduced.txt"), "7");
    let runs = d.stats("s.json")["oracle_runs"].as_u64().unwrap();
    let calls = d.read_string("calls");
    let dirs = d.read_string("dirs");
    // Every run, the check of the original included, went through the launcher (and the
    // killed lost bets, which are not in `oracle_runs`).
    assert!(runs >= 8, "{runs}");
    // A lost bet may be killed between the launcher's log line and the oracle's.
    assert!(calls.lines().count() >= dirs.lines().count());
    assert!(calls.lines().count() as u64 >= runs);
    let oracle = d.join("oracle.sh").canonicalize().unwrap();
    let work = d.join("work").canonicalize().unwrap();
    // (Two jobs: the lines of parallel runs interleave.)
    let mut called = std::collections::HashSet::new();
    for call in calls.lines() {
        let parts: Vec<&str> = call.split('|').collect();
        assert_eq!(parts[0], "--flag", "{call}");
        assert_eq!(Path::new(parts[1]), oracle, "{call}");
        let dir = Path::new(parts[2]).parent().unwrap();
        assert!(
            dir.starts_with(&work),
            "{call} not under {}",
            work.display()
        );
        called.insert(dir.to_str().unwrap().to_string());
    }
    // Every oracle ran where its launcher call said.
    for dir in dirs.lines() {
        assert!(called.contains(dir), "{dir}: ran elsewhere");
    }
    // Nothing left behind in the workdir or in TMPDIR.
    assert_eq!(fs::read_dir(&work).unwrap().count(), 0);
    assert!(d.tmp_entries().is_empty());
}

#[test]
fn the_recipe_for_an_uninteresting_original_runs_it_as_treedd_did() {
    // The oracle finds nothing interesting; the message's recipe goes through the launcher
    // and makes its directory under the workdir, like treedd's own run.
    let d = Dir::new();
    d.write("input.txt", numbers(0..3));
    let calls = d.join("calls").display().to_string();
    d.script("oracle.sh", "echo no needle >&2; exit 3");
    d.script(
        "launch.sh",
        &format!(r#"echo "$1|$3" >> {calls}; shift; exec "$@""#),
    );
    fs::create_dir(d.join("work dir")).unwrap();
    let run = d.reduce(&["--launcher", "./launch.sh --flag", "--workdir", "work dir"]);
    run.expect_code(5);
    fs::remove_file(d.join("calls")).unwrap();
    let (recipe, stdout, _) = run.run_recipe();
    assert!(stdout.contains("exit status 3"), "{recipe}: {stdout}");
    let call = d.read_string("calls");
    let (flag, candidate) = call.trim().split_once('|').unwrap();
    assert_eq!(flag, "--flag");
    let work = d.join("work dir").canonicalize().unwrap();
    assert!(Path::new(candidate).starts_with(&work), "{candidate}");
    assert_eq!(fs::read_to_string(candidate).unwrap(), numbers(0..3));
}

#[test]
fn bad_launcher_or_workdir_is_a_clear_error() {
    let d = Dir::text_case(numbers(0..3), "exit 0");
    d.reduce(&["--launcher", ""]).expect_code(2).expect_message(
        &d,
        &expect![[r#"
            error: invalid value '' for '--launcher <CMD ARGS>': the launcher is empty

            For more information, try '--help'.
        "#]],
    );
    d.reduce(&["--launcher", "srun 'unbalanced"])
        .expect_code(2)
        .expect_message(&d, &expect![[r#"
            error: invalid value 'srun 'unbalanced' for '--launcher <CMD ARGS>': "srun 'unbalanced" has unbalanced quotes or a trailing backslash

            For more information, try '--help'.
        "#]]);
    d.reduce(&["--launcher", "./no-such-launcher"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: launcher ./no-such-launcher not found
        "#]],
        );
    d.write("plain.txt", "");
    d.reduce(&["--launcher", "plain.txt -x"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: launcher $DIR/plain.txt is not an executable file
        "#]],
        );
    d.reduce(&["--workdir", "missing"])
        .expect_code(9)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: cannot use --workdir missing: No such file or directory (os error 2)
        "#]],
        );
    d.reduce(&["--workdir", "oracle.sh"])
        .expect_code(9)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: cannot use --workdir oracle.sh: not a directory
        "#]],
        );
    // Nothing ran: the input is untouched and no output was written.
    assert!(!d.join("input.reduced.txt").exists());
}
