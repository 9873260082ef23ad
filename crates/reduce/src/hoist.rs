//! Hoisting (HDD with hoisting, section III-C; dissertation, section 7.2): the
//! transformation-based minimizing algorithm TMIN (HDD with hoisting, fig. 6) over the
//! hoisting candidates chi(n) (fig. 7).
//!
//! The hoisting algorithms themselves (Hoist, Hoist^r, Coarse Hoist, Coarse Hoist^r of
//! fig. 7.7, and the interlaced HDDH family of fig. 7.8) are the traversals of `hdd.rs` with a
//! `Step` that calls [`tmin`].

use crate::closure::names_in;
use crate::session::{candidate_test, Session, Tree};

/// chi(n): the hoistable descendants of `n`. From each child of `n`, descend until a node
/// compatible with `n` is met (that node is a candidate, its subtree is not searched
/// further). Pruned subtrees are skipped. Ordered farthest from `n` first (the papers'
/// priority), source order among equally far candidates.
pub(crate) fn chi<T: Tree>(tree: &T, n: T::Node) -> Vec<T::Node> {
    let mut found: Vec<(usize, T::Node)> = Vec::new();
    let mut stack: Vec<(T::Node, usize)> = tree.children(n).iter().rev().map(|&c| (c, 1)).collect();
    while let Some((d, dist)) = stack.pop() {
        if tree.is_pruned(d) || tree.is_hidden(d) {
            continue;
        }
        if tree.compatible(n, d) {
            // One that cannot stand in `n`'s position (`RTree::fits`: it begins with another
            // token than every text of the one kind the position admits) is no candidate,
            // and its descendants are not searched: the sequence is the one before, without
            // hoistings that are syntax errors (each a parse from scratch of the whole text
            // for the syntax filter) or parse only as something else.
            if tree.fits(n, d) {
                found.push((dist, d));
            }
            continue;
        }
        stack.extend(tree.children(d).iter().rev().map(|&c| (c, dist + 1)));
    }
    // Stable: equally far candidates stay in source (pre-)order.
    found.sort_by_key(|&(dist, _)| std::cmp::Reverse(dist));
    found.into_iter().map(|(_, d)| d).collect()
}

/// chi(n) without the descendants whose hoisting would take away a name that `n` declares
/// and the rest of the text still uses, where names are declared before use and the
/// reference closure is on: such a candidate cannot compile, as a prune the closure leaves
/// out (a library class that the program uses, whose nested types chi(n) finds). The
/// round without the closure that ends the rounds tries them all.
pub(crate) fn candidates<T: Tree>(s: &Session<T>, n: T::Node) -> Vec<T::Node> {
    let tree = &*s.tree;
    let mut found = chi(tree, n);
    if found.is_empty() || !s.closure || !tree.declares_before_use() {
        return found;
    }
    let totals = s.name_counts();
    // The names `m` declares outside its local scopes (sorted), and with `held`, how often
    // each name occurs in it.
    let declared = |m: T::Node, mut held: Option<&mut std::collections::HashMap<u32, u32>>| {
        let mut out = Vec::new();
        names_in(tree, m, s.closure_calls, |name, declaration, local| {
            if let Some(held) = held.as_deref_mut() {
                *held.entry(name).or_default() += 1;
            }
            if declaration && !local {
                out.push(name);
            }
        });
        out.sort_unstable();
        out.dedup();
        out
    };
    let mut held = std::collections::HashMap::new();
    let used: Vec<u32> = (declared(n, Some(&mut held)).into_iter())
        .filter(|name| totals.get(*name as usize).copied().unwrap_or(0) > held[name])
        .collect();
    if !used.is_empty() {
        found.retain(|&d| {
            let keeps = declared(d, None);
            used.iter().all(|name| keeps.binary_search(name).is_ok())
        });
    }
    found
}

/// TMIN^chi over `nodes` (one level, or the children of one node), committing each
/// successful hoisting (TRANSFORM) as it is found.
///
/// For each configuration element, the candidates chi(t(n)) of its current image t(n) are
/// tried farthest first; the first interesting one becomes the new image and its own
/// candidates are tried next. Passes over all elements repeat until one pass finds nothing,
/// so the result is 1-maximal: no single further hoisting of any element is interesting.
/// Returns whether anything was hoisted.
///
/// The candidates of a pass, from one element to the next, form one sequence on the
/// speculative driver (`crate::engine::driver`): what the pass tests when every candidate fails, so
/// with several jobs the next elements' candidates are tested while earlier ones run, and the
/// first interesting one in order wins whatever `jobs` is.
pub(crate) fn tmin<T: Tree>(s: &mut Session<T>, nodes: &[T::Node]) -> bool {
    let mut image: Vec<T::Node> = nodes
        .iter()
        .copied()
        .filter(|&n| !s.tree.is_pruned(n))
        .collect();
    let mut any = false;
    loop {
        let mut changed = false;
        let mut from = 0;
        while let Some((slot, d)) = first_hoisting(s, &image[from..]) {
            if s.cancelled() {
                return any;
            }
            let slot = from + slot;
            s.tree.hoist(image[slot], d);
            s.refresh();
            image[slot] = d;
            from = slot;
            changed = true;
            any = true;
        }
        if !changed || s.cancelled() {
            return any;
        }
    }
}

/// The first hoisting, in the order of `image` and chi(n) within an element, that is
/// interesting: the element's position in `image` and the node hoisted into its place.
fn first_hoisting<T: Tree>(s: &Session<T>, image: &[T::Node]) -> Option<(usize, T::Node)> {
    let tree = &*s.tree;
    let candidates: Vec<(usize, T::Node, T::Node)> = image
        .iter()
        .enumerate()
        .flat_map(|(k, &n)| candidates(s, n).into_iter().map(move |d| (k, n, d)))
        .collect();
    let (judge, current) = (s.judge, s.current.as_slice());
    let i = crate::engine::driver::first_passing(judge, s.jobs(), candidates.len(), &|i| {
        let (_, n, d) = candidates[i];
        Some(candidate_test(judge, current, &tree.unparse_hoisted(n, d)))
    })?;
    Some((candidates[i].0, candidates[i].2))
}

#[cfg(test)]
mod tests {
    use super::chi;
    use crate::algorithm::reduce;
    use crate::session::toy::{has, judge, Toy};
    use crate::session::{Session, Step, Tree};
    use crate::{hdd, Base, DdminOptions, Hoisting, TraversalOrder, TreeConfig};

    /// One pass of Hoist (`recursive`: Hoist^r; `coarse`: Coarse Hoist(^r)) alone on the toy
    /// tree `src`: the output and every candidate the oracle saw.
    #[track_caller]
    fn hoist_once(
        src: &str,
        recursive: bool,
        coarse: bool,
        interesting: fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let mut tree = Toy::parse(src);
        let (judge, log) = judge(interesting);
        let mut s = Session::new(&mut tree, &judge, &DdminOptions::default());
        let step = Step {
            prune: false,
            hoist: true,
            coarse,
            tokens: true,
        };
        if recursive {
            hdd::recursive(&mut s, step, TraversalOrder::BreadthFirst);
        } else {
            hdd::levels(&mut s, step);
        }
        let out = String::from_utf8(s.current).unwrap();
        let log = log.lock().unwrap().clone();
        (out, log)
    }

    #[test]
    fn with_the_closure_a_hoisting_keeps_the_names_the_rest_uses() {
        // The outer `e` declares `a`, `b` and `c` (their first occurrences), and `u` uses
        // `a`: hoisting `(e c)` into its place would take `a` away, `(e a b)` keeps it.
        let mut tree = Toy::parse("(r (e (e a b) (e c)) (u a))");
        let (judge, _) = judge(|_| true);
        let mut s = Session::new(&mut tree, &judge, &DdminOptions::default());
        let outer = s.tree.children(s.tree.root())[0];
        let texts = |s: &Session<Toy>| -> Vec<String> {
            (super::candidates(s, outer).into_iter())
                .map(|d| s.tree.text_of(d))
                .collect()
        };
        assert_eq!(texts(&s), ["a b", "c"]);
        s.closure = true;
        assert_eq!(texts(&s), ["a b"]);
    }

    #[test]
    fn chi_puts_in_a_one_kind_field_only_what_begins_with_its_token() {
        use treedd_tree::{Lang, RTree};
        let src = b"int f(int a) { if (a) { a = 1; } return a; }\n";
        let tree = RTree::build(Lang::C, src).unwrap();
        let find = |kind: &str| {
            tree.preorder()
                .into_iter()
                .find(|&n| tree.kind(n) == kind)
                .unwrap()
        };
        let texts = |n| -> Vec<String> {
            chi(&tree, n)
                .into_iter()
                .map(|d| String::from_utf8(tree.text(d)).unwrap())
                .collect()
        };
        // A function's body is a compound statement, which begins with `{`: `if (a) ...` and
        // `return a;` share its statement group but cannot stand there.
        let body = find("compound_statement");
        assert!(tree.compatible(body, find("return_statement")));
        assert_eq!(texts(body), Vec::<String>::new());
        // A statement among statements takes any statement.
        assert_eq!(texts(find("if_statement")), ["{ a = 1; }"]);
    }

    #[test]
    fn chi_stops_at_compatible_nodes_and_puts_the_farthest_first() {
        let mut t = Toy::parse("(s (blk (s a) (if (s (blk (s b))) c)) (s d))");
        let texts = |t: &Toy, n| {
            chi(t, n)
                .into_iter()
                .map(|d| t.text_of(d))
                .collect::<Vec<_>>()
        };
        // (s b) is below the candidate (s (blk (s b))), so it is not one; (s d) is a child.
        assert_eq!(texts(&t, t.root()), ["b", "a", "d"]);
        let far = chi(&t, t.root())[0];
        t.prune(far);
        assert_eq!(
            texts(&t, t.root()),
            ["a", "d"],
            "pruned subtrees offer no candidates"
        );
        let tok = t.find("c");
        assert!(chi(&t, tok).is_empty());
    }

    #[test]
    fn hoist_tries_the_farthest_candidate_first() {
        // Both hoistings of the root are interesting; the farther one, (s b), is taken.
        let (out, log) = hoist_once("(s (blk (s a) (if (s b))))", false, false, |c| {
            has(c, "a") || has(c, "b")
        });
        assert_eq!(log, ["b"]);
        assert_eq!(out, "b");
        // When it is not interesting, the nearer one is tried next.
        let (out, log) = hoist_once("(s (blk (s a) (if (s b))))", false, false, |c| has(c, "a"));
        assert_eq!(log, ["b", "a"]);
        assert_eq!(out, "a");
    }

    #[test]
    fn tmin_follows_a_chain_of_hoistings() {
        // chi(root) is only (e y (e z)); once it is hoisted, its own candidate (e z) is next.
        let (out, log) = hoist_once("(e x (e y (e z)))", false, false, |c| has(c, "z"));
        assert_eq!(log, ["y z", "z"]);
        assert_eq!(out, "z");
    }

    #[test]
    fn tmin_is_one_maximal() {
        // Hoisting a (dropping p) only works once b has been hoisted (dropping r): TMIN makes a
        // second pass over the level, so a single Hoist pass gives "q s".
        let (out, log) = hoist_once("(top (a p (a q)) (b r (b s)))", false, false, |c| {
            has(c, "q s") && (has(c, "p") || !has(c, "r"))
        });
        assert_eq!(log, ["q r s", "p q s", "q s"]);
        assert_eq!(out, "q s");
    }

    #[test]
    fn hoist_r_works_on_children_and_never_hoists_the_root() {
        let src = "(w p (w q))";
        let (out, log) = hoist_once(src, false, false, |c| has(c, "q"));
        assert_eq!(
            (out.as_str(), log.len()),
            ("q", 1),
            "Hoist: level 0 is the root"
        );
        let (out, log) = hoist_once(src, true, false, |c| has(c, "q"));
        assert_eq!(
            out, "p q",
            "Hoist^r: the root's children p and (w q) have no candidates"
        );
        assert!(log.is_empty());
        let (out, log) = hoist_once("(top (w p (w q)) (w r))", true, false, |c| has(c, "q"));
        assert_eq!((out.as_str(), &log[..]), ("q r", &["q r".to_string()][..]));
    }

    #[test]
    fn coarse_hoist_only_hoists_nodes_with_empty_replacement() {
        // w's replacement is "W", so Coarse Hoist leaves it; v is hoisted.
        let src = "(prog (w/W x (w a)) (v y (v b)))";
        for recursive in [false, true] {
            let (out, log) = hoist_once(src, recursive, true, |c| has(c, "a b"));
            assert_eq!(log, ["x a b"]);
            assert_eq!(out, "x a b");
            let (out, log) = hoist_once(src, recursive, false, |c| has(c, "a b"));
            assert_eq!(log, ["a y b", "a b"]);
            assert_eq!(out, "a b");
        }
    }

    #[test]
    fn parallel_tmin_gives_the_sequential_result() {
        let src = "(s (blk (s a) (if (s b) (s c)) (s (blk (s d) e))) (s f (s g)))";
        let interesting = |c: &str| has(c, "d") || has(c, "g c");
        let mut outs = Vec::new();
        for jobs in [1, 2, 3] {
            let config = TreeConfig {
                ddmin: DdminOptions {
                    jobs,
                    ..DdminOptions::default()
                },
                ..TreeConfig::new(Base::Hdd, Hoisting::Both)
            };
            let mut tree = Toy::parse(src);
            let (judge, _) = judge(interesting);
            outs.push(String::from_utf8(reduce(&mut tree, &judge, &config)).unwrap());
        }
        assert_eq!(outs[0], "d");
        assert_eq!(outs[0], outs[1]);
        assert_eq!(outs[0], outs[2]);
    }
}
