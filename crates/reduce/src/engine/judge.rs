//! The judge every algorithm asks about a candidate:
//! content cache -> syntax filter -> oracle, with counters and the best so far; what it finds
//! (improvements, phases, the rounds' records) it reports to the caller's [`Observer`].
//!
//! **Invariant:** the cache only ever holds candidates the oracle said were not interesting
//! (or that timed out), never one larger than the best interesting candidate seen so far.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use super::lookahead::{Answer, Lookahead};
use treedd_proc::{Oracle, Outcome, RunToken};

use super::cache::Cache;
use super::cancel::CancelToken;
use super::observer::Observer;
use super::stats::{PassRecord, Stats};

/// Decides before the oracle whether a candidate may be interesting at all (true = keep).
pub type Filter = Box<dyn Fn(&[u8]) -> bool + Send + Sync>;

pub struct JudgeOptions {
    /// Use the content cache (ch. 4).
    pub cache: bool,
    /// Syntax filter run before the cache and the oracle.
    pub filter: Option<Filter>,
    /// Where the judge reports improvements, phases and records (the CLI writes the current
    /// best result to disk there).
    pub observer: Option<Arc<dyn Observer>>,
    /// Cancels the judge as [`Judge::cancel`] does, except the oracle, which whoever raises
    /// the token cancels itself; the token may be raised before the judge is built.
    pub cancel: Option<CancelToken>,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            cache: true,
            filter: None,
            observer: None,
            cancel: None,
        }
    }
}

pub struct Judge {
    oracle: Box<dyn Oracle>,
    cache: Option<Cache>,
    filter: Option<Filter>,
    observer: Option<Arc<dyn Observer>>,
    /// Stop flag of the algorithms: set by [`Judge::cancel`] and [`JudgeOptions::cancel`], and
    /// by a misprediction until the unit is replayed (see [`Judge::steps`]).
    cancelled: Arc<AtomicBool>,
    /// [`Judge::cancel`] was called (final).
    user_cancelled: AtomicBool,
    /// [`JudgeOptions::cancel`] (linked to `cancelled`).
    token: Option<CancelToken>,
    /// The oracle's answers while a unit runs, and whether the unit is being replayed.
    memo: Mutex<Option<HashMap<super::cache::Key, bool>>>,
    replaying: AtomicBool,
    /// Numbers the steps of [`Judge::steps`] (the units of assumptions).
    units: AtomicU64,
    counters: Counters,
    /// Length of `best` (usize::MAX while there is none), readable without the lock.
    best_len: AtomicUsize,
    best: Mutex<Option<Vec<u8>>>,
    last_start_error: Mutex<Option<String>>,
    /// Workers of `--jobs` that could not start (see [`Judge::missing_workers`]).
    missing_workers: Mutex<Option<MissingWorkers>>,
    /// The records of the steps of [`Judge::steps`] under way (a failed assumption takes
    /// some back), reported when the steps end; `None` outside them.
    pending_records: Mutex<Option<Vec<PassRecord>>>,
    lookahead: Mutex<Option<Arc<Lookahead>>>,
    /// Permits of `jobs` held by oracle runs made outside the judge (see
    /// [`Judge::reserve_permit`]); changed and read under `lookahead`'s lock.
    reserved: AtomicUsize,
    /// How long the interesting runs made outside the judge took (see
    /// [`Judge::note_interesting_run`]); changed and read under `lookahead`'s lock.
    outside_interesting: Mutex<Vec<Duration>>,
    /// The syntax filter's recent verdicts (see [`Judge::filter_keeps`]).
    screened: Mutex<HashMap<super::cache::Key, bool>>,
    /// The judges of parts of the candidates (the files of a directory, see `nested`).
    parts: Mutex<nested::Parts>,
    /// The memory of failed edits (see `edits`).
    edits: super::edits::Memory,
}

/// Lookahead workers that could not start: the reduction went on with `started` of `jobs`
/// (its result does not depend on how many).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingWorkers {
    pub jobs: usize,
    pub started: usize,
    /// Why the first that failed did not start.
    pub error: String,
}

/// Verdicts remembered before the memory starts again: far more than the candidates
/// announced ahead of the one under test.
const SCREENED_MAX: usize = 4096;

#[derive(Default)]
struct Counters {
    tests: AtomicU64,
    oracle_runs: AtomicU64,
    interesting: AtomicU64,
    syntax_filtered: AtomicU64,
    timeouts: AtomicU64,
    failed_to_start: AtomicU64,
    discarded: AtomicU64,
    killed: AtomicU64,
    preempted: AtomicU64,
    assumed: AtomicU64,
    replays: AtomicU64,
    recalled: AtomicU64,
    busy_nanos: AtomicU64,
}

/// What [`Judge::steps`] keeps of the state before a step.
struct Checkpoint<S> {
    unit: u64,
    state: S,
    /// How many records were pending.
    records: usize,
    /// How many failed edits were remembered.
    edits: usize,
    /// treedd's CPU seconds then (a replay from here costs about what was spent since).
    cpu: f64,
}

/// See [`Judge::screen`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Screen {
    /// Dropped by the syntax filter.
    Filtered,
    /// Known not to be interesting (cache).
    KnownPass,
    /// Must be run.
    Run,
}

/// Stops a lookahead's workers when dropped.
struct StopOnDrop<'a>(&'a Lookahead);

impl Drop for StopOnDrop<'_> {
    fn drop(&mut self) {
        self.0.stop();
    }
}

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Judge {
    pub fn new(oracle: Box<dyn Oracle>, opts: JudgeOptions) -> Judge {
        let cancelled = Arc::new(AtomicBool::new(false));
        if let Some(token) = &opts.cancel {
            token.link(&cancelled);
        }
        Judge {
            oracle,
            cache: opts.cache.then(Cache::new),
            filter: opts.filter,
            observer: opts.observer,
            cancelled,
            user_cancelled: AtomicBool::new(false),
            token: opts.cancel,
            memo: Mutex::new(None),
            replaying: AtomicBool::new(false),
            units: AtomicU64::new(0),
            counters: Counters::default(),
            best_len: AtomicUsize::new(usize::MAX),
            best: Mutex::new(None),
            last_start_error: Mutex::new(None),
            missing_workers: Mutex::new(None),
            pending_records: Mutex::new(None),
            lookahead: Mutex::new(None),
            reserved: AtomicUsize::new(0),
            outside_interesting: Mutex::new(Vec::new()),
            screened: Mutex::new(HashMap::new()),
            parts: Mutex::default(),
            edits: Default::default(),
        }
    }

    /// True if the candidate is interesting. Thread-safe; false at once after `cancel`.
    pub fn test(&self, candidate: &[u8]) -> bool {
        self.test_from(None, candidate)
    }

    /// [`Judge::test`] of a candidate made from `base`, the text the algorithm holds: with
    /// several jobs, the edit from one to the other is a hint for later tests of the same
    /// edit on other texts (see *Hints* in `lookahead`), and an edit that failed on an
    /// earlier text is not tested again while the memory of failed edits is consulted
    /// (see `edits`).
    pub fn test_from(&self, base: Option<&[u8]>, candidate: &[u8]) -> bool {
        self.test_remembering(base, candidate)
    }

    /// The answer for `candidate`, whose cache key is `key` (`None`: none, the run was
    /// cancelled or lost or could not start); `hint` names its edit for the lookahead (worked
    /// out only when the lookahead runs it).
    fn verdict(
        &self,
        key: super::cache::Key,
        hint: impl FnOnce() -> Option<u64>,
        candidate: &[u8],
    ) -> Option<bool> {
        // A replay takes the oracle's answers from the memo, but what the cache knows stays a
        // cache hit, as with one job (the replay flag stays up until the steps end).
        if self.replaying.load(Ordering::SeqCst) && !self.cache_contains(&key) {
            if let Some(&answer) = lock(&self.memo).as_ref().and_then(|m| m.get(&key)) {
                return Some(answer);
            }
        }
        bump(&self.counters.tests);
        match self.screen(candidate, &key) {
            Screen::Filtered => {
                bump(&self.counters.syntax_filtered);
                return Some(false);
            }
            Screen::KnownPass => return Some(false),
            Screen::Run => {}
        }
        if self.is_cancelled() {
            return None;
        }
        if let Some(la) = self.lookahead() {
            // The run goes to a lookahead worker, so that this thread may go on once it is
            // probably interesting (see `Judge::steps`).
            let bet = super::lookahead::bet::current_bet();
            if let Some(b) = &bet {
                b.wake_on(&la);
            }
            let lost = || bet.as_ref().is_some_and(|b| b.lost()) || self.is_cancelled();
            let started = |since| {
                if let Some(b) = &bet {
                    b.started(since);
                }
            };
            let main = bet.is_none();
            if let Some(hint) = hint() {
                la.note_edit(key, hint);
            }
            let earliest = || bet.as_ref().is_some_and(|b| b.is_earliest());
            let interesting = match la.request_bet(key, candidate, main, &earliest, &lost, &started)
            {
                Answer::Known(interesting) => Some(interesting),
                Answer::Assumed => Some(true),
                Answer::Lost => {
                    super::lookahead::bet::abandon();
                    None
                }
                Answer::None => None,
            };
            if interesting == Some(true) {
                if let Some(b) = &bet {
                    b.won();
                }
            }
            return interesting;
        }
        self.run_oracle(candidate, &key, None)
    }

    /// What happens to a candidate before the oracle: the cache, then the syntax filter.
    /// (The cache only holds candidates the oracle ran, which the filter had kept: the order
    /// saves a parse and changes no answer.)
    fn screen(&self, candidate: &[u8], key: &super::cache::Key) -> Screen {
        if self.cache.as_ref().is_some_and(|c| c.is_known_pass(key)) {
            Screen::KnownPass
        } else if !self.filter_keeps(candidate, key) {
            Screen::Filtered
        } else {
            Screen::Run
        }
    }

    /// The syntax filter's verdict, remembered: a lookahead worker screens a candidate ahead
    /// of time and the algorithm screens it again when it tests it.
    fn filter_keeps(&self, candidate: &[u8], key: &super::cache::Key) -> bool {
        let Some(filter) = &self.filter else {
            return true;
        };
        if let Some(&keep) = lock(&self.screened).get(key) {
            return keep;
        }
        let keep = filter(candidate);
        let mut screened = lock(&self.screened);
        if screened.len() >= SCREENED_MAX {
            screened.clear();
        }
        screened.insert(*key, keep);
        keep
    }

    /// Run the oracle on `candidate` and record the outcome (stats, cache, best so far).
    /// `None` when the run was cancelled or could not start (no answer).
    /// `token`: a speculative run, which the lookahead may abort (see `lookahead`).
    fn run_oracle(
        &self,
        candidate: &[u8],
        key: &super::cache::Key,
        token: Option<&RunToken>,
    ) -> Option<bool> {
        let started = std::time::Instant::now();
        let outcome = match token {
            Some(token) => self.oracle.run_abortable(candidate, token),
            None => self.oracle.run(candidate),
        };
        let nanos = u64::try_from(started.elapsed().as_nanos()).unwrap_or(u64::MAX);
        self.counters.busy_nanos.fetch_add(nanos, Ordering::Relaxed);
        let remember_pass = || {
            if let Some(cache) = &self.cache {
                // Larger entries would be evicted at once (proposal 2).
                if candidate.len() <= self.best_len.load(Ordering::SeqCst) {
                    cache.insert_pass(*key, candidate.len());
                }
            }
        };
        let answer = match outcome {
            Outcome::Interesting => {
                bump(&self.counters.oracle_runs);
                bump(&self.counters.interesting);
                self.improved(candidate);
                Some(true)
            }
            Outcome::NotInteresting { .. } => {
                bump(&self.counters.oracle_runs);
                remember_pass();
                Some(false)
            }
            Outcome::TimedOut => {
                bump(&self.counters.oracle_runs);
                bump(&self.counters.timeouts);
                remember_pass();
                Some(false)
            }
            Outcome::Cancelled => {
                if token.is_some_and(RunToken::is_aborted) && !self.is_cancelled() {
                    bump(&self.counters.killed);
                    bump(&self.counters.discarded);
                }
                None
            }
            Outcome::FailedToStart(msg) => {
                bump(&self.counters.failed_to_start);
                *lock(&self.last_start_error) = Some(msg);
                None
            }
        };
        // Kept for a replay (see `Judge::steps`).
        if let (Some(answer), Some(memo)) = (answer, lock(&self.memo).as_mut()) {
            memo.insert(*key, answer);
        }
        answer
    }

    fn lookahead(&self) -> Option<Arc<Lookahead>> {
        lock(&self.lookahead).clone()
    }

    /// Run `body` with `jobs` lookahead workers testing the candidates that
    /// [`Judge::announce`] names (see `lookahead`); with one job, or inside another
    /// `with_lookahead`, just `body`.
    pub(crate) fn with_lookahead<R>(&self, jobs: usize, body: impl FnOnce() -> R) -> R {
        // Nested (the final text pass of a tree reduction): the outer workers serve.
        if jobs <= 1 || self.lookahead().is_some() {
            return body();
        }
        let la = {
            let mut slot = lock(&self.lookahead);
            let held = self.reserved.load(Ordering::SeqCst);
            let la = Lookahead::with_stop(jobs, held, Arc::clone(&self.cancelled));
            for &took in lock(&self.outside_interesting).iter() {
                la.note_run(took, true);
            }
            let la = Arc::new(la);
            *slot = Some(Arc::clone(&la));
            la
        };
        let out = std::thread::scope(|scope| {
            // The workers stop when `body` returns, and when it unwinds: the scope waits for
            // them either way.
            let stop = StopOnDrop(&la);
            let mut started = 0;
            for _ in 0..jobs {
                let la = Arc::clone(&la);
                #[cfg(test)]
                let fail = tests::FAIL_WORKER.with(|f| f.get()) == Some(started);
                #[cfg(not(test))]
                let fail = false;
                let worker = if fail {
                    Err(std::io::Error::other("no thread (test)"))
                } else {
                    std::thread::Builder::new()
                        .name("lookahead".into())
                        .spawn_scoped(scope, move || self.speculate(&la))
                        .map(drop)
                };
                if let Err(e) = worker {
                    // Out of threads or memory: go on with those that started.
                    *lock(&self.missing_workers) = Some(MissingWorkers {
                        jobs,
                        started,
                        error: e.to_string(),
                    });
                    break;
                }
                started += 1;
            }
            if started == 0 {
                // No worker to run what the tests ask for: they run the oracle themselves.
                *lock(&self.lookahead) = None;
            } else {
                la.retire(jobs - started);
            }
            let out = body();
            drop(stop);
            out
        });
        // After the workers have finished their last runs (lost bets included).
        self.add_discarded(la.unused());
        self.counters
            .preempted
            .fetch_add(la.preempted(), Ordering::Relaxed);
        self.counters
            .assumed
            .fetch_add(la.assumptions(), Ordering::Relaxed);
        *lock(&self.lookahead) = None;
        out
    }

    /// Hold one of the `jobs` permits for an oracle run made outside the judge, until
    /// [`Judge::release_permit`]: the CLI checks the original input alongside the first
    /// candidates (with `jobs` above 1), and the reduction runs one candidate fewer at a time
    /// meanwhile, so no more than `jobs` oracle runs are ever under way. Call it before the
    /// reduction starts; at most `jobs - 1` permits are held.
    pub fn reserve_permit(&self) {
        let _slot = lock(&self.lookahead);
        self.reserved.fetch_add(1, Ordering::SeqCst);
    }

    /// Give back a permit of [`Judge::reserve_permit`]: a reduction under way gets a worker
    /// more at once.
    pub fn release_permit(&self) {
        let slot = lock(&self.lookahead);
        let n = self.reserved.load(Ordering::SeqCst);
        self.reserved.store(n.saturating_sub(1), Ordering::SeqCst);
        if let Some(la) = slot.as_ref().filter(|_| n > 0) {
            la.release_held();
        }
    }

    /// An interesting oracle run made outside the judge (the CLI's check of the original,
    /// beside the reduction) took `took`: the lookahead counts it among the durations of
    /// interesting runs, which its bets on success wait for the lookahead's minimum of
    /// (each one-at-a-time stretch while they are too few costs a whole interesting run at
    /// `--jobs 2`).
    pub fn note_interesting_run(&self, took: Duration) {
        let slot = lock(&self.lookahead);
        lock(&self.outside_interesting).push(took);
        if let Some(la) = slot.as_ref() {
            la.note_run(took, true);
        }
    }

    /// A lookahead worker: test announced candidates until stopped.
    fn speculate(&self, la: &Lookahead) {
        while let Some((key, candidate, requested, token)) = la.next(Cache::key) {
            let answer = if self.is_cancelled() {
                None
            } else if requested {
                // A bet of the driver waits for this answer; it was screened when asked, but
                // the cache may know it since.
                let known = self.cache.as_ref().is_some_and(|c| c.is_known_pass(&key));
                if known {
                    Some(false)
                } else {
                    self.run_oracle(&candidate, &key, Some(&token))
                }
            } else if self.screen(&candidate, &key) == Screen::Run {
                self.run_oracle(&candidate, &key, Some(&token))
            } else {
                None
            };
            // An assumption that fails raises the stop flag (see `Judge::steps`).
            la.finish(key, answer);
        }
    }

    /// Run the steps of an algorithm, `step(&mut state)` until it returns true (done), with
    /// *assumptions*: with a lookahead, the algorithm may go on as if a run it
    /// waits for were interesting once that run has lasted long enough to be very probably
    /// so (see `lookahead`), and later steps may start before an assumption of an earlier
    /// one is confirmed. The state before each step is kept (a *checkpoint*) while an
    /// assumption made in that step or a later one is still under way. An assumption that
    /// fails stops the algorithm (like a cancel), and the steps run again from the
    /// checkpoint of the step that made it, with the oracle's answers known so far given back
    /// without runs: every decision is then taken on oracle answers alone, as with one job,
    /// so the result does not depend on `--jobs`. The end is reached once every assumption
    /// is confirmed. Nested calls are steps of the outer one.
    pub(crate) fn steps<S: Clone>(&self, mut state: S, mut step: impl FnMut(&mut S) -> bool) -> S {
        let nested = lock(&self.memo).is_some();
        let la = self.lookahead().filter(|_| !nested);
        let Some(la) = la else {
            while !step(&mut state) {}
            return state;
        };
        *lock(&self.memo) = Some(HashMap::new());
        *lock(&self.pending_records) = Some(Vec::new());
        let mut saved: Vec<Checkpoint<S>> = Vec::new();
        loop {
            // Only the checkpoints an assumption under way may take us back to are kept.
            let oldest = la.oldest_outstanding();
            saved.retain(|c| oldest.is_some_and(|o| c.unit >= o));
            let unit = self.units.fetch_add(1, Ordering::SeqCst);
            saved.push(Checkpoint {
                unit,
                state: state.clone(),
                records: lock(&self.pending_records).as_ref().map_or(0, Vec::len),
                edits: lock(&self.edits).len(),
                cpu: treedd_proc::cpu_seconds(),
            });
            la.set_unit(Some((unit, saved[0].cpu)));
            let done = step(&mut state);
            let failed = if done { la.settle() } else { la.take_failed() };
            if self.cancel_requested() {
                self.cancelled.store(true, Ordering::SeqCst);
                // Back to a state no assumption under way (or failed) stands behind.
                let back = match (failed, la.oldest_outstanding()) {
                    (Some(f), Some(o)) => Some(f.min(o)),
                    (f, o) => f.or(o),
                };
                if let Some(c) = back.and_then(|u| saved.iter().find(|c| c.unit >= u)) {
                    state = c.state.clone();
                }
                break;
            }
            match failed {
                Some(failed) => {
                    let k = saved.iter().position(|c| c.unit >= failed).unwrap_or(0);
                    let c = &saved[k];
                    state = c.state.clone();
                    if let Some(records) = lock(&self.pending_records).as_mut() {
                        records.truncate(c.records);
                    }
                    lock(&self.edits).truncate(c.edits);
                    saved.truncate(k);
                    self.replaying.store(true, Ordering::SeqCst);
                    self.counters.replays.fetch_add(1, Ordering::Relaxed);
                }
                None if done => break,
                None => {}
            }
        }
        la.set_unit(None);
        self.replaying.store(false, Ordering::SeqCst);
        *lock(&self.memo) = None;
        let records = lock(&self.pending_records).take().unwrap_or_default();
        for record in records {
            self.report_record(record);
        }
        state
    }

    /// The cache knows `candidate`'s answer, or its run is under way: announcing it would
    /// waste a place. (The places are few, `jobs` or so: when they went to runs already under
    /// way, the announcement did not reach the next node and workers idled; sleep oracle,
    /// `--jobs 8`.)
    pub(crate) fn known_or_under_way(&self, candidate: &[u8]) -> bool {
        let key = Cache::key(candidate);
        self.cache_contains(&key) || self.lookahead().is_some_and(|la| la.under_way(&key))
    }

    /// The cache knows the answer for `key` (without counting a cache hit).
    fn cache_contains(&self, key: &super::cache::Key) -> bool {
        self.cache.as_ref().is_some_and(|c| c.contains(key))
    }

    /// How long a run must have lasted to be probably interesting (`lookahead::Lookahead::
    /// win_after`); `None` outside [`Judge::with_lookahead`] or while durations do not tell.
    pub(crate) fn win_after(&self) -> Option<Duration> {
        self.lookahead().and_then(|la| la.win_after())
    }

    /// The lookahead chains wins (`lookahead`'s *Chains of wins*): a sequence of candidates
    /// is tested in order on the caller's thread, each assumed interesting once its run
    /// starts. False outside [`Judge::with_lookahead`], and on a thread that tests a bet of
    /// the driver (its tests are not the algorithm's own).
    pub(crate) fn chains_wins(&self) -> bool {
        super::lookahead::bet::current_bet().is_none()
            && self.lookahead().is_some_and(|la| la.chains_wins())
    }

    fn improved(&self, candidate: &[u8]) {
        if candidate.len() >= self.best_len.load(Ordering::SeqCst) {
            return;
        }
        let mut best = lock(&self.best);
        // Re-check under the lock: another thread may have found a smaller one meanwhile.
        if candidate.len() >= self.best_len.load(Ordering::SeqCst) {
            return;
        }
        *best = Some(candidate.to_vec());
        self.best_len.store(candidate.len(), Ordering::SeqCst);
        if let Some(cache) = &self.cache {
            cache.evict_larger_than(candidate.len());
        }
        if let Some(observer) = &self.observer {
            observer.improved(candidate, &self.stats());
        }
    }

    /// Kill running oracle tests; every later `test` returns false without running anything.
    pub fn cancel(&self) {
        self.user_cancelled.store(true, Ordering::SeqCst);
        self.cancelled.store(true, Ordering::SeqCst);
        self.oracle.cancel();
        self.cancel_part();
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
    }

    /// [`Judge::cancel`] was called or the token raised: final, unlike `is_cancelled`, which
    /// a failed assumption raises for a while too.
    fn cancel_requested(&self) -> bool {
        self.user_cancelled.load(Ordering::SeqCst)
            || self.token.as_ref().is_some_and(CancelToken::is_cancelled)
    }

    /// The cancel flag, for `DdminOptions::stop` (so ddmin stops as soon as `cancel` is called).
    pub fn stop_flag(&self) -> Arc<AtomicBool> {
        Arc::clone(&self.cancelled)
    }

    /// The smallest interesting candidate seen so far (empty if none yet).
    pub fn best(&self) -> Vec<u8> {
        lock(&self.best).clone().unwrap_or_default()
    }

    /// Length of `best`, `None` if no candidate was interesting yet.
    pub fn best_len(&self) -> Option<usize> {
        match self.best_len.load(Ordering::SeqCst) {
            usize::MAX => None,
            len => Some(len),
        }
    }

    /// The message of the last oracle run that could not be started, if any.
    pub fn last_start_error(&self) -> Option<String> {
        lock(&self.last_start_error).clone()
    }

    /// Whether some workers of `--jobs` could not start (the operating system's limit on
    /// threads or memory), and how many did.
    pub fn missing_workers(&self) -> Option<MissingWorkers> {
        lock(&self.missing_workers).clone()
    }

    /// Snapshot of the counters (those of the parts judged inside this judge included).
    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        let own = Stats {
            tests: get(&c.tests),
            oracle_runs: get(&c.oracle_runs),
            interesting: get(&c.interesting),
            cache_hits: self.cache.as_ref().map_or(0, Cache::hits),
            syntax_filtered: get(&c.syntax_filtered),
            cache_peak_entries: self.cache.as_ref().map_or(0, |c| c.peak_entries() as u64),
            timeouts: get(&c.timeouts),
            failed_to_start: get(&c.failed_to_start),
            discarded: get(&c.discarded),
            killed: get(&c.killed),
            preempted: get(&c.preempted),
            assumed: get(&c.assumed),
            replays: get(&c.replays),
            recalled: get(&c.recalled),
            busy_seconds: get(&c.busy_nanos) as f64 / 1e9,
        };
        nested::add(&own, &self.parts_stats())
    }

    /// Report what a pass or the tree phase did in one round (for `--stats`); inside
    /// `Judge::steps`, when the steps end, without the records of steps taken back.
    pub fn record(&self, record: PassRecord) {
        match lock(&self.pending_records).as_mut() {
            Some(pending) => pending.push(record),
            None => self.report_record(record),
        }
    }

    fn report_record(&self, record: PassRecord) {
        if let Some(observer) = &self.observer {
            observer.record(record);
        }
    }

    /// Count speculative tests whose answers were not used (see `driver`).
    pub fn add_discarded(&self, n: u64) {
        self.counters.discarded.fetch_add(n, Ordering::Relaxed);
    }

    /// Entries the cache holds now (0 without a cache).
    pub fn cache_len(&self) -> usize {
        self.cache.as_ref().map_or(0, Cache::len)
    }

    /// Report the phase the reduction entered (the CLI's progress display shows it).
    pub fn phase(&self, phase: &str) {
        if let Some(observer) = &self.observer {
            observer.phase(phase);
        }
    }
}

/// An oracle from a closure (true = interesting), for tests and library users.
pub struct FnOracle<F: Fn(&[u8]) -> bool + Send + Sync> {
    f: F,
    cancelled: AtomicBool,
    runs: AtomicU64,
}

impl<F: Fn(&[u8]) -> bool + Send + Sync> FnOracle<F> {
    pub fn new(f: F) -> FnOracle<F> {
        FnOracle {
            f,
            cancelled: AtomicBool::new(false),
            runs: AtomicU64::new(0),
        }
    }

    /// How many times the closure was called.
    pub fn runs(&self) -> u64 {
        self.runs.load(Ordering::SeqCst)
    }
}

impl<F: Fn(&[u8]) -> bool + Send + Sync> Oracle for FnOracle<F> {
    fn run(&self, candidate: &[u8]) -> Outcome {
        if self.cancelled.load(Ordering::SeqCst) {
            return Outcome::Cancelled;
        }
        self.runs.fetch_add(1, Ordering::SeqCst);
        if (self.f)(candidate) {
            Outcome::Interesting
        } else {
            Outcome::NotInteresting { code: Some(1) }
        }
    }

    fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
    }
}

mod memory;
mod nested;
pub(crate) use nested::OnImprovement;
#[cfg(test)]
mod tests;
