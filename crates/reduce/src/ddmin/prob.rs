//! The probabilistic list minimizers: ProbDD ("Probabilistic Delta Debugging", Wang et al.,
//! ESEC/FSE 2021), CDD ("Toward a Better Understanding of Probabilistic Delta Debugging",
//! Zhang et al., ICSE 2025: ProbDD's probabilities replaced by counters) and the weighted
//! variant WProbDD ("WDD: Weighted Delta Debugging", Zhou et al., ICSE 2025), with WCDD, CDD's
//! counters in WProbDD's weighted gain.
//!
//! Every element has a probability of being needed (ProbDD, WProbDD) or a counter of the
//! failed deletions it took part in (CDD, WCDD). Each step deletes the subset with the highest
//! expected gain: the elements sorted by probability (or counter), the prefix that maximizes
//! `size * prod(1 - p)` (ProbDD), `weight * prod(1 - p)` (WProbDD, WCDD), or the size CDD
//! computes from the smallest counter. If the rest is interesting the subset goes; otherwise
//! its probabilities grow by `1 / (1 - prod(1 - p))` (CDD: its counters by one). An element
//! whose deletion alone failed is kept for good (its probability becomes 1; CDD marks it), and
//! so is one whose probability reaches the termination threshold (0.8, as in Perses). The
//! minimizer ends when every element left is kept for good.
//!
//! As in the papers' reference implementation in Perses, elements of equal probability keep
//! their list order (no random shuffle), so a run is deterministic. Deleting every element
//! left is never tested (ddmin's precondition: the empty configuration is not interesting):
//! such a step counts as a failed deletion without an oracle run.
//!
//! The steps form one sequence when every test fails (the state after a failure does not
//! depend on anything else), so the speculative driver tests them as it tests ddmin's rounds:
//! the first interesting candidate of the sequence wins, and the result does not depend on
//! `jobs`.

use std::collections::HashSet;

use super::{Ahead, DdminOptions, Minimizer};

/// The probability at which an element is kept for good (Perses' termination threshold).
pub(super) const THRESHOLD: f64 = 0.8;

/// What one element knows.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Mark {
    /// ProbDD, WProbDD: the probability that the element is needed.
    Prob(f64),
    /// CDD, WCDD: failed deletions it took part in.
    Counter(u32),
    /// Kept for good: its deletion alone failed, or its probability reached the threshold.
    Kept,
}

/// One step of the sequence: a deletion tested by the oracle, or one that fails without a
/// test (it would delete everything).
#[derive(Clone, Debug)]
enum Op {
    Test(Vec<usize>),
    Untested(Vec<usize>),
}

/// The state of a probabilistic minimizer: the current configuration (ascending indices) and
/// every element's mark.
#[derive(Clone, Debug)]
pub(super) struct State<'w> {
    kind: Minimizer,
    p0: f64,
    threshold: f64,
    weights: Option<&'w [u64]>,
    config: Vec<usize>,
    marks: Vec<Mark>,
}

impl<'w> State<'w> {
    pub(super) fn new(len: usize, weights: Option<&'w [u64]>, opts: &DdminOptions) -> State<'w> {
        let mark = match opts.minimizer {
            Minimizer::Cdd | Minimizer::WCdd => Mark::Counter(0),
            _ => Mark::Prob(opts.initial_probability),
        };
        State {
            kind: opts.minimizer,
            p0: opts.initial_probability,
            threshold: THRESHOLD,
            weights,
            config: (0..len).collect(),
            marks: vec![mark; len],
        }
    }

    fn weight(&self, i: usize) -> f64 {
        self.weights.map_or(1, |w| w[i].max(1)) as f64
    }

    /// The probability CDD gives an element after `counter` failed deletions: p0 grown by
    /// `1 / (1 - 1/e)` per failure (CDD's approximation of ProbDD's update).
    fn counter_probability(&self, counter: u32) -> f64 {
        let factor = 1.0 - (-1.0f64).exp();
        (0..counter).fold(self.p0, |p, _| p / factor)
    }

    fn probability(&self, i: usize) -> f64 {
        match self.marks[i] {
            Mark::Prob(p) => p,
            Mark::Counter(c) => self.counter_probability(c),
            Mark::Kept => 1.0,
        }
    }

    /// The elements that may still go, in the order the minimizer takes them.
    fn open(&self) -> Vec<usize> {
        let mut open: Vec<usize> = self
            .config
            .iter()
            .copied()
            .filter(|&i| self.marks[i] != Mark::Kept)
            .collect();
        let key = |i: usize| -> (f64, f64) {
            match self.kind {
                // Perses' WProbDD comparator: (p - 1) * weight, then p (heavier first among
                // equal probabilities: they gain the most).
                Minimizer::WProbDD | Minimizer::WCdd => {
                    let p = self.probability(i);
                    ((p - 1.0) * self.weight(i), p)
                }
                _ => (self.probability(i), 0.0),
            }
        };
        // Stable: equal keys keep list order.
        open.sort_by(|&a, &b| {
            key(a)
                .partial_cmp(&key(b))
                .unwrap_or(std::cmp::Ordering::Equal)
        });
        open
    }

    /// The next deletion (ascending indices), or `None` when every element left is kept.
    fn next_deletion(&self) -> Option<Vec<usize>> {
        let open = self.open();
        if open.is_empty() {
            return None;
        }
        let take = match self.kind {
            Minimizer::ProbDD => {
                // The prefix after which the gain `k * prod(1 - p)` first decreases.
                let (mut last, mut product, mut k) = (0.0, 1.0, 0);
                for &i in &open {
                    product *= 1.0 - self.probability(i);
                    let gain = (k + 1) as f64 * product;
                    if last > gain {
                        break;
                    }
                    last = gain;
                    k += 1;
                }
                k.max(1)
            }
            Minimizer::WProbDD | Minimizer::WCdd => {
                // The prefix of the largest gain `weight * prod(1 - p)`.
                let (mut best, mut best_k, mut product, mut weight) = (0.0, 1, 1.0, 0.0);
                for (k, &i) in open.iter().enumerate() {
                    product *= 1.0 - self.probability(i);
                    weight += self.weight(i);
                    if weight * product > best {
                        best = weight * product;
                        best_k = k + 1;
                    }
                }
                best_k
            }
            _ => {
                let least = open
                    .iter()
                    .map(|&i| match self.marks[i] {
                        Mark::Counter(c) => c,
                        _ => 0,
                    })
                    .min()
                    .unwrap_or(0);
                self.cdd_size(least).min(open.len())
            }
        };
        let mut deletion = open[..take].to_vec();
        deletion.sort_unstable();
        Some(deletion)
    }

    /// CDD's subset size for the smallest counter `counter`: the size that maximizes
    /// `size * (1 - p)^size`, the larger one on a tie, at most the configuration's size.
    fn cdd_size(&self, counter: u32) -> usize {
        let p = self.counter_probability(counter);
        let epsilon = 1e-6;
        let (mut best, mut best_gain) = (1, 0.0);
        let mut size = 1;
        while size <= self.config.len() {
            let gain = size as f64 * (1.0 - p).powi(size as i32);
            if gain > best_gain + epsilon {
                (best, best_gain) = (size, gain);
            } else if (gain - best_gain).abs() <= epsilon {
                best = size;
            } else {
                break;
            }
            size += 1;
        }
        best
    }

    /// The configuration without `deletion` (both ascending).
    fn without(&self, deletion: &[usize]) -> Vec<usize> {
        let mut gone = deletion.iter().copied().peekable();
        self.config
            .iter()
            .copied()
            .filter(|&i| gone.next_if_eq(&i).is_none())
            .collect()
    }

    fn fail(&mut self, deletion: &[usize]) {
        match self.kind {
            Minimizer::Cdd | Minimizer::WCdd => {
                for &i in deletion {
                    self.marks[i] = match self.marks[i] {
                        Mark::Counter(c) if deletion.len() > 1 => Mark::Counter(c + 1),
                        _ => Mark::Kept,
                    };
                }
            }
            _ => {
                let product: f64 = deletion
                    .iter()
                    .map(|&i| 1.0 - self.probability(i))
                    .product();
                for &i in deletion {
                    let p = if deletion.len() == 1 {
                        1.0
                    } else {
                        self.probability(i) / (1.0 - product)
                    };
                    self.marks[i] = if p >= self.threshold {
                        Mark::Kept
                    } else {
                        Mark::Prob(p)
                    };
                }
            }
        }
    }

    fn succeed(&mut self, deletion: &[usize]) {
        self.config = self.without(deletion);
    }

    /// The next step, applied to `self` as if it failed; `None` at the end.
    fn step_failing(&mut self) -> Option<Op> {
        let deletion = self.next_deletion()?;
        let op = if deletion.len() == self.config.len() {
            Op::Untested(deletion)
        } else {
            Op::Test(deletion)
        };
        match &op {
            Op::Test(d) | Op::Untested(d) => self.fail(d),
        }
        Some(op)
    }

    /// The steps from this state while every test fails, until `tests` of them are tests or
    /// the end is reached; the state at the end of them.
    fn plan(&self, tests: usize) -> (Vec<Op>, State<'w>, bool) {
        let mut sim = self.clone();
        let mut ops = Vec::new();
        let mut planned = 0;
        while planned < tests {
            match sim.step_failing() {
                Some(op) => {
                    planned += matches!(op, Op::Test(_)) as usize;
                    ops.push(op);
                }
                None => return (ops, sim, true),
            }
        }
        let end = sim.next_deletion().is_none();
        (ops, sim, end)
    }

    /// Apply `ops` in order, all failing but the test `won` (an index among the tests), which
    /// succeeds; the ops after it are not applied.
    fn replay(&mut self, ops: &[Op], won: Option<usize>) {
        let mut test = 0;
        for op in ops {
            match op {
                Op::Untested(d) => self.fail(d),
                Op::Test(d) => {
                    if Some(test) == won {
                        self.succeed(d);
                        return;
                    }
                    self.fail(d);
                    test += 1;
                }
            }
        }
    }
}

/// The configurations the tests of `ops` test, in order.
fn tested(state: &State<'_>, ops: &[Op]) -> Vec<Vec<usize>> {
    ops.iter()
        .filter_map(|op| match op {
            Op::Test(d) => Some(state.without(d)),
            Op::Untested(_) => None,
        })
        .collect()
}

/// What a probabilistic minimizer tests from the start on `0..len`, in order, when every test
/// fails (at most `limit` configurations).
pub(super) fn all_fail_sequence(
    len: usize,
    weights: Option<&[u64]>,
    opts: &DdminOptions,
    limit: usize,
) -> Vec<Vec<usize>> {
    let state = State::new(len, weights, opts);
    let (ops, _, _) = state.plan(limit);
    tested(&state, &ops)
}

/// Minimize `0..len` with the probabilistic minimizer of `opts` (see the module docs). With
/// several jobs, the candidates of the next `4 * jobs` steps (if they all fail) are tested
/// speculatively, and bets on success go to `ahead` as ddmin's do.
pub(super) fn minimize(
    len: usize,
    weights: Option<&[u64]>,
    test: &(dyn Fn(&[usize]) -> bool + Sync),
    opts: &DdminOptions,
    ahead: Option<&dyn Ahead>,
) -> Vec<usize> {
    let stopped = || {
        opts.stop
            .as_ref()
            .is_some_and(|s| s.load(std::sync::atomic::Ordering::SeqCst))
    };
    let span = if opts.jobs > 1 { 4 * opts.jobs } else { 1 };
    let mut state = State::new(len, weights, opts);
    let mut failed: HashSet<Vec<usize>> = HashSet::new();
    let mut changed = false;
    loop {
        if stopped() {
            return state.config;
        }
        let (ops, end_state, end) = state.plan(span);
        let configs = tested(&state, &ops);
        if configs.is_empty() {
            state = end_state;
            return state.config;
        }
        if end && changed {
            if let Some(ahead) = ahead {
                ahead.rest(&end_state.config);
            }
        }
        // Bets on success: what the minimizer tests after candidate `i` wins.
        let slow = |i: usize| {
            if let Some(ahead) = ahead {
                let mut won = state.clone();
                won.replay(&ops, Some(i));
                let limit = 4 * opts.jobs + 4;
                let (next_ops, after, end) = won.plan(limit);
                let next = tested(&won, &next_ops);
                ahead.branch(&configs[i], next, end.then_some(after.config.as_slice()));
            }
        };
        let watch = ahead
            .and_then(|a| a.win_after())
            .map(|after| crate::engine::driver::Watch { after, slow: &slow });
        let jobs = match ahead {
            Some(ahead) if ahead.chains_wins() => 1,
            _ => opts.jobs,
        };
        let (first, outcomes) = crate::engine::driver::first_true_watched(
            jobs,
            configs.len(),
            &stopped,
            &|i| {
                if failed.contains(&configs[i]) {
                    return Some(false);
                }
                Some(test(&configs[i]))
            },
            watch.as_ref(),
        );
        if stopped() {
            return state.config;
        }
        for (config, outcome) in configs.iter().zip(&outcomes) {
            if *outcome == Some(false) {
                failed.insert(config.clone());
            }
        }
        match first {
            Some(i) => {
                state.replay(&ops, Some(i));
                changed = true;
                // Known failures are supersets of nothing smaller: drop them.
                failed.retain(|c| c.len() < state.config.len());
            }
            None => state = end_state,
        }
    }
}

#[cfg(test)]
mod tests;
