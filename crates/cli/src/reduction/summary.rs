//! What a run reports: the `--stats` report, the one-line summary, and how an oracle run's
//! outcome is described in messages.

use std::path::Path;

use treedd_proc::{Outcome, RunReport};
use treedd_reduce::Judge;

use super::{Ended, Reduction, Start};
use crate::flags::{Algorithm, Unit};
use crate::progress;
use crate::report::{self, StatsReport};

impl Reduction {
    pub(super) fn stats_report(
        &self,
        judge: &Judge,
        output: &[u8],
        start: &Start,
        ended: Ended,
    ) -> StatsReport {
        let stats = judge.stats();
        let config = &self.plan.config;
        let ddmin = &config.ddmin;
        let tree = self.plan.uses_trees();
        let input_errors = (self.plan.unit.is_none()).then(|| start.input_errors.unwrap_or(0));
        let dir = self.plan.tree.is_some();
        StatsReport {
            input: self.input_name(),
            output: self.plan.output.display().to_string(),
            language: self.language_name(),
            algorithm: self.plan.algorithm.name(),
            hoist: self.plan.hoist.name(),
            unit: self.plan.unit.map(Unit::name),
            jobs: self.plan.jobs,
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
            list_minimizer: ddmin.minimizer.name(),
            order: matches!(self.plan.algorithm, Algorithm::Hddr | Algorithm::CoarseHddr)
                .then(|| self.plan.order.name()),
            ddmin_fixpoint: ddmin.fixpoint,
            fixpoint: tree.then_some(config.fixpoint),
            final_text_pass: tree.then_some(config.final_text_pass),
            passes: tree.then(|| config.passes.iter().map(|p| p.name()).collect()),
            reference_closure: tree.then_some(config.closure),
            reference_closure_calls: ended.calls_refer,
            edit_memory: tree.then_some(config.edit_memory),
            last_round_memory: tree.then_some(config.last_round_memory),
            discarded: stats.discarded,
            killed: stats.killed,
            preempted: stats.preempted,
            assumed: stats.assumed,
            replays: stats.replays,
            mean_busy_workers: stats.busy_seconds / self.progress.elapsed().as_secs_f64().max(1e-9),
            rounds: ended.rounds,
            timeout_seconds: self.oracle.timeout().map(|t| t.as_secs_f64()),
            timeout_default: self.plan.timeout.is_none(),
            check_original: self.plan.check_original,
            confirm: self.plan.confirm,
            confirm_rejected: self.confirm.rejected(),
            resumed: start.resumed,
            cache: self.plan.cache,
            syntax_filter: self.plan.syntax_filter,
            oracle_runs: stats.oracle_runs + self.runs_outside_judge(),
            cache_hits: stats.cache_hits,
            cache_peak_entries: stats.cache_peak_entries,
            syntax_filtered: stats.syntax_filtered,
            recalled: stats.recalled,
            syntax_fresh_parses: ended.syntax.as_ref().map_or(0, |f| f.fresh_parses()),
            syntax_incremental_parses: (ended.syntax.as_ref())
                .map_or(0, |f| f.incremental_parses()),
            timeouts: stats.timeouts,
            input_bytes: self.bytes(&self.input),
            output_bytes: self.bytes(output),
            input_chars: crate::dir::chars(&self.input, dir),
            output_chars: crate::dir::chars(output, dir),
            files: self.file_stats(output),
            input_syntax_errors: input_errors,
            wall_seconds: self.progress.elapsed().as_secs_f64(),
            cpu_seconds: Some(treedd_proc::cpu_seconds()),
            peak_rss_bytes: report::peak_rss_self(),
            peak_oracle_rss_bytes: report::peak_rss_children(),
            interrupted: ended.interrupted,
            verified: ended.verified,
            format: ended.format,
            trace: self.trace.points(),
        }
    }
}

/// "exit code 1", "killed by signal 9", "timed out after 2s", ...
pub(super) fn describe_outcome(report: &RunReport) -> String {
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

pub(super) fn summary(stats: &StatsReport, output: &Path) -> String {
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
