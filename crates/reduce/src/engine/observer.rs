//! What a judge reports while a reduction runs, to the one [`Observer`] its caller gives
//! (as ripgrep's searcher reports to a `Sink`): the judge keeps no state for the observer,
//! and the observer keeps its own (the CLI: the output file, the progress display's phase,
//! the rounds of `--stats`).

use super::stats::{PassRecord, Stats};

/// Receives a judge's reports; every method may be called from any thread.
pub trait Observer: Send + Sync {
    /// The oracle found `candidate` interesting, and it is smaller than every candidate
    /// before it; `stats` are the judge's counts with this run.
    fn improved(&self, candidate: &[u8], stats: &Stats) {
        let _ = (candidate, stats);
    }

    /// The reduction entered a phase (`hdd, level 3`, `rename`, `src/a.c: strip`).
    fn phase(&self, phase: &str) {
        let _ = phase;
    }

    /// What a pass or the tree phase did in one round, in order. A record of steps that a
    /// failed assumption takes back (see `Judge::steps`) is never reported.
    fn record(&self, record: PassRecord) {
        let _ = record;
    }
}

/// An observer that keeps the last phase and every record (for tests).
#[cfg(test)]
#[derive(Default)]
pub(crate) struct Recorder {
    pub(crate) phase: std::sync::Mutex<String>,
    pub(crate) records: std::sync::Mutex<Vec<PassRecord>>,
}

#[cfg(test)]
impl Recorder {
    pub(crate) fn phase(&self) -> String {
        self.phase.lock().unwrap().clone()
    }

    pub(crate) fn records(&self) -> Vec<PassRecord> {
        self.records.lock().unwrap().clone()
    }
}

#[cfg(test)]
impl Observer for Recorder {
    fn phase(&self, phase: &str) {
        *self.phase.lock().unwrap() = phase.to_string();
    }

    fn record(&self, record: PassRecord) {
        self.records.lock().unwrap().push(record);
    }
}
