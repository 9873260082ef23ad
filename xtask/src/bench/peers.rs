//! Peer reducers (`--peers creduce,cvise`) on the same cases, with the same oracles
//! and time limit, stored as extra configurations.
//!
//! C-Reduce and C-Vise run an interestingness test without arguments in a
//! temporary folder holding the file under its own name; our oracles take the candidate's
//! path as `$1`. A generated wrapper bridges the two conventions and logs every oracle run
//! (its end time) and every interesting candidate (time and size), from which the oracle
//! runs and the progress trace are counted. Peers reduce the file in place, so at the time
//! limit (SIGINT to the group) the file holds their best result so far.

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
                "--peers {}: `{}` is not in PATH (install it, e.g. apt-get install creduce cvise)",
                peer.slug(),
                peer.slug()
            )
        })
}

/// Single-quote `s` for sh.
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The no-argument interestingness test the peers run: our oracle on `$PWD/<file_name>`,
/// logging each run's end time to `runs` and each interesting candidate's time and
/// non-whitespace size (bytes) to `hits`.
pub(super) fn wrapper_script(oracle: &Path, file_name: &str, runs: &Path, hits: &Path) -> String {
    let q = |p: &Path| sh_quote(&p.to_string_lossy());
    format!(
        "#!/bin/sh\n\
         # Written by cargo xtask bench: a peer reducer's test, calling a treedd-style oracle.\n\
         {oracle} \"$PWD\"/{name} </dev/null >/dev/null 2>&1\n\
         status=$?\n\
         now=$(date +%s.%N)\n\
         echo \"$now\" >> {runs}\n\
         if [ \"$status\" -eq 0 ]; then\n  \
           size=$(tr -d ' \\t\\n\\r\\f\\v' < {name} | wc -c)\n  \
           echo \"$now $size\" >> {hits}\n\
         fi\n\
         exit \"$status\"\n",
        oracle = q(oracle),
        name = sh_quote(file_name),
        runs = q(runs),
        hits = q(hits),
    )
}

/// The command line of C-Reduce or C-Vise (same options) reducing `file_name` with `test`
/// on `jobs` cores; their C-specific passes only for C.
pub(super) fn peer_command(
    program: &Path,
    test: &Path,
    file_name: &str,
    language: &str,
    jobs: usize,
) -> Command {
    let mut cmd = Command::new(program);
    cmd.arg("--n").arg(jobs.to_string()).arg("--tidy");
    if language != "c" {
        cmd.arg("--not-c");
    }
    cmd.arg(test).arg(file_name);
    cmd
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
    fs::create_dir_all(&work)?;
    fs::create_dir_all(&tmp)?;
    fs::write(work.join(&file_name), &input)?;
    let (runs, hits) = (dir.path().join("runs.log"), dir.path().join("hits.log"));
    let test = dir.path().join("interesting.sh");
    fs::write(&test, wrapper_script(&oracle, &file_name, &runs, &hits))?;
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&test, fs::Permissions::from_mode(0o755))?;
    }
    let log = dir.path().join("peer.log");
    let log_file = fs::File::create(&log)?;
    let mut cmd = peer_command(program, &test, &file_name, case.language(), jobs);
    // TMPDIR inside the scratch folder: what a killed peer leaves behind goes with it.
    cmd.current_dir(&work)
        .env("TMPDIR", &tmp)
        .stdin(Stdio::null())
        .stdout(log_file.try_clone()?)
        .stderr(log_file);
    let start = unix_now();
    let finished = run_watched(&mut cmd, Some(limit))?;
    let error = run_error(&finished, peer.slug(), &log);
    let result = fs::read(work.join(&file_name)).unwrap_or_else(|_| input.clone());
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
        let (n, trace) = read_logs(
            &fs::read_to_string(&runs).unwrap(),
            &fs::read_to_string(&hits).unwrap(),
            0.0,
        );
        assert_eq!(n, 2);
        assert_eq!(trace.len(), 1);
        assert_eq!((trace[0].oracle_runs, trace[0].size), (1, 11));
    }

    /// C-Reduce on a 10-line C file with a grep oracle, through the real wrapper.
    #[test]
    fn creduce_reduces_a_tiny_case() {
        let Ok(program) = find_program(Peer::CReduce) else {
            eprintln!("SKIPPED creduce_reduces_a_tiny_case: creduce is not in PATH");
            return;
        };
        let dir = Scratch::new("peer").unwrap();
        let case_dir = dir.path().join("tiny");
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
            "#!/bin/sh\ngrep -q printf \"$1\"\n",
        );
        let case = crate::bench::suite::load_case(&case_dir).unwrap();
        let row = run_peer(Peer::CReduce, &program, &case, 1, Duration::from_secs(60)).unwrap();
        assert_eq!(row.error, None, "{row:?}");
        assert!(!row.timed_out, "{row:?}");
        assert!(row.verified, "{row:?}");
        assert!(row.output_chars < row.input_chars / 2, "{row:?}");
        let runs = row.oracle_runs.unwrap();
        assert!(runs > 3, "{row:?}");
        let trace = row.trace.unwrap();
        assert!(!trace.is_empty() && trace.iter().all(|p| p.oracle_runs <= runs));
        assert!(trace.windows(2).all(|w| w[1].size < w[0].size));
    }
}
