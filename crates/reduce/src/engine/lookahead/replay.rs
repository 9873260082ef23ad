//! How much treedd's CPU a replay may cost (see *Assumptions* in `lookahead`). An assumption
//! saves about one interesting run's wait when it holds, and costs a replay of its unit when
//! it fails: with a share `r` of them failing, assuming pays while the replay costs less than
//! `(1 - r) / r` typical interesting runs. Duration-based assumptions aim at one failure in
//! ten ([`super::durations::ASSUME_SHARE`]: about 9 runs); chains of wins fail more often, and
//! on inputs of hundreds of kilobytes a replay rebuilds the tree and every candidate up to the
//! failure. So the bound follows the recent assumptions' outcomes.

use super::recent::Recent;

/// The most a replay may cost, in typical interesting runs of treedd's CPU: about the odds
/// of a misprediction where few fail.
pub(super) const REPLAY_FACTOR: f64 = 9.0;

/// How many recent assumptions' outcomes [`Mispredictions`] keeps, and how many it needs.
pub(super) const MISPREDICTION_WINDOW: usize = 32;
pub(super) const MISPREDICTION_MIN: usize = 8;

/// The recent assumptions' outcomes: true where one failed.
#[derive(Default)]
pub(super) struct Mispredictions {
    recent: Recent<MISPREDICTION_WINDOW>,
}

impl Mispredictions {
    pub fn add(&mut self, failed: bool) {
        self.recent.add(failed);
    }

    /// [`REPLAY_FACTOR`], or `(1 - r) / r` if smaller, for the share `r` of the recent
    /// assumptions that failed (once [`MISPREDICTION_MIN`] are known).
    pub fn replay_factor(&self) -> f64 {
        if self.recent.len() < MISPREDICTION_MIN {
            return REPLAY_FACTOR;
        }
        let failed = self.recent.count() as f64;
        let share = failed / self.recent.len() as f64;
        if share == 0.0 {
            return REPLAY_FACTOR;
        }
        ((1.0 - share) / share).min(REPLAY_FACTOR)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn outcomes(failed: usize, held: usize) -> Mispredictions {
        let mut m = Mispredictions::default();
        for f in std::iter::repeat_n(true, failed).chain(std::iter::repeat_n(false, held)) {
            m.add(f);
        }
        m
    }

    #[test]
    fn replays_are_allowed_by_how_often_assumptions_fail() {
        assert_eq!(
            outcomes(0, 0).replay_factor(),
            REPLAY_FACTOR,
            "nothing known"
        );
        let few = outcomes(3, MISPREDICTION_MIN - 4);
        assert_eq!(few.replay_factor(), REPLAY_FACTOR, "too few known");
        assert_eq!(outcomes(0, 20).replay_factor(), REPLAY_FACTOR);
        assert_eq!(
            outcomes(1, 19).replay_factor(),
            REPLAY_FACTOR,
            "at most the odds"
        );
        // Four in ten failed: a replay may cost 1.5 typical runs.
        assert!((outcomes(4, 6).replay_factor() - 1.5).abs() < 1e-9);
        assert!(outcomes(8, 2).replay_factor() < 0.3);
        // Only the last outcomes count.
        let mut m = outcomes(MISPREDICTION_WINDOW, 0);
        for _ in 0..MISPREDICTION_WINDOW {
            m.add(false);
        }
        assert_eq!(m.replay_factor(), REPLAY_FACTOR);
    }
}
