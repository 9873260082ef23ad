//! `params`: the i-th parameter of a function removed with the i-th argument of every call
//! of that name, in one candidate (C-Reduce's parameter passes).

use std::collections::HashMap;
use std::ops::Range;

use treedd_tree::{Facts, Lang};

use super::splice::Splice;

/// The splice removing element `i` of a list, with one separator next to it.
pub(super) fn remove_element(elems: &[Range<usize>], i: usize) -> Splice {
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
pub(super) fn candidates(_text: &[u8], _lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
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
