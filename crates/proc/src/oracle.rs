//! The interestingness test as the reduction sees it: [`Oracle`] runs a candidate and
//! answers an [`Outcome`]; a [`RunToken`] lets another thread abort one run (the speculative
//! driver kills the runs of its lost bets).

use std::sync::{Arc, Mutex, MutexGuard};

use rustix::process::{kill_process_group, Pid, Signal};

/// What one oracle run said about a candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit status 0: the candidate still shows the failure.
    Interesting,
    /// Any other exit status (`code`), or killed by a signal (`code` is `None`).
    NotInteresting { code: Option<i32> },
    /// Killed (with its whole process group) at the timeout. Counts as not interesting.
    TimedOut,
    /// The run was cancelled (Ctrl-C); its outcome is unknown.
    Cancelled,
    /// The oracle could not be started (not executable, missing, exec format error), or the
    /// candidate could not be written to its temporary directory.
    FailedToStart(String),
}

impl Outcome {
    pub fn is_interesting(&self) -> bool {
        matches!(self, Outcome::Interesting)
    }
}

/// An interestingness test. Must be callable from several threads at once.
pub trait Oracle: Send + Sync {
    /// Run the test on one candidate (its bytes) and wait for the outcome.
    fn run(&self, candidate: &[u8]) -> Outcome;
    /// Kill every running test (process groups) and make future runs return `Cancelled`.
    fn cancel(&self);
    /// [`Oracle::run`], abortable from another thread through `token`: once
    /// [`RunToken::abort`] is called the outcome is `Cancelled` (unknown), and an oracle that
    /// can stop a run early does so. The default runs to the end unless aborted before it
    /// starts; [`crate::CommandOracle`] kills the run's process group.
    fn run_abortable(&self, candidate: &[u8], token: &RunToken) -> Outcome {
        if token.is_aborted() {
            return Outcome::Cancelled;
        }
        let outcome = self.run(candidate);
        if token.is_aborted() && !outcome.is_interesting() {
            Outcome::Cancelled
        } else {
            outcome
        }
    }
}

/// A handle on one oracle run that another thread can abort. The speculative driver aborts
/// the runs of its lost bets, as C-Vise kills the workers of candidates past the
/// first interesting one: their answers are not needed, and the CPU they would take is.
#[derive(Clone, Debug, Default)]
pub struct RunToken(Arc<Mutex<TokenState>>);

#[derive(Debug, Default)]
struct TokenState {
    aborted: bool,
    /// The process group of the run while its leader is unreaped (see [`crate::group`]).
    group: Option<Pid>,
}

impl RunToken {
    pub fn new() -> RunToken {
        RunToken::default()
    }

    fn state(&self) -> MutexGuard<'_, TokenState> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Abort the run: kill its process group if it is under way; a run not started yet
    /// returns `Cancelled` without starting.
    pub fn abort(&self) {
        let mut s = self.state();
        s.aborted = true;
        if let Some(group) = s.group {
            let _ = kill_process_group(group, Signal::KILL);
        }
    }

    pub fn is_aborted(&self) -> bool {
        self.state().aborted
    }

    /// The same run (clones of one token).
    pub fn same(&self, other: &RunToken) -> bool {
        Arc::ptr_eq(&self.0, &other.0)
    }

    /// The run's group leader `pid` was spawned (and is unreaped until [`RunToken::detach`]);
    /// killed at once if the run was aborted meanwhile.
    pub(crate) fn attach(&self, pid: Pid) {
        let mut s = self.state();
        s.group = Some(pid);
        if s.aborted {
            let _ = kill_process_group(pid, Signal::KILL);
        }
    }

    /// The leader is about to be reaped: its group id may be reused from now on.
    pub(crate) fn detach(&self) {
        self.state().group = None;
    }
}

/// An oracle shared between threads or owners (the CLI runs the oracle it gives the judge
/// itself too, for the original's check and `--verify`, and cancels it on a signal).
impl<T: Oracle + ?Sized> Oracle for Arc<T> {
    fn run(&self, candidate: &[u8]) -> Outcome {
        (**self).run(candidate)
    }

    fn run_abortable(&self, candidate: &[u8], token: &RunToken) -> Outcome {
        (**self).run_abortable(candidate, token)
    }

    fn cancel(&self) {
        (**self).cancel()
    }
}
