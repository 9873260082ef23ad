//! Bets on success (see `lookahead`): what ddmin tests after a candidate of a round
//! wins, for the lookahead's workers to test while that candidate's run is still under way.

use std::time::Duration;

use super::all_fail::Recorder;
use super::{DdminOptions, Kind, Run};

/// The judge's side of ddmin's bets on success (`session::JudgeAhead` turns configurations
/// into candidates).
pub(crate) trait Ahead: Sync {
    /// How long a test must have been under way to be probably interesting (`None`: the
    /// durations of the runs so far do not tell).
    fn win_after(&self) -> Option<Duration>;

    /// `pending`, under test now, is probably interesting: `next` is what ddmin tests after
    /// it if it is and every later test fails, in order, and `result` what ddmin then returns
    /// (`None` when `next` was cut before ddmin's end).
    fn branch(&self, pending: &[usize], next: Vec<Vec<usize>>, result: Option<&[usize]>);

    /// Every candidate ddmin has left fails, after it changed its configuration: it returns
    /// `result`, and what the caller tests then is worth announcing (the announcements made
    /// before ddmin started assumed that nothing would change).
    fn rest(&self, result: &[usize]);

    /// Wins are chained (`Judge::chains_wins`): test a round's candidates in order on one
    /// worker, each assumed interesting once its run starts, instead of betting that the
    /// earlier ones fail.
    fn chains_wins(&self) -> bool {
        false
    }
}

impl Run<'_> {
    /// What ddmin tests, in order, after the candidate `kind` of a round on `config` (split at
    /// `bounds`) wins and every later test fails: at most `limit` configurations, and the
    /// configuration ddmin then returns if the limit was not reached. ddmin itself runs from
    /// the state the win leads to, with a recording test that always fails, so the sequence
    /// follows every knob (like `all_fail_sequence`).
    pub(super) fn after_win(
        &self,
        config: &[usize],
        bounds: &[usize],
        kind: Kind,
        limit: usize,
    ) -> (Vec<Vec<usize>>, Option<Vec<usize>>) {
        let mut config = config.to_vec();
        let (bounds, offset) = match kind {
            Kind::Subset(k) => {
                config = config[bounds[k]..bounds[k + 1]].to_vec();
                (self.split(&config, self.nu), 0)
            }
            Kind::Complement(k) => self.remove(&mut config, bounds, &[k], k),
        };
        let recorder = Recorder::new(limit);
        let opts = recorder.options(&DdminOptions {
            greeddy: false,
            ..self.opts.clone()
        });
        let record = |c: &[usize]| recorder.test(c);
        let mut known = self.known.clone();
        known.shrunk_to(config.len());
        let mut sim = Run {
            test: &record,
            opts: &opts,
            nu: self.nu,
            pool: None,
            known,
            unit_prints: self.unit_prints,
            weights: self.weights,
            ahead: None,
            changed: false,
        };
        // The win shrank the configuration: with DDMIN*, another ddmin follows this one.
        let mut stopped = sim.ddmin2_from(&mut config, bounds, offset);
        if !stopped && self.opts.fixpoint {
            stopped = sim.ddmin2(&mut config);
        }
        drop(sim);
        (recorder.into_seen(), (!stopped).then_some(config))
    }
}
