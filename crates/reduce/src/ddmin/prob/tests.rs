//! The probabilistic minimizers on the scenarios of the reference implementation's golden
//! traces (Perses' list-minimizer traces for ProbDD and CDD, and its WProbDD unit test), with
//! the same initial probability (0.25). The traces here leave out the tests of the empty list,
//! which treedd never runs (see the module docs); a configuration that failed before is not
//! run again either ([`check`] drops the reference's repeats).

use std::sync::Mutex;

use super::super::{ddmin_indices_ahead, DdminOptions, Minimizer};
use super::*;

/// The tests a minimizer runs on `input` (each as "INTERESTING a e" or "UNINTERESTING b"),
/// and its result.
fn trace(
    minimizer: Minimizer,
    input: &[&str],
    weights: Option<&[u64]>,
    interesting: &(dyn Fn(&[&str]) -> bool + Sync),
    jobs: usize,
) -> (Vec<String>, Vec<String>) {
    let log = Mutex::new(Vec::new());
    let test = |kept: &[usize]| {
        let c: Vec<&str> = kept.iter().map(|&i| input[i]).collect();
        let yes = interesting(&c);
        let verdict = if yes { "INTERESTING" } else { "UNINTERESTING" };
        log.lock()
            .unwrap()
            .push(format!("{verdict} {}", c.join(" ")));
        yes
    };
    let opts = DdminOptions {
        minimizer,
        initial_probability: 0.25,
        jobs,
        ..DdminOptions::default()
    };
    let kept = ddmin_indices_ahead(input.len(), weights, &test, &opts, None);
    let result = kept.iter().map(|&i| input[i].to_string()).collect();
    (log.into_inner().unwrap(), result)
}

fn containing(required: &'static [&'static str]) -> impl Fn(&[&str]) -> bool + Sync {
    move |c: &[&str]| required.iter().all(|r| c.contains(r))
}

/// The digits are exactly 1..k, and x is there: digit k goes only once k+1 has gone.
fn causal_chain(c: &[&str]) -> bool {
    let digits: Vec<u32> = c
        .iter()
        .filter(|&&s| s != "x")
        .map(|s| s.parse().unwrap())
        .collect();
    c.contains(&"x") && digits == (1..=digits.len() as u32).collect::<Vec<_>>()
}

const AE5: [&str; 5] = ["a", "b", "c", "d", "e"];
const A7: [&str; 7] = ["a", "b", "c", "d", "e", "f", "g"];
const H8: [&str; 8] = ["a", "b", "c", "d", "e", "f", "g", "h"];
const P16: [&str; 16] = [
    "a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k", "l", "m", "n", "o", "p",
];
const W5: [&str; 5] = ["1", "2", "3", "5", "10"];
const W5_WEIGHTS: [u64; 5] = [1, 2, 3, 5, 10];
const CHAIN: [&str; 5] = ["x", "1", "2", "3", "4"];

#[track_caller]
fn check(
    minimizer: Minimizer,
    input: &[&str],
    weights: Option<&[u64]>,
    interesting: &(dyn Fn(&[&str]) -> bool + Sync),
    expected: &[&str],
    result: &str,
) {
    let mut seen = std::collections::HashSet::new();
    let expected: Vec<&str> = expected
        .iter()
        .copied()
        .filter(|t| seen.insert(*t))
        .collect();
    for jobs in [1, 3] {
        let (tests, out) = trace(minimizer, input, weights, interesting, jobs);
        if jobs == 1 {
            assert_eq!(tests, expected, "{minimizer:?} on {input:?}");
        }
        assert_eq!(
            out.join(" "),
            result,
            "{minimizer:?} on {input:?}, jobs {jobs}"
        );
    }
}

#[test]
fn probdd_follows_the_reference_traces() {
    let m = Minimizer::ProbDD;
    check(
        m,
        &AE5,
        None,
        &containing(&["a", "e"]),
        &[
            "UNINTERESTING e",
            "UNINTERESTING b c d",
            "INTERESTING a d e",
            "UNINTERESTING a",
            "INTERESTING a e",
            "UNINTERESTING e",
            "UNINTERESTING a",
        ],
        "a e",
    );
    check(
        m,
        &A7,
        None,
        &containing(&["a"]),
        &[
            "UNINTERESTING e f g",
            "INTERESTING a b c d",
            "UNINTERESTING c d",
            "INTERESTING a b",
            "UNINTERESTING b",
            "INTERESTING a",
        ],
        "a",
    );
    check(
        m,
        &H8,
        None,
        &containing(&["a", "e"]),
        &[
            "UNINTERESTING e f g h",
            "UNINTERESTING a b c d",
            "UNINTERESTING c d e f g h",
            "INTERESTING a b e f g h",
            "UNINTERESTING a b g h",
            "INTERESTING a b e f",
            "UNINTERESTING b e f",
            "INTERESTING a e f",
            "UNINTERESTING a f",
            "INTERESTING a e",
        ],
        "a e",
    );
    check(
        m,
        &H8,
        None,
        &containing(&["a", "c", "e", "f"]),
        &[
            "UNINTERESTING e f g h",
            "UNINTERESTING a b c d",
            "UNINTERESTING c d e f g h",
            "UNINTERESTING a b e f g h",
            "UNINTERESTING a b c d g h",
            "INTERESTING a b c d e f",
            "UNINTERESTING b c d e f",
            "INTERESTING a c d e f",
            "UNINTERESTING a d e f",
            "INTERESTING a c e f",
            "UNINTERESTING a c f",
            "UNINTERESTING a c e",
        ],
        "a c e f",
    );
    check(
        m,
        &P16,
        None,
        &containing(&["c", "l"]),
        &[
            "UNINTERESTING e f g h i j k l m n o p",
            "INTERESTING a b c d i j k l m n o p",
            "UNINTERESTING a b c d m n o p",
            "INTERESTING a b c d i j k l",
            "INTERESTING c d i j k l",
            "UNINTERESTING i j k l",
            "INTERESTING c d k l",
            "UNINTERESTING c d",
            "UNINTERESTING d k l",
            "INTERESTING c k l",
            "INTERESTING c l",
            "UNINTERESTING c",
        ],
        "c l",
    );
    // ProbDD reads no weights: the same trace with or without them.
    for weights in [None, Some(&W5_WEIGHTS[..])] {
        check(
            m,
            &W5,
            weights,
            &containing(&["1", "5", "10"]),
            &[
                "UNINTERESTING 10",
                "UNINTERESTING 2 3 5",
                "INTERESTING 1 5 10",
                "UNINTERESTING 1",
                "UNINTERESTING 1 10",
                "UNINTERESTING 5 10",
                "UNINTERESTING 1 5",
            ],
            "1 5 10",
        );
    }
    check(
        m,
        &CHAIN,
        None,
        &causal_chain,
        &[
            "UNINTERESTING 4",
            "UNINTERESTING 1 2 3",
            "UNINTERESTING x 3 4",
            "INTERESTING x 1 2",
            "UNINTERESTING x 2",
            "INTERESTING x 1",
            "UNINTERESTING 1",
        ],
        "x 1",
    );
}

#[test]
fn cdd_follows_the_reference_traces() {
    let m = Minimizer::Cdd;
    check(
        m,
        &AE5,
        None,
        &containing(&["a", "e"]),
        &[
            "UNINTERESTING e",
            "UNINTERESTING d",
            "UNINTERESTING a b c",
            "UNINTERESTING b c d e",
            "INTERESTING a c d e",
            "INTERESTING a d e",
            "INTERESTING a e",
            "UNINTERESTING a",
        ],
        "a e",
    );
    // The reference tests the empty list a second time at the end (its seventh test); treedd
    // counts deleting everything as failed without a run.
    check(
        m,
        &A7,
        None,
        &containing(&["a"]),
        &[
            "UNINTERESTING e f g",
            "UNINTERESTING b c d",
            "INTERESTING a d e f g",
            "INTERESTING a f g",
            "INTERESTING a",
        ],
        "a",
    );
    check(
        m,
        &H8,
        None,
        &containing(&["c", "d", "h"]),
        &[
            "UNINTERESTING e f g h",
            "UNINTERESTING a b c d",
            "INTERESTING c d e f g h",
            "UNINTERESTING e f g h",
            "INTERESTING c d g h",
            "UNINTERESTING c d",
            "UNINTERESTING d g h",
            "UNINTERESTING c g h",
            "INTERESTING c d h",
            "UNINTERESTING c d",
        ],
        "c d h",
    );
    check(
        m,
        &W5,
        Some(&W5_WEIGHTS),
        &containing(&["2", "5", "10"]),
        &[
            "UNINTERESTING 10",
            "UNINTERESTING 5",
            "UNINTERESTING 1 2 3",
            "INTERESTING 2 3 5 10",
            "UNINTERESTING 3 5 10",
            "INTERESTING 2 5 10",
            "UNINTERESTING 2 10",
            "UNINTERESTING 2 5",
        ],
        "2 5 10",
    );
    check(
        m,
        &CHAIN,
        None,
        &causal_chain,
        &[
            "UNINTERESTING 4",
            "UNINTERESTING 3",
            "INTERESTING x 1 2",
            "UNINTERESTING 1 2",
            "UNINTERESTING x 2",
            "INTERESTING x 1",
        ],
        "x 1",
    );
}

#[test]
fn wprobdd_follows_the_reference_test() {
    // Perses' WProbDD unit test (termination threshold 1: only a failed lone deletion keeps
    // an element for good): weights 1, 2, 3, 5, 10, needed 1, 5 and 10.
    let interesting = containing(&["1", "5", "10"]);
    let log = Mutex::new(Vec::new());
    let test = |kept: &[usize]| {
        let c: Vec<&str> = kept.iter().map(|&i| W5[i]).collect();
        log.lock().unwrap().push(c.concat());
        interesting(&c)
    };
    let opts = DdminOptions {
        minimizer: Minimizer::WProbDD,
        initial_probability: 0.25,
        ..DdminOptions::default()
    };
    let mut state = State::new(5, Some(&W5_WEIGHTS), &opts);
    state.threshold = 1.0;
    while let Some(deletion) = state.next_deletion() {
        let rest = state.without(&deletion);
        if !rest.is_empty() && test(&rest) {
            state.succeed(&deletion);
        } else {
            state.fail(&deletion);
        }
    }
    let kept: Vec<&str> = state.config.iter().map(|&i| W5[i]).collect();
    assert_eq!(kept, ["1", "5", "10"]);
    assert_eq!(
        log.into_inner().unwrap(),
        ["123", "1235", "1210", "1510", "110", "510"]
    );
}

#[test]
fn every_minimizer_finds_the_needed_elements_for_any_jobs() {
    let interesting = containing(&["c", "l"]);
    for m in Minimizer::ALL {
        let weights: Vec<u64> = (1..=16).collect();
        for jobs in [1, 2, 5] {
            let (_, out) = trace(m, &P16, Some(&weights), &interesting, jobs);
            assert_eq!(out, ["c", "l"], "{m:?} jobs {jobs}");
        }
    }
}

#[test]
fn the_all_fail_sequence_is_what_a_failing_run_tests() {
    for m in [
        Minimizer::ProbDD,
        Minimizer::WProbDD,
        Minimizer::Cdd,
        Minimizer::WCdd,
    ] {
        let (tests, _) = trace(m, &P16, Some(&[3; 16]), &|_: &[&str]| false, 1);
        let opts = DdminOptions {
            minimizer: m,
            initial_probability: 0.25,
            ..DdminOptions::default()
        };
        let seq = all_fail_sequence(16, Some(&[3; 16]), &opts, usize::MAX);
        let seq: Vec<String> = seq
            .iter()
            .map(|c| {
                let c: Vec<&str> = c.iter().map(|&i| P16[i]).collect();
                format!("UNINTERESTING {}", c.join(" "))
            })
            .collect();
        assert_eq!(seq, tests, "{m:?}");
        assert_eq!(all_fail_sequence(16, None, &opts, 3).len(), 3);
    }
}

#[test]
fn heavier_elements_go_first_in_the_weighted_minimizers() {
    // One heavy element among light ones: WProbDD tries to delete it first, ProbDD takes
    // the list in order.
    let weights = [1, 1, 1, 1, 1, 1, 1, 50];
    let opts = |minimizer| DdminOptions {
        minimizer,
        ..DdminOptions::default()
    };
    let first = |m| all_fail_sequence(8, Some(&weights), &opts(m), 1).remove(0);
    assert_eq!(first(Minimizer::WProbDD), [0, 1, 2, 3, 4, 5, 6]);
    assert_eq!(first(Minimizer::WCdd), [0, 1, 2, 3, 4, 5, 6]);
    assert!(first(Minimizer::ProbDD).contains(&7));
}
