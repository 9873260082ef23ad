//! Unit tests of the lookahead's bets on success.

use std::collections::HashSet;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use super::Durations;
use crate::ddmin::ddmin_indices_ahead;
use crate::engine::FnOracle;
use crate::session::JudgeAhead;
use crate::{DdminOptions, Judge, JudgeOptions};

/// The algorithm's own test of `key` is under way (it holds a permit).
fn run_main(la: &super::Lookahead, key: crate::engine::cache::Key) {
    let mut s = super::lock(&la.state);
    let _ = super::start(&mut s, key, b"main".to_vec(), true, None);
}

fn durations(interesting: &[u64], failing: &[u64]) -> Durations {
    let mut d = Durations::default();
    for &ms in interesting {
        d.add(Duration::from_millis(ms), true);
    }
    for &ms in failing {
        d.add(Duration::from_millis(ms), false);
    }
    d
}

#[test]
fn a_run_is_probably_interesting_once_it_outlasts_most_failing_runs() {
    let ms = |ms| Some(Duration::from_millis(ms));
    // Too few failing runs seen.
    assert_eq!(durations(&[50, 55, 60], &[4, 5]).win_after(), None);
    // Past 5 ms: 3 interesting runs lasted longer, 2 failing ones (6, 7 ms).
    assert_eq!(durations(&[50, 55, 60], &[4, 5, 6, 7]).win_after(), ms(5));
    // Past 7 ms only interesting runs are left.
    assert_eq!(
        durations(&[50, 55, 60], &[4, 5, 6, 7, 7, 7]).win_after(),
        ms(7)
    );
    // Durations that do not tell the answers apart (a sleep oracle), or a failing tail as
    // long as the interesting runs: no such time.
    assert_eq!(durations(&[100; 3], &[100; 6]).win_after(), None);
    assert_eq!(
        durations(&[50; 3], &[4, 4, 4, 60, 60, 60, 60]).win_after(),
        None
    );
    // Interesting runs that are the fast ones: never.
    assert_eq!(durations(&[2, 2, 2], &[50, 50, 50]).win_after(), None);
    // Two interesting runs are enough for a bet on success (past 5 ms: both lasted longer, one
    // failing run), one is not; an assumption needs three.
    assert_eq!(durations(&[50, 60], &[4, 5, 6]).win_after(), ms(5));
    assert_eq!(durations(&[50], &[4, 5, 6]).win_after(), None);
    assert_eq!(
        durations(&[50, 60], &[4, 5, 6, 6, 6]).after_share(0.9),
        None
    );
    assert_eq!(
        durations(&[50, 60, 70], &[4, 5, 6, 6, 6]).after_share(0.9),
        ms(6)
    );
}

#[test]
fn durations_forget_all_but_the_last_window_of_each_answer() {
    let ms = |ms| Some(Duration::from_millis(ms));
    // Failing runs as long as the interesting ones: no time tells them apart ...
    let mut d = durations(&[50, 55, 60], &[100; super::durations::DURATION_WINDOW]);
    assert_eq!(d.win_after(), None);
    // ... until a window of short failing runs has pushed every long one out.
    for _ in 0..super::durations::DURATION_WINDOW - 3 {
        d.add(Duration::from_millis(4), false);
    }
    assert_eq!(d.win_after(), None, "three 100 ms failing runs are left");
    for _ in 0..3 {
        d.add(Duration::from_millis(4), false);
    }
    assert_eq!(d.win_after(), ms(4));
    assert_eq!(d.median_interesting(), ms(55));
}

#[test]
fn durations_agree_with_counting_every_time_afresh() {
    // The kept-sorted windows and the sweep against the definition, on a long pseudo-random
    // stream (many evictions, repeated durations).
    let mut d = Durations::default();
    let (mut interesting, mut failing) = (Vec::new(), Vec::new());
    let mut seed: u64 = 7;
    for step in 0..1500 {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let is = (seed >> 33) % 3 == 0;
        let took = Duration::from_millis((seed >> 40) % 40 + if is { 20 } else { 0 });
        d.add(took, is);
        let list = if is { &mut interesting } else { &mut failing };
        list.push(took);
        let window = |l: &Vec<Duration>| {
            let mut w = l[l.len().saturating_sub(super::durations::DURATION_WINDOW)..].to_vec();
            w.sort_unstable();
            w
        };
        let (i, f) = (window(&interesting), window(&failing));
        let afresh = |min_interesting: usize, holds: &dyn Fn(usize, usize) -> bool| {
            if i.len() < min_interesting || f.len() < super::durations::DURATION_MIN {
                return None;
            }
            std::iter::once(Duration::ZERO)
                .chain(i.iter().copied())
                .chain(f.iter().copied())
                .filter(|&t| {
                    let li = i.iter().filter(|&&x| x > t).count();
                    let lf = f.iter().filter(|&&x| x > t).count();
                    li >= min_interesting && holds(li, lf)
                })
                .min()
        };
        let win_min = super::durations::WIN_MIN_INTERESTING;
        assert_eq!(d.win_after(), afresh(win_min, &|a, b| a > b), "step {step}");
        for share in [0.5, 0.8, 0.9] {
            let holds = |a: usize, b: usize| a as f64 >= share * (a + b) as f64;
            let min = super::durations::DURATION_MIN;
            assert_eq!(d.after_share(share), afresh(min, &holds), "step {step}");
        }
        assert_eq!(d.median_interesting(), i.get(i.len() / 2).copied());
    }
}

/// One oracle run: when it started and ended, the units it kept, its answer.
type Run = (Instant, Instant, HashSet<u8>, bool);

static RUNS: Mutex<Vec<Run>> = Mutex::new(Vec::new());

#[test]
fn what_follows_a_slow_run_is_tested_while_it_runs() {
    // 64 units, interesting iff units 10 and 50 are both kept. Interesting runs take 200 ms,
    // failing ones 2 ms: once a run has lasted a few milliseconds it is probably interesting,
    // and the idle worker tests what ddmin tests after it wins.
    let oracle = FnOracle::new(|c: &[u8]| {
        let start = Instant::now();
        let interesting = c.contains(&10) && c.contains(&50);
        std::thread::sleep(Duration::from_millis(if interesting { 200 } else { 2 }));
        let units = c.iter().copied().collect();
        let mut runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
        runs.push((start, Instant::now(), units, interesting));
        interesting
    });
    let judge = Judge::new(Box::new(oracle), JudgeOptions::default());
    let candidate = |kept: &[usize]| kept.iter().map(|&k| k as u8).collect::<Vec<u8>>();
    let test = |kept: &[usize]| judge.test(&candidate(kept));
    let ahead = JudgeAhead {
        judge: &judge,
        base: &[],
        candidate: &candidate,
        then: None,
    };
    // Complements only: no candidate of a round is a subset of another of the same round, so
    // a run started during an interesting one and keeping a subset of its units can only
    // come from a bet on its success.
    let opts = DdminOptions {
        jobs: 2,
        subsets: false,
        ..DdminOptions::default()
    };
    let kept = judge.with_lookahead(2, || {
        ddmin_indices_ahead(64, None, &test, &opts, Some(&ahead))
    });
    assert_eq!(kept, vec![10, 50], "the result of every number of jobs");
    // The configurations ddmin accepts (what one job finds interesting, in order).
    let chain = Mutex::new(Vec::new());
    let one_job = |kept: &[usize]| {
        let interesting = kept.contains(&10) && kept.contains(&50);
        if interesting {
            let units: HashSet<u8> = kept.iter().map(|&k| k as u8).collect();
            chain.lock().unwrap().push(units);
        }
        interesting
    };
    let opts_one = DdminOptions { jobs: 1, ..opts };
    crate::ddmin::ddmin_indices(64, &one_job, &opts_one);
    let chain = chain.into_inner().unwrap();
    let runs = RUNS.lock().unwrap_or_else(|e| e.into_inner());
    // Lost bets that happen to be interesting (still running: `FnOracle` runs cannot be
    // killed) do not count: only the runs whose answer ddmin used.
    let success_bets = runs
        .iter()
        .filter(|(a_start, a_end, a, interesting)| {
            *interesting
                && chain.contains(a)
                && runs.iter().any(|(b_start, _, b, _)| {
                    b_start > a_start && b_start < a_end && b.len() < a.len() && b.is_subset(a)
                })
        })
        .count();
    assert!(
        success_bets >= 2,
        "{success_bets} interesting runs had what follows them tested while they ran"
    );
}

#[test]
fn a_branch_runs_once_its_condition_is_due_and_dies_with_it() {
    use super::Lookahead;
    use crate::Cache;
    for condition_interesting in [false, true] {
        let la = Lookahead::new(2);
        super::lock(&la.state).durations = durations(&[50, 55, 60], &[1, 1, 1]);
        let condition = Cache::key(b"condition");
        run_main(&la, condition);
        la.announce_if(condition, vec![b"next".to_vec()]);
        std::thread::sleep(Duration::from_millis(5));
        let (key, candidate, requested, token) = la.next(Cache::key).expect("a branch run");
        assert_eq!(
            (key, candidate.as_slice()),
            (Cache::key(b"next"), &b"next"[..])
        );
        assert!(!requested);
        la.finish(condition, Some(condition_interesting));
        assert_eq!(
            token.is_aborted(),
            !condition_interesting,
            "the branch's run is killed iff its condition fails"
        );
    }
}

#[test]
fn a_branch_waits_while_its_condition_is_not_yet_probably_interesting() {
    use super::Lookahead;
    use crate::Cache;
    let la = Lookahead::new(2);
    // A run must last 1 s to be probably interesting; the announced queue goes first.
    super::lock(&la.state).durations = durations(&[1000, 1000, 1000], &[999, 999, 999]);
    let condition = Cache::key(b"condition");
    run_main(&la, condition);
    la.announce_if(condition, vec![b"if it wins".to_vec()]);
    la.announce(vec![b"if it fails".to_vec()]);
    let (_, candidate, _, _) = la.next(Cache::key).expect("a run");
    assert_eq!(candidate, b"if it fails");
}

#[test]
fn a_due_branch_preempts_a_bet_on_its_condition_failing() {
    use super::{Answer, Lookahead};
    use crate::Cache;
    let la = Lookahead::new(2);
    // Past 1 ms a run is probably interesting.
    super::lock(&la.state).durations = durations(&[50, 55, 60], &[1, 1, 1]);
    let condition = Cache::key(b"condition");
    run_main(&la, condition);
    std::thread::sleep(Duration::from_millis(2));
    std::thread::scope(|scope| {
        // A bet of the driver on the condition failing takes the other permit.
        let bet =
            scope.spawn(|| la.request(Cache::key(b"later"), b"later", false, &|| false, &|_| {}));
        let (key, candidate, requested, token) = la.next(Cache::key).expect("the bet's run");
        assert_eq!((candidate.as_slice(), requested), (&b"later"[..], true));
        // The condition is due: its branch has no free permit, so the bet's run is killed.
        la.announce_if(condition, vec![b"next".to_vec()]);
        assert!(token.is_aborted(), "the bet on failure was not preempted");
        assert_eq!(la.preempted(), 1);
        la.finish(key, None);
        let (_, candidate, _, branch_token) = la.next(Cache::key).expect("the branch's run");
        assert_eq!(candidate, b"next", "the freed permit goes to the branch");
        // The condition fails after all: the branch dies, and the killed bet runs again.
        la.finish(condition, Some(false));
        assert!(branch_token.is_aborted());
        la.finish(Cache::key(b"next"), None);
        let (key, candidate, requested, _) = la.next(Cache::key).expect("the bet again");
        assert_eq!((candidate.as_slice(), requested), (&b"later"[..], true));
        la.finish(key, Some(true));
        assert_eq!(
            bet.join().unwrap(),
            Answer::Known(true),
            "the bet gets an oracle's answer, not the killed run's"
        );
    });
}

/// Wait (5 s at most) until `f` holds.
fn eventually(f: impl Fn() -> bool) -> bool {
    let start = Instant::now();
    while !f() {
        if start.elapsed() > Duration::from_secs(5) {
            return false;
        }
        std::thread::sleep(Duration::from_millis(1));
    }
    true
}

#[test]
fn a_lost_bet_runs_on_until_its_permit_is_wanted() {
    use super::{Answer, Lookahead};
    use crate::Cache;
    use std::sync::atomic::{AtomicBool, Ordering};
    let la = Lookahead::new(1);
    let lost = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let bet = scope.spawn(|| {
            la.request(
                Cache::key(b"a"),
                b"a",
                false,
                &|| lost.load(Ordering::SeqCst),
                &|_| {},
            )
        });
        let (a, _, _, a_token) = la.next(Cache::key).expect("the bet's run");
        lost.store(true, Ordering::SeqCst);
        la.notify();
        assert_eq!(bet.join().unwrap(), Answer::Lost);
        assert!(
            !a_token.is_aborted(),
            "a lost run goes on while nobody needs its permit"
        );
        // The next step tests the same candidate: it gets the answer of the run under way.
        let again = scope.spawn(|| la.request(Cache::key(b"a"), b"a", true, &|| false, &|_| {}));
        std::thread::sleep(Duration::from_millis(30));
        la.finish(a, Some(true));
        assert_eq!(again.join().unwrap(), Answer::Known(true));
        // A lost run whose permit another test wants is killed, and that test runs.
        lost.store(false, Ordering::SeqCst);
        let bet = scope.spawn(|| {
            la.request(
                Cache::key(b"c"),
                b"c",
                false,
                &|| lost.load(Ordering::SeqCst),
                &|_| {},
            )
        });
        let (c, _, _, c_token) = la.next(Cache::key).expect("the second bet's run");
        lost.store(true, Ordering::SeqCst);
        la.notify();
        assert_eq!(bet.join().unwrap(), Answer::Lost);
        let wanted = scope.spawn(|| la.request(Cache::key(b"d"), b"d", true, &|| false, &|_| {}));
        assert!(
            eventually(|| c_token.is_aborted()),
            "the lost run keeps the permit"
        );
        la.finish(c, None);
        let (d, candidate, _, _) = la.next(Cache::key).expect("the wanted run");
        assert_eq!(candidate, b"d");
        la.finish(d, Some(false));
        assert_eq!(wanted.join().unwrap(), Answer::Known(false));
    });
}

#[test]
fn a_run_a_test_waits_for_is_never_killed_to_make_room() {
    // The test that asked for `a` may not have seen its run start yet when `b` wants the
    // only permit: `a` must not be taken for a run nobody wants (it was, and `a`'s test then
    // got no answer, which the driver took for "not interesting").
    use super::{Answer, Lookahead};
    use crate::Cache;
    let la = Lookahead::new(1);
    std::thread::scope(|scope| {
        let first = scope.spawn(|| la.request(Cache::key(b"a"), b"a", false, &|| false, &|_| {}));
        let (a, _, _, a_token) = la.next(Cache::key).expect("a's run");
        let second = scope.spawn(|| la.request(Cache::key(b"b"), b"b", false, &|| false, &|_| {}));
        std::thread::sleep(Duration::from_millis(50));
        assert!(!a_token.is_aborted());
        la.finish(a, Some(true));
        assert_eq!(first.join().unwrap(), Answer::Known(true));
        let (b, _, _, _) = la.next(Cache::key).expect("b's run");
        la.finish(b, Some(false));
        assert_eq!(second.join().unwrap(), Answer::Known(false));
    });
}

#[test]
fn a_run_that_lasts_is_assumed_interesting_and_a_wrong_assumption_is_reported() {
    use super::{Answer, Lookahead};
    use crate::Cache;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    for interesting in [true, false] {
        let stop = Arc::new(AtomicBool::new(false));
        let la = Lookahead::with_stop(1, 0, Arc::clone(&stop));
        // Past about 1.5 ms a run is very probably interesting.
        super::lock(&la.state).durations = durations(&[50, 55, 60], &[1, 1, 1]);
        std::thread::scope(|scope| {
            let test = scope.spawn(|| la.request(Cache::key(b"a"), b"a", true, &|| false, &|_| {}));
            let (a, _, _, a_token) = la.next(Cache::key).expect("a's run");
            std::thread::sleep(Duration::from_millis(30));
            assert!(!test.is_finished(), "no assumption outside a unit");
            la.set_unit(Some((7, treedd_proc::cpu_seconds())));
            la.notify();
            assert_eq!(test.join().unwrap(), Answer::Assumed);
            assert_eq!(la.oldest_outstanding(), Some(7));
            assert_eq!(la.assumptions(), 1);
            // An assumed run is never killed, even when its permit is wanted.
            let other =
                scope.spawn(|| la.request(Cache::key(b"b"), b"b", true, &|| false, &|_| {}));
            std::thread::sleep(Duration::from_millis(30));
            assert!(!a_token.is_aborted());
            assert_eq!(la.finish(a, Some(interesting)), !interesting);
            assert_eq!(
                stop.load(Ordering::SeqCst),
                !interesting,
                "the algorithm stops"
            );
            assert_eq!(la.oldest_outstanding(), None);
            assert_eq!(la.take_failed(), (!interesting).then_some(7));
            // A misprediction doubles the assumption time.
            let scale = super::lock(&la.state).assume_scale;
            assert_eq!(scale, if interesting { 1.0 } else { 2.0 });
            assert!(!stop.load(Ordering::SeqCst), "lowered for the replay");
            let (b, _, _, _) = la.next(Cache::key).expect("b's run");
            la.finish(b, Some(false));
            assert_eq!(other.join().unwrap(), Answer::Known(false));
        });
    }
}

#[test]
fn a_run_is_very_probably_interesting_once_it_outlasts_nine_failing_runs_in_ten() {
    let ms = |ms| Some(Duration::from_millis(ms));
    let d = durations(&[50, 55, 60, 61, 62], &[4, 5, 6, 7, 58]);
    // Past 4 ms most longer runs are interesting (5 against 4); 90% only past 58 ms.
    assert_eq!(d.win_after(), ms(4));
    assert_eq!(d.after_share(0.9), ms(58));
    assert_eq!(d.after_share(0.8), ms(7));
    assert_eq!(d.median_interesting(), ms(60));
    // A failing tail as long as the interesting runs: no such time.
    assert_eq!(durations(&[50; 4], &[50; 4]).after_share(0.9), None);
}

#[test]
fn no_bets_on_success_while_assumptions_can_be_made() {
    use super::Lookahead;
    use crate::Cache;
    let la = Lookahead::new(2);
    super::lock(&la.state).durations = durations(&[50, 55, 60], &[1, 1, 1]);
    assert_eq!(la.win_after(), Some(Duration::from_millis(1)));
    la.set_unit(Some((1, treedd_proc::cpu_seconds())));
    assert_eq!(
        la.win_after(),
        None,
        "an assumption does what the bet would"
    );
    run_main(&la, Cache::key(b"condition"));
    la.announce_if(Cache::key(b"condition"), vec![b"next".to_vec()]);
    assert!(super::lock(&la.state).branches.is_empty());
    // A replay that would cost too much: bets on success again.
    la.set_unit(Some((1, treedd_proc::cpu_seconds() - 3600.0)));
    assert!(la.win_after().is_some());
}

#[test]
fn a_due_run_is_waited_for_when_a_replay_would_cost_too_much() {
    // (This subtracted the run's age from the assumption time and panicked.)
    use super::{Answer, Lookahead};
    use crate::Cache;
    let la = Lookahead::new(1);
    super::lock(&la.state).durations = durations(&[50, 55, 60], &[1, 1, 1]);
    la.set_unit(Some((1, treedd_proc::cpu_seconds() - 3600.0)));
    std::thread::scope(|scope| {
        let test = scope.spawn(|| la.request(Cache::key(b"a"), b"a", true, &|| false, &|_| {}));
        let (a, _, _, _) = la.next(Cache::key).expect("a's run");
        std::thread::sleep(Duration::from_millis(50));
        assert!(!test.is_finished(), "no assumption");
        la.finish(a, Some(true));
        assert_eq!(test.join().unwrap(), Answer::Known(true));
    });
}

#[test]
fn an_answer_wakes_only_the_tests_that_want_it() {
    // A test waits for the run of "x" while 60 other runs start and end: none of them
    // concerns it, so it is not woken (before, every answer woke every waiting test).
    use super::{Answer, Lookahead};
    use crate::Cache;
    let la = Lookahead::new(2);
    let la = &la;
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let waiter = scope.spawn(move || {
            tx.send(treedd_proc::dev::current_task()).unwrap();
            la.request(Cache::key(b"x"), b"x", true, &|| false, &|_| {})
        });
        let task = rx.recv().unwrap();
        let (x, candidate, requested, _) = la.next(Cache::key).expect("x's run");
        assert_eq!((candidate.as_slice(), requested), (&b"x"[..], true));
        // Let the waiter learn that x's run started and go back to sleep.
        std::thread::sleep(Duration::from_millis(5));
        let others: Vec<Vec<u8>> = (0..60).map(|i| format!("o{i}").into_bytes()).collect();
        la.announce(others);
        let before = treedd_proc::dev::voluntary_switches(&task);
        for _ in 0..60 {
            let (key, _, _, _) = la.next(Cache::key).expect("an announced run");
            la.finish(key, Some(false));
            std::thread::sleep(Duration::from_millis(1));
        }
        // About 70 ms: the waiter also looks again every 100 ms on its own.
        let woken = treedd_proc::dev::voluntary_switches(&task) - before;
        // Answer x before asserting: a failed assertion must not leave the waiter waiting.
        la.finish(x, Some(true));
        assert_eq!(waiter.join().unwrap(), Answer::Known(true));
        assert!(
            woken <= 15,
            "woken {woken} times by 60 answers it does not want"
        );
    });
}

#[test]
fn an_announcement_wakes_no_idle_worker_while_no_permit_is_free() {
    // One permit, taken by the run of "a": a second worker waits for work. Announcements
    // cannot give it any until a permit comes free, so they must not wake it.
    use super::Lookahead;
    use crate::Cache;
    let la = Lookahead::new(1);
    let la = &la;
    la.announce(vec![b"a".to_vec()]);
    let (a, _, _, _) = la.next(Cache::key).expect("a's run");
    std::thread::scope(|scope| {
        let (tx, rx) = std::sync::mpsc::channel();
        let idle = scope.spawn(move || {
            tx.send(treedd_proc::dev::current_task()).unwrap();
            la.next(Cache::key)
        });
        let task = rx.recv().unwrap();
        std::thread::sleep(Duration::from_millis(5));
        let before = treedd_proc::dev::voluntary_switches(&task);
        for i in 0..20 {
            la.announce(vec![format!("b{i}").into_bytes()]);
            std::thread::sleep(Duration::from_millis(1));
        }
        // About 25 ms: the idle worker also looks again every 50 ms on its own.
        let woken = treedd_proc::dev::voluntary_switches(&task) - before;
        la.finish(a, Some(false));
        let (_, candidate, _, _) = idle.join().unwrap().expect("the last announced run");
        assert_eq!(candidate, b"b19");
        assert!(woken <= 2, "woken {woken} times by 20 announcements");
    });
}

/// The bound of a wait in the wake-up tests: so long that no wait ends by the clock unless
/// the wake-up is missing (and then the test fails on [`waits_by_the_clock`]).
const LONG_WAIT: Duration = Duration::from_secs(10);

/// How many waits in `Lookahead::request` ended by the clock so far.
fn waits_by_the_clock(la: &super::Lookahead) -> u64 {
    super::lock(&la.state).clock_waits
}

#[test]
fn a_bet_lost_while_it_waits_gives_up_at_once() {
    // The bet of index 1 waits for its run; index 0 of the same driver call wins without
    // a run of this lookahead (a memo's answer): the bet must hear of it, not find out
    // when its wait times out.
    use super::bet::{Bet, Found};
    use super::{Answer, Lookahead};
    use crate::Cache;
    use std::sync::Arc;
    let mut la = Lookahead::new(2);
    la.wait_at_most = LONG_WAIT;
    let la = Arc::new(la);
    let found = Arc::new(Found::new());
    let bet = Bet::new(Arc::clone(&found), 1);
    bet.wake_on(&la);
    std::thread::scope(|scope| {
        let waiter =
            scope.spawn(|| la.request(Cache::key(b"b"), b"b", false, &|| bet.lost(), &|_| {}));
        let (b, _, _, _) = la.next(Cache::key).expect("b's run");
        std::thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished());
        // A later index winning changes nothing for it.
        found.win(2);
        std::thread::sleep(Duration::from_millis(20));
        assert!(!waiter.is_finished(), "index 1 is not lost to index 2");
        found.win(0);
        assert_eq!(waiter.join().unwrap(), Answer::Lost);
        assert_eq!(waits_by_the_clock(&la), 0, "not woken");
        la.finish(b, None);
    });
}

#[test]
fn a_failed_assumption_wakes_every_waiting_bet() {
    // A misprediction stops the algorithm, which every bet under way reads as lost.
    use super::{Answer, Lookahead};
    use crate::Cache;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let mut la = Lookahead::with_stop(2, 0, Arc::clone(&stop));
    la.wait_at_most = LONG_WAIT;
    // Past about 1.5 ms a run is very probably interesting.
    super::lock(&la.state).durations = durations(&[50, 55, 60], &[1, 1, 1]);
    la.set_unit(Some((7, treedd_proc::cpu_seconds())));
    std::thread::scope(|scope| {
        let test = scope.spawn(|| la.request(Cache::key(b"a"), b"a", true, &|| false, &|_| {}));
        let (a, _, _, _) = la.next(Cache::key).expect("a's run");
        assert_eq!(test.join().unwrap(), Answer::Assumed);
        // No more assumptions (the bet's run would be one).
        la.set_unit(None);
        let (la, stop) = (&la, &stop);
        let bet = scope.spawn(move || {
            let lost = || stop.load(Ordering::SeqCst);
            la.request(Cache::key(b"b"), b"b", false, &lost, &|_| {})
        });
        let (b, _, _, _) = la.next(Cache::key).expect("b's run");
        std::thread::sleep(Duration::from_millis(20));
        assert!(!bet.is_finished());
        // a's own wait ended by the clock when its run fell due (the assumption).
        let before = waits_by_the_clock(la);
        assert!(la.finish(a, Some(false)), "a misprediction");
        assert_eq!(bet.join().unwrap(), Answer::Lost);
        assert_eq!(waits_by_the_clock(la), before, "not woken");
        la.finish(b, None);
    });
}

#[test]
fn a_run_is_under_way_from_its_start_to_its_answer() {
    use crate::Cache;
    let la = super::Lookahead::new(2);
    let key = Cache::key(b"x");
    assert!(!la.under_way(&key));
    la.announce(vec![b"x".to_vec()]);
    assert!(!la.under_way(&key), "queued, not started");
    let (started, _, _, _) = la.next(Cache::key).expect("x's run");
    assert_eq!(started, key);
    assert!(la.under_way(&key));
    la.finish(key, Some(false));
    assert!(!la.under_way(&key));
}

#[test]
fn while_most_answers_are_wins_main_tests_are_assumed_at_once_and_a_failure_kills_the_path_after_it(
) {
    use super::streak::STREAK_WINDOW;
    use super::{Answer, Lookahead};
    use crate::Cache;
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::sync::Arc;
    let stop = Arc::new(AtomicBool::new(false));
    let la = Lookahead::with_stop(3, 0, Arc::clone(&stop));
    // Durations that do not tell the answers apart (a sleep oracle).
    super::lock(&la.state).durations = durations(&[50; 4], &[50; 4]);
    la.set_unit(Some((1, treedd_proc::cpu_seconds())));
    la.note_answers([true, false].into_iter().cycle().take(STREAK_WINDOW));
    assert!(!la.chains_wins(), "half the answers were wins");
    la.note_answers(std::iter::repeat_n(true, STREAK_WINDOW));
    assert!(la.chains_wins());
    let la = &la;
    let request = |name: &'static [u8], main: bool| {
        move || la.request(Cache::key(name), name, main, &|| false, &|_| {})
    };
    std::thread::scope(|scope| {
        let a = scope.spawn(request(b"a", true));
        let (a_key, _, _, a_token) = la.next(Cache::key).expect("a's run");
        assert_eq!(a.join().unwrap(), Answer::Assumed, "assumed as it starts");
        let b = scope.spawn(request(b"b", true));
        let (b_key, _, _, b_token) = la.next(Cache::key).expect("b's run");
        assert_eq!(b.join().unwrap(), Answer::Assumed);
        // A bet of the driver is not the algorithm's own test: it waits for its answer.
        let c = scope.spawn(request(b"c", false));
        let (c_key, _, _, c_token) = la.next(Cache::key).expect("c's run");
        std::thread::sleep(Duration::from_millis(30));
        assert!(!c.is_finished(), "a bet is not assumed by the streak");
        assert_eq!(la.assumptions(), 2);
        // a fails: b was tested only because a was assumed to win. Its run is killed (the
        // replay wants the permit) and its end is no misprediction.
        assert!(la.finish(a_key, Some(false)), "a misprediction");
        assert!(stop.load(Ordering::SeqCst), "the algorithm stops");
        assert!(
            b_token.is_aborted(),
            "the run after the failed assumption is killed"
        );
        assert!(!c_token.is_aborted(), "a run some test waits for is not");
        assert!(!a_token.is_aborted());
        assert!(!la.finish(b_key, None));
        la.finish(c_key, Some(false));
        assert_eq!(c.join().unwrap(), Answer::Known(false));
        assert_eq!(la.oldest_outstanding(), None);
        assert_eq!(la.take_failed(), Some(1));
    });
}

/// The text the bets of [`hinted`] were made from, and the same with `int b;` removed.
const HINT_OLD: &[u8] = b"int a; int b; int c; int d;";
const HINT_NEW: &[u8] = b"int a; int c; int d;";

/// A lookahead of 3 jobs inside a unit, with durations that do not tell answers apart, after
/// bets on edits of [`HINT_OLD`] that answered as `answers` say (candidate, interesting).
fn hinted(answers: &[(&[u8], bool)]) -> super::Lookahead {
    use super::hints::signature;
    use super::Answer;
    use crate::Cache;
    use std::sync::atomic::AtomicBool;
    use std::sync::Arc;
    let la = super::Lookahead::with_stop(3, 0, Arc::new(AtomicBool::new(false)));
    super::lock(&la.state).durations = durations(&[50; 4], &[50; 4]);
    la.set_unit(Some((1, treedd_proc::cpu_seconds())));
    for &(bet, interesting) in answers {
        la.note_edit(Cache::key(bet), signature(HINT_OLD, bet));
        std::thread::scope(|scope| {
            let t = scope.spawn(|| la.request(Cache::key(bet), bet, false, &|| false, &|_| {}));
            let (key, _, _, _) = la.next(Cache::key).expect("the bet's run");
            la.finish(key, Some(interesting));
            assert_eq!(t.join().unwrap(), Answer::Known(interesting));
        });
    }
    la
}

#[test]
fn a_main_test_of_an_edit_that_won_before_is_assumed_at_once_and_one_that_failed_is_not() {
    use super::hints::signature;
    use super::streak::STREAK_WINDOW;
    use super::Answer;
    use crate::Cache;
    // Removing `int c;` was interesting on the old text, removing `int d;` was not.
    let la = &hinted(&[
        (b"int a; int b; int d;", true),
        (b"int a; int b; int c; ", false),
    ]);
    let request = |candidate: &'static [u8]| {
        la.note_edit(Cache::key(candidate), signature(HINT_NEW, candidate));
        move || la.request(Cache::key(candidate), candidate, true, &|| false, &|_| {})
    };
    std::thread::scope(|scope| {
        // No streak: the answers so far were one win and one failure.
        assert!(!la.chains_wins());
        let c = scope.spawn(request(b"int a; int d;"));
        let (c_key, _, _, _) = la.next(Cache::key).expect("c's run");
        let early = finishes_soon(&c);
        la.finish(c_key, Some(true));
        assert!(
            early,
            "the edit won on the old text: assumed as its run starts"
        );
        assert_eq!(c.join().unwrap(), Answer::Assumed);
        // A streak of wins, but this edit failed on the old text: it waits for its answer.
        la.note_answers(std::iter::repeat_n(true, STREAK_WINDOW));
        assert!(la.chains_wins());
        let d = scope.spawn(request(b"int a; int c; "));
        let (d_key, _, _, _) = la.next(Cache::key).expect("d's run");
        std::thread::sleep(Duration::from_millis(30));
        assert!(!d.is_finished(), "the edit failed on the old text");
        la.finish(d_key, Some(false));
        assert_eq!(d.join().unwrap(), Answer::Known(false));
    });
}

#[test]
fn the_earliest_bet_of_an_edit_that_won_before_is_assumed_and_a_later_bet_is_not() {
    use super::hints::signature;
    use super::Answer;
    use crate::Cache;
    use std::sync::atomic::{AtomicBool, Ordering};
    let la = &hinted(&[(b"int a; int b; int c; ", true)]);
    // The same edit on the new text, as a bet of the driver: assumed only once every
    // earlier index of its sequence has failed.
    let bet: &[u8] = b"int a; int c; ";
    la.note_edit(Cache::key(bet), signature(HINT_NEW, bet));
    let earliest = AtomicBool::new(false);
    std::thread::scope(|scope| {
        let t = scope.spawn(|| {
            let earliest = || earliest.load(Ordering::SeqCst);
            la.request_bet(Cache::key(bet), bet, false, &earliest, &|| false, &|_| {})
        });
        let (key, _, _, _) = la.next(Cache::key).expect("the bet's run");
        std::thread::sleep(Duration::from_millis(30));
        let waited = !t.is_finished();
        earliest.store(true, Ordering::SeqCst);
        la.notify();
        let assumed = finishes_soon(&t);
        la.finish(key, Some(true));
        assert!(
            waited,
            "a bet with earlier indices pending waits for its answer"
        );
        assert!(
            assumed,
            "the earliest bet is assumed once the earlier ones failed"
        );
        assert_eq!(t.join().unwrap(), Answer::Assumed);
    });
}

/// Whether `t` ends within two seconds (long enough for a loaded machine; an answer nobody
/// gives never comes).
fn finishes_soon<T>(t: &std::thread::ScopedJoinHandle<'_, T>) -> bool {
    let until = Instant::now() + Duration::from_secs(2);
    while !t.is_finished() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(5));
    }
    t.is_finished()
}
