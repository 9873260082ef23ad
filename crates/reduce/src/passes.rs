//! Transformation passes beyond deletion (issue 9). Each pass either shrinks the text
//! directly or opens new deletions to the next round of the tree algorithm:
//!
//! - `literals`: number literals to `0` or `1`, strings and characters to empty or one
//!   character (the texts come from `grammars/<lang>/passes.toml`).
//! - `replace-ids` (before `rename`, see [`Pass::ALL`]): see below.
//! - `rename`: every identifier spelling renamed consistently to the shortest name that does
//!   not occur in the file (C-Reduce's renaming pass, done language-agnostically).
//! - `replace-ids`: every later occurrence of one identifier replaced by another identifier of
//!   the same group (or a grammar `extra` such as C's `int`), so that the first one's
//!   declaration becomes dead (Vulcan's identifier replacement, Xu et al., OOPSLA 2023).
//! - `params`: the i-th parameter of a function removed with the i-th argument of every call
//!   of that name, in one candidate (C-Reduce's parameter passes).
//! - `subtrees`: a node replaced by a shorter compatible node found anywhere in the tree
//!   (Vulcan's sub-tree replacement; hoisting only uses descendants).
//! - `tokens`: over windows of 2 to 3 adjacent tokens, every subset of tokens removed that no
//!   earlier window covered (Vulcan's local exhaustive enumeration).
//!
//! Every pass works on a fresh parse of the current text ([`Lang::facts`]) and produces
//! candidates as splices of that text. `rename` and the first step of `literals` are ddmin
//! over the set of units that keep their old text, so most changes are accepted together in
//! a few oracle runs; the others are *sequences* of candidates run by the speculative driver
//! ([`crate::driver`]): the first interesting candidate of the sequence is accepted, the
//! sequence is made again from the new text and continues at the same position. Every
//! candidate goes through the [`Judge`] (syntax filter, cache, best-so-far, cancellation), and
//! no pass depends on `jobs`, so `--jobs N` gives the output of `--jobs 1`.
//!
//! No candidate makes the text longer: every accepted candidate makes it shorter, or
//! (`replace-ids`) leaves it as long with identifier occurrences moved down a well-founded
//! order, so each pass, and the joint fixed point of rounds around them, terminates.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::fmt;
use std::ops::Range;

use treedd_tree::{glue, Facts, Lang, RTree};

use crate::driver::first_interesting;
use crate::{ddmin_indices, DdminOptions, Judge};

/// A transformation pass. [`Pass::ALL`] is also the order in which a round runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    Literals,
    Rename,
    ReplaceIds,
    Params,
    Subtrees,
    Tokens,
}

impl Pass {
    /// Every pass, in the order a round runs them: identifier replacement before renaming
    /// (while names are long, `int32_t` -> `int` shortens the text; after renaming it would
    /// lengthen it), token search last, as in Vulcan.
    pub const ALL: [Pass; 6] = [
        Pass::Literals,
        Pass::ReplaceIds,
        Pass::Rename,
        Pass::Params,
        Pass::Subtrees,
        Pass::Tokens,
    ];

    /// The name used by `--passes` and in `--stats`.
    pub fn name(self) -> &'static str {
        match self {
            Pass::Literals => "literals",
            Pass::Rename => "rename",
            Pass::ReplaceIds => "replace-ids",
            Pass::Params => "params",
            Pass::Subtrees => "subtrees",
            Pass::Tokens => "tokens",
        }
    }

    pub fn from_name(name: &str) -> Option<Pass> {
        Pass::ALL.into_iter().find(|p| p.name() == name.trim())
    }

    /// Parse a comma-separated list of pass names (order and repeats do not matter: a round
    /// always runs them in the order of [`Pass::ALL`]).
    pub fn parse_list(list: &str) -> Result<Vec<Pass>, String> {
        let mut wanted = HashSet::new();
        for name in list.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let pass = Pass::from_name(name).ok_or_else(|| {
                format!(
                    "unknown pass `{name}`: use {}",
                    Pass::ALL.map(Pass::name).join(", ")
                )
            })?;
            wanted.insert(pass);
        }
        Ok(Pass::ALL
            .into_iter()
            .filter(|p| wanted.contains(p))
            .collect())
    }
}

impl fmt::Display for Pass {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// Non-whitespace characters (the papers' size measure).
pub(crate) fn chars(text: &[u8]) -> usize {
    text.iter().filter(|b| !b.is_ascii_whitespace()).count()
}

/// A change to the current text: `range` becomes `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Splice {
    range: Range<usize>,
    text: Vec<u8>,
}

impl Splice {
    fn new(range: Range<usize>, text: &[u8]) -> Splice {
        Splice {
            range,
            text: text.to_vec(),
        }
    }
}

/// `text` with the splices (sorted by start, not overlapping) applied. Where a splice would
/// glue two tokens into one (`a` `b` after removing what was between them), a space goes
/// between them.
fn apply(text: &[u8], splices: &[Splice]) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len());
    let mut at = 0;
    for s in splices {
        if s.range.start < at {
            continue;
        }
        out.extend_from_slice(&text[at..s.range.start]);
        push_separated(&mut out, &s.text);
        at = s.range.end;
        if let (Some(&a), Some(&b)) = (out.last(), text.get(at)) {
            if glue(a, b) {
                out.push(b' ');
            }
        }
    }
    out.extend_from_slice(&text[at..]);
    out
}

fn push_separated(out: &mut Vec<u8>, bytes: &[u8]) {
    if let (Some(&a), Some(&b)) = (out.last(), bytes.first()) {
        if glue(a, b) {
            out.push(b' ');
        }
    }
    out.extend_from_slice(bytes);
}

/// The state of the passes of one round: the language, the judge, the ddmin options and the
/// current (interesting) text.
pub(crate) struct Passes<'a> {
    pub lang: Lang,
    pub judge: &'a Judge,
    pub ddmin: DdminOptions,
    pub current: Vec<u8>,
    accepted: u64,
}

impl<'a> Passes<'a> {
    pub fn new(lang: Lang, judge: &'a Judge, ddmin: &DdminOptions, current: Vec<u8>) -> Self {
        let ddmin = DdminOptions {
            stop: Some(judge.stop_flag()),
            ..ddmin.clone()
        };
        Passes {
            lang,
            judge,
            ddmin,
            current,
            accepted: 0,
        }
    }

    fn jobs(&self) -> usize {
        self.ddmin.jobs.max(1)
    }

    /// Run one pass; returns the number of accepted candidates.
    pub fn run(&mut self, pass: Pass) -> u64 {
        self.accepted = 0;
        match pass {
            Pass::Literals => self.literals(),
            Pass::Rename => self.rename(),
            Pass::ReplaceIds => self.sequence(pass, replace_ids),
            Pass::Params => self.sequence(pass, params),
            Pass::Subtrees => self.sequence(pass, subtrees),
            Pass::Tokens => self.sequence(pass, tokens),
        }
        self.accepted
    }

    fn facts(&self) -> Option<Facts> {
        self.lang.facts(&self.current).ok()
    }

    fn accept(&mut self, candidate: Vec<u8>) {
        self.current = candidate;
        self.accepted += 1;
    }

    /// A sequence pass: `make` gives the candidates of the current text in order; the first
    /// interesting one is accepted, the sequence is made again from the new text, and the
    /// search goes on at the same position.
    fn sequence(&mut self, pass: Pass, make: fn(&[u8], Lang, &Facts) -> Vec<Vec<Splice>>) {
        let mut pos = 0;
        while !self.judge.is_cancelled() {
            let Some(facts) = self.facts() else { return };
            let candidates = make(&self.current, self.lang, &facts);
            if pos >= candidates.len() {
                return;
            }
            self.judge.set_phase(&format!(
                "{pass}: {} of {} candidates",
                pos,
                candidates.len()
            ));
            let current = &self.current;
            let rest = &candidates[pos..];
            let found = first_interesting(self.judge, current, self.jobs(), rest.len(), &|i| {
                Some(apply(current, &rest[i]))
            });
            match found {
                Some((i, candidate)) => {
                    self.accept(candidate);
                    pos += i;
                }
                None => return,
            }
        }
    }

    /// ddmin over `units` (each a list of splices): the configuration is the set of units
    /// left as they are, every other unit is applied. The configuration with no unit kept is
    /// tested first (ddmin never tests the empty configuration).
    fn keep_minimal(&mut self, units: &[Vec<Splice>]) {
        if units.is_empty() || self.judge.is_cancelled() {
            return;
        }
        let current = self.current.clone();
        let candidate = |kept: &[usize]| -> Vec<u8> {
            let kept: HashSet<usize> = kept.iter().copied().collect();
            let mut splices: Vec<Splice> = (0..units.len())
                .filter(|u| !kept.contains(u))
                .flat_map(|u| units[u].iter().cloned())
                .collect();
            splices.sort_by_key(|s| (s.range.start, s.range.end));
            apply(&current, &splices)
        };
        let all = candidate(&[]);
        if all != current && self.judge.test(&all) {
            self.accept(all);
            return;
        }
        if units.len() == 1 {
            return;
        }
        let test = |kept: &[usize]| {
            let c = candidate(kept);
            c == current || self.judge.test(&c)
        };
        let kept = ddmin_indices(units.len(), &test, &self.ddmin);
        if kept.len() < units.len() {
            let c = candidate(&kept);
            // The ddmin result is interesting (tested, or the unchanged text).
            if c != current {
                self.accept(c);
            }
        }
    }

    /// Literal shrinking: ddmin over the literals that keep their text (the others take their
    /// first replacement), then the later replacements of each remaining literal in turn.
    fn literals(&mut self) {
        let Some(facts) = self.facts() else { return };
        let units: Vec<Vec<Splice>> = facts
            .literals
            .iter()
            .filter_map(|l| {
                let first = l.replacements.first()?;
                Some(vec![Splice::new(l.range.clone(), first)])
            })
            .collect();
        self.keep_minimal(&units);
        self.sequence(Pass::Literals, |_, _, facts| {
            facts
                .literals
                .iter()
                .flat_map(|l| {
                    l.replacements
                        .iter()
                        .map(|r| vec![Splice::new(l.range.clone(), r)])
                })
                .collect()
        });
    }

    /// Identifier shortening: every spelling gets the shortest name not in the file (most
    /// frequent spellings first); ddmin finds the spellings that must keep their name.
    fn rename(&mut self) {
        let Some(facts) = self.facts() else { return };
        let plan = rename_plan(&self.current, self.lang, &facts);
        let units: Vec<Vec<Splice>> = plan
            .into_iter()
            .map(|(ranges, name)| ranges.into_iter().map(|r| Splice::new(r, &name)).collect())
            .collect();
        self.keep_minimal(&units);
    }
}

/// An identifier spelling and its occurrences (range, replacement group).
type Spelling = (Vec<u8>, Vec<(Range<usize>, Option<usize>)>);

/// Occurrences of each identifier spelling (in order of first occurrence), with groups.
fn spellings(text: &[u8], facts: &Facts) -> Vec<Spelling> {
    let mut index: HashMap<&[u8], usize> = HashMap::new();
    let mut out: Vec<Spelling> = Vec::new();
    for id in &facts.idents {
        let word = &text[id.range.clone()];
        let i = *index.entry(word).or_insert_with(|| {
            out.push((word.to_vec(), Vec::new()));
            out.len() - 1
        });
        out[i].1.push((id.range.clone(), id.group));
    }
    out
}

/// `a`, `b`, ..., `z`, `aa`, `ab`, ...: the n-th short name.
fn short_name(mut n: usize) -> Vec<u8> {
    let mut name = Vec::new();
    loop {
        name.push(b'a' + (n % 26) as u8);
        if n < 26 {
            break;
        }
        n = n / 26 - 1;
    }
    name.reverse();
    name
}

/// For each spelling worth renaming: its occurrences and its new name. The most frequent
/// spellings get the shortest names; a name is never a reserved word, a keyword, or any token
/// already in the file, and a spelling is only renamed to something shorter.
fn rename_plan(text: &[u8], lang: Lang, facts: &Facts) -> Vec<(Vec<Range<usize>>, Vec<u8>)> {
    let taken: HashSet<&[u8]> = facts.tokens.iter().map(|t| &text[t.clone()]).collect();
    let mut words = spellings(text, facts);
    words.retain(|(w, _)| !lang.is_reserved(w) && w.len() > 1);
    // Stable: ties keep the order of first occurrence.
    words.sort_by_key(|(w, occ)| std::cmp::Reverse(occ.len() * w.len()));
    let mut next = 0;
    let mut plan = Vec::new();
    for (word, occ) in words {
        let name = loop {
            let name = short_name(next);
            if !taken.contains(name.as_slice()) && !lang.is_reserved(&name) {
                break name;
            }
            next += 1;
        };
        if name.len() >= word.len() {
            continue;
        }
        next += 1;
        plan.push((occ.into_iter().map(|(r, _)| r).collect(), name));
    }
    plan
}

/// How many other spellings (besides the group's extra words) `replace-ids` tries for each
/// identifier.
const REPLACE_TARGETS: usize = 3;

/// Identifier replacement: for each spelling X that occurs more than once, every occurrence
/// but the first (usually its declaration) becomes another spelling Y of the same group:
/// first the group's extra words, then the group's most frequent spellings. Y is never longer
/// than X (a candidate never grows the text: measured on the JRTS inputs, `x` -> `undefined`
/// made outputs larger), and is a reserved word (an extra such as `int`, never renamed or
/// replaced itself) or comes before X in the order (length, bytes), so occurrences only ever
/// move down that order and the pass ends.
fn replace_ids(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let words = spellings(text, facts);
    let mut by_group: BTreeMap<usize, Vec<(usize, &[u8])>> = BTreeMap::new();
    for (w, occ) in &words {
        let groups: HashSet<usize> = occ.iter().filter_map(|(_, g)| *g).collect();
        for g in groups {
            let count = occ.iter().filter(|(_, h)| *h == Some(g)).count();
            by_group.entry(g).or_default().push((count, w.as_slice()));
        }
    }
    for list in by_group.values_mut() {
        list.sort_by_key(|&(count, _)| std::cmp::Reverse(count));
    }
    let mut out = Vec::new();
    for (word, occ) in &words {
        if lang.is_reserved(word) {
            continue;
        }
        let mut groups: Vec<usize> = occ.iter().filter_map(|(_, g)| *g).collect();
        groups.dedup();
        for g in groups {
            let places: Vec<Range<usize>> = occ
                .iter()
                .filter(|(_, h)| *h == Some(g))
                .map(|(r, _)| r.clone())
                .collect();
            if places.len() < 2 {
                continue;
            }
            let extras = facts.group_extras.get(g).into_iter().flatten();
            let others = by_group
                .get(&g)
                .into_iter()
                .flatten()
                .map(|&(_, w)| w)
                .filter(|w| (w.len(), *w) < (word.len(), word.as_slice()))
                .take(REPLACE_TARGETS);
            let mut seen = HashSet::new();
            for target in extras.map(Vec::as_slice).chain(others) {
                let extra = lang.is_reserved(target) && target.len() <= word.len();
                let lower = (target.len(), target) < (word.len(), word.as_slice());
                if !(extra || lower) || !seen.insert(target) {
                    continue;
                }
                out.push(
                    places[1..]
                        .iter()
                        .map(|r| Splice::new(r.clone(), target))
                        .collect(),
                );
            }
        }
    }
    out
}

/// The splice removing element `i` of a list, with one separator next to it.
fn remove_element(elems: &[Range<usize>], i: usize) -> Splice {
    let range = if i + 1 < elems.len() {
        elems[i].start..elems[i + 1].start
    } else if i > 0 {
        elems[i - 1].end..elems[i].end
    } else {
        elems[i].clone()
    };
    Splice::new(range, b"")
}

/// Parameter removal: for each function name and parameter position (last first), the
/// parameter removed from every function of that name and the argument at that position from
/// every call of that name, in one candidate.
fn params(_text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let mut names: Vec<&[u8]> = Vec::new();
    let mut arity: HashMap<&[u8], usize> = HashMap::new();
    for f in &facts.functions {
        if !arity.contains_key(f.name.as_slice()) {
            names.push(&f.name);
        }
        let a = arity.entry(&f.name).or_default();
        *a = (*a).max(f.elems.len());
    }
    let mut out = Vec::new();
    for name in names {
        for i in (0..arity[name]).rev() {
            let mut splices: Vec<Splice> = facts
                .functions
                .iter()
                .chain(&facts.calls)
                .filter(|s| s.name == name && i < s.elems.len())
                .map(|s| remove_element(&s.elems, i))
                .collect();
            splices.sort_by_key(|s| (s.range.start, s.range.end));
            splices.dedup();
            out.push(splices);
        }
    }
    out
}

/// How many shorter compatible nodes `subtrees` tries for each node.
const SUBTREE_TARGETS: usize = 2;

/// Sub-tree replacement: each node (largest first) replaced by the shortest compatible nodes
/// elsewhere in the tree (not its ancestors or descendants) whose text is shorter.
fn subtrees(text: &[u8], lang: Lang, _facts: &Facts) -> Vec<Vec<Splice>> {
    let Ok(tree) = RTree::build(lang, text) else {
        return Vec::new();
    };
    let nodes: Vec<_> = tree
        .preorder()
        .into_iter()
        .filter(|&n| !tree.is_hidden(n) && tree.parent(n).is_some())
        .collect();
    let mut by_len = nodes.clone();
    by_len.sort_by_key(|&n| (tree.span(n).len(), tree.span(n).start));
    let mut sources: Vec<_> = nodes
        .iter()
        .copied()
        .filter(|&n| !tree.is_token(n))
        .collect();
    sources.sort_by_key(|&n| (std::cmp::Reverse(tree.span(n).len()), tree.span(n).start));
    let mut out = Vec::new();
    for n in sources {
        let span = tree.span(n);
        let own = &text[span.clone()];
        let mut texts: Vec<&[u8]> = Vec::new();
        for &m in &by_len {
            let other = tree.span(m);
            if other.len() >= span.len() || texts.len() == SUBTREE_TARGETS {
                break;
            }
            let related = other.start < span.end && span.start < other.end;
            let t = &text[other];
            if related || t.is_empty() || t == own || texts.contains(&t) {
                continue;
            }
            if tree.compatible(n, m) {
                texts.push(t);
            }
        }
        out.extend(
            texts
                .into_iter()
                .map(|t| vec![Splice::new(span.clone(), t)]),
        );
    }
    out
}

/// Local exhaustive token search: every set of tokens inside a window of at most three
/// adjacent tokens, each set once (enumerated from its first token): `{i}`, `{i, i+1}`,
/// `{i, i+2}`, `{i, i+1, i+2}`.
fn tokens(_text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let t = &facts.tokens;
    let remove = |i: usize| Splice::new(t[i].clone(), b"");
    let mut out = Vec::new();
    for i in 0..t.len() {
        out.push(vec![remove(i)]);
        if i + 1 < t.len() {
            out.push(vec![remove(i), remove(i + 1)]);
        }
        if i + 2 < t.len() {
            out.push(vec![remove(i), remove(i + 2)]);
            out.push(vec![remove(i), remove(i + 1), remove(i + 2)]);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::{FnOracle, JudgeOptions};

    fn run(lang: Lang, src: &str, pass: Pass, oracle: fn(&str) -> bool) -> (String, u64) {
        let f = FnOracle::new(move |c: &[u8]| oracle(std::str::from_utf8(c).unwrap_or("")));
        let oracle = Arc::new(f);
        let judge = Judge::new(Box::new(Arc::clone(&oracle)), JudgeOptions::default());
        let mut p = Passes::new(
            lang,
            &judge,
            &DdminOptions::default(),
            src.as_bytes().into(),
        );
        p.run(pass);
        (String::from_utf8(p.current).unwrap(), oracle.runs())
    }

    #[test]
    fn apply_separates_glued_tokens() {
        let s = [Splice::new(1..4, b"")];
        assert_eq!(apply(b"a + b", &s), b"a b");
        assert_eq!(apply(b"a(b)", &[Splice::new(1..2, b"")]), b"a b)");
        assert_eq!(apply(b"x=y", &[Splice::new(2..3, b"zz")]), b"x=zz");
    }

    #[test]
    fn short_names() {
        let names: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
            .map(|n| String::from_utf8(short_name(n)).unwrap())
            .to_vec();
        assert_eq!(names, ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
    }

    #[test]
    fn rename_avoids_names_in_the_file_and_keywords() {
        let src = "int a; int b; int do_it(int value) { return value + a + b; }";
        let (out, _) = run(Lang::C, src, Pass::Rename, |c| !c.contains("a;  int a;"));
        assert_eq!(out, "int a; int b; int d(int c) { return c + a + b; }");
        // Names that are keywords (`do`, `if`) are skipped.
        let many: String = (0..120).map(|i| format!("int long_name_{i};")).collect();
        let (out, _) = run(Lang::C, &many, Pass::Rename, |_| true);
        assert!(!out.contains(" do;") && !out.contains(" if;"), "{out}");
        assert!(out.contains(" dn;") && out.contains(" dp;"), "{out}");
    }

    #[test]
    fn rename_keeps_what_the_oracle_needs_in_few_runs() {
        let src = "int counter; int helper(int value) { return value; }\n\
                   int main(void) { return helper(counter); }";
        let (out, runs) = run(Lang::C, src, Pass::Rename, |c| c.contains("helper"));
        assert_eq!(
            out,
            "int a; int helper(int c) { return c; }\nint main(void) { return helper(a); }"
        );
        assert!(runs <= 6, "{runs}");
    }

    #[test]
    fn literals_shrink_together_and_alone() {
        let src = "int x = 0x5BL; int y = 1234; char *s = \"long string\"; int z = 77;";
        let (out, _) = run(Lang::C, src, Pass::Literals, |c| !c.contains("z = 0"));
        assert_eq!(out, "int x = 0; int y = 0; char *s = \"\"; int z = 1;");
        let (out, _) = run(
            Lang::JavaScript,
            "f('abc', `t${x}`, 3.14);",
            Pass::Literals,
            |_| true,
        );
        assert_eq!(out, "f(\"\", ``, 0);");
    }

    #[test]
    fn params_go_with_their_arguments() {
        let src = "int f(int a, int b, int c) { return a + c; }\nint main() { return f(1, 2, 3) + f(4, 5, 6); }";
        let (out, _) = run(Lang::C, src, Pass::Params, |c| {
            ["int a", "int c", "a + c", "1", "3", "4", "6"]
                .iter()
                .all(|w| c.contains(w))
        });
        assert_eq!(
            out,
            "int f(int a, int c) { return a + c; }\nint main() { return f(1, 3) + f(4, 6); }"
        );
    }

    #[test]
    fn replace_ids_makes_declarations_dead() {
        let src = "typedef long Type1; typedef long Type2; Type1 x; Type2 y; Type2 z;";
        let (out, _) = run(Lang::C, src, Pass::ReplaceIds, |c| c.contains("typedef"));
        assert_eq!(
            out,
            "typedef long Type1; typedef long Type2; int x; int y; int z;"
        );
        // Never longer: `T` cannot become `int`, but `U` can become `T`.
        let src = "typedef long T; typedef long U; T x; U y; U z;";
        let (out, _) = run(Lang::C, src, Pass::ReplaceIds, |c| c.contains("typedef"));
        assert_eq!(out, "typedef long T; typedef long U; T x; T y; T z;");
    }

    #[test]
    fn subtrees_use_shorter_compatible_nodes_anywhere() {
        let src = "int f(int a) { return a * (a + 2); }\nint g(void) { return 0; }";
        let (out, _) = run(Lang::C, src, Pass::Subtrees, |c| c.contains("int f(int a)"));
        assert!(out.contains("return 0;") && !out.contains("a + 2"), "{out}");
    }

    #[test]
    fn token_search_removes_what_no_node_boundary_allows() {
        let (out, _) = run(Lang::C, "int main() { return 0; }", Pass::Tokens, |c| {
            c.contains("main")
        });
        assert!(out.len() < "int main() { return 0; }".len(), "{out}");
        assert!(!out.starts_with("int"), "{out}");
    }

    #[test]
    fn pass_names_round_trip() {
        for p in Pass::ALL {
            assert_eq!(Pass::from_name(p.name()), Some(p));
        }
        assert_eq!(
            Pass::parse_list("tokens, rename,tokens").unwrap(),
            [Pass::Rename, Pass::Tokens]
        );
        assert!(Pass::parse_list("rename,bogus")
            .unwrap_err()
            .contains("bogus"));
    }
}
