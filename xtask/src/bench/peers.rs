//! Peer reducers (`--peers creduce,cvise,shrinkray`) on the same cases, with the same
//! oracles and time limit, stored as extra configurations.
//!
//! C-Reduce and C-Vise run an interestingness test without arguments in a temporary folder
//! holding the file under its own name; Shrink Ray (0.0.2, the PyPI release) pipes the
//! candidate to its test's stdin, in a fresh temporary folder, each run in a session of its
//! own. Our oracles take the candidate's path as `$1`. A generated wrapper bridges the
//! conventions and logs every oracle run (its end time) and every interesting candidate
//! (time and size), from which the oracle runs and the progress trace are counted. C-Reduce
//! and C-Vise reduce the file in place and Shrink Ray writes its best result to `--target`
//! at every improvement, so at the time limit (SIGINT to the group) the file holds their
//! best result so far.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{Context as _, Result};

use super::config::Peer;
use super::run::{case_files, oracle_accepts, row_of_run, run_error, run_watched, Scratch};
use super::store::{Row, TracePoint};
use super::suite::Case;

/// The peer's program in `PATH`, or an error saying how to get it.
pub(super) fn find_program(peer: Peer) -> Result<PathBuf> {
    let paths = std::env::var_os("PATH").unwrap_or_default();
    std::env::split_paths(&paths)
        .map(|dir| dir.join(peer.slug()))
        .find(|p| p.is_file())
        .with_context(|| {
            format!(
                "--peers {}: `{}` is not in PATH (install it: {})",
                peer.slug(),
                peer.slug(),
                peer.install_hint()
            )
        })
}

/// Single-quote `s` for sh (and for Python's `shlex.split`, which Shrink Ray applies to its
/// test command).
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The wrapper's common part: our oracle on `./<file_name>` (by its full path), logging the
/// run's end time to `runs` and, if interesting, the time and non-whitespace size (bytes) to
/// `hits`; the oracle's status is left in `$status`.
fn logged_oracle_run(oracle: &Path, file_name: &str, runs: &Path, hits: &Path) -> String {
    let q = |p: &Path| sh_quote(&p.to_string_lossy());
    format!(
        "{oracle} \"$PWD\"/{name} </dev/null >/dev/null 2>&1\n\
         status=$?\n\
         now=$(date +%s.%N)\n\
         echo \"$now\" >> {runs}\n\
         if [ \"$status\" -eq 0 ]; then\n  \
           size=$(tr -d ' \\t\\n\\r\\f\\v' < {name} | wc -c)\n  \
           echo \"$now $size\" >> {hits}\n\
         fi\n",
        oracle = q(oracle),
        name = sh_quote(file_name),
        runs = q(runs),
        hits = q(hits),
    )
}

/// The no-argument interestingness test C-Reduce and C-Vise run: our oracle on
/// `$PWD/<file_name>`, logged (see [`logged_oracle_run`]).
pub(super) fn wrapper_script(oracle: &Path, file_name: &str, runs: &Path, hits: &Path) -> String {
    format!(
        "#!/bin/sh\n\
         # Written by cargo xtask bench: a peer reducer's test, calling a treedd-style oracle.\n\
         {run}\
         exit \"$status\"\n",
        run = logged_oracle_run(oracle, file_name, runs, hits),
    )
}

/// Shrink Ray's test: the candidate from stdin saved as `<file_name>` in a private folder
/// (under `$TMPDIR`), then our oracle on it, logged as in [`wrapper_script`]. Shrink Ray
/// starts each test in a session of its own, out of reach of the signal at the time limit,
/// so while it runs the wrapper leaves its process id in `pids` for the harness to end the
/// test if Shrink Ray was killed before it could.
pub(super) fn shrinkray_wrapper_script(
    oracle: &Path,
    file_name: &str,
    runs: &Path,
    hits: &Path,
    pids: &Path,
) -> String {
    let pid_file = format!("{}/$$", sh_quote(&pids.to_string_lossy()));
    format!(
        "#!/bin/sh\n\
         # Written by cargo xtask bench: Shrink Ray's test (candidate on stdin), calling a\n\
         # treedd-style oracle.\n\
         : > {pid_file}\n\
         dir=$(mktemp -d) || exit 2\n\
         cd \"$dir\" || exit 2\n\
         cat > {name}\n\
         {run}\
         cd / && rm -rf \"$dir\"\n\
         rm -f {pid_file}\n\
         exit \"$status\"\n",
        name = sh_quote(file_name),
        run = logged_oracle_run(oracle, file_name, runs, hits),
    )
}

/// Shrink Ray's per-test timeout option: it multiplies the value by 10, so 30 gives 300 s,
/// C-Reduce's and C-Vise's default test timeout (and the harness's for verifying a result).
const SHRINKRAY_TIMEOUT: &str = "30";

/// The command line of a peer reducing `file_name` (in the working folder; Shrink Ray writes
/// its result to `target`) with `test` on `jobs` cores; C-Reduce's and C-Vise's C-specific
/// passes only for C.
pub(super) fn peer_command(
    peer: Peer,
    program: &Path,
    test: &Path,
    file_name: &str,
    target: &Path,
    language: &str,
    jobs: usize,
) -> Command {
    let mut cmd = Command::new(program);
    match peer {
        Peer::CReduce | Peer::CVise => {
            cmd.arg("--n").arg(jobs.to_string()).arg("--tidy");
            if language != "c" {
                cmd.arg("--not-c");
            }
            cmd.arg(test).arg(file_name);
        }
        Peer::ShrinkRay => {
            cmd.arg("--parallelism")
                .arg(jobs.to_string())
                .arg("--timeout")
                .arg(SHRINKRAY_TIMEOUT)
                .arg("--seed")
                .arg("0")
                .arg("--target")
                .arg(target)
                // Shrink Ray splits its test command like a shell.
                .arg(sh_quote(&test.to_string_lossy()))
                .arg(file_name)
                // No progress bar in the log.
                .env("TQDM_DISABLE", "1");
        }
    }
    cmd
}

/// End the tests Shrink Ray left running in their own sessions (it was killed before it
/// could): each wrapper still in `pids` whose command line names `test`, with its group.
fn end_stray_tests(pids: &Path, test: &Path) {
    let Ok(entries) = fs::read_dir(pids) else {
        return;
    };
    let test = test.to_string_lossy();
    for entry in entries.flatten() {
        let Some(pid) = entry
            .file_name()
            .to_str()
            .and_then(|n| n.parse::<i32>().ok())
            .filter(|&p| p > 1)
        else {
            continue;
        };
        let cmdline = fs::read(format!("/proc/{pid}/cmdline")).unwrap_or_default();
        if String::from_utf8_lossy(&cmdline).contains(&*test) {
            // The process group led by our own stray wrapper.
            if let Some(pid) = rustix::process::Pid::from_raw(pid) {
                let _ = rustix::process::kill_process_group(pid, rustix::process::Signal::KILL);
            }
        }
    }
}

/// (oracle runs, trace) from the wrapper's logs: a trace point at every new smallest size.
pub(super) fn read_logs(runs: &str, hits: &str, start: f64) -> (u64, Vec<TracePoint>) {
    let mut ends: Vec<f64> = runs.lines().filter_map(|l| l.trim().parse().ok()).collect();
    ends.sort_by(f64::total_cmp);
    let mut hits: Vec<(f64, u64)> = hits
        .lines()
        .filter_map(|l| {
            let (t, s) = l.trim().split_once(' ')?;
            Some((t.parse().ok()?, s.trim().parse().ok()?))
        })
        .collect();
    hits.sort_by(|a, b| a.0.total_cmp(&b.0));
    let mut trace: Vec<TracePoint> = Vec::new();
    for (t, size) in hits {
        if trace.last().is_some_and(|p| p.size <= size) {
            continue;
        }
        trace.push(TracePoint {
            oracle_runs: ends.partition_point(|&e| e <= t) as u64,
            seconds: ((t - start) * 1000.0).round().max(0.0) / 1000.0,
            size,
        });
    }
    (ends.len() as u64, trace)
}

fn unix_now() -> f64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(0.0, |d| d.as_secs_f64())
}

/// Reduce `case` with a peer under `limit`; one row like treedd's (config = the peer's name).
pub(super) fn run_peer(
    peer: Peer,
    program: &Path,
    case: &Case,
    jobs: usize,
    limit: Duration,
) -> Result<Row> {
    let (input, file_name, oracle) = case_files(case)?;
    let dir = Scratch::new(&format!("{}-{}", case.name, peer.slug()))?;
    let work = dir.path().join("work");
    let tmp = dir.path().join("tmp");
    let pids = dir.path().join("pids");
    for d in [&work, &tmp, &pids] {
        fs::create_dir_all(d)?;
    }
    let file = work.join(&file_name);
    fs::write(&file, &input)?;
    let (runs, hits) = (dir.path().join("runs.log"), dir.path().join("hits.log"));
    let test = dir.path().join("interesting.sh");
    let script = match peer {
        Peer::CReduce | Peer::CVise => wrapper_script(&oracle, &file_name, &runs, &hits),
        Peer::ShrinkRay => shrinkray_wrapper_script(&oracle, &file_name, &runs, &hits, &pids),
    };
    fs::write(&test, script)?;
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&test, fs::Permissions::from_mode(0o755))?;
    }
    let target = dir.path().join("best");
    let log = dir.path().join("peer.log");
    let log_file = fs::File::create(&log)?;
    let mut cmd = peer_command(
        peer,
        program,
        &test,
        &file_name,
        &target,
        case.language(),
        jobs,
    );
    // TMPDIR inside the scratch folder: what a killed peer leaves behind goes with it.
    cmd.current_dir(&work)
        .env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(log_file.try_clone()?)
        .stderr(log_file);
    let start = unix_now();
    let finished = run_watched(&mut cmd, Some(limit))?;
    end_stray_tests(&pids, &test);
    let error = run_error(&finished, peer.slug(), &log);
    // Shrink Ray writes `target` only when it finds a smaller file.
    let best = match peer {
        Peer::CReduce | Peer::CVise => &file,
        Peer::ShrinkRay => &target,
    };
    let result = fs::read(best).unwrap_or_else(|_| input.clone());
    let (oracle_runs, trace) = read_logs(
        &fs::read_to_string(&runs).unwrap_or_default(),
        &fs::read_to_string(&hits).unwrap_or_default(),
        start,
    );
    let verified =
        error.is_none() && oracle_accepts(&oracle, &file_name, &result, Duration::from_secs(300))?;
    Ok(Row {
        oracle_runs: Some(oracle_runs),
        verified,
        error,
        trace: Some(trace),
        ..row_of_run(
            case,
            peer.slug().to_string(),
            jobs,
            &input,
            &result,
            &finished,
            limit,
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::test_util::script;

    /// The wrapper's logs hold two runs, the first interesting with 11 characters.
    fn two_runs_one_hit_of_11(runs: &Path, hits: &Path) {
        let (n, trace) = read_logs(
            &fs::read_to_string(runs).unwrap(),
            &fs::read_to_string(hits).unwrap(),
            0.0,
        );
        assert_eq!(n, 2);
        assert_eq!(trace.len(), 1);
        assert_eq!((trace[0].oracle_runs, trace[0].size), (1, 11));
    }

    #[test]
    fn logs_give_runs_and_a_decreasing_trace() {
        let runs = "10.5\n10.2\n11.0\n12.0\n";
        let hits = "10.5 40\n11.0 45\n12.0 30\n";
        let (n, trace) = read_logs(runs, hits, 10.0);
        assert_eq!(n, 4);
        assert_eq!(
            trace,
            [
                TracePoint {
                    oracle_runs: 2,
                    seconds: 0.5,
                    size: 40
                },
                TracePoint {
                    oracle_runs: 4,
                    seconds: 2.0,
                    size: 30
                },
            ]
        );
    }

    #[test]
    fn the_wrapper_calls_the_oracle_the_treedd_way() {
        let dir = Scratch::new("wrapper").unwrap();
        let oracle = dir.path().join("my oracle.sh");
        // Needs the path as $1 and the file under its name in the working directory.
        script(
            &oracle,
            "#!/bin/sh\n[ \"$(basename \"$1\")\" = \"it's.c\" ] && [ -f \"it's.c\" ] && grep -q main \"$1\"\n",
        );
        let (runs, hits) = (dir.path().join("runs"), dir.path().join("hits"));
        let test = dir.path().join("t.sh");
        script(&test, &wrapper_script(&oracle, "it's.c", &runs, &hits));
        fs::write(dir.path().join("it's.c"), "int main ( ) { }\n").unwrap();
        let status = |cmd: &mut Command| cmd.current_dir(dir.path()).status().unwrap();
        assert!(status(&mut Command::new(&test)).success());
        fs::write(dir.path().join("it's.c"), "int f;\n").unwrap();
        assert_eq!(status(&mut Command::new(&test)).code(), Some(1));
        two_runs_one_hit_of_11(&runs, &hits);
    }

    /// A tiny C case (10 lines) with a grep oracle that, like the suites' oracles, needs the
    /// candidate as `$1` under the case's file name in its working folder.
    fn tiny_case(dir: &Path) -> Case {
        let case_dir = dir.join("tiny");
        fs::create_dir_all(&case_dir).unwrap();
        fs::write(
            case_dir.join("tiny.c"),
            "#include <stdio.h>\n\
             int unused(int a) {\n  return a * 2;\n}\n\
             int main(void) {\n  int x = 41;\n  x = x + 1;\n  printf(\"%d\\n\", x);\n  \
             return 0;\n}\n",
        )
        .unwrap();
        script(
            &case_dir.join("oracle.sh"),
            "#!/bin/sh\n[ \"$1\" = \"$PWD/tiny.c\" ] && [ -f tiny.c ] && grep -q printf \"$1\"\n",
        );
        crate::bench::suite::load_case(&case_dir).unwrap()
    }

    /// `peer` on the tiny case through the real wrapper: a verified, smaller result, its
    /// oracle runs counted and a decreasing trace. Skipped when the peer is not installed.
    fn peer_reduces_a_tiny_case(peer: Peer, jobs: usize) {
        let Ok(program) = find_program(peer) else {
            eprintln!(
                "SKIPPED {} on a tiny case: `{}` is not in PATH ({})",
                peer.title(),
                peer.slug(),
                peer.install_hint()
            );
            return;
        };
        let dir = Scratch::new("peer").unwrap();
        let case = tiny_case(dir.path());
        let row = run_peer(peer, &program, &case, jobs, Duration::from_secs(60)).unwrap();
        assert_eq!(row.error, None, "{row:?}");
        assert!(!row.timed_out, "{row:?}");
        assert!(row.verified, "{row:?}");
        assert!(row.output_chars < row.input_chars / 2, "{row:?}");
        let runs = row.oracle_runs.unwrap();
        assert!(runs > 3, "{row:?}");
        let trace = row.trace.unwrap();
        assert!(!trace.is_empty() && trace.iter().all(|p| p.oracle_runs <= runs));
        assert!(trace.windows(2).all(|w| w[1].size < w[0].size));
        // The trace's last point is the result (sizes in non-whitespace bytes).
        assert_eq!(trace.last().unwrap().size, row.output_chars, "{trace:?}");
    }

    #[test]
    fn creduce_reduces_a_tiny_case() {
        peer_reduces_a_tiny_case(Peer::CReduce, 1);
    }

    #[test]
    fn shrinkray_reduces_a_tiny_case() {
        peer_reduces_a_tiny_case(Peer::ShrinkRay, 2);
    }

    /// Shrink Ray cut at the time limit while its tests hang (in sessions of their own, out
    /// of reach of the group's SIGINT, so it is SIGKILLed after the grace): a verified row
    /// with its best result, and no test left running.
    #[test]
    fn shrinkray_cut_at_the_time_limit_leaves_no_test_running() {
        let Ok(program) = find_program(Peer::ShrinkRay) else {
            eprintln!(
                "SKIPPED Shrink Ray at the time limit: `shrinkray` is not in PATH ({})",
                Peer::ShrinkRay.install_hint()
            );
            return;
        };
        let dir = Scratch::new("peer-limit").unwrap();
        let case = tiny_case(dir.path());
        // Candidates under 100 bytes that pass take 60 s.
        script(
            &case.oracle,
            "#!/bin/sh\ngrep -q printf \"$1\" || exit 1\n\
             [ \"$(wc -c < \"$1\")\" -lt 100 ] && sleep 60\nexit 0\n",
        );
        let row = run_peer(Peer::ShrinkRay, &program, &case, 2, Duration::from_secs(2)).unwrap();
        assert!(row.timed_out, "{row:?}");
        assert_eq!(row.error, None, "{row:?}");
        assert!(row.verified, "{row:?}");
        let oracle = case.oracle.to_string_lossy().into_owned();
        let running: Vec<String> = fs::read_dir("/proc")
            .unwrap()
            .flatten()
            .filter_map(|e| fs::read(e.path().join("cmdline")).ok())
            .map(|c| String::from_utf8_lossy(&c).replace('\0', " "))
            .filter(|c| c.contains(&oracle))
            .collect();
        assert!(running.is_empty(), "{running:?}");
    }

    /// Shrink Ray's wrapper reads the candidate from stdin and gives it to the oracle as `$1`
    /// in a private folder, logged like the others, and removes its pid file at the end.
    #[test]
    fn the_shrinkray_wrapper_takes_the_candidate_on_stdin() {
        let dir = Scratch::new("srwrapper").unwrap();
        let oracle = dir.path().join("oracle.sh");
        script(
            &oracle,
            "#!/bin/sh\n[ \"$1\" = \"$PWD/it's.c\" ] && grep -q main \"$1\"\n",
        );
        let (runs, hits, pids) = (
            dir.path().join("runs"),
            dir.path().join("hits"),
            dir.path().join("pids"),
        );
        fs::create_dir_all(&pids).unwrap();
        let test = dir.path().join("t.sh");
        script(
            &test,
            &shrinkray_wrapper_script(&oracle, "it's.c", &runs, &hits, &pids),
        );
        let run = |text: &str| {
            use std::io::Write as _;
            let mut child = Command::new(&test)
                .current_dir(dir.path())
                .env("TMPDIR", dir.path())
                .stdin(Stdio::piped())
                .spawn()
                .unwrap();
            child
                .stdin
                .take()
                .unwrap()
                .write_all(text.as_bytes())
                .unwrap();
            child.wait().unwrap().code()
        };
        assert_eq!(run("int main ( ) { }\n"), Some(0));
        assert_eq!(run("int f;\n"), Some(1));
        two_runs_one_hit_of_11(&runs, &hits);
        // Nothing left behind: no pid files, no candidate folders.
        assert_eq!(fs::read_dir(&pids).unwrap().count(), 0);
        let left: Vec<_> = fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir() && e.path() != pids)
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }

    #[test]
    fn shrinkray_runs_with_our_jobs_timeout_and_target() {
        let cmd = peer_command(
            Peer::ShrinkRay,
            Path::new("/bin/shrinkray"),
            Path::new("/tmp/a b/t.sh"),
            "x.c",
            Path::new("/tmp/best"),
            "c",
            2,
        );
        let args: Vec<_> = cmd.get_args().map(|a| a.to_string_lossy()).collect();
        assert_eq!(
            args,
            [
                "--parallelism",
                "2",
                "--timeout",
                "30",
                "--seed",
                "0",
                "--target",
                "/tmp/best",
                "'/tmp/a b/t.sh'",
                "x.c"
            ]
        );
    }
}
