//! Unattended runs: the default timeout, no orphans after SIGKILL, stale scratch
//! directories, `--resume`, flaky oracles (`--check-original`, `--confirm`), the checks made
//! before the first oracle run, and an oracle flooding stdout and stderr.

use std::fs;
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use expect_test::expect;

use crate::util::{is_gone, is_interesting, kill, numbers, wait_for, Dir, LINES_TWO_JOBS};

fn pids(d: &Dir) -> Vec<u32> {
    fs::read_to_string(d.join("pids"))
        .unwrap_or_default()
        .split_whitespace()
        .filter_map(|p| p.parse().ok())
        .collect()
}

#[test]
fn default_timeout_cuts_a_hanging_candidate() {
    let d = Dir::new();
    d.write("input.txt", "loop\nkeep\n");
    let pids = d.join("pids");
    // The candidate "loop" alone hangs (with a child); "keep" is what matters.
    d.script(
        "oracle.sh",
        &format!(
            r#"if grep -qx loop "$1" && ! grep -qx keep "$1"; then sleep 1000 & echo $! >> {}; wait; fi
grep -qx keep "$1""#,
            pids.display()
        ),
    );
    let start = Instant::now();
    let run = d.reduce(&["--unit", "line", "--jobs", "1", "--stats", "s.json"]);
    run.expect_code(0)
        .expect_stderr("timeout per oracle run: 5.0 s (10 x the original's");
    assert!(start.elapsed() < Duration::from_secs(60));
    assert_eq!(d.read_string("input.reduced.txt"), "keep\n");
    let s = d.stats("s.json");
    assert_eq!(s["timeouts"], 1, "{s}");
    assert_eq!(s["timeout_seconds"], 5.0, "{s}");
    assert_eq!(s["timeout_default"], true, "{s}");
    for pid in self::pids(&d) {
        assert!(is_gone(pid), "child {pid} of the hanging run survived");
    }
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn the_default_timeout_follows_fast_runs_down_to_one_second() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..40));
    // Fewer than four lines hang: once the reduction is down to four lines, every candidate
    // hangs, and after the first sixteen quick runs each costs about a second, not five.
    d.script(
        "oracle.sh",
        r#"[ "$(wc -l < "$1")" -lt 4 ] && exec sleep 1000
grep -qx 7 "$1" && grep -qx 33 "$1""#,
    );
    let run = d.reduce(&["--unit", "line", "--jobs", "1", "--stats", "s.json"]);
    run.expect_code(0)
        .expect_stderr("once 16 runs have finished, 10 x their recent pace, at least 1 s");
    let out = d.read_string("input.reduced.txt");
    assert_eq!(out.lines().count(), 4, "{out}");
    assert!(out.contains("7\n") && out.contains("33\n"), "{out}");
    let s = d.stats("s.json");
    assert!(s["timeouts"].as_u64().unwrap() >= 4, "{s}");
    let t = s["timeout_seconds"].as_f64().unwrap();
    assert!((1.0..5.0).contains(&t), "{s}");
    assert_eq!(s["timeout_default"], true, "{s}");
}

#[test]
fn timeout_none_and_seconds_are_recorded() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..4));
    d.script("oracle.sh", r#"grep -qx 2 "$1""#);
    for (flag, want) in [("none", serde_json::Value::Null), ("7.5", 7.5.into())] {
        let run = d.run(&[
            "--test",
            "oracle.sh",
            "--timeout",
            flag,
            "--stats",
            "s.json",
            "input.txt",
        ]);
        run.expect_code(0);
        assert!(!run.stderr.contains("10 x the original"), "{}", run.stderr);
        let s = d.stats("s.json");
        assert_eq!(
            (&s["timeout_seconds"], &s["timeout_default"]),
            (&want, &false.into())
        );
    }
    d.run(&["--test", "oracle.sh", "--timeout", "never", "input.txt"])
        .expect_code(2)
        .expect_message(&d, &expect![[r#"
            error: invalid value 'never' for '--timeout <SECONDS|none>': "never" is not a positive number of seconds (or none)

            For more information, try '--help'.
        "#]]);
}

/// A reduction whose oracle forks (a child in its group, one that left it with setsid) and
/// records every pid, then blocks on the second candidate.
fn start_forking_reduction(d: &Dir) -> Child {
    d.write("input.txt", numbers(0..8));
    let pids = d.join("pids");
    d.script(
        "oracle.sh",
        &format!(
            r#"echo $$ >> {p}
test "$(wc -l < "$1")" -eq 8 && exit 0
sleep 1000 & echo $! >> {p}
setsid sleep 1000 & echo $! >> {p}
wait"#,
            p = pids.display()
        ),
    );
    d.cmd()
        .args(LINES_TWO_JOBS)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap()
}

#[test]
fn sigkill_leaves_no_oracle_process_and_no_directory() {
    let d = Dir::new();
    let mut child = start_forking_reduction(&d);
    // Two candidates in parallel, each with three processes, plus the original's run.
    wait_for(30, "the oracles to fork", || pids(&d).len() >= 7);
    kill(&child, "KILL");
    child.wait().unwrap();
    for pid in pids(&d) {
        assert!(
            is_gone(pid),
            "oracle process {pid} survived SIGKILL of treedd"
        );
    }
    wait_for(5, "the scratch directory to go", || {
        d.tmp_entries().is_empty()
    });
    assert_eq!(d.read_string("input.txt"), numbers(0..8));
}

#[test]
fn next_run_removes_a_dead_runs_scratch_directory() {
    let d = Dir::new();
    // What a treedd killed together with its watchdog leaves: its lock is free. (Scratch
    // directories live in the user's directory of the temporary root.)
    let uid = rustix::process::geteuid().as_raw();
    let stale = d.join(&format!("tmp/treedd-{uid}/treedd-run-1-dead"));
    fs::create_dir_all(stale.join("treedd-abc")).unwrap();
    fs::write(stale.join(".lock"), "").unwrap();
    fs::write(stale.join("treedd-abc/input.txt"), "x").unwrap();
    d.write("input.txt", numbers(0..3));
    d.script("oracle.sh", r#"grep -qx 1 "$1""#);
    d.run(&["--test", "oracle.sh", "input.txt"]).expect_code(0);
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn resume_after_sigkill_gives_the_uninterrupted_result() {
    let oracle = r#"sleep 0.1; grep -qx 3 "$1" && grep -qx 21 "$1""#;
    let args = [
        "--test",
        "oracle.sh",
        "--unit",
        "line",
        "--jobs",
        "1",
        "input.txt",
    ];
    let whole = Dir::new();
    whole.write("input.txt", numbers(0..30));
    whole.script("oracle.sh", oracle);
    whole.run(&args).expect_code(0);
    let want = whole.read_string("input.reduced.txt");

    let d = Dir::new();
    d.write("input.txt", numbers(0..30));
    let script = d.script("oracle.sh", oracle);
    let mut child = d.cmd().args(args).stderr(Stdio::null()).spawn().unwrap();
    let out = d.join("input.reduced.txt");
    wait_for(60, "a first improvement", || {
        fs::read(&out).is_ok_and(|b| b.len() < numbers(0..30).len())
    });
    kill(&child, "KILL");
    child.wait().unwrap();
    let partial = d.read("input.reduced.txt");
    assert!(is_interesting(&script, "input.txt", &partial));
    assert!(d.join("input.reduced.txt.treedd-state.json").exists());

    let mut resumed = args.to_vec();
    resumed.extend(["--resume", "--stats", "s.json"]);
    d.run(&resumed)
        .expect_code(0)
        .expect_stderr("resuming from input.reduced.txt");
    assert_eq!(d.read_string("input.reduced.txt"), want);
    assert_eq!(d.stats("s.json")["resumed"], true);
    assert!(!d.join("input.reduced.txt.treedd-state.json").exists());
    wait_for(5, "the scratch directories to go", || {
        d.tmp_entries().is_empty()
    });
}

#[test]
fn resume_checks_options_and_output() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..6));
    d.script("oracle.sh", r#"sleep 0.2; grep -qx 4 "$1""#);
    let state = d.join("input.reduced.txt.treedd-state.json");
    // Nothing to resume: a normal run, which leaves no state behind.
    d.run(&["--test", "oracle.sh", "--resume", "input.txt"])
        .expect_code(0)
        .expect_stderr("no unfinished reduction");
    assert_eq!(d.read_string("input.reduced.txt"), "4");
    assert!(!state.exists());
    // A killed run leaves its state.
    let mut child = d
        .cmd()
        .args(["--test", "oracle.sh", "--unit", "line", "input.txt"])
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    wait_for(30, "the state file", || state.exists());
    kill(&child, "KILL");
    child.wait().unwrap();
    d.run(&[
        "--test",
        "oracle.sh",
        "--unit",
        "char",
        "--resume",
        "input.txt",
    ])
    .expect_code(7)
    .expect_message(&d, &expect![[r#"
        treedd: error: --resume: the unfinished reduction in input.reduced.txt differs: unit was "line", now "char"; use the same options, or start over without --resume
    "#]]);
    // An output that is no longer interesting: start from the input.
    d.write("input.reduced.txt", "nothing\n");
    d.run(&[
        "--test",
        "oracle.sh",
        "--unit",
        "line",
        "--resume",
        "input.txt",
    ])
    .expect_code(0)
    .expect_stderr("no longer finds input.reduced.txt interesting");
    assert_eq!(d.read_string("input.reduced.txt"), "4\n");
    assert!(!state.exists());
}

#[test]
fn check_original_catches_a_flaky_oracle() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..4));
    d.write("orig.txt", numbers(0..4));
    let count = d.join("count");
    // On the original: interesting twice, then not, then again... (its runs alone are
    // counted: with more than one job, candidates run alongside the check).
    d.script(
        "flaky.sh",
        &format!(
            r#"cmp -s "$1" {o} || exit 1
n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}; test $((n % 3)) -ne 2"#,
            c = count.display(),
            o = d.join("orig.txt").display()
        ),
    );
    d.run(&["--test", "flaky.sh", "--check-original", "5", "input.txt"])
        .expect_code(8)
        .expect_message(&d, &expect![[r#"
            treedd: error: --check-original 5: the oracle answered differently on the original input: interesting in run 1, not interesting (exit code 1) in run 3; the oracle is flaky
              make the oracle deterministic (fixed seeds, no shared state), raise --timeout if runs time out, or use --confirm N
        "#]]);
    assert!(!d.join("input.reduced.txt").exists());
    // A steady oracle passes, and the runs are counted.
    d.script("ok.sh", r#"grep -qx 2 "$1""#);
    d.run(&[
        "--test",
        "ok.sh",
        "--check-original",
        "5",
        "--no-cache",
        "--stats",
        "s.json",
        "--unit",
        "line",
        "input.txt",
    ])
    .expect_code(0);
    let s = d.stats("s.json");
    assert_eq!(s["check_original"], 5);
    assert!(s["oracle_runs"].as_u64().unwrap() >= 5 + 2, "{s}");
}

#[test]
fn confirm_rejects_improvements_a_flaky_oracle_does_not_repeat() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..8));
    let count = d.join("count");
    // Needs line 7; a candidate without line 5 is "interesting" only on every other call.
    d.script(
        "oracle.sh",
        &format!(
            r#"n=$(cat {c} 2>/dev/null || echo 0); echo $((n+1)) > {c}
grep -qx 7 "$1" || exit 1
grep -qx 5 "$1" || test $((n % 2)) -eq 0"#,
            c = count.display()
        ),
    );
    d.run(&[
        "--test",
        "oracle.sh",
        "--unit",
        "line",
        "--jobs",
        "1",
        "--confirm",
        "2",
        "--stats",
        "s.json",
        "input.txt",
    ])
    .expect_code(0);
    assert_eq!(d.read_string("input.reduced.txt"), "5\n7\n");
    let s = d.stats("s.json");
    assert_eq!(s["confirm"], 2);
    assert!(s["confirm_rejected"].as_u64().unwrap() > 0, "{s}");
}

#[test]
fn everything_is_checked_before_the_first_oracle_run() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..3));
    let ran = d.join("ran");
    d.script("oracle.sh", &format!("touch {}; exit 0", ran.display()));
    // A FIFO would block a reader forever.
    let fifo = d.join("fifo.txt");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let mut child = d
        .cmd()
        .args(["--test", "oracle.sh", "fifo.txt"])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(10, "treedd to refuse the FIFO", || {
        child.try_wait().unwrap().is_some()
    });
    let out = crate::util::Run::from(child.wait_with_output().unwrap());
    out.expect_code(3).expect_message(&d, &expect![[r#"
        treedd: error: cannot read input fifo.txt: it is a FIFO; treedd needs a regular file (copy the input to one)
    "#]]);
    d.run(&[
        "--test",
        "oracle.sh",
        "--stats",
        "no/dir/s.json",
        "input.txt",
    ])
    .expect_code(9)
    .expect_message(&d, &expect![[r#"
        treedd: error: cannot write stats no/dir/s.json: No such file or directory (os error 2) at path "$DIR/no/dir/.treedd-XXXXXX"
    "#]]);
    fs::create_dir(d.join("out")).unwrap();
    d.run(&["--test", "oracle.sh", "--output", "out", "input.txt"])
        .expect_code(9)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: cannot write output out: it is a directory
        "#]],
        );
    d.run(&[
        "--test",
        "oracle.sh",
        "--output",
        "no/dir/o.txt",
        "input.txt",
    ])
    .expect_code(9)
    .expect_message(&d, &expect![[r#"
        treedd: error: cannot write output no/dir/o.txt: No such file or directory (os error 2) at path "$DIR/no/dir/.treedd-XXXXXX"
    "#]]);
    d.write("plain.sh", "#!/bin/sh\nexit 0\n");
    d.run(&["--test", "plain.sh", "input.txt"])
        .expect_code(4)
        .expect_message(
            &d,
            &expect![[r#"
            treedd: error: oracle $DIR/plain.sh is not an executable file
        "#]],
        );
    assert!(!ran.exists(), "the oracle ran before a check failed");
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

#[test]
fn an_oracle_writing_100_mb_to_stdout_and_stderr_neither_blocks_nor_bloats() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..3));
    d.script(
        "oracle.sh",
        r#"head -c 100000000 /dev/zero; head -c 100000000 /dev/zero >&2; grep -qx 1 "$1""#,
    );
    d.run(&[
        "--test",
        "oracle.sh",
        "--unit",
        "line",
        "--verify",
        "--stats",
        "s.json",
        "input.txt",
    ])
    .expect_code(0);
    assert_eq!(d.read_string("input.reduced.txt"), "1\n");
    let s = d.stats("s.json");
    let rss = s["peak_rss_bytes"].as_u64().unwrap();
    assert!(rss < 64 << 20, "treedd grew to {rss} bytes");
}

#[test]
fn kill_campaign_ci_sized() {
    // `cargo xtask kill-campaign` runs 100 of these with random signals and moments.
    let check = r#"grep -qx 3 "$1" && grep -qx 29 "$1""#;
    let kills = [
        ("INT", 300),
        ("TERM", 700),
        ("KILL", 250),
        ("KILL", 900),
        ("INT", 1200),
        ("TERM", 100),
    ];
    for (signal, ms) in kills {
        let d = Dir::new();
        let input = numbers(0..40);
        d.write("input.txt", &input);
        let pids = d.join("pids");
        d.script(
            "oracle.sh",
            &format!(
                "echo $$ >> {p}\nsleep 1000 & echo $! >> {p}\nsetsid sleep 1000 & echo $! >> {p}\nsleep 0.02\n{check}",
                p = pids.display()
            ),
        );
        let checker = d.script("check.sh", check);
        let args = LINES_TWO_JOBS;
        let mut child = d.cmd().args(args).stderr(Stdio::null()).spawn().unwrap();
        std::thread::sleep(Duration::from_millis(ms));
        kill(&child, signal);
        wait_for(10, "treedd to stop", || child.try_wait().unwrap().is_some());
        let what = format!("{signal} after {ms} ms");
        assert_eq!(d.read_string("input.txt"), input, "{what}");
        if let Ok(out) = fs::read(d.join("input.reduced.txt")) {
            assert!(is_interesting(&checker, "input.txt", &out), "{what}");
        }
        for pid in self::pids(&d) {
            assert!(is_gone(pid), "{what}: oracle process {pid} survived");
        }
        let mut resumed = args.to_vec();
        resumed.push("--resume");
        d.run(&resumed).expect_code(0);
        assert_eq!(d.read_string("input.reduced.txt"), "3\n29\n", "{what}");
        wait_for(5, "the scratch directories to go", || {
            d.tmp_entries().is_empty()
        });
    }
}
