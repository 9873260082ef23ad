//! Unit tests of the judge: filter, cache, best so far, cancel.

use std::sync::Mutex;
use std::time::Duration;

use super::*;
use crate::ddmin::ddmin;
use crate::DdminOptions;

type Pred = fn(&[u8]) -> bool;

thread_local! {
    /// Make the start of this thread's lookahead worker number k fail, as when the system
    /// has no thread to give.
    pub(super) static FAIL_WORKER: std::cell::Cell<Option<usize>> =
        const { std::cell::Cell::new(None) };
}

fn judge_with(f: Pred, opts: JudgeOptions) -> (Judge, Arc<FnOracle<Pred>>) {
    let oracle = Arc::new(FnOracle::new(f));
    (Judge::new(Box::new(Arc::clone(&oracle)), opts), oracle)
}

/// `Judge::steps` over `names`, one test per step, at `jobs`: the (name, answer) pairs the
/// steps end with, and the judge's counts.
fn steps_over(names: &[&str], oracle: Pred, jobs: usize) -> (Vec<(String, bool)>, Stats) {
    let (judge, _) = judge_with(oracle, JudgeOptions::default());
    let out = judge.with_lookahead(jobs, || {
        judge.steps(Vec::new(), |seen: &mut Vec<(String, bool)>| {
            let name = names[seen.len()];
            let answer = judge.test(name.as_bytes());
            if judge.is_cancelled() {
                return true;
            }
            seen.push((name.to_string(), answer));
            seen.len() == names.len()
        })
    });
    (out, judge.stats())
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
    /// Keeps every improvement, with the oracle runs then.
    #[derive(Default)]
    struct Seen(Mutex<Vec<(Vec<u8>, u64)>>);
    impl Observer for Seen {
        fn improved(&self, candidate: &[u8], stats: &Stats) {
            self.0
                .lock()
                .unwrap()
                .push((candidate.to_vec(), stats.oracle_runs));
        }
    }
    let seen = Arc::new(Seen::default());
    let opts = JudgeOptions {
        observer: Some(Arc::clone(&seen) as Arc<dyn Observer>),
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
        *seen.0.lock().unwrap(),
        vec![(b"abcd".to_vec(), 1), (b"ab".to_vec(), 5)]
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
    // The other 3 workers may each have passed the judge's check before the cancel and be
    // counted just after it (this asked for exactly 10 and failed about one time in eight).
    let runs = runs.load(Ordering::SeqCst);
    assert!((10..=13).contains(&runs), "oracle ran after cancel: {runs}");
    assert!(
        calls.load(Ordering::SeqCst) <= 15,
        "ddmin kept going: {calls:?}"
    );
    assert!(!out.is_empty());
    assert!(!judge.test(&out), "tests after cancel must be false");
}

#[test]
fn a_cancel_token_stops_the_judge_and_its_parts_without_reaching_the_judge() {
    // Raised from inside the 10th run, as a signal thread would, knowing only the token.
    let token = CancelToken::new();
    let raise = token.clone();
    let runs = Arc::new(AtomicU64::new(0));
    let counter = Arc::clone(&runs);
    let oracle = FnOracle::new(move |c: &[u8]| {
        if counter.fetch_add(1, Ordering::SeqCst) == 9 {
            raise.cancel();
        }
        c.first() == Some(&0) && c.last() == Some(&255)
    });
    let opts = JudgeOptions {
        cancel: Some(token.clone()),
        ..Default::default()
    };
    let judge = Arc::new(Judge::new(Box::new(oracle), opts));
    let part = judge.nested("a", 1, Box::new(|c: &[u8]| c.to_vec()), None, None);
    let units: Vec<u8> = (0..=255).cycle().take(5000).collect();
    let opts = DdminOptions {
        stop: Some(judge.stop_flag()),
        jobs: 4,
        ..Default::default()
    };
    let test = |c: &[u8]| judge.test(c);
    ddmin(&units, &test, &opts);
    let runs = runs.load(Ordering::SeqCst);
    assert!(
        (10..=13).contains(&runs),
        "oracle ran after the token: {runs}"
    );
    assert!(judge.is_cancelled() && part.is_cancelled());
    judge.end_nested(&part);

    // A judge built once the token is raised starts cancelled, as its parts do.
    let (late, oracle) = judge_with(
        |_| true,
        JudgeOptions {
            cancel: Some(token),
            ..Default::default()
        },
    );
    assert!(late.is_cancelled() && !late.test(b"x"));
    assert_eq!(oracle.runs(), 0);
    let late = Arc::new(late);
    let part = late.nested("a", 1, Box::new(|c: &[u8]| c.to_vec()), None, None);
    assert!(part.is_cancelled());
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
fn phases_go_to_the_observer_and_failed_starts_are_not_cached() {
    struct Broken;
    impl Oracle for Broken {
        fn run(&self, _: &[u8]) -> Outcome {
            Outcome::FailedToStart("exec format error".into())
        }
        fn cancel(&self) {}
    }
    let recorder = Arc::new(crate::engine::observer::Recorder::default());
    let opts = JudgeOptions {
        observer: Some(Arc::clone(&recorder) as Arc<dyn Observer>),
        ..Default::default()
    };
    let judge = Judge::new(Box::new(Broken), opts);
    judge.phase("text: lines");
    assert_eq!(recorder.phase(), "text: lines");
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

#[test]
fn a_failed_assumption_is_replayed_and_every_step_sees_the_oracles_answers() {
    // Interesting runs take 60 ms, failing ones 1 ms, but "slowno" fails after 60 ms: with
    // two jobs it is taken as interesting before it answers, the next step starts on that,
    // and the steps run again from its step once it fails. The steps must end with the
    // answers one job sees.
    fn oracle(c: &[u8]) -> bool {
        let slow = c.starts_with(b"yes") || c.starts_with(b"slow");
        std::thread::sleep(Duration::from_millis(if slow { 60 } else { 1 }));
        c.starts_with(b"yes")
    }
    let names = [
        "yes1", "no1", "yes2", "no2", "yes3", "no3", "no4", "slowno", "yes4", "no5", "no1",
    ];
    let run = |jobs: usize| steps_over(&names, oracle, jobs);
    let (one, one_stats) = run(1);
    let (two, stats) = run(2);
    assert_eq!(two, one);
    // The second "no1" is a cache hit with one job; after a replay it still is (not an
    // answer from the replay's memo).
    assert_eq!(one_stats.cache_hits, 1);
    assert!(stats.cache_hits >= 1, "{stats:?}");
    // (A failing run slowed down by a loaded machine may be assumed too.)
    assert!(stats.replays >= 1, "{stats:?}");
    assert!(stats.assumed >= 2, "yes4 and slowno at least: {stats:?}");
}

#[test]
fn a_reserved_permit_keeps_the_runs_under_jobs_until_it_is_released() {
    // Each run lasts 20 ms; RUNNING counts the runs under way, MOST the most at once before
    // and after the release.
    use std::sync::atomic::AtomicUsize;
    static RUNNING: AtomicUsize = AtomicUsize::new(0);
    static MOST: [AtomicUsize; 2] = [AtomicUsize::new(0), AtomicUsize::new(0)];
    static RELEASED: AtomicBool = AtomicBool::new(false);
    static STARTED: AtomicUsize = AtomicUsize::new(0);
    let oracle = FnOracle::new(|c: &[u8]| {
        STARTED.fetch_add(1, Ordering::SeqCst);
        let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
        let phase = usize::from(RELEASED.load(Ordering::SeqCst));
        MOST[phase].fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(20));
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        c.contains(&7) && c.contains(&40)
    });
    let judge = Judge::new(Box::new(oracle), JudgeOptions::default());
    judge.reserve_permit();
    let candidate = |kept: &[usize]| kept.iter().map(|&k| k as u8).collect::<Vec<u8>>();
    let test = |kept: &[usize]| judge.test(&candidate(kept));
    let ahead = crate::session::JudgeAhead {
        judge: &judge,
        base: &[],
        candidate: &candidate,
        then: None,
    };
    let opts = DdminOptions {
        jobs: 3,
        ..DdminOptions::default()
    };
    let kept = std::thread::scope(|s| {
        s.spawn(|| {
            // Released after 8 runs (about 80 ms), long before ddmin is done.
            while STARTED.load(Ordering::SeqCst) < 8 {
                std::thread::sleep(Duration::from_millis(1));
            }
            RELEASED.store(true, Ordering::SeqCst);
            judge.release_permit();
        });
        judge.with_lookahead(3, || {
            crate::ddmin::ddmin_indices_ahead(64, None, &test, &opts, Some(&ahead))
        })
    });
    assert_eq!(kept, vec![7, 40]);
    assert_eq!(
        MOST[0].load(Ordering::SeqCst),
        2,
        "2 of 3 permits before the release"
    );
    assert_eq!(MOST[1].load(Ordering::SeqCst), 3, "all 3 after it");
}

#[test]
fn lookahead_workers_that_cannot_start_leave_the_answers_unchanged() {
    // With 4 jobs and only 1, or no lookahead worker started, the tests get the answers one
    // job gets (and said how many workers started); nothing hangs.
    fn oracle(c: &[u8]) -> bool {
        std::thread::sleep(Duration::from_millis(1));
        c.contains(&b'7')
    }
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let mut got = Vec::new();
        for fail_at in [None, Some(1), Some(0)] {
            FAIL_WORKER.with(|f| f.set(fail_at));
            let (judge, _) = judge_with(oracle, JudgeOptions::default());
            let items: Vec<usize> = (0..40).collect();
            let kept = judge.with_lookahead(4, || {
                let test = |keep: &[usize]| {
                    let text: String = keep.iter().map(|i| format!("{i},")).collect();
                    judge.test(text.as_bytes())
                };
                let opts = DdminOptions {
                    jobs: 4,
                    ..Default::default()
                };
                ddmin(&items, &test, &opts)
            });
            got.push((kept, judge.missing_workers().map(|m| (m.jobs, m.started))));
        }
        FAIL_WORKER.with(|f| f.set(None));
        let _ = tx.send(got);
    });
    let got = rx
        .recv_timeout(Duration::from_secs(60))
        .expect("hung when lookahead workers could not start");
    assert_eq!(got[0], (vec![7], None));
    assert_eq!(got[1], (vec![7], Some((4, 1))));
    assert_eq!(got[2], (vec![7], Some((4, 0))));
}

#[test]
fn a_panic_in_the_body_stops_the_lookahead_workers() {
    // Before, the scope waited for workers nobody stopped: the panic never came out.
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let (judge, _) = judge_with(|_| false, JudgeOptions::default());
        let caught = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| {
            judge.with_lookahead(2, || -> () { panic!("in the algorithm") })
        }));
        let _ = tx.send(caught.is_err());
    });
    let panicked = rx
        .recv_timeout(Duration::from_secs(20))
        .expect("with_lookahead hung after a panic");
    assert!(panicked);
}

#[test]
fn a_candidate_under_way_is_not_announced_again() {
    // An announcement has `jobs` places or so: one given to a run already under way did not
    // reach further ahead. `known_or_under_way` (which the announcements skip) counts such runs.
    use std::sync::atomic::{AtomicBool, Ordering};
    static STARTED: AtomicBool = AtomicBool::new(false);
    static RELEASE: AtomicBool = AtomicBool::new(false);
    let oracle = FnOracle::new(|c: &[u8]| {
        if c == b"slow" {
            STARTED.store(true, Ordering::SeqCst);
            let until = std::time::Instant::now() + Duration::from_secs(10);
            while !RELEASE.load(Ordering::SeqCst) && std::time::Instant::now() < until {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        false
    });
    let judge = Judge::new(Box::new(oracle), JudgeOptions::default());
    let (during, after) = judge.with_lookahead(2, || {
        assert!(!judge.known_or_under_way(b"slow"));
        judge.announce(b"", vec![b"slow".to_vec()]);
        let until = std::time::Instant::now() + Duration::from_secs(10);
        while !STARTED.load(Ordering::SeqCst) && std::time::Instant::now() < until {
            std::thread::sleep(Duration::from_millis(1));
        }
        let during = judge.known_or_under_way(b"slow");
        RELEASE.store(true, Ordering::SeqCst);
        // The main line's own test takes the speculative answer.
        assert!(!judge.test(b"slow"));
        (during, judge.known_or_under_way(b"slow"))
    });
    assert!(
        STARTED.load(Ordering::SeqCst),
        "the announced run never started"
    );
    assert!(during, "a run under way was not known");
    assert!(after, "an answered candidate was not known");
}

/// The durations of interesting runs made outside the judge (the CLI's check of the
/// original) count for the lookahead's bets on success: noted before a lookahead exists, they
/// are given to it when it starts; noted while it runs, at once.
#[test]
fn interesting_runs_made_outside_count_for_the_bets_on_success() {
    let (judge, _) = judge_with(
        |_| {
            std::thread::sleep(Duration::from_millis(1));
            false
        },
        JudgeOptions::default(),
    );
    judge.note_interesting_run(Duration::from_millis(80));
    let (before, after) = judge.with_lookahead(2, || {
        for c in [b"a", b"b", b"c"] {
            assert!(!judge.test(c));
        }
        // One interesting run (noted before the lookahead) and three failing ones.
        let before = judge.win_after();
        judge.note_interesting_run(Duration::from_millis(90));
        (before, judge.win_after())
    });
    assert_eq!(before, None);
    assert!(
        after.is_some_and(|t| t < Duration::from_millis(80)),
        "{after:?}"
    );
}

#[test]
fn wins_in_a_row_are_chained_where_durations_tell_nothing_and_the_steps_end_as_with_one_job() {
    // Every run takes 40 ms whatever its answer (a sleep oracle): no assumption can be made
    // from durations. Most answers are wins: after a few, the steps go on as soon as each
    // run starts, so several runs of successive steps are under way at once, and "no1" and
    // "no2", assumed too, are replayed. The steps must end with the answers one job sees.
    use std::sync::atomic::AtomicUsize;
    static RUNNING: AtomicUsize = AtomicUsize::new(0);
    static MOST: AtomicUsize = AtomicUsize::new(0);
    fn oracle(c: &[u8]) -> bool {
        let now = RUNNING.fetch_add(1, Ordering::SeqCst) + 1;
        MOST.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(Duration::from_millis(40));
        RUNNING.fetch_sub(1, Ordering::SeqCst);
        c.starts_with(b"yes")
    }
    let names = [
        "yes1", "yes2", "yes3", "yes4", "yes5", "yes6", "yes7", "no1", "yes8", "yes9", "yes10",
        "yes11", "yes12", "no2", "yes13",
    ];
    let run = |jobs: usize| steps_over(&names, oracle, jobs);
    let (one, _) = run(1);
    assert_eq!(MOST.load(Ordering::SeqCst), 1);
    let (three, stats) = run(3);
    assert_eq!(three, one);
    assert!(stats.assumed >= 4, "{stats:?}");
    assert!(stats.replays >= 1, "{stats:?}");
    assert!(
        MOST.load(Ordering::SeqCst) >= 2,
        "the runs of successive steps overlap"
    );
}

/// An edit that failed before a rename is recalled after it: `int b = counter;` removed from
/// a text, then from the same text with `counter` renamed `c`, costs one oracle run, not two,
/// once the judge knows of the rename; without it, the second is another edit.
#[test]
fn a_failed_edit_is_recalled_after_a_rename() {
    let before = b"int counter; int b = counter; f(counter, b);".as_slice();
    let after = b"int c; int b = c; f(c, b);".as_slice();
    for told in [true, false] {
        let (judge, oracle) = judge_with(|_| false, JudgeOptions::default());
        judge.recall_failed_edits(Some(0));
        assert!(!judge.test_from(Some(before), b"int counter; f(counter, b);"));
        if told {
            judge.note_renames(before, after);
        }
        assert!(!judge.test_from(Some(after), b"int c; f(c, b);"));
        assert_eq!(oracle.runs(), if told { 1 } else { 2 }, "told: {told}");
        assert_eq!(judge.stats().recalled, u64::from(told));
    }
}
