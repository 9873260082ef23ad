//! Every ddmin variant of the papers and the tree algorithms' options are reachable from the
//! command line, change what they should, and are recorded in `--stats`. Oracle-run counts
//! are compared with `--jobs 1` (parallel windows may test more); the counts asserted exactly
//! are Practical improvements' Table 3(a)'s (plus the check of the original).

use expect_test::expect;

use crate::text::EXAMPLE_A;
use crate::util::{is_interesting, numbers, Dir};

/// Reduce Example A (lines 1..=8) by lines with `extra` flags: the output and the stats.
fn example_a(extra: &[&str]) -> (String, serde_json::Value) {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    let mut args = vec![
        "--test",
        "oracle.sh",
        "--unit",
        "line",
        "-q",
        "--stats",
        "s.json",
    ];
    args.extend_from_slice(extra);
    args.push("input.txt");
    d.run(&args).expect_code(0);
    let stats = d.stats("s.json");
    (d.read_string("input.reduced.txt"), stats)
}

fn runs(stats: &serde_json::Value) -> u64 {
    stats["oracle_runs"].as_u64().unwrap()
}

#[test]
fn variants_of_table_3a_keep_the_answer_at_the_papers_cost() {
    // 22 tests subsets first, 17 complements first, 14 complements only (+1: the original).
    for (extra, expect) in [
        (&[][..], 23),
        (&["--complements-first"], 18),
        (&["--no-subsets"], 15),
    ] {
        let mut args = vec!["-j", "1"];
        args.extend_from_slice(extra);
        let (out, s) = example_a(&args);
        assert_eq!(out, "5\n8\n", "{extra:?}");
        assert_eq!(runs(&s), expect, "{extra:?}: {s}");
        assert_eq!(s["subsets"], extra != ["--no-subsets"]);
        assert_eq!(s["complements_first"], extra == ["--complements-first"]);
    }
}

#[test]
fn split_factor_max_is_onemin() {
    let (_, default) = example_a(&["-j", "1"]);
    for extra in [
        &["--split-factor", "max"][..],
        &["--split-factor", "max", "--no-subsets"],
    ] {
        let mut args = vec!["-j", "1"];
        args.extend_from_slice(extra);
        let (out, s) = example_a(&args);
        assert_eq!(out, "5\n8\n", "{extra:?}");
        assert_eq!(s["split_factor"], "max");
        // Every element on its own from the start: other tests than ddmin^2's.
        assert_ne!(runs(&s), runs(&default), "{extra:?}");
    }
    assert_eq!(default["split_factor"], 2);
}

#[test]
fn greeddy_keeps_the_answer_and_tests_whole_windows() {
    let (_, default) = example_a(&["-j", "1"]);
    let (out1, s1) = example_a(&["--greeddy", "-j", "1"]);
    let (out2, s2) = example_a(&["--greeddy", "-j", "2"]);
    assert_eq!((out1.as_str(), out2.as_str()), ("5\n8\n", "5\n8\n"));
    assert_eq!(s1["greeddy"], true);
    assert_eq!(default["greeddy"], false);
    // Its window (4 tests) does not depend on --jobs, so neither does its cost; sequential
    // ddmin stops a round at the first interesting test, GreeDDy tests the whole window.
    assert_eq!(runs(&s1), runs(&s2));
    assert_ne!(runs(&s1), runs(&default));
}

#[test]
fn complement_order_decides_between_answers() {
    // Complements only, halves first: forward removes the first half (keeping 17),
    // backward the second half (keeping 7).
    let d = Dir::text_case(numbers(0..20), r#"grep -q 7 "$1""#);
    for (order, expect) in [("forward", "17\n"), ("backward", "7\n")] {
        d.reduce(&[
            "--unit",
            "line",
            "--no-subsets",
            "--complement-order",
            order,
            "-q",
            "--stats",
            "s.json",
        ])
        .expect_code(0);
        assert_eq!(d.read_string("input.reduced.txt"), expect, "{order}");
        let s: serde_json::Value = d.stats("s.json");
        assert_eq!(s["complement_order"], order);
    }
}

#[test]
fn no_complements_only_reduces_to_subsets() {
    // No subset of a split holds {5, 8} without 7: Example A cannot shrink at all.
    let (out, s) = example_a(&["--no-complements"]);
    assert_eq!(out, numbers(1..9));
    assert_eq!(s["complements"], false);
    assert_eq!(s["subsets"], true);
}

#[test]
fn no_subsets_and_no_complements_conflict() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    let run = d.reduce(&["--no-subsets", "--no-complements"]);
    run.expect_code(7).expect_message(
        &d,
        &expect![[r#"
        treedd: error: --no-subsets and --no-complements together leave ddmin nothing to test
    "#]],
    );
    assert!(!d.join("input.reduced.txt").exists());
}

#[test]
fn bad_split_factors_are_usage_errors() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    for (bad, message) in [
        (
            "1",
            expect![[r#"
            error: invalid value '1' for '--split-factor <N|max>': "1" is not a split factor: use an integer >= 2 or max

            For more information, try '--help'.
        "#]],
        ),
        (
            "0",
            expect![[r#"
            error: invalid value '0' for '--split-factor <N|max>': "0" is not a split factor: use an integer >= 2 or max

            For more information, try '--help'.
        "#]],
        ),
        (
            "many",
            expect![[r#"
            error: invalid value 'many' for '--split-factor <N|max>': "many" is not a split factor: use an integer >= 2 or max

            For more information, try '--help'.
        "#]],
        ),
    ] {
        d.reduce(&["--split-factor", bad])
            .expect_code(2)
            .expect_message(&d, &message);
    }
}

#[test]
fn ddmin_fixpoint_repeats_ddmin() {
    // Interesting: the whole input, 3..=8 and 3..=5. One ddmin stops at 3..=8 (1-minimal:
    // no single line can go); run again on it, its first split finds 3..=5.
    let d = Dir::new();
    d.write("input.txt", numbers(1..9));
    d.script(
        "oracle.sh",
        r#"case "$(tr -d '\n' < "$1")" in 12345678|345678|345) exit 0;; esac; exit 1"#,
    );
    for (extra, expect, star) in [
        (&["--unit", "line"][..], "3\n4\n5\n6\n7\n8\n", false),
        (&["--unit", "line", "--ddmin-fixpoint"], "3\n4\n5\n", true),
        // line+char is DDMIN* anyway (and then removes the newlines).
        (&[], "345", true),
    ] {
        let mut args = vec!["--test", "oracle.sh", "-q", "--stats", "s.json"];
        args.extend_from_slice(extra);
        args.push("input.txt");
        d.run(&args).expect_code(0);
        assert_eq!(d.read_string("input.reduced.txt"), expect, "{extra:?}");
        let s: serde_json::Value = d.stats("s.json");
        assert_eq!(s["ddmin_fixpoint"], star, "{extra:?}");
        // The tree algorithms' options do not apply to text.
        assert!(
            s["fixpoint"].is_null() && s["final_text_pass"].is_null(),
            "{s}"
        );
    }
}

#[test]
fn tree_options_apply_only_to_tree_algorithms() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    for (flag, message) in [
        (
            "--no-fixpoint",
            expect![[r#"
            treedd: error: --no-fixpoint applies to the tree algorithms, but text is reduced by ddmin
        "#]],
        ),
        (
            "--final-text-pass",
            expect![[r#"
            treedd: error: --final-text-pass applies to the tree algorithms, but text is reduced by ddmin
        "#]],
        ),
    ] {
        d.reduce(&[flag])
            .expect_code(7)
            .expect_message(&d, &message);
    }
}

/// Reduce the helloworld fixture with `extra` flags: the output and the stats.
fn helloworld(d: &Dir, extra: &[&str]) -> (Vec<u8>, serde_json::Value) {
    let mut args = vec!["--test", "./oracle.sh", "-q", "--stats", "s.json"];
    args.extend_from_slice(extra);
    args.push("helloworld.c");
    d.run(&args).expect_code(0);
    let out = d.read("helloworld.reduced.c");
    assert!(is_interesting(&d.join("oracle.sh"), "helloworld.c", &out));
    (out, d.stats("s.json"))
}

#[test]
fn no_fixpoint_runs_each_tree_phase_once() {
    let d = Dir::new();
    d.copy_fixture("c/helloworld");
    let (_, star) = helloworld(&d, &["-j", "1"]);
    let (_, once) = helloworld(&d, &["-j", "1", "--no-fixpoint"]);
    assert_eq!(
        (&star["fixpoint"], &once["fixpoint"]),
        (&true.into(), &false.into())
    );
    // One tree phase without the fixed point; HDD* tries again on the smaller tree (its
    // candidates there may all be known to the cache already).
    let tree_phases = |s: &serde_json::Value| {
        let rounds = s["rounds"].as_array().unwrap();
        rounds.iter().filter(|r| r["pass"] == "tree").count()
    };
    assert_eq!(tree_phases(&once), 1, "{once}");
    assert!(tree_phases(&star) > 1, "{star}");
    assert!(runs(&once) <= runs(&star), "{once}\n{star}");
}

#[test]
fn final_text_pass_removes_only_what_the_tree_cannot() {
    let d = Dir::new();
    d.copy_fixture("c/helloworld");
    // (The reduction's own bytes: no final layout step, which would lay both out alike.)
    let (tree, s0) = helloworld(&d, &["--no-format"]);
    let (text, s1) = helloworld(&d, &["--final-text-pass", "--no-format"]);
    assert_eq!(
        (&s0["final_text_pass"], &s1["final_text_pass"]),
        (&false.into(), &true.into())
    );
    // Only whitespace goes (the space inside the string stays: the output must not change).
    assert!(
        text.len() < tree.len(),
        "{}",
        String::from_utf8_lossy(&text)
    );
    assert_eq!(s1["output_chars"], s0["output_chars"]);
    let squeeze = |b: &[u8]| b.iter().filter(|c| !c.is_ascii_whitespace()).count();
    assert_eq!(squeeze(&text), squeeze(&tree));
    assert!(String::from_utf8_lossy(&text).contains("Hello world!"));
}

#[test]
fn ddmin_options_reach_the_tree_algorithms() {
    // Any three `h(` will do. Subsets first, the tree's ddmin keeps `h` and `a` (the first
    // half); complements only, its first test removes that half.
    let d = Dir::three_calls_case();
    let mut results = Vec::new();
    // (Without the reference closure: its question whether a call needs a declaration
    // removes `h`'s definition before any ddmin, and both then end alike.)
    for extra in [&[][..], &["--no-subsets"]] {
        let mut args = vec!["--test", "oracle.sh", "-q", "--stats", "s.json"];
        args.extend(["--no-reference-closure", "--no-format"]);
        // (Without `bodies`: emptying the callers' bodies first takes away the lists the
        // options act on.)
        let passes =
            "strip,literals,inline,inline-calls,rewrite,replace-ids,rename,params,subtrees,tokens";
        args.extend(["--passes", passes]);
        args.extend_from_slice(extra);
        args.push("m.c");
        d.run(&args).expect_code(0);
        let out = d.read_string("m.reduced.c");
        assert!(out.matches("h(").count() >= 3, "{out}");
        let s: serde_json::Value = d.stats("s.json");
        assert_eq!(s["subsets"], extra.is_empty());
        results.push(out);
    }
    // (The passes then leave one function around the calls: `tokens` removes what no node
    // boundary allows, and this oracle only counts calls.)
    assert_eq!(results[0], "int h() {  h() + h(); }\n");
    assert_ne!(results[0], results[1]);
}

#[test]
fn every_list_minimizer_reduces_text_and_trees_to_interesting_outputs() {
    // Example A's unique 1-minimal answer, from every list minimizer on lines (to DDMIN*'s
    // fixed point: the probabilistic ones keep for good an element whose deletion once failed,
    // and Example A's 2 is needed while 7 is there); and the helloworld fixture with its real
    // gcc oracle inside the tree algorithm.
    let d = Dir::new();
    d.copy_fixture("c/helloworld");
    for name in ["ddmin", "wddmin", "probdd", "wprobdd", "cdd", "wcdd"] {
        let (out, s) = example_a(&["--list-minimizer", name, "--ddmin-fixpoint"]);
        assert_eq!(out, "5\n8\n", "{name}");
        assert_eq!(s["list_minimizer"], name);
        let (tree_out, s) = helloworld(&d, &["--list-minimizer", name]);
        assert_eq!(s["list_minimizer"], name);
        // Every minimizer reaches the paper's 35 characters (hoisting does the rest).
        assert_eq!(
            s["output_chars"],
            35,
            "{name}: {}",
            String::from_utf8_lossy(&tree_out)
        );
    }
}

#[test]
fn probabilistic_minimizers_take_no_ddmin_options() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    for flag in [
        &["--greeddy"][..],
        &["--no-subsets"],
        &["--complements-first"],
        &["--split-factor", "4"],
        &["--complement-order", "backward"],
    ] {
        let mut args = vec!["--list-minimizer", "cdd"];
        args.extend_from_slice(flag);
        let run = d.reduce(&args);
        run.expect_code(7).expect_stderr(&format!(
            "treedd: error: {} is a ddmin option, but the list minimizer is cdd",
            flag[0]
        ));
        assert_eq!(run.stderr.lines().count(), 1, "{}", run.stderr);
    }
    // Wddmin is ddmin: its options apply.
    let (out, s) = example_a(&["--list-minimizer", "wddmin", "--no-subsets"]);
    assert_eq!((out.as_str(), &s["subsets"]), ("5\n8\n", &false.into()));
}

#[test]
fn order_chooses_hddrs_work_list_and_needs_hddr() {
    let d = Dir::new();
    d.copy_fixture("c/helloworld");
    for order in ["bfs", "dfs", "size"] {
        let (_, s) = helloworld(&d, &["--order", order, "--algorithm", "hddr"]);
        assert_eq!(s["order"], order);
        assert_eq!(s["output_chars"], 35, "{order}");
    }
    let run = d.run(&[
        "--test",
        "./oracle.sh",
        "--order",
        "size",
        "--algorithm",
        "hdd",
        "helloworld.c",
    ]);
    run.expect_code(7).expect_stderr(
        "treedd: error: --order size orders HDDr's work list, but the algorithm is hdd",
    );
    let t = Dir::text_case(numbers(1..9), EXAMPLE_A);
    t.reduce(&["--order", "size"])
        .expect_code(7)
        .expect_stderr("--order size applies to the tree algorithms, but text is reduced by ddmin");
}

#[test]
fn every_list_minimizer_reaches_the_one_minimal_tree() {
    // Example A on the elements of a C initializer list: 5 and 8 are needed, and 2 while 7
    // is there. A probabilistic minimizer keeps 2 for good once its deletion failed with 7
    // still in; the next round starts afresh on the smaller tree and removes it.
    let d = Dir::new();
    d.write("a.c", "int a[] = {1, 2, 3, 4, 5, 6, 7, 8};\n");
    d.script(
        "oracle.sh",
        r#"has() { grep -q "[{ ,]$1[,}]" "$f"; }
f=$1; grep -q "int a" "$f" && has 5 && has 8 && { has 2 || ! has 7; }"#,
    );
    for name in ["ddmin", "probdd", "cdd", "wprobdd", "wcdd"] {
        d.run(&[
            "--test",
            "oracle.sh",
            "--no-passes",
            "--list-minimizer",
            name,
            "-q",
            "-j",
            "1",
            "a.c",
        ])
        .expect_code(0);
        let out = d.read_string("a.reduced.c");
        let elements: String = out
            .chars()
            .skip_while(|&c| c != '{')
            .filter(|c| c.is_ascii_digit())
            .collect();
        assert_eq!(elements, "58", "{name}: {out}");
    }
}

#[test]
fn a_directory_refuses_ddmin_options_with_a_probabilistic_minimizer_as_a_file_does() {
    let d = Dir::new();
    d.script("ok.sh", "exit 0");
    std::fs::create_dir(d.join("proj")).unwrap();
    d.write("proj/a.c", "int a;\n");
    d.write("proj/notes.txt", "x\n");
    for (minimizer, option) in [
        ("wcdd", "--split-factor"),
        ("probdd", "--greeddy"),
        ("cdd", "--greeddy"),
        ("wprobdd", "--greeddy"),
    ] {
        let mut args = vec!["--test", "ok.sh", "--list-minimizer", minimizer, option];
        if option == "--split-factor" {
            args.push("4");
        }
        args.push("proj");
        d.run(&args).expect_code(7).expect_stderr(&format!(
            "treedd: error: {option} is a ddmin option, but the list minimizer is {minimizer}"
        ));
    }
    // Refused before any run: nothing written beside the input.
    assert_eq!(d.entries(), ["ok.sh", "proj", "tmp"]);
}
