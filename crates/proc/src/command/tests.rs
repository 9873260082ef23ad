//! Unit tests of the oracle runner, with shell scripts as oracles.

use super::*;
use std::os::unix::fs::PermissionsExt;

fn script(dir: &Path, name: &str, body: &str) -> PathBuf {
    let path = dir.join(name);
    fs::write(&path, format!("#!/bin/sh\n{body}\n")).unwrap();
    fs::set_permissions(&path, fs::Permissions::from_mode(0o755)).unwrap();
    path
}

fn oracle(dir: &Path, body: &str) -> CommandOracle {
    let program = script(dir, "oracle.sh", body);
    let root = dir.join("tmp");
    fs::create_dir_all(&root).unwrap();
    CommandOracleBuilder::new(program)
        .file_name("input.c")
        .temp_root(root)
        .timeout(Some(Duration::from_secs(20)))
        .build()
        .unwrap()
}

fn is_empty_dir(dir: &Path) -> bool {
    fs::read_dir(dir).unwrap().next().is_none()
}

/// Nothing left behind by the runs under `root`: only the run directories kept for reuse,
/// each holding at most the candidate file.
#[track_caller]
fn only_run_dirs(root: &Path) -> bool {
    fs::read_dir(root).unwrap().all(|e| {
        let dir = e.unwrap().path();
        dir.is_dir()
            && fs::read_dir(&dir)
                .unwrap()
                .all(|f| f.unwrap().file_name() == "input.c")
    })
}

#[test]
fn exit_status_decides() {
    let t = tempfile::tempdir().unwrap();
    let o = oracle(t.path(), r#"grep -q crash "$1""#);
    assert_eq!(o.run(b"a crash here"), Outcome::Interesting);
    assert_eq!(o.run(b"fine"), Outcome::NotInteresting { code: Some(1) });
    assert!(only_run_dirs(&t.path().join("tmp")));
    drop(o);
    assert!(is_empty_dir(&t.path().join("tmp")));
}

#[test]
fn candidate_by_name_in_cwd() {
    let t = tempfile::tempdir().unwrap();
    let o = oracle(
        t.path(),
        r#"test "$(cat input.c)" = hello && test "$1" = "$PWD/input.c""#,
    );
    assert_eq!(o.run(b"hello"), Outcome::Interesting);
    assert_eq!(o.run(b"bye"), Outcome::NotInteresting { code: Some(1) });
}

#[test]
fn a_tree_is_made_afresh_for_every_run_and_the_oracle_runs_inside_it() {
    let t = tempfile::tempdir().unwrap();
    let program = script(
        t.path(),
        "oracle.sh",
        r#"test "$1" = "$PWD" && test "$(basename "$1")" = proj && test -x run.sh \
            && test "$(cat src/a.c)" = "int a;" && ! test -e left && touch left"#,
    );
    let root = t.path().join("tmp");
    fs::create_dir_all(&root).unwrap();
    let o = CommandOracleBuilder::new(program)
        .file_name("proj")
        .tree(true)
        .temp_root(&root)
        .build()
        .unwrap();
    let files = |a: &[u8]| {
        crate::Files::new(vec![
            crate::FileEntry::file("src/a.c", 0o644, a.to_vec()),
            crate::FileEntry::file("run.sh", 0o755, Vec::new()),
        ])
        .unwrap()
        .encode()
    };
    // What a run leaves in the tree is gone by the next run.
    assert_eq!(o.run(&files(b"int a;")), Outcome::Interesting);
    assert_eq!(o.run(&files(b"int a;")), Outcome::Interesting);
    assert_eq!(
        o.run(&files(b"int b;")),
        Outcome::NotInteresting { code: Some(1) }
    );
    assert!(fs::read_dir(&root)
        .unwrap()
        .all(|d| is_empty_dir(&d.unwrap().path())));
    assert!(matches!(o.run(b"not a tree"), Outcome::FailedToStart(_)));
}

#[test]
fn killed_by_signal_is_not_interesting() {
    let t = tempfile::tempdir().unwrap();
    let o = oracle(t.path(), "kill -9 $$");
    assert_eq!(o.run(b""), Outcome::NotInteresting { code: None });
    let r = o.run_report(b"");
    assert_eq!(r.signal, Some(9));
}

#[test]
fn report_keeps_stderr_head() {
    let t = tempfile::tempdir().unwrap();
    let o = oracle(
        t.path(),
        "i=0; while [ $i -lt 5000 ]; do echo line$i >&2; i=$((i+1)); done; exit 3",
    );
    let r = o.run_report(b"x");
    assert_eq!(r.outcome, Outcome::NotInteresting { code: Some(3) });
    assert_eq!(r.code, Some(3));
    let lines: Vec<&str> = r.stderr_head.lines().collect();
    assert_eq!(lines.len(), STDERR_HEAD_LINES);
    assert_eq!(lines[0], "line0");
}

#[test]
fn large_stdout_does_not_block() {
    let t = tempfile::tempdir().unwrap();
    let o = oracle(
        t.path(),
        "head -c 1000000 /dev/zero; head -c 1000000 /dev/zero >&2",
    );
    assert_eq!(o.run(b""), Outcome::Interesting);
    assert_eq!(o.run_report(b"").outcome, Outcome::Interesting);
}

#[test]
fn runs_started_while_the_timeout_is_pending_get_the_timeout_set_later() {
    let t = tempfile::tempdir().unwrap();
    // Built with a timeout of 20 s, which the runs would get without the pending timeout.
    for use_pidfd in [true, false] {
        let mut o2 = oracle(t.path(), "sleep 30");
        o2.use_pidfd = use_pidfd;
        o2.set_timeout_pending();
        let start = Instant::now();
        let outcome = std::thread::scope(|s| {
            let run = s.spawn(|| o2.run(b""));
            std::thread::sleep(Duration::from_millis(200));
            // Known now: 300 ms from the run's own start, so it is over at once.
            o2.set_timeout(Some(Duration::from_millis(300)));
            run.join().unwrap()
        });
        assert_eq!(outcome, Outcome::TimedOut);
        let took = start.elapsed();
        assert!(
            took < Duration::from_secs(5),
            "the run went on for {took:?}, past the timeout set while it ran"
        );
    }
    // A pending timeout that ends as "none": the run ends on its own.
    let o = oracle(t.path(), "sleep 0.3");
    o.set_timeout_pending();
    std::thread::scope(|s| {
        let run = s.spawn(|| o.run(b""));
        std::thread::sleep(Duration::from_millis(100));
        o.set_timeout(None);
        assert_eq!(run.join().unwrap(), Outcome::Interesting);
    });
}

/// The pid a test oracle wrote to `file`.
fn pid_in(file: &Path) -> i32 {
    fs::read_to_string(file).unwrap().trim().parse().unwrap()
}

/// Whether process `pid` is gone within a second. A killed process may still be a zombie
/// of a dead parent for a moment, which counts as gone.
fn gone_soon(pid: i32) -> bool {
    (0..100).any(|_| {
        let alive =
            fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|s| !s.contains(") Z "));
        if alive {
            std::thread::sleep(Duration::from_millis(10));
        }
        !alive
    })
}

#[test]
fn timeout_kills_group() {
    let t = tempfile::tempdir().unwrap();
    let pidfile = t.path().join("pid");
    let body = format!("sleep 30 & echo $! > {}; wait", pidfile.display());
    let mut o = oracle(t.path(), &body);
    o.set_timeout(Some(Duration::from_millis(300)));
    for use_pidfd in [true, false] {
        o.use_pidfd = use_pidfd;
        let start = Instant::now();
        assert_eq!(o.run(b""), Outcome::TimedOut);
        assert!(start.elapsed() < Duration::from_secs(5));
        let pid = pid_in(&pidfile);
        assert!(gone_soon(pid), "grandchild {pid} survived the timeout");
    }
    assert!(only_run_dirs(&t.path().join("tmp")));
}

#[test]
fn a_paced_timeout_follows_the_finished_runs_down_to_its_minimum() {
    let t = tempfile::tempdir().unwrap();
    // Interesting at once, unless the candidate says "hang".
    let o = oracle(t.path(), r#"grep -q hang "$1" && sleep 30; true"#);
    o.set_timeout(Some(Duration::from_secs(20)));
    o.set_timeout_pace(Some(TimeoutPace {
        factor: 10,
        at_least: Duration::from_millis(100),
        minimum: Duration::from_secs(3),
    }));
    for _ in 0..15 {
        assert_eq!(o.run(b"quick"), Outcome::Interesting);
    }
    // Fifteen finished runs are not enough to go by.
    assert_eq!(o.timeout(), Some(Duration::from_secs(20)));
    assert_eq!(o.run(b"quick"), Outcome::Interesting);
    assert_eq!(o.timeout(), Some(Duration::from_secs(3)));
    assert_eq!(o.timeout_set(), Some(Duration::from_secs(20)));
    let start = Instant::now();
    assert_eq!(o.run(b"hang"), Outcome::TimedOut);
    assert!(start.elapsed() < Duration::from_secs(10));
    // A run that timed out does not count as a finished one.
    assert_eq!(o.timeout(), Some(Duration::from_secs(3)));
    o.set_timeout_pace(None);
    assert_eq!(o.timeout(), Some(Duration::from_secs(20)));
}

#[test]
fn cancel_kills_running_and_future_runs() {
    let t = tempfile::tempdir().unwrap();
    let o = Arc::new(oracle(t.path(), "sleep 30"));
    let runner = {
        let o = Arc::clone(&o);
        std::thread::spawn(move || o.run(b""))
    };
    // Wait until the run is registered, then cancel it.
    while o.lock().groups.is_empty() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let start = Instant::now();
    o.cancel();
    assert_eq!(runner.join().unwrap(), Outcome::Cancelled);
    assert!(start.elapsed() < Duration::from_secs(5));
    assert_eq!(o.run(b""), Outcome::Cancelled);
    assert!(only_run_dirs(&t.path().join("tmp")));
}

#[test]
fn an_aborted_run_is_killed_and_cancelled() {
    let t = tempfile::tempdir().unwrap();
    let pidfile = t.path().join("pid");
    let body = format!("sleep 30 & echo $! > {}; wait", pidfile.display());
    let o = Arc::new(oracle(t.path(), &body));
    let token = RunToken::new();
    let runner = {
        let (o, token) = (Arc::clone(&o), token.clone());
        std::thread::spawn(move || o.run_abortable(b"", &token))
    };
    while !pidfile.exists() {
        std::thread::sleep(Duration::from_millis(5));
    }
    let start = Instant::now();
    token.abort();
    assert_eq!(runner.join().unwrap(), Outcome::Cancelled);
    assert!(start.elapsed() < Duration::from_secs(5));
    // A token aborted before its run starts: nothing runs.
    let marker = t.path().join("ran");
    let o = oracle(t.path(), &format!("touch {}", marker.display()));
    let aborted = RunToken::new();
    aborted.abort();
    assert_eq!(o.run_abortable(b"", &aborted), Outcome::Cancelled);
    assert!(!marker.exists());
    // Only that run was aborted, not the oracle.
    assert_eq!(o.run_abortable(b"", &RunToken::new()), Outcome::Interesting);
    assert!(marker.exists());
    assert!(only_run_dirs(&t.path().join("tmp")));
}

#[test]
fn parallel_runs_do_not_share_files() {
    let t = tempfile::tempdir().unwrap();
    let o = oracle(
        t.path(),
        r#"test "$(ls | wc -l)" = 1 || exit 2; c=$(cat input.c); sleep 0.05; test "$(cat input.c)" = "$c""#,
    );
    let results: Vec<Outcome> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..8)
            .map(|i| {
                let o = &o;
                s.spawn(move || o.run(format!("{i}").as_bytes()))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap()).collect()
    });
    assert!(results.iter().all(Outcome::is_interesting), "{results:?}");
}

#[test]
fn build_errors() {
    let t = tempfile::tempdir().unwrap();
    let missing = t.path().join("nope.sh");
    assert!(matches!(
        CommandOracleBuilder::new(&missing).build(),
        Err(Error::OracleNotFound(_))
    ));
    let plain = t.path().join("plain.sh");
    fs::write(&plain, "#!/bin/sh\n").unwrap();
    assert!(matches!(
        CommandOracleBuilder::new(&plain).build(),
        Err(Error::OracleNotExecutable(_))
    ));
    assert!(matches!(
        CommandOracleBuilder::new(t.path()).build(),
        Err(Error::OracleNotExecutable(_))
    ));
    assert!(matches!(
        CommandOracleBuilder::new("treedd-no-such-program-anywhere").build(),
        Err(Error::OracleNotFound(_))
    ));
    // A launcher that cannot run is named as the launcher, not as the oracle.
    let launcher = |program: &Path| {
        CommandOracleBuilder::new("true")
            .launcher(vec![program.into(), "--flag".into()])
            .build()
    };
    assert!(matches!(
        launcher(&missing),
        Err(Error::LauncherNotFound(p)) if p == missing
    ));
    assert!(matches!(
        launcher(&plain),
        Err(Error::LauncherNotExecutable(_))
    ));
    assert_eq!(
        launcher(Path::new("treedd-no-such-launcher"))
            .err()
            .unwrap()
            .to_string(),
        "launcher treedd-no-such-launcher not found"
    );
    assert!(matches!(
        CommandOracleBuilder::new("true")
            .temp_root(t.path().join("missing"))
            .build(),
        Err(Error::TempRoot { .. })
    ));
    // A bare name is looked up in PATH.
    assert!(CommandOracleBuilder::new("true").build().is_ok());
    let ok = script(t.path(), "ok.sh", "exit 0");
    assert!(matches!(
        CommandOracleBuilder::new(&ok).file_name("a/b.c").build(),
        Err(Error::BadFileName(_))
    ));
}

#[test]
fn exec_format_error_fails_to_start() {
    let t = tempfile::tempdir().unwrap();
    let bad = t.path().join("bad");
    fs::write(&bad, [0x7f, b'E', b'L', b'F', 0, 0, 0, 0]).unwrap();
    fs::set_permissions(&bad, fs::Permissions::from_mode(0o755)).unwrap();
    let o = CommandOracleBuilder::new(&bad)
        .temp_root(t.path())
        .build()
        .unwrap();
    assert!(matches!(o.run(b""), Outcome::FailedToStart(_)));
    // Only the program is left once the oracle is gone: the run's directory too.
    drop(o);
    assert_eq!(fs::read_dir(t.path()).unwrap().count(), 1);
}

#[test]
fn a_run_directory_is_reused_and_holds_only_the_candidate() {
    // Each run logs its directory, what it finds there and its candidate, then leaves files
    // and directories behind. The next run (same worker) gets the same directory back, with
    // nothing but its own candidate in it, written over the last one in the same file (a
    // shorter one than before: cut to its length, no tail of the longer one left).
    let t = tempfile::tempdir().unwrap();
    let log = t.path().join("log");
    let o = oracle(
        t.path(),
        &format!(
            r#"echo "$(pwd) $(stat -c %i "$1") $(ls -A | tr '\n' ,) $(cat "$1")" >> {log}
mkdir -p sub/deeper && touch sub/deeper/x .hidden left"#,
            log = log.display()
        ),
    );
    for candidate in ["first", "second one", "3"] {
        assert_eq!(o.run(candidate.as_bytes()), Outcome::Interesting);
    }
    let log = fs::read_to_string(&log).unwrap();
    let lines: Vec<Vec<&str>> = log.lines().map(|l| l.split(' ').collect()).collect();
    assert_eq!(lines.len(), 3, "{log}");
    assert!(lines.iter().all(|l| l[..2] == lines[0][..2]), "{log}");
    assert!(lines.iter().all(|l| l[2] == "input.c,"), "{log}");
    let candidates: Vec<String> = lines.iter().map(|l| l[3..].join(" ")).collect();
    assert_eq!(candidates, ["first", "second one", "3"]);
    drop(o);
    assert!(is_empty_dir(&t.path().join("tmp")));
}

#[test]
fn no_write_reaches_a_file_the_oracle_linked_to_its_candidate() {
    // Run "hard" keeps a hard link to its candidate, run "sym" replaces its candidate by a
    // symbolic link to `target`, run "mode" makes it executable. The next run's candidate is
    // a new file each time: the link keeps "hard", `target` is untouched, the mode is back.
    let t = tempfile::tempdir().unwrap();
    let p = t.path().display();
    fs::write(t.path().join("target"), "target").unwrap();
    let o = oracle(
        t.path(),
        &format!(
            r#"case $(cat "$1") in
hard) ln "$1" {p}/hard ;;
sym) rm "$1" && ln -s {p}/target "$1" ;;
mode) chmod 700 "$1" ;;
*) stat -c %a "$1" > {p}/mode ;;
esac"#
        ),
    );
    for candidate in ["hard", "next", "sym", "next", "mode", "next"] {
        assert_eq!(o.run(candidate.as_bytes()), Outcome::Interesting);
    }
    assert_eq!(fs::read_to_string(t.path().join("hard")).unwrap(), "hard");
    assert_eq!(
        fs::read_to_string(t.path().join("target")).unwrap(),
        "target"
    );
    let mode = fs::read_to_string(t.path().join("mode")).unwrap();
    assert_ne!(mode.trim(), "700");
}

/// A killed run also kills what left its process group: `timeout` puts itself and its
/// command in a group of their own, which the run's group kill does not reach.
#[test]
fn a_killed_run_kills_the_groups_its_processes_made() {
    let t = tempfile::tempdir().unwrap();
    let pidfile = t.path().join("pid");
    let body = format!(
        "timeout 30 sh -c 'echo $$ > {}; exec sleep 30'",
        pidfile.display()
    );
    let o = oracle(t.path(), &body);
    o.set_timeout(Some(Duration::from_millis(500)));
    assert_eq!(o.run(b""), Outcome::TimedOut);
    let pid = pid_in(&pidfile);
    assert!(
        gone_soon(pid),
        "the command {pid} of `timeout` survived the run"
    );
}
