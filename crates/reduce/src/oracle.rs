//! CONTRACT (skeleton): the oracle runner (issue 2, item 2).

/// What one oracle run said about a candidate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Exit status 0: the candidate still shows the failure.
    Interesting,
    /// Any other exit status, or killed by a signal.
    NotInteresting { code: Option<i32> },
    /// Killed (with its whole process group) at the timeout. Counts as not interesting.
    TimedOut,
    /// The run was cancelled (Ctrl-C); its outcome is unknown.
    Cancelled,
    /// The oracle could not be started (not executable, missing, exec format error).
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
}

/// Runs `PROGRAM <candidate-path>` with cwd a fresh private temp dir holding the candidate
/// under the input's file name; exit 0 = interesting; optional timeout kills the group.
pub struct CommandOracle {}
