//! The syntax filter: a candidate goes to the oracle only if a parse finds at most as many
//! ERROR and MISSING nodes in it as in the input.
//!
//! Parsing every candidate of a large input from scratch would be most of treedd's own CPU
//! (on inputs of hundreds of kilobytes, a large share of the machine's, the oracles'
//! compiler runs included). Almost every candidate is the
//! current text with one region changed, so the filter parses it incrementally: tree-sitter
//! reuses the subtrees of the current text's tree outside the changed region, found as the
//! common prefix and suffix of the two texts.
//!
//! **Invariant:** the verdict is that of a parse from scratch, so it does not depend on the
//! text the filter happens to start from (a faster worker can move it on), and `--jobs` cannot
//! change the output. An incremental parse is believed only when it finds no error in an edit
//! of an error-free tree: it is then a derivation of the whole candidate in the grammar, which
//! the fresh parse finds too. Every other case (errors found, or a current text with errors)
//! is parsed from scratch. Checked against fresh parses of random candidates by
//! [`crate::fuzz::fuzz_case`]. A text's islands in other languages (`inject.rs`: an HTML
//! document's scripts and styles) are always parsed from scratch, found on the text's tree (an
//! error-free incremental parse is the fresh parse's derivation, so it finds the same islands);
//! their errors count with the text's. The trees kept are the text's alone.
//!
//! An improvement is a candidate the filter accepted one oracle run before, so the filter
//! keeps the trees of the last error-free candidates it accepted ([`ACCEPTED_KEEP`]), and
//! [`SyntaxFilter::rebase`] on one of them takes its tree instead of parsing it again. The
//! trees cost memory (a fresh parse's tree is many times its text): [`ACCEPTED_BYTES`]
//! bounds it.
//!
//! A language with `[chunks]` in passes.toml (C, C++) is parsed item by item instead
//! ([`chunks`]): a candidate costs a scan of its bytes and the parses of the items it
//! changed, however many regions it changes (a ddmin subset of a file's items). A candidate
//! whose items all parse without error is accepted (a fresh parse finds no error either); any
//! other is parsed from scratch, so the verdict is still a fresh parse's. An input with
//! syntax errors (preprocessed C++ that the grammar does not cover) would make every
//! candidate such a one, so there the measure is the items' count: a candidate is kept if
//! its items have at most as many errors as the input's. That count depends on the
//! candidate's text alone, whatever the filter parsed before; an error stays in its item, so
//! removing an item never moves errors elsewhere.

use std::collections::VecDeque;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};

use tree_sitter::{InputEdit, Point, Tree};

use crate::inject::{self, parse_counting};
use crate::parse::{error_nodes, parse_from};
use crate::Lang;

mod chunks;

use chunks::Chunks;

/// Keeps the candidates with at most `allowed` syntax errors; thread-safe.
pub struct SyntaxFilter {
    lang: Lang,
    allowed: usize,
    base: Mutex<Option<Arc<Base>>>,
    /// The candidates accepted last with a parse without errors, and that parse (newest
    /// last; see [`ACCEPTED_KEEP`] and [`ACCEPTED_BYTES`]).
    accepted: Mutex<VecDeque<(Vec<u8>, Tree)>>,
    fresh: AtomicU64,
    incremental: AtomicU64,
    /// The language's items, if it has `[chunks]`.
    chunks: Option<Chunks>,
    /// Items' errors allowed: the input's, when it has syntax errors and chunks.
    chunk_allowed: Option<usize>,
}

/// How many accepted candidates' trees are kept for [`SyntaxFilter::rebase`]: an improvement
/// was accepted a few screenings before it is found (the bets screened meanwhile push older
/// entries out).
const ACCEPTED_KEEP: usize = 8;

/// At most this many bytes of accepted candidates are kept (their trees take more: a large
/// input keeps fewer).
const ACCEPTED_BYTES: usize = 1 << 20;

/// An error-free text and its tree, which candidates are parsed against.
struct Base {
    text: Vec<u8>,
    /// Byte offset of every line's start (tree-sitter's edits also give rows and columns).
    lines: Vec<usize>,
    tree: Tree,
}

impl SyntaxFilter {
    /// A filter keeping candidates with at most `allowed` errors; [`SyntaxFilter::rebase`]
    /// gives it the text candidates are made from.
    pub fn new(lang: Lang, allowed: usize) -> SyntaxFilter {
        SyntaxFilter {
            lang,
            allowed,
            base: Mutex::new(None),
            accepted: Mutex::new(VecDeque::new()),
            fresh: AtomicU64::new(0),
            incremental: AtomicU64::new(0),
            chunks: Chunks::of(lang),
            chunk_allowed: None,
        }
    }

    /// The filter of a reduction of `input`, which has `errors` syntax errors: candidates
    /// with at most as many. For a language with chunks and an input with errors, the
    /// measure is the items' errors (see the module docs).
    pub fn for_input(lang: Lang, input: &[u8], errors: usize) -> SyntaxFilter {
        let mut filter = SyntaxFilter::new(lang, errors);
        if errors > 0 {
            if let Some(chunks) = &filter.chunks {
                filter.chunk_allowed = Some(chunks.errors(input));
            }
        }
        filter
    }

    /// Parses of single items so far (languages with chunks).
    pub fn item_parses(&self) -> u64 {
        self.chunks.as_ref().map_or(0, Chunks::parses)
    }

    /// True if `candidate` has at most the allowed number of syntax errors.
    pub fn accepts(&self, candidate: &[u8]) -> bool {
        if let Some(chunks) = &self.chunks {
            let errors = chunks.errors(candidate);
            self.incremental.fetch_add(1, Ordering::Relaxed);
            if let Some(allowed) = self.chunk_allowed {
                return errors <= allowed;
            }
            if errors == 0 {
                return true;
            }
            self.fresh.fetch_add(1, Ordering::Relaxed);
            return parse_counting(self.lang, candidate).0 <= self.allowed;
        }
        if let Some(base) = self.base() {
            if let Some(tree) = self.reparse(&base, candidate) {
                // Islands (`inject.rs`) are parsed from scratch, on the text's tree.
                if error_nodes(&tree) == 0 && inject::errors(self.lang, &tree, candidate) == 0 {
                    self.remember(candidate, tree);
                    return true;
                }
            }
        }
        self.fresh.fetch_add(1, Ordering::Relaxed);
        let (errors, tree) = parse_counting(self.lang, candidate);
        if let Some(tree) = tree.filter(|_| errors == 0) {
            self.remember(candidate, tree);
        }
        errors <= self.allowed
    }

    /// Keep the parse of `candidate`, accepted without errors, for [`SyntaxFilter::rebase`].
    fn remember(&self, candidate: &[u8], tree: Tree) {
        let mut accepted = lock(&self.accepted);
        if accepted.iter().any(|(text, _)| text == candidate) {
            return;
        }
        if candidate.len() > ACCEPTED_BYTES {
            return;
        }
        let mut bytes: usize = accepted.iter().map(|(text, _)| text.len()).sum();
        while accepted.len() >= ACCEPTED_KEEP || bytes + candidate.len() > ACCEPTED_BYTES {
            let Some((text, _)) = accepted.pop_front() else {
                break;
            };
            bytes -= text.len();
        }
        accepted.push_back((candidate.to_vec(), tree));
    }

    /// The parse of `text` if it is one of the candidates accepted last.
    fn accepted_tree(&self, text: &[u8]) -> Option<Tree> {
        let mut accepted = lock(&self.accepted);
        let at = accepted.iter().rposition(|(t, _)| t == text)?;
        accepted.remove(at).map(|(_, tree)| tree)
    }

    /// Candidates are now made from `text` (the current best): parse it (incrementally from
    /// the previous text where that is believed) and keep its tree if it has no errors. A
    /// candidate the filter accepted lately is not parsed again.
    pub fn rebase(&self, text: &[u8]) {
        if self.chunks.is_some() {
            return;
        }
        if let Some(tree) = self.accepted_tree(text) {
            self.set_base(text, Some(tree));
            return;
        }
        let mut tree = None;
        if let Some(base) = self.base() {
            if let Some(t) = self.reparse(&base, text) {
                if error_nodes(&t) == 0 {
                    tree = Some(t);
                }
            }
        }
        if tree.is_none() {
            self.fresh.fetch_add(1, Ordering::Relaxed);
            tree = parse_from(self.lang, text, None)
                .ok()
                .filter(|t| error_nodes(t) == 0);
        }
        self.set_base(text, tree);
    }

    /// Candidates are now made from `text`, with `tree` its parse if it has no errors.
    fn set_base(&self, text: &[u8], tree: Option<Tree>) {
        let base = tree.map(|tree| {
            Arc::new(Base {
                lines: line_starts(text),
                text: text.to_vec(),
                tree,
            })
        });
        *self.lock() = base;
    }

    /// [`SyntaxFilter::rebase`] with `parse`, the parse of `text` made with its tree
    /// ([`crate::RTree::build_parsed`]): the text is not parsed again.
    pub fn rebase_parsed(&self, text: &[u8], parse: crate::Parse) {
        self.fresh.fetch_add(1, Ordering::Relaxed);
        if self.chunks.is_some() {
            return;
        }
        let tree = Some(parse.0).filter(|t| error_nodes(t) == 0);
        self.set_base(text, tree);
    }

    /// Parses from scratch so far (the first of [`SyntaxFilter::rebase`] included).
    pub fn fresh_parses(&self) -> u64 {
        self.fresh.load(Ordering::Relaxed)
    }

    /// Incremental parses so far (for a language with chunks: candidates screened item by
    /// item).
    pub fn incremental_parses(&self) -> u64 {
        self.incremental.load(Ordering::Relaxed)
    }

    /// `candidate` parsed against `base`'s tree; `None` (parse it from scratch) when the
    /// edit removes more of the base than the candidate's whole length.
    ///
    /// Telling the base's tree about an edit visits every node in the removed range, so an
    /// edit that removes most of a large text (a subset that keeps one part) costs more than
    /// parsing the candidate from scratch.
    fn reparse(&self, base: &Base, candidate: &[u8]) -> Option<Tree> {
        let edit = edit_between(base, candidate);
        if edit.old_end_byte - edit.start_byte > candidate.len() {
            return None;
        }
        self.incremental.fetch_add(1, Ordering::Relaxed);
        let mut old = base.tree.clone();
        old.edit(&edit);
        parse_from(self.lang, candidate, Some(&old)).ok()
    }

    fn base(&self) -> Option<Arc<Base>> {
        self.lock().clone()
    }

    fn lock(&self) -> MutexGuard<'_, Option<Arc<Base>>> {
        lock(&self.base)
    }
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    m.lock().unwrap_or_else(|e| e.into_inner())
}

/// The one edit turning `old` into `new`: everything between their common prefix and their
/// common suffix is replaced. Returns where it starts and where it ends in each text
/// (`old[start..old_end]` becomes `new[start..new_end]`).
pub fn changed_range(old: &[u8], new: &[u8]) -> (usize, usize, usize) {
    let start = common_prefix(old, new);
    let suffix = common_suffix(&old[start..], &new[start..]);
    (start, old.len() - suffix, new.len() - suffix)
}

/// The one edit turning `base.text` into `new` (see [`changed_range`]), as tree-sitter wants it.
fn edit_between(base: &Base, new: &[u8]) -> InputEdit {
    let (start, old_end, new_end) = changed_range(&base.text, new);
    let start_position = point_at(&base.lines, start);
    InputEdit {
        start_byte: start,
        old_end_byte: old_end,
        new_end_byte: new_end,
        start_position,
        old_end_position: point_at(&base.lines, old_end),
        new_end_position: advance(start_position, &new[start..new_end]),
    }
}

fn line_starts(text: &[u8]) -> Vec<usize> {
    let mut lines = vec![0];
    lines.extend(
        text.iter()
            .enumerate()
            .filter(|&(_, &b)| b == b'\n')
            .map(|(i, _)| i + 1),
    );
    lines
}

/// Row and byte column of `offset`.
fn point_at(lines: &[usize], offset: usize) -> Point {
    let row = lines.partition_point(|&s| s <= offset) - 1;
    Point::new(row, offset - lines[row])
}

/// Where `from` ends up after `text`.
fn advance(from: Point, text: &[u8]) -> Point {
    match text.iter().rposition(|&b| b == b'\n') {
        Some(last) => Point::new(
            from.row + text.iter().filter(|&&b| b == b'\n').count(),
            text.len() - last - 1,
        ),
        None => Point::new(from.row, from.column + text.len()),
    }
}

/// Compared in blocks first (slice equality is a `memcmp`), then byte by byte.
const BLOCK: usize = 64;

fn common_prefix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let mut i = 0;
    while i + BLOCK <= n && a[i..i + BLOCK] == b[i..i + BLOCK] {
        i += BLOCK;
    }
    while i < n && a[i] == b[i] {
        i += 1;
    }
    i
}

fn common_suffix(a: &[u8], b: &[u8]) -> usize {
    let n = a.len().min(b.len());
    let (a, b) = (&a[a.len() - n..], &b[b.len() - n..]);
    let mut i = 0;
    while i + BLOCK <= n && a[n - i - BLOCK..n - i] == b[n - i - BLOCK..n - i] {
        i += BLOCK;
    }
    while i < n && a[n - i - 1] == b[n - i - 1] {
        i += 1;
    }
    i
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count_errors;

    #[test]
    fn edits_span_the_changed_region_with_rows_and_columns() {
        let text = b"let a;\nlet bb;\nlet c;\n".to_vec();
        let base = Base {
            lines: line_starts(&text),
            tree: parse_from(Lang::JavaScript, &text, None).unwrap(),
            text,
        };
        let e = edit_between(&base, b"let a;\nlet c;\n");
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (11, 19, 11));
        assert_eq!(e.start_position, Point::new(1, 4));
        assert_eq!(e.old_end_position, Point::new(2, 4));
        assert_eq!(e.new_end_position, Point::new(1, 4));
        let e = edit_between(&base, b"let a;\nlet x;\n\nlet bb;\nlet c;\n");
        // "x;\n\nlet " inserted before "bb;".
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (11, 11, 19));
        assert_eq!(e.new_end_position, Point::new(3, 4));
        let e = edit_between(&base, &base.text.clone());
        assert_eq!((e.start_byte, e.old_end_byte, e.new_end_byte), (22, 22, 22));
        assert_eq!(common_prefix(&[7; 200], &[7; 130]), 130);
        assert_eq!(common_suffix(&[7; 200], &[7; 130]), 130);
    }

    #[test]
    fn common_ends_are_found_across_chunks() {
        let a: Vec<u8> = (0..1000u32).map(|i| (i % 251) as u8).collect();
        let mut b = a.clone();
        b[700] ^= 1;
        assert_eq!(common_prefix(&a, &b), 700);
        assert_eq!(common_suffix(&a, &b), 299);
        assert_eq!(common_prefix(&a, &a[..10]), 10);
        assert_eq!(common_suffix(&a, &a[990..]), 10);
        assert_eq!(common_prefix(b"", b"x"), 0);
        // An edit inside a repeat: prefix and suffix do not overlap.
        let (base, cand) = (b"aaaa", b"aaa");
        let p = common_prefix(base, cand);
        assert_eq!((p, common_suffix(&base[p..], &cand[p..])), (3, 0));
    }

    #[test]
    fn a_small_edit_of_a_large_text_is_parsed_incrementally_with_the_fresh_verdict() {
        let mut text = String::new();
        for i in 0..400 {
            text.push_str(&format!("function f{i}(x) {{ return x + {i}; }}\n"));
        }
        let filter = SyntaxFilter::new(Lang::JavaScript, 0);
        filter.rebase(text.as_bytes());
        assert_eq!(filter.fresh_parses(), 1);
        let good = text.replacen("function f200(x) { return x + 200; }\n", "", 1);
        let bad = text.replacen("return x + 200;", "return x + ;", 1);
        assert!(filter.accepts(good.as_bytes()));
        // Believed without a parse from scratch.
        assert_eq!(filter.fresh_parses(), 1);
        assert!(!filter.accepts(bad.as_bytes()));
        assert_eq!(count_errors(Lang::JavaScript, bad.as_bytes()), 1);
        // Errors are always confirmed from scratch.
        assert_eq!(filter.fresh_parses(), 2);
        assert_eq!(filter.incremental_parses(), 2);
        filter.rebase(good.as_bytes());
        assert_eq!(filter.fresh_parses(), 2);
        assert!(filter.accepts(good.replacen("f3(", "g3(", 1).as_bytes()));
        assert_eq!(filter.fresh_parses(), 2);
    }

    #[test]
    fn rebasing_on_a_candidate_it_accepted_parses_nothing() {
        let text: String = (0..200)
            .map(|i| format!("function f{i}(x) {{ return x + {i}; }}\n"))
            .collect();
        let filter = SyntaxFilter::new(Lang::JavaScript, 0);
        filter.rebase(text.as_bytes());
        let good = text.replacen("function f100(x) { return x + 100; }\n", "", 1);
        assert!(filter.accepts(good.as_bytes()));
        assert_eq!((filter.fresh_parses(), filter.incremental_parses()), (1, 1));
        filter.rebase(good.as_bytes());
        assert_eq!((filter.fresh_parses(), filter.incremental_parses()), (1, 1));
        // The base is now `good` with its tree: its edits are parsed incrementally, with the
        // verdicts of parses from scratch.
        let bad = good.replacen("return x + 150;", "return x + ;", 1);
        assert!(!filter.accepts(bad.as_bytes()));
        let smaller = good.replacen("function f150(x) { return x + 150; }\n", "", 1);
        assert!(filter.accepts(smaller.as_bytes()));
        assert_eq!((filter.fresh_parses(), filter.incremental_parses()), (2, 3));
        // A text it did not accept (with errors) is parsed.
        filter.rebase(bad.as_bytes());
        assert_eq!((filter.fresh_parses(), filter.incremental_parses()), (3, 4));
        // Accepted candidates beyond the byte budget are not kept.
        let large: String = (0..ACCEPTED_BYTES / 30)
            .map(|i| format!("function g{i}(x) {{ return x; }}\n"))
            .collect();
        assert!(large.len() > ACCEPTED_BYTES);
        assert!(filter.accepts(large.as_bytes()));
        assert_eq!(filter.fresh_parses(), 4);
        filter.rebase(large.as_bytes());
        assert_eq!(filter.fresh_parses(), 5);
    }

    #[test]
    fn a_filter_starts_from_the_parse_its_tree_was_built_from() {
        let text = b"function f(x) { return x; }\nlet g;\n";
        let (tree, parse) = crate::RTree::build_parsed(Lang::JavaScript, text).unwrap();
        assert_eq!(tree.unparse(), text);
        let filter = SyntaxFilter::new(Lang::JavaScript, 0);
        filter.rebase_parsed(text, parse);
        // The tree's parse counts as the first parse from scratch; an edit of it is then
        // parsed incrementally against it.
        assert_eq!(filter.fresh_parses(), 1);
        assert!(filter.accepts(b"function f(x) { return x; }\n"));
        assert_eq!((filter.fresh_parses(), filter.incremental_parses()), (1, 1));
        assert!(!filter.accepts(b"function f(x) { return x + ; }\nlet g;\n"));
        // A parse with errors is no base: every candidate is parsed from scratch.
        let (_, parse) = crate::RTree::build_parsed(Lang::JavaScript, b"let x = ;").unwrap();
        let filter = SyntaxFilter::new(Lang::JavaScript, 1);
        filter.rebase_parsed(b"let x = ;", parse);
        assert!(filter.accepts(b"let x = ;\nlet y;"));
        assert_eq!((filter.fresh_parses(), filter.incremental_parses()), (2, 0));
    }

    #[test]
    fn an_incremental_parse_counts_the_islands_errors() {
        let text = b"<p>a</p>\n<script>let x = f(1, 2);</script>\n";
        let (_, parse) = crate::RTree::build_parsed(Lang::Html, text).unwrap();
        let filter = SyntaxFilter::new(Lang::Html, 0);
        filter.rebase_parsed(text, parse);
        // The HTML parse of each candidate is error-free; the script's JavaScript is not.
        assert!(!filter.accepts(b"<p>a</p>\n<script>let x = f(1 +);</script>\n"));
        assert!(!filter.accepts(b"<p>a</p>\n<script>let x = ;</script>\n"));
        assert!(filter.accepts(b"<p>a</p>\n<script>let x = f(1);</script>\n"));
        assert!(filter.incremental_parses() >= 1);
    }

    #[test]
    fn a_candidate_that_removes_most_of_the_text_is_parsed_from_scratch() {
        let text: String = (0..200)
            .map(|i| format!("function f{i}(x) {{ return x + {i}; }}\n"))
            .collect();
        let filter = SyntaxFilter::new(Lang::JavaScript, 0);
        filter.rebase(text.as_bytes());
        let (fresh, incremental) = (filter.fresh_parses(), filter.incremental_parses());
        // One function kept of 200: the edit removes far more than is left.
        let kept = "function f7(x) { return x + 7; }\n";
        assert!(filter.accepts(kept.as_bytes()));
        assert!(!filter.accepts(b"function f7(x) { return x + ; }\n"));
        assert_eq!(filter.fresh_parses(), fresh + 2);
        assert_eq!(filter.incremental_parses(), incremental);
        // Two fifths of it removed: still incremental.
        let half = text.split_inclusive('\n').skip(80).collect::<String>();
        assert!(filter.accepts(half.as_bytes()));
        assert_eq!(filter.incremental_parses(), incremental + 1);
        assert_eq!(filter.fresh_parses(), fresh + 2);
    }

    #[test]
    fn with_errors_in_the_text_every_candidate_is_parsed_from_scratch() {
        let filter = SyntaxFilter::new(Lang::JavaScript, 1);
        filter.rebase(b"let x = ;\nlet y;\n");
        assert!(filter.accepts(b"let x = ;\n"));
        assert!(!filter.accepts(b"let x = ;\nlet y = ;\n"));
        assert_eq!(filter.incremental_parses(), 0);
        assert_eq!(filter.fresh_parses(), 3);
        // A language without a grammar counts no errors.
        let text = SyntaxFilter::new(Lang::Text, 0);
        text.rebase(b"anything");
        assert!(text.accepts(b"any"));
    }
}
