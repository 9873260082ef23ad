//! Ctrl-C contract: SIGINT or SIGTERM during a reduction stops the running oracles, leaves
//! the best result so far in the output file, says where it is, and exits with 130.

use std::fs;
use std::process::Stdio;

use crate::util::{interrupt, is_interesting, kill, numbers, wait_for, Dir, LINES_TWO_JOBS};

#[test]
fn interrupt_keeps_the_best_result() {
    for signal in ["INT", "TERM"] {
        let d = Dir::new();
        let input = numbers(0..200);
        d.write("input.txt", &input);
        // Slow oracle: the first halving succeeds at once, the whole reduction would take
        // well over a minute.
        let oracle = d.script("oracle.sh", r#"sleep 0.3; grep -qx 17 "$1""#);
        let child = d
            .cmd()
            .args(LINES_TWO_JOBS)
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait for a first improvement to reach the output file.
        let out = d.join("input.reduced.txt");
        wait_for(30, "a first improvement", || {
            fs::read(&out).is_ok_and(|b| b.len() < input.len())
        });
        let stderr = interrupt(child, signal);
        assert!(
            stderr.contains("interrupted; the best result so far")
                && stderr.contains("input.reduced.txt"),
            "{stderr}"
        );
        let best = fs::read(&out).unwrap();
        assert!(best.len() < input.len());
        assert!(is_interesting(&oracle, "input.txt", &best));
        assert_eq!(d.read_string("input.txt"), input);
        assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
    }
}

/// SIGINT while the original is checked, before the judge exists (one job: the check comes
/// first): the check's run is killed, nothing is written, exit 130.
#[test]
fn an_interrupt_during_the_check_of_the_original_writes_nothing() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..20));
    let log = d.join("log");
    d.script(
        "oracle.sh",
        &format!(
            "echo start >> {log}; sleep 30; grep -qx 17 \"$1\"",
            log = log.display()
        ),
    );
    let child = d
        .cmd()
        .args([
            "--test",
            "oracle.sh",
            "--unit",
            "line",
            "--jobs",
            "1",
            "input.txt",
        ])
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(30, "the check of the original", || log.exists());
    let stderr = interrupt(child, "INT");
    assert!(
        stderr.contains("interrupted before the reduction started; no output written"),
        "{stderr}"
    );
    assert_eq!(d.read_string("log"), "start\n", "a run after the interrupt");
    assert_eq!(d.entries(), ["input.txt", "log", "oracle.sh", "tmp"]);
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
}

/// SIGINT while `--resume` checks the output it would continue from: the output and the
/// state file stay as they were, and a later `--resume` continues from them.
#[test]
fn an_interrupt_during_the_check_of_a_resumed_output_keeps_it() {
    let d = Dir::new();
    let input = numbers(0..200);
    d.write("input.txt", &input);
    // `pace` makes every run slow (an interruptible first reduction), `hang` makes the next
    // one hang (the check of the output).
    let (pace, hang, log) = (d.join("pace"), d.join("hang"), d.join("log"));
    d.script(
        "oracle.sh",
        &format!(
            r#"[ -e {pace} ] && sleep 0.3
[ -e {hang} ] && {{ echo hang >> {log}; sleep 30; }}
grep -qx 17 "$1""#,
            pace = pace.display(),
            hang = hang.display(),
            log = log.display()
        ),
    );
    d.write("pace", "");
    let child = d
        .cmd()
        .args(LINES_TWO_JOBS)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = d.join("input.reduced.txt");
    wait_for(30, "a first improvement", || {
        fs::read(&out).is_ok_and(|b| b.len() < input.len())
    });
    kill(&child, "INT");
    let first = child.wait_with_output().unwrap();
    assert_eq!(first.status.code(), Some(130));
    let (best, state) = (
        d.read("input.reduced.txt"),
        d.read("input.reduced.txt.treedd-state.json"),
    );
    fs::remove_file(&pace).unwrap();

    d.write("hang", "");
    let mut resume = LINES_TWO_JOBS.to_vec();
    resume.push("--resume");
    let child = d
        .cmd()
        .args(&resume)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    wait_for(30, "the check of the output", || log.exists());
    let stderr = interrupt(child, "INT");
    assert!(
        stderr.contains("interrupted before the reduction started; no output written"),
        "{stderr}"
    );
    assert_eq!(d.read_string("log"), "hang\n", "a run after the interrupt");
    assert_eq!(d.read("input.reduced.txt"), best);
    assert_eq!(d.read("input.reduced.txt.treedd-state.json"), state);
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());

    fs::remove_file(&hang).unwrap();
    d.run(&resume).expect_code(0).expect_stderr("resuming from");
    assert_eq!(d.read_string("input.reduced.txt"), "17\n");
    assert!(!d.join("input.reduced.txt.treedd-state.json").exists());
}
