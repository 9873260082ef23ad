//! Speculation across algorithm steps (issue 10): an algorithm *announces* the candidates it
//! will test next if everything pending fails (HDDr: the first candidates of the next nodes
//! in its work list), and idle workers test them ahead of time. When the algorithm gets
//! there, its own test finds the answer ready (or waits for the run in flight) instead of
//! starting the oracle. The algorithm itself stays sequential and decides only on oracle
//! answers, which are the same whether they come early or late, so the result does not
//! depend on `--jobs`; a speculative run the algorithm never asks for (its bet was lost
//! because an earlier candidate was interesting) is counted as discarded.
//!
//! Oracle runs are bounded by `jobs` permits in all: the algorithm's own tests take a permit
//! first, speculative runs only take one that nobody on the main line is waiting for.
//!
//! **Bets on success** ([`Lookahead::announce_if`]). Betting that every pending candidate
//! fails (C-Vise's bet) cannot shorten a chain of interesting candidates: each one must answer
//! before the next is known. But an interesting run often takes longer than a failing one (a
//! compiler's crash comes late, a syntax error early; a grep that fails ends the run at once).
//! The lookahead keeps the durations of recent runs by answer and derives [`Lookahead::
//! win_after`]: how long a run must have lasted before it is more likely interesting than not.
//! A *branch* is what the algorithm tests next if a given pending candidate is interesting;
//! once that candidate's run has lasted that long, idle workers test the branch first. If the
//! candidate fails after all, the branch is dropped and its runs are killed. Where durations
//! do not tell answers apart (a sleep oracle), there is no such time and nothing changes.
//!
//! **Preemption.** When a branch falls due and every permit is taken, the workers are mostly
//! on bets that the branch's condition *fails* (the later candidates of the same round), which
//! are lost if it wins, as it probably does. The latest started of those runs is killed to free
//! its permit for the branch, and a test waiting for its answer puts it back in the queue, so it
//! is run again if it is still needed (the condition failed after all) and every answer the
//! algorithm uses is still an oracle's. Without this, on the JRTS oracles (interesting runs
//! 56 ms, failing ones 5 ms) the second worker was mostly busy with a lost bet while the
//! condition ran, and the branch waited for it.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::{Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::cache::Key;
use crate::RunToken;

#[derive(Clone, Debug)]
enum Slot {
    /// Running; `speculative` runs were started by a lookahead worker and can be aborted
    /// through `token` once none of the `waiters` (tests waiting for this answer) is left.
    Running {
        speculative: bool,
        token: RunToken,
        waiters: usize,
        since: Instant,
        /// For a run of a branch: the candidate whose success the branch bets on.
        condition: Option<Key>,
    },
    Done {
        interesting: bool,
        speculative: bool,
        used: bool,
    },
}

struct State {
    queue: VecDeque<Vec<u8>>,
    /// Bets on success: (condition, what is tested next if the condition is interesting).
    branches: Vec<(Key, VecDeque<Vec<u8>>)>,
    durations: Durations,
    /// Runs the speculative driver asked for (see [`Lookahead::request`]): before `queue`.
    requests: VecDeque<(Key, Vec<u8>)>,
    slots: HashMap<Key, Slot>,
    /// Runs killed by [`preempt`]: a test waiting for one of them queues it again.
    preempted: HashSet<Key>,
    /// How many runs [`preempt`] killed.
    preemptions: u64,
    free: usize,
    main_waiting: usize,
    stopped: bool,
}

/// What [`Lookahead::request`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The oracle's answer.
    Known(bool),
    /// An earlier bet won first: nobody waits for this answer any more.
    Lost,
    /// The run was cancelled or could not start.
    None,
}

pub(crate) struct Lookahead {
    state: Mutex<State>,
    changed: Condvar,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How many announced candidates wait at most (older announcements are dropped first).
const QUEUE_LIMIT: usize = 256;

/// How many branches are kept at most (the oldest is dropped first).
const BRANCH_LIMIT: usize = 4;

/// How many recent run durations are kept per answer.
const DURATION_WINDOW: usize = 256;

/// How many runs of each answer must have been seen before durations are trusted.
const DURATION_MIN: usize = 3;

/// Recent durations of runs that answered, by answer.
#[derive(Default)]
struct Durations {
    interesting: VecDeque<Duration>,
    failing: VecDeque<Duration>,
}

impl Durations {
    fn add(&mut self, took: Duration, interesting: bool) {
        let list = if interesting {
            &mut self.interesting
        } else {
            &mut self.failing
        };
        if list.len() == DURATION_WINDOW {
            list.pop_front();
        }
        list.push_back(took);
    }

    /// The shortest time `t` such that, among the recent runs that lasted longer than `t`,
    /// more were interesting than not: a run still going after `t` is more likely
    /// interesting than not. `None` until both answers were seen [`DURATION_MIN`] times, or
    /// when no such time exists (durations do not tell the answers apart).
    fn win_after(&self) -> Option<Duration> {
        if self.interesting.len() < DURATION_MIN || self.failing.len() < DURATION_MIN {
            return None;
        }
        let mut interesting: Vec<Duration> = self.interesting.iter().copied().collect();
        let mut failing: Vec<Duration> = self.failing.iter().copied().collect();
        interesting.sort_unstable();
        failing.sort_unstable();
        // Only the observed durations (and 0) can be the shortest such time.
        std::iter::once(Duration::ZERO)
            .chain(failing.iter().copied())
            .chain(interesting.iter().copied())
            .filter(|&t| {
                let longer_i = interesting.len() - interesting.partition_point(|&d| d <= t);
                let longer_f = failing.len() - failing.partition_point(|&d| d <= t);
                longer_i >= DURATION_MIN && longer_i > longer_f
            })
            .min()
    }
}

impl Lookahead {
    pub fn new(jobs: usize) -> Lookahead {
        Lookahead {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                branches: Vec::new(),
                durations: Durations::default(),
                requests: VecDeque::new(),
                slots: HashMap::new(),
                preempted: HashSet::new(),
                preemptions: 0,
                free: jobs.max(1),
                main_waiting: 0,
                stopped: false,
            }),
            changed: Condvar::new(),
        }
    }

    /// Replace the queue of announced candidates.
    pub fn announce(&self, candidates: Vec<Vec<u8>>) {
        let mut s = lock(&self.state);
        s.queue = candidates.into_iter().take(QUEUE_LIMIT).collect();
        drop(s);
        self.changed.notify_all();
    }

    /// A bet on success: `candidates` are what the algorithm tests next if `condition` is
    /// interesting (and everything after it fails). Idle workers test them before anything
    /// else once `condition`'s run has lasted [`Lookahead::win_after`]; dropped when it
    /// answers, and their runs killed if the answer is not interesting.
    ///
    /// If no permit is free when the branch falls due, a bet on the condition's failure is
    /// killed to free one (see *Preemption* in the module docs): this waits, on the caller's
    /// otherwise idle thread, until the branch is due, or has no use for it any more (the
    /// condition answered, a permit came free, or the main line wants one).
    pub fn announce_if(&self, condition: Key, candidates: Vec<Vec<u8>>) {
        let mut s = lock(&self.state);
        s.branches.retain(|(c, _)| *c != condition);
        if s.branches.len() == BRANCH_LIMIT {
            s.branches.remove(0);
        }
        let queue: VecDeque<Vec<u8>> = candidates.into_iter().take(QUEUE_LIMIT).collect();
        let worth = !queue.is_empty();
        s.branches.push((condition, queue));
        self.changed.notify_all();
        while worth && !s.stopped && s.free == 0 && s.main_waiting == 0 {
            let Some(after) = s.durations.win_after() else {
                break;
            };
            let Some(&Slot::Running { since, .. }) = s.slots.get(&condition) else {
                break;
            };
            if !s.branches.iter().any(|(c, _)| *c == condition) {
                break;
            }
            let elapsed = since.elapsed();
            if elapsed >= after {
                preempt(&mut s, since);
                break;
            }
            s = self.wait(s, after - elapsed);
        }
    }

    /// How long a run must have lasted to be probably interesting, from the recent runs'
    /// durations (see the module docs); `None`: durations do not tell (yet).
    pub fn win_after(&self) -> Option<Duration> {
        lock(&self.state).durations.win_after()
    }

    /// The main line wants to test `key`: `Some(answer)` if a run of it finished or is in
    /// flight (waited for); `None` after taking a permit and marking `key` as running (the
    /// caller runs it and calls [`Lookahead::finish`]).
    pub fn claim(&self, key: Key) -> Option<bool> {
        let mut s = lock(&self.state);
        let mut waiting = None;
        loop {
            let stopped = s.stopped;
            match s.slots.get_mut(&key) {
                // Only a speculative answer is handed out, once: repeats of the main line's
                // own tests are the cache's business (and `--no-cache` means no cache).
                Some(Slot::Done {
                    interesting,
                    speculative: true,
                    used: used @ false,
                }) => {
                    *used = true;
                    return Some(*interesting);
                }
                Some(Slot::Running { token, waiters, .. }) if !stopped => {
                    join(&mut waiting, token, waiters);
                    s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
                }
                _ => break,
            }
        }
        leave(&mut s, &key, &waiting);
        s.main_waiting += 1;
        while s.free == 0 && !s.stopped {
            s = self.changed.wait(s).unwrap_or_else(|e| e.into_inner());
        }
        s.main_waiting -= 1;
        s.free = s.free.saturating_sub(1);
        s.slots.insert(
            key,
            Slot::Running {
                speculative: false,
                token: RunToken::new(),
                waiters: 0,
                since: Instant::now(),
                condition: None,
            },
        );
        None
    }

    /// A bet of the speculative driver (`driver::current_bet`) wants `key` tested: a worker
    /// runs it (before any announced candidate) and this waits for the answer, or for a run
    /// of it already in flight, unless `lost()` becomes true first (see [`Answer`]).
    ///
    /// A lost bet aborts the run it waited for (its process group is killed), unless some
    /// other test still waits for that answer: C-Vise kills its lost bets too. Before this,
    /// lost runs went on to the end, holding a core and a permit.
    pub fn request(&self, key: Key, candidate: &[u8], lost: &dyn Fn() -> bool) -> Answer {
        let mut s = lock(&self.state);
        let mut queued = false;
        let mut waiting = None;
        loop {
            if s.stopped {
                leave(&mut s, &key, &waiting);
                return Answer::None;
            }
            let in_requests = queued && s.requests.iter().any(|(k, _)| *k == key);
            // Killed to free a permit for a bet on success (see `preempt`): queue it again.
            let requeue =
                queued && !in_requests && !s.slots.contains_key(&key) && s.preempted.remove(&key);
            match s.slots.get_mut(&key) {
                Some(Slot::Done {
                    interesting,
                    speculative: true,
                    used: used @ false,
                }) => {
                    *used = true;
                    return Answer::Known(*interesting);
                }
                // An answer someone else used: run again, as `claim` would.
                Some(Slot::Done { .. }) => {
                    s.slots.remove(&key);
                    continue;
                }
                Some(Slot::Running { token, waiters, .. }) => join(&mut waiting, token, waiters),
                None if !queued => {
                    s.requests.push_back((key, candidate.to_vec()));
                    queued = true;
                    self.changed.notify_all();
                }
                None if requeue => {
                    s.requests.push_back((key, candidate.to_vec()));
                    self.changed.notify_all();
                }
                // Run and ended without an answer (cancelled, or failed to start).
                None if !in_requests => return Answer::None,
                None => {}
            }
            if lost() {
                s.requests.retain(|(k, _)| *k != key);
                if let Some(token) = leave(&mut s, &key, &waiting) {
                    token.abort();
                }
                return Answer::Lost;
            }
            // `lost` turns true without a notification when the winner was known without
            // a run (ddmin's memo): look again now and then.
            s = self.wait(s, Duration::from_millis(20));
        }
    }

    /// Wait for a change of the state, at most `timeout`.
    fn wait<'s>(&self, s: MutexGuard<'s, State>, timeout: Duration) -> MutexGuard<'s, State> {
        self.changed
            .wait_timeout(s, timeout)
            .unwrap_or_else(|e| e.into_inner())
            .0
    }

    /// Wake every waiter (a bet was won: the later ones are lost).
    pub fn notify(&self) {
        self.changed.notify_all();
    }

    /// A run of `key` ended (`None`: cancelled or failed, not an answer); its permit is free.
    pub fn finish(&self, key: Key, interesting: Option<bool>, speculative: bool) {
        let mut s = lock(&self.state);
        s.free += 1;
        if let (Some(interesting), Some(Slot::Running { since, .. })) =
            (interesting, s.slots.get(&key))
        {
            let took = since.elapsed();
            s.durations.add(took, interesting);
        }
        if let Some(interesting) = interesting {
            end_branch(&mut s, &key, interesting);
            s.preempted.remove(&key);
        }
        match interesting {
            Some(interesting) => {
                s.slots.insert(
                    key,
                    Slot::Done {
                        interesting,
                        speculative,
                        used: !speculative,
                    },
                );
            }
            None => {
                s.slots.remove(&key);
            }
        }
        drop(s);
        self.changed.notify_all();
    }

    /// For a worker: the next requested or announced candidate not run yet, with a permit
    /// taken, and whether it was requested; `None` once stopped.
    pub fn next(&self, key_of: impl Fn(&[u8]) -> Key) -> Option<(Key, Vec<u8>, bool, RunToken)> {
        let mut s = lock(&self.state);
        loop {
            if s.stopped {
                return None;
            }
            let mut timeout = Duration::from_millis(50);
            if s.free > 0 && s.main_waiting == 0 {
                if let Some((condition, key, candidate)) =
                    branch_candidate(&mut s, &key_of, &mut timeout)
                {
                    return Some(start(&mut s, key, candidate, false, Some(condition)));
                }
                while let Some((key, candidate)) = s.requests.pop_front() {
                    if s.slots.contains_key(&key) {
                        continue;
                    }
                    return Some(start(&mut s, key, candidate, true, None));
                }
                while let Some(candidate) = s.queue.pop_front() {
                    let key = key_of(&candidate);
                    if s.slots.contains_key(&key) {
                        continue;
                    }
                    return Some(start(&mut s, key, candidate, false, None));
                }
            }
            s = self.wait(s, timeout);
        }
    }

    /// Stop the workers (they finish the runs they are in).
    pub fn stop(&self) {
        let mut s = lock(&self.state);
        s.stopped = true;
        s.queue.clear();
        s.branches.clear();
        s.requests.clear();
        s.preempted.clear();
        drop(s);
        self.changed.notify_all();
    }

    /// How many runs were killed to free a permit for a due branch (see `preempt`).
    pub fn preempted(&self) -> u64 {
        lock(&self.state).preemptions
    }

    /// The number of speculative runs whose answer was never used.
    pub fn unused(&self) -> u64 {
        lock(&self.state)
            .slots
            .values()
            .filter(|slot| {
                matches!(
                    slot,
                    Slot::Done {
                        speculative: true,
                        used: false,
                        ..
                    }
                )
            })
            .count() as u64
    }
}

/// Take a permit and mark `key` as running speculatively, for [`Lookahead::next`].
fn start(
    s: &mut State,
    key: Key,
    candidate: Vec<u8>,
    requested: bool,
    condition: Option<Key>,
) -> (Key, Vec<u8>, bool, RunToken) {
    let token = RunToken::new();
    s.free -= 1;
    s.slots.insert(
        key,
        Slot::Running {
            speculative: true,
            token: token.clone(),
            waiters: 0,
            since: Instant::now(),
            condition,
        },
    );
    (key, candidate, requested, token)
}

/// The next candidate of a branch whose condition is probably interesting (running for
/// `win_after` at least), not run yet. (Once the condition has answered, its branch is gone:
/// the algorithm asks for what it needs itself.) Lowers `timeout` to when the next running
/// condition becomes due.
fn branch_candidate(
    s: &mut State,
    key_of: &impl Fn(&[u8]) -> Key,
    timeout: &mut Duration,
) -> Option<(Key, Key, Vec<u8>)> {
    if s.branches.is_empty() {
        return None;
    }
    let after = s.durations.win_after()?;
    let State {
        branches, slots, ..
    } = s;
    for (condition, queue) in branches.iter_mut().rev() {
        let Some(Slot::Running { since, .. }) = slots.get(condition) else {
            continue;
        };
        let elapsed = since.elapsed();
        if elapsed < after {
            *timeout = (*timeout).min(after - elapsed + Duration::from_millis(1));
            continue;
        }
        while let Some(candidate) = queue.pop_front() {
            let key = key_of(&candidate);
            if !slots.contains_key(&key) {
                return Some((*condition, key, candidate));
            }
        }
    }
    None
}

/// A branch whose condition started at `condition_since` is due and no permit is free: kill
/// the latest started speculative run begun after the condition (a bet on its failure; not a
/// run of a branch), to free its permit for the branch. A test waiting for it runs it again
/// ([`Lookahead::request`]).
fn preempt(s: &mut State, condition_since: Instant) {
    let dying = |slot: &Slot| matches!(slot, Slot::Running { token, .. } if token.is_aborted());
    if s.slots.values().any(dying) {
        // A killed run is ending: its permit is about to come free.
        return;
    }
    let victim = s
        .slots
        .iter()
        .filter_map(|(key, slot)| match slot {
            Slot::Running {
                speculative: true,
                condition: None,
                since,
                token,
                ..
            } if *since > condition_since => Some((*since, *key, token)),
            _ => None,
        })
        .max_by_key(|&(since, _, _)| since);
    if let Some((_, key, token)) = victim {
        token.abort();
        s.preempted.insert(key);
        s.preemptions += 1;
    }
}

/// `condition` answered: its branch is dropped and, if the answer was not interesting, the
/// branch's runs nobody waits for are killed.
fn end_branch(s: &mut State, condition: &Key, interesting: bool) {
    let before = s.branches.len();
    s.branches.retain(|(c, _)| c != condition);
    if interesting || s.branches.len() == before {
        return;
    }
    for slot in s.slots.values() {
        if let Slot::Running {
            token,
            waiters: 0,
            condition: Some(c),
            ..
        } = slot
        {
            if c == condition {
                token.abort();
            }
        }
    }
}

/// A test starts waiting for the run behind `token` (once per run: `waiting` remembers it).
fn join(waiting: &mut Option<RunToken>, token: &RunToken, waiters: &mut usize) {
    if !waiting.as_ref().is_some_and(|w| w.same(token)) {
        *waiters += 1;
        *waiting = Some(token.clone());
    }
}

/// A test stops waiting for the run of `key` it joined (if that run is still under way):
/// the run's token if it was speculative and nobody waits for it any more.
fn leave(s: &mut State, key: &Key, waiting: &Option<RunToken>) -> Option<RunToken> {
    let waiting = waiting.as_ref()?;
    match s.slots.get_mut(key) {
        Some(Slot::Running {
            speculative,
            token,
            waiters,
            ..
        }) if token.same(waiting) => {
            *waiters = waiters.saturating_sub(1);
            (*speculative && *waiters == 0).then(|| token.clone())
        }
        _ => None,
    }
}

/// The speculative driver's bets (see `driver`): which index of a sequence this thread tests.
pub(crate) mod bet {
    use std::cell::RefCell;
    use std::sync::atomic::{AtomicUsize, Ordering};
    use std::sync::Arc;

    /// The driver's index being tested on this thread, while a worker of `driver::first_true`
    /// with several jobs tests it: the smallest interesting index known so far (`usize::MAX`:
    /// none) and this one's. See the docs of `driver`.
    #[derive(Clone)]
    pub(crate) struct Bet {
        found: Arc<AtomicUsize>,
        index: usize,
    }

    impl Bet {
        pub fn new(found: Arc<AtomicUsize>, index: usize) -> Bet {
            Bet { found, index }
        }

        /// An earlier index of the sequence was interesting: this answer is not needed.
        pub fn lost(&self) -> bool {
            self.found.load(Ordering::SeqCst) < self.index
        }

        /// This index is interesting: later bets are lost from now on.
        pub fn won(&self) {
            self.found.fetch_min(self.index, Ordering::SeqCst);
        }
    }

    thread_local! {
        /// The bet of this thread and whether its test was abandoned (see [`abandon`]).
        static BET: RefCell<Option<(Bet, bool)>> = const { RefCell::new(None) };
    }

    /// This thread tests `bet` until [`leave`].
    pub(crate) fn enter(bet: Bet) {
        BET.with(|b| *b.borrow_mut() = Some((bet, false)));
    }

    /// This thread's bet is over; true if its test was abandoned.
    pub(crate) fn leave() -> bool {
        BET.with(|b| b.borrow_mut().take())
            .is_some_and(|(_, abandoned)| abandoned)
    }

    /// The bet this thread is testing, if it is a worker of a speculating `driver::first_true`.
    pub(crate) fn current_bet() -> Option<Bet> {
        BET.with(|b| b.borrow().as_ref().map(|(bet, _)| bet.clone()))
    }

    /// The test of the current bet was abandoned (lost): its outcome is unknown.
    pub(crate) fn abandon() {
        BET.with(|b| {
            if let Some((_, abandoned)) = b.borrow_mut().as_mut() {
                *abandoned = true;
            }
        });
    }
}

#[cfg(test)]
mod tests;
