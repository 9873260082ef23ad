//! The judge every algorithm asks about a candidate:
//! syntax filter -> content cache -> oracle, with stats and the best-so-far callback.
//!
//! **Invariant:** the cache only ever holds candidates the oracle said were not interesting
//! (or that timed out), never one larger than the best interesting candidate seen so far.

use std::collections::HashMap;
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use crate::lookahead::{Answer, Lookahead};
use crate::{Cache, Oracle, Outcome, PassRecord, RunToken, Stats};

/// Decides before the oracle whether a candidate may be interesting at all (true = keep).
pub type Filter = Box<dyn Fn(&[u8]) -> bool + Send + Sync>;
/// Called with every interesting candidate smaller than all seen before (serialized).
pub type OnImprovement = Box<dyn Fn(&[u8]) + Send + Sync>;

pub struct JudgeOptions {
    /// Use the content cache (ch. 4).
    pub cache: bool,
    /// Syntax filter run before the cache and the oracle.
    pub filter: Option<Filter>,
    /// Best-so-far callback (the CLI writes the current best result to disk there).
    pub on_improvement: Option<OnImprovement>,
}

impl Default for JudgeOptions {
    fn default() -> Self {
        JudgeOptions {
            cache: true,
            filter: None,
            on_improvement: None,
        }
    }
}

pub struct Judge {
    oracle: Box<dyn Oracle>,
    cache: Option<Cache>,
    filter: Option<Filter>,
    on_improvement: Option<OnImprovement>,
    cancelled: Arc<AtomicBool>,
    counters: Counters,
    /// Length of `best` (usize::MAX while there is none), readable without the lock.
    best_len: AtomicUsize,
    best: Mutex<Option<Vec<u8>>>,
    phase: Mutex<String>,
    last_start_error: Mutex<Option<String>>,
    records: Mutex<Vec<PassRecord>>,
    lookahead: Mutex<Option<Arc<Lookahead>>>,
    /// The syntax filter's recent verdicts (see [`Judge::filter_keeps`]).
    screened: Mutex<HashMap<crate::cache::Key, bool>>,
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
    busy_nanos: AtomicU64,
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

fn bump(counter: &AtomicU64) {
    counter.fetch_add(1, Ordering::Relaxed);
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

impl Judge {
    pub fn new(oracle: Box<dyn Oracle>, opts: JudgeOptions) -> Judge {
        Judge {
            oracle,
            cache: opts.cache.then(Cache::new),
            filter: opts.filter,
            on_improvement: opts.on_improvement,
            cancelled: Arc::new(AtomicBool::new(false)),
            counters: Counters::default(),
            best_len: AtomicUsize::new(usize::MAX),
            best: Mutex::new(None),
            phase: Mutex::new(String::new()),
            last_start_error: Mutex::new(None),
            records: Mutex::new(Vec::new()),
            lookahead: Mutex::new(None),
            screened: Mutex::new(HashMap::new()),
        }
    }

    /// True if the candidate is interesting. Thread-safe; false at once after `cancel`.
    pub fn test(&self, candidate: &[u8]) -> bool {
        if self.is_cancelled() {
            return false;
        }
        bump(&self.counters.tests);
        let key = Cache::key(candidate);
        match self.screen(candidate, &key) {
            Screen::Filtered => {
                bump(&self.counters.syntax_filtered);
                return false;
            }
            Screen::KnownPass => return false,
            Screen::Run => {}
        }
        if self.is_cancelled() {
            return false;
        }
        let lookahead = self.lookahead();
        if let (Some(la), Some(bet)) = (&lookahead, crate::lookahead::bet::current_bet()) {
            return match la.request(key, candidate, &|| bet.lost() || self.is_cancelled()) {
                Answer::Known(interesting) => {
                    if interesting {
                        bet.won();
                        la.notify();
                    }
                    interesting
                }
                Answer::Lost => {
                    crate::lookahead::bet::abandon();
                    false
                }
                Answer::None => false,
            };
        }
        if let Some(la) = &lookahead {
            if let Some(answer) = la.claim(key) {
                return answer;
            }
        }
        let answer = self.run_oracle(candidate, &key, None);
        if let Some(la) = &lookahead {
            la.finish(key, answer, false);
        }
        answer.unwrap_or(false)
    }

    /// What happens to a candidate before the oracle: the cache, then the syntax filter.
    /// (The cache only holds candidates the oracle ran, which the filter had kept: the order
    /// saves a parse and changes no answer.)
    fn screen(&self, candidate: &[u8], key: &crate::cache::Key) -> Screen {
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
    fn filter_keeps(&self, candidate: &[u8], key: &crate::cache::Key) -> bool {
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
        key: &crate::cache::Key,
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
        match outcome {
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
        }
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
        let la = Arc::new(Lookahead::new(jobs));
        *lock(&self.lookahead) = Some(Arc::clone(&la));
        let out = std::thread::scope(|scope| {
            for _ in 0..jobs {
                let la = Arc::clone(&la);
                scope.spawn(move || self.speculate(&la));
            }
            let out = body();
            la.stop();
            out
        });
        // After the workers have finished their last runs (lost bets included).
        self.add_discarded(la.unused());
        *lock(&self.lookahead) = None;
        out
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
            la.finish(key, answer, true);
        }
    }

    /// The cache knows `candidate` is not interesting (announcing it would waste a place).
    pub(crate) fn known_pass(&self, candidate: &[u8]) -> bool {
        self.cache
            .as_ref()
            .is_some_and(|c| c.contains(&Cache::key(candidate)))
    }

    /// Name the candidates the algorithm will test next if everything pending fails; idle
    /// workers test them ahead of time (only inside [`Judge::with_lookahead`]).
    pub(crate) fn announce(&self, candidates: Vec<Vec<u8>>) {
        if let Some(la) = self.lookahead() {
            la.announce(candidates);
        }
    }

    /// A bet on success (see `lookahead`): `candidates` are what the algorithm tests next if
    /// `pending` (under test now) is interesting. Only inside [`Judge::with_lookahead`].
    pub(crate) fn announce_if(&self, pending: &[u8], candidates: Vec<Vec<u8>>) {
        if let Some(la) = self.lookahead() {
            la.announce_if(Cache::key(pending), candidates);
        }
    }

    /// How long a run must have lasted to be probably interesting (`lookahead::Lookahead::
    /// win_after`); `None` outside [`Judge::with_lookahead`] or while durations do not tell.
    pub(crate) fn win_after(&self) -> Option<std::time::Duration> {
        self.lookahead().and_then(|la| la.win_after())
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
        if let Some(callback) = &self.on_improvement {
            callback(candidate);
        }
    }

    /// Kill running oracle tests; every later `test` returns false without running anything.
    pub fn cancel(&self) {
        self.cancelled.store(true, Ordering::SeqCst);
        self.oracle.cancel();
    }

    pub fn is_cancelled(&self) -> bool {
        self.cancelled.load(Ordering::SeqCst)
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

    /// Snapshot of the counters.
    pub fn stats(&self) -> Stats {
        let c = &self.counters;
        let get = |a: &AtomicU64| a.load(Ordering::Relaxed);
        Stats {
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
            busy_seconds: get(&c.busy_nanos) as f64 / 1e9,
        }
    }

    /// Record what a pass or the tree phase did in one round (for `--stats`).
    pub fn record(&self, record: PassRecord) {
        lock(&self.records).push(record);
    }

    /// Every record so far, in order.
    pub fn records(&self) -> Vec<PassRecord> {
        lock(&self.records).clone()
    }

    /// Count speculative tests whose answers were not used (see `driver`).
    pub fn add_discarded(&self, n: u64) {
        self.counters.discarded.fetch_add(n, Ordering::Relaxed);
    }

    /// Entries the cache holds now (0 without a cache).
    pub fn cache_len(&self) -> usize {
        self.cache.as_ref().map_or(0, Cache::len)
    }

    /// Name the current phase (shown by the CLI's progress display).
    pub fn set_phase(&self, phase: &str) {
        let mut p = lock(&self.phase);
        p.clear();
        p.push_str(phase);
    }

    pub fn phase(&self) -> String {
        lock(&self.phase).clone()
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

#[cfg(test)]
mod tests {
    use std::sync::Mutex;

    use super::*;
    use crate::{ddmin, DdminOptions};

    type Pred = fn(&[u8]) -> bool;

    fn judge_with(f: Pred, opts: JudgeOptions) -> (Judge, Arc<FnOracle<Pred>>) {
        let oracle = Arc::new(FnOracle::new(f));
        (Judge::new(Box::new(Arc::clone(&oracle)), opts), oracle)
    }

    #[test]
    fn filter_runs_before_the_oracle_and_is_counted() {
        let opts = JudgeOptions {
            filter: Some(Box::new(|c: &[u8]| c.first() == Some(&b'{'))),
            ..Default::default()
        };
        let (judge, oracle) = judge_with(|_| true, opts);
        assert!(!judge.test(b"x{}"));
        assert!(!judge.test(b""));
        assert!(judge.test(b"{}"));
        let stats = judge.stats();
        assert_eq!(
            (stats.syntax_filtered, stats.oracle_runs, stats.tests),
            (2, 1, 3)
        );
        assert_eq!(oracle.runs(), 1);
    }

    #[test]
    fn the_filter_judges_each_candidate_once() {
        static CALLS: AtomicU64 = AtomicU64::new(0);
        let opts = JudgeOptions {
            filter: Some(Box::new(|c: &[u8]| {
                CALLS.fetch_add(1, Ordering::SeqCst);
                c.first() == Some(&b'{')
            })),
            ..Default::default()
        };
        let (judge, oracle) = judge_with(|c| c.len() == 2, opts);
        for _ in 0..3 {
            // Filtered each time, parsed once.
            assert!(!judge.test(b"x{}"));
            // Not interesting, then known to the cache: neither filtered nor run again.
            assert!(!judge.test(b"{ }"));
        }
        assert_eq!(CALLS.load(Ordering::SeqCst), 2);
        assert_eq!(oracle.runs(), 1);
        assert_eq!(judge.stats().syntax_filtered, 3);
    }

    #[test]
    fn cache_answers_repeats_of_passing_candidates_only() {
        let (judge, oracle) = judge_with(|c| c.contains(&b'x'), JudgeOptions::default());
        assert!(!judge.test(b"abc"));
        assert!(!judge.test(b"abc"));
        assert!(judge.test(b"xyz"));
        assert!(
            judge.test(b"xyz"),
            "an interesting outcome must never come from the cache"
        );
        assert_eq!(oracle.runs(), 3);
        let stats = judge.stats();
        assert_eq!(
            (stats.cache_hits, stats.oracle_runs, stats.interesting),
            (1, 3, 2)
        );

        let (judge, oracle) = judge_with(
            |_| false,
            JudgeOptions {
                cache: false,
                ..Default::default()
            },
        );
        assert!(!judge.test(b"abc") && !judge.test(b"abc"));
        assert_eq!((oracle.runs(), judge.stats().cache_hits), (2, 0));
    }

    #[test]
    fn improvement_evicts_larger_cache_entries_and_peak_is_counted() {
        let (judge, _) = judge_with(|c| c.ends_with(b"!"), JudgeOptions::default());
        assert!(judge.test(b"0123456789!"));
        for c in [&b"0123456789"[..], b"012345678", b"0123", b"01"] {
            assert!(!judge.test(c));
        }
        assert_eq!(judge.cache_len(), 4);
        assert!(judge.test(b"012!"));
        // Entries longer than 4 bytes are gone, the others stay.
        assert_eq!(judge.cache_len(), 2);
        assert!(!judge.test(b"01"));
        assert_eq!(judge.stats().cache_hits, 1);
        assert_eq!(judge.stats().cache_peak_entries, 4);
        // Longer than the best: not worth storing.
        assert!(!judge.test(b"0123456789abc"));
        assert_eq!(judge.cache_len(), 2);
    }

    #[test]
    fn cache_keeps_memory_bounded_during_ddmin() {
        // ddmin over 200 lines: without eviction the cache would hold every passing test.
        let input: Vec<u8> = (0..200)
            .flat_map(|i| format!("{i}\n").into_bytes())
            .collect();
        let (judge, _) = judge_with(
            |c| {
                let s = std::str::from_utf8(c).unwrap_or("");
                s.lines().any(|l| l == "17") && s.lines().any(|l| l == "150")
            },
            JudgeOptions::default(),
        );
        let out = crate::reduce_text(
            &input,
            crate::TextUnit::Line,
            &judge,
            &DdminOptions::default(),
        );
        assert_eq!(out, b"17\n150\n");
        let stats = judge.stats();
        let passing = stats.oracle_runs - stats.interesting;
        assert!(stats.cache_peak_entries * 3 < passing, "{stats:?}");
        assert!(stats.cache_peak_entries > 0);
    }

    #[test]
    fn best_so_far_callback_only_on_strictly_smaller_interesting_candidates() {
        let seen = Arc::new(Mutex::new(Vec::new()));
        let log = Arc::clone(&seen);
        let opts = JudgeOptions {
            on_improvement: Some(Box::new(move |c: &[u8]| {
                log.lock().unwrap().push(c.to_vec())
            })),
            ..Default::default()
        };
        let (judge, _) = judge_with(|c| c.starts_with(b"a"), opts);
        assert_eq!((judge.best(), judge.best_len()), (Vec::new(), None));
        assert!(judge.test(b"abcd"));
        assert!(!judge.test(b"bcd"));
        assert!(judge.test(b"abce")); // same size: not an improvement
        assert!(judge.test(b"abcdef")); // larger
        assert!(judge.test(b"ab"));
        assert_eq!(
            *seen.lock().unwrap(),
            vec![b"abcd".to_vec(), b"ab".to_vec()]
        );
        assert_eq!((judge.best(), judge.best_len()), (b"ab".to_vec(), Some(2)));
    }

    #[test]
    fn cancel_stops_ddmin_without_further_oracle_runs() {
        let judge_cell: Arc<Mutex<Option<Arc<Judge>>>> = Arc::new(Mutex::new(None));
        let cell = Arc::clone(&judge_cell);
        let runs = Arc::new(AtomicU64::new(0));
        let counter = Arc::clone(&runs);
        let oracle = FnOracle::new(move |c: &[u8]| {
            if counter.fetch_add(1, Ordering::SeqCst) == 9 {
                // Ctrl-C arrives during the 10th run.
                if let Some(judge) = cell.lock().unwrap().as_ref() {
                    judge.cancel();
                }
            }
            c.first() == Some(&0) && c.last() == Some(&255)
        });
        let judge = Arc::new(Judge::new(Box::new(oracle), JudgeOptions::default()));
        *judge_cell.lock().unwrap() = Some(Arc::clone(&judge));
        let units: Vec<u8> = (0..=255).cycle().take(5000).collect();
        let calls = AtomicU64::new(0);
        let test = |c: &[u8]| {
            calls.fetch_add(1, Ordering::SeqCst);
            judge.test(c)
        };
        let opts = DdminOptions {
            stop: Some(judge.stop_flag()),
            jobs: 4,
            ..Default::default()
        };
        let out = ddmin(&units, &test, &opts);
        *judge_cell.lock().unwrap() = None;
        assert!(judge.is_cancelled());
        assert_eq!(runs.load(Ordering::SeqCst), 10, "oracle ran after cancel");
        assert!(
            calls.load(Ordering::SeqCst) <= 12,
            "ddmin kept going: {calls:?}"
        );
        assert!(!out.is_empty());
        assert!(!judge.test(&out), "tests after cancel must be false");
    }

    #[test]
    fn cache_changes_no_result_only_the_oracle_runs() {
        let input: Vec<u8> = (0..120u32)
            .flat_map(|i| format!("{}\n", i % 17).into_bytes())
            .collect();
        let f: Pred = |c| c.windows(3).any(|w| w == b"16\n") && c.windows(2).any(|w| w == b"3\n");
        let mut outs = Vec::new();
        for cache in [true, false] {
            let (judge, oracle) = judge_with(
                f,
                JudgeOptions {
                    cache,
                    ..Default::default()
                },
            );
            let opts = DdminOptions {
                fixpoint: true,
                ..Default::default()
            };
            let out = crate::reduce_text(&input, crate::TextUnit::LineThenChar, &judge, &opts);
            outs.push((out, oracle.runs(), judge.stats().cache_hits));
        }
        assert_eq!(outs[0].0, outs[1].0);
        assert!(outs[0].2 > 0, "no cache hits: {:?}", outs[0]);
        assert_eq!(
            outs[0].1 + outs[0].2,
            outs[1].1,
            "every hit saves exactly one run"
        );
    }

    #[test]
    fn property_judge_answers_equal_the_oracle_with_or_without_cache() {
        // Random non-monotone oracles over random byte strings, sequential and parallel:
        // every answer of the judge is the oracle's own answer (the cache never turns an
        // interesting candidate into a pass), and the cache changes no result.
        let mut seed = 0x5eed_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 33
        };
        let mut ran = 0;
        for case in 0..60 {
            let len = 1 + next() % 60;
            let input: Vec<u8> = (0..len).map(|_| b'a' + (next() % 4) as u8).collect();
            let salt = next();
            let must = input[(next() % len) as usize];
            let f = move |c: &[u8]| {
                let h = c
                    .iter()
                    .fold(salt, |h, &b| (h ^ u64::from(b)).wrapping_mul(0x100000001b3));
                c.contains(&must) && (h % 4 != 0 || c.len() <= 1)
            };
            if !f(&input) {
                continue;
            }
            ran += 1;
            let mut results = Vec::new();
            for (cache, jobs) in [(true, 1), (false, 1), (true, 4)] {
                let judge = Judge::new(
                    Box::new(FnOracle::new(f)),
                    JudgeOptions {
                        cache,
                        ..Default::default()
                    },
                );
                let units: Vec<u8> = input.clone();
                let test = |c: &[u8]| {
                    let answer = judge.test(c);
                    assert_eq!(
                        answer,
                        f(c),
                        "case {case}: judge answered wrongly for {c:?}"
                    );
                    answer
                };
                let opts = DdminOptions {
                    jobs,
                    fixpoint: true,
                    ..Default::default()
                };
                results.push(ddmin(&units, &test, &opts));
            }
            assert_eq!(
                results[0], results[1],
                "case {case}: the cache changed the result"
            );
            assert_eq!(
                results[0], results[2],
                "case {case}: jobs changed the result"
            );
        }
        assert!(ran >= 30, "only {ran} cases had an interesting input");
    }

    #[test]
    fn phase_and_failed_starts() {
        struct Broken;
        impl Oracle for Broken {
            fn run(&self, _: &[u8]) -> Outcome {
                Outcome::FailedToStart("exec format error".into())
            }
            fn cancel(&self) {}
        }
        let judge = Judge::new(Box::new(Broken), JudgeOptions::default());
        judge.set_phase("text: lines");
        assert_eq!(judge.phase(), "text: lines");
        assert!(!judge.test(b"x") && !judge.test(b"x"));
        assert_eq!(
            judge.stats().failed_to_start,
            2,
            "failed starts must not be cached"
        );
        assert_eq!(
            judge.last_start_error().as_deref(),
            Some("exec format error")
        );
    }

    #[test]
    fn timeouts_count_as_not_interesting() {
        struct Slow;
        impl Oracle for Slow {
            fn run(&self, _: &[u8]) -> Outcome {
                Outcome::TimedOut
            }
            fn cancel(&self) {}
        }
        let judge = Judge::new(Box::new(Slow), JudgeOptions::default());
        assert!(!judge.test(b"x") && !judge.test(b"x"));
        let stats = judge.stats();
        assert_eq!(
            (stats.timeouts, stats.oracle_runs, stats.cache_hits),
            (1, 1, 1)
        );
    }

    #[test]
    fn cancelled_runs_are_never_cached_nor_counted_as_timeouts() {
        // A run cut by treedd's own cancellation (a later speculative driver cancels runs)
        // has no answer: the same candidate must be run again when asked again.
        struct CancelledOnce(AtomicU64);
        impl Oracle for CancelledOnce {
            fn run(&self, _: &[u8]) -> Outcome {
                match self.0.fetch_add(1, Ordering::SeqCst) {
                    0 => Outcome::Cancelled,
                    _ => Outcome::Interesting,
                }
            }
            fn cancel(&self) {}
        }
        let judge = Judge::new(
            Box::new(CancelledOnce(AtomicU64::new(0))),
            JudgeOptions::default(),
        );
        assert!(!judge.test(b"x"));
        assert!(judge.test(b"x"), "a cancelled run's answer was cached");
        let stats = judge.stats();
        assert_eq!((stats.timeouts, stats.cache_hits), (0, 0));
    }
}
