//! `cargo xtask bench`: run the release `treedd` binary over whole suites, like the papers do.
//!
//! A suite is a folder of cases; a case is a folder with one input file and an executable
//! oracle (`oracle.sh` or `test.sh`). Every case is reduced with every selected configuration
//! (the dissertation's 16 hoisting x HDD variants of Table 7.1, DDMIN* two-pass text reduction,
//! presets) and every `--jobs` value, each run in a fresh temporary directory and capped by a
//! time limit. One JSON row per run is appended to `target/bench/<suite>/results.jsonl`, so an
//! interrupted benchmark resumes where it stopped; from all rows the harness renders
//! `results.csv`, `tables.md` (the format of the dissertation's Tables 7.3-7.10) and one SVG
//! scatter plot per base algorithm (Figure 7.9).
//!
//! `cargo xtask bench micro` measures the reducer itself: oracle runs per second with a no-op
//! oracle (this very binary, started with `XTASK_BENCH_MARKERS` set), the reducer's own CPU
//! time per oracle run, and tree building time and peak memory on the largest Perses input.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::fs;
use std::io::Write as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, ExitStatus, Stdio};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{anyhow, bail, Context as _, Result};
use serde::{Deserialize, Serialize};

const USAGE: &str = "\
usage: cargo xtask bench [OPTIONS]
       cargo xtask bench micro [--treedd PATH] [--publish]
       cargo xtask bench micro-grammar [--treedd PATH]   (only the --grammar figures)

Options:
  --suite NAME|PATH     fixtures (default), jrts, perses (from ../shared/suites) or a folder
  --configs LIST        `all` or a comma list of configuration names (default: all);
                        names: hdd, hoist+hdd, hddh, hoist+hddh, hddr, hoistr+hddr, hddhr,
                        hoistr+hddhr, coarse-hdd, ... , ddmin-text, preset-NAME
  --cases LIST          only these cases (comma list of case folder names)
  --jobs LIST           comma list of --jobs values for treedd (default: 1)
  --time-limit SECONDS  wall-clock cap per run (default: 600)
  --rerun               rerun finished case x configuration x jobs combinations
  --report-only         do not run anything, only render the report from stored results
  --treedd PATH         use this binary instead of building target/release/treedd
  --publish             also copy the report (tables.md, results.csv, SVGs) to docs/bench/<suite>/;
                        with `micro`, copy micro.md to docs/bench/";

/// Entry point of `cargo xtask bench ARGS`.
pub fn main(args: &[String]) -> Result<()> {
    // `bench micro-grammar [--treedd PATH]`: only the run-time grammar figures of `micro`.
    if args.first().map(String::as_str) == Some("micro-grammar") {
        let root = crate::codegen::workspace_root();
        let treedd = match args.get(1).map(String::as_str) {
            Some("--treedd") => PathBuf::from(args.get(2).context("--treedd needs a path")?),
            _ => root.join("target/release/treedd"),
        };
        println!(
            "Run-time grammar (`--grammar`): {}",
            run_time_grammar(&treedd, &root)?
        );
        return Ok(());
    }
    match parse_args(args)? {
        Invocation::Help => {
            println!("{USAGE}");
            Ok(())
        }
        Invocation::Suite(opts) => run_suite(&opts),
        Invocation::Micro { treedd, publish } => micro(treedd, publish),
    }
}

// ---------------------------------------------------------------------------------------------
// Command line

#[derive(Debug)]
enum Invocation {
    Help,
    Suite(SuiteOptions),
    Micro {
        treedd: Option<PathBuf>,
        publish: bool,
    },
}

#[derive(Debug)]
struct SuiteOptions {
    suite: String,
    configs: Vec<Config>,
    cases: Option<BTreeSet<String>>,
    jobs: Vec<usize>,
    time_limit: Duration,
    rerun: bool,
    report_only: bool,
    treedd: Option<PathBuf>,
    publish: bool,
}

fn parse_args(args: &[String]) -> Result<Invocation> {
    let mut micro = false;
    let mut opts = SuiteOptions {
        suite: "fixtures".to_string(),
        configs: Config::all(),
        cases: None,
        jobs: vec![1],
        time_limit: Duration::from_secs(600),
        rerun: false,
        report_only: false,
        treedd: None,
        publish: false,
    };
    let mut it = args.iter();
    while let Some(arg) = it.next() {
        let (flag, inline) = match arg.split_once('=') {
            Some((f, v)) if f.starts_with("--") => (f, Some(v.to_string())),
            _ => (arg.as_str(), None),
        };
        let mut value = |name: &str| -> Result<String> {
            match &inline {
                Some(v) => Ok(v.clone()),
                None => it
                    .next()
                    .cloned()
                    .ok_or_else(|| anyhow!("{name} needs a value\n\n{USAGE}")),
            }
        };
        match flag {
            "micro" if !micro => micro = true,
            "-h" | "--help" => return Ok(Invocation::Help),
            "--suite" => opts.suite = value(flag)?,
            "--configs" => opts.configs = Config::parse_list(&value(flag)?)?,
            "--cases" => {
                let list = value(flag)?;
                opts.cases = Some(list.split(',').map(|s| s.trim().to_string()).collect());
            }
            "--jobs" => {
                opts.jobs = value(flag)?
                    .split(',')
                    .map(|s| match s.trim().parse::<usize>() {
                        Ok(n) if n > 0 => Ok(n),
                        _ => Err(anyhow!("--jobs: `{s}` is not a positive number")),
                    })
                    .collect::<Result<_>>()?;
            }
            "--time-limit" => {
                let v = value(flag)?;
                let secs: f64 = v
                    .parse()
                    .ok()
                    .filter(|s: &f64| s.is_finite() && *s > 0.0)
                    .ok_or_else(|| anyhow!("--time-limit: `{v}` is not a positive number"))?;
                opts.time_limit = Duration::from_secs_f64(secs);
            }
            "--rerun" => opts.rerun = true,
            "--report-only" => opts.report_only = true,
            "--publish" => opts.publish = true,
            "--treedd" => opts.treedd = Some(PathBuf::from(value(flag)?)),
            other => bail!("unknown argument `{other}`\n\n{USAGE}"),
        }
    }
    if micro {
        return Ok(Invocation::Micro {
            treedd: opts.treedd,
            publish: opts.publish,
        });
    }
    Ok(Invocation::Suite(opts))
}

// ---------------------------------------------------------------------------------------------
// Configurations (dissertation Table 7.1, plus DDMIN* on text and presets)

/// The pruning algorithm (row of Table 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Base {
    Hdd,
    Hddr,
    CoarseHdd,
    CoarseHddr,
}

impl Base {
    const ALL: [Base; 4] = [Base::Hdd, Base::Hddr, Base::CoarseHdd, Base::CoarseHddr];

    /// Value of `treedd --algorithm`.
    fn cli(self) -> &'static str {
        match self {
            Base::Hdd => "hdd",
            Base::Hddr => "hddr",
            Base::CoarseHdd => "coarse-hdd",
            Base::CoarseHddr => "coarse-hddr",
        }
    }

    /// Name of the family as in the dissertation's table captions.
    fn family(self) -> &'static str {
        match self {
            Base::Hdd => "HDD",
            Base::Hddr => "HDDr",
            Base::CoarseHdd => "Coarse HDD",
            Base::CoarseHddr => "Coarse HDDr",
        }
    }

    fn recursive(self) -> bool {
        matches!(self, Base::Hddr | Base::CoarseHddr)
    }

    fn coarse(self) -> bool {
        matches!(self, Base::CoarseHdd | Base::CoarseHddr)
    }
}

/// How hoisting is combined with the base algorithm (column of Table 7.1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
enum Hoist {
    None,
    Pre,
    Interlace,
    Both,
}

impl Hoist {
    const ALL: [Hoist; 4] = [Hoist::None, Hoist::Pre, Hoist::Interlace, Hoist::Both];

    /// Value of `treedd --hoist`.
    fn cli(self) -> &'static str {
        match self {
            Hoist::None => "none",
            Hoist::Pre => "pre",
            Hoist::Interlace => "interlace",
            Hoist::Both => "both",
        }
    }

    fn column(self) -> &'static str {
        match self {
            Hoist::None => "Algorithm",
            Hoist::Pre => "Preprocessing",
            Hoist::Interlace => "Interlacing",
            Hoist::Both => "Preprocessing & Interlacing",
        }
    }
}

/// Presets of the `treedd` binary (`--preset`) that `--configs all` includes.
const PRESETS: &[&str] = &["smallest", "balanced", "fastest"];

#[derive(Clone, Debug, PartialEq, Eq)]
enum Config {
    Tree(Base, Hoist),
    /// Two-pass line-then-character DDMIN* on the text (dissertation ch. 5).
    TextDdmin,
    Preset(String),
}

impl Config {
    fn all() -> Vec<Config> {
        let mut all: Vec<Config> = Base::ALL
            .iter()
            .flat_map(|&b| Hoist::ALL.iter().map(move |&h| Config::Tree(b, h)))
            .collect();
        all.push(Config::TextDdmin);
        all.extend(PRESETS.iter().map(|p| Config::Preset(p.to_string())));
        all
    }

    fn parse_list(list: &str) -> Result<Vec<Config>> {
        if list.trim() == "all" {
            return Ok(Config::all());
        }
        let mut out: Vec<Config> = Vec::new();
        for name in list.split(',').map(str::trim).filter(|s| !s.is_empty()) {
            let config = Config::parse(name)?;
            if !out.contains(&config) {
                out.push(config);
            }
        }
        if out.is_empty() {
            bail!("--configs: no configuration named");
        }
        Ok(out)
    }

    fn parse(name: &str) -> Result<Config> {
        if let Some(preset) = name.strip_prefix("preset-") {
            if preset.is_empty() {
                bail!("--configs: `preset-` needs a preset name");
            }
            return Ok(Config::Preset(preset.to_string()));
        }
        let lower = name.to_ascii_lowercase().replace(['*', ' '], "");
        Config::all()
            .into_iter()
            .find(|c| c.slug().replace('-', "") == lower.replace('-', ""))
            .ok_or_else(|| {
                let known: Vec<String> = Config::all().iter().map(Config::slug).collect();
                anyhow!(
                    "--configs: unknown configuration `{name}`; known: {}, preset-NAME",
                    known.join(", ")
                )
            })
    }

    /// The name used in the papers, e.g. `Hoist*+HDDH*` or `Coarse HDDr*`.
    fn paper_name(&self) -> String {
        match self {
            Config::Tree(b, h) => {
                let coarse = if b.coarse() { "Coarse " } else { "" };
                let r = if b.recursive() { "r" } else { "" };
                match h {
                    Hoist::None => format!("{coarse}HDD{r}*"),
                    Hoist::Pre => format!("{coarse}Hoist{r}*+HDD{r}*"),
                    Hoist::Interlace => format!("{coarse}HDDH{r}*"),
                    Hoist::Both => format!("{coarse}Hoist{r}*+HDDH{r}*"),
                }
            }
            Config::TextDdmin => "DDMIN* (line+char)".to_string(),
            Config::Preset(p) => format!("preset {p}"),
        }
    }

    /// The name used on the command line and in results, e.g. `hoist+hddh`.
    fn slug(&self) -> String {
        match self {
            Config::Tree(..) => self
                .paper_name()
                .to_ascii_lowercase()
                .replace(' ', "-")
                .replace('*', ""),
            Config::TextDdmin => "ddmin-text".to_string(),
            Config::Preset(p) => format!("preset-{p}"),
        }
    }

    /// Position in tables: the order of `Config::all()`, presets by name after it.
    fn order(&self) -> (usize, String) {
        let all = Config::all();
        match all.iter().position(|c| c == self) {
            Some(i) => (i, String::new()),
            None => (all.len(), self.slug()),
        }
    }

    /// Whether the configuration needs a grammar for the case's language.
    fn needs_grammar(&self) -> bool {
        !matches!(self, Config::TextDdmin)
    }

    /// `treedd` arguments selecting this configuration.
    fn treedd_args(&self, language: &str) -> Vec<String> {
        let v = |s: &[&str]| s.iter().map(|s| s.to_string()).collect::<Vec<_>>();
        match self {
            Config::Tree(b, h) => v(&[
                "--language",
                language,
                "--algorithm",
                b.cli(),
                "--hoist",
                h.cli(),
            ]),
            Config::TextDdmin => v(&["--language", "text", "--unit", "line+char"]),
            Config::Preset(p) => v(&["--language", language, "--preset", p]),
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Suites

#[derive(Clone, Debug, PartialEq, Eq)]
struct Case {
    name: String,
    input: PathBuf,
    oracle: PathBuf,
}

impl Case {
    /// treedd `--language` value guessed from the input's extension.
    fn language(&self) -> &'static str {
        language_of(&self.input)
    }
}

fn language_of(path: &Path) -> &'static str {
    treedd_tree::Lang::from_path(path).map_or("text", treedd_tree::Lang::name)
}

const ORACLE_NAMES: [&str; 2] = ["oracle.sh", "test.sh"];

/// Find the cases of a suite: folders holding an oracle, directly under `root` or one level
/// deeper (`fixtures/<lang>/<case>`), in name order.
fn discover(root: &Path) -> Result<Vec<Case>> {
    let mut cases = Vec::new();
    for dir in sorted_subdirs(root)? {
        if is_case_dir(&dir) {
            cases.push(load_case(&dir)?);
        } else {
            for sub in sorted_subdirs(&dir)? {
                if is_case_dir(&sub) {
                    cases.push(load_case(&sub)?);
                }
            }
        }
    }
    let mut seen = BTreeSet::new();
    for case in &cases {
        if !seen.insert(case.name.clone()) {
            bail!(
                "suite {}: two cases are named `{}`; case folder names must be unique",
                root.display(),
                case.name
            );
        }
    }
    Ok(cases)
}

fn sorted_subdirs(dir: &Path) -> Result<Vec<PathBuf>> {
    let mut dirs = Vec::new();
    let entries = fs::read_dir(dir).with_context(|| format!("cannot read {}", dir.display()))?;
    for entry in entries {
        let path = entry?.path();
        if path.is_dir() {
            dirs.push(path);
        }
    }
    dirs.sort();
    Ok(dirs)
}

fn is_case_dir(dir: &Path) -> bool {
    ORACLE_NAMES.iter().any(|n| dir.join(n).is_file())
}

/// Files of a case that are never its input.
fn is_helper_file(name: &str) -> bool {
    let stem = name.split('.').next().unwrap_or(name);
    name.starts_with('.')
        || name.ends_with(".sh")
        || name.ends_with(".py")
        || name.ends_with('~')
        || matches!(
            stem.to_ascii_lowercase().as_str(),
            "provenance" | "readme" | "trigger" | "expected" | "notes" | "license"
        )
}

fn load_case(dir: &Path) -> Result<Case> {
    let name = dir
        .file_name()
        .and_then(|n| n.to_str())
        .ok_or_else(|| anyhow!("case folder {} has no UTF-8 name", dir.display()))?
        .to_string();
    let oracle = ORACLE_NAMES
        .iter()
        .map(|n| dir.join(n))
        .find(|p| p.is_file())
        .ok_or_else(|| anyhow!("case {}: no oracle.sh or test.sh", dir.display()))?;
    let mut candidates = Vec::new();
    for entry in fs::read_dir(dir)? {
        let entry = entry?;
        let file_name = entry.file_name().to_string_lossy().into_owned();
        if entry.path().is_file() && !is_helper_file(&file_name) {
            candidates.push(file_name);
        }
    }
    candidates.sort();
    let pick = |pred: &dyn Fn(&str) -> bool| -> Vec<&String> {
        candidates.iter().filter(|n| pred(n)).collect()
    };
    let orig = pick(&|n| n.contains("-orig."));
    let input = pick(&|n| n.starts_with("input."));
    let chosen = if orig.len() == 1 {
        orig[0]
    } else if input.len() == 1 {
        input[0]
    } else if candidates.len() == 1 {
        &candidates[0]
    } else if candidates.is_empty() {
        bail!("case {}: no input file", dir.display());
    } else {
        bail!(
            "case {}: cannot tell the input among {}; name it input.<ext> or <name>-orig.<ext>",
            dir.display(),
            candidates.join(", ")
        );
    };
    Ok(Case {
        name,
        input: dir.join(chosen),
        oracle,
    })
}

/// Workspace root (the parent of the xtask crate).
fn workspace_root() -> PathBuf {
    let xtask = Path::new(env!("CARGO_MANIFEST_DIR"));
    xtask.parent().unwrap_or(xtask).to_path_buf()
}

/// `shared/` next to the repository or one of its ancestors (worktrees live one level deeper).
fn shared_dir(root: &Path) -> Option<PathBuf> {
    root.ancestors()
        .skip(1)
        .map(|a| a.join("shared"))
        .find(|p| p.join("suites").is_dir())
}

/// Resolve `--suite` to (short name, folder).
fn resolve_suite(root: &Path, suite: &str) -> Result<(String, PathBuf)> {
    match suite {
        "fixtures" => Ok(("fixtures".to_string(), root.join("fixtures"))),
        "jrts" | "perses" => {
            let shared = shared_dir(root).ok_or_else(|| {
                anyhow!(
                    "--suite {suite}: no shared/suites folder next to {}",
                    root.display()
                )
            })?;
            Ok((suite.to_string(), shared.join("suites").join(suite)))
        }
        path => {
            let dir = PathBuf::from(path);
            if !dir.is_dir() {
                bail!("--suite {path}: not fixtures, jrts, perses or a folder");
            }
            let name = dir
                .canonicalize()?
                .file_name()
                .map(|n| n.to_string_lossy().into_owned())
                .unwrap_or_else(|| "suite".to_string());
            Ok((name, dir))
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Measures

/// The papers' size measure: characters that are not whitespace.
fn nonws_chars(bytes: &[u8]) -> u64 {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|c| !c.is_whitespace())
        .count() as u64
}

/// Seconds since the epoch as `YYYY-MM-DD HH:MM UTC`.
fn format_utc(secs: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60
    )
}

fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format_utc(secs)
}

/// `nproc`, memory and CPU model of this machine, for reports.
fn machine_summary() -> String {
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let meminfo = fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_gib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kib| format!("{:.1} GiB RAM", kib / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown RAM".to_string());
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|v| v.trim_start_matches([' ', '\t', ':']).trim().to_string())
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!("{cpus} CPUs (nproc), {model}, {mem_gib}")
}

// ---------------------------------------------------------------------------------------------
// Running a process under watch

/// How a watched process ended.
#[derive(Debug)]
struct Finished {
    status: ExitStatus,
    wall: Duration,
    timed_out: bool,
    /// User + system CPU of the process itself (not of its children).
    cpu_self: Option<f64>,
    /// User + system CPU of the children it waited for (the oracles).
    cpu_children: Option<f64>,
    /// Peak resident set size of the process itself, sampled from /proc (KiB).
    peak_rss_kib: Option<u64>,
    /// Largest peak resident set of the process and the children it waited for (KiB), exact
    /// (wait4's `ru_maxrss`): the process's own peak when it starts no children.
    max_rss_kib: Option<u64>,
}

/// After the time limit, the process group gets SIGINT (so the reducer can write its best
/// result so far), and SIGKILL this long after that.
const KILL_GRACE: Duration = Duration::from_secs(5);

/// Run `cmd` as the leader of a new process group; kill the group at `limit`.
fn run_watched(cmd: &mut Command, limit: Option<Duration>) -> Result<Finished> {
    run_watched_with_grace(cmd, limit, KILL_GRACE)
}

fn run_watched_with_grace(
    cmd: &mut Command,
    limit: Option<Duration>,
    grace: Duration,
) -> Result<Finished> {
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
    let pid = child.id() as libc::pid_t;
    let mut peak_rss_kib = None;
    let mut interrupted_at: Option<Instant> = None;
    let mut killed = false;
    loop {
        if exited_without_reaping(pid)? {
            // The zombie still has its final CPU counters; read them before reaping.
            let cpu = proc_cpu_seconds(pid);
            // Members of its group still running are strays (e.g. a background child of an
            // interrupted script). The unreaped leader keeps the group id from being reused.
            signal_group(pid, libc::SIGKILL);
            let (status, max_rss_kib) = reap(pid)?;
            drop(child);
            return Ok(Finished {
                status,
                wall: start.elapsed(),
                timed_out: interrupted_at.is_some(),
                cpu_self: cpu.map(|c| c.0),
                cpu_children: cpu.map(|c| c.1),
                peak_rss_kib,
                max_rss_kib,
            });
        }
        if let Some(kib) = proc_peak_rss_kib(pid) {
            peak_rss_kib = Some(peak_rss_kib.map_or(kib, |p: u64| p.max(kib)));
        }
        let elapsed = start.elapsed();
        match interrupted_at {
            None if limit.is_some_and(|l| elapsed >= l) => {
                signal_group(pid, libc::SIGINT);
                interrupted_at = Some(Instant::now());
            }
            Some(at) if !killed && at.elapsed() >= grace => {
                signal_group(pid, libc::SIGKILL);
                killed = true;
            }
            _ => {}
        }
        // Poll finely at first so that short runs are timed precisely.
        let pause = if elapsed < Duration::from_millis(200) {
            Duration::from_millis(1)
        } else {
            Duration::from_millis(10)
        };
        std::thread::sleep(pause);
    }
}

fn signal_group(pgid: libc::pid_t, signal: libc::c_int) {
    // SAFETY: kill(2) with a negative pid signals a process group; no memory is involved.
    unsafe {
        libc::kill(-pgid, signal);
    }
}

/// Reap our exited child `pid`: its exit status and `ru_maxrss`.
fn reap(pid: libc::pid_t) -> Result<(ExitStatus, Option<u64>)> {
    use std::os::unix::process::ExitStatusExt as _;
    let mut status: libc::c_int = 0;
    // SAFETY: rusage is plain data; wait4 only writes into it and into `status`.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: valid pointers; pid is our own exited, not yet reaped child.
    let rc = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    if rc != pid {
        return Err(std::io::Error::last_os_error()).context("wait4");
    }
    Ok((
        ExitStatus::from_raw(status),
        u64::try_from(usage.ru_maxrss).ok(),
    ))
}

/// Whether `pid` (our child) has exited, leaving it waitable.
fn exited_without_reaping(pid: libc::pid_t) -> Result<bool> {
    // SAFETY: siginfo_t is plain data; waitid only writes into it.
    let mut info: libc::siginfo_t = unsafe { std::mem::zeroed() };
    let flags = libc::WEXITED | libc::WNOHANG | libc::WNOWAIT;
    // SAFETY: valid pointer to a zeroed siginfo_t; pid is our own child.
    let rc = unsafe { libc::waitid(libc::P_PID, pid as libc::id_t, &mut info, flags) };
    if rc != 0 {
        return Err(std::io::Error::last_os_error()).context("waitid");
    }
    // SAFETY: waitid filled `info` (or left it zeroed when nothing has exited).
    Ok(unsafe { info.si_pid() } != 0)
}

/// (own CPU, waited-for children's CPU) of `pid`, from /proc/PID/stat.
fn proc_cpu_seconds(pid: libc::pid_t) -> Option<(f64, f64)> {
    let stat = fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit_once(')')?.1.split_whitespace().collect();
    // After the command name: state is field 3, utime 14, stime 15, cutime 16, cstime 17.
    let get = |n: usize| fields.get(n - 3)?.parse::<f64>().ok();
    // SAFETY: sysconf has no memory effects.
    let ticks = unsafe { libc::sysconf(libc::_SC_CLK_TCK) } as f64;
    if ticks <= 0.0 {
        return None;
    }
    Some(((get(14)? + get(15)?) / ticks, (get(16)? + get(17)?) / ticks))
}

fn proc_peak_rss_kib(pid: libc::pid_t) -> Option<u64> {
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

static SCRATCH_COUNTER: AtomicUsize = AtomicUsize::new(0);

/// A fresh, empty temporary directory, removed on drop.
struct Scratch(PathBuf);

impl Scratch {
    fn new(label: &str) -> Result<Scratch> {
        let n = SCRATCH_COUNTER.fetch_add(1, Ordering::Relaxed);
        let label: String = label
            .chars()
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

    fn path(&self) -> &Path {
        &self.0
    }
}

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = fs::remove_dir_all(&self.0);
    }
}

/// Run `oracle` on `candidate` the way treedd does: in a fresh folder holding the candidate
/// under `file_name`, with that path as the only argument. True iff exit status 0.
fn oracle_accepts(
    oracle: &Path,
    file_name: &str,
    candidate: &[u8],
    limit: Duration,
) -> Result<bool> {
    let dir = Scratch::new("verify")?;
    let path = dir.path().join(file_name);
    fs::write(&path, candidate)?;
    let finished = run_watched(
        Command::new(oracle)
            .arg(&path)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null()),
        Some(limit),
    )?;
    Ok(!finished.timed_out && finished.status.success())
}

// ---------------------------------------------------------------------------------------------
// One run

/// One row of results: one case reduced with one configuration and one `--jobs` value.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
struct Row {
    case: String,
    config: String,
    jobs: usize,
    language: String,
    input_chars: u64,
    input_bytes: u64,
    output_chars: u64,
    output_bytes: u64,
    #[serde(default)]
    oracle_runs: Option<u64>,
    #[serde(default)]
    cache_hits: Option<u64>,
    #[serde(default)]
    syntax_filtered: Option<u64>,
    wall_seconds: f64,
    #[serde(default)]
    cpu_self_seconds: Option<f64>,
    #[serde(default)]
    cpu_children_seconds: Option<f64>,
    #[serde(default)]
    peak_rss_kib: Option<u64>,
    timed_out: bool,
    /// The output was re-checked interesting by running the case's oracle once more.
    verified: bool,
    /// Why the run failed (treedd's exit status and last message); failed runs are rerun.
    #[serde(default)]
    error: Option<String>,
    time_limit_seconds: f64,
    date: String,
}

impl Row {
    fn key(&self) -> (String, String, usize) {
        (self.case.clone(), self.config.clone(), self.jobs)
    }
}

/// A counter from treedd's `--stats` JSON: top level or one object deep (e.g. `"stats": {..}`).
fn stat_u64(stats: &serde_json::Value, key: &str) -> Option<u64> {
    if let Some(v) = stats.get(key).and_then(|v| v.as_u64()) {
        return Some(v);
    }
    stats
        .as_object()?
        .values()
        .find_map(|v| v.get(key).and_then(|v| v.as_u64()))
}

fn run_case(
    treedd: &Path,
    case: &Case,
    config: &Config,
    jobs: usize,
    limit: Duration,
) -> Result<Row> {
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
    let error = if finished.timed_out || finished.status.success() {
        None
    } else {
        let log = fs::read_to_string(&log).unwrap_or_default();
        let last = log
            .lines()
            .rev()
            .find(|l| !l.trim().is_empty())
            .unwrap_or("");
        let last: String = last.chars().take(300).collect();
        Some(format!("treedd exited with {}: {last}", finished.status))
    };
    // A run cut at the time limit keeps the best output written so far, if any.
    let result = fs::read(&output).ok().unwrap_or_else(|| input.clone());
    let verified =
        error.is_none() && oracle_accepts(&oracle, &file_name, &result, Duration::from_secs(300))?;
    Ok(Row {
        case: case.name.clone(),
        config: config.slug(),
        jobs,
        language: case.language().to_string(),
        input_chars: nonws_chars(&input),
        input_bytes: input.len() as u64,
        output_chars: nonws_chars(&result),
        output_bytes: result.len() as u64,
        oracle_runs: get("oracle_runs"),
        cache_hits: get("cache_hits"),
        syntax_filtered: get("syntax_filtered"),
        wall_seconds: finished.wall.as_secs_f64(),
        cpu_self_seconds: finished.cpu_self,
        cpu_children_seconds: finished.cpu_children,
        // treedd measures its own peak exactly (VmHWM at exit); the harness only samples it.
        peak_rss_kib: get("peak_rss_bytes")
            .map(|b| b / 1024)
            .or(finished.peak_rss_kib),
        timed_out: finished.timed_out,
        verified,
        error,
        time_limit_seconds: limit.as_secs_f64(),
        date: now_utc(),
    })
}

// ---------------------------------------------------------------------------------------------
// Results store (resumable)

/// All rows of one suite, in `results.jsonl`; the last row for a key wins.
struct Store {
    path: PathBuf,
    rows: Vec<Row>,
}

impl Store {
    fn open(path: &Path) -> Result<Store> {
        let mut rows = Vec::new();
        if let Ok(text) = fs::read_to_string(path) {
            for (i, line) in text.lines().enumerate() {
                if line.trim().is_empty() {
                    continue;
                }
                match serde_json::from_str::<Row>(line) {
                    Ok(row) => rows.push(row),
                    Err(e) => {
                        eprintln!("{}:{}: skipping unreadable row: {e}", path.display(), i + 1)
                    }
                }
            }
        }
        Ok(Store {
            path: path.to_path_buf(),
            rows,
        })
    }

    /// Whether this combination has a successful row (failed runs are retried).
    fn finished(&self, case: &str, config: &str, jobs: usize) -> bool {
        self.rows
            .iter()
            .rev()
            .find(|r| r.case == case && r.config == config && r.jobs == jobs)
            .is_some_and(|r| r.error.is_none())
    }

    fn append(&mut self, row: Row) -> Result<()> {
        if let Some(dir) = self.path.parent() {
            fs::create_dir_all(dir)?;
        }
        let mut file = fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&self.path)
            .with_context(|| format!("cannot open {}", self.path.display()))?;
        writeln!(file, "{}", serde_json::to_string(&row)?)?;
        self.rows.push(row);
        Ok(())
    }

    /// The newest row of every key, ordered by case, configuration order and jobs.
    fn latest(&self) -> Vec<Row> {
        let mut by_key: BTreeMap<(String, String, usize), Row> = BTreeMap::new();
        for row in &self.rows {
            by_key.insert(row.key(), row.clone());
        }
        let mut rows: Vec<Row> = by_key.into_values().collect();
        rows.sort_by_cached_key(|r| {
            let order = Config::parse(&r.config)
                .map(|c| c.order())
                .unwrap_or((usize::MAX, r.config.clone()));
            (r.case.clone(), order, r.jobs)
        });
        rows
    }

    /// Rewrite the file with only the newest row of every key.
    fn compact(&mut self) -> Result<()> {
        self.rows = self.latest();
        let mut text = String::new();
        for row in &self.rows {
            text.push_str(&serde_json::to_string(row)?);
            text.push('\n');
        }
        fs::write(&self.path, text).with_context(|| format!("cannot write {}", self.path.display()))
    }
}

fn csv_field(s: &str) -> String {
    if s.contains([',', '"', '\n']) {
        format!("\"{}\"", s.replace('"', "\"\""))
    } else {
        s.to_string()
    }
}

fn render_csv(rows: &[Row]) -> String {
    let opt = |v: Option<u64>| v.map(|v| v.to_string()).unwrap_or_default();
    let optf = |v: Option<f64>| v.map(|v| format!("{v:.3}")).unwrap_or_default();
    let mut out = String::from(
        "case,config,jobs,language,input_chars,input_bytes,output_chars,output_bytes,oracle_runs,\
         cache_hits,syntax_filtered,wall_seconds,cpu_self_seconds,cpu_children_seconds,\
         peak_rss_kib,timed_out,verified,error,time_limit_seconds,date\n",
    );
    for r in rows {
        let fields = [
            csv_field(&r.case),
            csv_field(&r.config),
            r.jobs.to_string(),
            r.language.clone(),
            r.input_chars.to_string(),
            r.input_bytes.to_string(),
            r.output_chars.to_string(),
            r.output_bytes.to_string(),
            opt(r.oracle_runs),
            opt(r.cache_hits),
            opt(r.syntax_filtered),
            format!("{:.3}", r.wall_seconds),
            optf(r.cpu_self_seconds),
            optf(r.cpu_children_seconds),
            opt(r.peak_rss_kib),
            r.timed_out.to_string(),
            r.verified.to_string(),
            csv_field(r.error.as_deref().unwrap_or("")),
            format!("{}", r.time_limit_seconds),
            csv_field(&r.date),
        ];
        out.push_str(&fields.join(","));
        out.push('\n');
    }
    out
}

// ---------------------------------------------------------------------------------------------
// Tables in the dissertation's format

/// One number in a comparison table.
#[derive(Clone, Debug, PartialEq)]
struct Cell {
    /// `None`: the run happened but did not report the number.
    value: Option<u64>,
    /// Appended to the number: `†` timed out (best so far), `✗` output not interesting.
    note: &'static str,
}

/// `1234567` -> `1,234,567`, like the papers.
fn thousands(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::new();
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Change of `value` against `base` in percent, as the papers print it (`—` for no change).
fn change(base: u64, value: u64) -> String {
    if base == 0 {
        return "—".to_string();
    }
    let pct = (value as f64 - base as f64) / base as f64 * 100.0;
    if value == base {
        "—".to_string()
    } else {
        format!("({pct:+.2}%)")
    }
}

fn md_escape(s: &str) -> String {
    s.replace('*', "\\*").replace('|', "\\|")
}

/// A Markdown table: column 0 is the base; other columns show the change against it in
/// percent; the smallest number of each row is bold (all of them on a tie).
fn comparison_table(columns: &[String], rows: &[(String, Vec<Option<Cell>>)]) -> String {
    let mut out = String::from("| Test |");
    for c in columns {
        let _ = write!(out, " {} |", md_escape(c));
    }
    out.push_str("\n|---|");
    out.push_str(&"--:|".repeat(columns.len()));
    out.push('\n');
    for (name, cells) in rows {
        let best = cells
            .iter()
            .filter_map(|c| c.as_ref().and_then(|c| c.value))
            .min();
        let base = cells.first().and_then(|c| c.as_ref()).and_then(|c| c.value);
        let _ = write!(out, "| {} |", md_escape(name));
        for (i, cell) in cells.iter().enumerate() {
            let text = match cell {
                None => "—".to_string(),
                Some(Cell { value: None, note }) => format!("?{note}"),
                Some(Cell {
                    value: Some(v),
                    note,
                }) => {
                    let number = if Some(*v) == best {
                        format!("**{}**{note}", thousands(*v))
                    } else {
                        format!("{}{note}", thousands(*v))
                    };
                    match (i, base) {
                        (0, _) => number,
                        (_, Some(b)) => format!("{number} {}", change(b, *v)),
                        (_, None) => format!("{number} —"),
                    }
                }
            };
            let _ = write!(out, " {text} |");
        }
        out.push('\n');
    }
    out
}

fn note_of(row: &Row) -> &'static str {
    if row.timed_out {
        "†"
    } else if !row.verified {
        "✗"
    } else {
        ""
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Measure {
    Size,
    Runs,
}

impl Measure {
    fn of(self, row: &Row) -> Option<u64> {
        match self {
            Measure::Size => Some(row.output_chars),
            Measure::Runs => row.oracle_runs,
        }
    }
}

fn cell(row: Option<&Row>, measure: Measure) -> Option<Cell> {
    let row = row?;
    if row.error.is_some() {
        return None;
    }
    Some(Cell {
        value: measure.of(row),
        note: note_of(row),
    })
}

/// Rows of one `--jobs` value, indexed by (case, config slug).
type Index<'a> = BTreeMap<(&'a str, &'a str), &'a Row>;

fn index(rows: &[Row], jobs: usize) -> Index<'_> {
    rows.iter()
        .filter(|r| r.jobs == jobs)
        .map(|r| ((r.case.as_str(), r.config.as_str()), r))
        .collect()
}

fn cases_of(rows: &[Row]) -> Vec<String> {
    let set: BTreeSet<&str> = rows.iter().map(|r| r.case.as_str()).collect();
    set.into_iter().map(str::to_string).collect()
}

fn family_table(
    index: &Index<'_>,
    cases: &[String],
    configs: &[Config],
    measure: Measure,
) -> String {
    let columns: Vec<String> = configs.iter().map(Config::paper_name).collect();
    let slugs: Vec<String> = configs.iter().map(Config::slug).collect();
    let rows: Vec<(String, Vec<Option<Cell>>)> = cases
        .iter()
        .filter(|case| {
            slugs
                .iter()
                .any(|s| index.contains_key(&(case.as_str(), s.as_str())))
        })
        .map(|case| {
            let cells = slugs
                .iter()
                .map(|s| cell(index.get(&(case.as_str(), s.as_str())).copied(), measure))
                .collect();
            (paper_case_name(case), cells)
        })
        .collect();
    comparison_table(&columns, &rows)
}

/// One of the paper's own examples (004, Tables I and II).
struct PaperExample {
    /// Case folder name, lower case.
    case: &'static str,
    input: u64,
    /// (size, test executions) for HDD*, Hoist*+HDD*, HDDH*, Hoist*+HDDH*.
    results: [(u64, u64); 4],
}

const PAPER_EXAMPLES: &[PaperExample] = &[
    PaperExample {
        case: "helloworld",
        input: 42,
        results: [(42, 32), (35, 26), (35, 51), (35, 26)],
    },
    PaperExample {
        case: "localizedpi",
        input: 446,
        results: [(359, 638), (186, 302), (186, 588), (186, 304)],
    },
];

fn paper_example(case: &str) -> Option<&'static PaperExample> {
    let lower = case.to_ascii_lowercase();
    PAPER_EXAMPLES.iter().find(|e| lower == e.case)
}

/// Ours next to the paper's figures for the cases of 004 Tables I/II.
fn paper_reference_table(index: &Index<'_>, cases: &[String]) -> Option<String> {
    let configs: Vec<Config> = Hoist::ALL
        .iter()
        .map(|&h| Config::Tree(Base::Hdd, h))
        .collect();
    let mut out = String::from("| Test | Input |");
    for c in &configs {
        let _ = write!(out, " {} |", md_escape(&c.paper_name()));
    }
    out.push_str("\n|---|--:|");
    out.push_str(&"--:|".repeat(configs.len()));
    out.push('\n');
    let mut any = false;
    for case in cases {
        let Some(paper) = paper_example(case) else {
            continue;
        };
        let ours_input = configs.iter().find_map(|c| {
            index
                .get(&(case.as_str(), c.slug().as_str()))
                .map(|r| r.input_chars)
        });
        let Some(ours_input) = ours_input else {
            continue;
        };
        any = true;
        let _ = write!(out, "| {case} | {ours_input} / {} |", paper.input);
        for (c, (paper_size, paper_runs)) in configs.iter().zip(paper.results) {
            let ours = match index.get(&(case.as_str(), c.slug().as_str())) {
                Some(r) if r.error.is_none() => format!(
                    "{}{} ({})",
                    r.output_chars,
                    note_of(r),
                    r.oracle_runs.map_or("?".to_string(), thousands)
                ),
                _ => "—".to_string(),
            };
            let _ = write!(out, " {ours} / {paper_size} ({paper_runs}) |");
        }
        out.push('\n');
    }
    any.then_some(out)
}

fn other_table(index: &Index<'_>, cases: &[String], others: &[Config], measure: Measure) -> String {
    let mut configs = vec![Config::Tree(Base::Hdd, Hoist::None)];
    configs.extend(others.iter().cloned());
    family_table(index, cases, &configs, measure)
}

fn detail_table(rows: &[Row]) -> String {
    let mut out = String::from(
        "| Test | Configuration | jobs | input chars | output chars | output bytes | oracle runs \
         | cache hits | syntax-filtered | wall s | own CPU s | peak RSS MiB | verified | note |\n\
         |---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|---|\n",
    );
    let opt = |v: Option<u64>| v.map_or("?".to_string(), thousands);
    for r in rows {
        let name = Config::parse(&r.config).map_or(r.config.clone(), |c| c.paper_name());
        let note = match (&r.error, r.timed_out) {
            (Some(e), _) => md_escape(e),
            (None, true) => format!("timed out at {} s (best so far)", r.time_limit_seconds),
            (None, false) => String::new(),
        };
        let _ = writeln!(
            out,
            "| {} | {} | {} | {} | {} | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} |",
            md_escape(&r.case),
            md_escape(&name),
            r.jobs,
            thousands(r.input_chars),
            thousands(r.output_chars),
            thousands(r.output_bytes),
            opt(r.oracle_runs),
            opt(r.cache_hits),
            opt(r.syntax_filtered),
            r.wall_seconds,
            r.cpu_self_seconds
                .map_or("?".to_string(), |c| format!("{c:.2}")),
            r.peak_rss_kib
                .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
            if r.verified { "yes" } else { "**no**" },
            note
        );
    }
    out
}

/// Points of a Figure 7.9 panel: (change in size %, change in oracle runs %) of every case
/// reduced with a hoisting variant of `base`, one series per hoisting combination.
fn scatter_points(
    index: &Index<'_>,
    cases: &[String],
    base: Base,
) -> Vec<(String, Vec<(f64, f64)>)> {
    let base_slug = Config::Tree(base, Hoist::None).slug();
    Hoist::ALL[1..]
        .iter()
        .map(|&h| {
            let config = Config::Tree(base, h);
            let slug = config.slug();
            let points = cases
                .iter()
                .filter_map(|case| {
                    let b = index.get(&(case.as_str(), base_slug.as_str()))?;
                    let r = index.get(&(case.as_str(), slug.as_str()))?;
                    if b.error.is_some() || r.error.is_some() || b.output_chars == 0 {
                        return None;
                    }
                    let (b_runs, r_runs) = (b.oracle_runs?, r.oracle_runs?);
                    if b_runs == 0 {
                        return None;
                    }
                    let pct = |base: u64, v: u64| (v as f64 - base as f64) / base as f64 * 100.0;
                    Some((pct(b.output_chars, r.output_chars), pct(b_runs, r_runs)))
                })
                .collect();
            (format!("{} ({})", config.paper_name(), h.column()), points)
        })
        .collect()
}

/// Draw one panel of Figure 7.9 as SVG.
fn scatter_svg(path: &Path, title: &str, series: &[(String, Vec<(f64, f64)>)]) -> Result<()> {
    use plotters::prelude::*;

    let all: Vec<(f64, f64)> = series.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    let bounds = |sel: fn(&(f64, f64)) -> f64| {
        let lo = all.iter().map(sel).fold(-10.0f64, f64::min);
        let hi = all.iter().map(sel).fold(10.0f64, f64::max);
        let pad = (hi - lo) * 0.08;
        (lo - pad)..(hi + pad)
    };
    let (xr, yr) = (bounds(|p| p.0), bounds(|p| p.1));
    let err = |e: &dyn std::fmt::Display| anyhow!("plotting {}: {e}", path.display());
    let root = SVGBackend::new(path, (720, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc("change in output size vs base (%)")
        .y_desc("change in oracle runs vs base (%)")
        .draw()
        .map_err(|e| err(&e))?;
    let axis = BLACK.stroke_width(1);
    chart
        .draw_series(LineSeries::new([(0.0, yr.start), (0.0, yr.end)], axis))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new([(xr.start, 0.0), (xr.end, 0.0)], axis))
        .map_err(|e| err(&e))?;
    let colors = [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
    ];
    for (i, (name, points)) in series.iter().enumerate() {
        let color = colors[i % colors.len()];
        let style = color.filled();
        let label = format!("{name}: {} cases", points.len());
        match i % 3 {
            0 => {
                chart
                    .draw_series(points.iter().map(|&p| Circle::new(p, 5, style)))
                    .map_err(|e| err(&e))?
                    .label(label)
                    .legend(move |(x, y)| Circle::new((x, y), 5, style));
            }
            1 => {
                chart
                    .draw_series(points.iter().map(|&p| TriangleMarker::new(p, 6, style)))
                    .map_err(|e| err(&e))?
                    .label(label)
                    .legend(move |(x, y)| TriangleMarker::new((x, y), 6, style));
            }
            _ => {
                let stroke = color.stroke_width(2);
                chart
                    .draw_series(points.iter().map(|&p| Cross::new(p, 5, stroke)))
                    .map_err(|e| err(&e))?
                    .label(label)
                    .legend(move |(x, y)| Cross::new((x, y), 5, stroke));
            }
        }
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// The dissertation's raw data (Tables 7.3-7.10): per (base, measure), per case, the figures
/// for X*, Hoist*+X*, XH*, Hoist*+XH* (`None`: not reported).
type PaperFigures = BTreeMap<(Base, Measure), BTreeMap<String, [Option<u64>; 4]>>;

/// File name of the dissertation in `shared/papers/`.
const DISSERTATION: &str = "001_683c3f3acd8e54c1.txt";

/// First number of a table cell such as `<b>2,614</b> (-17.20%)` or `— 5,878 (+101.72%)` (the
/// text extraction moved some `—` into the next cell); `None` for `—`.
fn paper_cell(cell: &str) -> Option<u64> {
    let cell = cell.replace("<b>", "").replace("</b>", "");
    let cell = cell.trim().trim_start_matches('—').trim_start();
    let number: String = cell
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    number.parse().ok()
}

/// Parse Tables 7.3-7.10 out of the dissertation's text.
fn parse_paper_tables(text: &str) -> PaperFigures {
    let mut figures = PaperFigures::new();
    let mut current: Option<(Base, Measure)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Table 7.") {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            current = match n.parse::<usize>() {
                Ok(n @ 3..=10) if rest[n.to_string().len()..].starts_with(':') => {
                    let base = Base::ALL[(n - 3) / 2];
                    let measure = if n % 2 == 1 {
                        Measure::Size
                    } else {
                        Measure::Runs
                    };
                    Some((base, measure))
                }
                _ => None,
            };
            continue;
        }
        let Some(key) = current else { continue };
        let cells: Vec<&str> = line.split('\t').collect();
        let is_case = cells.len() == 5
            && (cells[0].starts_with("clang-")
                || cells[0].starts_with("gcc-")
                || cells[0].starts_with("jerry-"));
        if is_case {
            let values = [1, 2, 3, 4].map(|i| paper_cell(cells[i]));
            figures
                .entry(key)
                .or_default()
                .insert(cells[0].to_string(), values);
        } else if !line.trim().is_empty() && !line.starts_with("Test\t") {
            current = None;
        }
    }
    figures
}

fn load_paper_tables(root: &Path) -> PaperFigures {
    shared_dir(root)
        .and_then(|s| fs::read_to_string(s.join("papers").join(DISSERTATION)).ok())
        .map(|t| parse_paper_tables(&t))
        .unwrap_or_default()
}

/// The dissertation's name of one of our cases: JRTS folders are named by issue number only.
fn paper_case_name(case: &str) -> String {
    if !case.is_empty() && case.chars().all(|c| c.is_ascii_digit()) {
        format!("jerry-{case}")
    } else {
        case.to_string()
    }
}

/// The dissertation's figures for our cases, in the same table format; `None` if it has none.
fn paper_family_table(
    paper: &PaperFigures,
    base: Base,
    measure: Measure,
    cases: &[String],
) -> Option<String> {
    let table = paper.get(&(base, measure))?;
    let rows: Vec<(String, Vec<Option<Cell>>)> = cases
        .iter()
        .filter_map(|case| {
            let name = paper_case_name(case);
            let values = table.get(&name)?;
            let cells = values
                .iter()
                .map(|v| {
                    v.map(|v| Cell {
                        value: Some(v),
                        note: "",
                    })
                })
                .collect();
            Some((name, cells))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let columns: Vec<String> = Hoist::ALL
        .iter()
        .map(|&h| Config::Tree(base, h).paper_name())
        .collect();
    Some(comparison_table(&columns, &rows))
}

/// Write `tables.md`, `results.csv` and the scatter plots for `rows` into `out`.
/// Returns the Markdown report.
fn write_report(suite: &str, out: &Path, rows: &[Row], paper: &PaperFigures) -> Result<String> {
    fs::create_dir_all(out)?;
    fs::write(out.join("results.csv"), render_csv(rows))?;
    let mut md = String::new();
    let _ = writeln!(md, "## Suite `{suite}`\n");
    let _ = writeln!(
        md,
        "Report rendered {} on {}. Sizes are non-whitespace characters of the output; \
         bold marks the best of a row; percentages are the change against the row's base \
         algorithm (first column). `†`: cut at the time limit, best output so far; \
         `✗`: the output did not pass the oracle when re-checked; `—`: not run (or no change); \
         `?`: not reported.\n",
        now_utc(),
        machine_summary()
    );
    let cases = cases_of(rows);
    let jobs: BTreeSet<usize> = rows.iter().map(|r| r.jobs).collect();
    for &j in &jobs {
        let idx = index(rows, j);
        if let Some(table) = paper_reference_table(&idx, &cases) {
            let _ = writeln!(
                md,
                "### Ours / paper (004 Tables I and II), jobs {j}\n\n\
                 Each cell: output size (oracle runs), treedd / paper.\n\n{table}"
            );
        }
        for base in Base::ALL {
            let configs: Vec<Config> = Hoist::ALL.iter().map(|&h| Config::Tree(base, h)).collect();
            let present = configs
                .iter()
                .any(|c| idx.keys().any(|(_, s)| *s == c.slug().as_str()));
            if !present {
                continue;
            }
            let family = base.family();
            let _ = writeln!(
                md,
                "### Hoisting and {family}: output sizes, jobs {j}\n\n{}",
                family_table(&idx, &cases, &configs, Measure::Size)
            );
            let _ = writeln!(
                md,
                "### Hoisting and {family}: number of oracle runs, jobs {j}\n\n{}",
                family_table(&idx, &cases, &configs, Measure::Runs)
            );
            for (measure, what, table_no) in [
                (Measure::Size, "output sizes", 3),
                (Measure::Runs, "test executions", 4),
            ] {
                if let Some(table) = paper_family_table(paper, base, measure, &cases) {
                    let n = table_no + 2 * Base::ALL.iter().position(|&b| b == base).unwrap_or(0);
                    let _ = writeln!(
                        md,
                        "<details><summary>The dissertation's {what} for these cases (Table 7.{n}; \
                         real crash oracles, not the proxies used here)</summary>\n\n{table}\n</details>\n"
                    );
                }
            }
            let points = scatter_points(&idx, &cases, base);
            if points.iter().any(|(_, p)| !p.is_empty()) {
                let file = format!(
                    "scatter-{}-j{j}.svg",
                    Config::Tree(base, Hoist::None).slug()
                );
                scatter_svg(
                    &out.join(&file),
                    &format!("Effect of hoisting on {family}* ({suite}, jobs {j})"),
                    &points,
                )?;
                let _ = writeln!(md, "![Effect of hoisting on {family}]({file})\n");
            }
        }
        let others: Vec<Config> = idx
            .keys()
            .filter_map(|(_, s)| Config::parse(s).ok())
            .filter(|c| !matches!(c, Config::Tree(..)))
            .collect::<Vec<_>>();
        let mut others_unique: Vec<Config> = Vec::new();
        for c in others {
            if !others_unique.contains(&c) {
                others_unique.push(c);
            }
        }
        if !others_unique.is_empty() {
            let _ = writeln!(
                md,
                "### Other configurations against HDD\\*: output sizes, jobs {j}\n\n{}",
                other_table(&idx, &cases, &others_unique, Measure::Size)
            );
            let _ = writeln!(
                md,
                "### Other configurations against HDD\\*: number of oracle runs, jobs {j}\n\n{}",
                other_table(&idx, &cases, &others_unique, Measure::Runs)
            );
        }
    }
    let _ = writeln!(md, "### Every run\n\n{}", detail_table(rows));
    fs::write(out.join("tables.md"), &md)?;
    Ok(md)
}

/// Copy the report files (not the raw jsonl) from `out` to `docs`, replacing older plots.
fn publish_report(out: &Path, docs: &Path) -> Result<()> {
    if docs.is_dir() {
        for entry in fs::read_dir(docs)? {
            let path = entry?.path();
            if path.extension().is_some_and(|e| e == "svg") {
                fs::remove_file(&path)?;
            }
        }
    }
    fs::create_dir_all(docs)?;
    for entry in fs::read_dir(out)? {
        let path = entry?.path();
        let name = path
            .file_name()
            .unwrap_or_default()
            .to_string_lossy()
            .into_owned();
        if name == "tables.md" || name == "results.csv" || name.ends_with(".svg") {
            fs::copy(&path, docs.join(&name))
                .with_context(|| format!("cannot copy {} to {}", path.display(), docs.display()))?;
        }
    }
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Driver

/// Build the release binary, or use the one given.
fn treedd_binary(root: &Path, given: Option<PathBuf>) -> Result<PathBuf> {
    if let Some(path) = given {
        return path
            .canonicalize()
            .with_context(|| format!("--treedd {}", path.display()));
    }
    let cargo = std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into());
    let status = Command::new(cargo)
        .args(["build", "--release", "-p", "treedd"])
        .current_dir(root)
        .status()
        .context("cannot run cargo build")?;
    if !status.success() {
        bail!("cargo build --release -p treedd failed");
    }
    let target = std::env::var_os("CARGO_TARGET_DIR")
        .map(PathBuf::from)
        .unwrap_or_else(|| root.join("target"));
    Ok(target.join("release").join("treedd"))
}

fn run_suite(opts: &SuiteOptions) -> Result<()> {
    let root = workspace_root();
    let (suite, dir) = resolve_suite(&root, &opts.suite)?;
    let out = root.join("target").join("bench").join(&suite);
    let mut store = Store::open(&out.join("results.jsonl"))?;
    if !opts.report_only {
        let mut cases = discover(&dir)?;
        if let Some(wanted) = &opts.cases {
            let unknown: Vec<&String> = wanted
                .iter()
                .filter(|w| !cases.iter().any(|c| &c.name == *w))
                .collect();
            if !unknown.is_empty() {
                bail!("--cases: no case named {unknown:?} in {}", dir.display());
            }
            cases.retain(|c| wanted.contains(&c.name));
        }
        let treedd = treedd_binary(&root, opts.treedd.clone())?;
        let mut plan = Vec::new();
        for case in &cases {
            for config in &opts.configs {
                if config.needs_grammar() && case.language() == "text" {
                    continue;
                }
                for &jobs in &opts.jobs {
                    if opts.rerun || !store.finished(&case.name, &config.slug(), jobs) {
                        plan.push((case, config, jobs));
                    }
                }
            }
        }
        eprintln!(
            "bench: {} cases in {}, {} runs to do (time limit {:?} each)",
            cases.len(),
            dir.display(),
            plan.len(),
            opts.time_limit
        );
        for (i, (case, config, jobs)) in plan.iter().enumerate() {
            let row = run_case(&treedd, case, config, *jobs, opts.time_limit)?;
            eprintln!(
                "[{}/{}] {} {} -j{}: {} -> {} chars, {} oracle runs, {:.1} s{}{}",
                i + 1,
                plan.len(),
                row.case,
                config.paper_name(),
                jobs,
                row.input_chars,
                row.output_chars,
                row.oracle_runs.map_or("?".to_string(), |r| r.to_string()),
                row.wall_seconds,
                if row.timed_out { " (timed out)" } else { "" },
                match (&row.error, row.verified) {
                    (Some(e), _) => format!(" FAILED: {e}"),
                    (None, false) => " NOT VERIFIED".to_string(),
                    (None, true) => String::new(),
                }
            );
            store.append(row)?;
        }
        store.compact()?;
    }
    let rows = store.latest();
    if rows.is_empty() {
        bail!("no results for suite {suite} in {}", out.display());
    }
    let md = write_report(&suite, &out, &rows, &load_paper_tables(&root))?;
    if opts.publish {
        let docs = root.join("docs").join("bench").join(&suite);
        publish_report(&out, &docs)?;
        eprintln!("bench: report published to {}", docs.display());
    }
    let paper = rows
        .iter()
        .filter(|r| paper_example(&r.case).is_some())
        .count();
    if paper > 0 {
        // The paper's own examples go to the terminal too, for a glance.
        for &j in &rows.iter().map(|r| r.jobs).collect::<BTreeSet<_>>() {
            if let Some(t) = paper_reference_table(&index(&rows, j), &cases_of(&rows)) {
                println!("ours / paper (004 Tables I and II), jobs {j}:\n{t}");
            }
        }
    }
    eprintln!(
        "bench: {} rows; report in {} ({} bytes), results.csv and results.jsonl beside it",
        rows.len(),
        out.join("tables.md").display(),
        md.len()
    );
    Ok(())
}

// ---------------------------------------------------------------------------------------------
// Micro figures

/// Environment variable that turns this binary into a no-op-cost oracle: its value is a file of
/// markers, one per line; the candidate (the only argument) is interesting iff it contains all.
const MARKER_ENV: &str = "XTASK_BENCH_MARKERS";

/// If started as the marker oracle, judge the candidate and return the exit code.
pub fn marker_oracle_mode() -> Option<i32> {
    let markers = std::env::var_os(MARKER_ENV)?;
    let args: Vec<std::ffi::OsString> = std::env::args_os().skip(1).collect();
    if args.len() != 1 {
        return None;
    }
    let (Ok(markers), Ok(candidate)) = (fs::read(markers), fs::read(&args[0])) else {
        return Some(2);
    };
    Some(if markers_present(&markers, &candidate) {
        0
    } else {
        1
    })
}

fn markers_present(markers: &[u8], candidate: &[u8]) -> bool {
    markers
        .split(|&b| b == b'\n')
        .filter(|m| !m.is_empty())
        .all(|m| candidate.windows(m.len()).any(|w| w == m))
}

/// Time and memory of building the tree of the largest input of `suite` (Markdown).
fn tree_building(treedd: &Path, xtask: &Path, suite: &Path) -> Result<String> {
    let cases = discover(suite)?;
    let Some(case) = cases
        .iter()
        .max_by_key(|c| fs::metadata(&c.input).map(|m| m.len()).unwrap_or(0))
    else {
        return Ok("(empty suite; skipped)".to_string());
    };
    let bytes = fs::metadata(&case.input)?.len();
    let dir = Scratch::new("micro-tree")?;
    let dump = dir.path().join("dump.txt");
    let log = dir.path().join("stderr.txt");
    let finished = run_watched(
        Command::new(treedd)
            .arg("--test")
            .arg(xtask)
            .args(["--language", case.language(), "--dump-tree"])
            .arg(&case.input)
            .current_dir(dir.path())
            .stdin(Stdio::null())
            .stdout(fs::File::create(&dump)?)
            .stderr(fs::File::create(&log)?),
        Some(Duration::from_secs(600)),
    )?;
    let dump_lines = fs::read(&dump)
        .map(|d| d.split(|&b| b == b'\n').count().saturating_sub(1))
        .unwrap_or(0);
    let status = if finished.status.success() {
        format!("printed {} lines", thousands(dump_lines as u64))
    } else {
        let log = fs::read_to_string(&log).unwrap_or_default();
        format!("{}: `{}`", finished.status, log.trim())
    };
    let mut out = format!(
        "{} ({} bytes), release `treedd --dump-tree` (process start, parse, tree build; {status}): \
         wall **{:.3} s**, own CPU {} s, peak RSS **{} MiB**.\n",
        case.name,
        thousands(bytes),
        finished.wall.as_secs_f64(),
        finished.cpu_self.map_or("?".to_string(), |c| format!("{c:.2}")),
        finished
            .max_rss_kib
            .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
    );
    // The same in this process (dev profile: tree-sitter at opt-level 3, treedd crates at 1).
    let src = fs::read(&case.input)?;
    let lang = treedd_tree::Lang::from_path(&case.input)
        .ok_or_else(|| anyhow!("{}: no grammar for this extension", case.input.display()))?;
    let rss_before = proc_peak_rss_kib(std::process::id() as libc::pid_t);
    let start = Instant::now();
    let tree = treedd_tree::RTree::build(lang, &src)
        .map_err(|e| anyhow!("{}: {e}", case.input.display()))?;
    let build = start.elapsed();
    let rss_after = proc_peak_rss_kib(std::process::id() as libc::pid_t);
    let s = tree.stats();
    let _ = writeln!(
        out,
        "\nIn-process `RTree::build` (xtask, dev profile): **{:.1} ms**; tree-sitter nodes {}, \
         height {}; reduction tree nodes {} ({} tokens), height {}; parse errors {}; \
         peak RSS of the xtask process {} -> {} MiB.",
        build.as_secs_f64() * 1000.0,
        thousands(s.raw_nodes as u64),
        s.raw_height,
        thousands(s.nodes as u64),
        thousands(s.tokens as u64),
        s.height,
        s.errors,
        rss_before.map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
        rss_after.map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
    );
    Ok(out)
}

/// `--grammar` with tree-sitter-c's sources (so the figures compare with the built-in C):
/// the first load compiles into a fresh cache; then, in this process, a cached load (hash
/// the sources, dlopen, derive the tables) and a tree build of fixtures/c/helloworld; and
/// the release binary's `--print-tree-stats` (process start, cached load, derivation, build).
fn run_time_grammar(treedd: &Path, root: &Path) -> Result<String> {
    let dir = crate::codegen::grammar_crate_dir("tree-sitter-c")?;
    let cache = Scratch::new("micro-grammar")?;
    let input = root.join("fixtures/c/helloworld/helloworld.c");
    let src = fs::read(&input)?;
    let start = Instant::now();
    let first = treedd_tree::load_grammar(&dir, cache.path()).map_err(|e| anyhow!("{e}"))?;
    let compile = start.elapsed();
    let mut loads = Vec::new();
    let mut builds = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let loaded = treedd_tree::load_grammar(&dir, cache.path()).map_err(|e| anyhow!("{e}"))?;
        loads.push(start.elapsed());
        let start = Instant::now();
        let tree = treedd_tree::RTree::build(loaded.lang, &src).map_err(|e| anyhow!("{e}"))?;
        builds.push(start.elapsed());
        drop(tree);
    }
    let mut cli = Vec::new();
    for _ in 0..5 {
        let start = Instant::now();
        let status = Command::new(treedd)
            .env("TREEDD_CACHE_DIR", cache.path())
            .arg("--grammar")
            .arg(&dir)
            .arg("--print-tree-stats")
            .arg(&input)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()?;
        cli.push(start.elapsed());
        if !status.success() {
            bail!("treedd --grammar {} failed: {status}", dir.display());
        }
    }
    let ms = |v: &[Duration]| {
        let mut v: Vec<f64> = v.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
        v.sort_by(f64::total_cmp);
        v[v.len() / 2]
    };
    Ok(format!(
        "tree-sitter-c's sources. First load (compile with the system C compiler{}): **{:.2} s**. \
         Cached load in process (hash the sources, dlopen, derive the tables; xtask dev profile, \
         median of 5): **{:.1} ms**; tree build of helloworld.c: {:.2} ms. \
         `treedd --grammar DIR --print-tree-stats helloworld.c` (process start, cached load, \
         derivation, build; {}), median of 5: **{:.1} ms**.",
        if first.compiled {
            ""
        } else {
            ", cache already warm"
        },
        compile.as_secs_f64(),
        ms(&loads),
        ms(&builds),
        treedd.display(),
        ms(&cli),
    ))
}

/// A line-oriented text input of `n` numbered lines.
fn micro_text_input(n: usize) -> String {
    (0..n)
        .map(|i| format!("l{i:04} some filler text\n"))
        .collect()
}

/// A JavaScript input of `n` small functions and their calls.
fn micro_js_input(n: usize) -> String {
    let mut s = String::new();
    for i in 0..n {
        let _ = writeln!(
            s,
            "function f{i}(a) {{\n  var v{i} = a + {i};\n  if (v{i} > 3) {{ v{i} = v{i} * 2; }}\n  return v{i};\n}}"
        );
    }
    for i in 0..n {
        let _ = writeln!(s, "console.log(f{i}({i}));");
    }
    s
}

#[derive(Debug, Serialize)]
struct MicroRow {
    what: String,
    input_bytes: u64,
    config: String,
    jobs: usize,
    oracle_runs: Option<u64>,
    cache_hits: Option<u64>,
    wall_seconds: f64,
    oracle_runs_per_second: Option<f64>,
    cpu_self_seconds: Option<f64>,
    cpu_self_ms_per_oracle_run: Option<f64>,
    cpu_oracles_ms_per_run: Option<f64>,
    peak_rss_kib: Option<u64>,
    output_bytes: u64,
    verified: bool,
}

fn micro(treedd: Option<PathBuf>, publish: bool) -> Result<()> {
    let root = workspace_root();
    let treedd = treedd_binary(&root, treedd)?;
    let oracle = std::env::current_exe()?;
    let work = Scratch::new("micro")?;
    let mut rows = Vec::new();

    // 1. Spawning the no-op oracle directly: the ceiling for any reducer on this machine.
    let text = micro_text_input(2000);
    let text_path = work.path().join("input.txt");
    fs::write(&text_path, &text)?;
    let text_markers = work.path().join("text.markers");
    fs::write(&text_markers, "l0017\nl0777\nl1234\nl1999\n")?;
    let n = 300;
    let start = Instant::now();
    for _ in 0..n {
        let ok = Command::new(&oracle)
            .arg(&text_path)
            .env(MARKER_ENV, &text_markers)
            .status()?
            .success();
        if !ok {
            bail!("the no-op oracle rejected its own input");
        }
    }
    let raw_rate = n as f64 / start.elapsed().as_secs_f64();
    eprintln!("bench micro: no-op oracle started directly: {raw_rate:.0} runs/s");

    // 2. Reductions with the no-op oracle.
    let js = micro_js_input(150);
    let js_path = work.path().join("input.js");
    fs::write(&js_path, &js)?;
    let js_markers = work.path().join("js.markers");
    fs::write(&js_markers, "v17 \nv101 \nf42(42)\n")?;
    let cases: Vec<(&str, &Path, &Path, Config)> = vec![
        (
            "text, 2000 lines",
            &text_path,
            &text_markers,
            Config::TextDdmin,
        ),
        (
            "JavaScript, 150 functions",
            &js_path,
            &js_markers,
            Config::Tree(Base::Hdd, Hoist::None),
        ),
        (
            "JavaScript, 150 functions",
            &js_path,
            &js_markers,
            Config::Tree(Base::Hdd, Hoist::Both),
        ),
    ];
    for (what, input, markers, config) in &cases {
        for jobs in [1, 2] {
            eprintln!("bench micro: {what}, {}, jobs {jobs}", config.paper_name());
            let dir = Scratch::new("micro-run")?;
            let name = input.file_name().unwrap_or_default();
            let output = dir.path().join(name);
            let stats = dir.path().join("stats.json");
            let log = fs::File::create(dir.path().join("treedd.log"))?;
            let language = language_of(input);
            let finished = run_watched(
                Command::new(&treedd)
                    .arg("--quiet")
                    .arg("--test")
                    .arg(&oracle)
                    .args(config.treedd_args(language))
                    .arg("--jobs")
                    .arg(jobs.to_string())
                    .arg("--stats")
                    .arg(&stats)
                    .arg("--output")
                    .arg(&output)
                    .arg(input)
                    .env(MARKER_ENV, markers)
                    .current_dir(dir.path())
                    .stdin(Stdio::null())
                    .stdout(log.try_clone()?)
                    .stderr(log),
                Some(Duration::from_secs(600)),
            )?;
            if !finished.status.success() {
                let log = fs::read_to_string(dir.path().join("treedd.log")).unwrap_or_default();
                bail!("treedd failed on the micro input ({what}): {}", log.trim());
            }
            let stats: Option<serde_json::Value> = fs::read(&stats)
                .ok()
                .and_then(|b| serde_json::from_slice(&b).ok());
            let runs = stats.as_ref().and_then(|s| stat_u64(s, "oracle_runs"));
            let result = fs::read(&output).unwrap_or_default();
            let wall = finished.wall.as_secs_f64();
            let per_run = |cpu: Option<f64>| match (cpu, runs) {
                (Some(c), Some(r)) if r > 0 => Some(c * 1000.0 / r as f64),
                _ => None,
            };
            rows.push(MicroRow {
                what: what.to_string(),
                input_bytes: fs::metadata(input)?.len(),
                config: config.paper_name(),
                jobs,
                oracle_runs: runs,
                cache_hits: stats.as_ref().and_then(|s| stat_u64(s, "cache_hits")),
                wall_seconds: wall,
                oracle_runs_per_second: runs.map(|r| r as f64 / wall),
                cpu_self_seconds: finished.cpu_self,
                cpu_self_ms_per_oracle_run: per_run(finished.cpu_self),
                cpu_oracles_ms_per_run: per_run(finished.cpu_children),
                peak_rss_kib: finished.peak_rss_kib,
                output_bytes: result.len() as u64,
                verified: markers_present(&fs::read(markers)?, &result),
            });
        }
    }

    // 3. Tree building on the largest Perses input, by the release binary (`--dump-tree`:
    //    parse, build the reduction tree, print it) and by `cargo xtask tree-stats`.
    let tree_line = match shared_dir(&root) {
        Some(shared) => tree_building(&treedd, &oracle, &shared.join("suites").join("perses"))?,
        None => "(no ../shared/suites/perses here; skipped)".to_string(),
    };

    // 4. A grammar loaded at run time (`--grammar`): compile once, then load from the cache.
    let grammar_line = run_time_grammar(&treedd, &root)?;

    let mut md = String::new();
    let _ = writeln!(
        md,
        "## Micro figures\n\nMeasured {} on {}.\n",
        now_utc(),
        machine_summary()
    );
    let _ = writeln!(
        md,
        "No-op oracle (`xtask` itself checking a few substrings) started directly, {n} times in \
         a row: **{raw_rate:.0} runs/s** (the ceiling for any reducer here).\n"
    );
    md.push_str(
        "| Input | Configuration | jobs | oracle runs | cache hits | wall s | oracle runs/s \
         | reducer CPU s | reducer CPU ms / oracle run | oracle CPU ms / run | peak RSS MiB | verified |\n\
         |---|---|--:|--:|--:|--:|--:|--:|--:|--:|--:|---|\n",
    );
    let f = |v: Option<f64>, p: usize| v.map_or("?".to_string(), |v| format!("{v:.p$}"));
    for r in &rows {
        let _ = writeln!(
            md,
            "| {} ({} bytes) | {} | {} | {} | {} | {:.2} | {} | {} | {} | {} | {} | {} |",
            r.what,
            thousands(r.input_bytes),
            md_escape(&r.config),
            r.jobs,
            r.oracle_runs.map_or("?".to_string(), thousands),
            r.cache_hits.map_or("?".to_string(), thousands),
            r.wall_seconds,
            f(r.oracle_runs_per_second, 0),
            f(r.cpu_self_seconds, 2),
            f(r.cpu_self_ms_per_oracle_run, 3),
            f(r.cpu_oracles_ms_per_run, 3),
            r.peak_rss_kib
                .map_or("?".to_string(), |k| format!("{:.1}", k as f64 / 1024.0)),
            if r.verified { "yes" } else { "**no**" }
        );
    }
    let _ = writeln!(
        md,
        "\nTree building on the largest Perses input: {tree_line}"
    );
    let _ = writeln!(md, "\nRun-time grammar (`--grammar`): {grammar_line}");
    let out = root.join("target").join("bench");
    fs::create_dir_all(&out)?;
    fs::write(out.join("micro.md"), &md)?;
    fs::write(out.join("micro.json"), serde_json::to_string_pretty(&rows)?)?;
    println!("{md}");
    eprintln!("bench micro: written to {}", out.join("micro.md").display());
    if publish {
        let docs = root.join("docs").join("bench");
        fs::create_dir_all(&docs)?;
        fs::write(docs.join("micro.md"), &md)?;
        eprintln!(
            "bench micro: published to {}",
            docs.join("micro.md").display()
        );
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Write an executable script.
    fn script(path: &Path, body: &str) {
        use std::os::unix::fs::PermissionsExt as _;
        fs::write(path, body).unwrap();
        fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
    }

    fn row(case: &str, config: &str, chars: u64, runs: Option<u64>) -> Row {
        Row {
            case: case.to_string(),
            config: config.to_string(),
            jobs: 1,
            language: "c".to_string(),
            input_chars: 100,
            input_bytes: 120,
            output_chars: chars,
            output_bytes: chars + 5,
            oracle_runs: runs,
            verified: true,
            time_limit_seconds: 60.0,
            ..Row::default()
        }
    }

    fn case_in(dir: &Path, name: &str, input: &str, oracle: &str) -> Case {
        let case = dir.join(name);
        fs::create_dir_all(&case).unwrap();
        fs::write(case.join(input), "int main(void) { return 0; }\n").unwrap();
        script(&case.join("oracle.sh"), oracle);
        load_case(&case).unwrap()
    }

    #[test]
    fn nonws_chars_counts_what_the_papers_count() {
        assert_eq!(nonws_chars(b"int main ( ) {\n\treturn 0;\n}\n"), 19);
        assert_eq!(nonws_chars(b""), 0);
        assert_eq!(nonws_chars(" \u{e9}t\u{e9} ".as_bytes()), 3);
    }

    #[test]
    fn numbers_are_formatted_like_the_papers() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(14_699), "14,699");
        assert_eq!(thousands(1_234_567), "1,234,567");
        assert_eq!(change(582, 489), "(-15.98%)");
        assert_eq!(change(10_540, 21_094), "(+100.13%)");
        assert_eq!(change(18, 18), "—");
        assert_eq!(change(0, 5), "—");
        assert_eq!(format_utc(0), "1970-01-01 00:00 UTC");
        assert_eq!(format_utc(1_700_000_000), "2023-11-14 22:13 UTC");
        assert_eq!(format_utc(951_782_400), "2000-02-29 00:00 UTC");
    }

    #[test]
    fn comparison_table_bolds_the_best_and_shows_change_against_the_base() {
        let c = |v: u64| {
            Some(Cell {
                value: Some(v),
                note: "",
            })
        };
        let columns: Vec<String> = ["HDD*", "Hoist*+HDD*", "HDDH*", "Hoist*+HDDH*"]
            .iter()
            .map(|s| s.to_string())
            .collect();
        let rows = vec![
            (
                "clang-22382".to_string(),
                vec![c(582), c(489), c(475), c(489)],
            ),
            (
                "gcc-71626".to_string(),
                vec![c(168), c(167), c(167), c(167)],
            ),
            ("jerry-3433".to_string(), vec![c(18), c(18), c(18), c(18)]),
            ("gcc-70127".to_string(), vec![None, c(992), c(915), c(947)]),
            (
                "jerry-3299".to_string(),
                vec![
                    c(92),
                    Some(Cell {
                        value: Some(89),
                        note: "†",
                    }),
                    Some(Cell {
                        value: None,
                        note: "",
                    }),
                    c(100),
                ],
            ),
        ];
        let table = comparison_table(&columns, &rows);
        let lines: Vec<&str> = table.lines().collect();
        assert_eq!(
            lines[0],
            "| Test | HDD\\* | Hoist\\*+HDD\\* | HDDH\\* | Hoist\\*+HDDH\\* |"
        );
        assert_eq!(lines[1], "|---|--:|--:|--:|--:|");
        assert_eq!(
            lines[2],
            "| clang-22382 | 582 | 489 (-15.98%) | **475** (-18.38%) | 489 (-15.98%) |"
        );
        assert_eq!(
            lines[3],
            "| gcc-71626 | 168 | **167** (-0.60%) | **167** (-0.60%) | **167** (-0.60%) |"
        );
        assert_eq!(
            lines[4],
            "| jerry-3433 | **18** | **18** — | **18** — | **18** — |"
        );
        assert_eq!(lines[5], "| gcc-70127 | — | 992 — | **915** — | 947 — |");
        assert_eq!(
            lines[6],
            "| jerry-3299 | 92 | **89**† (-3.26%) | ? | 100 (+8.70%) |"
        );
        assert_eq!(lines.len(), 7);
    }

    #[test]
    fn configurations_are_the_papers_sixteen_plus_text() {
        let all = Config::all();
        assert_eq!(all.len(), 17 + PRESETS.len());
        let names: Vec<String> = all.iter().map(Config::paper_name).collect();
        assert_eq!(
            names[..8],
            [
                "HDD*",
                "Hoist*+HDD*",
                "HDDH*",
                "Hoist*+HDDH*",
                "HDDr*",
                "Hoistr*+HDDr*",
                "HDDHr*",
                "Hoistr*+HDDHr*"
            ]
        );
        assert_eq!(names[12], "Coarse HDDr*");
        assert_eq!(names[15], "Coarse Hoistr*+HDDHr*");
        let slugs: BTreeSet<String> = all.iter().map(Config::slug).collect();
        assert_eq!(slugs.len(), all.len(), "slugs are unique");
        for config in &all {
            assert_eq!(&Config::parse(&config.slug()).unwrap(), config);
            if let Config::Tree(..) = config {
                assert_eq!(&Config::parse(&config.paper_name()).unwrap(), config);
            }
        }
        assert_eq!(
            Config::parse("coarse-hoistr+hddhr").unwrap(),
            Config::Tree(Base::CoarseHddr, Hoist::Both)
        );
        assert_eq!(
            Config::parse("preset-fast").unwrap(),
            Config::Preset("fast".into())
        );
        let err = Config::parse("hdx").unwrap_err().to_string();
        assert!(
            err.contains("unknown configuration `hdx`") && err.contains("hoist+hddh"),
            "{err}"
        );
        assert_eq!(Config::parse_list("hdd, hddh,hdd").unwrap().len(), 2);
        assert!(Config::parse_list(" , ").is_err());
        assert_eq!(
            Config::Tree(Base::CoarseHddr, Hoist::Interlace).treedd_args("c"),
            [
                "--language",
                "c",
                "--algorithm",
                "coarse-hddr",
                "--hoist",
                "interlace"
            ]
        );
        assert_eq!(
            Config::TextDdmin.treedd_args("c"),
            ["--language", "text", "--unit", "line+char"]
        );
    }

    #[test]
    fn arguments_are_parsed_and_bad_ones_rejected() {
        let args = |s: &str| s.split_whitespace().map(String::from).collect::<Vec<_>>();
        let Invocation::Suite(o) = parse_args(&args(
            "--suite jrts --configs hdd,hddh --jobs 1,4 --time-limit=2.5 --rerun",
        ))
        .unwrap() else {
            panic!("not a suite run");
        };
        assert_eq!(o.suite, "jrts");
        assert_eq!(o.configs.len(), 2);
        assert_eq!(o.jobs, [1, 4]);
        assert_eq!(o.time_limit, Duration::from_millis(2500));
        assert!(o.rerun && !o.report_only);
        let Invocation::Suite(d) = parse_args(&[]).unwrap() else {
            panic!("not a suite run")
        };
        assert_eq!(
            (d.suite.as_str(), d.configs.len(), d.jobs.as_slice()),
            ("fixtures", Config::all().len(), &[1][..])
        );
        assert!(matches!(
            parse_args(&args("micro --publish")).unwrap(),
            Invocation::Micro {
                treedd: None,
                publish: true
            }
        ));
        for bad in [
            "--jobs 0",
            "--time-limit -1",
            "--suite",
            "--frobnicate",
            "--configs nope",
        ] {
            assert!(parse_args(&args(bad)).is_err(), "{bad}");
        }
    }

    #[test]
    fn suites_are_discovered_in_both_layouts() {
        let dir = Scratch::new("discover").unwrap();
        let root = dir.path();
        // Flat layout (jrts, perses) with helper files next to the input.
        case_in(root, "3299", "3299-orig.js", "#!/bin/sh\n");
        fs::rename(root.join("3299/oracle.sh"), root.join("3299/test.sh")).unwrap();
        let perses = root.join("gcc-71626");
        case_in(root, "gcc-71626", "input.c", "#!/bin/sh\n");
        fs::write(perses.join("trigger.c"), "int a;").unwrap();
        fs::write(perses.join("PROVENANCE"), "from somewhere").unwrap();
        // Nested layout (fixtures/<lang>/<case>) with the paper's file name as the only input.
        case_in(&root.join("c"), "helloworld", "helloworld.c", "#!/bin/sh\n");
        fs::create_dir_all(root.join("empty-folder")).unwrap();
        let cases = discover(root).unwrap();
        let names: Vec<(&str, String, String)> = cases
            .iter()
            .map(|c| {
                (
                    c.name.as_str(),
                    c.input.file_name().unwrap().to_string_lossy().into_owned(),
                    c.oracle.file_name().unwrap().to_string_lossy().into_owned(),
                )
            })
            .collect();
        assert_eq!(
            names,
            [
                ("3299", "3299-orig.js".into(), "test.sh".into()),
                ("helloworld", "helloworld.c".into(), "oracle.sh".into()),
                ("gcc-71626", "input.c".into(), "oracle.sh".into()),
            ]
        );
        assert_eq!(cases[0].language(), "javascript");
        assert_eq!(cases[2].language(), "c");

        // Two candidate inputs and no naming convention: a clear error.
        let bad = root.join("bad");
        case_in(root, "bad", "a.c", "#!/bin/sh\n");
        fs::write(bad.join("b.c"), "int b;").unwrap();
        let err = discover(root).unwrap_err().to_string();
        assert!(
            err.contains("cannot tell the input among a.c, b.c"),
            "{err}"
        );
    }

    #[test]
    fn store_resumes_and_the_newest_row_wins() {
        let dir = Scratch::new("store").unwrap();
        let path = dir.path().join("sub/results.jsonl");
        let mut store = Store::open(&path).unwrap();
        assert!(!store.finished("a", "hdd", 1));
        store.append(row("a", "hdd", 10, Some(5))).unwrap();
        let mut failed = row("a", "hddh", 0, None);
        failed.error = Some("treedd exited with exit status: 2: boom".into());
        store.append(failed).unwrap();
        store.append(row("a", "hdd", 8, Some(6))).unwrap();
        // A torn last line (the harness was killed mid-write) is skipped, not fatal.
        let mut f = fs::OpenOptions::new().append(true).open(&path).unwrap();
        f.write_all(b"{\"case\": \"a\", \"conf").unwrap();
        drop(f);

        let mut store = Store::open(&path).unwrap();
        assert_eq!(store.rows.len(), 3);
        assert!(store.finished("a", "hdd", 1));
        assert!(!store.finished("a", "hdd", 2), "other jobs value");
        assert!(!store.finished("a", "hddh", 1), "failed runs are retried");
        let latest = store.latest();
        assert_eq!(latest.len(), 2);
        assert_eq!(
            (latest[0].config.as_str(), latest[0].output_chars),
            ("hdd", 8)
        );
        store.compact().unwrap();
        assert_eq!(fs::read_to_string(&path).unwrap().lines().count(), 2);
        assert_eq!(Store::open(&path).unwrap().latest(), latest);
    }

    #[test]
    fn csv_quotes_what_needs_quoting() {
        let mut r = row("a,b", "hdd", 3, None);
        r.error = Some("say \"hi\"".into());
        let csv = render_csv(&[r]);
        let lines: Vec<&str> = csv.lines().collect();
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].split(',').count(), 20);
        assert!(
            lines[1].starts_with("\"a,b\",hdd,1,c,100,120,3,8,,"),
            "{}",
            lines[1]
        );
        assert!(lines[1].contains(",\"say \"\"hi\"\"\","), "{}", lines[1]);
    }

    #[test]
    fn scatter_points_are_changes_against_the_base() {
        let rows = vec![
            row("x", "hdd", 100, Some(200)),
            row("x", "hoist+hdd", 50, Some(300)),
            row("x", "hddh", 80, Some(100)),
            row("y", "hoist+hdd", 10, Some(10)), // no base: no point
            row("z", "hdd", 40, None),
            row("z", "hddh", 20, Some(7)), // base did not report runs: no point
        ];
        let idx = index(&rows, 1);
        let points = scatter_points(&idx, &cases_of(&rows), Base::Hdd);
        assert_eq!(points.len(), 3);
        assert_eq!(points[0].0, "Hoist*+HDD* (Preprocessing)");
        assert_eq!(points[0].1, [(-50.0, 50.0)]);
        assert_eq!(points[1].1, [(-20.0, -50.0)]);
        assert!(points[2].1.is_empty());
    }

    #[test]
    fn report_has_tables_paper_references_and_a_plot() {
        let dir = Scratch::new("report").unwrap();
        let mut rows = vec![
            row("helloworld", "hdd", 42, Some(30)),
            row("helloworld", "hoist+hdd", 35, Some(26)),
            row("helloworld", "hddh", 35, Some(60)),
            row("x", "hdd", 100, Some(200)),
            row("x", "hoist+hdd", 50, Some(300)),
            row("x", "ddmin-text", 70, Some(900)),
        ];
        for r in &mut rows[..3] {
            r.input_chars = 42;
        }
        let md = write_report("demo", dir.path(), &rows, &PaperFigures::new()).unwrap();
        assert!(
            md.contains("### Hoisting and HDD: output sizes, jobs 1"),
            "{md}"
        );
        assert!(
            md.contains("| x | 100 | **50** (-50.00%) | — | — |"),
            "{md}"
        );
        assert!(
            md.contains("| x | **200** | 300 (+50.00%) | — | — |"),
            "{md}"
        );
        assert!(
            md.contains("| helloworld | 42 / 42 | 42 (30) / 42 (32) | 35 (26) / 35 (26) | 35 (60) / 35 (51) | — / 35 (26) |"),
            "{md}"
        );
        assert!(
            md.contains("| x | 100 | **70** (-30.00%) |"),
            "other configurations: {md}"
        );
        assert!(
            !md.contains("Hoisting and HDDr"),
            "absent families get no table"
        );
        let svg = fs::read_to_string(dir.path().join("scatter-hdd-j1.svg")).unwrap();
        assert!(svg.starts_with("<svg"), "{svg}");
        assert!(svg.contains("<circle"), "points are drawn");
        assert!(svg.contains("change in oracle runs"), "axis label");
        assert!(md.contains("![Effect of hoisting on HDD](scatter-hdd-j1.svg)"));
        let csv = fs::read_to_string(dir.path().join("results.csv")).unwrap();
        assert_eq!(csv.lines().count(), rows.len() + 1);
        assert!(dir.path().join("tables.md").is_file());

        let docs = dir.path().join("docs");
        fs::create_dir_all(&docs).unwrap();
        fs::write(docs.join("scatter-old.svg"), "<svg/>").unwrap();
        fs::write(dir.path().join("results.jsonl"), "{}").unwrap();
        publish_report(dir.path(), &docs).unwrap();
        let mut published: Vec<String> = fs::read_dir(&docs)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .collect();
        published.sort();
        assert_eq!(
            published,
            ["results.csv", "scatter-hdd-j1.svg", "tables.md"]
        );
    }

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
        let bg: i32 = fs::read_to_string(&pidfile)
            .unwrap()
            .trim()
            .parse()
            .unwrap();
        let deadline = Instant::now() + Duration::from_secs(5);
        loop {
            let state = fs::read_to_string(format!("/proc/{bg}/stat")).ok();
            // Gone, or a zombie waiting for a reaper.
            if state.as_deref().is_none_or(|s| {
                s.rsplit_once(')')
                    .is_some_and(|(_, r)| r.trim_start().starts_with('Z'))
            }) {
                break;
            }
            assert!(
                Instant::now() < deadline,
                "background child {bg} survived: {state:?}"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
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
    fn marker_oracle_needs_every_marker() {
        assert!(markers_present(b"l0017\nl1999\n", b"xx l0017 yy l1999"));
        assert!(!markers_present(b"l0017\nl1999\n", b"xx l0017 yy"));
        assert!(markers_present(b"", b"anything"));
        let text = micro_text_input(2000);
        assert!(markers_present(
            b"l0017\nl0777\nl1234\nl1999\n",
            text.as_bytes()
        ));
        let js = micro_js_input(150);
        assert!(markers_present(b"v17 \nv101 \nf42(42)\n", js.as_bytes()));
    }

    #[test]
    fn the_dissertations_tables_are_parsed() {
        let text = "7.3\tHoisting and HDD Output Sizes . . . . .\t75\n\
            Table 7.3: Hoisting and HDD Output Sizes\n\n\
            Test\tHDD*\tHoist*+HDD*\tHDDH*\tHoist*+HDDH*\n\
            clang-22382\t582\t489 (-15.98%)\t<b>475</b> (-18.38%)\t489 (-15.98%)\n\
            gcc-70127\t—\t992 —\t<b>915</b> —\t947 —\n\
            jerry-3433\t<b>18</b>\t<b>18</b> —\t<b>18</b> —\t<b>18</b> —\n\n\
            Table 7.10: Coarse Hoisting and HDD<sup>r</sup> Number of Test Executions\n\n\
            clang-22382\t3,157\t<b>2,614</b> (-17.20%)\t3,157\t— <b>2,614</b> (-17.20%)\n\n\
            *A quote.*\n\
            jerry-9999\t1\t2\t3\t4\n";
        let figures = parse_paper_tables(text);
        assert_eq!(figures.len(), 2);
        let hdd = &figures[&(Base::Hdd, Measure::Size)];
        assert_eq!(
            hdd["clang-22382"],
            [Some(582), Some(489), Some(475), Some(489)]
        );
        assert_eq!(hdd["gcc-70127"], [None, Some(992), Some(915), Some(947)]);
        assert_eq!(hdd["jerry-3433"], [Some(18); 4]);
        let coarse = &figures[&(Base::CoarseHddr, Measure::Runs)];
        assert_eq!(
            coarse["clang-22382"],
            [Some(3157), Some(2614), Some(3157), Some(2614)]
        );
        assert_eq!(
            coarse.len(),
            1,
            "rows after the table ended are not part of it"
        );

        let cases = vec![
            "3433".to_string(),
            "clang-22382".to_string(),
            "mine".to_string(),
        ];
        let table = paper_family_table(&figures, Base::Hdd, Measure::Size, &cases).unwrap();
        assert!(
            table.contains("| jerry-3433 | **18** | **18** — |"),
            "{table}"
        );
        assert!(
            table.contains("| clang-22382 | 582 | 489 (-15.98%) | **475** (-18.38%) |"),
            "{table}"
        );
        assert!(!table.contains("mine"));
        assert!(paper_family_table(&figures, Base::Hddr, Measure::Size, &cases).is_none());
    }

    /// A stand-in for treedd: writes the first 12 bytes of the input and a stats file, and
    /// records its arguments; `extra` runs first.
    fn fake_treedd(dir: &Path, extra: &str) -> PathBuf {
        let path = dir.join("fake-treedd");
        let args = dir.join("args.txt");
        script(
            &path,
            &format!(
                "#!/bin/sh\necho \"$@\" > {}\n{extra}\nwhile [ $# -gt 0 ]; do case \"$1\" in\n\
                 --output) out=$2; shift 2;; --stats) stats=$2; shift 2;; --quiet) shift;; --*) shift 2;; *) input=$1; shift;;\n\
                 esac; done\nhead -c 12 \"$input\" > \"$out\"\n\
                 echo '{{\"oracle_runs\": 7, \"cache_hits\": 2, \"syntax_filtered\": 1, \"peak_rss_bytes\": 2048000}}' > \"$stats\"\n",
                args.display()
            ),
        );
        path
    }

    #[test]
    fn a_run_records_sizes_stats_and_verification() {
        let dir = Scratch::new("run").unwrap();
        let treedd = fake_treedd(dir.path(), "");
        // The oracle sees the candidate under the input's name, in its working directory.
        let case = case_in(dir.path(), "hello", "hello.c", "#!/bin/sh\n[ \"$(basename \"$1\")\" = hello.c ] && [ -f hello.c ] && grep -q main \"$1\"\n");
        let config = Config::Tree(Base::Hddr, Hoist::Both);
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
