//! Indentation, for a language whose blocks are marked by it (`indentation` of passes.toml:
//! Python): text moved to another place is re-indented to that place's column.

/// The column of byte `at` of `src` (bytes since the start of its line).
pub(crate) fn column(src: &[u8], at: usize) -> i32 {
    let line = src[..at]
        .iter()
        .rposition(|&b| b == b'\n')
        .map_or(0, |i| i + 1);
    (at - line) as i32
}

/// `text` with the indentation after each line break shifted by `shift` columns (none below
/// zero; new columns are spaces; blank lines as they are), appended to `out`.
pub(crate) fn reindent(text: &[u8], shift: i32, out: &mut Vec<u8>) {
    if shift == 0 {
        out.extend_from_slice(text);
        return;
    }
    let mut rest = text;
    while let Some(nl) = rest.iter().position(|&b| b == b'\n') {
        out.extend_from_slice(&rest[..=nl]);
        rest = &rest[nl + 1..];
        let indent = rest
            .iter()
            .position(|&b| b != b' ' && b != b'\t')
            .unwrap_or(rest.len());
        if matches!(rest.get(indent), None | Some(b'\n' | b'\r')) {
            // A blank line: its indentation does not matter.
            continue;
        }
        let keep = (indent as i32 + shift).max(0) as usize;
        match keep.checked_sub(indent) {
            Some(more) => {
                out.extend_from_slice(&rest[..indent]);
                out.extend(std::iter::repeat_n(b' ', more));
            }
            None => out.extend_from_slice(&rest[..keep]),
        }
        rest = &rest[indent..];
    }
    out.extend_from_slice(rest);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[track_caller]
    fn check(text: &str, shift: i32, expected: &str) {
        let mut out = Vec::new();
        reindent(text.as_bytes(), shift, &mut out);
        assert_eq!(String::from_utf8(out).unwrap(), expected);
    }

    #[test]
    fn lines_after_a_break_move_by_the_shift() {
        check("a\n    b\n        c", -4, "a\nb\n    c");
        check("\n  x", 2, "\n    x");
        check("\n\t\tx", -1, "\n\tx");
        // Never below column zero; blank lines and text without a break unchanged.
        check("a\n  b\n\n    c", -3, "a\nb\n\n c");
        check("a b", -4, "a b");
        assert_eq!(column(b"ab\n   c", 6), 3);
        assert_eq!(column(b"abc", 2), 2);
    }
}
