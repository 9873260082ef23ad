//! Reduction of inputs without a grammar: ddmin over lines or characters, and the two-pass
//! line-then-character DDMIN* of the dissertation's ch. 5.

use std::ops::Range;

use crate::ddmin::ddmin_indices_ahead;
use crate::{DdminOptions, Judge};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextUnit {
    /// Lines, each with its terminator (`\n`, so `\r\n` stays whole).
    Line,
    /// Unicode scalar values where the input is valid UTF-8, single bytes where it is not.
    Char,
    /// Line-level DDMIN*, then character-level DDMIN* (dissertation ch. 5).
    LineThenChar,
}

/// Reduce `input` (assumed interesting) with ddmin over the given units. The result is
/// interesting unless the judge was cancelled before anything was found.
/// `LineThenChar` always iterates both passes to their fixed points; the other units do so
/// if `opts.fixpoint` is set. ddmin stops promptly when the judge is cancelled.
pub fn reduce_text(input: &[u8], unit: TextUnit, judge: &Judge, opts: &DdminOptions) -> Vec<u8> {
    let mut opts = opts.clone();
    if opts.stop.is_none() {
        opts.stop = Some(judge.stop_flag());
    }
    let by_line = match unit {
        TextUnit::Char => false,
        TextUnit::Line => true,
        TextUnit::LineThenChar => {
            opts.fixpoint = true;
            true
        }
    };
    let by_char = unit != TextUnit::Line;
    // Bets run on the lookahead's workers, so lost ones are killed (see `driver`); the two
    // passes are steps of `Judge::steps`, so the second may start on an assumption.
    judge.with_lookahead(opts.jobs, || {
        let (_, out) = judge.steps((0, input.to_vec()), |(k, text)| {
            let done = if *k == 0 && by_line {
                *text = pass(text, lines(text), judge, &opts, "text: lines");
                !by_char
            } else {
                *text = pass(text, chars(text), judge, &opts, "text: chars");
                true
            };
            *k += 1;
            done || judge.is_cancelled()
        });
        out
    })
}

fn pass(
    input: &[u8],
    units: Vec<Range<usize>>,
    judge: &Judge,
    opts: &DdminOptions,
    phase: &str,
) -> Vec<u8> {
    judge.phase(phase);
    let select = |kept: &[usize]| kept.iter().map(|&i| units[i].clone()).collect::<Vec<_>>();
    let test = |kept: &[usize]| judge.test(&join(input, &select(kept)));
    // A unit weighs its non-whitespace bytes (at least 1), for the weighted minimizers.
    let weights: Vec<u64> = units
        .iter()
        .map(|r| {
            let solid = input[r.clone()].iter().filter(|b| !b.is_ascii_whitespace());
            solid.count().max(1) as u64
        })
        .collect();
    let kept = ddmin_indices_ahead(units.len(), Some(&weights), &test, opts, None);
    join(input, &select(&kept))
}

/// The bytes of `units`, copying each stretch of adjacent units at once.
fn join(input: &[u8], units: &[Range<usize>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(units.iter().map(|r| r.len()).sum());
    let mut run: Option<Range<usize>> = None;
    for r in units {
        run = match run {
            Some(cur) if cur.end == r.start => Some(cur.start..r.end),
            Some(cur) => {
                out.extend_from_slice(&input[cur]);
                Some(r.clone())
            }
            None => Some(r.clone()),
        };
    }
    if let Some(cur) = run {
        out.extend_from_slice(&input[cur]);
    }
    out
}

/// Byte ranges of the lines of `input`, terminators included.
pub(crate) fn lines(input: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::new();
    let mut start = 0;
    for (i, &b) in input.iter().enumerate() {
        if b == b'\n' {
            out.push(start..i + 1);
            start = i + 1;
        }
    }
    if start < input.len() {
        out.push(start..input.len());
    }
    out
}

/// Byte ranges of the characters of `input`: one per Unicode scalar value in valid UTF-8
/// stretches, one per byte elsewhere.
pub(crate) fn chars(input: &[u8]) -> Vec<Range<usize>> {
    let mut out = Vec::with_capacity(input.len());
    let mut at = 0;
    for chunk in input.utf8_chunks() {
        for c in chunk.valid().chars() {
            out.push(at..at + c.len_utf8());
            at += c.len_utf8();
        }
        for _ in chunk.invalid() {
            out.push(at..at + 1);
            at += 1;
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;

    use crate::engine::observer::Recorder;
    use crate::engine::FnOracle;
    use crate::JudgeOptions;

    fn judge(f: impl Fn(&[u8]) -> bool + Send + Sync + 'static) -> Judge {
        Judge::new(Box::new(FnOracle::new(f)), JudgeOptions::default())
    }

    /// A judge whose observer keeps the phase.
    fn observed(f: impl Fn(&[u8]) -> bool + Send + Sync + 'static) -> (Judge, Arc<Recorder>) {
        let recorder = Arc::new(Recorder::default());
        let opts = JudgeOptions {
            observer: Some(Arc::clone(&recorder) as Arc<dyn crate::Observer>),
            ..JudgeOptions::default()
        };
        (Judge::new(Box::new(FnOracle::new(f)), opts), recorder)
    }

    fn contains(hay: &[u8], needle: &[u8]) -> bool {
        hay.windows(needle.len()).any(|w| w == needle)
    }

    #[test]
    fn join_copies_units_in_order() {
        let input = b"abcdef";
        assert_eq!(join(input, &[0..1, 1..3, 4..5, 5..6]), b"abcef");
        assert_eq!(join(input, &[2..3, 0..1]), b"ca");
        assert_eq!(join(input, &[]), b"");
    }

    #[test]
    fn units() {
        assert_eq!(lines(b"a\nbc\r\n\nd"), [0..2, 2..6, 6..7, 7..8]);
        assert_eq!(lines(b"a\n"), vec![0..2; 1]);
        assert!(lines(b"").is_empty());
        assert_eq!(chars("aé€😀".as_bytes()), [0..1, 1..3, 3..6, 6..10]);
        // Invalid bytes are units of their own; valid stretches around them keep chars whole.
        assert_eq!(chars(b"\xffa\xc3\xa9\xc3"), [0..1, 1..2, 2..4, 4..5]);
    }

    #[test]
    fn line_reduction_keeps_terminators() {
        let input = b"int a;\r\nint b;\nint main() {}\nint c;";
        let (j, recorder) = observed(|c| contains(c, b"main") && contains(c, b"c;"));
        let out = reduce_text(input, TextUnit::Line, &j, &DdminOptions::default());
        assert_eq!(out, b"int main() {}\nint c;");
        assert_eq!(recorder.phase(), "text: lines");
    }

    #[test]
    fn char_reduction_never_splits_a_char() {
        let input = "xx€yy😀zz".as_bytes();
        let j = judge(|c| {
            assert!(
                std::str::from_utf8(c).is_ok(),
                "invalid UTF-8 candidate {c:?}"
            );
            contains(c, "€".as_bytes()) && contains(c, "😀".as_bytes())
        });
        let out = reduce_text(input, TextUnit::Char, &j, &DdminOptions::default());
        assert_eq!(out, "€😀".as_bytes());
    }

    #[test]
    fn char_reduction_of_non_utf8_bytes() {
        let input = b"\x00\xff\xfe\x80abc\xc3";
        let j = judge(|c| c.contains(&0xfe) && c.contains(&b'b'));
        let out = reduce_text(input, TextUnit::Char, &j, &DdminOptions::default());
        assert_eq!(out, b"\xfeb");
    }

    #[test]
    fn line_then_char_runs_both_passes_to_fixed_points() {
        // The slicing example of the dissertation's ch. 5 in miniature: a line pass alone
        // keeps whole lines, the char pass trims them.
        let input = b"keep = 1;\nnoise\nother = 2;\nmore noise\n";
        let j = judge(|c| contains(c, b"p =") && contains(c, b"r ="));
        let lines_only = reduce_text(input, TextUnit::Line, &j, &DdminOptions::default());
        assert_eq!(lines_only, b"keep = 1;\nother = 2;\n");
        let (j, recorder) = observed(|c| contains(c, b"p =") && contains(c, b"r ="));
        let out = reduce_text(input, TextUnit::LineThenChar, &j, &DdminOptions::default());
        assert_eq!(out, b"p =r =");
        assert_eq!(recorder.phase(), "text: chars");
        assert_eq!(j.best(), out);
    }

    #[test]
    fn jobs_do_not_change_the_result() {
        let input: Vec<u8> = (0..300u32)
            .flat_map(|i| format!("{}\n", i * 7 % 13).into_bytes())
            .collect();
        let f = |c: &[u8]| contains(c, b"12\n5\n") && contains(c, b"\n3\n");
        let seq = reduce_text(
            &input,
            TextUnit::LineThenChar,
            &judge(f),
            &DdminOptions::default(),
        );
        let opts = DdminOptions {
            jobs: 4,
            ..Default::default()
        };
        let par = reduce_text(&input, TextUnit::LineThenChar, &judge(f), &opts);
        assert_eq!(seq, par);
    }

    #[test]
    fn cancel_ends_both_passes_at_once() {
        use std::sync::atomic::{AtomicU64, Ordering};
        use std::sync::{Arc, Mutex};
        let cell: Arc<Mutex<Option<Arc<Judge>>>> = Arc::default();
        let runs = Arc::new(AtomicU64::new(0));
        let (c2, r2) = (Arc::clone(&cell), Arc::clone(&runs));
        let oracle = FnOracle::new(move |c: &[u8]| {
            if r2.fetch_add(1, Ordering::SeqCst) == 4 {
                if let Some(j) = c2.lock().unwrap().as_ref() {
                    j.cancel();
                }
            }
            contains(c, b"needle")
        });
        let j = Arc::new(Judge::new(Box::new(oracle), JudgeOptions::default()));
        *cell.lock().unwrap() = Some(Arc::clone(&j));
        let input: Vec<u8> = (0..2000)
            .flat_map(|i| format!("line {i} needle\n").into_bytes())
            .collect();
        let out = reduce_text(&input, TextUnit::LineThenChar, &j, &DdminOptions::default());
        *cell.lock().unwrap() = None;
        assert_eq!(runs.load(Ordering::SeqCst), 5);
        assert!(contains(&out, b"needle"));
        assert!(j.stats().tests <= 5);
    }
}
