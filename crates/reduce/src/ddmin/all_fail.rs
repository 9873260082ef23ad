//! The sequence ddmin tests when every test fails, for the lookahead of HDDr, and the
//! recording test that finds it (also for `branch.rs`).

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::{ddmin_indices_ahead, prob, DdminOptions};

/// What the list minimizer of `opts` on `0..len` (with element weights `weights`) tests, in
/// order, when every test fails (at most `limit` configurations): the sequence the lookahead
/// of HDDr announces for the nodes after the current one (see `lookahead`).
pub(crate) fn all_fail_sequence(
    len: usize,
    weights: Option<&[u64]>,
    opts: &DdminOptions,
    limit: usize,
) -> Vec<Vec<usize>> {
    if opts.minimizer.is_probabilistic() {
        return prob::all_fail_sequence(len, weights, opts, limit);
    }
    let recorder = Recorder::new(limit);
    let opts = recorder.options(&DdminOptions {
        fixpoint: false,
        ..opts.clone()
    });
    ddmin_indices_ahead(len, weights, &|c| recorder.test(c), &opts, None);
    recorder.into_seen()
}

/// A test that fails every configuration and records it, stopping ddmin after `limit`.
pub(super) struct Recorder {
    seen: Mutex<Vec<Vec<usize>>>,
    stop: Arc<AtomicBool>,
    limit: usize,
}

impl Recorder {
    pub(super) fn new(limit: usize) -> Recorder {
        Recorder {
            seen: Mutex::new(Vec::new()),
            stop: Arc::new(AtomicBool::new(limit == 0)),
            limit,
        }
    }

    /// `opts` on one job (so the order is ddmin's own), stopped by this recorder.
    pub(super) fn options(&self, opts: &DdminOptions) -> DdminOptions {
        DdminOptions {
            jobs: 1,
            stop: Some(Arc::clone(&self.stop)),
            ..opts.clone()
        }
    }

    pub(super) fn test(&self, c: &[usize]) -> bool {
        let mut seen = self.seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.push(c.to_vec());
        if seen.len() >= self.limit {
            self.stop.store(true, Ordering::SeqCst);
        }
        false
    }

    pub(super) fn into_seen(self) -> Vec<Vec<usize>> {
        self.seen.into_inner().unwrap_or_else(|e| e.into_inner())
    }
}
