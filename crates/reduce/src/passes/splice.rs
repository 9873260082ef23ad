//! The passes' candidates as edits of the current text: a [`Splice`] replaces a byte range,
//! [`apply`] applies a candidate's splices (keeping tokens apart), and the helpers every
//! pass shares.

use std::collections::HashSet;
use std::ops::Range;

use treedd_tree::glue;

/// A change to the current text: `range` becomes `text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Splice {
    pub(super) range: Range<usize>,
    pub(super) text: Vec<u8>,
}

impl Splice {
    pub(super) fn new(range: Range<usize>, text: &[u8]) -> Splice {
        Splice {
            range,
            text: text.to_vec(),
        }
    }
}

/// `text` with the splices (sorted by start, not overlapping) applied. Where a splice would
/// glue two tokens into one (`a` `b` after removing what was between them), a space goes
/// between them.
pub(super) fn apply(text: &[u8], splices: &[Splice]) -> Vec<u8> {
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

pub(super) fn push_separated(out: &mut Vec<u8>, bytes: &[u8]) {
    if let (Some(&a), Some(&b)) = (out.last(), bytes.first()) {
        if glue(a, b) {
            out.push(b' ');
        }
    }
    out.extend_from_slice(bytes);
}

/// A splice that goes with a set of units of `keep_minimal`: it is applied when all of them
/// are (a declaration removed with the last bodies that use it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) struct Tie {
    pub(super) units: Vec<usize>,
    pub(super) splice: Splice,
}

/// `current` with every unit of `units` applied but those in `kept` (see `keep_minimal`), and
/// the splices of the `ties` all of whose units are applied.
pub(super) fn keeping_tied(
    current: &[u8],
    units: &[Vec<Splice>],
    ties: &[Tie],
    kept: &[usize],
) -> Vec<u8> {
    let kept: HashSet<usize> = kept.iter().copied().collect();
    apply(current, &applied(units, ties, |u| !kept.contains(&u)))
}

/// The splices of the units for which `applies` holds and of the `ties` all of whose units
/// it holds for, sorted.
pub(super) fn applied(
    units: &[Vec<Splice>],
    ties: &[Tie],
    applies: impl Fn(usize) -> bool,
) -> Vec<Splice> {
    let mut splices: Vec<Splice> = (0..units.len())
        .filter(|&u| applies(u))
        .flat_map(|u| units[u].iter().cloned())
        .collect();
    splices.extend(
        ties.iter()
            .filter(|t| t.units.iter().all(|&u| applies(u)))
            .map(|t| t.splice.clone()),
    );
    splices.sort_by_key(|s| (s.range.start, s.range.end));
    splices
}

/// `inner` lies within `outer`.
pub(super) fn within(inner: &Range<usize>, outer: &Range<usize>) -> bool {
    outer.start <= inner.start && inner.end <= outer.end
}

/// Only the candidates that make the text strictly shorter (what guarantees that a pass which
/// may also add text, such as `inline-calls`, ends). Without building the candidate where the
/// splices' own lengths decide: `apply` adds at most two glue spaces per splice.
pub(super) fn shorter_only(text: &[u8], candidates: Vec<Vec<Splice>>) -> Vec<Vec<Splice>> {
    candidates
        .into_iter()
        .filter(|s| {
            let removed: usize = s.iter().map(|x| x.range.len()).sum();
            let added: usize = s.iter().map(|x| x.text.len() + 2).sum();
            added < removed || apply(text, s).len() < text.len()
        })
        .collect()
}
