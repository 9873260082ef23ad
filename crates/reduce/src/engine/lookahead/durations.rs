//! Recent run durations by answer: how long a run must have lasted before it is probably,
//! or very probably, interesting (the lookahead's bets on success and assumptions).

use std::collections::VecDeque;
use std::time::Duration;

/// How many recent run durations are kept per answer.
pub(super) const DURATION_WINDOW: usize = 256;

/// How many runs of each answer must have been seen before durations are trusted: for an
/// assumption, and failing runs for a bet on success too.
pub(super) const DURATION_MIN: usize = 3;

/// How many interesting runs (lasting longer than the time found) a bet on success needs. Its
/// runs only use idle workers and are killed when it is lost, and every interesting run
/// before the bets start is a stretch of one worker busy at `--jobs 2` (where interesting runs
/// take much longer than failing ones, a third interesting run would hold the bets back for a
/// large part of a short reduction).
pub(super) const WIN_MIN_INTERESTING: usize = 2;

/// Recent durations of runs that answered, by answer, and what the lookahead reads of them
/// (worked out once per run that answers: the lookahead reads them at every wake-up).
#[derive(Default)]
pub(super) struct Durations {
    interesting: Recent,
    failing: Recent,
    win_after: Option<Duration>,
    assume_after: Option<Duration>,
    median_interesting: Option<Duration>,
}

/// The last [`DURATION_WINDOW`] durations of one answer, in the order they came and sorted
/// (kept sorted as they come and go, so that a run's answer costs a pass over the window,
/// not a sort of it, since every answer updates it).
#[derive(Default)]
struct Recent {
    order: VecDeque<Duration>,
    sorted: Vec<Duration>,
}

impl Recent {
    fn push(&mut self, took: Duration) {
        if self.order.len() == DURATION_WINDOW {
            if let Some(old) = self.order.pop_front() {
                if let Ok(at) = self.sorted.binary_search(&old) {
                    self.sorted.remove(at);
                }
            }
        }
        self.order.push_back(took);
        let at = self.sorted.partition_point(|&d| d <= took);
        self.sorted.insert(at, took);
    }
}

/// Among the recent runs that lasted longer than the time of [`Durations::assume_after`],
/// at least this share was interesting.
pub(super) const ASSUME_SHARE: f64 = 0.9;

/// The time of [`Durations::assume_after`] is this many times the time found with
/// [`ASSUME_SHARE`]: the tail of the failing runs' durations is seen in few runs.
pub(super) const ASSUME_MARGIN: f64 = 1.5;

impl Durations {
    pub fn add(&mut self, took: Duration, interesting: bool) {
        if interesting {
            self.interesting.push(took);
        } else {
            self.failing.push(took);
        }
        let (interesting, failing) = (&self.interesting.sorted, &self.failing.sorted);
        self.win_after = shortest(interesting, failing, WIN_MIN_INTERESTING, |i, f| i > f);
        self.assume_after = shortest(
            interesting,
            failing,
            DURATION_MIN,
            share_holds(ASSUME_SHARE),
        )
        .map(|t| t.mul_f64(ASSUME_MARGIN));
        self.median_interesting = interesting.get(interesting.len() / 2).copied();
    }

    /// The shortest time `t` such that, among the recent runs that lasted longer than `t`,
    /// more were interesting than not (and [`WIN_MIN_INTERESTING`] at least): a run still
    /// going after `t` is more likely interesting than not. `None` until interesting runs were
    /// seen [`WIN_MIN_INTERESTING`] times and failing ones [`DURATION_MIN`] times, or when no
    /// such time exists (durations do not tell the answers apart).
    pub fn win_after(&self) -> Option<Duration> {
        self.win_after
    }

    /// How long a run must have lasted to be taken as interesting (an assumption, see
    /// `lookahead`): [`ASSUME_MARGIN`] times the shortest time after which at least
    /// [`ASSUME_SHARE`] of the recent runs that lasted longer were interesting.
    pub fn assume_after(&self) -> Option<Duration> {
        self.assume_after
    }

    /// The shortest time `t` such that, among the recent runs that lasted longer than `t`,
    /// at least `share` were interesting (and [`DURATION_MIN`] at least); `None` until both
    /// answers were seen [`DURATION_MIN`] times, or when no such time exists.
    #[cfg(test)]
    pub fn after_share(&self, share: f64) -> Option<Duration> {
        shortest(
            &self.interesting.sorted,
            &self.failing.sorted,
            DURATION_MIN,
            share_holds(share),
        )
    }

    /// The median duration of the recent interesting runs.
    pub fn median_interesting(&self) -> Option<Duration> {
        self.median_interesting
    }
}

/// At least `share` of the runs were interesting, for [`shortest`].
fn share_holds(share: f64) -> impl Fn(usize, usize) -> bool {
    move |interesting, failing| interesting as f64 >= share * (interesting + failing) as f64
}

/// The shortest time `t` after which `holds(interesting, failing)` for the numbers of recent
/// runs of each answer that lasted longer, with `min_interesting` interesting ones at least;
/// `interesting` and `failing` are the recent durations, sorted ([`DURATION_MIN`] failing
/// ones at least).
fn shortest(
    interesting: &[Duration],
    failing: &[Duration],
    min_interesting: usize,
    holds: impl Fn(usize, usize) -> bool,
) -> Option<Duration> {
    if interesting.len() < min_interesting || failing.len() < DURATION_MIN {
        return None;
    }
    // Only the observed durations (and 0) can be the shortest such time: try them from the
    // shortest up, counting the runs that lasted longer as the times pass them.
    let (mut i, mut f) = (0, 0);
    let mut t = Duration::ZERO;
    loop {
        while interesting.get(i).is_some_and(|&d| d <= t) {
            i += 1;
        }
        while failing.get(f).is_some_and(|&d| d <= t) {
            f += 1;
        }
        let (longer_i, longer_f) = (interesting.len() - i, failing.len() - f);
        if longer_i >= min_interesting && holds(longer_i, longer_f) {
            return Some(t);
        }
        t = match (interesting.get(i), failing.get(f)) {
            (Some(&a), Some(&b)) => a.min(b),
            (Some(&a), None) => a,
            // No interesting run lasted longer than `t`.
            (None, _) => return None,
        };
    }
}
