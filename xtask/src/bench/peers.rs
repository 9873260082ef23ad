//! Peer reducers (`--peers creduce,cvise,shrinkray,treereduce`) on the same cases, with the
//! same oracles, `--jobs` and time limit, stored as extra configurations.
//!
//! C-Reduce, C-Vise and Shrink Ray (today's PyPI release, `--input-type basename`) run an
//! interestingness test without arguments in a temporary folder holding the candidate under
//! the input's own name; Shrink Ray starts each test in a session of its own. treereduce
//! gives its test the path of a temporary file (`@@.<ext>`). Our oracles take the
//! candidate's path as `$1`, the file under the input's name in their working folder. A
//! generated wrapper bridges the conventions and logs every oracle run (its end time) and
//! every interesting candidate (time and size), from which the oracle runs and the progress
//! trace are counted. C-Reduce, C-Vise and Shrink Ray reduce the file in place, so at the
//! time limit (SIGINT to the group) it holds their best result so far; treereduce writes its
//! output only at the end, so its wrapper also keeps the smallest interesting candidate.
//! Each row records the peer's version (`--version`).

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, SystemTime, UNIX_EPOCH};

use anyhow::{bail, Result};

use super::config::{Peer, SHRINKRAY_VENV};
use super::run::{case_files, oracle_accepts, row_of_run, run_error, run_watched, Scratch};
use super::store::{Row, TracePoint};
use super::suite::Case;

/// The peer's program for inputs of treedd's `language`: `Ok(None)` if the peer has none
/// for it (treereduce), an error saying how to install it if it is not found. Shrink Ray is
/// looked for first in its own virtual environment (`~/.cache/treedd-bench/shrinkray-venv`),
/// then in `PATH`; the others in `PATH`, then in `~/.cargo/bin` (`cargo install`).
pub(super) fn find_program(peer: Peer, language: &str) -> Result<Option<PathBuf>> {
    let Some(name) = peer.program_name(language) else {
        return Ok(None);
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let (Peer::ShrinkRay, Some(home)) = (peer, &home) {
        dirs.push(home.join(SHRINKRAY_VENV).join("bin"));
    }
    dirs.extend(std::env::split_paths(
        &std::env::var_os("PATH").unwrap_or_default(),
    ));
    if let Some(home) = &home {
        dirs.push(home.join(".cargo").join("bin"));
    }
    let found = dirs
        .into_iter()
        .map(|d| d.join(&name))
        .find(|p| p.is_file());
    match found {
        Some(path) => Ok(Some(path)),
        None => bail!(
            "--peers {}: `{name}` is not installed (install it: {})",
            peer.slug(),
            peer.install_hint()
        ),
    }
}

/// The first line the peer's `PROGRAM --version` prints (`cvise 2.7.0 (d9e4a505)`,
/// `shrinkray, version 26.9.13.0`), after the program's name if it does not start with it
/// (`treereduce-c: treereduce 0.4.1`), or `None`.
pub(super) fn peer_version(program: &Path) -> Option<String> {
    let out = Command::new(program)
        .arg("--version")
        .stdin(Stdio::null())
        .output()
        .ok()?;
    let text = format!(
        "{}\n{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    let line: String = text
        .lines()
        .map(str::trim)
        .find(|l| !l.is_empty())?
        .chars()
        .take(100)
        .collect();
    // treereduce's programs all print `treereduce 0.4.1`: say which one ran.
    let name = program.file_name()?.to_string_lossy();
    Some(if line.starts_with(&*name) {
        line
    } else {
        format!("{name}: {line}")
    })
}

/// Single-quote `s` for sh (and for Python's `shlex.split`, which Shrink Ray applies to its
/// test command).
fn sh_quote(s: &str) -> String {
    format!("'{}'", s.replace('\'', r"'\''"))
}

/// The wrapper's common part: our oracle on `./<file_name>` (by its full path), logging the
/// run's end time to `runs` and, if interesting, the time and the candidate's non-whitespace
/// size (bytes) to `hits`; the oracle's status is left in `$status`. The size is measured
/// before the run: once a run has answered, C-Vise may remove its folder at any moment. With
/// `best`, an interesting candidate smaller than every one in that folder is also copied
/// there (named by its size), and the larger ones removed.
fn logged_oracle_run(
    oracle: &Path,
    file_name: &str,
    runs: &Path,
    hits: &Path,
    best: Option<&Path>,
) -> String {
    let q = |p: &Path| sh_quote(&p.to_string_lossy());
    let keep = best.map_or(String::new(), |best| {
        format!(
            "  least=$(ls {best} | sort -n | head -n 1)\n  \
             if [ -z \"$least\" ] || [ \"$size\" -lt \"$least\" ]; then\n    \
               cp {name} {best}/.new.$$ && mv -f {best}/.new.$$ {best}/\"$size\"\n    \
               for f in $(ls {best}); do [ \"$f\" -gt \"$size\" ] && rm -f {best}/\"$f\"; done\n  \
             fi\n",
            best = q(best),
            name = sh_quote(file_name),
        )
    });
    format!(
        "size=$(tr -d ' \\t\\n\\r\\f\\v' < {name} | wc -c)\n\
         {oracle} \"$PWD\"/{name} </dev/null >/dev/null 2>&1\n\
         status=$?\n\
         now=$(date +%s.%N)\n\
         echo \"$now\" >> {runs}\n\
         if [ \"$status\" -eq 0 ]; then\n  \
           echo \"$now $size\" >> {hits}\n\
         {keep}\
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
        run = logged_oracle_run(oracle, file_name, runs, hits, None),
    )
}

/// Shrink Ray's test (`--input-type basename`: the candidate under the input's name in the
/// test's working folder), logged as in [`wrapper_script`]. Shrink Ray starts each test in a
/// session of its own, out of reach of the signal at the time limit, so while it runs the
/// wrapper leaves its process id in `pids` for the harness to end the test if Shrink Ray was
/// killed before it could.
pub(super) fn shrinkray_wrapper_script(
    oracle: &Path,
    file_name: &str,
    runs: &Path,
    hits: &Path,
    pids: &Path,
    version: &str,
) -> String {
    let pid_file = format!("{}/$$", sh_quote(&pids.to_string_lossy()));
    format!(
        "#!/bin/sh\n\
         # Written by cargo xtask bench: Shrink Ray's test ({version}), calling a\n\
         # treedd-style oracle.\n\
         : > {pid_file}\n\
         {run}\
         rm -f {pid_file}\n\
         exit \"$status\"\n",
        version = version.replace('\n', " "),
        run = logged_oracle_run(oracle, file_name, runs, hits, None),
    )
}

/// treereduce's test: the candidate's path as `$1` (a temporary file of treereduce's),
/// copied as `<file_name>` into a private folder (under `$TMPDIR`), then our oracle on it,
/// logged as in [`wrapper_script`], and the smallest interesting candidate kept in `best`:
/// treereduce writes its output only when it ends, not when it is cut at the time limit.
pub(super) fn treereduce_wrapper_script(
    oracle: &Path,
    file_name: &str,
    runs: &Path,
    hits: &Path,
    best: &Path,
) -> String {
    format!(
        "#!/bin/sh\n\
         # Written by cargo xtask bench: treereduce's test (candidate path as $1), calling a\n\
         # treedd-style oracle.\n\
         dir=$(mktemp -d) || exit 2\n\
         cp \"$1\" \"$dir\"/{name} || {{ rm -rf \"$dir\"; exit 2; }}\n\
         cd \"$dir\" || exit 2\n\
         {run}\
         cd / && rm -rf \"$dir\"\n\
         exit \"$status\"\n",
        name = sh_quote(file_name),
        run = logged_oracle_run(oracle, file_name, runs, hits, Some(best)),
    )
}

/// The smallest candidate a treereduce wrapper kept in `best`, if any.
pub(super) fn smallest_kept(best: &Path) -> Option<Vec<u8>> {
    let least = fs::read_dir(best)
        .ok()?
        .flatten()
        .filter_map(|e| e.file_name().to_str()?.parse::<u64>().ok())
        .min()?;
    fs::read(best.join(least.to_string())).ok()
}

/// Per-test timeout of every peer, in seconds: C-Reduce's and C-Vise's default (and the
/// harness's for verifying a result).
const TEST_TIMEOUT: &str = "300";

/// The command line of a peer reducing `file_name` (in the working folder, in place; the
/// output of treereduce goes to `target`) with `test` on `jobs` cores. C-Reduce's and
/// C-Vise's C-specific passes (clang_delta) run on C and C++ only (`--not-c` otherwise).
/// Shrink Ray runs with its basic UI, without its LLM passes (they download a model at run
/// time), history folder or formatter; treereduce to its fixed point (`--stable`).
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
            if language != "c" && language != "cpp" {
                cmd.arg("--not-c");
            }
            cmd.arg(test).arg(file_name);
        }
        Peer::ShrinkRay => {
            cmd.args(["--parallelism", &jobs.to_string()])
                .args(["--timeout", TEST_TIMEOUT, "--seed", "0"])
                .args(["--ui", "basic", "--input-type", "basename"])
                .args(["--no-llm", "--no-history", "--formatter", "none"])
                // Shrink Ray splits its test command like a shell.
                .arg(sh_quote(&test.to_string_lossy()))
                .arg(file_name);
        }
        Peer::TreeReduce => {
            let marker = match Path::new(file_name).extension() {
                Some(ext) => format!("@@.{}", ext.to_string_lossy()),
                None => "@@".to_string(),
            };
            cmd.args(["--jobs", &jobs.to_string(), "--stable"])
                .args(["--timeout", TEST_TIMEOUT])
                .arg("--source")
                .arg(file_name)
                .arg("--output")
                .arg(target)
                .arg("--")
                .arg(test)
                .arg(marker);
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

/// Reduce `case` with a peer under `limit`; one row like treedd's (config = the peer's name,
/// with the peer's version).
pub(super) fn run_peer(
    peer: Peer,
    program: &Path,
    case: &Case,
    jobs: usize,
    limit: Duration,
) -> Result<Row> {
    let (input, file_name, oracle) = case_files(case)?;
    let version = peer_version(program);
    let dir = Scratch::new(&format!("{}-{}", case.name, peer.slug()))?;
    let work = dir.path().join("work");
    let tmp = dir.path().join("tmp");
    let pids = dir.path().join("pids");
    let kept = dir.path().join("kept");
    for d in [&work, &tmp, &pids, &kept] {
        fs::create_dir_all(d)?;
    }
    let file = work.join(&file_name);
    fs::write(&file, &input)?;
    let (runs, hits) = (dir.path().join("runs.log"), dir.path().join("hits.log"));
    let test = dir.path().join("interesting.sh");
    let script = match peer {
        Peer::CReduce | Peer::CVise => wrapper_script(&oracle, &file_name, &runs, &hits),
        Peer::ShrinkRay => shrinkray_wrapper_script(
            &oracle,
            &file_name,
            &runs,
            &hits,
            &pids,
            version.as_deref().unwrap_or("version unknown"),
        ),
        Peer::TreeReduce => treereduce_wrapper_script(&oracle, &file_name, &runs, &hits, &kept),
    };
    fs::write(&test, script)?;
    {
        use std::os::unix::fs::PermissionsExt as _;
        fs::set_permissions(&test, fs::Permissions::from_mode(0o755))?;
    }
    let target = dir.path().join("output");
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
    let result = match peer {
        Peer::CReduce | Peer::CVise | Peer::ShrinkRay => fs::read(&file).ok(),
        // Its output when it ended, else the smallest interesting candidate it tested.
        Peer::TreeReduce => fs::read(&target).ok().or_else(|| smallest_kept(&kept)),
    }
    .unwrap_or_else(|| input.clone());
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
        version,
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
    /// candidate as `$1` under the case's file name in its working folder. Its folder's name
    /// is as long as the suites' longest (a peer's temporary folder is named after it).
    fn tiny_case(dir: &Path) -> Case {
        let case_dir = dir.join("superstruct-alias-default-typearg-infer-51623-tiny");
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

    /// The peer's program, or `None` with a note that the test is skipped.
    fn installed(peer: Peer, what: &str) -> Option<PathBuf> {
        match find_program(peer, "c") {
            Ok(program) => program,
            Err(e) => {
                eprintln!("SKIPPED {} {what}: {e}", peer.title());
                None
            }
        }
    }

    /// `peer` on the tiny case through the real wrapper: a verified, smaller result, its
    /// oracle runs counted, a decreasing trace and its version. Skipped when the peer is not
    /// installed.
    fn peer_reduces_a_tiny_case(peer: Peer, jobs: usize) {
        let Some(program) = installed(peer, "on a tiny case") else {
            return;
        };
        let dir = Scratch::new("peer").unwrap();
        let case = tiny_case(dir.path());
        let row = run_peer(peer, &program, &case, jobs, Duration::from_secs(120)).unwrap();
        assert_eq!(row.error, None, "{row:?}");
        assert!(row.verified, "{row:?}");
        assert!(row.output_chars < row.input_chars / 2, "{row:?}");
        let runs = row.oracle_runs.unwrap();
        assert!(runs > 3, "{row:?}");
        assert!(row.version.is_some(), "{row:?}");
        let trace = row.trace.as_deref().unwrap();
        assert!(!trace.is_empty() && trace.iter().all(|p| p.oracle_runs <= runs));
        assert!(trace.windows(2).all(|w| w[1].size < w[0].size));
        assert!(row.usable_trace().is_some(), "{trace:?}");
        // The trace's last point is the result (sizes in non-whitespace bytes). On a loaded
        // machine the run may be cut at the limit (C-Vise's passes are many), when a
        // candidate that passed may not be its result yet.
        let last = trace.last().unwrap().size;
        if row.timed_out {
            eprintln!("{} on a tiny case: cut at the time limit", peer.title());
            assert!(last <= row.output_chars, "{trace:?}");
        } else {
            assert_eq!(last, row.output_chars, "{trace:?}");
        }
    }

    #[test]
    fn creduce_reduces_a_tiny_case() {
        peer_reduces_a_tiny_case(Peer::CReduce, 1);
    }

    #[test]
    fn cvise_reduces_a_tiny_case() {
        peer_reduces_a_tiny_case(Peer::CVise, 2);
    }

    #[test]
    fn shrinkray_reduces_a_tiny_case() {
        peer_reduces_a_tiny_case(Peer::ShrinkRay, 2);
    }

    #[test]
    fn treereduce_reduces_a_tiny_case() {
        peer_reduces_a_tiny_case(Peer::TreeReduce, 2);
    }

    /// A peer cut at the time limit while its tests of small candidates hang: a verified row
    /// with its best result so far, and no test left running. Shrink Ray's tests run in
    /// sessions of their own, out of reach of the group's SIGINT; treereduce writes no
    /// output before it ends, so the row's result is the one its wrapper kept.
    fn peer_cut_at_the_time_limit(peer: Peer) {
        let Some(program) = installed(peer, "at the time limit") else {
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
        let row = run_peer(peer, &program, &case, 2, Duration::from_secs(4)).unwrap();
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

    #[test]
    fn shrinkray_cut_at_the_time_limit_leaves_no_test_running() {
        peer_cut_at_the_time_limit(Peer::ShrinkRay);
    }

    #[test]
    fn treereduce_cut_at_the_time_limit_keeps_its_best() {
        peer_cut_at_the_time_limit(Peer::TreeReduce);
    }

    /// Runs `test` in `cwd` with `args`; its exit code.
    fn run_test(test: &Path, cwd: &Path, args: &[&Path]) -> Option<i32> {
        Command::new(test)
            .args(args)
            .current_dir(cwd)
            .env("TMPDIR", cwd)
            .status()
            .unwrap()
            .code()
    }

    /// Shrink Ray's wrapper runs the oracle on the candidate in its working folder, logged
    /// like the others, and removes its pid file at the end.
    #[test]
    fn the_shrinkray_wrapper_finds_the_candidate_by_its_name() {
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
        let body = shrinkray_wrapper_script(&oracle, "it's.c", &runs, &hits, &pids, "v 1.0");
        assert!(body.contains("Shrink Ray's test (v 1.0)"), "{body}");
        script(&test, &body);
        let work = dir.path().join("work");
        fs::create_dir_all(&work).unwrap();
        fs::write(work.join("it's.c"), "int main ( ) { }\n").unwrap();
        assert_eq!(run_test(&test, &work, &[]), Some(0));
        fs::write(work.join("it's.c"), "int f;\n").unwrap();
        assert_eq!(run_test(&test, &work, &[]), Some(1));
        two_runs_one_hit_of_11(&runs, &hits);
        assert_eq!(fs::read_dir(&pids).unwrap().count(), 0, "no pid file left");
    }

    /// treereduce's wrapper gives the oracle a copy of `$1` under the input's name in a
    /// private folder, logs the runs and keeps only the smallest interesting candidate.
    #[test]
    fn the_treereduce_wrapper_copies_its_argument_and_keeps_the_smallest() {
        let dir = Scratch::new("trwrapper").unwrap();
        let oracle = dir.path().join("oracle.sh");
        script(
            &oracle,
            "#!/bin/sh\n[ \"$1\" = \"$PWD/it's.c\" ] && grep -q main \"$1\"\n",
        );
        let (runs, hits, kept) = (
            dir.path().join("runs"),
            dir.path().join("hits"),
            dir.path().join("kept"),
        );
        fs::create_dir_all(&kept).unwrap();
        let test = dir.path().join("t.sh");
        script(
            &test,
            &treereduce_wrapper_script(&oracle, "it's.c", &runs, &hits, &kept),
        );
        let candidate = dir.path().join("tmp-abc.c");
        let run = |text: &str| {
            fs::write(&candidate, text).unwrap();
            run_test(&test, dir.path(), &[&candidate])
        };
        assert_eq!(run("int main ( ) { }\n"), Some(0));
        assert_eq!(run("int f;\n"), Some(1));
        two_runs_one_hit_of_11(&runs, &hits);
        assert_eq!(run("int main ( ) { return 1 ; }\n"), Some(0), "larger");
        assert_eq!(run("main ( ) { }\n"), Some(0), "smaller: 8");
        let names: Vec<String> = fs::read_dir(&kept)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        assert_eq!(names, ["8"]);
        assert_eq!(smallest_kept(&kept).unwrap(), b"main ( ) { }\n");
        // No private folder left behind.
        let dirs = fs::read_dir(dir.path())
            .unwrap()
            .flatten()
            .filter(|e| e.path().is_dir() && e.path() != kept)
            .count();
        assert_eq!(dirs, 0);
    }

    #[test]
    fn peers_run_with_our_jobs_and_timeout() {
        let args = |peer, file: &str, language| {
            let cmd = peer_command(
                peer,
                Path::new("/bin/peer"),
                Path::new("/tmp/a b/t.sh"),
                file,
                Path::new("/tmp/out"),
                language,
                2,
            );
            cmd.get_args()
                .map(|a| a.to_string_lossy().into_owned())
                .collect::<Vec<_>>()
        };
        assert_eq!(
            args(Peer::ShrinkRay, "x.c", "c"),
            [
                "--parallelism",
                "2",
                "--timeout",
                "300",
                "--seed",
                "0",
                "--ui",
                "basic",
                "--input-type",
                "basename",
                "--no-llm",
                "--no-history",
                "--formatter",
                "none",
                "'/tmp/a b/t.sh'",
                "x.c"
            ]
        );
        assert_eq!(
            args(Peer::TreeReduce, "x.java", "java"),
            [
                "--jobs",
                "2",
                "--stable",
                "--timeout",
                "300",
                "--source",
                "x.java",
                "--output",
                "/tmp/out",
                "--",
                "/tmp/a b/t.sh",
                "@@.java"
            ]
        );
        assert_eq!(
            args(Peer::CVise, "x.c", "c"),
            ["--n", "2", "--tidy", "/tmp/a b/t.sh", "x.c"]
        );
        // C++ is C for C-Vise and C-Reduce (clang_delta); anything else is not.
        assert_eq!(
            args(Peer::CVise, "x.cpp", "cpp"),
            args(Peer::CVise, "x.cpp", "c")
        );
        assert_eq!(
            args(Peer::CReduce, "x.rs", "rust"),
            ["--n", "2", "--tidy", "--not-c", "/tmp/a b/t.sh", "x.rs"]
        );
    }

    #[test]
    fn programs_are_found_per_language() {
        assert_eq!(find_program(Peer::TreeReduce, "cpp").unwrap(), None);
        assert_eq!(find_program(Peer::TreeReduce, "python").unwrap(), None);
        // Stand-ins for the peers' programs print their versions.
        assert_eq!(peer_version(Path::new("/nonexistent/peer")), None);
        let dir = Scratch::new("version").unwrap();
        let fake = dir.path().join("treereduce-c");
        script(&fake, "#!/bin/sh\necho\necho 'treereduce 0.4.1'\n");
        assert_eq!(
            peer_version(&fake).as_deref(),
            Some("treereduce-c: treereduce 0.4.1")
        );
        let cvise = dir.path().join("cvise");
        script(&cvise, "#!/bin/sh\necho 'cvise 2.7.0 (d9e4a505)' >&2\n");
        assert_eq!(
            peer_version(&cvise).as_deref(),
            Some("cvise 2.7.0 (d9e4a505)")
        );
    }
}
