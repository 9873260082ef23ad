//! Tests of `hdd.rs`.

use crate::algorithm::reduce;
use crate::session::toy::{has, judge, Toy};
use crate::session::Tree;
use crate::{Base, Hoisting, TraversalOrder, TreeConfig};

/// Reduce the toy tree `src` with `config` under `interesting`; the output and every
/// candidate the oracle saw.
#[track_caller]
fn run(src: &str, config: &TreeConfig, interesting: fn(&str) -> bool) -> (String, Vec<String>) {
    let mut tree = Toy::parse(src);
    let (judge, log) = judge(interesting);
    let out = reduce(&mut tree, &judge, config);
    let out = String::from_utf8(out).unwrap();
    assert_eq!(out.as_bytes(), tree.unparse(), "the output is the tree's");
    let log = log.lock().unwrap().clone();
    (out, log)
}

fn once(base: Base, hoist: Hoisting) -> TreeConfig {
    TreeConfig {
        fixpoint: false,
        ..TreeConfig::new(base, hoist)
    }
}

/// HDDr once, without hoisting, in `order`.
fn hddr(order: TraversalOrder) -> TreeConfig {
    TreeConfig {
        order,
        ..once(Base::Hddr, Hoisting::None)
    }
}

#[test]
fn hoisting_starts_while_the_lone_node_test_runs() {
    // DDMIN keeps prog's child w ("x a"; z goes), removing it too ("") fails, and TMIN
    // then hoists the inner w ("a"). With 2 jobs, "a" is announced before "" runs, so it
    // starts on the idle worker while "" runs: "" waits for it (10 s at most, which is
    // what it waits without the announcement: the visit's first one had "a b").
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    static HOISTED: AtomicBool = AtomicBool::new(false);
    static SEEN: AtomicBool = AtomicBool::new(false);
    let oracle = crate::engine::FnOracle::new(|c: &[u8]| {
        if c == b"a" {
            HOISTED.store(true, Ordering::SeqCst);
        } else if c.is_empty() {
            let until = Instant::now() + Duration::from_secs(10);
            while !HOISTED.load(Ordering::SeqCst) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
            SEEN.store(HOISTED.load(Ordering::SeqCst), Ordering::SeqCst);
        }
        has(&String::from_utf8_lossy(c), "a")
    });
    let judge = crate::Judge::new(Box::new(oracle), crate::JudgeOptions::default());
    let mut config = once(Base::Hddr, Hoisting::Interlace);
    config.ddmin.jobs = 2;
    let mut tree = Toy::parse("(prog (w x (w a)) (z b))");
    let out = judge.with_lookahead(2, || reduce(&mut tree, &judge, &config));
    assert_eq!(out, b"a");
    assert!(
        SEEN.load(Ordering::SeqCst),
        "the hoisting did not start early"
    );
}

/// Siblings tagged a..g; c refers to a and b (P, Q first occur there), e to c and d.
/// Interesting: e, with everything it needs (what a compiler would check). Hidden tokens:
/// only whole siblings go.
const REFERRING: &str = "(r (s .a .P) (s .b .Q) (s .f .U) (s .c .P .Q .R) (s .d .S) \
                         (s .g .V) (s .e .R .S .T))";
fn needs_its_declarations(text: &str) -> bool {
    let present = |tag: &str| has(text, tag);
    present("e")
        && (!present("e") || present("c") && present("d"))
        && (!present("c") || present("a") && present("b"))
}

#[test]
fn with_the_reference_closure_no_candidate_drops_a_declaration_its_use_keeps() {
    let plain = once(Base::Hddr, Hoisting::None);
    let closure = TreeConfig {
        closure: true,
        ..plain.clone()
    };
    let (out, plain_log) = run(REFERRING, &plain, needs_its_declarations);
    let (out2, log) = run(REFERRING, &closure, needs_its_declarations);
    assert_eq!(out, "a P b Q c P Q R d S e R S T");
    assert_eq!(out2, out);
    // Every candidate the oracle saw keeps what its siblings refer to.
    let closed = |c: &String| {
        (!has(c, "e") || has(c, "c") && has(c, "d")) && (!has(c, "c") || has(c, "a") && has(c, "b"))
    };
    assert!(log.iter().all(closed), "{log:?}");
    assert!(!plain_log.iter().all(closed));
    assert!(
        log.len() < plain_log.len(),
        "{} runs with the closure, {} without",
        log.len(),
        plain_log.len()
    );
}

#[test]
fn one_run_removes_the_siblings_nothing_outside_them_uses() {
    // In `lib`, only `b` is used outside (by `main`), and `b` uses `a`: with the closure,
    // the first test of `lib`'s visit keeps `a` and `b` and drops the six others at once.
    let src =
        "(r (lib (s .a) (s .b .a) (s .c) (s .d) (s .e .c) (s .f) (s .g) (s .h)) (main .m .b))";
    let config = TreeConfig {
        closure: true,
        ..hddr(TraversalOrder::UsesFirst)
    };
    let needs = |c: &str| has(c, "m") && (!has(c, "b") || has(c, "a")) && has(c, "b");
    let (out, log) = run(src, &config, needs);
    assert_eq!(out, "a b a m b");
    // The root's DDMIN keeps `lib` alone (fails; keeping `main` alone closes to the whole
    // tree), `main`'s visit has nothing to test, and `lib`'s first test is the last one
    // (DDMIN would first keep `lib`'s first half).
    assert_eq!(log, ["a b a c d e c f g h", "a b a m b"]);
}

#[test]
fn when_the_used_siblings_are_not_enough_ddmin_splits_the_others_first() {
    // `main` uses `a` to `f` of `lib`, and the failure needs `k` too, which nothing uses
    // (the crashing code, or a declaration the spellings do not show as used): the first test
    // of `lib`'s visit fails. DDMIN then splits `x`, `y` and `k` apart from the six used
    // siblings: 25 tests, where in syntactic order, with a used sibling in almost every part,
    // it takes 35.
    let src = "(r (lib (s .a) (s .b) (s .c) (s .x) (s .d) (s .e) (s .y) (s .f) (s .k)) \
               (main .m .a .b .c .d .e .f))";
    let config = TreeConfig {
        closure: true,
        ..hddr(TraversalOrder::UsesFirst)
    };
    // Each used name twice: its declaration in `lib` and its use in `main`.
    let needs = |c: &str| {
        let twice = |t: &&str| c.split(' ').filter(|w| w == t).count() == 2;
        has(c, "m") && has(c, "k") && ["a", "b", "c", "d", "e", "f"].iter().all(twice)
    };
    let (out, log) = run(src, &config, needs);
    assert_eq!(out, "a b c d e f k m a b c d e f");
    let first = (log.iter())
        .position(|c| c == "a b c d e f m a b c d e f")
        .expect("the first test of lib's visit");
    // The first half keeps the three unused siblings and `a`.
    assert_eq!(log[first + 1], "a x y k m a b c d e f");
    assert_eq!(log.len() - first - 1, 25, "{log:?}");
}

#[test]
fn tag_nodes_skips_hidden_and_pruned() {
    let mut t = Toy::parse("(p (a .x y) (b z))");
    let b = t.children(t.root())[1];
    assert_eq!(super::tag_nodes(&t, 1).len(), 2);
    t.prune(b);
    let texts = |t: &Toy, l| {
        super::tag_nodes(t, l)
            .into_iter()
            .map(|n| t.text_of(n))
            .collect::<Vec<_>>()
    };
    assert_eq!(texts(&t, 1), ["x y"]);
    assert_eq!(
        texts(&t, 2),
        ["y"],
        "hidden .x is no unit, pruned b's z is not visited"
    );
}

#[test]
fn hdd_goes_level_by_level() {
    // Level 1 is {fn, stmt}, level 2 {x, body} (w is gone with stmt), level 3 {y, z}.
    let (out, log) = run(
        "(prog (fn x (body y z)) (stmt w))",
        &once(Base::Hdd, Hoisting::None),
        |c| has(c, "z"),
    );
    assert_eq!(out, "z");
    assert_eq!(
        log,
        [
            "",      // level 0: the root alone, so only its removal is tried
            "x y z", // level 1: keep fn
            "",      // ... and the single kept node's removal
            "x",     // level 2: keep x
            "y z",   // keep body
            "", "y", // level 3
            "z", "",
        ]
    );
}

#[test]
fn hdd_runs_ddmin_over_a_whole_level() {
    // HDD puts a, b, c, d (two parents) into one DDMIN; HDDr does f's and g's apart.
    let src = "(prog (f a b) (g c d))";
    let (out, log) = run(src, &once(Base::Hdd, Hoisting::None), |c| has(c, "a d"));
    assert_eq!(out, "a d");
    assert!(
        log.contains(&"a b".to_string()) && log.contains(&"c d".to_string()),
        "{log:?}"
    );
    assert!(
        log.iter().any(|c| c == "b c d"),
        "a complement across parents: {log:?}"
    );

    let (out, log) = run(src, &once(Base::Hddr, Hoisting::None), |c| has(c, "a d"));
    assert_eq!(out, "a d");
    assert_eq!(
        log,
        [
            "a b",   // prog's children: keep f
            "c d",   // keep g
            "a c d", // f's children: keep a (g untouched)
            "c d",   // remove the single kept a too?
            "a c",   // g's children: keep c
            "a d",   // keep d
            "a",     // remove the single kept d too?
        ]
    );
}

#[test]
fn hddr_breadth_first_and_depth_first() {
    // Breadth-first visits prog, f, h, then g; depth-first prog, f, g, then h.
    let src = "(prog (f (g a b) x) (h c d))";
    let interesting = |c: &str| has(c, "a c");
    let (out_bf, log_bf) = run(src, &hddr(TraversalOrder::BreadthFirst), interesting);
    let (out_df, log_df) = run(src, &hddr(TraversalOrder::DepthFirst), interesting);
    assert_eq!((out_bf.as_str(), out_df.as_str()), ("a c", "a c"));
    // Both first keep g (drop x): "a b c d". Then breadth-first reduces h ("a b c" drops d)
    // before g ("a c" drops b); depth-first reduces g ("a c d") before h ("a c").
    assert_eq!(
        log_bf,
        ["a b x", "c d", "a b c d", "c d", "a b c", "a b", "a c", "c"]
    );
    assert_eq!(
        log_df,
        ["a b x", "c d", "a b c d", "c d", "a c d", "c d", "a c", "a"]
    );
}

#[test]
fn uses_first_visits_a_declaration_after_the_code_that_uses_it() {
    // `decl` is the larger and holds the first `f`, which `use` uses: size-first visits
    // `decl` first, uses-first `use` first.
    let src = "(prog (decl f (g a b x)) (use f c d))";
    let interesting = |c: &str| has(c, "a c");
    let (out_size, log_size) = run(src, &hddr(TraversalOrder::SizeFirst), interesting);
    let (out_uses, log_uses) = run(src, &hddr(TraversalOrder::UsesFirst), interesting);
    assert_eq!((out_size.as_str(), out_uses.as_str()), ("a c", "a c"));
    // After DDMIN over prog's children, size-first first tests `decl`'s children (without
    // `(g a b x)`, without `f`), uses-first `use`'s (without `c d`, without `f`).
    assert_eq!(
        log_size,
        [
            "f a b x",
            "f c d",
            "f f c d",
            "a b x f c d",
            "f c d",
            "a b x f",
            "a b x c d",
            "a b x c",
            "a b x",
            "a c",
            "c"
        ]
    );
    assert_eq!(
        log_uses,
        [
            "f a b x",
            "f c d",
            "f a b x f",
            "f a b x c d",
            "f a b x c",
            "f a b x",
            // `use` no longer uses `decl`'s `f`: removing `decl` is tried again.
            "c",
            "f c",
            "a b x c",
            "c",
            "a c",
            "c"
        ]
    );
}

#[test]
fn uses_first_tries_a_kept_declaration_again_once_its_last_use_is_gone() {
    // `imp` declares `L`, which `cls` uses: the root's visit keeps both (the use needs its
    // declaration). `cls`'s visit drops the use, and `imp` is tried again at once, before
    // the work list reaches it: its insides (`q`) are never visited.
    let src = "(r (imp .L (q i j k)) (cls (f .m .L) (g .n)))";
    let needs = |c: &str| {
        let declared = c.split(' ').filter(|w| *w == "L").count() == 2;
        has(c, "n") && (!has(c, "m") || declared)
    };
    let (out, log) = run(src, &hddr(TraversalOrder::UsesFirst), needs);
    assert_eq!(out, "n");
    assert_eq!(
        log,
        [
            "L i j k",
            "m L n",
            "L i j k m L",
            "L i j k n",
            "L i j k",
            "n"
        ]
    );
    // Size-first (an order of the papers' comparisons) visits `imp` first and walks its
    // insides; `imp` itself waits for the next pass.
    let (out, log) = run(src, &hddr(TraversalOrder::SizeFirst), needs);
    assert_eq!(out, "L n");
    assert!(log.iter().any(|c| c == "L m L n"), "{log:?}");
}

#[test]
fn used_later_marks_the_nodes_holding_a_first_occurrence_used_after_them() {
    let tree = Toy::parse("(prog (a x y) (b y) (c z) (d x (e w) w))");
    let later = super::work_list::used_later(&tree, false);
    assert!(
        super::work_list::used_later(&tree, true)
            .iter()
            .all(|&l| !l),
        "the closure's names"
    );
    let marked: Vec<String> = (0..later.len())
        .filter(|&i| later[i])
        .map(|i| tree.text_of(i))
        .collect();
    // `a` holds the first `x` (used in `d`) and the first `y` (used in `b`); `x` alone too.
    // `c`'s `z` and `d`'s `x` are used nowhere after; `e` holds the first `w`, used after it.
    assert_eq!(marked, ["x y", "x", "y", "w", "w"]);
}

#[test]
fn coarse_hdd_only_tries_nodes_with_empty_replacement() {
    // f's replacement is "F": Coarse HDD never prunes f, HDD does.
    let src = "(prog (f/F a b) (g c))";
    let (out, log) = run(src, &once(Base::CoarseHdd, Hoisting::None), |c| has(c, "a"));
    assert_eq!(out, "a");
    assert!(log.iter().all(|c| !c.contains('F')), "{log:?}");
    let (out, log) = run(src, &once(Base::CoarseHddr, Hoisting::None), |c| {
        has(c, "a")
    });
    assert_eq!(out, "a");
    assert!(log.iter().all(|c| !c.contains('F')), "{log:?}");
    let (_, log) = run(src, &once(Base::Hdd, Hoisting::None), |c| has(c, "a"));
    assert!(log.iter().any(|c| c.contains('F')), "{log:?}");
}

#[test]
fn hdd_star_reaches_the_fixed_point() {
    // s1 can only go once b is gone (b needs a), but the hidden x keeps s1's text alive:
    // one HDD pass leaves "x c", HDD* is 1-tree-minimal.
    let src = "(prog (s1 .x a) (s2 b c))";
    let interesting = |c: &str| has(c, "c") && (!has(c, "b") || has(c, "a"));
    let (out, _) = run(src, &once(Base::Hdd, Hoisting::None), interesting);
    assert_eq!(out, "x c");
    let (out, _) = run(
        src,
        &TreeConfig::new(Base::Hdd, Hoisting::None),
        interesting,
    );
    assert_eq!(out, "c");
    let (out, _) = run(
        src,
        &TreeConfig::new(Base::Hddr, Hoisting::None),
        interesting,
    );
    assert_eq!(out, "c");
}

#[test]
fn hddh_hoists_at_each_level_right_after_pruning() {
    let src = "(prog (w x (w a)) c)";
    let (out, log) = run(src, &once(Base::Hdd, Hoisting::Interlace), |c| has(c, "a"));
    assert_eq!(out, "a");
    assert_eq!(
        log,
        [
            "",    // level 0: remove the root?
            "x a", // level 1: keep w
            "", "a", // level 1, TMIN on {w}: hoist the inner w into its place
            "",  // level 2: the hoisted w's only child
        ]
    );
    // Plain HDD gets there by pruning x one level lower.
    let (out, log) = run(src, &once(Base::Hdd, Hoisting::None), |c| has(c, "a"));
    assert_eq!(out, "a");
    assert_eq!(log, ["", "x a", "", "x", "a", "", ""]);
}

#[test]
fn a_bet_on_success_runs_on_into_the_next_visit() {
    // The root keeps `a` and drops `w` (the probable winner still running): with nothing
    // else in the work list, what follows is the lone test of `a` and then the visit of
    // `a` itself on the tree without `w`, whose first candidates drop `k` or `(c u v)`.
    use super::{after_ddmin, Positions, Step};
    use crate::session::{Session, Tree};
    let mut tree = Toy::parse("(s (a k (c u v)) w)");
    let (a, w, root) = (tree.find("k u v"), tree.find("w"), tree.root());
    let (judge, _) = judge(|_| false);
    let ddmin = crate::DdminOptions {
        jobs: 2,
        ..Default::default()
    };
    let mut s = Session::new(&mut tree, &judge, &ddmin);
    s.visiting = Some(root);
    let step = Step {
        prune: true,
        hoist: false,
        coarse: false,
        tokens: true,
    };
    let nodes = [a, w];
    let positions = Positions::of::<Toy>(&nodes);
    let out: Vec<String> = after_ddmin(&s, &nodes, &positions, &[0], step)
        .into_iter()
        .map(|c| String::from_utf8(c).unwrap())
        .collect();
    assert_eq!(out[0], "", "the lone test first");
    assert!(out.contains(&"u v".to_string()), "{out:?}");
    assert!(out.contains(&"k".to_string()), "{out:?}");
    assert!(out.len() <= 1 + 2 * 2, "{out:?}");
}

/// What `next_visits` announces (budget 20) with the session at the visit of `visiting`,
/// nothing else in the work list, and the pass having begun with the text `pass_start`.
fn announced_after(src: &str, visiting: &str, pass_start: Option<&[u8]>) -> Vec<String> {
    announced_after_with(src, visiting, pass_start, None)
}

/// [`announced_after`] with `after_phase` for what follows the tree phase.
fn announced_after_with(
    src: &str,
    visiting: &str,
    pass_start: Option<&[u8]>,
    after_phase: Option<crate::session::AfterPhase<'_>>,
) -> Vec<String> {
    use super::{next_visits, Assumed, Step};
    use crate::session::Session;
    let mut tree = Toy::parse(src);
    let visiting = tree.find(visiting);
    let (judge, _) = judge(|_| false);
    let ddmin = crate::DdminOptions {
        jobs: 2,
        ..Default::default()
    };
    let mut s = Session::new(&mut tree, &judge, &ddmin);
    s.visiting = Some(visiting);
    s.pass_start = pass_start.map(<[u8]>::to_vec);
    s.after_phase = after_phase;
    let step = Step {
        prune: true,
        hoist: false,
        coarse: false,
        tokens: true,
    };
    let mut out = Vec::new();
    next_visits(&s, &mut out, step, 20, Assumed::none());
    out.into_iter()
        .map(|c| String::from_utf8(c).unwrap())
        .collect()
}

#[test]
fn the_announcements_walk_on_past_the_work_list() {
    // Visiting the root: its kept children `a` and the bare `w` follow, then `a`'s child
    // `b`, whose visit tries "m n w" (without k) and "k n w" (without m).
    let out = announced_after("(s (a (b k m) n) w)", "k m n w", None);
    assert!(out.contains(&"n w".to_string()), "{out:?}");
    assert!(out.contains(&"m n w".to_string()), "{out:?}");
    assert!(out.contains(&"k n w".to_string()), "{out:?}");
}

#[test]
fn a_pass_that_changed_the_text_is_followed_by_the_next_from_the_root() {
    // Visiting `a` (its children are tokens): what follows is the fixed point's next pass,
    // whose root visit tries "x y" and "z", but only if this pass changed the text.
    let src = "(s (a x y) z)";
    let out = announced_after(src, "x y", Some(b"x y z q"));
    assert!(out.contains(&"x y".to_string()), "{out:?}");
    assert!(out.contains(&"z".to_string()), "{out:?}");
    assert!(announced_after(src, "x y", Some(b"x y z")).is_empty());
    assert!(announced_after(src, "x y", None).is_empty());
}

#[test]
fn the_transformation_passes_follow_the_last_pass_of_the_tree_phase() {
    // Visiting `a`, nothing after it in this pass: if the pass leaves the text as it was, the
    // phase ends and the passes' first candidates on that text come next; if it changed the
    // text, the next pass comes first, and what follows it is not known.
    let src = "(s (a x y) z)";
    let after = |text: &[u8], limit: usize| {
        assert!(limit > 0);
        vec![[b"passes on ", text].concat()]
    };
    let out = announced_after_with(src, "x y", Some(b"x y z"), Some(&after));
    assert_eq!(out, ["passes on x y z"]);
    let out = announced_after_with(src, "x y", None, Some(&after));
    assert_eq!(out, ["passes on x y z"], "without a fixed point");
    let out = announced_after_with(src, "x y", Some(b"x y z q"), Some(&after));
    assert!(!out.iter().any(|c| c.starts_with("passes")), "{out:?}");
    assert!(out.contains(&"z".to_string()), "{out:?}");
}
