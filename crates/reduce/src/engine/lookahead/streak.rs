//! Chains of wins: when run durations do not tell answers apart (an I/O-bound oracle, a
//! sleep), the lookahead can still see that most recent answers were "interesting" (early
//! in a large reduction, or an HDD level whose nodes go one after the other). Betting that
//! candidates fail then keeps the workers busy for nothing: each win must answer before the
//! algorithm knows its next candidate. [`Streak`] keeps the recent answers the algorithm
//! used; while most of them were interesting, the algorithm's own tests are assumed
//! interesting as soon as their runs start (see *Assumptions* in `lookahead`), so up to
//! `jobs` successive wins run at once, and the speculative driver tests its sequences in
//! order on the caller's thread instead of betting on failures (`Judge::chains_wins`).
//!
//! This is the branch predictor of a processor (a history of recent outcomes decides the
//! predicted direction) with the lookahead's checkpoint and replay as the rollback: a
//! misprediction costs a replay of the unit from memoized answers and the runs started on
//! the wrong path, never a different result. It merges concurrent successes the way C-Vise
//! folds the successes of its workers ("C-Vise: super-parallel Python port of C-Reduce")
//! and shrinkray runs deletions side by side ("Shrink Ray", D. MacIver), but each merged
//! step is still the one `--jobs 1` takes.

use super::recent::Recent;

/// How many recent answers the prediction reads.
pub(super) const STREAK_WINDOW: usize = 4;

/// How many of the [`STREAK_WINDOW`] recent answers must have been "interesting" for wins to
/// be chained. A chain of `jobs` assumed wins gains over the driver's bets on failure when a
/// win is more likely than a failure; the margin above one half pays for the replays.
pub(super) const STREAK_WINS: usize = 3;

/// The recent answers the algorithm used: true where one was "interesting".
#[derive(Default)]
pub(super) struct Streak {
    recent: Recent<STREAK_WINDOW>,
}

impl Streak {
    pub fn add(&mut self, interesting: bool) {
        self.recent.add(interesting);
    }

    /// Most recent answers were "interesting" (see [`STREAK_WINS`]).
    pub fn predicts_win(&self) -> bool {
        self.recent.len() == STREAK_WINDOW && self.recent.count() >= STREAK_WINS
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wins_are_predicted_while_most_recent_answers_were_wins() {
        let mut s = Streak::default();
        for _ in 0..STREAK_WINDOW - 1 {
            s.add(true);
        }
        assert!(!s.predicts_win(), "too few answers yet");
        s.add(true);
        assert!(s.predicts_win());
        for _ in 0..STREAK_WINDOW - STREAK_WINS {
            s.add(false);
        }
        assert!(s.predicts_win());
        s.add(false);
        assert!(!s.predicts_win());
        for _ in 0..STREAK_WINS - 1 {
            s.add(true);
        }
        assert!(!s.predicts_win(), "failures still in the window");
        s.add(true);
        assert!(s.predicts_win());
    }
}
