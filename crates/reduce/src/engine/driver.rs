//! The speculative driver: test a sequence of candidates, in order, and return the first
//! interesting one.
//!
//! With one job this is a plain loop. With `jobs` > 1 it speculates the way C-Vise does
//! (C-Vise's `--n` workers: most candidates are not interesting, so the next ones are started
//! before the earlier ones have answered, betting that those fail): `jobs` workers take
//! indices from one counter in sequence order, and a worker stops taking indices once an
//! interesting candidate with a smaller index is known. Every index below the winner was handed
//! out before the winner's and is tested to the end, so the winner is the *first* interesting
//! candidate of the sequence whatever `jobs` is (the output never depends on `jobs`); runs
//! started past the winner are the bets that were lost (counted as `discarded`).
//!
//! The driver does not wait for its lost bets. Inside [`Judge::with_lookahead`], a worker's
//! test is a *bet* (`lookahead::bet`): the judge hands the run to the lookahead's persistent
//! workers and waits for its answer only while no earlier index has won. Once one has, the
//! worker abandons the wait (its outcome is unknown, `None`) and the driver returns as soon
//! as every index before the winner has answered. The lost run itself is killed with its
//! process group (`Oracle::run_abortable`) once another test wants its permit, as C-Vise
//! kills the workers of candidates past the first interesting one; it is counted as `killed`
//! and `discarded`. Until then it runs on: the next round often tests the same candidate
//! (see `lookahead`). Not waiting for the last bets saves about one oracle latency per
//! improvement.
//!
//! The workers run on threads parked between calls ([`pool`]): a reduction calls the driver
//! for every ddmin round and HDD node, and starting threads for each call would cost more of
//! treedd's CPU than the calls themselves.

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::edits;
use super::judge::Judge;
use super::lookahead::bet::{self, Bet, Found};

mod pool;

/// The first `i` in `0..n` whose candidate `make(i)` is interesting, with the candidate.
/// `make` returns `None` for an index with nothing to test. A candidate equal to `current`
/// is never tested (it would be interesting without telling anything).
pub(crate) fn first_interesting(
    judge: &Judge,
    current: &[u8],
    jobs: usize,
    n: usize,
    make: &(dyn Fn(usize) -> Option<Vec<u8>> + Sync),
) -> Option<(usize, Vec<u8>)> {
    let winners: Mutex<Vec<(usize, Vec<u8>)>> = Mutex::new(Vec::new());
    let first = first_passing(judge, jobs, n, &|i| {
        let candidate = make(i).filter(|c| c != current)?;
        let interesting = judge.test_from(Some(current), &candidate);
        if interesting {
            lock(&winners).push((i, candidate));
        }
        Some(interesting)
    })?;
    let winners = winners.into_inner().unwrap_or_else(|e| e.into_inner());
    winners.into_iter().find(|(i, _)| *i == first)
}

/// [`first_true`] for a judge: stops when the judge is cancelled and counts the lost bets
/// (answers obtained past the winner) as discarded. While the judge chains wins
/// ([`Judge::chains_wins`]), the indices are tested in order on the caller's thread: each
/// test is assumed interesting once its run starts, and bets on the failures of the earlier
/// indices would be lost.
pub(crate) fn first_passing(
    judge: &Judge,
    jobs: usize,
    n: usize,
    test: &(dyn Fn(usize) -> Option<bool> + Sync),
) -> Option<usize> {
    let jobs = if judge.chains_wins() { 1 } else { jobs };
    let (first, outcomes) = first_true(jobs, n, &|| judge.is_cancelled(), test);
    let lost = outcomes
        .iter()
        .enumerate()
        .filter(|&(i, o)| o.is_some() && first.is_some_and(|f| i > f))
        .count();
    judge.add_discarded(lost as u64);
    first
}

/// A watch on the earliest unanswered index of a speculating [`first_true_watched`]: once it
/// has been under test for `after`, it is probably interesting (see `lookahead`'s bets on
/// success) and `slow(i)` is called, once per index, on the caller's thread, which is idle
/// otherwise: ddmin names there what it tests next if `i` wins.
pub(crate) struct Watch<'a> {
    pub after: Duration,
    pub slow: &'a (dyn Fn(usize) + Sync),
}

/// The first `i` in `0..n` for which `test(i)` is `Some(true)` (`None`: nothing to test at
/// `i`), speculating with `jobs` workers as described in the module docs; also every outcome
/// obtained (indices past the first `true` may have been tested too: the lost bets). Stops
/// taking new indices once `stopped()` holds.
pub(crate) fn first_true(
    jobs: usize,
    n: usize,
    stopped: &(dyn Fn() -> bool + Sync),
    test: &(dyn Fn(usize) -> Option<bool> + Sync),
) -> (Option<usize>, Vec<Option<bool>>) {
    first_true_watched(jobs, n, stopped, test, None)
}

/// How many indices per worker may be handed out past a probably interesting earliest
/// pending index (see [`wait_while_far_ahead`]).
const AHEAD_OF_PROBABLE: usize = 2;

/// What the workers of [`first_true_watched`] share with the caller's thread.
struct Progress {
    outcomes: Vec<Option<bool>>,
    /// Which indices were answered (or had nothing to test).
    done: Vec<bool>,
    /// How many indices from the first were answered, none interesting.
    failed: usize,
    /// When the run of each index started, until it answered: when it was handed out, or
    /// when the run it waits for started if the lookahead says so (a run started earlier
    /// as a bet on success, or later once a permit came free).
    pending: Vec<Option<Instant>>,
    /// Workers still taking indices.
    active: usize,
}

/// [`Progress`] and its condition variable, shared with the bets (see `Bet::on_start`).
struct Shared {
    progress: Mutex<Progress>,
    changed: Condvar,
}

/// [`first_true`] with a [`Watch`] on the earliest unanswered index (only when speculating).
pub(crate) fn first_true_watched(
    jobs: usize,
    n: usize,
    stopped: &(dyn Fn() -> bool + Sync),
    test: &(dyn Fn(usize) -> Option<bool> + Sync),
    watch: Option<&Watch>,
) -> (Option<usize>, Vec<Option<bool>>) {
    let speculating = jobs > 1 && n > 1;
    let workers = if speculating { jobs.min(n) } else { 1 };
    // Only a watch needs to know when each index's run started.
    let watched = speculating && watch.is_some();
    let shared = Arc::new(Shared {
        progress: Mutex::new(Progress {
            outcomes: vec![None; n],
            done: vec![false; n],
            failed: 0,
            pending: vec![None; n],
            active: workers,
        }),
        changed: Condvar::new(),
    });
    let (progress, changed) = (&shared.progress, &shared.changed);
    let next = AtomicUsize::new(0);
    let found = Arc::new(Found::new());
    let deferred = Arc::new(edits::Deferred::default());
    let worker = || {
        loop {
            if stopped() {
                break;
            }
            if let Some(watch) = watch.filter(|_| watched) {
                wait_while_far_ahead(watch, progress, changed, &next, workers, stopped);
            }
            let i = next.fetch_add(1, Ordering::SeqCst);
            if i >= n || i > found.get() {
                break;
            }
            if watched {
                lock(progress).pending[i] = Some(Instant::now());
            }
            let outcome = if speculating {
                let mut bet = Bet::new(Arc::clone(&found), i);
                if watched {
                    let shared = Arc::clone(&shared);
                    bet = bet.on_start(Arc::new(move |since| {
                        let mut p = lock(&shared.progress);
                        if let Some(pending) = p.pending.get_mut(i).and_then(Option::as_mut) {
                            *pending = since;
                            drop(p);
                            shared.changed.notify_all();
                        }
                    }));
                }
                bet::enter(bet);
                let outcome = edits::deferring(&deferred, i, || test(i));
                if bet::leave() {
                    None
                } else {
                    outcome
                }
            } else {
                edits::deferring(&deferred, i, || test(i))
            };
            if outcome == Some(true) {
                found.win(i);
            }
            let mut p = lock(progress);
            p.outcomes[i] = outcome;
            p.done[i] = true;
            p.pending[i] = None;
            if speculating && outcome != Some(true) {
                // The bets left whose earlier indices all failed (see `Bet::is_earliest`).
                while p.failed < n && p.done[p.failed] && p.outcomes[p.failed] != Some(true) {
                    p.failed += 1;
                }
                let failed = p.failed;
                drop(p);
                found.failed_through(failed);
            } else {
                drop(p);
            }
            changed.notify_all();
        }
        lock(progress).active -= 1;
        changed.notify_all();
    };
    if !speculating {
        // One worker on this thread: a plain loop that stops at the first `true`.
        worker();
    } else {
        // Nothing to watch: the caller's thread is one of the workers (one thread fewer to
        // wake), unless it tests a bet of an outer driver itself. Workers whose thread could
        // not start (out of threads) are not waited for; with none at all, the caller's
        // thread is the worker (its own bet, if any, set aside).
        let caller_is_worker = watch.is_none() && bet::current_bet().is_none();
        let sent = workers - usize::from(caller_is_worker);
        pool::run(sent, &worker, |started| {
            let caller_works = caller_is_worker || started == 0;
            let missing = workers - started - usize::from(caller_works);
            if missing > 0 {
                lock(progress).active -= missing;
                changed.notify_all();
            }
            if caller_works {
                bet::aside(worker);
            } else if let Some(watch) = watch {
                watch_earliest(watch, progress, changed, &found);
            }
        });
    }
    let outcomes = std::mem::take(&mut lock(progress).outcomes);
    if let Some(la) = found.lookahead() {
        // What one job would have seen: the answers up to the first interesting index.
        let path = outcomes.get(..=found.get()).unwrap_or(&outcomes);
        la.note_answers(path.iter().flatten().copied());
    }
    let found = found.get();
    let first = (found != usize::MAX).then_some(found);
    // The failed edits one job would have seen: those before the first interesting index.
    deferred.remember_before(first);
    (first, outcomes)
}

/// The earliest unanswered index and when its run started.
fn earliest_pending(p: &Progress) -> Option<(usize, Instant)> {
    p.pending
        .iter()
        .enumerate()
        .find_map(|(i, since)| since.map(|since| (i, since)))
}

/// A worker of a watched round, before it takes the next index: wait while the earliest
/// pending index is probably interesting (under test for `watch.after`) and
/// [`AHEAD_OF_PROBABLE`] indices per worker are handed out past it already. A worker whose
/// candidates the syntax filter rejects goes through one index after another (a parse each,
/// no oracle run) while that run lasts, and all of it is thrown away when it wins; bets with
/// oracle runs still fill the workers.
fn wait_while_far_ahead(
    watch: &Watch,
    progress: &Mutex<Progress>,
    changed: &Condvar,
    next: &AtomicUsize,
    workers: usize,
    stopped: &(dyn Fn() -> bool + Sync),
) {
    let mut p = lock(progress);
    loop {
        let too_far = earliest_pending(&p).is_some_and(|(e, since)| {
            since.elapsed() >= watch.after
                && next.load(Ordering::SeqCst) > e + AHEAD_OF_PROBABLE * workers
        });
        if !too_far || stopped() {
            return;
        }
        // Woken by every answer; the clock is for `stopped` (a cancel).
        p = changed
            .wait_timeout(p, Duration::from_millis(50))
            .unwrap_or_else(|e| e.into_inner())
            .0;
    }
}

/// The caller's thread while the workers run: call `watch.slow(i)` for the earliest
/// unanswered index `i` (below any known winner) once it has been under test for
/// `watch.after`.
fn watch_earliest(watch: &Watch, progress: &Mutex<Progress>, changed: &Condvar, found: &Found) {
    let mut called = usize::MAX;
    let mut p = lock(progress);
    while p.active > 0 {
        let due = earliest_pending(&p)
            .filter(|&(i, _)| i != called && i < found.get())
            .map(|(i, since)| (i, since + watch.after));
        match due {
            Some((i, due)) if Instant::now() >= due => {
                called = i;
                drop(p);
                (watch.slow)(i);
                p = lock(progress);
            }
            Some((_, due)) => {
                let wait = due.saturating_duration_since(Instant::now());
                p = changed
                    .wait_timeout(p, wait)
                    .unwrap_or_else(|e| e.into_inner())
                    .0;
            }
            None => p = changed.wait(p).unwrap_or_else(|e| e.into_inner()),
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::engine::FnOracle;
    use crate::JudgeOptions;

    type Pred = fn(&[u8]) -> bool;

    fn judge(f: Pred) -> (Judge, Arc<FnOracle<Pred>>) {
        let oracle = Arc::new(FnOracle::new(f));
        (
            Judge::new(Box::new(Arc::clone(&oracle)), JudgeOptions::default()),
            oracle,
        )
    }

    fn candidates() -> Vec<Vec<u8>> {
        (0..40).map(|i| format!("c{i}").into_bytes()).collect()
    }

    #[test]
    fn the_first_interesting_candidate_wins_for_every_number_of_jobs() {
        let cands = candidates();
        for jobs in 1..=8 {
            // Interesting: c17, c23, c30 (and c9 is None: skipped). Each run takes 1 ms.
            let (j, _) = judge(|c| {
                std::thread::sleep(Duration::from_millis(1));
                matches!(c, b"c17" | b"c23" | b"c30")
            });
            let make = |i: usize| (i != 9).then(|| cands[i].clone());
            let got = first_interesting(&j, b"cur", jobs, cands.len(), &make);
            assert_eq!(got, Some((17, b"c17".to_vec())), "jobs {jobs}");
            let runs = j.stats().oracle_runs;
            assert!(runs >= 17, "every candidate before the winner is tested");
            // The bets lost after the winner are counted as discarded. How many there are
            // depends on the scheduler alone (while the winner's thread is kept off the CPU
            // between its answer and telling the others, the other workers go on taking
            // candidates): `cargo xtask bench speculation` measures them, not this test.
            assert!(runs <= cands.len() as u64, "bets lost: {runs}");
            assert_eq!(j.stats().discarded, runs - 17);
        }
    }

    #[test]
    fn only_the_failed_edits_before_the_winner_are_remembered_for_every_number_of_jobs() {
        // On the base `abcdefgh`, candidate i removes letter i; removing `e` (index 4) is
        // interesting. With the memory consulted, the edits before it are remembered, then
        // recalled on a base changed elsewhere (`Z` appended far from them) without a run;
        // the edits past the winner were lost bets or never tested, and are tested again, as
        // with one job.
        let base = b"abcdefgh--------------------------------";
        let later = b"abcdefgh--------------------------------Z";
        let without = |text: &[u8], i: usize| {
            let mut c = text.to_vec();
            c.remove(i);
            c
        };
        for jobs in [1, 2, 4] {
            // Not consulted, the memory is not worth its cost: nothing is remembered.
            let (j, _) = judge(|c| !c.contains(&b'e'));
            let got = j.with_lookahead(jobs, || {
                first_interesting(&j, base, jobs, 8, &|i| Some(without(base, i)))
            });
            assert_eq!(got.map(|g| g.0), Some(4), "jobs {jobs}");
            assert_eq!(j.failed_edits(), 0, "jobs {jobs}");

            let (j, oracle) = judge(|c| !c.contains(&b'e'));
            j.recall_failed_edits(Some(0));
            let got = j.with_lookahead(jobs, || {
                first_interesting(&j, base, jobs, 8, &|i| Some(without(base, i)))
            });
            assert_eq!(got.map(|g| g.0), Some(4), "jobs {jobs}");
            let before = oracle.runs();
            for i in 0..4 {
                assert!(!j.test_from(Some(later), &without(later, i)));
            }
            assert_eq!(oracle.runs(), before, "jobs {jobs}: recalled without runs");
            assert_eq!(j.stats().recalled, 4);
            for i in 5..8 {
                assert!(!j.test_from(Some(later), &without(later, i)));
            }
            assert_eq!(oracle.runs(), before + 3, "jobs {jobs}: tested again");
            j.recall_failed_edits(None);
            assert!(!j.test_from(Some(later), &without(later, 0)));
            assert_eq!(oracle.runs(), before + 4, "jobs {jobs}: not consulted");
        }
    }

    #[test]
    fn lost_bets_are_not_waited_for() {
        // c0 is interesting once c1..c3 have started as bets with 4 jobs; those block until
        // the gate opens, which only happens 10 s after the driver started: the driver must
        // return with c0 before that, leaving the lost runs to the lookahead's workers.
        use std::sync::atomic::{AtomicBool, AtomicUsize};
        use std::time::{Duration, Instant};
        static GATE: AtomicBool = AtomicBool::new(false);
        static STARTED: AtomicUsize = AtomicUsize::new(0);
        let oracle = FnOracle::new(|c: &[u8]| {
            STARTED.fetch_add(1, Ordering::SeqCst);
            if c == b"c0" {
                while STARTED.load(Ordering::SeqCst) < 4 && !GATE.load(Ordering::SeqCst) {
                    std::thread::sleep(Duration::from_millis(1));
                }
                return true;
            }
            while !GATE.load(Ordering::SeqCst) {
                std::thread::sleep(Duration::from_millis(5));
            }
            false
        });
        let j = Judge::new(Box::new(oracle), JudgeOptions::default());
        let cands = candidates();
        let started = Instant::now();
        let opener = std::thread::spawn(|| {
            std::thread::sleep(Duration::from_secs(10));
            GATE.store(true, Ordering::SeqCst);
        });
        let got = j.with_lookahead(4, || {
            let got = first_interesting(&j, b"cur", 4, 8, &|i| Some(cands[i].clone()));
            (got, GATE.load(Ordering::SeqCst), started.elapsed())
        });
        assert_eq!(got.0, Some((0, b"c0".to_vec())));
        assert!(!got.1, "the driver waited for its lost bets");
        assert!(got.2 < Duration::from_secs(10));
        opener.join().unwrap();
        // The lost bets still ran (to the end) and are counted as discarded.
        assert!(j.stats().discarded >= 1, "{:?}", j.stats());
    }

    #[test]
    fn lost_bets_are_killed() {
        // c0 answers "interesting" after 1 s; c1..c3 start beside it as bets and would sleep
        // for 60 s. Their runs must be killed once c0 has won: `with_lookahead` returns when
        // its workers have finished their runs, so it would take a minute otherwise.
        use std::os::unix::fs::PermissionsExt;
        use std::time::{Duration, Instant};
        let dir = tempfile::tempdir().unwrap();
        let script = dir.path().join("oracle.sh");
        std::fs::write(
            &script,
            "#!/bin/sh\ncase $(cat \"$1\") in c0) sleep 1; exit 0;; *) sleep 60;; esac\n",
        )
        .unwrap();
        std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
        let oracle = treedd_proc::CommandOracleBuilder::new(&script)
            .temp_root(dir.path())
            .build()
            .unwrap();
        let j = Judge::new(Box::new(oracle), JudgeOptions::default());
        let cands = candidates();
        let started = Instant::now();
        let got = j.with_lookahead(4, || {
            first_interesting(&j, b"cur", 4, 8, &|i| Some(cands[i].clone()))
        });
        assert_eq!(got, Some((0, b"c0".to_vec())));
        assert!(
            started.elapsed() < Duration::from_secs(30),
            "the lost bets ran to the end: {:?}",
            started.elapsed()
        );
        let stats = j.stats();
        assert_eq!(stats.oracle_runs, 1, "{stats:?}");
        assert_eq!(stats.killed, 3, "{stats:?}");
        assert_eq!(stats.discarded, 3, "{stats:?}");
    }

    #[test]
    fn without_a_watch_the_caller_is_one_of_the_workers() {
        use std::collections::HashSet;
        let threads = Mutex::new(HashSet::new());
        let (first, _) = first_true(3, 60, &|| false, &|i| {
            threads.lock().unwrap().insert(std::thread::current().id());
            std::thread::sleep(Duration::from_millis(1));
            Some(i == 59)
        });
        assert_eq!(first, Some(59));
        let threads = threads.into_inner().unwrap();
        assert!(threads.contains(&std::thread::current().id()));
        assert!(threads.len() <= 3, "{} threads for 3 jobs", threads.len());
    }

    #[test]
    fn workers_whose_threads_cannot_start_are_not_waited_for() {
        // From the first or the second thread on, none can start: the first true is found
        // all the same, with a watch (the caller then tests) and without, and nothing hangs.
        let (tx, rx) = std::sync::mpsc::channel();
        std::thread::spawn(move || {
            let mut got = Vec::new();
            for fail_from in [0, 1] {
                for watched in [false, true] {
                    pool::FAIL_SEND.with(|f| f.set(Some(fail_from)));
                    let slow = |_| {};
                    let watch = Watch {
                        after: Duration::from_millis(1),
                        slow: &slow,
                    };
                    let (first, _) = first_true_watched(
                        3,
                        40,
                        &|| false,
                        &|i| Some(i == 29),
                        watched.then_some(&watch),
                    );
                    got.push(first);
                }
            }
            pool::FAIL_SEND.with(|f| f.set(None));
            tx.send(got).unwrap();
        });
        let got = rx
            .recv_timeout(Duration::from_secs(20))
            .expect("the driver hung when its threads could not start");
        assert_eq!(got, vec![Some(29); 4]);
    }

    #[test]
    fn few_indices_are_taken_past_a_probably_interesting_earliest() {
        // Index 0 answers "interesting" after 1 s; the others answer at once (filter-rejected
        // candidates). Index 0 is probably interesting from the start (`after` is zero): the
        // second worker takes at most `AHEAD_OF_PROBABLE * 2` indices past it (before, it
        // went through all 39 others, parses thrown away when index 0 wins).
        use std::sync::atomic::AtomicUsize;
        let tested = AtomicUsize::new(0);
        let slow = |_| {};
        let watch = Watch {
            after: Duration::ZERO,
            slow: &slow,
        };
        let (first, _) = first_true_watched(
            2,
            40,
            &|| false,
            &|i| {
                tested.fetch_add(1, Ordering::SeqCst);
                if i == 0 {
                    std::thread::sleep(Duration::from_secs(1));
                    return Some(true);
                }
                Some(false)
            },
            Some(&watch),
        );
        assert_eq!(first, Some(0));
        let tested = tested.load(Ordering::SeqCst);
        assert!(
            tested <= 10,
            "{tested} indices tested past a probable winner"
        );
    }

    #[test]
    fn nothing_interesting_tests_everything_once() {
        let cands = candidates();
        for jobs in [1, 3] {
            let (j, oracle) = judge(|_| false);
            let make = |i: usize| Some(cands[i].clone());
            assert_eq!(
                first_interesting(&j, b"cur", jobs, cands.len(), &make),
                None
            );
            assert_eq!(oracle.runs(), 40);
        }
    }

    #[test]
    fn the_current_text_is_never_tested() {
        let (j, oracle) = judge(|_| true);
        let make = |i: usize| {
            Some(if i == 0 {
                b"cur".to_vec()
            } else {
                b"x".to_vec()
            })
        };
        assert_eq!(
            first_interesting(&j, b"cur", 1, 2, &make),
            Some((1, b"x".to_vec()))
        );
        assert_eq!(oracle.runs(), 1);
    }
}
