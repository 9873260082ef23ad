//! `bodies`: function bodies emptied, each keeping its signature (`[[bodies]]` in
//! passes.toml: a text valid for any signature, Python's `0`, Rust's `{loop{}}`, Java's
//! `{throw null;}`; C-Vise's clang_delta empties a function body the same way). Level by
//! level, as HDD walks a tree: ddmin over the outermost bodies finds those that must keep
//! their statements, then ddmin over the bodies directly inside those, and so on. Most of a
//! real input is code that the failure does not need inside functions that the rest of the
//! input calls: their bodies go in a few oracle runs, where deleting the functions would need
//! their callers gone first. A declaration the compiler rejects when nothing uses it (Go's
//! imports) goes with the last bodies that use it (`Facts::tied`). Where the language has a
//! declaration form (`declare` of `[[bodies]]`, C's and C++'s `;`, after C-Vise's
//! replace-function-def-with-decl), an outermost definition becomes a declaration instead:
//! shorter, what a declaration leaves undefined is only wanted where a constant expression
//! evaluates it, and an optimizing compiler still compiles the code after each call, which
//! it drops after a call to a function that never returns.
//!
//! The outermost bodies are also tried before the first tree phase, coarsely
//! ([`Passes::early_bodies`]), so the first tree is already without most of them.

use std::ops::Range;

use treedd_tree::{Facts, Lang};

use super::splice::{applied, within, Splice, Tie};
use super::{Pass, Passes};

impl Passes<'_> {
    /// ddmin over the bodies of each level in turn, outermost first.
    pub(super) fn bodies(&mut self) {
        for depth in 0.. {
            if self.judge.is_cancelled() {
                return;
            }
            let Some(facts) = self.facts() else { return };
            let (units, ties) = level(&facts, depth);
            if units.is_empty() {
                return;
            }
            self.judge.phase("bodies");
            self.keep_minimal_tied(&units, &ties);
        }
    }

    /// The outermost bodies before the first tree phase, coarsely: all of them emptied,
    /// then each half, quarter, eighth and sixteenth of them (in source order), the first
    /// interesting candidate of the sequence accepted as it goes. At most 31 oracle runs
    /// however many bodies must stay (a ddmin over thousands of bodies of which most are
    /// needed would cost thousands); the round's `bodies` pass, after the first tree phase
    /// has removed most of the text, finds the rest. Returns the number of accepted
    /// candidates.
    pub fn early_bodies(&mut self) -> u64 {
        self.accepted = 0;
        self.judge.phase("bodies (early)");
        self.sequence(Pass::Bodies, early);
        self.accepted
    }
}

/// The finest split of the early sequence: sixteenths.
const EARLY_PARTS: usize = 16;

/// The early sequence (see [`Passes::early_bodies`]): the units of the outermost level (see
/// [`level`]) in parts of halving size, each with the declarations that go with its bodies
/// alone. The bodies `coarse_unless` keeps out (C++'s deduced return types, and constexpr
/// friends, which keep the body form) are left to the round's `bodies` pass.
pub(super) fn early(_: &[u8], _: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let (units, ties) = level(facts, 0);
    let eligible: Vec<usize> = (at_depth(facts, 0).enumerate())
        .filter(|&(_, at)| !facts.bodies[at].not_coarse)
        .map(|(i, _)| i)
        .collect();
    let mut out = Vec::new();
    let mut parts = 1;
    while parts <= EARLY_PARTS.min(eligible.len()) {
        for k in 0..parts {
            let part = &eligible[k * eligible.len() / parts..(k + 1) * eligible.len() / parts];
            out.push(applied(&units, &ties, |u| part.binary_search(&u).is_ok()));
        }
        parts *= 2;
    }
    out
}

/// The units of one level's ddmin (each body at `depth`, the number of bodies around it,
/// emptied; an outermost definition made a declaration where the language has that form)
/// and the declarations that go with them: those whose every use is inside a body of the
/// level.
pub(super) fn level(facts: &Facts, depth: usize) -> (Vec<Vec<Splice>>, Vec<Tie>) {
    let mut bodies: Vec<Range<usize>> = Vec::new();
    let mut units = Vec::new();
    let mut end = 0;
    for b in at_depth(facts, depth).map(|i| &facts.bodies[i]) {
        bodies.push(b.range.clone());
        let mut unit = Splice::new(b.range.clone(), &b.text);
        // A definition removed whole may start before the end of the one in front.
        if let Some((range, text)) = b.declaration.as_ref().filter(|_| depth == 0) {
            if range.start >= end {
                unit = Splice::new(range.clone(), text);
            }
        }
        end = unit.range.end;
        units.push(vec![unit]);
    }
    let holder = |r: &Range<usize>| {
        let at = bodies
            .partition_point(|b| b.start <= r.start)
            .checked_sub(1)?;
        within(r, &bodies[at]).then_some(at)
    };
    let ties = facts
        .tied
        .iter()
        .filter(|t| !t.uses.is_empty() && holder(&t.range).is_none())
        .filter_map(|t| {
            let mut units: Vec<usize> = t.uses.iter().map(holder).collect::<Option<_>>()?;
            units.sort_unstable();
            units.dedup();
            Some(Tie {
                units,
                splice: Splice::new(t.range.clone(), b""),
            })
        })
        .collect();
    (units, ties)
}

/// The indices of the bodies at `depth` (the number of bodies around each), in source order.
fn at_depth(facts: &Facts, depth: usize) -> impl Iterator<Item = usize> + '_ {
    let mut around: Vec<&Range<usize>> = Vec::new();
    (0..facts.bodies.len()).filter(move |&i| {
        let range = &facts.bodies[i].range;
        while around.last().is_some_and(|a| !within(range, a)) {
            around.pop();
        }
        around.push(range);
        around.len() == depth + 1
    })
}

#[cfg(test)]
mod tests {
    use treedd_tree::Lang;

    use super::level;

    #[test]
    fn outermost_cpp_definitions_become_declarations_and_inner_ones_are_emptied() {
        let src = "struct S { int a; S(int x) : a(x) { a += x; a *= 2; } };\n\
                   int g(int x) { struct L { int f() { return 2 * 3 + 1; } }; return x; }\n";
        let facts = Lang::Cpp.facts(src.as_bytes()).unwrap();
        let made = |depth| -> Vec<(String, String)> {
            (level(&facts, depth).0.iter())
                .map(|u| {
                    let text = String::from_utf8_lossy(&u[0].text).into_owned();
                    (src[u[0].range.clone()].to_string(), text)
                })
                .collect()
        };
        // The constructor's initializers go with its body; a local class's member cannot
        // be declared alone, so it keeps the body form.
        assert_eq!(
            made(0),
            [
                (" : a(x) { a += x; a *= 2; }".to_string(), ";".to_string()),
                (
                    " { struct L { int f() { return 2 * 3 + 1; } }; return x; }".to_string(),
                    ";".to_string()
                ),
            ]
        );
        assert_eq!(
            made(1),
            [(
                "{ return 2 * 3 + 1; }".to_string(),
                "{for(;;);}".to_string()
            )]
        );
    }

    #[test]
    fn c_definitions_become_declarations_unless_they_must_be_inlined() {
        let src =
            "static int h(int x) { return x * x; }\nint *g(void) { static int v; return &v; }\n\
                   static inline __attribute__((__always_inline__)) int k(void) { return 1 + 2; }\n";
        let facts = Lang::C.facts(src.as_bytes()).unwrap();
        let (units, _) = level(&facts, 0);
        let made: Vec<(&str, &[u8])> = (units.iter())
            .map(|u| (&src[u[0].range.clone()], &u[0].text[..]))
            .collect();
        assert_eq!(
            made,
            [
                (" { return x * x; }", &b";"[..]),
                (" { static int v; return &v; }", &b";"[..]),
                ("{ return 1 + 2; }", &b"{for(;;);}"[..]),
            ]
        );
    }

    #[test]
    fn levels_go_by_nesting_and_declarations_go_with_the_bodies_of_all_their_uses() {
        let src = "package p\n\nimport \"fmt\"\nimport (\n\t\"os\"\n\tu \"unicode/utf8\"\n)\n\n\
                   func F() { fmt.Println(1); g := func() { u.RuneLen('a') }; g() }\n\
                   func G() { fmt.Println(os.Args, 2) }\n";
        let facts = Lang::Go.facts(src.as_bytes()).unwrap();
        let texts = |units: &[Vec<super::Splice>]| -> Vec<String> {
            units
                .iter()
                .map(|u| src[u[0].range.clone()].to_string())
                .collect()
        };
        let tie = |t: &super::Tie| (src[t.splice.range.clone()].to_string(), t.units.clone());
        let (units, ties) = level(&facts, 0);
        assert_eq!(
            texts(&units),
            [
                "{ fmt.Println(1); g := func() { u.RuneLen('a') }; g() }",
                "{ fmt.Println(os.Args, 2) }"
            ]
        );
        // `fmt` goes when both bodies do; the local `g` is inside one.
        assert_eq!(
            ties.iter().map(tie).collect::<Vec<_>>(),
            [
                ("import \"fmt\"".to_string(), vec![0, 1]),
                ("\"os\"".to_string(), vec![1]),
                ("u \"unicode/utf8\"".to_string(), vec![0]),
            ]
        );
        let (units, ties) = level(&facts, 1);
        assert_eq!(texts(&units), ["{ u.RuneLen('a') }"]);
        assert_eq!(
            ties.iter().map(tie).collect::<Vec<_>>(),
            [("u \"unicode/utf8\"".to_string(), vec![0])]
        );
        assert!(level(&facts, 2).0.is_empty());
    }
}
