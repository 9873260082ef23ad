//! Counters shared by all threads of one reduction.

/// Snapshot of the counters of a reduction (`Judge::stats`).
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize)]
pub struct Stats {
    /// Candidates the algorithms asked about (`Judge::test` calls).
    pub tests: u64,
    /// Oracle runs that answered (processes started, minus those killed unanswered: Ctrl-C,
    /// and the lost bets in `killed`).
    pub oracle_runs: u64,
    /// Oracle runs that said "interesting".
    pub interesting: u64,
    /// Candidates answered from the content cache.
    pub cache_hits: u64,
    /// Candidates dropped by the syntax filter before the oracle.
    pub syntax_filtered: u64,
    /// Largest number of entries the cache held at once.
    pub cache_peak_entries: u64,
    /// Oracle runs killed at the timeout.
    pub timeouts: u64,
    /// Oracle runs that could not be started (counted as not interesting, not cached).
    pub failed_to_start: u64,
    /// Speculative tests past the first interesting candidate of a sequence: bets on "not
    /// interesting" that were lost, whose answers were not used (`killed` included).
    pub discarded: u64,
    /// Speculative oracle runs killed before they answered, because the bet they served was
    /// lost (not in `oracle_runs`).
    pub killed: u64,
    /// Of those, runs killed to free a worker for a bet on success (`lookahead`'s preemption):
    /// bets on the failure of a candidate that was probably interesting; run again if needed.
    pub preempted: u64,
    /// Oracle runs the algorithm took as interesting before they answered, having lasted
    /// long enough to be very probably so (see `Judge::steps`).
    pub assumed: u64,
    /// Of those, runs that were not interesting after all: each took the algorithm back to
    /// the step that made the assumption, replayed on the answers known.
    pub replays: u64,
    /// Candidates taken as not interesting without a test, their edit having failed on an
    /// earlier text (the memory of failed edits, see `edits`).
    pub recalled: u64,
    /// Wall time of all oracle runs added up (divided by the reduction's wall time: the mean
    /// number of busy workers).
    pub busy_seconds: f64,
}

/// What one pass (or the tree phase) did in one round, for `--stats`.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PassRecord {
    pub round: usize,
    /// A pass name, or `tree` for the configured tree algorithm.
    pub pass: String,
    pub oracle_runs: u64,
    /// Candidates accepted (interesting, committed).
    pub accepted: u64,
    /// Non-whitespace characters removed.
    pub chars_removed: i64,
}
