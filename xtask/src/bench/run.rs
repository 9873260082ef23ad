//! One run under watch: a process group with a wall-clock limit (`treedd_reduce`'s
//! process-group waiting and signalling), its CPU and memory, and one case reduced by treedd.

use std::fs;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use anyhow::{Context as _, Result};

use super::config::Config;
use super::measure::{machine_summary, nonws_chars, now_utc};
use super::store::Row;
use super::suite::Case;

/// How a watched process ended.
#[derive(Debug)]
pub(super) struct Finished {
    pub(super) status: ExitStatus,
    pub(super) wall: Duration,
    pub(super) timed_out: bool,
    /// User + system CPU of the process itself (not of its children).
    pub(super) cpu_self: Option<f64>,
    /// User + system CPU of the children it waited for (the oracles).
    pub(super) cpu_children: Option<f64>,
    /// Peak resident set size of the process itself, sampled from /proc (KiB).
    pub(super) peak_rss_kib: Option<u64>,
    /// Largest peak resident set of the process and the children it waited for (KiB), exact
    /// (wait4's `ru_maxrss`): the process's own peak when it starts no children.
    pub(super) max_rss_kib: Option<u64>,
}

/// After the time limit, the process group gets SIGINT (so the reducer can write its best
/// result so far), and SIGKILL this long after that.
pub(super) const KILL_GRACE: Duration = Duration::from_secs(5);

/// Run `cmd` as the leader of a new process group; interrupt the group at `limit`.
pub(super) fn run_watched(cmd: &mut Command, limit: Option<Duration>) -> Result<Finished> {
    run_watched_with_grace(cmd, limit, KILL_GRACE)
}

/// The process group is handled as `treedd_reduce`'s oracle runner does it (pidfd wait
/// without reaping, group signalled only while its leader is unreaped); only the SIGINT
/// before SIGKILL and the measurements are the bench's own.
pub(super) fn run_watched_with_grace(
    cmd: &mut Command,
    limit: Option<Duration>,
    grace: Duration,
) -> Result<Finished> {
    use std::os::unix::process::CommandExt as _;
    use treedd_proc::dev::{signal_group, wait_exited, GroupSignal};

    cmd.process_group(0);
    let start = Instant::now();
    let mut attempts = 0;
    let child = loop {
        match cmd.spawn() {
            Ok(child) => break child,
            // A script written a moment ago may still be open for writing in a forked child
            // of another thread (ETXTBSY); it goes away as soon as that child execs.
            Err(e) if e.raw_os_error() == Some(libc::ETXTBSY) && attempts < 100 => {
                attempts += 1;
                std::thread::sleep(Duration::from_millis(10));
            }
            Err(e) => {
                return Err(e).with_context(|| format!("cannot start {:?}", cmd.get_program()))
            }
        }
    };
    let id = child.id();
    let pid = id as libc::pid_t;
    let mut peak_rss_kib = None;
    let mut interrupted_at: Option<Instant> = None;
    let mut killed = false;
    loop {
        if let Some(kib) = proc_peak_rss_kib(pid) {
            peak_rss_kib = Some(peak_rss_kib.map_or(kib, |p: u64| p.max(kib)));
        }
        let elapsed = start.elapsed();
        match interrupted_at {
            None if limit.is_some_and(|l| elapsed >= l) => {
                signal_group(id, GroupSignal::Interrupt);
                interrupted_at = Some(Instant::now());
            }
            Some(at) if !killed && at.elapsed() >= grace => {
                signal_group(id, GroupSignal::Kill);
                killed = true;
            }
            _ => {}
        }
        // Wake up at exit, or to sample memory: finely at first, for short runs.
        let pause = if elapsed < Duration::from_millis(200) {
            Duration::from_millis(1)
        } else {
            Duration::from_millis(10)
        };
        if wait_exited(id, Some(Instant::now() + pause)) {
            break;
        }
    }
    // The zombie still has its final CPU counters; read them before reaping.
    let cpu = proc_cpu_seconds(pid);
    // Members of its group still running are strays (e.g. a background child of an
    // interrupted script). The unreaped leader keeps the group id from being reused.
    signal_group(id, GroupSignal::Kill);
    let (status, max_rss_kib) = reap(pid)?;
    drop(child);
    Ok(Finished {
        status,
        wall: start.elapsed(),
        timed_out: interrupted_at.is_some(),
        cpu_self: cpu.map(|c| c.0),
        cpu_children: cpu.map(|c| c.1),
        peak_rss_kib,
        max_rss_kib,
    })
}

/// Reap our exited child `pid`: its exit status and `ru_maxrss`.
pub(super) fn reap(pid: libc::pid_t) -> Result<(ExitStatus, Option<u64>)> {
    use std::os::unix::process::ExitStatusExt as _;
    // rustix has no wait4 (nor getrusage): the child's rusage comes from libc.
    let mut status: libc::c_int = 0;
    // SAFETY: `status` and the zeroed plain-data `usage` are ours and valid for the call;
    // `pid` is our own exited, not yet reaped child.
    let (rc, usage) = unsafe {
        let mut usage: libc::rusage = std::mem::zeroed();
        (libc::wait4(pid, &mut status, 0, &mut usage), usage)
    };
    if rc != pid {
        return Err(std::io::Error::last_os_error()).context("wait4");
    }
    Ok((
        ExitStatus::from_raw(status),
        u64::try_from(usage.ru_maxrss).ok(),
    ))
}

/// (own CPU, waited-for children's CPU) of `pid`, from /proc/PID/stat.
pub(super) fn proc_cpu_seconds(pid: libc::pid_t) -> Option<(f64, f64)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    let get = |n: usize| fields.get(n - 3)?.parse::<f64>().ok();
    let ticks = rustix::param::clock_ticks_per_second() as f64;
    if ticks <= 0.0 {
        return None;
    }
    Some(((get(14)? + get(15)?) / ticks, (get(16)? + get(17)?) / ticks))
}

pub(super) fn proc_peak_rss_kib(pid: libc::pid_t) -> Option<u64> {
    let status = fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))?
        .trim()
        .trim_end_matches("kB")
        .trim()
        .parse()
        .ok()
}

pub(super) static SCRATCH_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// The characters of a label that name a scratch folder. Peers run with `TMPDIR` inside
/// their scratch folder, and C-Vise's worker pool (Python's multiprocessing) listens on a Unix
/// socket under `$TMPDIR/pymp-XXXXXXXX/`: a socket path is at most 107 bytes, so a long case
/// name in the folder's name made C-Vise die at its first pass (`EOFError`).
const SCRATCH_LABEL_CHARS: usize = 24;

/// A fresh, empty temporary directory, removed on drop.
pub(super) struct Scratch(PathBuf);

impl Scratch {
    pub(super) fn new(label: &str) -> Result<Scratch> {
        let n = SCRATCH_COUNTER.fetch_add(1, Ordering::Relaxed);
        let label: String = label
            .chars()
            .take(SCRATCH_LABEL_CHARS)
            .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
            .collect();
        let dir =
            std::env::temp_dir().join(format!("treedd-bench-{}-{n}-{label}", std::process::id()));
        if dir.exists() {
            fs::remove_dir_all(&dir)?;
        }
        fs::create_dir_all(&dir).with_context(|| format!("cannot create {}", dir.display()))?;
        Ok(Scratch(dir))
    }

    pub(super) fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Run `oracle` on `candidate` the way treedd does (`treedd_proc::CommandOracle`: a fresh
/// folder holding the candidate under `file_name`, that path as the only argument, the whole
/// process group killed at `limit`). True iff exit status 0.
pub(super) fn oracle_accepts(
    oracle: &Path,
    file_name: &str,
    candidate: &[u8],
    limit: Duration,
) -> Result<bool> {
    use treedd_proc::Oracle as _;
    let oracle = treedd_proc::CommandOracleBuilder::new(oracle)
        .file_name(file_name)
        .timeout(Some(limit))
        .build()
        .with_context(|| format!("oracle {}", oracle.display()))?;
    Ok(oracle.run(candidate).is_interesting())
}

/// A counter from treedd's `--stats` JSON: top level or one object deep (e.g. `"stats": {..}`).
pub(super) fn stat_u64(stats: &serde_json::Value, key: &str) -> Option<u64> {
    if let Some(v) = stats.get(key).and_then(|v| v.as_u64()) {
        return Some(v);
    }
    stats
        .as_object()?
        .values()
        .find_map(|v| v.get(key).and_then(|v| v.as_u64()))
}

/// What a run needs of a case: the input's bytes, its file name (the name the candidate gets),
/// and the oracle's absolute path.
pub(super) fn case_files(case: &Case) -> Result<(Vec<u8>, String, PathBuf)> {
    let input =
        fs::read(&case.input).with_context(|| format!("cannot read {}", case.input.display()))?;
    let file_name = case
        .input
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_else(|| "input".to_string());
    let oracle = case
        .oracle
        .canonicalize()
        .with_context(|| format!("oracle {}", case.oracle.display()))?;
    Ok((input, file_name, oracle))
}

pub(super) fn run_case(
    treedd: &Path,
    case: &Case,
    config: &Config,
    jobs: usize,
    limit: Duration,
) -> Result<Row> {
    let (input, file_name, oracle) = case_files(case)?;
    let input_path = case.input.canonicalize()?;
    let dir = Scratch::new(&format!("{}-{}", case.name, config.slug()))?;
    let output = dir.path().join(&file_name);
    let stats = dir.path().join("stats.json");
    let log = dir.path().join("treedd.log");
    let log_file = fs::File::create(&log)?;
    let mut cmd = Command::new(treedd);
    cmd.arg("--quiet")
        .arg("--test")
        .arg(&oracle)
        .args(config.treedd_args(case.language()))
        .arg("--jobs")
        .arg(jobs.to_string())
        .arg("--stats")
        .arg(&stats)
        .arg("--output")
        .arg(&output)
        .arg(&input_path)
        .current_dir(dir.path())
        .stdin(Stdio::null())
        .stdout(log_file.try_clone()?)
        .stderr(log_file);
    let finished = run_watched(&mut cmd, Some(limit))?;

    let stats: Option<serde_json::Value> = fs::read(&stats)
        .ok()
        .and_then(|b| serde_json::from_slice(&b).ok());
    let get = |key: &str| stats.as_ref().and_then(|s| stat_u64(s, key));
    let error = run_error(&finished, "treedd", &log);
    // A run cut at the time limit keeps the best output written so far, if any.
    let result = fs::read(&output).ok().unwrap_or_else(|| input.clone());
    let verified =
        error.is_none() && oracle_accepts(&oracle, &file_name, &result, Duration::from_secs(300))?;
    Ok(Row {
        oracle_runs: get("oracle_runs"),
        cache_hits: get("cache_hits"),
        syntax_filtered: get("syntax_filtered"),
        // treedd measures its own peak exactly (VmHWM at exit); the harness only samples it.
        peak_rss_kib: get("peak_rss_bytes")
            .map(|b| b / 1024)
            .or(finished.peak_rss_kib),
        verified,
        error,
        trace: stats
            .as_ref()
            .and_then(|s| serde_json::from_value(s.get("trace")?.clone()).ok()),
        ..row_of_run(case, config.slug(), jobs, &input, &result, &finished, limit)
    })
}

/// Why a watched run of `who` failed, if it neither succeeded nor was cut at the time limit:
/// its exit status and the last non-empty line of its `log`.
pub(super) fn run_error(finished: &Finished, who: &str, log: &Path) -> Option<String> {
    if finished.timed_out || finished.status.success() {
        return None;
    }
    let log = fs::read_to_string(log).unwrap_or_default();
    let last = log
        .lines()
        .rev()
        .find(|l| !l.trim().is_empty())
        .unwrap_or("");
    let last: String = last.chars().take(300).collect();
    Some(format!("{who} exited with {}: {last}", finished.status))
}

/// The row of a watched run of any reducer (`config`) that turned `input` into `result`:
/// what the harness measured, with no counters, no trace, not verified and no error; the
/// caller fills those in.
pub(super) fn row_of_run(
    case: &Case,
    config: String,
    jobs: usize,
    input: &[u8],
    result: &[u8],
    finished: &Finished,
    limit: Duration,
) -> Row {
    Row {
        case: case.name.clone(),
        config,
        jobs,
        language: case.language().to_string(),
        input_chars: nonws_chars(input),
        input_bytes: input.len() as u64,
        output_chars: nonws_chars(result),
        output_bytes: result.len() as u64,
        oracle_runs: None,
        cache_hits: None,
        syntax_filtered: None,
        wall_seconds: finished.wall.as_secs_f64(),
        cpu_self_seconds: finished.cpu_self,
        cpu_children_seconds: finished.cpu_children,
        peak_rss_kib: finished.peak_rss_kib,
        timed_out: finished.timed_out,
        verified: false,
        error: None,
        time_limit_seconds: limit.as_secs_f64(),
        date: now_utc(),
        machine: Some(machine_summary()),
        trace: None,
        version: None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::test_util::{case_in, fake_treedd};
    use crate::kill::{alive, wait_until};
    use treedd_reduce::{Base, Hoisting};

    #[test]
    fn watched_process_reports_status_and_cpu() {
        let finished = run_watched(
            Command::new("sh").args([
                "-c",
                "i=0; while [ $i -lt 300000 ]; do i=$((i+1)); done; exit 3",
            ]),
            Some(Duration::from_secs(60)),
        )
        .unwrap();
        assert_eq!(finished.status.code(), Some(3));
        assert!(!finished.timed_out);
        let cpu = finished.cpu_self.unwrap();
        assert!(
            cpu > 0.0 && cpu <= finished.wall.as_secs_f64() + 0.05,
            "{finished:?}"
        );
        assert!(finished.peak_rss_kib.unwrap() > 0);
        assert!(finished.max_rss_kib.unwrap() >= finished.peak_rss_kib.unwrap());
    }

    #[test]
    fn time_limit_kills_the_whole_process_group() {
        let dir = Scratch::new("limit").unwrap();
        let pidfile = dir.path().join("bg.pid");
        // The background sleep ignores SIGINT (non-interactive sh), so only SIGKILL ends it.
        let body = format!("sleep 30 & echo $! > {}; sleep 30", pidfile.display());
        let start = Instant::now();
        let finished = run_watched_with_grace(
            Command::new("sh").args(["-c", &body]),
            Some(Duration::from_millis(200)),
            Duration::from_millis(300),
        )
        .unwrap();
        assert!(finished.timed_out);
        assert!(
            start.elapsed() < Duration::from_secs(10),
            "{:?}",
            start.elapsed()
        );
        let bg: u32 = fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        // Gone, or a zombie waiting for a reaper.
        assert!(
            wait_until(Duration::from_secs(5), || !alive(bg)),
            "background child {bg} survived"
        );
    }

    #[test]
    fn stats_counters_are_found_at_top_level_or_one_deep() {
        let v: serde_json::Value =
            serde_json::from_str(r#"{"oracle_runs": 7, "stats": {"cache_hits": 2}}"#).unwrap();
        assert_eq!(stat_u64(&v, "oracle_runs"), Some(7));
        assert_eq!(stat_u64(&v, "cache_hits"), Some(2));
        assert_eq!(stat_u64(&v, "syntax_filtered"), None);
    }

    #[test]
    fn a_run_records_sizes_stats_and_verification() {
        let dir = Scratch::new("run").unwrap();
        let treedd = fake_treedd(dir.path(), "");
        // The oracle sees the candidate under the input's name, in its working directory.
        let case = case_in(dir.path(), "hello", "hello.c", "#!/bin/sh\n[ \"$(basename \"$1\")\" = hello.c ] && [ -f hello.c ] && grep -q main \"$1\"\n");
        let config = Config::Tree(Base::Hddr, Hoisting::Both);
        let row = run_case(&treedd, &case, &config, 2, Duration::from_secs(60)).unwrap();
        assert_eq!(row.error, None);
        assert_eq!(
            (row.case.as_str(), row.config.as_str(), row.jobs),
            ("hello", "hoistr+hddhr", 2)
        );
        assert_eq!((row.input_bytes, row.input_chars), (29, 23));
        assert_eq!((row.output_bytes, row.output_chars), (12, 11));
        assert_eq!(
            (row.oracle_runs, row.cache_hits, row.syntax_filtered),
            (Some(7), Some(2), Some(1))
        );
        assert!(row.verified && !row.timed_out);
        assert_eq!(row.peak_rss_kib, Some(2000), "treedd's own figure wins");
        let args = fs::read_to_string(dir.path().join("args.txt")).unwrap();
        assert!(args.starts_with("--quiet --test "), "{args}");
        assert!(
            args.contains("--language c --algorithm hddr --hoist both --jobs 2 --stats "),
            "{args}"
        );
        assert!(args.trim_end().ends_with("hello/hello.c"), "{args}");

        // Output that no longer passes the oracle is reported as not verified.
        let picky = case_in(
            dir.path(),
            "picky",
            "input.c",
            "#!/bin/sh\ngrep -q return \"$1\"\n",
        );
        let row = run_case(&treedd, &picky, &config, 1, Duration::from_secs(60)).unwrap();
        assert!(!row.verified && row.error.is_none());
    }

    /// A configuration with treedd options: the flags reach the binary, the row is named
    /// after the configuration with its options.
    #[test]
    fn a_configurations_options_are_passed_to_treedd() {
        let dir = Scratch::new("options").unwrap();
        let treedd = fake_treedd(dir.path(), "");
        let case = case_in(
            dir.path(),
            "hello",
            "hello.c",
            "#!/bin/sh\ngrep -q main \"$1\"\n",
        );
        let config = Config::parse("preset-balanced+split-factor=4+no-fixpoint").unwrap();
        let row = run_case(&treedd, &case, &config, 1, Duration::from_secs(60)).unwrap();
        assert_eq!(row.config, "preset-balanced+no-fixpoint+split-factor=4");
        assert!(row.verified && row.error.is_none(), "{row:?}");
        let args = fs::read_to_string(dir.path().join("args.txt")).unwrap();
        assert!(
            args.contains(
                "--language c --preset balanced --no-fixpoint --split-factor 4 --jobs 1 --stats "
            ),
            "{args}"
        );
    }

    #[test]
    fn failed_and_timed_out_runs_are_recorded() {
        let dir = Scratch::new("fail").unwrap();
        let case = case_in(dir.path(), "hello", "input.c", "#!/bin/sh\nexit 0\n");
        let config = Config::TextDdmin;
        let failing = fake_treedd(dir.path(), "echo 'error: unknown flag --hoist' >&2; exit 2");
        let row = run_case(&failing, &case, &config, 1, Duration::from_secs(60)).unwrap();
        let err = row.error.unwrap();
        assert!(
            err.contains("exit status: 2") && err.contains("unknown flag --hoist"),
            "{err}"
        );

        let slow_dir = dir.path().join("slow");
        fs::create_dir_all(&slow_dir).unwrap();
        let slow = fake_treedd(&slow_dir, "exec sleep 30");
        let row = run_case(&slow, &case, &config, 1, Duration::from_millis(300)).unwrap();
        assert!(row.timed_out && row.error.is_none(), "{row:?}");
        assert_eq!(
            row.output_bytes, row.input_bytes,
            "no output written: the input counts"
        );
        assert_eq!(row.oracle_runs, None);
        assert!(row.verified);
        assert!(row.wall_seconds < 6.0);
    }
}
