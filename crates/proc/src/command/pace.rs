//! A default timeout that follows the pace of the runs ([`TimeoutPace`]).
//!
//! A timeout derived from one run of the original needs a generous minimum: on a loaded
//! machine a 0.1 s oracle may take a second. But every run that hangs (an interpreter's
//! candidate that loops once the crash is gone, a compiler that blows up on a candidate)
//! costs the whole timeout, and with a fast oracle such runs can take most of a reduction's
//! wall time. Once enough runs have finished, their durations show how fast a run is on this
//! machine at this moment, so the minimum can follow them: a multiple of the slow end of the
//! recent runs, which rises with the machine's load as every run slows down together.

use std::collections::VecDeque;
use std::time::Duration;

/// How many finished runs the pace needs before it replaces the fixed minimum.
const FIRST_RUNS: usize = 16;
/// How many of the most recent finished runs the pace looks at.
const WINDOW: usize = 32;

/// A lower bound of the timeout that follows the runs: until [`FIRST_RUNS`] runs have
/// finished (interesting or not; not timed out, cancelled or unstarted), the timeout stays
/// what `CommandOracle::set_timeout` set; after, a run's timeout is the largest of
/// `at_least`, `minimum`, and `factor` times the 90th percentile of the last [`WINDOW`]
/// finished runs' durations.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TimeoutPace {
    /// The timeout's multiple of a recent run's duration (the CLI's, as of the original's).
    pub factor: u32,
    /// Never below this (the CLI's multiple of the original's run).
    pub at_least: Duration,
    /// Never below this either, however fast the runs (process start-up noise).
    pub minimum: Duration,
}

/// The durations of the recent finished runs and the pace derived from them.
#[derive(Debug, Default)]
pub(super) struct Pace {
    pace: Option<TimeoutPace>,
    /// At most [`WINDOW`]; it holds [`FIRST_RUNS`] once that many runs have finished.
    recent: VecDeque<Duration>,
}

const _: () = assert!(FIRST_RUNS <= WINDOW);

impl Pace {
    pub(super) fn set(&mut self, pace: Option<TimeoutPace>) {
        self.pace = pace;
    }

    pub(super) fn get(&self) -> Option<TimeoutPace> {
        self.pace
    }

    /// One finished run took `took`.
    pub(super) fn note(&mut self, took: Duration) {
        if self.recent.len() == WINDOW {
            self.recent.pop_front();
        }
        self.recent.push_back(took);
    }

    /// The timeout of a run starting now, given the one set (`None`: wait forever, which
    /// the pace does not change).
    pub(super) fn timeout(&self, set: Option<Duration>) -> Option<Duration> {
        let (Some(set), Some(pace)) = (set, self.pace) else {
            return set;
        };
        if self.recent.len() < FIRST_RUNS {
            return Some(set);
        }
        let mut sorted: Vec<Duration> = self.recent.iter().copied().collect();
        sorted.sort_unstable();
        let p90 = sorted[(sorted.len() * 9).div_ceil(10) - 1];
        Some(pace.at_least.max(pace.minimum).max(p90 * pace.factor))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    fn paced() -> Pace {
        let mut p = Pace::default();
        p.set(Some(TimeoutPace {
            factor: 10,
            at_least: ms(800),
            minimum: ms(1000),
        }));
        p
    }

    #[test]
    fn the_set_timeout_holds_until_enough_runs_finished() {
        let mut p = paced();
        for _ in 0..FIRST_RUNS - 1 {
            p.note(ms(80));
        }
        assert_eq!(p.timeout(Some(ms(5000))), Some(ms(5000)));
        p.note(ms(80));
        assert_eq!(p.timeout(Some(ms(5000))), Some(ms(1000)));
    }

    #[test]
    fn slow_recent_runs_raise_it_and_old_ones_are_forgotten() {
        let mut p = paced();
        for _ in 0..WINDOW {
            p.note(ms(80));
        }
        // Four slow runs of 32 are more than a tenth: the 90th percentile is one of them.
        for _ in 0..4 {
            p.note(ms(700));
        }
        assert_eq!(p.timeout(Some(ms(5000))), Some(ms(7000)));
        // Above the set timeout too: a loaded machine slows every run down.
        for _ in 0..WINDOW {
            p.note(ms(900));
        }
        assert_eq!(p.timeout(Some(ms(5000))), Some(ms(9000)));
        for _ in 0..WINDOW {
            p.note(ms(10));
        }
        assert_eq!(p.timeout(Some(ms(5000))), Some(ms(1000)));
    }

    #[test]
    fn without_a_pace_or_a_timeout_nothing_changes() {
        let mut p = Pace::default();
        for _ in 0..WINDOW {
            p.note(ms(10));
        }
        assert_eq!(p.timeout(Some(ms(5000))), Some(ms(5000)));
        let mut p = paced();
        for _ in 0..WINDOW {
            p.note(ms(10));
        }
        assert_eq!(p.timeout(None), None);
    }
}
