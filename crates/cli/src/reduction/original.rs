//! The check of the original input (`--check-original N`), the default timeout derived from
//! it, and the shell recipe that reproduces the oracle's run.
//!
//! **Timeouts.** Without `--timeout`, the original runs with no timeout; the per-run timeout
//! then becomes 10 x its wall time (the slowest of the `--check-original` runs), at least 5 s
//! ([`default_timeout`]), and is announced. Once enough runs have finished, the 5 s minimum
//! gives way to the runs' own pace: 10 x the slow end of the recent runs, at least 1 s
//! ([`default_pace`], `treedd_proc::TimeoutPace`), so that candidates that hang cost little
//! with a fast oracle, while a loaded machine, slowing every run, raises it again.
//! `--timeout none` waits forever. The value set and the pace go into the state file (a
//! resumed run reuses them rather than deriving smaller ones from the reduced output); the
//! timeout in effect at the end goes into `--stats`.
//!
//! With `--jobs` above 1 (and not `--resume`) the check runs on a thread of its own while the
//! reduction starts ([`Reduction::check_alongside`]): its run holds one of the `--jobs`
//! permits (`Judge::reserve_permit` / `release_permit`), runs started before the timeout is
//! known poll for it and get it counted from their own start
//! (`CommandOracle::set_timeout_pending`), and the output writer is *held*: neither the
//! output nor the state file is written before the check passes. A check that passes reports
//! its runs' durations to the lookahead (`Judge::note_interesting_run`); one that fails
//! cancels the judge and reports exactly as without the overlap. **Invariant:** no file is
//! written and no answer is reported for an original the check has not passed.

use std::ffi::OsStr;
use std::sync::atomic::Ordering;
use std::time::Duration;

use treedd_proc::{Outcome, RunReport, TimeoutPace};
use treedd_reduce::Judge;

use super::summary::describe_outcome;
use super::Reduction;
use crate::exit::{self, Fatal};
use crate::output::BestWriter;
use crate::resume;

/// The default timeout's multiple of a run's duration (the original's, then the recent runs').
const RUN_FACTOR: u32 = 10;

/// The default per-run timeout: 10 times the original's (slowest) run, at least 5 seconds.
/// A candidate is usually smaller and faster than the original, so this only cuts runs that
/// hang; the minimum absorbs the noise of a loaded machine on very fast oracles.
pub(crate) fn default_timeout(original_run: Duration) -> Duration {
    (original_run * RUN_FACTOR).max(Duration::from_secs(5))
}

/// How the default timeout follows the runs once they show the machine's pace: 10 times the
/// slow end of the recent runs, never below `at_least` (10 times the original's run), nor
/// below one second.
pub(crate) fn default_pace(at_least: Duration) -> TimeoutPace {
    TimeoutPace {
        factor: RUN_FACTOR,
        at_least,
        minimum: Duration::from_secs(1),
    }
}

impl Reduction {
    /// Whether the original is checked alongside the reduction's first candidates: with more
    /// than one job, its run(s) take one of the `--jobs` permits while the reduction goes on
    /// with the others, betting that the original is interesting, as it nearly always is. A
    /// fresh run with one job checks first (there is no other permit), and so does `--resume`
    /// (its start is the output, checked first). Nothing is written before the check passes,
    /// and a check that fails stops the reduction and reports as it does without the bet.
    /// Checking first would leave one worker idle for the length of an interesting run.
    pub(super) fn check_alongside(&self) -> bool {
        // A directory's files each get a judge of their own (nested), which the permit of the
        // check would not reach: a directory is checked first.
        self.plan.jobs > 1 && self.plan.tree.is_none()
    }

    /// The check of [`Reduction::check_alongside`], on its own thread while the reduction
    /// runs: passed, the resume state and the output are written and the reduction gets the
    /// permit back (true); failed, the reduction is cancelled (an error); interrupted before
    /// it passed, false.
    pub(super) fn check_beside(
        &self,
        judge: &Judge,
        writer: &BestWriter,
        fresh: &resume::State,
    ) -> anyhow::Result<bool> {
        let checked = self.check_original_runs(false).and_then(|took| {
            if self.interrupted() {
                return Ok(None);
            }
            self.save_state(fresh)?;
            writer.release().map_err(|e| self.output_error(e))?;
            Ok(Some(took))
        });
        match &checked {
            Ok(Some(took)) => {
                // The check's runs were interesting: how long they took tells the lookahead
                // early how long interesting runs last (its bets on success wait for a few).
                for &t in took {
                    judge.note_interesting_run(t);
                }
                judge.release_permit();
            }
            _ => judge.cancel(),
        }
        checked.map(|took| took.is_some())
    }

    /// Run the oracle on the original (`--check-original N` times, else once): it must be
    /// interesting every time. Without `--timeout`, the default timeout is derived from these
    /// runs and announced. Returns how long the runs took, or early (leaving the interrupt to
    /// the caller) on a signal. `show`: the progress display says so (not when the reduction
    /// runs alongside).
    pub(super) fn check_original_runs(&self, show: bool) -> anyhow::Result<Vec<Duration>> {
        let n = self.plan.check_original;
        let mut slowest = Duration::ZERO;
        let mut first: Option<RunReport> = None;
        let mut differs: Option<(u32, RunReport)> = None;
        let mut took = Vec::new();
        for i in 1..=n {
            let phase = match n {
                1 => "checking the input".to_string(),
                _ => format!("checking the input (run {i} of {n})"),
            };
            if show {
                self.progress
                    .update(&phase, self.snapshot(self.bytes(&self.input), None));
            }
            let report = self.oracle.run_report(&self.input);
            self.extra_runs.fetch_add(1, Ordering::SeqCst);
            if self.interrupted() {
                return Ok(Vec::new());
            }
            if let Outcome::FailedToStart(msg) = &report.outcome {
                return Err(Fatal::new(exit::ORACLE, msg.clone()).into());
            }
            slowest = slowest.max(report.elapsed);
            took.push(report.elapsed);
            if self.plan.timeout.is_none() {
                self.oracle.set_timeout(Some(default_timeout(slowest)));
                self.oracle
                    .set_timeout_pace(Some(default_pace(slowest * RUN_FACTOR)));
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
            return Ok(took);
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
            let why = match self.plan.timeout {
                None => format!(
                    " (10 x the original's {:.2} s, at least 5 s; once 16 runs have finished, 10 x their recent pace, at least 1 s; change it with --timeout SECONDS|none)",
                    slowest.as_secs_f64()
                ),
                Some(_) => String::new(),
            };
            self.progress.note(&format!(
                "timeout per oracle run: {:.1} s{why}",
                t.as_secs_f64()
            ));
        }
        Ok(took)
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

    /// A shell command that runs the oracle on the input as treedd does (through the
    /// launcher, in a directory under `--workdir`, if given).
    fn recipe(&self) -> String {
        if let Some(tree) = &self.plan.tree {
            return self.tree_recipe(tree);
        }
        let input =
            std::path::absolute(&self.plan.input).unwrap_or_else(|_| self.plan.input.clone());
        let name = self.plan.input.file_name().unwrap_or(OsStr::new("input"));
        let (mktemp, command) = self.recipe_parts();
        format!(
            "d=$({mktemp}) && cp {} \"$d\"/{} && (cd \"$d\" && {} \"$d\"/{}); echo \"exit status $?\"",
            shell_quote(input.as_os_str()),
            shell_quote(name),
            command,
            shell_quote(name),
        )
    }

    /// The recipe's `mktemp` (in `--workdir`, if given) and the oracle's command (through the
    /// launcher, if given), quoted for the shell.
    pub(super) fn recipe_parts(&self) -> (String, String) {
        let mktemp = match &self.plan.workdir {
            Some(dir) => {
                let dir = std::path::absolute(dir).unwrap_or_else(|_| dir.clone());
                format!("mktemp -d -p {}", shell_quote(dir.as_os_str()))
            }
            None => "mktemp -d".to_string(),
        };
        let command: Vec<String> = self
            .oracle
            .launcher()
            .iter()
            .map(|a| shell_quote(a))
            .chain([shell_quote(self.oracle.program().as_os_str())])
            .collect();
        (mktemp, command.join(" "))
    }
}

/// Quote for POSIX sh: bare if safe, else single quotes.
pub(super) fn shell_quote(s: &OsStr) -> String {
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
    fn shell_quote_is_minimal_and_safe() {
        assert_eq!(shell_quote(OsStr::new("/tmp/a.c")), "/tmp/a.c");
        assert_eq!(shell_quote(OsStr::new("a b")), "'a b'");
        assert_eq!(shell_quote(OsStr::new("it's")), r"'it'\''s'");
        assert_eq!(shell_quote(OsStr::new("")), "''");
    }
}
