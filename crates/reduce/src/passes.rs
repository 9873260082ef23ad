//! Transformation passes beyond deletion. Each pass either shrinks the text
//! directly or opens new deletions to the next round of the tree algorithm:
//!
//! - `inline`: a definition (C's `typedef`, from `[[inline]]` in passes.toml) inlined into
//!   every use and removed (C-Reduce's typedef inlining); also a declaration of one variable
//!   with a value, inlined into the rest of its scope (C-Vise's copy-propagation).
//! - `inline-calls`: a call of a function whose body is one `return` of a value replaced by
//!   that value, with the parameters replaced by the arguments; in GNU C, every call of a
//!   function replaced by its body with the parameters bound to the arguments (C-Reduce's
//!   inliner).
//! - `rewrite`: grammar-data rewrites such as C's `if (c) s` to `(c);` (C-Reduce's
//!   `simplify-if`), from `[[rewrites]]` in passes.toml, GNU C's statement expressions
//!   opened up (`[[unwraps]]`), and declarations merged into earlier ones (`[[merges]]`:
//!   C-Reduce's combine-local-var, combine-global-var and local-to-global).
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
//! Every pass works on a fresh parse of the current text ([`Lang::facts`], kept for the next
//! pass while the text does not change: [`FactsCache`]) and produces candidates as splices of
//! that text. `rename` and the first step of `literals` are ddmin over the set of units that
//! keep their old text, so most changes are accepted together in a few oracle runs; the
//! others are *sequences* of candidates run by the speculative driver
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
use std::sync::Arc;

use treedd_tree::{glue, Bindings, Facts, Inlinable, Lang, ListSite};

use crate::ddmin::ddmin_indices_ahead;
use crate::driver::first_interesting;
use crate::session::{candidate_test, JudgeAhead};
use crate::{DdminOptions, Judge};

/// A transformation pass. [`Pass::ALL`] is also the order in which a round runs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Pass {
    Literals,
    Inline,
    InlineCalls,
    Rewrite,
    ReplaceIds,
    Rename,
    Params,
    Subtrees,
    Tokens,
}

impl Pass {
    /// Every pass, in the order a round runs them: identifier replacement before renaming
    /// (while names are long, `int32_t` -> `int` shortens the text; after renaming it would
    /// lengthen it), token search last, as in Vulcan.
    pub const ALL: [Pass; 9] = [
        Pass::Literals,
        Pass::Inline,
        Pass::InlineCalls,
        Pass::Rewrite,
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
            Pass::Inline => "inline",
            Pass::InlineCalls => "inline-calls",
            Pass::Rewrite => "rewrite",
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
    facts: &'a FactsCache,
}

impl<'a> Passes<'a> {
    pub fn new(
        lang: Lang,
        judge: &'a Judge,
        ddmin: &DdminOptions,
        current: Vec<u8>,
        facts: &'a FactsCache,
    ) -> Self {
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
            facts,
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
            Pass::Inline => self.sequence(pass, inline),
            Pass::InlineCalls => self.sequence(pass, inline_calls),
            Pass::Rewrite => self.sequence(pass, rewrite),
            Pass::Rename => self.rename(),
            Pass::ReplaceIds => self.sequence(pass, replace_ids),
            Pass::Params => self.sequence(pass, params),
            Pass::Subtrees => self.sequence(pass, subtrees),
            Pass::Tokens => self.sequence(pass, tokens),
        }
        self.accepted
    }

    fn facts(&self) -> Option<Arc<Facts>> {
        self.facts.get(self.lang, &self.current)
    }

    fn accept(&mut self, candidate: Vec<u8>) {
        self.current = candidate;
        self.accepted += 1;
    }

    /// A sequence pass: `make` gives the candidates of the current text in order; the first
    /// interesting one is accepted, the sequence is made again from the new text, and the
    /// search goes on at the same position.
    fn sequence(&mut self, pass: Pass, make: Make) {
        let mut pos = 0;
        while !self.judge.is_cancelled() {
            let Some(candidates) = self.facts.sequence(self.lang, &self.current, pass, make) else {
                return;
            };
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
            // No candidate may make the text longer (see the module docs).
            let found = first_interesting(self.judge, current, self.jobs(), rest.len(), &|i| {
                Some(apply(current, &rest[i])).filter(|c| c.len() <= current.len())
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
        let candidate = |kept: &[usize]| keeping(&current, units, kept);
        let all = candidate(&[]);
        if all != current && self.judge.test(&all) {
            self.accept(all);
            return;
        }
        if units.len() == 1 {
            return;
        }
        let test = |kept: &[usize]| candidate_test(self.judge, &current, &candidate(kept));
        let ahead = JudgeAhead {
            judge: self.judge,
            candidate: &candidate,
            then: None,
        };
        let kept = ddmin_indices_ahead(units.len(), &test, &self.ddmin, Some(&ahead));
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
        self.judge.set_phase("literals");
        self.keep_minimal(&literal_units(&facts));
        self.sequence(Pass::Literals, literal_replacements);
    }

    /// Identifier shortening: every spelling gets the shortest name not in the file (most
    /// frequent spellings first); ddmin finds the spellings that must keep their name.
    fn rename(&mut self) {
        let Some(facts) = self.facts() else { return };
        self.judge.set_phase("rename");
        self.keep_minimal(&rename_units(&self.current, self.lang, &facts));
    }
}

/// `current` with every unit of `units` applied but those in `kept` (see `keep_minimal`).
fn keeping(current: &[u8], units: &[Vec<Splice>], kept: &[usize]) -> Vec<u8> {
    let kept: HashSet<usize> = kept.iter().copied().collect();
    let mut splices: Vec<Splice> = (0..units.len())
        .filter(|u| !kept.contains(u))
        .flat_map(|u| units[u].iter().cloned())
        .collect();
    splices.sort_by_key(|s| (s.range.start, s.range.end));
    apply(current, &splices)
}

/// The units of `literals`' ddmin: each literal with its first replacement.
fn literal_units(facts: &Facts) -> Vec<Vec<Splice>> {
    facts
        .literals
        .iter()
        .filter_map(|l| {
            let first = l.replacements.first()?;
            Some(vec![Splice::new(l.range.clone(), first)])
        })
        .collect()
}

/// The sequence of `literals` after its ddmin: every replacement of every literal.
fn literal_replacements(_: &[u8], _: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    facts
        .literals
        .iter()
        .flat_map(|l| {
            l.replacements
                .iter()
                .map(|r| vec![Splice::new(l.range.clone(), r)])
        })
        .collect()
}

/// The units of `rename`'s ddmin: each spelling renamed everywhere.
fn rename_units(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    rename_plan(text, lang, facts)
        .into_iter()
        .map(|(ranges, name)| ranges.into_iter().map(|r| Splice::new(r, &name)).collect())
        .collect()
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
/// than X (a candidate never grows the text: on the JRTS inputs, `x` -> `undefined` makes
/// outputs larger), and is a reserved word (an extra such as `int`, never renamed or
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

/// Definition inlining (C-Reduce's typedef inlining, from `[[inline]]` in passes.toml): every
/// other occurrence of a defined name becomes the definition's body, and the definition goes,
/// in one candidate (kept only if the text does not grow).
fn inline(text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let mut out = Vec::new();
    for d in &facts.definitions {
        let mut splices: Vec<Splice> = facts
            .idents
            .iter()
            .filter(|id| {
                id.range != d.name_range
                    && within(&id.range, &d.scope)
                    && &text[id.range.clone()] == d.name.as_slice()
                    && !(d.range.start <= id.range.start && id.range.end <= d.range.end)
            })
            .map(|id| Splice::new(id.range.clone(), &d.body))
            .collect();
        splices.push(Splice::new(d.range.clone(), b""));
        splices.sort_by_key(|s| (s.range.start, s.range.end));
        out.push(splices);
    }
    out
}

/// `inner` lies within `outer`.
fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Only the candidates that make the text strictly shorter (what guarantees that a pass which
/// may also add text, such as `inline-calls`, ends). Without building the candidate where the
/// splices' own lengths decide: `apply` adds at most two glue spaces per splice.
fn shorter_only(text: &[u8], candidates: Vec<Vec<Splice>>) -> Vec<Vec<Splice>> {
    candidates
        .into_iter()
        .filter(|s| {
            let removed: usize = s.iter().map(|x| x.range.len()).sum();
            let added: usize = s.iter().map(|x| x.text.len() + 2).sum();
            added < removed || apply(text, s).len() < text.len()
        })
        .collect()
}

/// Call inlining (C-Reduce's inliner). A call of a function whose body is one `return` of a
/// value becomes that value, with each parameter replaced by its argument (parenthesized
/// unless it is one token): first every call at once with the definition removed (unless the
/// function calls itself), then each call alone. A function that returns no value and is
/// called only as statements of their own (`a(0 - Math);`) has each call statement become its
/// body's statements (then, failing that, its body with the braces), with the arguments in
/// place of the parameters, and the definition removed (where `[[calls]]` names the
/// `statement` kind). Where the language has call bindings
/// (`[bindings]`, GNU C's statement expression), every call of a function whose body has no
/// early `return` at once becomes the body, each parameter declared and initialized with its
/// argument, with the definition removed (C-Reduce's `simple-inliner`, which keeps an
/// argument evaluated once where substituting it would not): `b(e(), g)` ->
/// `({int c=e();long d=g;c^d;})`. Only candidates that shorten the text.
fn inline_calls(text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let one_token = |r: &Range<usize>| {
        facts
            .tokens
            .binary_search_by_key(&r.start, |t| t.start)
            .is_ok_and(|i| facts.tokens[i] == *r)
    };
    let wrap = |r: &Range<usize>, bytes: &[u8]| -> Vec<u8> {
        if one_token(r) {
            bytes.to_vec()
        } else {
            [b"(", bytes, b")"].concat()
        }
    };
    let mut by_name: HashMap<&[u8], Vec<&ListSite>> = HashMap::new();
    for c in &facts.calls {
        by_name.entry(&c.name).or_default().push(c);
    }
    // Identifier occurrences are in source order.
    let idents_in = |r: &Range<usize>| -> Vec<&Range<usize>> {
        let first = facts.idents.partition_point(|id| id.range.start < r.start);
        facts.idents[first..]
            .iter()
            .map(|id| &id.range)
            .take_while(|i| i.start < r.end)
            .filter(|i| within(i, r))
            .collect()
    };
    let mut out = Vec::new();
    for f in &facts.inlinable {
        let calls: Vec<&ListSite> = by_name
            .get(f.name.as_slice())
            .into_iter()
            .flatten()
            .copied()
            .filter(|c| c.elems.len() == f.params.len() && !within(&c.range, &f.owner))
            .collect();
        if calls.is_empty()
            || idents_in(&f.body)
                .iter()
                .any(|r| text[(*r).clone()] == *f.name)
        {
            // Not called, or recursive.
            continue;
        }
        let without_definition = |mut splices: Vec<Splice>| {
            splices.push(Splice::new(f.owner.clone(), b""));
            splices.sort_by_key(|s| (s.range.start, s.range.end));
            splices
        };
        // `range` of the text with each parameter replaced by the call's argument.
        let substituted = |range: &Range<usize>, call: &ListSite| -> Vec<u8> {
            let subs: Vec<Splice> = idents_in(range)
                .iter()
                .filter_map(|r| {
                    let i = f
                        .params
                        .iter()
                        .position(|p| p.as_slice() == &text[(*r).clone()])?;
                    let arg = &call.elems[i];
                    let at = r.start - range.start..r.end - range.start;
                    Some(Splice::new(at, &wrap(arg, &text[arg.clone()])))
                })
                .collect();
            apply(&text[range.clone()], &subs)
        };
        // A body that is one `return`: each call becomes the value, the arguments spliced in.
        let values: Option<Vec<Splice>> =
            f.expr.as_ref().filter(|_| f.stmts.is_empty()).map(|expr| {
                calls
                    .iter()
                    .map(|c| Splice::new(c.range.clone(), &wrap(expr, &substituted(expr, c))))
                    .collect()
            });
        if let Some(values) = &values {
            out.push(without_definition(values.clone()));
        }
        // A function that returns no value, called only as statements of their own (`f(x);`):
        // each call statement becomes the body's statements, the arguments spliced in
        // (C-Reduce's inliner, as a splice); then the same with the braces, so that the body's
        // locals keep their scope.
        if f.expr.is_none() && calls.iter().all(|c| c.stmt.is_some()) {
            let inner = match (f.stmts.first(), f.stmts.last()) {
                (Some(a), Some(b)) => a.start..b.end,
                _ => f.body.start..f.body.start,
            };
            for range in [&inner, &f.body] {
                out.push(without_definition(
                    calls
                        .iter()
                        .filter_map(|c| Some(Splice::new(c.stmt.clone()?, &substituted(range, c))))
                        .collect(),
                ));
            }
        }
        if let Some(b) = &facts.bindings {
            out.push(without_definition(
                calls.iter().map(|c| bound(text, f, c, b)).collect(),
            ));
        }
        out.extend(values.into_iter().flatten().map(|v| vec![v]));
    }
    shorter_only(text, out)
}

/// The call `call` of `f` replaced by `f`'s body with bound parameters (see [`inline_calls`]).
fn bound(text: &[u8], f: &Inlinable, call: &ListSite, b: &Bindings) -> Splice {
    let mut body = b.open.clone();
    for (decl, arg) in f.param_decls.iter().zip(&call.elems) {
        push_separated(&mut body, &b.bind(&text[decl.clone()], &text[arg.clone()]));
    }
    for s in &f.stmts {
        push_separated(&mut body, &text[s.clone()]);
    }
    if let Some(e) = &f.expr {
        push_separated(&mut body, &text[e.clone()]);
    }
    push_separated(&mut body, &b.close);
    Splice::new(call.range.clone(), &body)
}

/// Rewrites from `[[rewrites]]` in passes.toml (C's `if (c) s` to `(c);`, C-Reduce's
/// `simplify-if`), in source order. A template turns one structure into a smaller one of
/// another form, the idea of SFC's smaller-structure replacement (Xu et al., "Boosting Program
/// Reduction with the Missing Piece of Syntax-Guided Transformations", OOPSLA 2025), there
/// derived from the grammar, here written per language as data.
/// Then the unwraps from `[[unwraps]]` (GNU C's statement expressions, which `inline-calls`
/// writes, opened up: `if (({int b = x; b + 1;})) s` -> `int b = x; if (b + 1) s`).
fn rewrite(text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    let rewrites = facts
        .rewrites
        .iter()
        .map(|(r, t)| vec![Splice::new(r.clone(), t)]);
    let edits = |e: &[(Range<usize>, Vec<u8>)]| -> Vec<Splice> {
        e.iter().map(|(r, t)| Splice::new(r.clone(), t)).collect()
    };
    let unwraps = facts.unwraps.iter().map(|u| edits(u));
    let merges = facts.merges.iter().map(|m| edits(m));
    shorter_only(text, rewrites.chain(unwraps).chain(merges).collect())
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

mod ahead;
mod facts_cache;
pub(crate) use facts_cache::FactsCache;
use facts_cache::Make;
#[cfg(test)]
mod tests;
mod vulcan;

use vulcan::{subtrees, tokens};
