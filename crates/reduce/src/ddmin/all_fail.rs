//! The sequence ddmin tests when every test fails, for the lookahead of HDDr.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};

use super::{ddmin_indices, DdminOptions};

/// What [`ddmin_indices`] on `0..len` tests, in order, when every test fails (at most
/// `limit` configurations): the sequence the lookahead of HDDr announces for the nodes after
/// the current one (see `lookahead`).
pub(crate) fn all_fail_sequence(len: usize, opts: &DdminOptions, limit: usize) -> Vec<Vec<usize>> {
    let seen: Mutex<Vec<Vec<usize>>> = Mutex::new(Vec::new());
    let stop = Arc::new(AtomicBool::new(limit == 0));
    let opts = DdminOptions {
        jobs: 1,
        fixpoint: false,
        stop: Some(Arc::clone(&stop)),
        ..opts.clone()
    };
    let record = |c: &[usize]| {
        let mut seen = seen.lock().unwrap_or_else(|e| e.into_inner());
        seen.push(c.to_vec());
        if seen.len() >= limit {
            stop.store(true, Ordering::SeqCst);
        }
        false
    };
    ddmin_indices(len, &record, &opts);
    seen.into_inner().unwrap_or_else(|e| e.into_inner())
}
