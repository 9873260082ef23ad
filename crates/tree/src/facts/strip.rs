//! The occurrences of `[[strips]]` tokens with their brackets (see [`Strip`]).

use std::collections::HashMap;
use std::ops::Range;

use super::Strip;
use crate::pass_data::PassData;

/// Every `[[strips]]` entry's occurrences among `tokens` (source order), each from its token
/// to the end of its bracketed group, if any; an occurrence inside an earlier one is left out.
pub(super) fn strips(pd: &PassData, src: &[u8], tokens: &[Range<usize>]) -> Vec<Strip> {
    let mut out: Vec<Strip> = pd
        .strips
        .iter()
        .map(|s| Strip {
            early: s.early,
            ranges: Vec::new(),
        })
        .collect();
    if out.is_empty() {
        return out;
    }
    let by_text: HashMap<&[u8], usize> = pd
        .strips
        .iter()
        .enumerate()
        .map(|(i, s)| (s.token.as_bytes(), i))
        .collect();
    let mut covered = 0;
    for (i, t) in tokens.iter().enumerate() {
        if t.start < covered {
            continue;
        }
        let Some(&k) = by_text.get(&src[t.clone()]) else {
            continue;
        };
        let end = group_end(src, tokens, i);
        out[k].ranges.push(t.start..end);
        covered = end;
    }
    out
}

/// The end of the occurrence at token `i`: of the group it opens, or of the bracketed group
/// right after it, or of the token alone (also where the brackets do not balance).
fn group_end(src: &[u8], tokens: &[Range<usize>], i: usize) -> usize {
    let text = |j: usize| &src[tokens[j].clone()];
    let opening = |j: usize| brackets(text(j)).filter(|&(_, _, n)| n > 0);
    let (from, open, close) = match opening(i) {
        Some((o, c, _)) => (i, o, c),
        None => match (i + 1 < tokens.len()).then(|| opening(i + 1)).flatten() {
            Some((o, c, _)) => (i + 1, o, c),
            None => return tokens[i].end,
        },
    };
    let mut depth = 0i64;
    for token in &tokens[from..] {
        let t = &src[token.clone()];
        if t.iter().all(|&b| b == open) {
            depth += t.len() as i64;
        } else if t.iter().all(|&b| b == close) {
            depth -= t.len() as i64;
        }
        if depth <= 0 {
            return token.end;
        }
    }
    tokens[i].end
}

/// A token made of brackets of one kind: (open, close, how many it opens; negative when it
/// closes).
fn brackets(t: &[u8]) -> Option<(u8, u8, i64)> {
    let &b = t.first()?;
    let (open, close) = match b {
        b'(' | b')' => (b'(', b')'),
        b'[' | b']' => (b'[', b']'),
        _ => return None,
    };
    if !t.iter().all(|&c| c == b) {
        return None;
    }
    let n = t.len() as i64;
    Some((open, close, if b == open { n } else { -n }))
}
