//! GreeDDy (dissertation, fig. 6.2): a round's candidates tested in windows of `greeddy_window` on a
//! rayon pool; when a window holds several interesting complements, their combination is
//! tried first, then the first one combined with the others one by one.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use rayon::prelude::*;

use super::parts::Parts;
use super::{Candidate, Kind, Run, Step};

/// The thread pool with `jobs` threads, made once per process and number of jobs (HDD calls
/// ddmin once per tree level). `None` if no thread could be started (then tests run one at a
/// time, with the same result).
pub(super) fn thread_pool(jobs: usize) -> Option<Arc<rayon::ThreadPool>> {
    static POOLS: OnceLock<Mutex<HashMap<usize, Arc<rayon::ThreadPool>>>> = OnceLock::new();
    let mut pools = POOLS
        .get_or_init(Mutex::default)
        .lock()
        .unwrap_or_else(|e| e.into_inner());
    if let Some(pool) = pools.get(&jobs) {
        return Some(Arc::clone(pool));
    }
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(jobs)
        .thread_name(|i| format!("treedd-test-{i}"))
        .build()
        .ok()?;
    let pool = Arc::new(pool);
    pools.insert(jobs, Arc::clone(&pool));
    Some(pool)
}

impl Run<'_> {
    /// A GreeDDy round: its candidates in windows of `greeddy_window`, tested in parallel.
    pub(super) fn round(&mut self, config: &[usize], bounds: &[usize], offset: usize) -> Step {
        let parts = Parts::new(config, bounds, self.unit_prints);
        let n = parts.n();
        let window = self.opts.greeddy_window.max(1);
        let mut pending: Vec<Candidate> = Vec::with_capacity(window);
        for kind in self.order(n, offset) {
            let (print, size) = match kind {
                Kind::Subset(i) => (parts.prints[i], bounds[i + 1] - bounds[i]),
                Kind::Complement(i) => (parts.print_without(&[i]), parts.size_without(&[i])),
            };
            if size == 0 {
                continue;
            }
            let known = self.known.get(print);
            if known == Some(false) || pending.iter().any(|c| c.print == print) {
                continue;
            }
            let known_interesting = known == Some(true);
            let config = match kind {
                _ if known_interesting => Vec::new(),
                Kind::Subset(i) => config[bounds[i]..bounds[i + 1]].to_vec(),
                Kind::Complement(i) => parts.without(&[i]),
            };
            pending.push(Candidate {
                kind,
                print,
                size,
                known_interesting,
                config,
            });
            if pending.len() == window {
                if let Some(step) = self.window(&parts, &mut pending) {
                    return step;
                }
            }
        }
        if !pending.is_empty() {
            if let Some(step) = self.window(&parts, &mut pending) {
                return step;
            }
        }
        if self.stopped() {
            Step::Stopped
        } else {
            Step::Nothing
        }
    }

    /// Test a window of candidates (in parallel if possible) and decide.
    fn window(&mut self, parts: &Parts, pending: &mut Vec<Candidate>) -> Option<Step> {
        if self.stopped() {
            return Some(Step::Stopped);
        }
        let outcomes = self.test_all(pending);
        if self.stopped() {
            // Outcomes after a cancel are not trustworthy; do not remember them.
            return Some(Step::Stopped);
        }
        let mut fails = Vec::new();
        for (candidate, interesting) in pending.drain(..).zip(outcomes) {
            // The configuration chosen below becomes the current one and is never asked
            // about again; the others may come back in later rounds.
            self.known
                .insert(candidate.print, candidate.size, interesting);
            if interesting {
                fails.push(candidate.kind);
            }
        }
        let first = match *fails.first()? {
            Kind::Subset(i) => return Some(Step::Subset(i)),
            Kind::Complement(i) => i,
        };
        let mut others: Vec<usize> = fails
            .iter()
            .filter_map(|k| match *k {
                Kind::Complement(i) if i != first => Some(i),
                _ => None,
            })
            .collect();
        // (Windows are GreeDDy's only: other rounds run on the speculative driver.)
        if others.is_empty() {
            return Some(Step::Remove {
                removed: vec![first],
                first,
            });
        }
        // GreeDDy: "reduce greedily" with all interesting complements of the window ...
        let mut all: Vec<usize> = others.iter().copied().chain([first]).collect();
        all.sort_unstable();
        // (With two, the one-by-one combination below is that same test.)
        if others.len() > 1 {
            match self.test_one(parts, &all) {
                None => return Some(Step::Stopped),
                Some(true) => {
                    return Some(Step::Remove {
                        removed: all,
                        first,
                    })
                }
                Some(false) => {}
            }
        }
        // ... else the first one, combined with the others one by one.
        let mut removed = vec![first];
        for other in others.drain(..) {
            let mut trial = removed.clone();
            trial.push(other);
            trial.sort_unstable();
            match self.test_one(parts, &trial) {
                None => return Some(Step::Stopped),
                Some(true) => removed = trial,
                Some(false) => {}
            }
        }
        removed.sort_unstable();
        Some(Step::Remove { removed, first })
    }

    /// Test the configuration without the subsets `removed` (GreeDDy combinations).
    /// `None` if stopped.
    fn test_one(&mut self, parts: &Parts, removed: &[usize]) -> Option<bool> {
        let size = parts.size_without(removed);
        if size == 0 {
            return Some(false);
        }
        let print = parts.print_without(removed);
        if let Some(known) = self.known.get(print) {
            return Some(known);
        }
        if self.stopped() {
            return None;
        }
        let interesting = (self.test)(&parts.without(removed));
        if self.stopped() {
            return None;
        }
        self.known.insert(print, size, interesting);
        Some(interesting)
    }

    fn test_all(&self, pending: &[Candidate]) -> Vec<bool> {
        let test = self.test;
        match &self.pool {
            Some(pool) if pending.len() > 1 => pool.install(|| {
                pending
                    .par_iter()
                    .with_max_len(1)
                    .map(|c| c.known_interesting || test(&c.config))
                    .collect()
            }),
            _ => pending
                .iter()
                .map(|c| c.known_interesting || test(&c.config))
                .collect(),
        }
    }
}
