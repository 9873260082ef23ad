//! The syntax filter's chunks: a text cut into its top-level items, each parsed on its own
//! and its ERROR and MISSING nodes remembered by the item's text, so that a candidate costs
//! a scan of its bytes and the parses of the items it changed (for languages with `[chunks]`
//! in passes.toml: C and C++).
//!
//! A lexical scan (strings, character literals, comments, raw strings and preprocessor lines
//! skipped) ends an item at a `;` outside any bracket, and at the `}` that closes an item
//! (a function body). What a `{` outside any bracket opens is asked of the grammar, on the
//! item's text up to that `{` with a `}` added (a small parse, remembered like the items):
//!
//! - a *level* (a namespace body: its node is of a kind in `bodies`, or of `blocks` as an item
//!   of the file on its own): the text up to the `{` is an item of its own (parsed with the
//!   `}`), the items inside are split again, and the matching `}` is not parsed;
//! - the end of the item (a function body: the item parses without error and ends there):
//!   the item ends at the matching `}`;
//! - anything else (a class body, an initializer): the item goes on to its `;`.
//!
//! An item that reaches the end of the text without its end (a candidate that lost a `}` or
//! a `;`) counts as its text up to its first bracket, at least one error, and the scan
//! starts again after that bracket: the items after it are the ones the text had before,
//! already parsed, instead of one item of megabytes parsed anew for every such candidate.
//!
//! The count of a text is the sum of its items' counts, plus one per level left open at its
//! end. It depends on the text alone (the memo only saves parses), and errors cannot move
//! from one item to another.
//!
//! When every item parses without error, so does the whole text: the items are a sequence of
//! the file's items in the grammar (a level's items are file items as well: C++'s
//! `declaration_list` and `compound_statement` hold any item a file holds), which a parse of
//! the whole text finds, the same reasoning as the filter's incremental parses.

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

use crate::parse::{error_nodes, parse};
use crate::pass_data::ChunkSpec;
use crate::Lang;

/// What the `{` ending a text opens (see the module docs).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Opens {
    Level,
    End,
    Inside,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
struct Key {
    hash: u64,
    len: u32,
    opener: bool,
}

#[derive(Clone, Copy, Debug)]
struct Parsed {
    errors: u32,
    opens: Opens,
}

/// An unterminated item is cut at its first bracket at most this many times in a text (see
/// [`Chunks::scan`]); after that it is one item to the end, so that a text of many open
/// brackets is scanned a bounded number of times.
const MAX_RESTARTS: usize = 64;

/// The memo is emptied when it grows past this many items.
const MEMO_MAX: usize = 1 << 21;

/// A language's chunk rules with the memo of item counts; thread-safe.
pub(crate) struct Chunks {
    lang: Lang,
    spec: ChunkSpec,
    memo: Mutex<HashMap<Key, Parsed>>,
    parses: AtomicU64,
    parsed_bytes: AtomicU64,
}

impl Chunks {
    /// The rules of `lang`, if it has `[chunks]`.
    pub(crate) fn of(lang: Lang) -> Option<Chunks> {
        let spec = lang.data().ok()?.passes.chunks.clone()?;
        Some(Chunks {
            lang,
            spec,
            memo: Mutex::new(HashMap::new()),
            parses: AtomicU64::new(0),
            parsed_bytes: AtomicU64::new(0),
        })
    }

    /// Items parsed so far (memo misses).
    pub(crate) fn parses(&self) -> u64 {
        self.parses.load(Ordering::Relaxed)
    }

    /// Bytes of the items parsed so far.
    #[cfg(test)]
    fn parsed_bytes(&self) -> u64 {
        self.parsed_bytes.load(Ordering::Relaxed)
    }

    /// The ERROR and MISSING nodes of `text`'s items, plus its levels left open.
    pub(crate) fn errors(&self, text: &[u8]) -> usize {
        let mut memo = Memo {
            chunks: self,
            guard: Some(lock(&self.memo)),
        };
        let mut count = Count::default();
        let mut from = 0;
        for restart in 0.. {
            match self.scan(text, from, &mut memo, &mut count, restart < MAX_RESTARTS) {
                Some(open) => from = open + 1,
                None => break,
            }
        }
        count.errors + count.levels
    }

    /// Scan `text` from `from` (a fresh item), adding its items' errors and its levels to
    /// `count`. An item that reaches the end of the text without its end counts, when
    /// `may_restart`, as its text up to its first bracket (at least one error), and the
    /// scan is to go on after that bracket: its position is returned (see the module docs).
    fn scan(
        &self,
        text: &[u8],
        from: usize,
        memo: &mut Memo<'_>,
        count: &mut Count,
        may_restart: bool,
    ) -> Option<usize> {
        let mut item = Item::at(from);
        let mut lex = Lexer { text, at: from };
        while let Some((tok, start, end)) = lex.next() {
            if matches!(tok, Tok::Open(_)) && item.depth == 0 && item.first_open.is_none() {
                item.first_open = Some(start);
            }
            match tok {
                Tok::Directive if item.depth == 0 && !has_token(text, item.start, start) => {
                    count.errors += memo.item(&text[item.start..end]);
                    item = Item::at(end);
                }
                Tok::Directive => {}
                Tok::Open(b'{') if item.depth == 0 => {
                    let (errors, opens) = memo.opener(&text[item.start..end]);
                    match opens {
                        Opens::Level => {
                            count.errors += errors;
                            count.levels += 1;
                            item = Item::at(end);
                        }
                        Opens::End => {
                            item.depth = 1;
                            item.ends = true;
                        }
                        Opens::Inside => item.depth = 1,
                    }
                }
                Tok::Open(_) => item.depth += 1,
                Tok::Close(b'}') if item.depth == 0 => {
                    if count.levels > 0 {
                        if has_token(text, item.start, start) {
                            count.errors += memo.item(&text[item.start..start]);
                        }
                        count.levels -= 1;
                    } else {
                        // A `}` closing nothing: an item of its own, with its error.
                        count.errors += memo.item(&text[item.start..end]);
                    }
                    item = Item::at(end);
                }
                Tok::Close(c) => {
                    item.depth = item.depth.saturating_sub(1);
                    if c == b'}' && item.depth == 0 && item.ends {
                        count.errors += memo.item(&text[item.start..end]);
                        item = Item::at(end);
                    }
                }
                Tok::Semi if item.depth == 0 => {
                    count.errors += memo.item(&text[item.start..end]);
                    item = Item::at(end);
                }
                Tok::Semi => {}
            }
        }
        if !has_token(text, item.start, text.len()) {
            return None;
        }
        match item.first_open.filter(|_| may_restart) {
            Some(open) => {
                count.errors += memo.item(&text[item.start..=open]).max(1);
                Some(open)
            }
            None => {
                count.errors += memo.item(&text[item.start..]);
                None
            }
        }
    }

    /// `bytes` (ending in `{`) closed by a `}`: what the `{` opens, and the errors.
    fn classify(&self, bytes: &[u8]) -> Parsed {
        let mut text = bytes.to_vec();
        text.push(b'}');
        let Ok(tree) = parse(self.lang, &text) else {
            return Parsed {
                errors: 0,
                opens: Opens::Inside,
            };
        };
        let errors = error_nodes(&tree) as u32;
        let n = text.len();
        let root = tree.root_node();
        let close = root.descendant_for_byte_range(n - 1, n);
        let body = close
            .filter(|c| !c.is_missing() && c.kind() == "}" && c.end_byte() == n)
            .and_then(|c| c.parent())
            .filter(|b| b.start_byte() == n - 2 && b.end_byte() == n);
        let level = body.is_some_and(|b| {
            self.spec.bodies.iter().any(|k| k == b.kind())
                || (self.spec.blocks.iter().any(|k| k == b.kind()) && b.parent() == Some(root))
        });
        let last_ends = root
            .child(root.child_count().saturating_sub(1))
            .is_some_and(|c| c.end_byte() == n && !c.is_missing());
        let opens = if level {
            Opens::Level
        } else if errors == 0 && body.is_some() && last_ends {
            Opens::End
        } else {
            Opens::Inside
        };
        Parsed { errors, opens }
    }
}

/// The memo, locked while a scan reads it (not while it parses).
struct Memo<'a> {
    chunks: &'a Chunks,
    guard: Option<std::sync::MutexGuard<'a, HashMap<Key, Parsed>>>,
}

impl Memo<'_> {
    fn item(&mut self, bytes: &[u8]) -> usize {
        self.parsed(bytes, false).errors as usize
    }

    fn opener(&mut self, bytes: &[u8]) -> (usize, Opens) {
        let p = self.parsed(bytes, true);
        (p.errors as usize, p.opens)
    }

    fn parsed(&mut self, bytes: &[u8], opener: bool) -> Parsed {
        let mut h = DefaultHasher::new();
        bytes.hash(&mut h);
        let key = Key {
            hash: h.finish(),
            len: bytes.len() as u32,
            opener,
        };
        let chunks = self.chunks;
        if let Some(&p) = self.guard.as_ref().and_then(|m| m.get(&key)) {
            return p;
        }
        self.guard = None;
        chunks.parses.fetch_add(1, Ordering::Relaxed);
        chunks
            .parsed_bytes
            .fetch_add(bytes.len() as u64, Ordering::Relaxed);
        let p = if opener {
            chunks.classify(bytes)
        } else {
            Parsed {
                errors: parse(chunks.lang, bytes).map_or(0, |t| error_nodes(&t)) as u32,
                opens: Opens::Inside,
            }
        };
        let mut memo = lock(&chunks.memo);
        if memo.len() >= MEMO_MAX {
            memo.clear();
        }
        memo.insert(key, p);
        self.guard = Some(memo);
        p
    }
}

/// The item being scanned.
#[derive(Default)]
struct Item {
    start: usize,
    /// Open brackets of the item.
    depth: u32,
    /// Its first bracket is a `{` whose `}` ends it.
    ends: bool,
    /// Where its first bracket is.
    first_open: Option<usize>,
}

/// The errors and the open levels of a text, as far as it is scanned.
#[derive(Default)]
struct Count {
    errors: usize,
    levels: usize,
}

impl Item {
    fn at(start: usize) -> Item {
        Item {
            start,
            ..Item::default()
        }
    }
}

fn lock<T>(m: &Mutex<T>) -> std::sync::MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Tok {
    Open(u8),
    Close(u8),
    Semi,
    Directive,
}

/// The bytes the scan stops at; everything else is skipped a byte at a time.
const SPECIAL: [bool; 256] = {
    let mut t = [false; 256];
    let mut i = 0;
    let s = b"{}()[];#\"'/";
    while i < s.len() {
        t[s[i] as usize] = true;
        i += 1;
    }
    t
};

/// C-family tokens, as far as the scan needs them: brackets, `;` and preprocessor lines;
/// strings, raw strings, character literals (not digit separators) and comments skipped.
struct Lexer<'a> {
    text: &'a [u8],
    at: usize,
}

impl Lexer<'_> {
    fn next(&mut self) -> Option<(Tok, usize, usize)> {
        let t = self.text;
        loop {
            while self.at < t.len() && !SPECIAL[t[self.at] as usize] {
                self.at += 1;
            }
            let start = self.at;
            let &c = t.get(start)?;
            self.at += 1;
            let tok = match c {
                b'{' | b'(' | b'[' => Tok::Open(c),
                b'}' | b')' | b']' => Tok::Close(c),
                b';' => Tok::Semi,
                b'#' if line_start(t, start) => {
                    self.skip_line();
                    Tok::Directive
                }
                b'"' if raw_prefix(t, start) => {
                    self.skip_raw();
                    continue;
                }
                b'"' | b'\'' if !(c == b'\'' && separator(t, start)) => {
                    self.skip_quoted(c);
                    continue;
                }
                b'/' => {
                    match t.get(self.at) {
                        Some(b'/') => self.skip_line(),
                        Some(b'*') => {
                            self.at = find(t, self.at + 1, b"*/").map_or(t.len(), |e| e + 2)
                        }
                        _ => {}
                    }
                    continue;
                }
                _ => continue,
            };
            return Some((tok, start, self.at));
        }
    }

    /// To the end of the line, lines ending in `\` continued.
    fn skip_line(&mut self) {
        let t = self.text;
        while self.at < t.len() && t[self.at] != b'\n' {
            if t[self.at] == b'\\' {
                self.at += 1;
            }
            self.at += 1;
        }
        self.at = self.at.min(t.len());
    }

    /// The rest of a string or character literal (its quote passed); an unterminated one
    /// ends at the line's end.
    fn skip_quoted(&mut self, quote: u8) {
        let t = self.text;
        while self.at < t.len() && t[self.at] != quote && t[self.at] != b'\n' {
            if t[self.at] == b'\\' {
                self.at += 1;
            }
            self.at += 1;
        }
        self.at = (self.at + 1).min(t.len());
    }

    /// The rest of `R"delim( ... )delim"` (its `"` passed).
    fn skip_raw(&mut self) {
        let t = self.text;
        let open = self.at;
        let Some(paren) = t[open..].iter().take(17).position(|&b| b == b'(') else {
            self.skip_quoted(b'"');
            return;
        };
        let mut end = b")".to_vec();
        end.extend_from_slice(&t[open..open + paren]);
        end.push(b'"');
        self.at = find(t, open + paren + 1, &end).map_or(t.len(), |e| e + end.len());
    }
}

fn is_word(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$' || b >= 0x80
}

/// The word that ends at `at`.
fn word_before(t: &[u8], at: usize) -> &[u8] {
    let start = t[..at]
        .iter()
        .rposition(|&b| !is_word(b))
        .map_or(0, |p| p + 1);
    &t[start..at]
}

/// The `"` at `at` opens a raw string (`R"`, `u8R"`, `LR"`, ...).
fn raw_prefix(t: &[u8], at: usize) -> bool {
    matches!(word_before(t, at), b"R" | b"u8R" | b"uR" | b"UR" | b"LR")
}

/// The `'` at `at` separates digits (`1'000`).
fn separator(t: &[u8], at: usize) -> bool {
    word_before(t, at).first().is_some_and(u8::is_ascii_digit)
        && t.get(at + 1).is_some_and(u8::is_ascii_alphanumeric)
}

/// Only spaces before `at` on its line.
fn line_start(t: &[u8], at: usize) -> bool {
    t[..at]
        .iter()
        .rev()
        .take_while(|&&b| b != b'\n')
        .all(|b| b.is_ascii_whitespace())
}

/// `t[range]` holds a token: something besides spaces and terminated comments.
fn has_token(t: &[u8], mut at: usize, end: usize) -> bool {
    while at < end {
        match t[at] {
            b if b.is_ascii_whitespace() => at += 1,
            b'/' if t.get(at + 1) == Some(&b'/') => {
                at = t[at..end]
                    .iter()
                    .position(|&b| b == b'\n')
                    .map_or(end, |p| at + p);
            }
            b'/' if t.get(at + 1) == Some(&b'*') => match find(&t[..end], at + 2, b"*/") {
                Some(e) => at = e + 2,
                // Unterminated: an error of the text's, so its item is parsed.
                None => return true,
            },
            _ => return true,
        }
    }
    false
}

fn find(t: &[u8], from: usize, what: &[u8]) -> Option<usize> {
    t.get(from..)?
        .windows(what.len())
        .position(|w| w == what)
        .map(|p| p + from)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count_errors;

    fn cpp() -> Chunks {
        Chunks::of(Lang::Cpp).unwrap()
    }

    #[test]
    fn items_are_parsed_once_each() {
        let c = cpp();
        let text = "namespace a { int x; void f() { g(); } struct S { int y; }; }\nint z;\n";
        assert_eq!(c.errors(text.as_bytes()), 0);
        // `namespace a {` (a level), `int x;`, `void f() {` (ends its item), the function,
        // `struct S {` (inside), the struct, `int z;`.
        assert_eq!(c.parses(), 7);
        let fewer = text.replace("int x; ", "");
        assert_eq!(c.errors(fewer.as_bytes()), 0);
        assert_eq!(c.parses(), 7);
    }

    #[test]
    fn errors_stay_in_their_item() {
        let c = cpp();
        let text = "int x = ;\nint y;\n";
        assert_eq!(
            c.errors(text.as_bytes()),
            count_errors(Lang::Cpp, text.as_bytes())
        );
        // An unclosed namespace and a `}` closing nothing count.
        assert_eq!(c.errors(b"namespace a { int x;"), 1);
        assert!(c.errors(b"int x; } int y;") >= 1);
        // The libstdc++ namespace with an attribute tree-sitter-cpp cannot parse: its body
        // is still split, the error stays in the opener.
        let ns =
            "namespace std __attribute__ ((__visibility__ (\"default\"))) {\n int a;\n int b;\n}\n";
        let e = c.errors(ns.as_bytes());
        assert!(e >= 1);
        let without = ns.replace(" int a;\n", "");
        assert_eq!(c.errors(without.as_bytes()), e);
    }

    /// A candidate that lost the `}` of a class is cut at the class's `{`: the items after
    /// it are the text's items as before, so the next candidate parses only what it changed
    /// instead of everything from the class to the end of the text.
    #[test]
    fn an_item_that_lost_its_end_is_cut_at_its_first_bracket() {
        let members: String = (0..2000).map(|i| format!("int x{i};\n")).collect();
        for (head, tail) in [
            ("struct S { int a;\n", ""),
            // The namespace's `}` closes the class: the item runs on without its `;`.
            ("namespace n { struct S { int a;\n", "}\n"),
        ] {
            let c = cpp();
            let text = format!("{head}{members}{tail}");
            assert!(c.errors(text.as_bytes()) >= 1, "{head}");
            assert!(count_errors(Lang::Cpp, text.as_bytes()) >= 1);
            let before = c.parsed_bytes();
            let fewer = text.replace("int x7;\n", "");
            assert!(c.errors(fewer.as_bytes()) >= 1);
            assert!(c.parsed_bytes() - before < 100, "{head}");
        }
        // The same text with its `}`: no error, each item parsed once.
        let c = cpp();
        let whole = format!("struct S {{ int a; }};\n{members}");
        assert_eq!(c.errors(whole.as_bytes()), 0);
        assert!(c.parsed_bytes() <= whole.len() as u64 + 20);
    }

    #[test]
    fn an_unterminated_comment_is_an_error_of_its_own() {
        let c = Chunks::of(Lang::C).unwrap();
        for text in [&b"/* no end\n"[..], b"int x;\n/* no end int y;\n"] {
            assert!(count_errors(Lang::C, text) > 0);
            assert!(c.errors(text) > 0, "{}", String::from_utf8_lossy(text));
        }
        assert_eq!(c.errors(b"/* done */ int x;\n"), 0);
    }

    #[test]
    fn the_lexer_skips_what_may_hold_brackets() {
        let c = cpp();
        for text in [
            "char s[] = \"}{;\";\nint y;\n",
            "char c = '}';\nint y = 1'000'000;\n",
            "// }\n/* { */ int y;\n",
            "#define X }\nint y;\n",
            "const char *r = R\"x(})\")x\";\nint y;\n",
        ] {
            assert_eq!(c.errors(text.as_bytes()), 0, "{text}");
            assert_eq!(count_errors(Lang::Cpp, text.as_bytes()), 0, "{text}");
        }
    }
}
