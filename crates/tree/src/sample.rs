//! A shortest string matching a tree-sitter regex (`PATTERN` rules of grammar.json), for the
//! minimal replacement strings of [`crate::replace`].

/// A shortest string matching a tree-sitter regex (the subset grammars use: alternation,
/// groups, classes, escapes, quantifiers). None if the pattern is not understood.
pub(crate) fn sample_regex(pattern: &str) -> Option<String> {
    let chars: Vec<char> = pattern.chars().collect();
    let mut pos = 0;
    let s = regex_alt(&chars, &mut pos)?;
    (pos == chars.len()).then_some(s)
}

fn regex_alt(c: &[char], pos: &mut usize) -> Option<String> {
    let mut best = regex_seq(c, pos)?;
    while *pos < c.len() && c[*pos] == '|' {
        *pos += 1;
        let s = regex_seq(c, pos)?;
        if s.len() < best.len() {
            best = s;
        }
    }
    Some(best)
}

fn regex_seq(c: &[char], pos: &mut usize) -> Option<String> {
    let mut out = String::new();
    while *pos < c.len() && c[*pos] != '|' && c[*pos] != ')' {
        let atom = match c[*pos] {
            '(' => {
                *pos += 1;
                if c.get(*pos) == Some(&'?') {
                    *pos += 2; // (?:
                }
                let s = regex_alt(c, pos)?;
                if c.get(*pos) != Some(&')') {
                    return None;
                }
                *pos += 1;
                s
            }
            '[' => regex_class(c, pos)?,
            '\\' => {
                *pos += 1;
                regex_escape(c, pos)?.to_string()
            }
            '.' => {
                *pos += 1;
                "a".to_string()
            }
            '^' | '$' => {
                *pos += 1;
                String::new()
            }
            ch => {
                *pos += 1;
                ch.to_string()
            }
        };
        // Quantifier: take the minimum repetition count.
        let reps = match c.get(*pos) {
            Some('*') | Some('?') => {
                *pos += 1;
                0
            }
            Some('+') => {
                *pos += 1;
                1
            }
            Some('{') => {
                let close = c[*pos..].iter().position(|&x| x == '}')? + *pos;
                let inner: String = c[*pos + 1..close].iter().collect();
                *pos = close + 1;
                inner.split(',').next()?.trim().parse::<usize>().ok()?
            }
            _ => 1,
        };
        if matches!(c.get(*pos), Some('?') | Some('+')) {
            *pos += 1; // lazy / possessive marker
        }
        out.push_str(&atom.repeat(reps));
    }
    Some(out)
}

/// The character of an escape after the backslash (`\d` -> '0', `\n` -> newline, ...).
fn regex_escape(c: &[char], pos: &mut usize) -> Option<char> {
    let e = *c.get(*pos)?;
    *pos += 1;
    Some(match e {
        'd' => '0',
        'w' => 'a',
        's' => ' ',
        'n' => '\n',
        'r' => '\r',
        't' => '\t',
        'f' => '\x0c',
        'v' => '\x0b',
        '0' => '\0',
        'p' | 'P' => {
            if c.get(*pos) == Some(&'{') {
                *pos = c[*pos..].iter().position(|&x| x == '}')? + *pos + 1;
            } else {
                *pos += 1;
            }
            'a'
        }
        'u' | 'x' => {
            let (start, end) = if c.get(*pos) == Some(&'{') {
                let close = c[*pos..].iter().position(|&x| x == '}')? + *pos;
                (*pos + 1, close)
            } else {
                let n = if e == 'u' { 4 } else { 2 };
                (*pos, (*pos + n).min(c.len()))
            };
            let hex: String = c[start..end].iter().collect();
            *pos = if c.get(start.wrapping_sub(1)) == Some(&'{') {
                end + 1
            } else {
                end
            };
            char::from_u32(u32::from_str_radix(&hex, 16).ok()?)?
        }
        other => other,
    })
}

fn regex_class(c: &[char], pos: &mut usize) -> Option<String> {
    *pos += 1; // [
    let negated = c.get(*pos) == Some(&'^');
    if negated {
        *pos += 1;
    }
    let mut members: Vec<char> = Vec::new();
    let mut first = true;
    while *pos < c.len() && (c[*pos] != ']' || first) {
        first = false;
        let ch = if c[*pos] == '\\' {
            *pos += 1;
            regex_escape(c, pos)?
        } else {
            *pos += 1;
            c[*pos - 1]
        };
        // Ranges a-z: the start stands for the range.
        if c.get(*pos) == Some(&'-') && c.get(*pos + 1).is_some_and(|&x| x != ']') {
            *pos += 1;
            if c[*pos] == '\\' {
                *pos += 1;
                regex_escape(c, pos)?;
            } else {
                *pos += 1;
            }
        }
        members.push(ch);
    }
    if c.get(*pos) != Some(&']') {
        return None;
    }
    *pos += 1;
    if negated {
        ['a', 'x', '0', '_', ' ']
            .into_iter()
            .find(|x| !members.contains(x))
            .map(String::from)
    } else {
        members.first().map(|&x| x.to_string())
    }
}
