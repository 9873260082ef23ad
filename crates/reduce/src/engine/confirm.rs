//! `--confirm N`: an oracle adapter that re-tests every interesting answer
//! N more times before the algorithms may commit it. One "not interesting" (or timeout) among
//! them rejects the candidate, so a flaky oracle cannot steer the reduction into a result that
//! does not reproduce.

use std::sync::atomic::{AtomicU64, Ordering};

use treedd_proc::{Oracle, Outcome, RunToken};

pub struct Confirm<O: Oracle> {
    inner: O,
    times: u32,
    /// Oracle runs made for confirmation (beyond the first run of each candidate).
    extra_runs: AtomicU64,
    /// Candidates found interesting once, then not on a confirmation run.
    rejected: AtomicU64,
}

impl<O: Oracle> Confirm<O> {
    /// Confirm each interesting answer `times` more times (0 = pass answers through).
    pub fn new(inner: O, times: u32) -> Confirm<O> {
        Confirm {
            inner,
            times,
            extra_runs: AtomicU64::new(0),
            rejected: AtomicU64::new(0),
        }
    }

    pub fn extra_runs(&self) -> u64 {
        self.extra_runs.load(Ordering::Relaxed)
    }

    pub fn rejected(&self) -> u64 {
        self.rejected.load(Ordering::Relaxed)
    }
}

impl<O: Oracle> Confirm<O> {
    /// The first run, then the confirmations, each through `run`.
    fn confirmed(&self, run: &dyn Fn() -> Outcome) -> Outcome {
        let first = run();
        if !first.is_interesting() {
            return first;
        }
        for _ in 0..self.times {
            let again = run();
            match again {
                Outcome::Interesting => {
                    self.extra_runs.fetch_add(1, Ordering::Relaxed);
                }
                // Unknown: neither confirmed nor refuted.
                Outcome::Cancelled | Outcome::FailedToStart(_) => return again,
                _ => {
                    self.extra_runs.fetch_add(1, Ordering::Relaxed);
                    self.rejected.fetch_add(1, Ordering::Relaxed);
                    return again;
                }
            }
        }
        first
    }
}

impl<O: Oracle> Oracle for Confirm<O> {
    fn run(&self, candidate: &[u8]) -> Outcome {
        self.confirmed(&|| self.inner.run(candidate))
    }

    fn run_abortable(&self, candidate: &[u8], token: &RunToken) -> Outcome {
        self.confirmed(&|| self.inner.run_abortable(candidate, token))
    }

    fn cancel(&self) {
        self.inner.cancel();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::FnOracle;

    #[test]
    fn an_interesting_answer_needs_every_confirmation() {
        let confirm = Confirm::new(FnOracle::new(|_: &[u8]| true), 2);
        assert_eq!(confirm.run(b"x"), Outcome::Interesting);
        assert_eq!((confirm.rejected(), confirm.extra_runs()), (0, 2));
        let never = Confirm::new(FnOracle::new(|_: &[u8]| false), 5);
        assert_eq!(never.run(b"x"), Outcome::NotInteresting { code: Some(1) });
        assert_eq!(
            never.extra_runs(),
            0,
            "not interesting needs no confirmation"
        );
    }

    #[test]
    fn a_flipped_answer_rejects_the_candidate() {
        let calls = AtomicU64::new(0);
        let oracle = FnOracle::new(move |_: &[u8]| calls.fetch_add(1, Ordering::SeqCst) != 1);
        let confirm = Confirm::new(oracle, 3);
        assert_eq!(confirm.run(b"x"), Outcome::NotInteresting { code: Some(1) });
        assert_eq!((confirm.rejected(), confirm.extra_runs()), (1, 1));
    }
}
