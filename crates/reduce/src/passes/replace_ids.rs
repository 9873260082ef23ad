//! `replace-ids` (before `rename`, see [`Pass::ALL`](super::Pass::ALL)): every later
//! occurrence of one identifier replaced by another identifier of the same group (or a
//! grammar `extra` such as C's `int`), so that the first one's declaration becomes dead
//! (Vulcan's identifier replacement).

use std::collections::{BTreeMap, HashSet};
use std::ops::Range;

use treedd_tree::{Facts, Lang};

use super::rename::spellings;
use super::splice::Splice;

/// How many other spellings (besides the group's extra words) `replace-ids` tries for each
/// identifier.
pub(super) const REPLACE_TARGETS: usize = 3;

/// Identifier replacement: for each spelling X that occurs more than once, every occurrence
/// but the first (usually its declaration) becomes another spelling Y of the same group:
/// first the group's extra words, then the group's most frequent spellings. Y is never longer
/// than X (a candidate never grows the text: on the JRTS inputs, `x` -> `undefined` makes
/// outputs larger), and is a fixed word (an extra such as `int`, never renamed or replaced
/// itself) or comes before X in the order (length, bytes), so occurrences only ever
/// move down that order and the pass ends. A library's name ([`Facts::library`]: Java's
/// `String`) has no declaration among its occurrences: every one of them is replaced, even a
/// single one, and only by a shorter Y, since no declaration becomes dead. A name declared
/// once may also give way to a longer extra word with its declaration ([`retirements`]).
pub(super) fn candidates(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
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
        if lang.is_fixed(word) {
            continue;
        }
        // Each group once, in the order of its first occurrence: a word whose occurrences
        // alternate between groups (a C tag and a variable `s`) gives each candidate once.
        let mut groups: Vec<usize> = Vec::new();
        for g in occ.iter().filter_map(|(_, g)| *g) {
            if !groups.contains(&g) {
                groups.push(g);
            }
        }
        for g in groups {
            let places: Vec<Range<usize>> = occ
                .iter()
                .filter(|(_, h)| *h == Some(g))
                .map(|(r, _)| r.clone())
                .collect();
            // A library's name (declared nowhere in the file) has no declaration among its
            // occurrences: all of them are replaced, even a single one.
            let library = facts.library.contains(word);
            let first = usize::from(!library);
            out.extend(retirements(facts, word, occ, g));
            if places.len() <= first {
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
                let extra = lang.is_fixed(target) && target.len() <= word.len();
                let lower = (target.len(), target) < (word.len(), word.as_slice());
                // Replacing a library's name makes no declaration dead: only a shorter
                // spelling pays.
                let pays = !library || target.len() < word.len();
                if !(extra || lower) || !pays || !seen.insert(target) {
                    continue;
                }
                out.push(
                    places[first..]
                        .iter()
                        .map(|r| Splice::new(r.clone(), target))
                        .collect(),
                );
            }
        }
    }
    out
}

/// A name the file declares once ([`Facts::declared_at`]: Java's `interface D {}`) replaced at
/// every occurrence `occ` outside its declaration, when all of those are of group `g`, by a
/// longer extra word of the group (`Object`), with the declaration removed: the text shrinks
/// when the declaration weighs more than the longer uses.
fn retirements(
    facts: &Facts,
    word: &[u8],
    occ: &[(Range<usize>, Option<usize>)],
    g: usize,
) -> Vec<Vec<Splice>> {
    let Some([declaration]) = facts.declared_at.get(word).map(Vec::as_slice) else {
        return Vec::new();
    };
    let outside = |r: &Range<usize>| r.end <= declaration.start || r.start >= declaration.end;
    let uses: Vec<&Range<usize>> = (occ.iter())
        .filter(|(r, _)| outside(r))
        .map(|(r, h)| (*h == Some(g)).then_some(r))
        .collect::<Option<_>>()
        .unwrap_or_default();
    if uses.is_empty() {
        return Vec::new();
    }
    let extras = facts.group_extras.get(g).into_iter().flatten();
    extras
        .filter(|target| target.len() > word.len())
        .filter(|target| uses.len() * (target.len() - word.len()) < declaration.len())
        .map(|target| {
            let mut splices: Vec<Splice> = (uses.iter())
                .map(|r| Splice::new((*r).clone(), target))
                .collect();
            splices.push(Splice::new(declaration.clone(), b""));
            splices.sort_by_key(|s| s.range.start);
            splices
        })
        .collect()
}
