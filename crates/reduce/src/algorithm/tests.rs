//! Unit tests of `algorithm` on the toy tree.

use super::*;
use crate::session::toy;

#[test]
fn names_are_the_papers_and_round_trip() {
    let names: Vec<String> = TreeConfig::all16().iter().map(TreeConfig::name).collect();
    assert_eq!(
        names,
        [
            "HDD*",
            "Hoist*+HDD*",
            "HDDH*",
            "Hoist*+HDDH*",
            "HDD^r*",
            "Hoist^r*+HDD^r*",
            "HDDH^r*",
            "Hoist^r*+HDDH^r*",
            "Coarse HDD*",
            "Coarse Hoist*+HDD*",
            "Coarse HDDH*",
            "Coarse Hoist*+HDDH*",
            "Coarse HDD^r*",
            "Coarse Hoist^r*+HDD^r*",
            "Coarse HDDH^r*",
            "Coarse Hoist^r*+HDDH^r*",
        ]
    );
    for config in TreeConfig::all16() {
        let parsed = TreeConfig::from_name(&config.name()).unwrap();
        assert_eq!(
            (parsed.base, parsed.hoist, parsed.fixpoint),
            (config.base, config.hoist, true)
        );
        let once = TreeConfig {
            fixpoint: false,
            ..config.clone()
        };
        assert!(!once.name().contains('*'));
        let parsed = TreeConfig::from_name(&once.name()).unwrap();
        assert_eq!(
            (parsed.base, parsed.hoist, parsed.fixpoint),
            (config.base, config.hoist, false)
        );
    }
}

#[test]
fn parsing_ignores_case_spaces_and_carets() {
    let c: TreeConfig = "coarse hoist-r*+hddh-r*".parse().unwrap();
    assert_eq!(
        (c.base, c.hoist, c.fixpoint),
        (Base::CoarseHddr, Hoisting::Both, true)
    );
    let c = TreeConfig::from_name("HDDr*").unwrap();
    assert_eq!((c.base, c.hoist), (Base::Hddr, Hoisting::None));
    let c = TreeConfig::from_name("HDDH^r* depth-first").unwrap();
    assert_eq!(
        (c.base, c.hoist, c.order),
        (Base::Hddr, Hoisting::Interlace, TraversalOrder::DepthFirst)
    );
    assert_eq!(c.name(), "HDDH^r* depth-first");
}

#[test]
fn bad_names_are_rejected_with_the_name_in_the_message() {
    for bad in [
        "",
        "HDD+",
        "Hoist*+HDD^r*",
        "Hoist^r*+HDD*",
        "HDD* depth-first",
        "ddmin",
        "Coarse",
    ] {
        let err = TreeConfig::from_name(bad).unwrap_err();
        assert!(err.to_string().contains(&format!("`{bad}`")), "{err}");
    }
}

#[test]
fn presets() {
    for name in PRESETS {
        let by_preset = TreeConfig::preset(name).unwrap();
        let by_name = TreeConfig::from_name(&name.to_uppercase()).unwrap();
        assert_eq!(
            (by_preset.base, by_preset.hoist),
            (by_name.base, by_name.hoist)
        );
        assert!(by_preset.fixpoint && !by_preset.final_text_pass);
    }
    let names: Vec<String> = PRESETS
        .iter()
        .map(|p| TreeConfig::preset(p).unwrap().name())
        .collect();
    assert_eq!(
        names,
        ["HDDH*", "HDDH^r* uses-first", "Coarse HDD^r* uses-first"],
        "the measured choices"
    );
    let d = TreeConfig::default();
    let b = TreeConfig::preset("balanced").unwrap();
    assert_eq!((d.base, d.hoist), (b.base, b.hoist));
    // The measured passes: all nine for the default and `smallest`, none for `fastest`.
    assert_eq!(b.passes, Pass::ALL.to_vec());
    assert_eq!(
        TreeConfig::preset("smallest").unwrap().passes,
        Pass::ALL.to_vec()
    );
    assert!(TreeConfig::preset("fastest").unwrap().passes.is_empty());
    assert!(TreeConfig::preset("tiny").is_err());
}

#[test]
fn reduction_stops_when_the_judge_is_cancelled() {
    use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
    use std::sync::{Arc, OnceLock};
    let flag: Arc<OnceLock<Arc<AtomicBool>>> = Arc::default();
    let runs = Arc::new(AtomicUsize::new(0));
    let (flag2, runs2) = (Arc::clone(&flag), Arc::clone(&runs));
    let oracle = crate::engine::FnOracle::new(move |c: &[u8]| {
        if runs2.fetch_add(1, Ordering::SeqCst) + 1 == 3 {
            flag2.get().unwrap().store(true, Ordering::SeqCst);
        }
        toy::has(&String::from_utf8_lossy(c), "d")
    });
    let judge = Judge::new(Box::new(oracle), crate::JudgeOptions::default());
    flag.set(judge.stop_flag()).unwrap();
    let mut tree = toy::Toy::parse("(p (s a (s b)) (s c (s d)) (s e))");
    for config in TreeConfig::all16() {
        let out = String::from_utf8(reduce(&mut tree, &judge, &config)).unwrap();
        assert!(toy::has(&out, "d"), "{out}");
    }
    assert_eq!(
        runs.load(Ordering::SeqCst),
        3,
        "no oracle run after the cancel"
    );
}

#[test]
fn the_observer_knows_the_phase() {
    let src = "(p (s a (s b)) (s c))";
    for (name, phase) in [
        ("Hoist^r*+HDDH^r*", "HDDH^r* pass 2, node "),
        ("Coarse HDD", "Coarse HDD pass 1, level "),
    ] {
        let mut tree = toy::Toy::parse(src);
        let (judge, recorder) = toy::observed_judge(|c| toy::has(c, "b"));
        reduce(&mut tree, &judge, &TreeConfig::from_name(name).unwrap());
        assert!(
            recorder.phase().starts_with(phase),
            "{name}: {}",
            recorder.phase()
        );
    }
}

#[test]
fn final_text_pass_removes_what_the_tree_cannot() {
    // The hidden tokens x and y are no units of the tree algorithms.
    let interesting = |c: &str| c.contains('a');
    for (text_pass, expected) in [(false, "x y a"), (true, "a")] {
        let mut tree = toy::Toy::parse("(p .x .y a (q b))");
        let (judge, _) = toy::judge(interesting);
        let config = TreeConfig {
            final_text_pass: text_pass,
            ..TreeConfig::new(Base::Hdd, Hoisting::None)
        };
        assert_eq!(reduce(&mut tree, &judge, &config), expected.as_bytes());
    }
}

/// `src` reduced as C by `config`'s rounds, with `interesting` as the oracle.
fn reduced_c(
    src: &[u8],
    interesting: impl Fn(&[u8]) -> bool + Send + Sync + 'static,
    config: &TreeConfig,
) -> String {
    let judge = Judge::new(
        Box::new(crate::engine::FnOracle::new(interesting)),
        crate::JudgeOptions::default(),
    );
    let mut tree = RTree::build(treedd_tree::Lang::C, src).unwrap();
    String::from_utf8(reduce_tree(&mut tree, &judge, config).text).unwrap()
}

#[test]
fn a_round_without_the_reference_closure_ends_the_rounds() {
    // `g`'s local `a` is spelled like the function `a` before it, which may go as a whole but
    // never change: every round with the closure keeps it with `g`; the round without it,
    // which must agree before the fixed point, removes it.
    let src = b"int a(void) { return 1; }\nint g(void) { int a = 2; return a + 12345; }\n";
    let interesting = |c: &[u8]| {
        let c = String::from_utf8_lossy(c);
        c.contains("int g(void) { int a = 2;")
            && c.contains("12345")
            && (!c.contains("int a(") || c.contains("int a(void) { return 1; }"))
    };
    for (closure, expected) in [(false, false), (true, false)] {
        let config = TreeConfig {
            closure,
            ..TreeConfig::new(Base::Hddr, Hoisting::None)
        };
        let out = reduced_c(src, interesting, &config);
        assert_eq!(out.contains("int a("), expected, "{out}");
    }
}

#[test]
fn a_round_with_token_replacements_ends_the_rounds() {
    // No pass runs: only the tree phase can make the second `double` an `int`, and without
    // token replacements only its last round, which must agree before the fixed point, does.
    let src = b"double a;\ndouble b;\n";
    let interesting = |c: &[u8]| {
        let c = String::from_utf8_lossy(c);
        c.contains("double a;") && c.contains(" b;")
    };
    for token_replacements in [true, false] {
        let config = TreeConfig {
            token_replacements,
            ..TreeConfig::new(Base::Hddr, Hoisting::None)
        };
        let out = reduced_c(src, interesting, &config);
        assert_eq!(
            out, "double a;\nint b;\n",
            "token_replacements {token_replacements}"
        );
    }
}

#[test]
fn a_token_is_not_replaced_by_a_name_as_long_that_comes_after_it() {
    use crate::session::Tree;
    // Java replaces a name by `a`: `x` -> `a` moves down the order (length, bytes) in which
    // `replace-ids` moves names, `B` -> `a` would move up it and undo `replace-ids`' `a` -> `B`.
    let tree = RTree::build(treedd_tree::Lang::Java, b"class B { B x; }").unwrap();
    let noop = |spelling: &[u8]| -> Vec<bool> {
        (tree.preorder().into_iter())
            .filter(|&n| RTree::is_token(&tree, n) && RTree::text(&tree, n) == spelling)
            .map(|n| Tree::prune_is_noop(&tree, n))
            .collect()
    };
    assert_eq!(noop(b"B"), [true, true]);
    assert_eq!(noop(b"x"), [false]);
}

#[test]
fn a_replacement_as_long_that_changes_more_than_names_is_tried_whatever_the_order() {
    use crate::session::Tree;
    let noop = |tree: &RTree, kind: &str, text: &[u8]| -> Vec<bool> {
        (tree.preorder().into_iter())
            .filter(|&n| RTree::kind(tree, n) == kind && RTree::text(tree, n) == text)
            .map(|n| Tree::prune_is_noop(tree, n))
            .collect()
    };
    // C replaces a union specifier by `union{}`, as long as `union U0` once the spaces go
    // and after it in the order of bytes: an anonymous union, which frees `U0`'s definition.
    let c = RTree::build(treedd_tree::Lang::C, b"union U0 { int a; }; union U0 f;").unwrap();
    assert_eq!(noop(&c, "union_specifier", b"union U0"), [false]);
    // Java replaces a field access by `a.a`, which only renames `a.B` and moves `B` up the
    // order of names.
    let java = b"class A { int B; void f(A a) { a.B = 1; } }";
    let java = RTree::build(treedd_tree::Lang::Java, java).unwrap();
    assert_eq!(noop(&java, "field_access", b"a.B"), [true]);
}
