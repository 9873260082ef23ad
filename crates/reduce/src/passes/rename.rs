//! `rename`: every identifier spelling renamed consistently to the shortest name that does
//! not occur in the file (C-Reduce's renaming pass, done language-agnostically); ddmin finds
//! the spellings that must keep their name.

use std::collections::{HashMap, HashSet};
use std::ops::Range;

use treedd_tree::{Facts, Lang};

use super::splice::Splice;
use super::Passes;

impl Passes<'_> {
    /// Identifier shortening: every spelling gets the shortest name not in the file (most
    /// frequent spellings first); ddmin finds the spellings that must keep their name.
    pub(super) fn rename(&mut self) {
        let Some(facts) = self.facts() else { return };
        self.judge.phase("rename");
        self.keep_minimal(&units(&self.current, self.lang, &facts));
    }
}

/// The units of `rename`'s ddmin: each spelling renamed everywhere.
pub(super) fn units(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
    rename_plan(text, lang, facts)
        .into_iter()
        .map(|(ranges, name)| ranges.into_iter().map(|r| Splice::new(r, &name)).collect())
        .collect()
}

/// An identifier spelling and its occurrences (range, replacement group).
pub(super) type Spelling = (Vec<u8>, Vec<(Range<usize>, Option<usize>)>);

/// Occurrences of each identifier spelling (in order of first occurrence), with groups.
pub(super) fn spellings(text: &[u8], facts: &Facts) -> Vec<Spelling> {
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
pub(super) fn short_name(mut n: usize) -> Vec<u8> {
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

/// The first short name from the `next`-th on that `usable` accepts, for `word`: with its
/// first letter in upper case when `word`'s is (the case of a name's first letter can matter:
/// Go exports the names that start with a capital, Haskell's constructors must, and a type
/// keeps looking like one). `next` is left at that name's place in the sequence.
pub(super) fn fresh_name(next: &mut usize, word: &[u8], usable: impl Fn(&[u8]) -> bool) -> Vec<u8> {
    loop {
        let mut name = short_name(*next);
        if word.first().is_some_and(u8::is_ascii_uppercase) {
            name[0] = name[0].to_ascii_uppercase();
        }
        if usable(&name) {
            return name;
        }
        *next += 1;
    }
}

/// For each spelling worth renaming: its occurrences and its new name. The most frequent
/// spellings get the shortest names, capitalised as the spelling is; a fixed word is never
/// renamed, nor a library's name ([`Facts::library`]), a name is never a reserved word, a
/// keyword, or any token already in the file, and a spelling is only renamed to something
/// shorter.
fn rename_plan(text: &[u8], lang: Lang, facts: &Facts) -> Vec<(Vec<Range<usize>>, Vec<u8>)> {
    let taken: HashSet<&[u8]> = facts.tokens.iter().map(|t| &text[t.clone()]).collect();
    let mut words = spellings(text, facts);
    words.retain(|(w, _)| !lang.is_fixed(w) && w.len() > 1 && !facts.library.contains(w));
    // Stable: ties keep the order of first occurrence.
    words.sort_by_key(|(w, occ)| std::cmp::Reverse(occ.len() * w.len()));
    let mut next = 0;
    let mut plan = Vec::new();
    for (word, occ) in words {
        let name = fresh_name(&mut next, &word, |n| {
            !taken.contains(n) && !lang.is_reserved(n)
        });
        if name.len() >= word.len() {
            continue;
        }
        next += 1;
        plan.push((occ.into_iter().map(|(r, _)| r).collect(), name));
    }
    plan
}
