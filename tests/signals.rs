//! Ctrl-C contract: SIGINT or SIGTERM during a reduction stops the running oracles, leaves
//! the best result so far in the output file, says where it is, and exits with 130.

use std::fs;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::util::{is_interesting, kill, numbers, wait_for, Dir, LINES_TWO_JOBS};

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
        kill(&child, signal);
        let stop = Instant::now();
        let output = child.wait_with_output().unwrap();
        assert!(stop.elapsed() < Duration::from_secs(5), "slow to stop");
        let stderr = String::from_utf8_lossy(&output.stderr);
        assert_eq!(output.status.code(), Some(130), "{stderr}");
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
