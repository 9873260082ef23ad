//! One reduction run, from the check of the original to the summary ([`run`], a function of
//! the plan, the input and the oracle): the judge, the output writer, the signal handler and
//! the algorithm ([`reduce`], a function of the plan, the start and the judge) with a
//! progress ticker; what the judge reports goes to the CLI's observer (`observer.rs`). The check of the
//! original and the default timeout are in `original.rs`, the resume flow in `resuming.rs`,
//! the `--stats` report and the summary line in `summary.rs`, what differs for a directory
//! input in `files.rs`.
//!
//! **Cancellation.** The reduction's `CancelToken` exists from the start; the judge is built
//! with it, after the checks of the original or of a resumed output. The signal thread raises
//! the token (the stop flag that ddmin and every tree loop read, and the checks' interrupt)
//! and calls `CommandOracle::cancel` (kills every running group): runs return `Cancelled`,
//! the checks and the algorithms unwind, and the CLI exits 130 leaving the best file in
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
use std::sync::Arc;
use std::time::Duration;

use anyhow::Context;
use treedd_proc::{CommandOracle, Oracle};
use treedd_reduce::{CancelToken, Confirm, DdminOptions, Filter, Judge, JudgeOptions, Reduced};
use treedd_tree::{Parse, RTree, SyntaxFilter};

use self::observer::Reports;
use self::summary::{describe_outcome, summary};
use crate::exit::{self, Fatal};
use crate::output::{self, BestWriter};
use crate::plan::Plan;
use crate::progress::{Progress, Snapshot};
use crate::resume;
use crate::trace::Trace;

/// Run the reduction `plan` describes on `input` (the file's bytes, or the encoded tree of
/// files) with `oracle`; returns the exit code.
pub(crate) fn run(plan: Plan, input: Vec<u8>, oracle: Arc<CommandOracle>) -> anyhow::Result<u8> {
    Reduction::new(plan, input, oracle).run()
}

/// What the steps of one run share: the plan, the input and the oracle, and what reports on
/// them (progress, the runs outside the judge, the trace).
struct Reduction {
    plan: Plan,
    input: Vec<u8>,
    oracle: Arc<CommandOracle>,
    /// `--confirm` (a pass-through without it); counts its own extra runs.
    confirm: Arc<Confirm<Arc<CommandOracle>>>,
    progress: Progress,
    /// Raised by the signal handler; stops the checks, and the judge built with it.
    interrupt: CancelToken,
    /// Oracle runs done outside the Judge (original check, --verify).
    extra_runs: Arc<AtomicU64>,
    /// Size at every improvement, for `--stats`.
    trace: Arc<Trace>,
}

/// What the reduction starts from, and what [`Reduction::stats_report`] says of it.
struct Start {
    /// The input, or the output file with `--resume`.
    text: Vec<u8>,
    resumed: bool,
    /// ERROR and MISSING nodes in the input's parse (tree languages).
    input_errors: Option<usize>,
}

/// What a finished (or interrupted) reduction tells `--stats` beyond the judge's counts.
struct Ended {
    rounds: Vec<treedd_reduce::PassRecord>,
    calls_refer: Option<bool>,
    syntax: Option<Arc<SyntaxFilter>>,
    format: Option<crate::format::Report>,
    interrupted: bool,
    verified: Option<bool>,
}

impl Reduction {
    fn new(plan: Plan, input: Vec<u8>, oracle: Arc<CommandOracle>) -> Reduction {
        let progress = Progress::new(plan.quiet, crate::dir::bytes(&input, plan.tree.is_some()));
        let confirm = Arc::new(Confirm::new(Arc::clone(&oracle), plan.confirm));
        Reduction {
            plan,
            input,
            oracle,
            confirm,
            progress,
            interrupt: CancelToken::new(),
            extra_runs: Arc::default(),
            trace: Arc::new(Trace::new()),
        }
    }

    fn interrupted(&self) -> bool {
        self.interrupt.is_cancelled()
    }

    fn run(self) -> anyhow::Result<u8> {
        self.install_signal_handler()?;
        let fresh = self.fresh_state();
        let resumed = if self.plan.resume {
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
        let from_output = resumed.is_some();
        // Whether the original is checked alongside the first candidates (`check_alongside`).
        let (start, alongside) = match resumed {
            Some(start) => (start, false),
            None => {
                let alongside = self.check_alongside();
                if !alongside {
                    self.check_original_runs(true)?;
                }
                (self.input.clone(), alongside)
            }
        };
        let mut start = Start {
            text: start,
            resumed: from_output,
            input_errors: None,
        };
        if self.interrupted() {
            self.progress.finish();
            self.progress
                .say("interrupted before the reduction started; no output written");
            return Ok(exit::INTERRUPTED);
        }

        // The tree (and its syntax errors) before anything is written.
        let (tree, parse) = match self.plan.unit {
            Some(_) => (None, None),
            None => {
                let (tree, parse) = self.build_tree(&mut start)?;
                (Some(tree), Some(parse))
            }
        };
        let mode = fs::metadata(&self.plan.input).ok().map(|m| m.permissions());
        let writer = if alongside {
            // Nothing is written before the original is known to be interesting.
            BestWriter::held(&self.plan.output, &start.text, mode)
        } else if self.plan.tree.is_some() {
            self.save_state(&fresh)?;
            BestWriter::create_tree(&self.plan.output, &start.text)
        } else {
            self.save_state(&fresh)?;
            BestWriter::create(&self.plan.output, &start.text, mode)
        };
        let writer = Arc::new(writer.map_err(|e| self.output_error(e))?);
        // The syntax filter parses candidates against the current best text's tree.
        let syntax: Option<Arc<SyntaxFilter>> = match (&tree, parse) {
            (Some(tree), Some(parse)) if self.plan.syntax_filter => {
                // Resumed: as many errors as the original input had, as in the first run.
                let allowed = tree.error_count().max(start.input_errors.unwrap_or(0));
                let filter = SyntaxFilter::for_input(self.plan.lang, &self.input, allowed);
                // The tree's own parse of the start: not parsed again.
                filter.rebase_parsed(&start.text, parse);
                Some(Arc::new(filter))
            }
            _ => None,
        };
        let filter: Option<Filter> = syntax.clone().map(|syntax| -> Filter {
            Box::new(move |candidate: &[u8]| syntax.accepts(candidate))
        });
        let reports = Arc::new(Reports::new(
            Arc::clone(&writer),
            syntax.clone(),
            Arc::clone(&self.trace),
            Arc::clone(&self.extra_runs),
            self.plan.tree.is_some(),
        ));
        let judge = Arc::new(Judge::new(
            Box::new(Arc::clone(&self.confirm)),
            JudgeOptions {
                cache: self.plan.cache,
                filter,
                observer: Some(Arc::clone(&reports) as Arc<dyn treedd_reduce::Observer>),
                cancel: Some(self.interrupt.clone()),
            },
        ));

        if alongside {
            // The check's run holds one of the --jobs permits, and the timeout derived from it
            // applies to the runs started before it is known.
            judge.reserve_permit();
            if self.plan.timeout.is_none() {
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
            let result = self.reduce_with_progress(&judge, &reports, &start.text, tree);
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
        let mut format = None;
        let result = if !self.plan.format || self.interrupted() {
            result.text
        } else {
            let phase = |p: &str| {
                self.progress
                    .update(p, self.snapshot(result.text.len(), Some(&judge)))
            };
            let (text, report) =
                crate::format::format(&judge, self.plan.lang, &result.text, &phase);
            format = Some(report);
            text
        };
        let interrupted = self.interrupted();
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
        if !interrupted && self.plan.verify {
            self.progress.update(
                "verifying",
                self.snapshot(self.bytes(&output), Some(&judge)),
            );
            let report = self.oracle.run_report(&output);
            self.extra_runs.fetch_add(1, Ordering::SeqCst);
            verify = Some(report);
        }
        let interrupted = self.interrupted();
        let verified = match &verify {
            Some(r) if !interrupted => Some(r.outcome.is_interesting()),
            _ => None,
        };
        self.progress.finish();
        let ended = Ended {
            rounds: reports.records(),
            calls_refer,
            syntax,
            format,
            interrupted,
            verified,
        };
        let stats = self.stats_report(&judge, &output, &start, ended);
        if let Some(path) = &self.plan.stats {
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

    /// Save what `--resume` needs (the timeout set and its pace) beside the output.
    fn save_state(&self, fresh: &resume::State) -> anyhow::Result<()> {
        let state = resume::State {
            timeout_seconds: self.oracle.timeout_set().map(|t| t.as_secs_f64()),
            timeout_pace_seconds: self.oracle.timeout_pace().map(|p| p.at_least.as_secs_f64()),
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
        start: &[u8],
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
            let result = reduce(&self.plan, start, &self.input, tree, judge);
            done.store(true, Ordering::SeqCst);
            if let Ok(ticker) = ticker {
                ticker.thread().unpark();
            }
            result
        })
    }

    /// The tree of the start, and the input's syntax errors: the start tree's unless resumed
    /// (the input is parsed only then).
    fn build_tree(&self, start: &mut Start) -> anyhow::Result<(RTree, Parse)> {
        let (tree, parse) =
            RTree::build_parsed(self.plan.lang, &start.text).with_context(|| {
                format!(
                    "cannot parse {} as {}",
                    self.plan.input.display(),
                    self.plan.lang.name()
                )
            })?;
        start.input_errors = Some(match start.resumed {
            false => tree.error_count(),
            true => RTree::build(self.plan.lang, &self.input).map_or(0, |t| t.error_count()),
        });
        if tree.error_count() > 0 {
            self.progress.warn(&format!(
                "{} does not parse cleanly as {} ({} syntax errors); reducing anyway",
                self.plan.input.display(),
                self.plan.lang.name(),
                tree.error_count()
            ));
        }
        Ok((tree, parse))
    }

    fn output_error(&self, e: io::Error) -> Fatal {
        Fatal::new(
            exit::OUTPUT,
            format!("cannot write output {}: {e}", self.plan.output.display()),
        )
    }

    /// SIGINT/SIGTERM: the first one cancels the running oracles (the reduction then unwinds
    /// with the best result in place); a second one exits at once.
    fn install_signal_handler(&self) -> anyhow::Result<()> {
        use signal_hook::consts::{SIGINT, SIGTERM};
        let mut signals = signal_hook::iterator::Signals::new([SIGINT, SIGTERM])
            .context("cannot install the signal handler")?;
        let oracle = Arc::clone(&self.oracle);
        let interrupt = self.interrupt.clone();
        let count = AtomicUsize::new(0);
        std::thread::spawn(move || {
            for _ in signals.forever() {
                // The token first: a check whose run the cancel cuts short sees it raised.
                interrupt.cancel();
                oracle.cancel();
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
        self.extra_runs.load(Ordering::SeqCst) + self.confirm.extra_runs()
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

/// Run the algorithm of `plan` from `start` (`input` is the original: a file of a directory may
/// keep as many syntax errors as it had there) with `judge`; `tree` is the start's tree when
/// the tree algorithms reduce a file.
fn reduce(
    plan: &Plan,
    start: &[u8],
    input: &[u8],
    tree: Option<RTree>,
    judge: &Arc<Judge>,
) -> Reduced {
    let ddmin = DdminOptions {
        stop: Some(judge.stop_flag()),
        ..plan.config.ddmin.clone()
    };
    if plan.tree.is_some() {
        let config = treedd_reduce::FilesConfig {
            tree: treedd_reduce::TreeConfig {
                ddmin,
                ..plan.config.clone()
            },
            text: plan.text_unit(),
            text_only: plan.algorithm == crate::flags::Algorithm::Ddmin,
            syntax_filter: plan.syntax_filter,
        };
        return treedd_reduce::reduce_files(judge, start, input, &config);
    }
    let Some(mut tree) = tree else {
        return Reduced {
            text: treedd_reduce::reduce_text(start, plan.text_unit(), judge, &ddmin),
            calls_refer: None,
        };
    };
    let config = treedd_reduce::TreeConfig {
        ddmin,
        ..plan.config.clone()
    };
    treedd_reduce::reduce_tree(&mut tree, judge, &config)
}
