//! One reduction run, from the check of the original to the summary: the judge, the output
//! writer, the signal handler and the algorithm with a progress ticker. The check of the
//! original and the default timeout are in `original.rs`, the resume flow in `resuming.rs`,
//! the `--stats` report and the summary line in `summary.rs`, what differs for a directory
//! input in `files.rs`.
//!
//! **Cancellation.** The signal thread calls `CommandOracle::cancel` (kills every running
//! group) and `Judge::cancel` (raises the stop flag that ddmin and every tree loop read): runs
//! return `Cancelled`, the algorithms unwind, and the CLI exits 130 leaving the best file in
//! place (and the state file, for `--resume`). SIGKILL skips all of this: the watchdog then
//! kills the oracles and removes the scratch directory (`treedd_proc`'s reaper).

mod files;
mod observer;
mod original;
mod resuming;
mod summary;

use std::fs;
use std::io;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use anyhow::Context;
use treedd_proc::{CommandOracle, Oracle};
use treedd_reduce::{
    Base, Confirm, DdminOptions, Filter, Hoisting, Judge, JudgeOptions, Reduced, TextUnit,
    TreeConfig,
};
use treedd_tree::{Parse, RTree, SyntaxFilter};

use self::observer::Reports;
use self::summary::{describe_outcome, summary};
use crate::exit::{self, Fatal};
use crate::flags::{Algorithm, Args, ComplementOrder, Hoist, Unit};
use crate::output::{self, BestWriter};
use crate::plan::Plan;
use crate::progress::{Progress, Snapshot};
use crate::resume;
use crate::trace::Trace;

/// One reduction run, from the check of the original to the summary.
pub(crate) struct Reduction {
    args: Args,
    plan: Plan,
    input: Vec<u8>,
    oracle: Arc<CommandOracle>,
    progress: Progress,
    /// Set by the signal handler; the Judge (once it exists) is cancelled with the oracle.
    interrupted: Arc<AtomicBool>,
    judge: Arc<OnceLock<Arc<Judge>>>,
    /// Oracle runs done outside the Judge (original check, --verify).
    extra_runs: Arc<AtomicU64>,
    /// What the reduction starts from: the input, or the output file with `--resume`.
    start: Vec<u8>,
    resumed: bool,
    /// `--confirm` (a pass-through without it); counts its own extra runs.
    confirm: OnceLock<Arc<Confirm<Arc<CommandOracle>>>>,
    /// Size at every improvement, for `--stats`.
    trace: Arc<Trace>,
    /// The syntax filter (tree languages without `--no-syntax-filter`), for its counts.
    syntax: OnceLock<Arc<SyntaxFilter>>,
    /// ERROR and MISSING nodes in the input's parse (tree languages), counted once.
    input_errors: OnceLock<usize>,
    /// What the final layout step did (`crate::format`), when it ran.
    format: OnceLock<crate::format::Report>,
}

impl Reduction {
    pub(crate) fn new(
        args: Args,
        plan: Plan,
        input: Vec<u8>,
        oracle: Arc<CommandOracle>,
    ) -> Reduction {
        let progress = Progress::new(args.quiet, crate::dir::bytes(&input, plan.tree.is_some()));
        Reduction {
            args,
            plan,
            input,
            oracle,
            progress,
            interrupted: Arc::new(AtomicBool::new(false)),
            judge: Arc::default(),
            extra_runs: Arc::default(),
            start: Vec::new(),
            resumed: false,
            confirm: OnceLock::new(),
            trace: Arc::new(Trace::new()),
            syntax: OnceLock::new(),
            input_errors: OnceLock::new(),
            format: OnceLock::new(),
        }
    }

    pub(crate) fn run(mut self) -> anyhow::Result<u8> {
        self.install_signal_handler()?;
        let fresh = self.fresh_state();
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
        // Whether the original is checked alongside the first candidates (`check_alongside`).
        let alongside = match resumed {
            Some(start) => {
                self.start = start;
                self.resumed = true;
                false
            }
            None => {
                let alongside = self.check_alongside();
                if !alongside {
                    self.check_original_runs(true)?;
                }
                self.start = self.input.clone();
                alongside
            }
        };
        if self.interrupted.load(Ordering::SeqCst) {
            self.progress.finish();
            self.progress
                .say("interrupted before the reduction started; no output written");
            return Ok(exit::INTERRUPTED);
        }

        // The tree (and its syntax errors) before anything is written.
        let (tree, parse) = match self.plan.unit {
            Some(_) => (None, None),
            None => {
                let (tree, parse) = self.build_tree()?;
                (Some(tree), Some(parse))
            }
        };
        let mode = fs::metadata(&self.args.input).ok().map(|m| m.permissions());
        let writer = if alongside {
            // Nothing is written before the original is known to be interesting.
            BestWriter::held(&self.plan.output, &self.start, mode)
        } else if self.plan.tree.is_some() {
            self.save_state(&fresh)?;
            BestWriter::create_tree(&self.plan.output, &self.start)
        } else {
            self.save_state(&fresh)?;
            BestWriter::create(&self.plan.output, &self.start, mode)
        };
        let writer = Arc::new(writer.map_err(|e| self.output_error(e))?);
        // The syntax filter parses candidates against the current best text's tree.
        let syntax: Option<Arc<SyntaxFilter>> = match (&tree, parse) {
            (Some(tree), Some(parse)) if !self.args.no_syntax_filter => {
                // Resumed: as many errors as the original input had, as in the first run.
                let allowed = tree.error_count().max(self.input_errors());
                let filter = SyntaxFilter::for_input(self.plan.lang, &self.input, allowed);
                // The tree's own parse of the start: not parsed again.
                filter.rebase_parsed(&self.start, parse);
                let filter = Arc::new(filter);
                let _ = self.syntax.set(Arc::clone(&filter));
                Some(filter)
            }
            _ => None,
        };
        let filter: Option<Filter> = syntax.clone().map(|syntax| -> Filter {
            Box::new(move |candidate: &[u8]| syntax.accepts(candidate))
        });
        let reports = Arc::new(Reports::new(
            Arc::clone(&writer),
            syntax,
            Arc::clone(&self.trace),
            Arc::clone(&self.extra_runs),
            self.plan.tree.is_some(),
        ));
        let confirm = Arc::new(Confirm::new(
            Arc::clone(&self.oracle),
            self.args.confirm.unwrap_or(0),
        ));
        let _ = self.confirm.set(Arc::clone(&confirm));
        let judge = Arc::new(Judge::new(
            Box::new(confirm),
            JudgeOptions {
                cache: !self.args.no_cache,
                filter,
                observer: Some(Arc::clone(&reports) as Arc<dyn treedd_reduce::Observer>),
            },
        ));
        let _ = self.judge.set(Arc::clone(&judge));
        if self.interrupted.load(Ordering::SeqCst) {
            judge.cancel();
        }

        if alongside {
            // The check's run holds one of the --jobs permits, and the timeout derived from it
            // applies to the runs started before it is known.
            judge.reserve_permit();
            if self.args.timeout.is_none() {
                self.oracle.set_timeout_pending();
            }
        }
        let (result, checked) = std::thread::scope(|s| {
            let check = || self.check_beside(&judge, &writer, &fresh);
            let beside = alongside.then(|| std::thread::Builder::new().spawn_scoped(s, check));
            // Without a thread for it (out of threads), the check runs first.
            let first = match beside {
                Some(Err(_)) => Some(check()),
                _ => None,
            };
            let result = self.reduce_with_progress(&judge, &reports, tree);
            let checked = match beside {
                Some(Ok(c)) => Some(c.join().unwrap_or_else(|p| std::panic::resume_unwind(p))),
                _ => first,
            };
            (result, checked)
        });
        match checked {
            Some(Err(e)) => {
                self.progress.finish();
                return Err(e);
            }
            Some(Ok(false)) => {
                self.progress.finish();
                self.progress
                    .say("interrupted during the check of the input; no output written");
                return Ok(exit::INTERRUPTED);
            }
            Some(Ok(true)) | None => {}
        }
        // The final layout step, after a finished reduction only.
        let calls_refer = result.calls_refer;
        let result = if self.args.no_format || self.interrupted.load(Ordering::SeqCst) {
            result.text
        } else {
            let phase = |p: &str| {
                self.progress
                    .update(p, self.snapshot(result.text.len(), Some(&judge)))
            };
            let (text, report) = crate::format::format(&judge, self.plan.lang, &result.text, &phase);
            let _ = self.format.set(report);
            text
        };
        let interrupted = self.interrupted.load(Ordering::SeqCst);
        // The improvements found last may still be on their way to the file.
        writer.flush();
        // Only an uninterrupted run's final answer is written unconditionally; after a
        // cancel, the output keeps the best candidate the oracle confirmed.
        if !interrupted {
            writer.finish(&result).map_err(|e| self.output_error(e))?;
            // Finished: nothing is left to resume.
            resume::remove(&self.plan.output).map_err(|e| self.output_error(e))?;
        }
        let output = self.read_output().map_err(|e| self.output_error(e))?;
        if let Some(m) = judge.missing_workers() {
            self.progress.warn(&format!(
                "--jobs {}: only {} workers could start ({}); the result is the same with fewer",
                m.jobs, m.started, m.error
            ));
        }
        if let Some(msg) = judge.last_start_error() {
            self.progress.warn(&format!(
                "{} oracle runs could not be started, the last one: {msg}",
                judge.stats().failed_to_start
            ));
        }

        let mut verify = None;
        if !interrupted && self.args.verify {
            self.progress.update(
                "verifying",
                self.snapshot(self.bytes(&output), Some(&judge)),
            );
            let report = self.oracle.run_report(&output);
            self.extra_runs.fetch_add(1, Ordering::SeqCst);
            verify = Some(report);
        }
        let interrupted = self.interrupted.load(Ordering::SeqCst);
        let verified = match &verify {
            Some(r) if !interrupted => Some(r.outcome.is_interesting()),
            _ => None,
        };
        self.progress.finish();
        let rounds = reports.records();
        let stats = self.stats_report(&judge, &output, (rounds, calls_refer), interrupted, verified);
        if let Some(path) = &self.args.stats {
            let json = serde_json::to_string_pretty(&stats)?;
            output::write_report(path, format!("{json}\n").as_bytes()).map_err(|e| {
                Fatal::new(
                    exit::OUTPUT,
                    format!("cannot write stats {}: {e}", path.display()),
                )
            })?;
        }
        if interrupted {
            self.progress.say(&format!(
                "interrupted; the best result so far ({} bytes) is in {}; continue with --resume",
                self.bytes(&output),
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

    /// Save what `--resume` needs (the timeout in effect) beside the output.
    fn save_state(&self, fresh: &resume::State) -> anyhow::Result<()> {
        let state = resume::State {
            timeout_seconds: self.oracle.timeout().map(|t| t.as_secs_f64()),
            ..fresh.clone()
        };
        resume::save(&self.plan.output, &state).map_err(|e| {
            Fatal::new(
                exit::OUTPUT,
                format!(
                    "cannot write {}: {e}",
                    resume::state_path(&self.plan.output).display()
                ),
            )
            .into()
        })
    }

    /// Run the algorithm while a ticker thread refreshes the progress display.
    fn reduce_with_progress(
        &self,
        judge: &Arc<Judge>,
        reports: &Reports,
        tree: Option<RTree>,
    ) -> Reduced {
        let done = AtomicBool::new(false);
        let fallback = match self.plan.unit {
            Some(_) if self.plan.tree.is_some() => "whole files".to_string(),
            Some(unit) => format!("ddmin ({})", unit.name()),
            None => format!(
                "{} (hoist {})",
                self.plan.algorithm.name(),
                self.plan.hoist.name()
            ),
        };
        std::thread::scope(|s| {
            // No progress display without a thread for it (out of threads).
            let ticker = std::thread::Builder::new().spawn_scoped(s, || {
                while !done.load(Ordering::SeqCst) {
                    // The algorithms name their phases; before the first one, say what runs.
                    let phase = reports.phase();
                    let phase = if phase.is_empty() { &fallback } else { &phase };
                    let found = reports.writer.found_len();
                    self.progress
                        .update(phase, self.snapshot(found, Some(judge)));
                    std::thread::park_timeout(Duration::from_millis(250));
                }
            });
            let result = self.reduce(judge, tree);
            done.store(true, Ordering::SeqCst);
            if let Ok(ticker) = ticker {
                ticker.thread().unpark();
            }
            result
        })
    }

    fn build_tree(&self) -> anyhow::Result<(RTree, Parse)> {
        let (tree, parse) =
            RTree::build_parsed(self.plan.lang, &self.start).with_context(|| {
                format!(
                    "cannot parse {} as {}",
                    self.args.input.display(),
                    self.plan.lang.name()
                )
            })?;
        if !self.resumed {
            let _ = self.input_errors.set(tree.error_count());
        }
        if tree.error_count() > 0 {
            self.progress.warn(&format!(
                "{} does not parse cleanly as {} ({} syntax errors); reducing anyway",
                self.args.input.display(),
                self.plan.lang.name(),
                tree.error_count()
            ));
        }
        Ok((tree, parse))
    }

    /// ERROR and MISSING nodes in the input's parse: the start tree's count unless resumed
    /// (the input is parsed only then, and only once).
    fn input_errors(&self) -> usize {
        *self.input_errors.get_or_init(|| {
            RTree::build(self.plan.lang, &self.input).map_or(0, |t| t.error_count())
        })
    }

    fn output_error(&self, e: io::Error) -> Fatal {
        Fatal::new(
            exit::OUTPUT,
            format!("cannot write output {}: {e}", self.plan.output.display()),
        )
    }

    /// The transformation passes: `--passes`, none with `--no-passes`, else the preset's.
    /// DDMIN keeps what kept siblings refer to (the presets do, `--no-reference-closure`
    /// turns it off; only with the fixed point).
    fn reference_closure(&self) -> bool {
        !self.args.no_reference_closure && !self.args.no_fixpoint
    }

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
            minimizer: self.plan.minimizer,
            ..defaults
        }
    }

    fn reduce(&self, judge: &Arc<Judge>, tree: Option<RTree>) -> Reduced {
        if self.plan.tree.is_some() {
            return self.reduce_files(judge);
        }
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
            return Reduced {
                text: treedd_reduce::reduce_text(&self.start, unit, judge, &ddmin),
                calls_refer: None,
            };
        };
        treedd_reduce::reduce_tree(&mut tree, judge, &self.tree_config(ddmin))
    }

    /// The tree algorithms' configuration of the flags, with `ddmin`'s options.
    fn tree_config(&self, ddmin: DdminOptions) -> TreeConfig {
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
        let mut config = TreeConfig::preset(self.plan.preset.name()).unwrap_or_default();
        config.base = base;
        config.hoist = hoist;
        config.order = self.plan.order;
        config.fixpoint = !self.args.no_fixpoint;
        config.final_text_pass = self.args.final_text_pass;
        config.ddmin = ddmin;
        config.passes = self.passes();
        config.closure = self.reference_closure();
        for alternative in &mut config.alternatives {
            alternative.closure = config.closure;
            if let Some(order) = self.args.order.filter(|_| alternative.base.is_recursive()) {
                alternative.order = order.value();
            }
        }
        let a = &self.args;
        let own = a.algorithm.is_some() || a.hoist.is_some() || a.passes.is_some() || a.no_passes;
        if own || a.no_fixpoint {
            // The preset's alternative strategies go with its own configuration only.
            config.alternatives.clear();
        }
        config
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

    /// Oracle runs the Judge does not count: the checks of the original and of a resumed
    /// output, `--verify` (`extra_runs`), and `--confirm`'s.
    fn runs_outside_judge(&self) -> u64 {
        self.extra_runs.load(Ordering::SeqCst) + self.confirm.get().map_or(0, |c| c.extra_runs())
    }

    fn snapshot(&self, size: usize, judge: Option<&Judge>) -> Snapshot {
        let stats = judge.map(Judge::stats).unwrap_or_default();
        Snapshot {
            size,
            oracle_runs: stats.oracle_runs + self.runs_outside_judge(),
            cache_hits: stats.cache_hits,
        }
    }
}
