//! A judge for a part of the candidates of another: one file of a directory input.
//!
//! A directory is reduced as one candidate (an encoded `treedd_proc::Files`) by the judge the
//! CLI made, and one file at a time by the tree algorithms, which need a judge of that
//! file's own bytes: its language's syntax filter, its cache, its best so far, its lookahead.
//! [`Judge::nested`] makes that judge. Its oracle puts each candidate back into the whole
//! (`wrap`) and asks this judge's cache and oracle ([`Judge::run_part`]), so every oracle run
//! is counted, cached and offered as an improvement (the output) once, here; the part's own
//! judge adds what only it knows (its cache hits, syntax filter, bets) when it ends
//! ([`Judge::end_nested`]). While a part is under way, [`Judge::stats`] includes it and
//! [`Judge::cancel`] reaches it (so does the whole's `CancelToken`: the part is built with
//! it), and the part's phases and records go to this judge's observer labelled with the part
//! (`src/a.c: rename`), so the CLI sees one judge throughout.

use std::sync::Arc;

use treedd_proc::{Oracle, Outcome, RunToken};

use super::{lock, Filter, Judge, JudgeOptions, PassRecord, Stats};
use crate::engine::cache::Cache;
use crate::engine::observer::Observer;

/// Puts a part's candidate back into the whole.
pub(crate) type Wrap = Box<dyn Fn(&[u8]) -> Vec<u8> + Send + Sync>;

/// What a part does with its own improvements (its syntax filter rebases on them).
pub(crate) type OnImprovement = Box<dyn Fn(&[u8]) + Send + Sync>;

/// What a judge knows of the parts judged inside it.
#[derive(Default)]
pub(super) struct Parts {
    /// The judge of the part under way.
    current: Option<Arc<Judge>>,
    /// What the ended parts' judges counted that this one did not (see [`part_counts`]).
    ended: Stats,
}

/// The oracle of a part's judge.
struct Part {
    whole: Arc<Judge>,
    wrap: Wrap,
}

impl Oracle for Part {
    fn run(&self, candidate: &[u8]) -> Outcome {
        self.whole.run_part(&(self.wrap)(candidate), None)
    }

    fn run_abortable(&self, candidate: &[u8], token: &RunToken) -> Outcome {
        self.whole.run_part(&(self.wrap)(candidate), Some(token))
    }

    /// The whole's judge cancels its own oracle (and this part's judge, see
    /// [`Judge::cancel`]).
    fn cancel(&self) {}
}

/// The observer of a part's judge: the part's own improvements go to `on_improvement`, its
/// phases and records to the whole's observer, labelled (`src/a.c: rename`), the records
/// numbered `round` (the whole's round).
struct Relay {
    whole: Arc<Judge>,
    label: String,
    round: usize,
    on_improvement: Option<OnImprovement>,
}

impl Observer for Relay {
    fn improved(&self, candidate: &[u8], _: &Stats) {
        if let Some(f) = &self.on_improvement {
            f(candidate);
        }
    }

    fn phase(&self, phase: &str) {
        self.whole.phase(&format!("{}: {phase}", self.label));
    }

    fn record(&self, record: PassRecord) {
        self.whole.record(PassRecord {
            round: self.round,
            pass: format!("{}: {}", self.label, record.pass),
            ..record
        });
    }
}

/// The counts of a part's judge that the whole's does not have: its tests, cache hits and
/// syntax filter, and its lookahead's bets. The oracle runs, timeouts, failed starts, busy
/// time and killed runs are the whole's own (every run of a part is one of the whole's);
/// a killed run is also one of the part's `discarded`, so those are left out.
fn part_counts(s: &Stats) -> Stats {
    Stats {
        tests: s.tests,
        cache_hits: s.cache_hits,
        syntax_filtered: s.syntax_filtered,
        cache_peak_entries: s.cache_peak_entries,
        discarded: s.discarded.saturating_sub(s.killed),
        preempted: s.preempted,
        assumed: s.assumed,
        replays: s.replays,
        ..Stats::default()
    }
}

/// `a` with `b`'s counts added (the largest of the cache peaks).
pub(super) fn add(a: &Stats, b: &Stats) -> Stats {
    Stats {
        tests: a.tests + b.tests,
        oracle_runs: a.oracle_runs + b.oracle_runs,
        interesting: a.interesting + b.interesting,
        cache_hits: a.cache_hits + b.cache_hits,
        syntax_filtered: a.syntax_filtered + b.syntax_filtered,
        cache_peak_entries: a.cache_peak_entries.max(b.cache_peak_entries),
        timeouts: a.timeouts + b.timeouts,
        failed_to_start: a.failed_to_start + b.failed_to_start,
        discarded: a.discarded + b.discarded,
        killed: a.killed + b.killed,
        preempted: a.preempted + b.preempted,
        assumed: a.assumed + b.assumed,
        replays: a.replays + b.replays,
        recalled: a.recalled + b.recalled,
        busy_seconds: a.busy_seconds + b.busy_seconds,
    }
}

impl Judge {
    /// A judge for a part of this judge's candidates, labelled `label` in the phases and
    /// records (which are numbered `round`): its candidates are put back into the whole by
    /// `wrap` and judged here (this judge's cache, oracle and improvements); `filter` and
    /// `on_improvement` are the part's own. One part at a time; end it with
    /// [`Judge::end_nested`]. It knows how long interesting runs take here, and is cancelled
    /// with this judge.
    pub(crate) fn nested(
        self: &Arc<Judge>,
        label: &str,
        round: usize,
        wrap: Wrap,
        filter: Option<Filter>,
        on_improvement: Option<OnImprovement>,
    ) -> Arc<Judge> {
        let relay = Relay {
            whole: Arc::clone(self),
            label: label.to_string(),
            round,
            on_improvement,
        };
        let part = Judge::new(
            Box::new(Part {
                whole: Arc::clone(self),
                wrap,
            }),
            JudgeOptions {
                cache: self.cache.is_some(),
                filter,
                observer: Some(Arc::new(relay)),
                cancel: self.token.clone(),
            },
        );
        lock(&part.outside_interesting).extend(lock(&self.outside_interesting).iter().copied());
        let part = Arc::new(part);
        lock(&self.parts).current = Some(Arc::clone(&part));
        // The part's phase until it names one.
        part.phase("");
        // After the part is registered: a cancel from now on reaches it (`Judge::cancel`).
        if self.cancel_requested() {
            part.cancel();
        }
        part
    }

    /// The part judged by `part` (made by [`Judge::nested`]) is done: its counts join this
    /// judge's.
    pub(crate) fn end_nested(&self, part: &Judge) {
        {
            let mut parts = lock(&self.parts);
            parts.current = None;
            parts.ended = add(&parts.ended, &part_counts(&part.stats()));
        }
        if let Some(missing) = part.missing_workers() {
            lock(&self.missing_workers).get_or_insert(missing);
        }
    }

    /// The counts of the parts: those ended, and the one under way.
    pub(super) fn parts_stats(&self) -> Stats {
        let parts = lock(&self.parts);
        match &parts.current {
            Some(part) => add(&parts.ended, &part_counts(&part.stats())),
            None => parts.ended.clone(),
        }
    }

    /// Cancel the part under way.
    pub(super) fn cancel_part(&self) {
        let part = lock(&self.parts).current.as_ref().map(Arc::clone);
        if let Some(part) = part {
            part.cancel();
        }
    }

    /// A part's candidate, put back into the whole (`whole`): the cache, then the oracle, as
    /// [`Judge::test`] without the syntax filter (the part's judge has filtered the part) and
    /// without the lookahead (the part's judge has its own; `token` aborts a run of its).
    fn run_part(&self, whole: &[u8], token: Option<&RunToken>) -> Outcome {
        if self.is_cancelled() {
            return Outcome::Cancelled;
        }
        let key = Cache::key(whole);
        if self.cache.as_ref().is_some_and(|c| c.is_known_pass(&key)) {
            return Outcome::NotInteresting { code: None };
        }
        match self.run_oracle(whole, &key, token) {
            Some(true) => Outcome::Interesting,
            Some(false) => Outcome::NotInteresting { code: None },
            None => Outcome::Cancelled,
        }
    }
}
