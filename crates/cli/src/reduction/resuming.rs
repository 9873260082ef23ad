//! `--resume`: continue an unfinished reduction from its output file, and the options a
//! state file records (see `crate::resume` for the file itself).

use std::sync::atomic::Ordering;
use std::time::Duration;

use super::original::default_pace;
use super::summary::describe_outcome;
use super::Reduction;
use crate::exit::{self, Fatal};
use crate::flags::{Timeout, Unit};
use crate::resume;

impl Reduction {
    /// `--resume`: the text to start from (the output file, still interesting), or `None` to
    /// start from the input because there is nothing to resume.
    pub(super) fn resume_from(&self, fresh: &resume::State) -> anyhow::Result<Option<Vec<u8>>> {
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
        let Ok(best) = self.read_output() else {
            self.progress.note(&format!(
                "--resume: {out} is missing; starting from the input"
            ));
            return Ok(None);
        };
        self.oracle
            .set_timeout(state.timeout_seconds.map(Duration::from_secs_f64));
        self.oracle.set_timeout_pace(
            state
                .timeout_pace_seconds
                .map(|s| default_pace(Duration::from_secs_f64(s))),
        );
        self.progress.update(
            "checking the output to resume",
            self.snapshot(self.bytes(&best), None),
        );
        let report = self.oracle.run_report(&best);
        self.extra_runs.fetch_add(1, Ordering::SeqCst);
        if self.interrupted() {
            return Ok(None);
        }
        if !report.outcome.is_interesting() {
            self.progress.warn(&format!(
                "--resume: the oracle no longer finds {out} interesting ({}); starting from the input",
                describe_outcome(&report)
            ));
            // Back to what a fresh run starts with (`check_original_runs` derives the default).
            self.oracle.set_timeout(match self.plan.timeout {
                Some(Timeout::Seconds(s)) => Some(Duration::from_secs_f64(s)),
                Some(Timeout::None) | None => None,
            });
            self.oracle.set_timeout_pace(None);
            return Ok(None);
        }
        self.progress.note(&format!(
            "resuming from {out} ({} of {} bytes)",
            self.bytes(&best),
            self.bytes(&self.input)
        ));
        Ok(Some(best))
    }

    /// The options that shape the result, recorded for `--resume`.
    pub(super) fn settings(&self) -> serde_json::Value {
        let config = &self.plan.config;
        let d = &config.ddmin;
        serde_json::json!({
            "oracle": self.oracle.program().display().to_string(),
            "language": self.language_name(),
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
            "list_minimizer": d.minimizer.name(),
            "order": self.plan.order.name(),
            "fixpoint": config.fixpoint,
            "final_text_pass": config.final_text_pass,
            "passes": config.passes.iter().map(|p| p.name()).collect::<Vec<_>>(),
            "reference_closure": config.closure,
            "edit_memory": config.edit_memory,
            "last_round_memory": config.last_round_memory,
            "cache": self.plan.cache,
            "syntax_filter": self.plan.syntax_filter,
            "timeout": match self.plan.timeout {
                None => serde_json::json!("default"),
                Some(Timeout::None) => serde_json::json!("none"),
                Some(Timeout::Seconds(s)) => serde_json::json!(s),
            },
            "confirm": self.plan.confirm,
        })
    }
}
