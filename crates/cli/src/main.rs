//! `treedd`: the command-line reducer. Thin: flags, checks with clear errors, progress, the
//! output file, signals and exit codes. The algorithms live in `treedd-reduce`, the trees in
//! `treedd-tree`.

mod checks;
mod exit;
mod flags;
mod guard;
mod output;
mod progress;
mod report;
mod resume;
mod trace;

use std::ffi::{OsStr, OsString};
use std::fs;
use std::io;
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;
use clap::Parser;
use treedd_reduce::reaper::Watchdog;
use treedd_reduce::{
    Base, CommandOracle, CommandOracleBuilder, Confirm, DdminOptions, Filter, Hoisting, Judge,
    JudgeOptions, OnImprovement, Oracle, Outcome, RunReport, TextUnit, TreeConfig,
};
use treedd_tree::{Lang, RTree};

use crate::exit::Fatal;
use crate::flags::{Algorithm, Args, ComplementOrder, Hoist, Preset, Timeout, Unit};
use crate::output::BestWriter;
use crate::progress::{Progress, Snapshot};
use crate::report::StatsReport;
use crate::trace::Trace;

fn main() -> ExitCode {
    if guard::run_watchdog_if_asked() {
        return ExitCode::SUCCESS;
    }
    match run() {
        Ok(code) => ExitCode::from(code),
        Err(err) => {
            // Like ripgrep: a closed pipe (e.g. `--dump-tree | head`) is not an error.
            let broken_pipe = err.chain().any(|cause| {
                cause
                    .downcast_ref::<io::Error>()
                    .is_some_and(|e| e.kind() == io::ErrorKind::BrokenPipe)
            });
            if broken_pipe {
                return ExitCode::from(exit::SUCCESS);
            }
            if let Some(fatal) = err.downcast_ref::<Fatal>() {
                eprintln!("treedd: error: {}", fatal.message);
                for line in &fatal.detail {
                    eprintln!("  {line}");
                }
                return ExitCode::from(fatal.code);
            }
            eprintln!("treedd: error: {err:#}");
            ExitCode::from(exit::FAILURE)
        }
    }
}

fn run() -> anyhow::Result<u8> {
    let args = match Args::try_parse() {
        Ok(args) => args,
        Err(e) => {
            // --help and --version print to stdout and exit 0; real errors exit 2.
            let code = e.exit_code();
            e.print()?;
            return Ok(u8::try_from(code).unwrap_or(exit::USAGE));
        }
    };
    let plan = Plan::from_args(&args)?;
    // Everything that can fail is checked before the first oracle run.
    let input = checks::read_input(&args.input)?;
    if args.dump_tree || args.print_tree_stats {
        return print_tree(&args, plan.lang, &input);
    }
    checks::check_writable(&plan.output, "output")?;
    if let Some(stats) = &args.stats {
        checks::check_writable(stats, "stats")?;
    }
    let root = match &args.workdir {
        Some(dir) => checks::workdir(dir)?,
        None => std::env::temp_dir(),
    };
    let (scratch, watchdog) = guard::start(&root)?;
    let oracle = build_oracle(&args, scratch.path(), watchdog)?;
    let code = Reduction::new(args, plan, input, oracle).run();
    // Removed here on every way out but `exit`; the watchdog, or the next run, removes it then.
    drop(scratch);
    code
}

/// Settings derived from the flags, with conflicts rejected.
struct Plan {
    lang: Lang,
    algorithm: Algorithm,
    hoist: Hoist,
    preset: Preset,
    /// Set when text reduction runs (text language or `--algorithm ddmin`).
    unit: Option<Unit>,
    output: PathBuf,
}

impl Plan {
    fn from_args(args: &Args) -> anyhow::Result<Plan> {
        if args.grammar.is_some() && args.language.is_some() {
            return Err(Fatal::new(
                exit::CONFLICT,
                "--grammar and --language both choose the language; give one".to_string(),
            )
            .into());
        }
        // A run-time grammar is loaded (and maybe compiled) after every conflict check.
        let lang = match (&args.grammar, &args.language) {
            (Some(_), _) => None,
            (None, Some(name)) => Some(Lang::from_name(name).ok_or_else(|| {
                Fatal::new(
                    exit::LANGUAGE,
                    format!("unknown language {name:?}; use one of {}, or --grammar DIR", Lang::names()),
                )
            })?),
            (None, None) => Some(Lang::from_path(&args.input).ok_or_else(|| {
                Fatal::new(
                    exit::LANGUAGE,
                    format!(
                        "cannot tell the language of {} from its extension; use --language {} (or --grammar DIR)",
                        args.input.display(),
                        Lang::names().replace(", ", "|")
                    ),
                )
            })?),
        };
        let conflict = |msg: String| Fatal::new(exit::CONFLICT, msg);
        if args.no_subsets && args.no_complements {
            return Err(conflict(
                "--no-subsets and --no-complements together leave ddmin nothing to test".into(),
            )
            .into());
        }
        let preset = args.preset.unwrap_or(Preset::Balanced);
        let text = lang == Some(Lang::Text) || args.algorithm == Some(Algorithm::Ddmin);
        if lang == Some(Lang::Text) {
            if let Some(a) = args.algorithm.filter(|&a| a != Algorithm::Ddmin) {
                return Err(conflict(format!(
                    "--algorithm {} needs a grammar, but the language is text",
                    a.name()
                ))
                .into());
            }
            if args.preset.is_some() {
                return Err(conflict(
                    "--preset chooses tree algorithms, but the language is text".into(),
                )
                .into());
            }
            if args.dump_tree || args.print_tree_stats {
                return Err(conflict(
                    "--dump-tree and --print-tree-stats need a grammar, but the language is text"
                        .into(),
                )
                .into());
            }
        }
        if text {
            if let Some(h) = args.hoist.filter(|&h| h != Hoist::None) {
                return Err(conflict(format!(
                    "--hoist {} needs a tree algorithm, but text is reduced by ddmin",
                    h.name()
                ))
                .into());
            }
            for (set, flag) in [
                (args.no_fixpoint, "--no-fixpoint"),
                (args.final_text_pass, "--final-text-pass"),
                (args.passes.is_some(), "--passes"),
            ] {
                if set {
                    return Err(conflict(format!(
                        "{flag} applies to the tree algorithms, but text is reduced by ddmin"
                    ))
                    .into());
                }
            }
        } else if args.unit.is_some() {
            return Err(conflict(format!(
                "--unit applies to text reduction only (--language text or --algorithm ddmin), but the language is {}",
                lang.map_or("given by --grammar", Lang::name)
            ))
            .into());
        }
        let output = args
            .output
            .clone()
            .unwrap_or_else(|| default_output(&args.input));
        if same_file(&output, &args.input) {
            return Err(conflict(format!(
                "--output {} is the input file; treedd never modifies its input",
                output.display()
            ))
            .into());
        }
        if let Some(stats) = &args.stats {
            if same_file(stats, &args.input) || same_file(stats, &output) {
                return Err(conflict(format!(
                    "--stats {} is the input or the output file",
                    stats.display()
                ))
                .into());
            }
        }
        let (algorithm, hoist) = if text {
            (Algorithm::Ddmin, Hoist::None)
        } else {
            let (a, h) = preset_defaults(preset);
            (args.algorithm.unwrap_or(a), args.hoist.unwrap_or(h))
        };
        let lang = match (lang, &args.grammar) {
            (Some(lang), _) => lang,
            (None, Some(dir)) => load_grammar(dir)?,
            (None, None) => unreachable!("no language and no grammar"),
        };
        Ok(Plan {
            lang,
            algorithm,
            hoist,
            preset,
            unit: text.then(|| args.unit.unwrap_or(Unit::LineChar)),
            output,
        })
    }
}

/// `--grammar DIR`: compile (once, cached) and load a tree-sitter grammar.
fn load_grammar(dir: &Path) -> anyhow::Result<Lang> {
    let cache = treedd_tree::default_cache_dir();
    let loaded = treedd_tree::load_grammar(dir, &cache)
        .map_err(|e| Fatal::new(exit::LANGUAGE, format!("--grammar {}: {e}", dir.display())))?;
    if loaded.compiled {
        eprintln!(
            "treedd: compiled grammar {} into {} (cached for the next runs)",
            loaded.lang.name(),
            loaded.library.display()
        );
    }
    Ok(loaded.lang)
}

/// The tree configuration a preset stands for (chosen by the reduction crate from its
/// measurements), as CLI values.
fn preset_defaults(preset: Preset) -> (Algorithm, Hoist) {
    let config = TreeConfig::preset(preset.name()).unwrap_or_default();
    let algorithm = match config.base {
        Base::Hdd => Algorithm::Hdd,
        Base::Hddr => Algorithm::Hddr,
        Base::CoarseHdd => Algorithm::CoarseHdd,
        Base::CoarseHddr => Algorithm::CoarseHddr,
    };
    let hoist = match config.hoist {
        Hoisting::None => Hoist::None,
        Hoisting::Pre => Hoist::Pre,
        Hoisting::Interlace => Hoist::Interlace,
        Hoisting::Both => Hoist::Both,
    };
    (algorithm, hoist)
}

/// `crash.c` -> `crash.reduced.c`; `crash` -> `crash.reduced`; `.bashrc` -> `.bashrc.reduced`.
fn default_output(input: &Path) -> PathBuf {
    let stem = input.file_stem().unwrap_or(OsStr::new("input"));
    let mut name = stem.to_os_string();
    name.push(".reduced");
    if let Some(ext) = input.extension() {
        name.push(".");
        name.push(ext);
    }
    input.with_file_name(name)
}

/// True if both paths name the same existing file, or are spelled the same.
fn same_file(a: &Path, b: &Path) -> bool {
    match (fs::canonicalize(a), fs::canonicalize(b)) {
        (Ok(a), Ok(b)) => a == b,
        _ => std::path::absolute(a).ok() == std::path::absolute(b).ok(),
    }
}

fn build_oracle(
    args: &Args,
    scratch: &Path,
    watchdog: Arc<Watchdog>,
) -> anyhow::Result<Arc<CommandOracle>> {
    let file_name = args.input.file_name().unwrap_or(OsStr::new("input"));
    // clap requires --test unless a debug option that exits early is given.
    let program = args.test.as_deref().unwrap_or(Path::new(""));
    let timeout = match args.timeout {
        Some(Timeout::Seconds(s)) => Some(Duration::from_secs_f64(s)),
        // The default is derived from the original's run (`Reduction::check_original`).
        Some(Timeout::None) | None => None,
    };
    let oracle = CommandOracleBuilder::new(program)
        .file_name(file_name)
        .timeout(timeout)
        .temp_root(scratch)
        .watchdog(watchdog)
        .launcher(
            args.launcher
                .as_ref()
                .map(|l| l.0.iter().map(OsString::from).collect())
                .unwrap_or_default(),
        )
        .build()
        .map_err(|e| {
            let code = match e {
                treedd_reduce::Error::TempRoot { .. } | treedd_reduce::Error::TempDir(_) => {
                    exit::FAILURE
                }
                _ => exit::ORACLE,
            };
            Fatal::new(code, e.to_string())
        })?;
    Ok(Arc::new(oracle))
}

/// `--dump-tree` and `--print-tree-stats`: show INPUT's reduction tree on stdout.
fn print_tree(args: &Args, lang: Lang, input: &[u8]) -> anyhow::Result<u8> {
    use std::io::Write;
    let tree = RTree::build(lang, input)
        .with_context(|| format!("cannot parse {} as {}", args.input.display(), lang.name()))?;
    let mut out = io::stdout().lock();
    if args.dump_tree {
        out.write_all(treedd_tree::dump(&tree).as_bytes())?;
    }
    if args.print_tree_stats {
        let s = tree.stats();
        writeln!(out, "bytes: {}", s.bytes)?;
        writeln!(out, "syntax errors: {}", s.errors)?;
        writeln!(
            out,
            "tree-sitter nodes: {} (height {})",
            s.raw_nodes, s.raw_height
        )?;
        writeln!(
            out,
            "reduction tree nodes: {} (height {}): {} rules, {} tokens, {} hidden",
            s.nodes, s.height, s.rules, s.tokens, s.hidden
        )?;
    }
    out.flush()?;
    Ok(exit::SUCCESS)
}

/// The oracle shared between the Judge and the CLI (which also runs it directly for the
/// original's check and `--verify`, and cancels it on a signal).
struct SharedOracle(Arc<CommandOracle>);

impl Oracle for SharedOracle {
    fn run(&self, candidate: &[u8]) -> Outcome {
        self.0.run(candidate)
    }

    fn cancel(&self) {
        self.0.cancel();
    }
}

/// One reduction run, from the check of the original to the summary.
struct Reduction {
    args: Args,
    plan: Plan,
    input: Vec<u8>,
    oracle: Arc<CommandOracle>,
    progress: Progress,
    /// Set by the signal handler; the Judge (once it exists) is cancelled with the oracle.
    interrupted: Arc<AtomicBool>,
    judge: Arc<OnceLock<Arc<Judge>>>,
    /// Oracle runs done outside the Judge (original check, --verify).
    extra_runs: u64,
    /// What the reduction starts from: the input, or the output file with `--resume`.
    start: Vec<u8>,
    resumed: bool,
    /// `--confirm` (a pass-through without it); counts its own extra runs.
    confirm: OnceLock<Arc<Confirm<SharedOracle>>>,
    /// Size at every improvement, for `--stats`.
    trace: Arc<Trace>,
}

/// The default per-run timeout: 10 times the original's (slowest) run, at least 5 seconds.
/// A candidate is usually smaller and faster than the original, so this only cuts runs that
/// hang; the minimum absorbs the noise of a loaded machine on very fast oracles.
pub fn default_timeout(original_run: Duration) -> Duration {
    (original_run * 10).max(Duration::from_secs(5))
}

impl Reduction {
    fn new(args: Args, plan: Plan, input: Vec<u8>, oracle: Arc<CommandOracle>) -> Reduction {
        let progress = Progress::new(args.quiet, input.len());
        Reduction {
            args,
            plan,
            input,
            oracle,
            progress,
            interrupted: Arc::new(AtomicBool::new(false)),
            judge: Arc::default(),
            extra_runs: 0,
            start: Vec::new(),
            resumed: false,
            confirm: OnceLock::new(),
            trace: Arc::new(Trace::new()),
        }
    }

    fn run(mut self) -> anyhow::Result<u8> {
        self.install_signal_handler()?;
        let fresh = resume::State::new(&self.args.input, &self.input, self.settings(), None);
        let resumed = if self.args.resume {
            self.resume_from(&fresh)?
        } else {
            if matches!(resume::load(&self.plan.output), Ok(Some(_))) {
                self.progress.note(&format!(
                    "starting over; the unfinished reduction in {} could be continued with --resume",
                    self.plan.output.display()
                ));
            }
            None
        };
        match resumed {
            Some(start) => {
                self.start = start;
                self.resumed = true;
            }
            None => {
                self.check_original_runs()?;
                self.start = self.input.clone();
            }
        }
        if self.interrupted.load(Ordering::SeqCst) {
            self.progress.finish();
            self.progress
                .say("interrupted before the reduction started; no output written");
            return Ok(exit::INTERRUPTED);
        }

        // The tree (and its syntax errors) before anything is written.
        let tree = match self.plan.unit {
            Some(_) => None,
            None => Some(self.build_tree()?),
        };
        let state = resume::State {
            timeout_seconds: self.oracle.timeout().map(|t| t.as_secs_f64()),
            ..fresh
        };
        resume::save(&self.plan.output, &state).map_err(|e| {
            Fatal::new(
                exit::OUTPUT,
                format!(
                    "cannot write {}: {e}",
                    resume::state_path(&self.plan.output).display()
                ),
            )
        })?;
        let mode = fs::metadata(&self.args.input).ok().map(|m| m.permissions());
        let writer = BestWriter::create(&self.plan.output, &self.start, mode)
            .map_err(|e| self.output_error(e))?;
        let writer = Arc::new(writer);
        let on_improvement: OnImprovement = {
            let writer = Arc::clone(&writer);
            let (trace, judge) = (Arc::clone(&self.trace), Arc::clone(&self.judge));
            let extra_runs = self.extra_runs;
            Box::new(move |candidate: &[u8]| {
                writer.offer(candidate);
                let runs = judge.get().map_or(0, |j| j.stats().oracle_runs);
                trace.record(runs + extra_runs, report::non_whitespace_chars(candidate));
            })
        };
        let filter: Option<Filter> = match &tree {
            Some(tree) if !self.args.no_syntax_filter => {
                let lang = self.plan.lang;
                // Resumed: as many errors as the original input had, as in the first run.
                let allowed = match self.resumed {
                    true => tree
                        .error_count()
                        .max(RTree::build(lang, &self.input).map_or(0, |t| t.error_count())),
                    false => tree.error_count(),
                };
                Some(Box::new(move |candidate: &[u8]| {
                    treedd_tree::count_errors(lang, candidate) <= allowed
                }))
            }
            _ => None,
        };
        let confirm = Arc::new(Confirm::new(
            SharedOracle(Arc::clone(&self.oracle)),
            self.args.confirm.unwrap_or(0),
        ));
        let _ = self.confirm.set(Arc::clone(&confirm));
        let judge = Arc::new(Judge::new(
            Box::new(confirm),
            JudgeOptions {
                cache: !self.args.no_cache,
                filter,
                on_improvement: Some(on_improvement),
            },
        ));
        let _ = self.judge.set(Arc::clone(&judge));
        if self.interrupted.load(Ordering::SeqCst) {
            judge.cancel();
        }

        let result = self.reduce_with_progress(&judge, tree, &writer);
        let interrupted = self.interrupted.load(Ordering::SeqCst);
        // Only an uninterrupted run's final answer is written unconditionally; after a
        // cancel, the output keeps the best candidate the oracle confirmed.
        if !interrupted {
            writer.finish(&result).map_err(|e| self.output_error(e))?;
            // Finished: nothing is left to resume.
            resume::remove(&self.plan.output).map_err(|e| self.output_error(e))?;
        }
        let output = fs::read(&self.plan.output).map_err(|e| self.output_error(e))?;
        if let Some(msg) = judge.last_start_error() {
            self.progress.warn(&format!(
                "{} oracle runs could not be started, the last one: {msg}",
                judge.stats().failed_to_start
            ));
        }

        let mut verify = None;
        if !interrupted && self.args.verify {
            self.progress
                .update("verifying", self.snapshot(output.len(), Some(&judge)));
            let report = self.oracle.run_report(&output);
            self.extra_runs += 1;
            verify = Some(report);
        }
        let interrupted = self.interrupted.load(Ordering::SeqCst);
        let verified = match &verify {
            Some(r) if !interrupted => Some(r.outcome.is_interesting()),
            _ => None,
        };
        self.progress.finish();
        let stats = self.stats_report(&judge, &output, interrupted, verified);
        if let Some(path) = &self.args.stats {
            let json = serde_json::to_string_pretty(&stats)?;
            output::write_atomic(path, format!("{json}\n").as_bytes(), None).map_err(|e| {
                Fatal::new(
                    exit::OUTPUT,
                    format!("cannot write stats {}: {e}", path.display()),
                )
            })?;
        }
        if interrupted {
            self.progress.say(&format!(
                "interrupted; the best result so far ({} bytes) is in {}; continue with --resume",
                output.len(),
                self.plan.output.display()
            ));
            return Ok(exit::INTERRUPTED);
        }
        if let (Some(false), Some(report)) = (verified, &verify) {
            return Err(Fatal::new(
                exit::FLAKY,
                format!(
                    "--verify: the oracle no longer finds the result {} interesting ({}); the oracle is flaky",
                    self.plan.output.display(),
                    describe_outcome(report)
                ),
            )
            .with_detail("a flaky oracle makes reductions unreliable: make it deterministic, or raise --timeout if runs time out")
            .into());
        }
        if !self.progress.is_quiet() {
            eprintln!("treedd: {}", summary(&stats, &self.plan.output));
        }
        Ok(exit::SUCCESS)
    }

    /// Run the algorithm while a ticker thread refreshes the progress display.
    fn reduce_with_progress(
        &self,
        judge: &Judge,
        tree: Option<RTree>,
        writer: &BestWriter,
    ) -> Vec<u8> {
        let done = AtomicBool::new(false);
        let fallback = match self.plan.unit {
            Some(unit) => format!("ddmin ({})", unit.name()),
            None => format!(
                "{} (hoist {})",
                self.plan.algorithm.name(),
                self.plan.hoist.name()
            ),
        };
        std::thread::scope(|s| {
            let ticker = s.spawn(|| {
                while !done.load(Ordering::SeqCst) {
                    // The algorithms name their phases; before the first one, say what runs.
                    let phase = judge.phase();
                    let phase = if phase.is_empty() { &fallback } else { &phase };
                    self.progress
                        .update(phase, self.snapshot(writer.best_len(), Some(judge)));
                    std::thread::park_timeout(Duration::from_millis(250));
                }
            });
            let result = self.reduce(judge, tree);
            done.store(true, Ordering::SeqCst);
            ticker.thread().unpark();
            result
        })
    }

    fn build_tree(&self) -> anyhow::Result<RTree> {
        let tree = RTree::build(self.plan.lang, &self.start).with_context(|| {
            format!(
                "cannot parse {} as {}",
                self.args.input.display(),
                self.plan.lang.name()
            )
        })?;
        if tree.error_count() > 0 {
            self.progress.warn(&format!(
                "{} does not parse cleanly as {} ({} syntax errors); reducing anyway",
                self.args.input.display(),
                self.plan.lang.name(),
                tree.error_count()
            ));
        }
        Ok(tree)
    }

    fn output_error(&self, e: io::Error) -> Fatal {
        Fatal::new(
            exit::OUTPUT,
            format!("cannot write output {}: {e}", self.plan.output.display()),
        )
    }

    /// The transformation passes: `--passes`, none with `--no-passes`, else the preset's.
    fn passes(&self) -> Vec<treedd_reduce::Pass> {
        if self.args.no_passes {
            return Vec::new();
        }
        match &self.args.passes {
            // A round runs them in the order of Pass::ALL, whatever the order given.
            Some(list) => treedd_reduce::Pass::ALL
                .into_iter()
                .filter(|p| list.contains(p))
                .collect(),
            None => {
                TreeConfig::preset(self.plan.preset.name())
                    .unwrap_or_default()
                    .passes
            }
        }
    }

    /// The ddmin options of the flags (used by text reduction and inside every tree
    /// algorithm).
    fn ddmin_options(&self) -> DdminOptions {
        let a = &self.args;
        let defaults = DdminOptions::default();
        DdminOptions {
            split_factor: a
                .split_factor
                .map_or(defaults.split_factor, |nu| nu.value()),
            subsets: !a.no_subsets,
            complements: !a.no_complements,
            complement_order: match a.complement_order {
                Some(ComplementOrder::Backward) => treedd_reduce::ComplementOrder::Backward,
                Some(ComplementOrder::Forward) => treedd_reduce::ComplementOrder::Forward,
                None => defaults.complement_order,
            },
            complements_first: a.complements_first,
            // line+char is DDMIN* whatever the flag says (see `reduce_text`).
            fixpoint: a.ddmin_fixpoint || self.plan.unit == Some(Unit::LineChar),
            greeddy: a.greeddy,
            jobs: a.jobs as usize,
            ..defaults
        }
    }

    fn reduce(&self, judge: &Judge, tree: Option<RTree>) -> Vec<u8> {
        let ddmin = DdminOptions {
            stop: Some(judge.stop_flag()),
            ..self.ddmin_options()
        };
        let Some(mut tree) = tree else {
            let unit = match self.plan.unit.unwrap_or(Unit::LineChar) {
                Unit::Line => TextUnit::Line,
                Unit::Char => TextUnit::Char,
                Unit::LineChar => TextUnit::LineThenChar,
            };
            return treedd_reduce::reduce_text(&self.start, unit, judge, &ddmin);
        };
        let base = match self.plan.algorithm {
            Algorithm::Hddr => Base::Hddr,
            Algorithm::CoarseHdd => Base::CoarseHdd,
            Algorithm::CoarseHddr => Base::CoarseHddr,
            Algorithm::Hdd | Algorithm::Ddmin => Base::Hdd,
        };
        let hoist = match self.plan.hoist {
            Hoist::None => Hoisting::None,
            Hoist::Pre => Hoisting::Pre,
            Hoist::Interlace => Hoisting::Interlace,
            Hoist::Both => Hoisting::Both,
        };
        // The preset's traversal order stays.
        let mut config = TreeConfig::preset(self.plan.preset.name()).unwrap_or_default();
        config.base = base;
        config.hoist = hoist;
        config.fixpoint = !self.args.no_fixpoint;
        config.final_text_pass = self.args.final_text_pass;
        config.ddmin = ddmin;
        config.passes = self.passes();
        treedd_reduce::reduce_tree(&mut tree, judge, &config)
    }

    /// SIGINT/SIGTERM: the first one cancels the running oracles (the reduction then unwinds
    /// with the best result in place); a second one exits at once.
    fn install_signal_handler(&self) -> anyhow::Result<()> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
            .context("cannot install the signal handler")?;
        let oracle = Arc::clone(&self.oracle);
        let judge = Arc::clone(&self.judge);
        let interrupted = Arc::clone(&self.interrupted);
        let count = AtomicUsize::new(0);
        std::thread::spawn(move || {
            for _ in signals.forever() {
                interrupted.store(true, Ordering::SeqCst);
                oracle.cancel();
                if let Some(judge) = judge.get() {
                    judge.cancel();
                }
                if count.fetch_add(1, Ordering::SeqCst) > 0 {
                    // The output file is only ever replaced atomically: leaving now is safe.
                    eprintln!("treedd: interrupted twice; exiting now");
                    std::process::exit(i32::from(exit::INTERRUPTED));
                }
            }
        });
        Ok(())
    }

    /// Run the oracle on the original (`--check-original N` times, else once): it must be
    /// interesting every time. Without `--timeout`, the default timeout is derived from these
    /// runs and announced. Returns early (leaving the interrupt to the caller) on a signal.
    fn check_original_runs(&mut self) -> anyhow::Result<()> {
        let n = self.args.check_original.unwrap_or(1);
        let mut slowest = Duration::ZERO;
        let mut first: Option<RunReport> = None;
        let mut differs: Option<(u32, RunReport)> = None;
        for i in 1..=n {
            let phase = match n {
                1 => "checking the input".to_string(),
                _ => format!("checking the input (run {i} of {n})"),
            };
            self.progress
                .update(&phase, self.snapshot(self.input.len(), None));
            let report = self.oracle.run_report(&self.input);
            self.extra_runs += 1;
            if self.interrupted.load(Ordering::SeqCst) {
                return Ok(());
            }
            if let Outcome::FailedToStart(msg) = &report.outcome {
                return Err(Fatal::new(exit::ORACLE, msg.clone()).into());
            }
            slowest = slowest.max(report.elapsed);
            if self.args.timeout.is_none() {
                self.oracle.set_timeout(Some(default_timeout(slowest)));
            }
            match &first {
                None => first = Some(report),
                Some(f)
                    if differs.is_none()
                        && f.outcome.is_interesting() != report.outcome.is_interesting() =>
                {
                    differs = Some((i, report));
                }
                Some(_) => {}
            }
        }
        let Some(first) = first else {
            return Ok(());
        };
        if let Some((i, report)) = differs {
            let say = |r: &RunReport| match r.outcome.is_interesting() {
                true => "interesting".to_string(),
                false => format!("not interesting ({})", describe_outcome(r)),
            };
            return Err(Fatal::new(
                exit::FLAKY,
                format!(
                    "--check-original {n}: the oracle answered differently on the original input: {} in run 1, {} in run {i}; the oracle is flaky",
                    say(&first),
                    say(&report)
                ),
            )
            .with_detail("make the oracle deterministic (fixed seeds, no shared state), raise --timeout if runs time out, or use --confirm N")
            .into());
        }
        self.check_original(&first)?;
        if let Some(t) = self.oracle.timeout() {
            let why = match self.args.timeout {
                None => format!(
                    " (10 x the original's {:.2} s, at least 5 s; change it with --timeout SECONDS|none)",
                    slowest.as_secs_f64()
                ),
                Some(_) => String::new(),
            };
            self.progress.note(&format!(
                "timeout per oracle run: {:.1} s{why}",
                t.as_secs_f64()
            ));
        }
        Ok(())
    }

    /// `--resume`: the text to start from (the output file, still interesting), or `None` to
    /// start from the input because there is nothing to resume.
    fn resume_from(&mut self, fresh: &resume::State) -> anyhow::Result<Option<Vec<u8>>> {
        let out = self.plan.output.display().to_string();
        let state = match resume::load(&self.plan.output) {
            Ok(Some(state)) => state,
            Ok(None) => {
                self.progress.note(&format!(
                    "--resume: no unfinished reduction in {out}; starting from the input"
                ));
                return Ok(None);
            }
            Err(e) => {
                return Err(Fatal::new(
                    exit::FAILURE,
                    format!(
                        "--resume: cannot read {}: {e}; remove it to start over",
                        resume::state_path(&self.plan.output).display()
                    ),
                )
                .into())
            }
        };
        if let Some(why) = state.mismatch(fresh) {
            return Err(Fatal::new(
                exit::CONFLICT,
                format!("--resume: the unfinished reduction in {out} differs: {why}; use the same options, or start over without --resume"),
            )
            .into());
        }
        let Ok(best) = fs::read(&self.plan.output) else {
            self.progress.note(&format!(
                "--resume: {out} is missing; starting from the input"
            ));
            return Ok(None);
        };
        self.oracle
            .set_timeout(state.timeout_seconds.map(Duration::from_secs_f64));
        self.progress.update(
            "checking the output to resume",
            self.snapshot(best.len(), None),
        );
        let report = self.oracle.run_report(&best);
        self.extra_runs += 1;
        if self.interrupted.load(Ordering::SeqCst) {
            return Ok(None);
        }
        if !report.outcome.is_interesting() {
            self.progress.warn(&format!(
                "--resume: the oracle no longer finds {out} interesting ({}); starting from the input",
                describe_outcome(&report)
            ));
            // Back to what a fresh run starts with (`check_original_runs` derives the default).
            self.oracle.set_timeout(match self.args.timeout {
                Some(Timeout::Seconds(s)) => Some(Duration::from_secs_f64(s)),
                Some(Timeout::None) | None => None,
            });
            return Ok(None);
        }
        self.progress.note(&format!(
            "resuming from {out} ({} of {} bytes)",
            best.len(),
            self.input.len()
        ));
        Ok(Some(best))
    }

    /// The options that shape the result, recorded for `--resume`.
    fn settings(&self) -> serde_json::Value {
        let a = &self.args;
        let d = self.ddmin_options();
        serde_json::json!({
            "oracle": self.oracle.program().display().to_string(),
            "language": self.plan.lang.name(),
            "algorithm": self.plan.algorithm.name(),
            "hoist": self.plan.hoist.name(),
            "preset": self.plan.preset.name(),
            "unit": self.plan.unit.map(Unit::name),
            "split_factor": d.split_factor,
            "subsets": d.subsets,
            "complements": d.complements,
            "complement_order": format!("{:?}", d.complement_order),
            "complements_first": d.complements_first,
            "greeddy": d.greeddy,
            "ddmin_fixpoint": d.fixpoint,
            "fixpoint": !a.no_fixpoint,
            "final_text_pass": a.final_text_pass,
            "passes": self.passes().iter().map(|p| p.name()).collect::<Vec<_>>(),
            "cache": !a.no_cache,
            "syntax_filter": !a.no_syntax_filter,
            "timeout": match a.timeout {
                None => serde_json::json!("default"),
                Some(Timeout::None) => serde_json::json!("none"),
                Some(Timeout::Seconds(s)) => serde_json::json!(s),
            },
            "confirm": a.confirm.unwrap_or(0),
        })
    }

    fn check_original(&self, report: &RunReport) -> anyhow::Result<()> {
        match &report.outcome {
            Outcome::Interesting => Ok(()),
            Outcome::FailedToStart(msg) => Err(Fatal::new(exit::ORACLE, msg.clone()).into()),
            Outcome::Cancelled => Err(Fatal::new(exit::INTERRUPTED, "interrupted").into()),
            _ => {
                let mut fatal = Fatal::new(
                    exit::NOT_INTERESTING,
                    format!(
                        "the oracle does not find the original input interesting ({})",
                        describe_outcome(report)
                    ),
                );
                if !report.stderr_head.is_empty() {
                    fatal = fatal.with_detail("its stderr began with:");
                    for line in report.stderr_head.lines() {
                        fatal = fatal.with_detail(format!("| {line}"));
                    }
                }
                fatal = fatal
                    .with_detail(
                        "the oracle must exit 0 on the original input; reproduce its run with:",
                    )
                    .with_detail(self.recipe());
                Err(fatal.into())
            }
        }
    }

    /// A shell command that runs the oracle on the input as treedd does.
    fn recipe(&self) -> String {
        let input =
            std::path::absolute(&self.args.input).unwrap_or_else(|_| self.args.input.clone());
        let name = self.args.input.file_name().unwrap_or(OsStr::new("input"));
        format!(
            "d=$(mktemp -d) && cp {} \"$d\"/{} && (cd \"$d\" && {} \"$d\"/{}); echo \"exit status $?\"",
            shell_quote(input.as_os_str()),
            shell_quote(name),
            shell_quote(self.oracle.program().as_os_str()),
            shell_quote(name),
        )
    }

    /// Oracle runs made by `--confirm` (not counted by the Judge).
    fn confirm_runs(&self) -> u64 {
        self.confirm.get().map_or(0, |c| c.extra_runs())
    }

    fn snapshot(&self, size: usize, judge: Option<&Judge>) -> Snapshot {
        let stats = judge.map(Judge::stats).unwrap_or_default();
        Snapshot {
            size,
            oracle_runs: stats.oracle_runs + self.extra_runs + self.confirm_runs(),
            cache_hits: stats.cache_hits,
        }
    }

    fn stats_report(
        &self,
        judge: &Judge,
        output: &[u8],
        interrupted: bool,
        verified: Option<bool>,
    ) -> StatsReport {
        let stats = judge.stats();
        let ddmin = self.ddmin_options();
        let tree = self.plan.unit.is_none();
        let input_errors = (self.plan.unit.is_none())
            .then(|| treedd_tree::RTree::build(self.plan.lang, &self.input).ok())
            .flatten()
            .map(|t| t.error_count());
        StatsReport {
            input: self.args.input.display().to_string(),
            output: self.plan.output.display().to_string(),
            language: self.plan.lang.name(),
            algorithm: self.plan.algorithm.name(),
            hoist: self.plan.hoist.name(),
            unit: self.plan.unit.map(Unit::name),
            jobs: self.args.jobs,
            split_factor: match ddmin.split_factor {
                usize::MAX => report::SplitFactor::Max,
                nu => report::SplitFactor::N(nu),
            },
            subsets: ddmin.subsets,
            complements: ddmin.complements,
            complement_order: match ddmin.complement_order {
                treedd_reduce::ComplementOrder::Forward => "forward",
                treedd_reduce::ComplementOrder::Backward => "backward",
            },
            complements_first: ddmin.complements_first,
            greeddy: ddmin.greeddy,
            ddmin_fixpoint: ddmin.fixpoint,
            fixpoint: tree.then_some(!self.args.no_fixpoint),
            final_text_pass: tree.then_some(self.args.final_text_pass),
            passes: tree.then(|| self.passes().iter().map(|p| p.name()).collect()),
            discarded: stats.discarded,
            mean_busy_workers: stats.busy_seconds / self.progress.elapsed().as_secs_f64().max(1e-9),
            rounds: judge.records(),
            timeout_seconds: self.oracle.timeout().map(|t| t.as_secs_f64()),
            timeout_default: self.args.timeout.is_none(),
            check_original: self.args.check_original.unwrap_or(1),
            confirm: self.args.confirm.unwrap_or(0),
            confirm_rejected: self.confirm.get().map_or(0, |c| c.rejected()),
            resumed: self.resumed,
            cache: !self.args.no_cache,
            syntax_filter: !self.args.no_syntax_filter,
            oracle_runs: stats.oracle_runs + self.extra_runs + self.confirm_runs(),
            cache_hits: stats.cache_hits,
            cache_peak_entries: stats.cache_peak_entries,
            syntax_filtered: stats.syntax_filtered,
            timeouts: stats.timeouts,
            input_bytes: self.input.len(),
            output_bytes: output.len(),
            input_chars: report::non_whitespace_chars(&self.input),
            output_chars: report::non_whitespace_chars(output),
            input_syntax_errors: input_errors,
            wall_seconds: self.progress.elapsed().as_secs_f64(),
            peak_rss_bytes: report::peak_rss_self(),
            peak_oracle_rss_bytes: report::peak_rss_children(),
            interrupted,
            verified,
            trace: self.trace.points(),
        }
    }
}

/// "exit code 1", "killed by signal 9", "timed out after 2s", ...
fn describe_outcome(report: &RunReport) -> String {
    match &report.outcome {
        Outcome::Interesting => "exit code 0".into(),
        Outcome::TimedOut => format!(
            "timed out after {:.1}s; raise --timeout if the oracle needs longer",
            report.elapsed.as_secs_f64()
        ),
        Outcome::Cancelled => "cancelled".into(),
        Outcome::FailedToStart(msg) => msg.clone(),
        Outcome::NotInteresting { .. } => match (report.code, report.signal) {
            (Some(code), _) => format!("exit code {code}"),
            (None, Some(sig)) => format!("killed by signal {sig}"),
            (None, None) => "no exit code".into(),
        },
    }
}

fn summary(stats: &StatsReport, output: &Path) -> String {
    let smaller = 100.0 - progress::percent(stats.output_bytes, stats.input_bytes);
    format!(
        "{} -> {} bytes ({smaller:.1}% smaller), {} -> {} non-whitespace chars, {} oracle runs, {} cache hits, {:.1}s; result in {}",
        stats.input_bytes,
        stats.output_bytes,
        stats.input_chars,
        stats.output_chars,
        stats.oracle_runs,
        stats.cache_hits,
        stats.wall_seconds,
        output.display()
    )
}

/// Quote for POSIX sh: bare if safe, else single quotes.
fn shell_quote(s: &OsStr) -> String {
    let s = s.to_string_lossy();
    let safe = !s.is_empty()
        && s.chars()
            .all(|c| c.is_ascii_alphanumeric() || "/._-+=:,@%".contains(c));
    if safe {
        s.into_owned()
    } else {
        format!("'{}'", s.replace('\'', r"'\''"))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_output_inserts_reduced_before_the_extension() {
        let check = |input: &str, want: &str| {
            assert_eq!(default_output(Path::new(input)), PathBuf::from(want))
        };
        check("crash.c", "crash.reduced.c");
        check("dir/a.b.js", "dir/a.b.reduced.js");
        check("/x/crash", "/x/crash.reduced");
        check(".bashrc", ".bashrc.reduced");
    }

    #[test]
    fn shell_quote_is_minimal_and_safe() {
        assert_eq!(shell_quote(OsStr::new("/tmp/a.c")), "/tmp/a.c");
        assert_eq!(shell_quote(OsStr::new("a b")), "'a b'");
        assert_eq!(shell_quote(OsStr::new("it's")), r"'it'\''s'");
        assert_eq!(shell_quote(OsStr::new("")), "''");
    }
}
