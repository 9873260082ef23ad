//! The minimizing Delta Debugging algorithm and its variants.
//!
//! One implementation covers every knob of the papers:
//! - `ddmin^nu` with split factor nu (Split factor, Algorithm 3); nu = |c| (`usize::MAX`) is onemin
//!   when subset tests are off;
//! - "reduce to subset" on/off, "reduce to complement" on/off, complements forward or
//!   backward, subsets first or complements first (Practical improvements, Sections 3.2-3.3);
//! - the fixed point DDMIN* (dissertation, ch. 5);
//! - parallel tests, *stabilized* (dissertation, ch. 6): the candidates of a round form one sequence in
//!   syntactic order (Practical improvements, Algorithm 4, "combined"), followed, with several jobs, by those of the
//!   finer rounds that come next if it finds nothing; the speculative driver tests them and the
//!   candidate chosen is always the first interesting one of the sequence, so the result does
//!   not depend on `jobs`;
//! - GreeDDy (dissertation, fig. 6.2): when a testing window holds several interesting complements,
//!   their combination is tried first, then the first one is combined with the others one by
//!   one.
//!
//! A configuration is a sorted list of indices into the input units. After a successful
//! complement test the remaining subsets are kept as they were ("reduce the granularity by one
//! in order to keep the existing splitting") and the next round starts by removing the subset
//! after the one just removed (Picire's rotation); increasing the granularity re-splits the
//! whole configuration into `min(|c|, nu * n)` parts with Zeller's split. With these choices
//! the test counts of Practical improvements' Table 3(a) are reproduced exactly (see the tests).
//!
//! Configurations whose outcome is already known (tested earlier in this call: the
//! complements of a 2-split, the subsets surviving a complement step, the last round of a
//! DDMIN* iteration, the interesting candidates of a window that were not chosen) are never
//! tested again; since every later candidate is smaller than the current configuration, that
//! memo drops entries as the configuration shrinks. The empty configuration is never tested
//! (the papers' precondition is `test(empty) = pass`).
//!
//! The files: this one holds the options, the entry points and the rounds on the
//! speculative driver; `greeddy.rs` GreeDDy's windows; `parts.rs` a round's subsets, Zeller's
//! split, the set fingerprints and the known outcomes; `all_fail.rs` the sequence ddmin tests
//! when every test fails (for the lookahead); `branch.rs` what it tests after a given
//! candidate wins (bets on success, [`Ahead`]); `tests.rs` the unit tests.

mod all_fail;
mod branch;
mod greeddy;
mod parts;
mod prob;
#[cfg(test)]
mod tests;

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

pub(crate) use self::all_fail::all_fail_sequence;
pub(crate) use self::branch::Ahead;
use self::greeddy::thread_pool;
use self::parts::{split, split_weighted, unit_print, Known, Parts};

/// The list minimizer every algorithm uses on its lists (tree nodes, text units, the passes'
/// units).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Minimizer {
    /// ddmin with every knob of [`DdminOptions`].
    Ddmin,
    /// Wddmin ("WDD: Weighted Delta Debugging", ICSE 2025): ddmin whose subsets weigh about
    /// the same (in tokens, or non-whitespace characters of text) instead of holding about
    /// as many elements.
    Wddmin,
    /// ProbDD ("Probabilistic Delta Debugging", ESEC/FSE 2021); see `prob.rs`.
    ProbDD,
    /// WProbDD ("WDD: Weighted Delta Debugging"): ProbDD whose gain counts weight.
    WProbDD,
    /// CDD ("Toward a Better Understanding of Probabilistic Delta Debugging", ICSE 2025):
    /// ProbDD with counters.
    Cdd,
    /// CDD's counters in WProbDD's weighted gain.
    WCdd,
}

impl Minimizer {
    /// Every minimizer, in the order of [`Minimizer::name`]'s table.
    pub const ALL: [Minimizer; 6] = [
        Minimizer::Ddmin,
        Minimizer::Wddmin,
        Minimizer::ProbDD,
        Minimizer::WProbDD,
        Minimizer::Cdd,
        Minimizer::WCdd,
    ];

    /// The name the command line and `--stats` use.
    pub fn name(self) -> &'static str {
        match self {
            Minimizer::Ddmin => "ddmin",
            Minimizer::Wddmin => "wddmin",
            Minimizer::ProbDD => "probdd",
            Minimizer::WProbDD => "wprobdd",
            Minimizer::Cdd => "cdd",
            Minimizer::WCdd => "wcdd",
        }
    }

    /// The minimizer named `name` (case-insensitive).
    pub fn from_name(name: &str) -> Option<Minimizer> {
        Minimizer::ALL
            .into_iter()
            .find(|m| m.name().eq_ignore_ascii_case(name.trim()))
    }

    /// ProbDD, WProbDD, CDD or WCDD (the subset, complement and GreeDDy knobs are ddmin's).
    pub fn is_probabilistic(self) -> bool {
        !matches!(self, Minimizer::Ddmin | Minimizer::Wddmin)
    }

    /// Wddmin, WProbDD or WCDD: the minimizer reads the elements' weights.
    pub fn is_weighted(self) -> bool {
        matches!(
            self,
            Minimizer::Wddmin | Minimizer::WProbDD | Minimizer::WCdd
        )
    }
}

/// Order of complement tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ComplementOrder {
    Forward,
    Backward,
}

/// Every knob of ddmin from the papers.
#[derive(Clone, Debug)]
pub struct DdminOptions {
    /// Split factor nu (>= 2); `usize::MAX` means |c| (onemin).
    pub split_factor: usize,
    /// Run "reduce to subset" tests.
    pub subsets: bool,
    /// Run "reduce to complement" tests. (1-minimality of the result needs them.)
    pub complements: bool,
    pub complement_order: ComplementOrder,
    /// Complements before subsets (the papers' "complements first").
    pub complements_first: bool,
    /// Iterate to the fixed point (DDMIN*).
    pub fixpoint: bool,
    /// GreeDDy (dissertation fig. 6.2).
    pub greeddy: bool,
    /// Size of GreeDDy's testing window |T| (the dissertation uses 4). It is deliberately
    /// independent of `jobs`, so GreeDDy gives the same result for every number of jobs.
    pub greeddy_window: usize,
    /// Parallel tests per round (stabilized: result independent of jobs).
    pub jobs: usize,
    /// When this flag becomes true, ddmin returns the current (interesting) configuration
    /// before starting any further test. `Judge::stop_flag` gives the judge's cancel flag.
    pub stop: Option<Arc<AtomicBool>>,
    /// The list minimizer ([`Minimizer::Ddmin`] uses every knob above; the probabilistic ones
    /// use `jobs`, `fixpoint`, `stop` and `initial_probability`).
    pub minimizer: Minimizer,
    /// The probabilistic minimizers' initial probability that an element is needed (0.1 in
    /// the ProbDD paper).
    pub initial_probability: f64,
}

impl Default for DdminOptions {
    fn default() -> Self {
        DdminOptions {
            split_factor: 2,
            subsets: true,
            complements: true,
            complement_order: ComplementOrder::Forward,
            complements_first: false,
            fixpoint: false,
            greeddy: false,
            greeddy_window: 4,
            jobs: 1,
            stop: None,
            minimizer: Minimizer::Ddmin,
            initial_probability: 0.1,
        }
    }
}

/// Minimize `units` under `test` (true = interesting). `test(units)` is assumed true.
/// `test` may be called from several threads at once when `opts.jobs > 1`.
pub fn ddmin<T: Clone + Send + Sync>(
    units: &[T],
    test: &(dyn Fn(&[T]) -> bool + Sync),
    opts: &DdminOptions,
) -> Vec<T> {
    let select = |idx: &[usize]| idx.iter().map(|&i| units[i].clone()).collect::<Vec<T>>();
    let test_indices = |idx: &[usize]| test(&select(idx));
    select(&ddmin_indices(units.len(), &test_indices, opts))
}

/// ddmin over the indices `0..len`: `test` receives a sorted list of the indices kept and the
/// result is such a list. Useful when building a candidate from indices is cheaper than
/// cloning units (e.g. tree nodes).
pub fn ddmin_indices(
    len: usize,
    test: &(dyn Fn(&[usize]) -> bool + Sync),
    opts: &DdminOptions,
) -> Vec<usize> {
    ddmin_indices_ahead(len, None, test, opts, None)
}

/// [`ddmin_indices`] with the element weights `weights` (for the weighted minimizers; `None`:
/// every element weighs 1) that also bets on success through `ahead` (see [`Ahead`]): the
/// same result, sooner when interesting tests take longer than failing ones. Runs the list
/// minimizer of `opts`.
pub(crate) fn ddmin_indices_ahead(
    len: usize,
    weights: Option<&[u64]>,
    test: &(dyn Fn(&[usize]) -> bool + Sync),
    opts: &DdminOptions,
    ahead: Option<&dyn Ahead>,
) -> Vec<usize> {
    let jobs = opts.jobs.max(1);
    let ahead = ahead.filter(|_| jobs > 1);
    if opts.minimizer.is_probabilistic() {
        let mut config: Vec<usize> = (0..len).collect();
        loop {
            let kept = prob::minimize(
                config.len(),
                weights,
                &|c| test(&c.iter().map(|&i| config[i]).collect::<Vec<_>>()),
                opts,
                ahead.filter(|_| config.len() == len),
            );
            let kept: Vec<usize> = kept.into_iter().map(|i| config[i]).collect();
            let stopped = opts.stop.as_ref().is_some_and(|s| s.load(Ordering::SeqCst));
            if stopped || !opts.fixpoint || kept.len() == config.len() {
                return kept;
            }
            config = kept;
        }
    }
    let pool = if jobs > 1 { thread_pool(jobs) } else { None };
    let unit_prints: Vec<u128> = (0..len).map(unit_print).collect();
    let weights = weights.filter(|_| opts.minimizer == Minimizer::Wddmin);
    let mut run = Run {
        test,
        opts,
        nu: opts.split_factor.max(2),
        pool,
        known: Known::default(),
        unit_prints: &unit_prints,
        weights,
        ahead,
        changed: false,
    };
    let mut config: Vec<usize> = (0..len).collect();
    loop {
        let before = config.len();
        let stopped = run.ddmin2(&mut config);
        if stopped || !opts.fixpoint || config.len() == before {
            return config;
        }
    }
}

/// A candidate of one round: the configuration it stands for and where it came from.
struct Candidate {
    kind: Kind,
    print: u128,
    size: usize,
    /// Known to be interesting from an earlier window: not tested again (and `config` empty).
    known_interesting: bool,
    config: Vec<usize>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    /// Keep only subset i.
    Subset(usize),
    /// Remove subset i.
    Complement(usize),
}

/// What one round decided.
enum Step {
    /// Reduce to subset i.
    Subset(usize),
    /// Remove these subsets (ascending; one unless GreeDDy combined several); `first` is the
    /// one found first.
    Remove { removed: Vec<usize>, first: usize },
    /// Nothing interesting at this granularity.
    Nothing,
    /// The stop flag was raised.
    Stopped,
}

struct Run<'a> {
    test: &'a (dyn Fn(&[usize]) -> bool + Sync),
    opts: &'a DdminOptions,
    nu: usize,
    pool: Option<Arc<rayon::ThreadPool>>,
    known: Known,
    /// `unit_print` of every unit.
    unit_prints: &'a [u128],
    /// Every unit's weight, with Wddmin (subsets of about equal weight).
    weights: Option<&'a [u64]>,
    /// Bets on success (only with several jobs).
    ahead: Option<&'a dyn Ahead>,
    /// A round of this run was won: the configuration is not the one ddmin started with.
    changed: bool,
}

impl Run<'_> {
    fn stopped(&self) -> bool {
        self.opts
            .stop
            .as_ref()
            .is_some_and(|s| s.load(Ordering::SeqCst))
    }

    /// One execution of ddmin on `config` (in place). Returns true if stopped.
    fn ddmin2(&mut self, config: &mut Vec<usize>) -> bool {
        let bounds = self.split(config, self.nu);
        self.ddmin2_from(config, bounds, 0)
    }

    /// Boundaries of `min(|config|, n)` subsets of `config`: Zeller's split, or with Wddmin
    /// subsets of about equal weight.
    fn split(&self, config: &[usize], n: usize) -> Vec<usize> {
        match self.weights {
            Some(w) => split_weighted(config, w, n),
            None => split(config.len(), n),
        }
    }

    /// [`Run::ddmin2`] from the subsets `bounds` with the rotation `offset` (where the next
    /// complement round starts, see `order`).
    fn ddmin2_from(
        &mut self,
        config: &mut Vec<usize>,
        mut bounds: Vec<usize>,
        mut offset: usize,
    ) -> bool {
        while config.len() >= 2 {
            let step = if self.opts.greeddy {
                self.round(config, &bounds, offset)
            } else {
                self.rounds_speculative(config, &mut bounds, &mut offset)
            };
            match step {
                Step::Stopped => return true,
                Step::Subset(i) => {
                    self.changed = true;
                    let kept = config[bounds[i]..bounds[i + 1]].to_vec();
                    *config = kept;
                    bounds = self.split(config, self.nu);
                    offset = 0;
                    self.known.shrunk_to(config.len());
                }
                Step::Remove { removed, first } => {
                    self.changed = true;
                    (bounds, offset) = self.remove(config, &bounds, &removed, first);
                    self.known.shrunk_to(config.len());
                }
                Step::Nothing => match self.finer(config, &bounds, offset) {
                    Some((finer, rotated)) => (bounds, offset) = (finer, rotated),
                    None => break,
                },
            }
        }
        false
    }

    /// Remove the subsets `removed` (ascending; `first` found first) of `config` split at
    /// `bounds`: the subsets and rotation of the next round.
    fn remove(
        &self,
        config: &mut Vec<usize>,
        bounds: &[usize],
        removed: &[usize],
        first: usize,
    ) -> (Vec<usize>, usize) {
        let n = bounds.len() - 1;
        let mut kept = Vec::with_capacity(config.len());
        let mut new_bounds = vec![0];
        for k in 0..n {
            if removed.binary_search(&k).is_err() {
                kept.extend_from_slice(&config[bounds[k]..bounds[k + 1]]);
                new_bounds.push(kept.len());
            }
        }
        *config = kept;
        // Keep the existing splitting (n - |removed| subsets); with a single subset
        // left, start over at min(|c|, nu) (Split factor: mu^nu).
        // The next round starts with removing the subset after `first`.
        let mut offset = first - removed.iter().filter(|&&k| k < first).count();
        let bounds = if new_bounds.len() > 2 {
            new_bounds
        } else {
            offset = 0;
            self.split(config, self.nu)
        };
        offset %= bounds.len() - 1;
        (bounds, offset)
    }

    /// The candidates of a round in the order the options ask for. Complements are rotated by
    /// `offset`: after removing subset i, the next round starts by trying to remove the subset
    /// that followed it, as Picire (the papers' implementation) does; the rotation is kept
    /// (scaled) when the granularity grows. The existential "exists i" of the papers leaves
    /// the order open; starting over at 0 would re-test every complement before i after each
    /// removal (Example D: 1680 tests instead of 472).
    fn order(&self, n: usize, offset: usize) -> Vec<Kind> {
        let subsets: Vec<Kind> = if self.opts.subsets {
            (0..n).map(Kind::Subset).collect()
        } else {
            Vec::new()
        };
        let complements: Vec<Kind> = match (self.opts.complements, self.opts.complement_order) {
            (false, _) => Vec::new(),
            (true, ComplementOrder::Forward) => {
                (0..n).map(|k| Kind::Complement((k + offset) % n)).collect()
            }
            (true, ComplementOrder::Backward) => (0..n)
                .rev()
                .map(|k| Kind::Complement((k + offset) % n))
                .collect(),
        };
        if self.opts.complements_first {
            complements.into_iter().chain(subsets).collect()
        } else {
            subsets.into_iter().chain(complements).collect()
        }
    }

    /// The granularity after a round that found nothing: `min(|c|, nu * n)` parts, the
    /// rotation scaled; `None` when every subset is a single unit already.
    fn finer(
        &self,
        config: &[usize],
        bounds: &[usize],
        offset: usize,
    ) -> Option<(Vec<usize>, usize)> {
        let n = bounds.len() - 1;
        (n < config.len()).then(|| {
            let finer = self.split(config, n.saturating_mul(self.nu));
            let offset = offset * (finer.len() - 1) / n;
            (finer, offset)
        })
    }

    /// Rounds without GreeDDy, on the speculative driver ([`crate::engine::driver::first_true`]).
    /// The candidates of the current round and, with several jobs, of the rounds that follow
    /// it if this one finds nothing (finer and finer granularity, up to `4 * jobs` candidates)
    /// form one sequence: the sequence ddmin tests one by one when every candidate fails
    /// (C-Vise's bet), so `jobs` workers stay busy across rounds. The first interesting
    /// candidate in sequence order wins, so the step is the one `jobs` = 1 takes; `bounds`
    /// and `offset` are left at the round it belongs to (at the last round planned when
    /// nothing was interesting).
    fn rounds_speculative(
        &mut self,
        config: &[usize],
        bounds: &mut Vec<usize>,
        offset: &mut usize,
    ) -> Step {
        let span = if self.opts.jobs > 1 {
            4 * self.opts.jobs
        } else {
            1
        };
        // Each planned round: its bounds and rotation; each candidate: its round.
        let mut rounds: Vec<(Vec<usize>, usize)> = Vec::new();
        let mut candidates: Vec<(usize, Candidate)> = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let (mut b, mut o) = (std::mem::take(bounds), *offset);
        let mut end_reached = false;
        loop {
            let parts = Parts::new(config, &b, self.unit_prints);
            for kind in self.order(parts.n(), o) {
                let (print, size) = match kind {
                    Kind::Subset(i) => (parts.prints[i], b[i + 1] - b[i]),
                    Kind::Complement(i) => (parts.print_without(&[i]), parts.size_without(&[i])),
                };
                let known = self.known.get(print);
                if size == 0 || known == Some(false) || !seen.insert(print) {
                    continue;
                }
                let candidate = Candidate {
                    kind,
                    print,
                    size,
                    known_interesting: known == Some(true),
                    config: Vec::new(),
                };
                candidates.push((rounds.len(), candidate));
            }
            let next = self.finer(config, &b, o);
            rounds.push((b, o));
            match next {
                Some((finer, rotated)) if candidates.len() < span => (b, o) = (finer, rotated),
                Some(_) => break,
                None => {
                    end_reached = true;
                    break;
                }
            }
        }
        // The plan reaches ddmin's end: if all of it fails, ddmin returns `config`, and what
        // the caller tests then is known. Announced for the idle workers when a win made the
        // announcements from before ddmin stale: at the end of a ddmin the plan is often one
        // or two candidates, and the other workers had nothing to run (sleep oracle, --jobs 8).
        if end_reached && self.changed && !self.opts.fixpoint {
            if let Some(ahead) = self.ahead {
                ahead.rest(config);
            }
        }
        let parts: Vec<Parts> = rounds
            .iter()
            .map(|(b, _)| Parts::new(config, b, self.unit_prints))
            .collect();
        let test = self.test;
        let stop = || self.stopped();
        let config_of = |i: usize| {
            let (r, c) = &candidates[i];
            match c.kind {
                Kind::Subset(k) => config[rounds[*r].0[k]..rounds[*r].0[k + 1]].to_vec(),
                Kind::Complement(k) => parts[*r].without(&[k]),
            }
        };
        // Bets on success: once the earliest candidate under test has run long enough to be
        // probably interesting, name what comes after it (see `branch.rs`).
        let slow = |i: usize| {
            if let Some(ahead) = self.ahead {
                let (r, c) = &candidates[i];
                let limit = 4 * self.opts.jobs + 4;
                let (next, result) = self.after_win(config, &rounds[*r].0, c.kind, limit);
                ahead.branch(&config_of(i), next, result.as_deref());
            }
        };
        let watch = self
            .ahead
            .and_then(|ahead| ahead.win_after())
            .map(|after| crate::engine::driver::Watch { after, slow: &slow });
        let jobs = match self.ahead {
            Some(ahead) if ahead.chains_wins() => 1,
            _ => self.opts.jobs,
        };
        let (first, outcomes) = crate::engine::driver::first_true_watched(
            jobs,
            candidates.len(),
            &stop,
            &|i| {
                if candidates[i].1.known_interesting {
                    return Some(true);
                }
                Some(test(&config_of(i)))
            },
            watch.as_ref(),
        );
        drop(parts);
        let round = first.map_or(rounds.len() - 1, |i| candidates[i].0);
        (*bounds, *offset) = rounds.swap_remove(round);
        if self.stopped() {
            // Outcomes after a cancel are not trustworthy; do not remember them.
            return Step::Stopped;
        }
        for ((_, c), outcome) in candidates.iter().zip(&outcomes) {
            if let Some(interesting) = *outcome {
                self.known.insert(c.print, c.size, interesting);
            }
        }
        match first.map(|i| candidates[i].1.kind) {
            Some(Kind::Subset(i)) => Step::Subset(i),
            Some(Kind::Complement(i)) => Step::Remove {
                removed: vec![i],
                first: i,
            },
            None => Step::Nothing,
        }
    }
}
