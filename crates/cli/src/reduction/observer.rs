//! What the CLI keeps of a judge's reports ([`treedd_reduce::Observer`]): each improvement
//! goes to the output writer, the syntax filter (which parses candidates against the best
//! text) and the `--stats` trace; the phase is the progress display's; the records are the
//! rounds of `--stats`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex};

use treedd_reduce::{Observer, PassRecord, Stats};
use treedd_tree::SyntaxFilter;

use crate::output::BestWriter;
use crate::trace::Trace;

pub(super) struct Reports {
    pub(super) writer: Arc<BestWriter>,
    pub(super) syntax: Option<Arc<SyntaxFilter>>,
    pub(super) trace: Arc<Trace>,
    /// Oracle runs made outside the judge (the trace counts them too).
    pub(super) extra_runs: Arc<AtomicU64>,
    /// The candidates are trees of files (a directory input).
    pub(super) files: bool,
    phase: Mutex<String>,
    records: Mutex<Vec<PassRecord>>,
}

impl Reports {
    pub(super) fn new(
        writer: Arc<BestWriter>,
        syntax: Option<Arc<SyntaxFilter>>,
        trace: Arc<Trace>,
        extra_runs: Arc<AtomicU64>,
        files: bool,
    ) -> Reports {
        Reports {
            writer,
            syntax,
            trace,
            extra_runs,
            files,
            phase: Mutex::default(),
            records: Mutex::default(),
        }
    }

    /// The phase last reported (empty before the first).
    pub(super) fn phase(&self) -> String {
        lock(&self.phase).clone()
    }

    /// The records of the rounds, in order.
    pub(super) fn records(&self) -> Vec<PassRecord> {
        lock(&self.records).clone()
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Observer for Reports {
    fn improved(&self, candidate: &[u8], stats: &Stats) {
        self.writer.offer(candidate);
        if let Some(syntax) = &self.syntax {
            syntax.rebase(candidate);
        }
        let runs = stats.oracle_runs + self.extra_runs.load(Ordering::SeqCst);
        self.trace
            .record(runs, crate::dir::chars(candidate, self.files));
    }

    fn phase(&self, phase: &str) {
        let mut p = lock(&self.phase);
        p.clear();
        p.push_str(phase);
    }

    fn record(&self, record: PassRecord) {
        lock(&self.records).push(record);
    }
}
