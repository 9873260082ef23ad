//! The final layout step: after a finished reduction, treedd's own layout of the
//! result (`Lang::lay_out`, from `grammars/<lang>/layout.toml`), then the language's own
//! formatter where one is installed (`[[formatters]]` of the same file), each kept only if
//! the oracle still finds it interesting. Every oracle run goes through the reduction's
//! `Judge` (cache, syntax filter, timeouts, run directories, `--confirm`, stats).
//!
//! A formatter runs with the text on standard input, from a private temporary directory in
//! the run's scratch directory (so the watchdog's marker and cleanup apply to it), killed
//! with its process group after [`TIMEOUT`]. One that is missing, fails, times out or changes
//! the text's non-whitespace characters (black's quotes, prettier's semicolons, rustfmt's
//! sorted imports) is skipped: the size measure never changes.

use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use serde::Serialize;
use treedd_reduce::Judge;
use treedd_tree::{non_whitespace, Lang};

/// How long a formatter may run.
pub const TIMEOUT: Duration = Duration::from_secs(30);

/// What the format step did, for `--stats` (`format`).
#[derive(Clone, Debug, Default, Serialize)]
pub struct Report {
    /// The steps tried, in order: `layout`, then the formatter's name.
    pub steps: Vec<Step>,
    /// Oracle runs of the format step (also counted in the run's `oracle_runs`).
    pub oracle_runs: u64,
}

/// One step: what it was and what came of it.
#[derive(Clone, Debug, Serialize)]
pub struct Step {
    pub step: String,
    /// `accepted` (the oracle kept it), `rejected` (the oracle did not), `unchanged` (nothing
    /// to change), `not_applicable` (no layout data, or a layout would change the tree),
    /// `missing` (no formatter installed), `failed`, `timed_out`, `changed_tokens` (the
    /// formatter changed non-whitespace characters), `interrupted`.
    pub outcome: &'static str,
    pub oracle_runs: u64,
    /// Why a formatter was skipped (its exit status and first line of error output).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<String>,
}

/// Lay out and format `text` (interesting, the reduction's result); returns the best text
/// the oracle accepted (`text` itself if it accepted none) and what was done.
pub fn format(judge: &Judge, lang: Lang, text: &[u8], phase: &dyn Fn(&str)) -> (Vec<u8>, Report) {
    let mut best = text.to_vec();
    let mut report = Report::default();
    let runs = || judge.stats().oracle_runs;
    let start = runs();

    phase("format: layout");
    let before = runs();
    let (outcome, detail) = match lang.lay_out(&best) {
        None => ("not_applicable", None),
        Some(laid) if laid == best => ("unchanged", None),
        Some(laid) => try_candidate(judge, &mut best, laid),
    };
    report.steps.push(Step {
        step: "layout".into(),
        outcome,
        oracle_runs: runs() - before,
        detail,
    });

    if outcome != "interrupted" {
        if let Some(step) = formatter_step(judge, lang, &mut best, phase) {
            report.steps.push(step);
        }
    }
    report.oracle_runs = runs() - start;
    (best, report)
}

/// Ask the oracle about `candidate`; keep it in `best` if interesting.
fn try_candidate(
    judge: &Judge,
    best: &mut Vec<u8>,
    candidate: Vec<u8>,
) -> (&'static str, Option<String>) {
    if judge.test(&candidate) {
        *best = candidate;
        ("accepted", None)
    } else if judge.is_cancelled() {
        ("interrupted", None)
    } else {
        ("rejected", None)
    }
}

/// The language's first installed formatter applied to `best`; `None` if the language has
/// none at all.
fn formatter_step(
    judge: &Judge,
    lang: Lang,
    best: &mut Vec<u8>,
    phase: &dyn Fn(&str),
) -> Option<Step> {
    let formatters = lang.formatters();
    let first = formatters.first()?;
    let found = formatters
        .iter()
        .find_map(|f| find_program(&f.command[0]).map(|p| (f, p)));
    let Some((formatter, program)) = found else {
        let names: Vec<&str> = formatters.iter().map(|f| f.name.as_str()).collect();
        return Some(Step {
            step: first.name.clone(),
            outcome: "missing",
            oracle_runs: 0,
            detail: Some(format!("not installed: {}", names.join(", "))),
        });
    };
    phase(&format!("format: {}", formatter.name));
    let before = judge.stats().oracle_runs;
    let (outcome, detail) = match run(&program, &formatter.command[1..], best, TIMEOUT) {
        Err(Failure::TimedOut) => ("timed_out", Some(format!("after {}s", TIMEOUT.as_secs()))),
        Err(Failure::Failed(why)) => ("failed", Some(why)),
        Ok(out) if out == *best => ("unchanged", None),
        Ok(out) if non_whitespace(&out) != non_whitespace(best) => ("changed_tokens", None),
        Ok(out) => try_candidate(judge, best, out),
    };
    Some(Step {
        step: formatter.name.clone(),
        outcome,
        oracle_runs: judge.stats().oracle_runs - before,
        detail,
    })
}

/// `name` as `PATH` finds it (a name with a `/` as it is), if it is an executable file.
fn find_program(name: &str) -> Option<PathBuf> {
    use std::os::unix::fs::PermissionsExt;
    let executable = |p: &Path| {
        p.metadata()
            .is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
    };
    if name.contains('/') {
        let p = PathBuf::from(name);
        return executable(&p).then_some(p);
    }
    let path = std::env::var_os("PATH")?;
    std::env::split_paths(&path)
        .map(|dir| dir.join(name))
        .find(|p| executable(p))
}

enum Failure {
    TimedOut,
    Failed(String),
}

/// Run a formatter on `input`: standard input in, standard output out, from a private
/// temporary directory, killed with its process group after [`TIMEOUT`].
fn run(
    program: &Path,
    args: &[String],
    input: &[u8],
    timeout: Duration,
) -> Result<Vec<u8>, Failure> {
    use std::os::unix::process::CommandExt;
    let failed = |e: std::io::Error| Failure::Failed(e.to_string());
    // The run's scratch directory (see `treedd_reduce::reaper`), else $TMPDIR.
    let root = std::env::var_os(treedd_proc::MARKER_VAR)
        .map(PathBuf::from)
        .filter(|p| p.is_dir())
        .unwrap_or_else(std::env::temp_dir);
    let dir = tempfile::Builder::new()
        .prefix("format-")
        .tempdir_in(&root)
        .map_err(failed)?;
    let mut child = Command::new(program)
        .args(args)
        .current_dir(dir.path())
        .env("TMPDIR", dir.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .process_group(0)
        .spawn()
        .map_err(failed)?;
    let pid = child.id() as libc::pid_t;
    let mut stdin = child.stdin.take();
    let mut stdout = child.stdout.take();
    let mut stderr = child.stderr.take();
    let (status, out, err) = std::thread::scope(|s| {
        let input = input.to_vec();
        // A formatter that exits without reading everything closes the pipe: not an error here.
        s.spawn(move || {
            if let Some(mut w) = stdin.take() {
                let _ = w.write_all(&input);
            }
        });
        let out = s.spawn(move || {
            let mut buf = Vec::new();
            if let Some(r) = stdout.as_mut() {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        });
        let err = s.spawn(move || {
            let mut buf = Vec::new();
            if let Some(r) = stderr.as_mut() {
                let _ = r.read_to_end(&mut buf);
            }
            buf
        });
        let deadline = Instant::now() + timeout;
        let status = loop {
            match child.try_wait() {
                Ok(Some(status)) => break Some(status),
                Ok(None) if Instant::now() < deadline => {
                    std::thread::sleep(Duration::from_millis(5));
                }
                _ => {
                    // The leader is not reaped yet, so the group id is still ours.
                    // SAFETY: kill(2) with a negative pid signals that process group.
                    unsafe {
                        libc::kill(-pid, libc::SIGKILL);
                    }
                    let _ = child.wait();
                    break None;
                }
            }
        };
        // Whatever of the group is left (a daemon the formatter started) goes too, so the
        // readers see the pipes close.
        // SAFETY: as above; an empty group makes kill fail with ESRCH, which is ignored.
        unsafe {
            libc::kill(-pid, libc::SIGKILL);
        }
        let out = out.join().unwrap_or_default();
        let err = err.join().unwrap_or_default();
        (status, out, err)
    });
    let Some(status) = status else {
        return Err(Failure::TimedOut);
    };
    if !status.success() {
        let first = String::from_utf8_lossy(&err)
            .lines()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("")
            .chars()
            .take(200)
            .collect::<String>();
        return Err(Failure::Failed(format!("{status}: {first}")));
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sh(script: &str) -> (PathBuf, Vec<String>) {
        (
            PathBuf::from("/bin/sh"),
            vec!["-c".to_string(), script.to_string()],
        )
    }

    #[test]
    fn a_formatter_reads_stdin_and_writes_stdout() {
        let (p, a) = sh("tr a b");
        assert_eq!(run(&p, &a, b"aaa", TIMEOUT).ok(), Some(b"bbb".to_vec()));
    }

    #[test]
    fn a_failing_formatter_reports_its_status_and_error() {
        let (p, a) = sh("echo '' >&2; echo 'bad input' >&2; exit 3");
        match run(&p, &a, b"x", TIMEOUT) {
            Err(Failure::Failed(why)) => {
                assert!(
                    why.contains("exit status: 3") && why.contains("bad input"),
                    "{why}"
                );
            }
            _ => panic!("not a failure"),
        }
    }

    #[test]
    fn a_missing_program_is_not_found() {
        assert_eq!(find_program("treedd-no-such-formatter"), None);
        assert_eq!(find_program("sh").map(|p| p.is_absolute()), Some(true));
        assert!(matches!(
            run(Path::new("/nonexistent/fmt"), &[], b"", TIMEOUT),
            Err(Failure::Failed(_))
        ));
    }

    #[test]
    fn a_hanging_formatter_is_killed_with_its_children() {
        // The child keeps the output pipe open: the group's kill closes it.
        let (p, a) = sh("sleep 30 & sleep 30");
        let started = Instant::now();
        assert!(matches!(
            run(&p, &a, b"", Duration::from_millis(200)),
            Err(Failure::TimedOut)
        ));
        assert!(started.elapsed() < Duration::from_secs(5));
    }
}
