//! Unit tests of ddmin: closure oracles over plain lists.

use std::collections::HashSet;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::AtomicUsize;
use std::sync::Mutex;

use super::*;

/// Runs ddmin on `units`, recording every configuration tested.
fn run(
    units: &[u32],
    interesting: impl Fn(&[u32]) -> bool + Sync,
    opts: &DdminOptions,
) -> (Vec<u32>, Vec<Vec<u32>>) {
    let log = Mutex::new(Vec::new());
    let test = |c: &[u32]| {
        log.lock().unwrap().push(c.to_vec());
        interesting(c)
    };
    let out = ddmin(units, &test, opts);
    (out, log.into_inner().unwrap())
}

#[derive(Clone, Copy, Debug)]
enum Mode {
    SubsetsFirst,
    ComplementsFirst,
    ComplementsOnly,
}

fn options(mode: Mode, nu: usize, jobs: usize, greeddy: bool) -> DdminOptions {
    DdminOptions {
        split_factor: nu,
        subsets: !matches!(mode, Mode::ComplementsOnly),
        complements_first: matches!(mode, Mode::ComplementsFirst),
        jobs,
        greeddy,
        ..DdminOptions::default()
    }
}

/// Every combination of the knobs.
fn variants() -> Vec<DdminOptions> {
    let mut out = Vec::new();
    for mode in [
        Mode::SubsetsFirst,
        Mode::ComplementsFirst,
        Mode::ComplementsOnly,
    ] {
        for nu in [2, 3, 8, usize::MAX] {
            for jobs in [1, 4] {
                for greeddy in [false, true] {
                    for order in [ComplementOrder::Forward, ComplementOrder::Backward] {
                        for fixpoint in [false, true] {
                            let mut o = options(mode, nu, jobs, greeddy);
                            o.complement_order = order;
                            o.fixpoint = fixpoint;
                            out.push(o);
                        }
                    }
                }
            }
        }
    }
    out
}

fn has(c: &[u32], x: u32) -> bool {
    c.contains(&x)
}

// The mock-SUT examples of Practical improvements' Table 1.
fn example_a(c: &[u32]) -> bool {
    has(c, 5) && has(c, 8) && (has(c, 2) || !has(c, 7))
}
fn example_b(c: &[u32]) -> bool {
    (1..=8).all(|x| has(c, x))
}
fn example_c(c: &[u32]) -> bool {
    [1, 2, 3, 4, 6, 8].iter().all(|&x| has(c, x)) && !(has(c, 5) && has(c, 7))
}
fn example_d(c: &[u32]) -> bool {
    (0..50).all(|x| has(c, 2 * x))
}

#[track_caller]
fn check_example(units: &[u32], interesting: fn(&[u32]) -> bool, expect: &[u32]) {
    for opts in variants() {
        let (out, log) = run(units, interesting, &opts);
        assert_eq!(out, expect, "{opts:?}");
        let distinct: HashSet<&Vec<u32>> = log.iter().collect();
        assert_eq!(
            distinct.len(),
            log.len(),
            "a configuration was tested twice: {opts:?}"
        );
        assert!(
            log.iter().all(|c| !c.is_empty()),
            "tested the empty configuration"
        );
    }
}

#[test]
fn example_a_every_variant() {
    check_example(&(1..=8).collect::<Vec<_>>(), example_a, &[5, 8]);
}

#[test]
fn example_b_every_variant() {
    check_example(
        &(1..=8).collect::<Vec<_>>(),
        example_b,
        &[1, 2, 3, 4, 5, 6, 7, 8],
    );
}

#[test]
fn example_c_every_variant() {
    check_example(&(1..=8).collect::<Vec<_>>(), example_c, &[1, 2, 3, 4, 6, 8]);
}

#[test]
fn example_d_every_variant() {
    let evens: Vec<u32> = (0..50).map(|x| 2 * x).collect();
    check_example(&(0..100).collect::<Vec<_>>(), example_d, &evens);
}

#[test]
fn classic_ddmin_steps_on_example_a() {
    // ddmin (nu = 2, subsets first, complements forward): every test, in order.
    let (out, log) = run(
        &(1..=8).collect::<Vec<_>>(),
        example_a,
        &DdminOptions::default(),
    );
    assert_eq!(out, [5, 8]);
    let expect: &[&[u32]] = &[
        // n = 2: the subsets (the complements are the same configurations)
        &[1, 2, 3, 4],
        &[5, 6, 7, 8],
        // n = 4: subsets, then complements: removing [3, 4] is interesting
        &[1, 2],
        &[3, 4],
        &[5, 6],
        &[7, 8],
        &[3, 4, 5, 6, 7, 8],
        &[1, 2, 5, 6, 7, 8],
        // n = 3 ([1, 2] [5, 6] [7, 8]): subsets known; complements start after [3, 4];
        // removing [1, 2] gives [5, 6, 7, 8], known from n = 2
        &[1, 2, 7, 8],
        &[1, 2, 5, 6],
        // n = 6
        &[1],
        &[2],
        &[5],
        &[6],
        &[7],
        &[8],
    ];
    assert_eq!(&log[..expect.len()], expect);
    assert_eq!(log.len(), 22);
}

type Oracle = Box<dyn Fn(&[u32]) -> bool + Sync>;
type Example<'a> = (&'a [u32], fn(&[u32]) -> bool, [usize; 3]);

#[test]
fn test_counts_of_002_table_3a() {
    // Evaluated tests (cache hits excluded) of the paper's sequential ddmin, nu = 2.
    let eight: Vec<u32> = (1..=8).collect();
    let hundred: Vec<u32> = (0..100).collect();
    let table: [Example; 4] = [
        (&eight, example_a, [22, 17, 14]),
        (&eight, example_b, [26, 26, 14]),
        (&eight, example_c, [30, 28, 18]),
        (&hundred, example_d, [472, 422, 276]),
    ];
    for (units, interesting, expect) in table {
        let modes = [
            Mode::SubsetsFirst,
            Mode::ComplementsFirst,
            Mode::ComplementsOnly,
        ];
        let got = modes.map(|mode| run(units, interesting, &options(mode, 2, 1, false)).1.len());
        assert_eq!(got, expect, "{:?}", &units[..3]);
    }
}

#[test]
fn complements_backward_test_the_last_subset_first() {
    let opts = DdminOptions {
        subsets: false,
        complement_order: ComplementOrder::Backward,
        split_factor: usize::MAX,
        ..DdminOptions::default()
    };
    let (_, log) = run(&[1, 2, 3, 4], |c| has(c, 1), &opts);
    assert_eq!(log[0], vec![1, 2, 3]);
}

#[test]
fn onemin_tests_only_single_removals() {
    // nu = |c| without subsets is onemin: every test removes exactly one unit.
    let opts = DdminOptions {
        subsets: false,
        split_factor: usize::MAX,
        ..Default::default()
    };
    let units: Vec<u32> = (0..10).collect();
    let mut size = units.len();
    let (out, log) = run(&units, |c| has(c, 3) && has(c, 7), &opts);
    assert_eq!(out, [3, 7]);
    for c in &log {
        assert!(
            c.len() + 1 == size || c.len() == size,
            "{c:?} after size {size}"
        );
        if example_like(c) {
            size = c.len();
        }
    }
    fn example_like(c: &[u32]) -> bool {
        has(c, 3) && has(c, 7)
    }
}

#[test]
fn split_factor_sets_the_first_granularity() {
    let opts = DdminOptions {
        split_factor: 4,
        ..Default::default()
    };
    let (_, log) = run(
        &(0..8).collect::<Vec<_>>(),
        |c| has(c, 0) && has(c, 7),
        &opts,
    );
    assert_eq!(&log[..4], &[vec![0, 1], vec![2, 3], vec![4, 5], vec![6, 7]]);
    // ... and the growth factor: after 4 subsets and 4 complements (all interesting
    // complements are taken one by one), never 2 parts.
    assert_eq!(log[4], vec![2, 3, 4, 5, 6, 7]);
}

#[test]
fn split_is_zellers() {
    assert_eq!(split(10, 4), [0, 2, 4, 7, 10]);
    assert_eq!(split(100, 64)[..4], [0, 1, 2, 3]);
    assert_eq!(split(3, 8), [0, 1, 2, 3]);
    assert_eq!(split(5, usize::MAX), [0, 1, 2, 3, 4, 5]);
    assert_eq!(split(0, 2), [0, 0]);
}

#[test]
fn tiny_inputs() {
    let (out, log) = run(&[], |_| true, &DdminOptions::default());
    assert!(out.is_empty() && log.is_empty());
    let (out, log) = run(&[7], |_| true, &DdminOptions::default());
    assert_eq!((out, log.len()), (vec![7], 0));
}

#[test]
fn greeddy_combines_interesting_complements_of_a_window() {
    // Only unit 0 matters; with n = 8 the first window (|T| = 4) removes 0..3 one at a
    // time: removing 1, 2 and 3 is interesting, so GreeDDy tries removing all three.
    let opts = DdminOptions {
        subsets: false,
        split_factor: 8,
        greeddy: true,
        ..Default::default()
    };
    let (out, log) = run(&(0..8).collect::<Vec<_>>(), |c| has(c, 0), &opts);
    assert_eq!(out, [0]);
    assert_eq!(
        &log[..5],
        &[
            vec![1, 2, 3, 4, 5, 6, 7],
            vec![0, 2, 3, 4, 5, 6, 7],
            vec![0, 1, 3, 4, 5, 6, 7],
            vec![0, 1, 2, 4, 5, 6, 7],
            vec![0, 4, 5, 6, 7],
        ]
    );
}

#[test]
fn greeddy_combines_one_by_one_when_all_together_fails() {
    // Removing 1, 2 or 3 alone is interesting, but 1 and 2 are not removable together.
    let opts = DdminOptions {
        subsets: false,
        split_factor: 8,
        greeddy: true,
        ..Default::default()
    };
    let interesting = |c: &[u32]| has(c, 0) && (has(c, 1) || has(c, 2));
    let (_, log) = run(&(0..8).collect::<Vec<_>>(), interesting, &opts);
    assert_eq!(log[4], vec![0, 4, 5, 6, 7]); // all three together: no
    assert_eq!(log[5], vec![0, 3, 4, 5, 6, 7]); // first + second: no
    assert_eq!(log[6], vec![0, 2, 4, 5, 6, 7]); // first + third: yes
}

#[test]
fn parallel_runs_tests_concurrently_and_picks_the_first_in_order() {
    // Every complement of the first round is interesting; with 4 jobs all four of a window
    // run at once, yet the first one in syntactic order is taken.
    let running = AtomicUsize::new(0);
    let peak = AtomicUsize::new(0);
    let test = |c: &[u32]| {
        let now = running.fetch_add(1, Ordering::SeqCst) + 1;
        peak.fetch_max(now, Ordering::SeqCst);
        std::thread::sleep(std::time::Duration::from_millis(20));
        running.fetch_sub(1, Ordering::SeqCst);
        c.len() >= 5
    };
    let opts = DdminOptions {
        subsets: false,
        split_factor: 8,
        jobs: 4,
        ..Default::default()
    };
    let out = ddmin(&(0..8).collect::<Vec<u32>>(), &test, &opts);
    assert_eq!(out, [3, 4, 5, 6, 7]);
    assert!(peak.load(Ordering::SeqCst) > 1, "tests never overlapped");
    let seq = ddmin(
        &(0..8).collect::<Vec<u32>>(),
        &test,
        &DdminOptions { jobs: 1, ..opts },
    );
    assert_eq!(seq, out);
}

#[test]
fn speculation_runs_ahead_into_the_next_rounds() {
    // Nothing is interesting: the first round {0,1}, {2,3} is slow, so with 4 jobs the
    // other two workers must already be testing the next round's candidates (C-Vise's
    // bet that pending candidates fail) before the first round has answered.
    let log: Mutex<Vec<(bool, usize)>> = Mutex::new(Vec::new());
    let test = |c: &[u32]| {
        log.lock().unwrap().push((true, c.len()));
        if c.len() == 2 {
            std::thread::sleep(std::time::Duration::from_millis(200));
        }
        log.lock().unwrap().push((false, c.len()));
        false
    };
    let units: Vec<u32> = (0..4).collect();
    let opts = DdminOptions {
        jobs: 4,
        ..Default::default()
    };
    assert_eq!(ddmin(&units, &test, &opts), units);
    let log = log.into_inner().unwrap();
    let first_end = log.iter().position(|&(start, _)| !start).unwrap();
    assert!(
        log[..first_end]
            .iter()
            .any(|&(start, len)| start && len != 2),
        "no second-round candidate started before the first round answered: {log:?}"
    );
    // The same candidates, each once, as with one job.
    let (_, seq) = run(&units, |_| false, &DdminOptions::default());
    assert_eq!(log.len(), 2 * seq.len());
}

#[test]
fn all_fail_sequence_is_what_ddmin_tests_when_nothing_is_interesting() {
    for opts in [
        DdminOptions::default(),
        DdminOptions {
            split_factor: 3,
            complements_first: true,
            ..Default::default()
        },
    ] {
        for len in [0, 1, 2, 5, 9] {
            let units: Vec<u32> = (0..len).collect();
            let (_, log) = run(&units, |_| false, &opts);
            let seq = all_fail_sequence(len as usize, &opts, usize::MAX);
            let seq: Vec<Vec<u32>> = seq
                .into_iter()
                .map(|c| c.into_iter().map(|i| i as u32).collect())
                .collect();
            assert_eq!(seq, log, "len {len}");
            assert_eq!(
                all_fail_sequence(len as usize, &opts, 2).len(),
                log.len().min(2)
            );
        }
    }
}

#[test]
fn stop_flag_ends_ddmin_at_once() {
    let stop = Arc::new(AtomicBool::new(false));
    let calls = AtomicUsize::new(0);
    let test = |c: &[u32]| {
        if calls.fetch_add(1, Ordering::SeqCst) == 2 {
            stop.store(true, Ordering::SeqCst);
        }
        has(c, 0) && has(c, 999)
    };
    let opts = DdminOptions {
        stop: Some(Arc::clone(&stop)),
        fixpoint: true,
        ..Default::default()
    };
    let units: Vec<u32> = (0..1000).collect();
    let out = ddmin(&units, &test, &opts);
    assert_eq!(out, units);
    assert_eq!(calls.load(Ordering::SeqCst), 3);
}

#[test]
fn known_outcomes_are_dropped_once_they_cannot_be_asked() {
    let mut known = Known::default();
    known.insert(1, 5, false);
    known.insert(2, 3, true);
    known.insert(3, 4, false);
    known.shrunk_to(4);
    assert_eq!(
        (known.get(1), known.get(2), known.get(3)),
        (None, Some(true), None)
    );
}

#[test]
fn fingerprints_are_set_hashes() {
    let units: Vec<u128> = (0..10).map(unit_print).collect();
    let config: Vec<usize> = (0..10).collect();
    let parts = Parts::new(&config, &[0, 3, 5, 10], &units);
    let sum = |idx: &[usize]| idx.iter().fold(0u128, |h, &i| h.wrapping_add(units[i]));
    assert_eq!(parts.print_without(&[1]), sum(&[0, 1, 2, 5, 6, 7, 8, 9]));
    assert_eq!(parts.print_without(&[0, 2]), parts.prints[1]);
    assert_eq!(parts.without(&[0, 2]), [3, 4]);
    assert_eq!(parts.size_without(&[0, 2]), 2);
    let distinct: HashSet<u128> = units.iter().copied().collect();
    assert_eq!(distinct.len(), 10);
}

/// splitmix64: a small deterministic PRNG for the property tests.
struct Rng(u64);
impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    /// A random non-empty subset of 0..n.
    fn subset(&mut self, n: u32, per_mille: u64) -> Vec<u32> {
        let mut s: Vec<u32> = (0..n).filter(|_| self.below(1000) < per_mille).collect();
        if s.is_empty() {
            s.push(self.below(u64::from(n)) as u32);
        }
        s
    }
}

/// A random oracle over 0..n with test(0..n) = interesting and test(empty) = not.
fn random_oracle(rng: &mut Rng, n: u32) -> Oracle {
    let density = 1 + rng.below(300);
    match rng.below(3) {
        0 => {
            let need = rng.subset(n, density);
            Box::new(move |c| need.iter().all(|x| c.contains(x)))
        }
        1 => {
            let alternatives: Vec<Vec<u32>> = (0..1 + rng.below(4))
                .map(|_| rng.subset(n, density))
                .collect();
            Box::new(move |c| alternatives.iter().any(|a| a.iter().all(|x| c.contains(x))))
        }
        _ => {
            let need = rng.subset(n, density);
            let seed = rng.next();
            Box::new(move |c| {
                let mut h = DefaultHasher::new();
                (seed, c).hash(&mut h);
                need.iter().all(|x| c.contains(x)) && (c.len() == n as usize || h.finish() % 3 != 0)
            })
        }
    }
}

#[test]
fn property_one_minimal_bounded_and_independent_of_jobs() {
    let mut rng = Rng(2016);
    for case in 0..400 {
        let n = 1 + rng.below(40) as u32;
        let units: Vec<u32> = (0..n).collect();
        let oracle = random_oracle(&mut rng, n);
        let mode = [
            Mode::SubsetsFirst,
            Mode::ComplementsFirst,
            Mode::ComplementsOnly,
        ][rng.below(3) as usize];
        let nu = [2, 2, 3, 4, 8, usize::MAX][rng.below(6) as usize];
        let mut opts = options(mode, nu, 1, rng.below(2) == 0);
        opts.fixpoint = rng.below(2) == 0;
        if rng.below(2) == 0 {
            opts.complement_order = ComplementOrder::Backward;
        }
        let (out, log) = run(&units, &oracle, &opts);
        assert!(oracle(&out), "case {case}: result not interesting");
        for i in 0..out.len() {
            let mut smaller = out.clone();
            smaller.remove(i);
            assert!(
                !oracle(&smaller),
                "case {case}: {out:?} is not 1-minimal ({opts:?})"
            );
        }
        let distinct: HashSet<&Vec<u32>> = log.iter().collect();
        assert_eq!(
            distinct.len(),
            log.len(),
            "case {case}: repeated test {opts:?} {log:?}"
        );
        let (par, _) = run(
            &units,
            &oracle,
            &DdminOptions {
                jobs: 4,
                ..opts.clone()
            },
        );
        assert_eq!(
            par, out,
            "case {case}: jobs 4 differs from jobs 1 ({opts:?})"
        );

        // The worst-case bound |c|^2 + 3|c| of ddmin (nu = 2).
        let (_, log) = run(&units, &oracle, &DdminOptions::default());
        let n = n as usize;
        assert!(
            log.len() <= n * n + 3 * n,
            "case {case}: {} tests for |c| = {n}",
            log.len()
        );
    }
}

#[test]
fn worst_case_bound_holds_for_the_classic_worst_case() {
    // Only the last unit matters and removing the last complement is the only progress:
    // the shape of the papers' worst case.
    for n in [2u32, 5, 16, 33] {
        let units: Vec<u32> = (0..n).collect();
        let (out, log) = run(&units, |c| has(c, n - 1) && has(c, 0), &Default::default());
        assert_eq!(out, [0, n - 1]);
        let n = n as usize;
        assert!(log.len() <= n * n + 3 * n);
    }
}

#[test]
fn after_win_is_what_ddmin_tests_after_that_win() {
    let len = 16;
    let config: Vec<usize> = (0..len).collect();
    let bounds = split(len, 2);
    for (mode, kind) in [
        (Mode::ComplementsOnly, Kind::Complement(0)),
        (Mode::ComplementsOnly, Kind::Complement(1)),
        (Mode::SubsetsFirst, Kind::Subset(1)),
        (Mode::ComplementsFirst, Kind::Complement(1)),
    ] {
        for fixpoint in [false, true] {
            let opts = DdminOptions {
                fixpoint,
                ..options(mode, 2, 1, false)
            };
            let winner = match kind {
                Kind::Subset(k) => config[bounds[k]..bounds[k + 1]].to_vec(),
                Kind::Complement(k) => Parts::new(&config, &bounds, &[0; 16]).without(&[k]),
            };
            // ddmin where the winner is the only interesting configuration.
            let log = Mutex::new(Vec::new());
            let test = |c: &[usize]| {
                log.lock().unwrap().push(c.to_vec());
                c == winner.as_slice()
            };
            let result = ddmin_indices(len, &test, &opts);
            let log = log.into_inner().unwrap();
            let won = log.iter().position(|c| *c == winner).expect("tested");
            let never = |_: &[usize]| false;
            let prints: Vec<u128> = (0..len).map(unit_print).collect();
            let run = Run {
                test: &never,
                opts: &opts,
                nu: 2,
                pool: None,
                known: Known::default(),
                unit_prints: &prints,
                ahead: None,
                changed: false,
            };
            let what = format!("{mode:?} {kind:?} fixpoint {fixpoint}");
            let (next, end) = run.after_win(&config, &bounds, kind, 1000);
            assert_eq!(next, log[won + 1..], "{what}");
            assert_eq!(end, Some(result), "{what}");
            let (cut, end) = run.after_win(&config, &bounds, kind, 3);
            assert_eq!(cut, log[won + 1..won + 4], "{what}");
            assert_eq!(end, None, "{what}: cut before ddmin's end");
        }
    }
}

/// Records what ddmin hands to [`Ahead::rest`].
#[derive(Default)]
struct Rests(Mutex<Vec<Vec<usize>>>);

impl Ahead for Rests {
    fn win_after(&self) -> Option<std::time::Duration> {
        None
    }

    fn branch(&self, _: &[usize], _: Vec<Vec<usize>>, _: Option<&[usize]>) {}

    fn rest(&self, result: &[usize]) {
        self.0.lock().unwrap().push(result.to_vec());
    }
}

#[test]
fn once_it_has_changed_ddmin_announces_what_follows_its_end() {
    // Interesting: keeps 1 and 6. After its wins, ddmin's plan reaches its end (every unit
    // alone) with the configuration it will return if all of it fails: the caller's next
    // tests depend on that configuration, and the announcements made before ddmin began
    // assumed it would not change.
    let opts = DdminOptions {
        jobs: 2,
        ..Default::default()
    };
    let rests = Rests::default();
    let test = |c: &[usize]| c.contains(&1) && c.contains(&6);
    let kept = ddmin_indices_ahead(8, &test, &opts, Some(&rests));
    assert_eq!(kept, [1, 6]);
    let rests = rests.0.into_inner().unwrap();
    assert_eq!(
        rests.last().map(Vec::as_slice),
        Some(&[1, 6][..]),
        "{rests:?}"
    );
    // Nothing interesting: the announcements from before ddmin stay true.
    let rests = Rests::default();
    let kept = ddmin_indices_ahead(8, &|_: &[usize]| false, &opts, Some(&rests));
    assert_eq!(kept.len(), 8);
    assert!(rests.0.into_inner().unwrap().is_empty());
}
