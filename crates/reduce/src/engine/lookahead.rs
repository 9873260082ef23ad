//! Speculation across algorithm steps: an algorithm *announces* the candidates it
//! will test next if everything pending fails (HDDr: the first candidates of the next nodes
//! in its work list), and idle workers test them ahead of time. When the algorithm gets
//! there, its own test finds the answer ready (or waits for the run in flight) instead of
//! starting the oracle. The algorithm decides only on oracle answers, which are the same
//! whether they come early or late, so the result does not depend on `--jobs`; a speculative
//! run the algorithm never asks for (its bet was lost because an earlier candidate was
//! interesting) is counted as discarded.
//!
//! Every oracle run goes through the lookahead's `jobs` workers, so oracle runs are bounded
//! by `jobs` permits in all. A test asks for its run with [`Lookahead::request`]; the
//! algorithm's own tests are served first, then the runs of bets on success, then the
//! driver's bets, then announced candidates.
//!
//! **Lost bets run on.** A run whose bet was lost is not killed at once: the next step of
//! the algorithm often tests the very same candidate (ddmin's next round), and then it finds
//! the run under way. It is killed once another test wants its permit (`make_room`), and at
//! the end. A run some test waits for is never killed to make room (`State::wanted`).
//!
//! **Assumptions** (see `Judge::steps`). Betting that every pending candidate fails (C-Vise's
//! bet) cannot shorten a chain of interesting candidates: each one must answer before the
//! next is known. But an interesting run often takes longer than a failing one (a compiler's
//! crash comes late, a syntax error early; a grep that fails ends the run at once). The
//! lookahead keeps the durations of recent runs by answer. Once a run the algorithm waits
//! for has lasted so long that, among the recent runs that lasted as long, at least
//! [`durations::ASSUME_SHARE`] were interesting ([`durations::ASSUME_MARGIN`] times that time), the test answers
//! [`Answer::Assumed`]: the algorithm goes on as if the run were interesting, in the unit
//! (step) it is in, and its next tests use the free permits. The assumed run is never killed;
//! if it answers anything but "interesting", the algorithm's stop flag is raised and the step
//! that made the assumption is replayed ([`Lookahead::take_failed`]). Assumptions are made
//! only while a replay would cost little ([`replay`]). This is branch prediction with
//! rollback, as in processors; the rollback is a deterministic replay from a checkpoint.
//!
//! **Bets on success** ([`Lookahead::announce_if`]): a weaker bet, for the time before a run
//! is likely enough to be assumed. The lookahead derives [`Lookahead::win_after`]: how long a
//! run must have lasted before it is more likely interesting than not. A *branch* is what the
//! algorithm tests next if a given pending candidate is interesting; once that candidate's
//! run has lasted that long, idle workers test the branch. If the candidate fails after all,
//! the branch is dropped and its runs are killed. Where durations do not tell answers apart
//! (a sleep oracle), there is no such time: neither bets on success nor assumptions are made
//! by duration (but see *Chains of wins*).
//!
//! **Chains of wins** (`streak`). Where durations do not tell answers apart, the recent
//! answers may: while most of them were "interesting", the algorithm's own tests are assumed
//! interesting as soon as their runs start, so up to `jobs` successive wins are under way at
//! once, each a step further along the path the algorithm takes if all of them win. The
//! speculative driver then tests in order (`Judge::chains_wins`): its bets would be on
//! failures. A failed assumption is replayed as above, so the result is still that of one job.
//!
//! **Hints** (`hints`). A prediction per candidate: the answer its edit got on an earlier
//! text. The algorithm's own test of an edit that was interesting before (a lost bet's run
//! that answered "interesting" for the same edit on the old base: concurrent successes) is
//! assumed interesting as soon as its run starts, and one that failed before is not assumed
//! by the streak. A wrong hint is replayed as above.
//!
//! **Preemption.** When a branch falls due and every permit is taken, the workers are mostly
//! on bets that the branch's condition *fails* (the later candidates of the same round), which
//! are lost if it wins, as it probably does. The latest started of those runs is killed to free
//! its permit for the branch, and a test waiting for its answer puts it back in the queue, so it
//! is run again if it is still needed (the condition failed after all) and every answer the
//! algorithm uses is still an oracle's.

use std::collections::{BTreeMap, HashMap, HashSet, VecDeque};
use std::sync::atomic::AtomicBool;
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use super::cache::Key;
use assume::{assume_after, chains_wins, replay_is_cheap, SCALE_DOWN, SCALE_MAX, SCALE_UP};
use durations::Durations;
use hints::Hints;
use replay::Mispredictions;
use runs::{branch_candidate, drop_after, end_branch, make_room, preempt, release};
use streak::Streak;
use treedd_proc::RunToken;

mod assume;
mod durations;
pub(crate) mod hints;
mod recent;
mod replay;
mod runs;
mod streak;

#[derive(Clone, Debug)]
enum Slot {
    /// Running on a lookahead worker (every run is); it can be aborted through `token` while
    /// no test wants the answer (see `State::wanted`).
    Running {
        token: RunToken,
        since: Instant,
        /// For a run of a branch: the candidate whose success the branch bets on.
        condition: Option<Key>,
        /// The algorithm went on as if this run were interesting, in this unit (see
        /// *Assumptions*): it is never killed, and an answer other than "interesting" is a
        /// misprediction.
        assumed: Option<u64>,
    },
    /// Answered; `used` once a test took the answer (or went on with it assumed).
    Done { interesting: bool, used: bool },
}

struct State {
    /// Announced candidates, each with its edit if the announcer named it (see *Hints*).
    queue: VecDeque<(Vec<u8>, Option<u64>)>,
    /// Bets on success: (condition, what is tested next if the condition is interesting).
    branches: Vec<(Key, VecDeque<Vec<u8>>)>,
    durations: Durations,
    /// The recent answers the algorithm used (see *Chains of wins*).
    streak: Streak,
    /// The answers of earlier candidates made by the same edits (see *Hints*).
    hints: Hints,
    /// Runs asked for by tests (see [`Lookahead::request`]): before `queue`, and the
    /// algorithm's own (`true`, not a bet of the driver) before everything.
    requests: VecDeque<(Key, Vec<u8>, bool)>,
    slots: HashMap<Key, Slot>,
    /// The tests waiting for the answer of each key ([`Lookahead::request`]); a
    /// speculative run whose key nobody wants may be killed to free its permit.
    wanted: HashMap<Key, Wanted>,
    /// Threads waiting on [`Lookahead::changed`]: it is signalled only when there are some.
    watching: usize,
    /// Runs killed by [`preempt`]: a test waiting for one of them queues it again.
    preempted: HashSet<Key>,
    /// How many runs [`preempt`] killed.
    preemptions: u64,
    free: usize,
    /// Permits held by oracle runs outside the lookahead (`Judge::reserve_permit`), not in
    /// `free` until [`Lookahead::release_held`].
    held: usize,
    stopped: bool,
    /// Assumed runs still under way, by unit.
    outstanding: BTreeMap<u64, usize>,
    /// The runs of the algorithm's own tests (not the driver's bets) assumed interesting and
    /// still under way, in the order the assumptions were made: the order of the path the
    /// algorithm took. When one fails, those after it were tested on a path the algorithm
    /// does not take (see [`drop_after`]).
    path: Vec<Key>,
    /// The earliest unit with an assumption that failed, since [`Lookahead::take_failed`].
    failed: Option<u64>,
    /// The current unit and treedd's CPU seconds when the oldest checkpoint a misprediction
    /// could take the algorithm back to was made; `None`: no assumptions.
    unit: Option<(u64, f64)>,
    assumptions: u64,
    /// See [`SCALE_UP`].
    assume_scale: f64,
    /// The recent assumptions' outcomes (see [`replay_is_cheap`]).
    mispredictions: Mispredictions,
    /// Waits in [`Lookahead::request`] that ended by the clock, not by a wake-up.
    #[cfg(test)]
    clock_waits: u64,
}

/// The tests waiting in [`Lookahead::request`] for one key, and what wakes them: an answer,
/// or the start of a run, of that key, or an event that concerns every test (see
/// [`Lookahead::notify`]). A condition variable per key, so that an answer wakes only the
/// tests that wait for it: with one for all, every answer would wake every waiting bet of
/// the driver, and futex wake-ups and the context switches they cause would be the largest
/// part of what `--jobs 2` adds to treedd's CPU.
struct Wanted {
    tests: usize,
    wake: Arc<Condvar>,
}

/// What [`Lookahead::request`] got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Answer {
    /// The oracle's answer.
    Known(bool),
    /// Not known yet, but the run has lasted long enough to be taken as interesting (see
    /// *Assumptions*).
    Assumed,
    /// An earlier bet won first: nobody waits for this answer any more.
    Lost,
    /// The run was cancelled or could not start.
    None,
}

pub(crate) struct Lookahead {
    state: Mutex<State>,
    /// Signalled for the threads waiting in [`Lookahead::announce_if`] and
    /// [`Lookahead::settle`]: a run ended, a main request, a permit came free. (The tests
    /// in [`Lookahead::request`] wait on their key's condition variable, [`Wanted`].)
    changed: Condvar,
    /// Signalled for the workers waiting in [`Lookahead::next`]: something to run, or a
    /// permit free. Two condition variables, so that an answer does not wake every idle
    /// worker and an announcement no waiting test (futex wake-ups and the context switches
    /// they cause are costly).
    work: Condvar,
    /// The algorithm's stop flag, raised (under the state's lock) by a misprediction.
    stop: Arc<AtomicBool>,
    /// [`WAIT_AT_MOST`] (longer in tests that a wake-up must end a wait).
    wait_at_most: Duration,
}

fn lock(m: &Mutex<State>) -> MutexGuard<'_, State> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// How many announced candidates wait at most (older announcements are dropped first).
const QUEUE_LIMIT: usize = 256;

/// How many branches are kept at most (the oldest is dropped first).
const BRANCH_LIMIT: usize = 4;

impl Lookahead {
    #[cfg(test)]
    pub fn new(jobs: usize) -> Lookahead {
        Lookahead::with_stop(jobs, 0, Arc::new(AtomicBool::new(false)))
    }

    /// A lookahead with `jobs` permits, `held` of them taken by oracle runs outside it until
    /// [`Lookahead::release_held`], that raises `stop` when an assumption fails (see
    /// *Assumptions*).
    pub fn with_stop(jobs: usize, held: usize, stop: Arc<AtomicBool>) -> Lookahead {
        let jobs = jobs.max(1);
        let held = held.min(jobs - 1);
        Lookahead {
            state: Mutex::new(State {
                queue: VecDeque::new(),
                branches: Vec::new(),
                durations: Durations::default(),
                streak: Streak::default(),
                hints: Hints::default(),
                requests: VecDeque::new(),
                slots: HashMap::new(),
                wanted: HashMap::new(),
                watching: 0,
                preempted: HashSet::new(),
                preemptions: 0,
                free: jobs - held,
                held,
                stopped: false,
                outstanding: BTreeMap::new(),
                path: Vec::new(),
                failed: None,
                unit: None,
                assumptions: 0,
                assume_scale: 1.0,
                mispredictions: Mispredictions::default(),
                #[cfg(test)]
                clock_waits: 0,
            }),
            changed: Condvar::new(),
            work: Condvar::new(),
            stop,
            wait_at_most: WAIT_AT_MOST,
        }
    }

    /// A run made outside the lookahead answered in `took`: counted among the recent
    /// durations by answer (see *Bets on success*).
    pub fn note_run(&self, took: Duration, interesting: bool) {
        lock(&self.state).durations.add(took, interesting);
    }

    /// One of the permits held outside comes free (if any is held).
    pub fn release_held(&self) {
        let mut s = lock(&self.state);
        if s.held > 0 {
            s.held -= 1;
            s.free += 1;
        }
        self.work.notify_one();
        self.signal_changed(&s);
    }

    /// `n` of the permits have no worker (it could not start): fewer runs at once.
    pub fn retire(&self, n: usize) {
        let mut s = lock(&self.state);
        s.free = s.free.saturating_sub(n);
    }

    /// [`Lookahead::announce_edits`] of candidates without their edits.
    #[cfg(test)]
    pub fn announce(&self, candidates: Vec<Vec<u8>>) {
        self.announce_edits(candidates.into_iter().map(|c| (c, None)).collect());
    }

    /// Replace the queue of announced candidates, each with its edit if known (see *Hints*):
    /// an edit is noted when its candidate's run starts, the first time its key is worked out.
    ///
    /// Idle workers are woken only if one may start a run: with no permit free, the worker
    /// whose run ends next takes the queue as it goes on (a wake-up for nothing is a system
    /// call and a context switch; HDD announces at every visit).
    pub fn announce_edits(&self, candidates: Vec<(Vec<u8>, Option<u64>)>) {
        let mut s = lock(&self.state);
        s.queue = candidates.into_iter().take(QUEUE_LIMIT).collect();
        let startable = s.free > 0 && !s.queue.is_empty();
        drop(s);
        if startable {
            self.work.notify_all();
        }
    }

    /// `key` is a candidate made by the edit `edit` (see *Hints*).
    pub fn note_edit(&self, key: Key, edit: u64) {
        lock(&self.state).hints.note(key, edit);
    }

    /// An oracle run of `key` is under way (announcing it again would waste a place).
    pub fn under_way(&self, key: &Key) -> bool {
        matches!(lock(&self.state).slots.get(key), Some(Slot::Running { .. }))
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
        if self.win_after().is_none() {
            return;
        }
        let mut s = lock(&self.state);
        s.branches.retain(|(c, _)| *c != condition);
        if s.branches.len() == BRANCH_LIMIT {
            s.branches.remove(0);
        }
        let queue: VecDeque<Vec<u8>> = candidates.into_iter().take(QUEUE_LIMIT).collect();
        let worth = !queue.is_empty();
        s.branches.push((condition, queue));
        self.work.notify_all();
        while worth && !s.stopped && s.free == 0 && !s.requests.iter().any(|r| r.2) {
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
    /// durations (see the module docs), for bets on success; `None`: durations do not tell
    /// (yet), or assumptions are made instead (their gain is the same, and bets on success
    /// that are lost take CPU: with both, many of their runs are preempted and the wall
    /// time grows).
    pub fn win_after(&self) -> Option<Duration> {
        let s = lock(&self.state);
        if s.durations.assume_after().is_some() && s.unit.is_some() && replay_is_cheap(&s) {
            return None;
        }
        s.durations.win_after()
    }

    /// [`Lookahead::request_bet`] of a test that is never the earliest bet of a sequence.
    #[cfg(test)]
    pub fn request(
        &self,
        key: Key,
        candidate: &[u8],
        main: bool,
        lost: &dyn Fn() -> bool,
        started: &dyn Fn(Instant),
    ) -> Answer {
        self.request_bet(key, candidate, main, &|| false, lost, started)
    }

    /// A test wants `key` tested: the algorithm's own (`main`) or a bet of the speculative
    /// driver (`driver::current_bet`). A worker runs it (before any announced candidate) and
    /// this waits for the answer, or for a run of it already in flight, until `lost()`
    /// becomes true, or the run has lasted long enough to be assumed interesting (see
    /// [`Answer`]). A run whose bet was lost goes on until its permit is wanted (see the
    /// module docs); a run killed to make room is queued again while a test waits for it.
    ///
    /// A bet is the earliest of its sequence once `earliest()` holds (every earlier index
    /// failed): its answer is the algorithm's next one, and it is assumed like the
    /// algorithm's own tests where its edit won before (see *Hints*).
    ///
    /// `started` is told when the run it waits for started (once per run it joins).
    pub fn request_bet(
        &self,
        key: Key,
        candidate: &[u8],
        main: bool,
        earliest: &dyn Fn() -> bool,
        lost: &dyn Fn() -> bool,
        started: &dyn Fn(Instant),
    ) -> Answer {
        let mut s = lock(&self.state);
        let wanted = s.wanted.entry(key).or_insert_with(|| Wanted {
            tests: 0,
            wake: Arc::new(Condvar::new()),
        });
        wanted.tests += 1;
        let wake = Arc::clone(&wanted.wake);
        let mut queued = false;
        // The run whose start `started` was told of.
        let mut seen: Option<RunToken> = None;
        let answer = loop {
            if s.stopped {
                break Answer::None;
            }
            let hint = s.hints.predicts_key(&key);
            let sure_after = assume_after(&s, main, hint, earliest());
            // Asked only when the run is due (a system call).
            let due_at_start = sure_after.is_some_and(|(after, _)| {
                matches!(s.slots.get(&key), Some(Slot::Running { since, .. }) if since.elapsed() >= after)
            });
            let cheap = due_at_start && replay_is_cheap(&s);
            let mut timeout = self.wait_at_most;
            let in_requests = s.requests.iter().any(|r| r.0 == key);
            let requeue =
                queued && !in_requests && !s.slots.contains_key(&key) && s.preempted.remove(&key);
            match s.slots.get_mut(&key) {
                Some(Slot::Done {
                    interesting,
                    used: used @ false,
                }) => {
                    *used = true;
                    let interesting = *interesting;
                    if main {
                        s.streak.add(interesting);
                    }
                    break Answer::Known(interesting);
                }
                // An answer someone else used: run again (repeats of the algorithm's own
                // tests are the cache's business, and `--no-cache` means no cache).
                Some(Slot::Done { .. }) => {
                    s.slots.remove(&key);
                    continue;
                }
                Some(Slot::Running {
                    token,
                    since,
                    assumed,
                    ..
                }) => {
                    if !seen.as_ref().is_some_and(|t| t.same(token)) {
                        seen = Some(token.clone());
                        started(*since);
                    }
                    if assumed.is_some() {
                        break Answer::Assumed;
                    }
                    if let Some((after, unit)) = sure_after {
                        let elapsed = since.elapsed();
                        if elapsed < after {
                            let due = after.saturating_sub(elapsed);
                            timeout = timeout.min(due + Duration::from_micros(200));
                        } else if cheap {
                            *assumed = Some(unit);
                            *s.outstanding.entry(unit).or_default() += 1;
                            s.assumptions += 1;
                            if main {
                                s.path.push(key);
                            }
                            break Answer::Assumed;
                        } else if !due_at_start {
                            // Due since `cheap` was worked out: look again at once.
                            continue;
                        }
                    }
                }
                None if in_requests => {}
                // Killed to free a permit (see `preempt` and `make_room`): queue it again.
                None if !queued || requeue => {
                    s.requests.push_back((key, candidate.to_vec(), main));
                    queued = true;
                    self.work.notify_one();
                    if main {
                        // A branch waiting for a permit gives way (`announce_if`).
                        self.signal_changed(&s);
                    }
                    continue;
                }
                // Run and ended without an answer (cancelled, or failed to start).
                None => break Answer::None,
            }
            if lost() {
                // The run goes on while its permit is not needed: the next step of the
                // algorithm often tests the same candidate (see `make_room`).
                break Answer::Lost;
            }
            if in_requests {
                make_room(&mut s);
            }
            // Woken when the run ends, when a bet is lost (`bet::Found::win`) and when an
            // assumption fails; the timeout bounds what changes without a wake-up (a
            // cancel by the user, whose runs are killed and end at once, leaves queued
            // tests waiting; whether an assumption is cheap: the algorithm's unit moved on).
            let (guard, _waited) = wake
                .wait_timeout(s, timeout)
                .unwrap_or_else(|e| e.into_inner());
            s = guard;
            #[cfg(test)]
            if _waited.timed_out() {
                s.clock_waits += 1;
            }
        };
        let wanted = s.wanted.get_mut(&key).map(|w| {
            w.tests -= 1;
            w.tests
        });
        if wanted == Some(0) {
            s.wanted.remove(&key);
            s.requests.retain(|r| r.0 != key);
        }
        answer
    }

    /// Wait for a signal of [`Lookahead::changed`], at most `timeout`.
    fn wait<'s>(&self, mut s: MutexGuard<'s, State>, timeout: Duration) -> MutexGuard<'s, State> {
        s.watching += 1;
        let mut s = self
            .changed
            .wait_timeout(s, timeout)
            .unwrap_or_else(|e| e.into_inner())
            .0;
        s.watching -= 1;
        s
    }

    /// Signal [`Lookahead::changed`] if a thread waits on it (the lock is held: none can
    /// start waiting meanwhile).
    fn signal_changed(&self, s: &State) {
        if s.watching > 0 {
            self.changed.notify_all();
        }
    }

    /// Wake every waiter (a bet was won: the later ones are lost).
    pub fn notify(&self) {
        self.wake_all(&lock(&self.state));
    }

    fn wake_all(&self, s: &State) {
        for wanted in s.wanted.values() {
            wanted.wake.notify_all();
        }
        self.changed.notify_all();
    }

    /// A run of `key` ended (`None`: cancelled or failed, not an answer); its permit is free.
    /// True if the run was assumed interesting and was not (a misprediction: the unit must
    /// be replayed, see *Assumptions*).
    pub fn finish(&self, key: Key, interesting: Option<bool>) -> bool {
        let mut s = lock(&self.state);
        s.free += 1;
        let assumed = match s.slots.get(&key) {
            Some(Slot::Running { assumed, .. }) => *assumed,
            _ => None,
        };
        let mispredicted = assumed.is_some() && interesting != Some(true);
        if let Some(unit) = assumed {
            release(&mut s, unit);
            if let Some(interesting) = interesting {
                s.streak.add(interesting);
            }
            let on_path = s.path.iter().position(|k| *k == key);
            if let Some(at) = on_path {
                s.path.remove(at);
                if mispredicted {
                    drop_after(&mut s, at);
                }
            }
            if mispredicted {
                s.failed = Some(s.failed.map_or(unit, |f| f.min(unit)));
                // Every waiting bet is lost now (the judge is stopped): see below.
                self.stop.store(true, std::sync::atomic::Ordering::SeqCst);
                s.assume_scale = (s.assume_scale * SCALE_UP).min(SCALE_MAX);
            } else {
                s.assume_scale = (s.assume_scale * SCALE_DOWN).max(1.0);
            }
            s.mispredictions.add(mispredicted);
        }
        if let (Some(interesting), Some(Slot::Running { since, .. })) =
            (interesting, s.slots.get(&key))
        {
            let took = since.elapsed();
            s.durations.add(took, interesting);
        }
        if let Some(interesting) = interesting {
            s.hints.answered(&key, interesting);
            end_branch(&mut s, &key, interesting);
            s.preempted.remove(&key);
        }
        match interesting {
            Some(interesting) => {
                s.slots.insert(
                    key,
                    Slot::Done {
                        interesting,
                        used: assumed.is_some(),
                    },
                );
            }
            None => {
                s.slots.remove(&key);
            }
        }
        if mispredicted {
            self.wake_all(&s);
        } else {
            wake_key(&s, &key);
            self.signal_changed(&s);
        }
        // No worker is woken for the permit: the one that ran this run asks for its next
        // run itself, at once (`Judge::speculate`).
        mispredicted
    }

    /// The algorithm is in `unit` now (`None`: no assumptions may be made), and replaying
    /// from the oldest checkpoint it may go back to would cost treedd's CPU since `cpu`.
    pub fn set_unit(&self, unit: Option<(u64, f64)>) {
        lock(&self.state).unit = unit;
    }

    /// The earliest unit with an assumption that failed since the last call, if any; the
    /// stop flag is lowered with it (the caller raises it again if the user cancelled).
    pub fn take_failed(&self) -> Option<u64> {
        take_failed(&mut lock(&self.state), &self.stop)
    }

    /// [`Lookahead::take_failed`] once no assumed run is under way or one has failed.
    pub fn settle(&self) -> Option<u64> {
        let mut s = lock(&self.state);
        while s.failed.is_none() && !s.outstanding.is_empty() && !s.stopped {
            s = self.wait(s, Duration::from_millis(50));
        }
        take_failed(&mut s, &self.stop)
    }

    /// The earliest unit with an assumed run still under way.
    pub fn oldest_outstanding(&self) -> Option<u64> {
        lock(&self.state).outstanding.keys().next().copied()
    }

    /// A speculating driver's call ended: `answers` are those of its indices up to the first
    /// interesting one (the answers one job would have seen, in order), for *Chains of wins*.
    pub fn note_answers(&self, answers: impl Iterator<Item = bool>) {
        let mut s = lock(&self.state);
        for interesting in answers {
            s.streak.add(interesting);
        }
    }

    /// The algorithm's own tests are assumed interesting as soon as their runs start (see
    /// *Chains of wins*): a sequence of candidates is best tested in order, one at a time,
    /// not with bets on the failure of the earlier ones.
    pub fn chains_wins(&self) -> bool {
        chains_wins(&lock(&self.state))
    }

    /// How many runs were assumed interesting before they answered.
    pub fn assumptions(&self) -> u64 {
        lock(&self.state).assumptions
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
            if s.free > 0 {
                // The algorithm's own tests, bets on success, bets of the driver.
                for main in [true, false] {
                    while let Some(at) = s.requests.iter().position(|r| !main || r.2) {
                        let Some((key, candidate, _)) = s.requests.remove(at) else {
                            break;
                        };
                        if s.slots.contains_key(&key) {
                            continue;
                        }
                        return Some(start(&mut s, key, candidate, true, None));
                    }
                    if main {
                        if let Some((condition, key, candidate)) =
                            branch_candidate(&mut s, &key_of, &mut timeout)
                        {
                            return Some(start(&mut s, key, candidate, false, Some(condition)));
                        }
                    }
                }
                while let Some((candidate, edit)) = s.queue.pop_front() {
                    let key = key_of(&candidate);
                    if s.slots.contains_key(&key) {
                        continue;
                    }
                    if let Some(edit) = edit {
                        s.hints.note(key, edit);
                    }
                    return Some(start(&mut s, key, candidate, false, None));
                }
            }
            s = self
                .work
                .wait_timeout(s, timeout)
                .unwrap_or_else(|e| e.into_inner())
                .0;
        }
    }

    /// Stop the workers (they finish the runs they are in).
    pub fn stop(&self) {
        let mut s = lock(&self.state);
        s.stopped = true;
        // Lost bets still under way: nobody will want their answers.
        for slot in s.slots.values() {
            if let Slot::Running { token, .. } = slot {
                token.abort();
            }
        }
        s.queue.clear();
        s.branches.clear();
        s.requests.clear();
        s.preempted.clear();
        self.wake_all(&s);
        drop(s);
        self.work.notify_all();
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
            .filter(|slot| matches!(slot, Slot::Done { used: false, .. }))
            .count() as u64
    }
}

/// Wake the tests waiting for `key`'s answer.
fn wake_key(s: &State, key: &Key) {
    if let Some(wanted) = s.wanted.get(key) {
        wanted.wake.notify_all();
    }
}

fn take_failed(s: &mut State, stop: &AtomicBool) -> Option<u64> {
    let failed = s.failed.take();
    if failed.is_some() {
        stop.store(false, std::sync::atomic::Ordering::SeqCst);
    }
    failed
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
            token: token.clone(),
            since: Instant::now(),
            condition,
            assumed: None,
        },
    );
    // A test waiting for it learns when its run started.
    wake_key(s, &key);
    (key, candidate, requested, token)
}

/// The longest a test waits in [`Lookahead::request`] before it looks again at what may
/// have changed without a wake-up. Every event a test waits for wakes it, so this is only a
/// safety net; short enough to bound a missed wake-up, long enough that waits end by an
/// answer, not by the clock.
const WAIT_AT_MOST: Duration = Duration::from_millis(100);

/// The speculative driver's bets (see `driver`): which index of a sequence this thread tests.
pub(crate) mod bet;

#[cfg(test)]
mod tests;
