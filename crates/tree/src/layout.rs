//! treedd's own layout of a result: the whitespace between tokens rebuilt from the
//! tree, one statement or declaration per line, blocks indented, the language's usual spacing
//! between tokens, from `grammars/<lang>/layout.toml`. Only whitespace between tokens changes:
//! tokens, their order, strings, comments and other verbatim nodes stay, and two tokens that
//! need a space to stay two keep one ([`crate::glue`]). A layout that would not parse to the
//! same tree (kinds and shape) is not made, so Python's blocks and Go's or JavaScript's
//! statement ends stay what they were.
//!
//! The same file names the language's own formatters ([`Formatter`]), which the CLI runs
//! after this layout; this crate only holds their data.

use std::collections::HashSet;
use std::sync::OnceLock;

use serde::Deserialize;

use crate::parse::walk;
use crate::Lang;

/// `grammars/<lang>/layout.toml`, as written (see the comments in `grammars/c/layout.toml`).
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct LayoutSpec {
    #[serde(default = "default_indent")]
    indent: String,
    #[serde(default)]
    lines: Vec<String>,
    #[serde(default)]
    blocks: Vec<String>,
    #[serde(default)]
    bodies: Vec<String>,
    #[serde(default)]
    same_line: Vec<SameLine>,
    #[serde(default)]
    verbatim: Vec<String>,
    #[serde(default)]
    spaced: Vec<String>,
    #[serde(default)]
    tight: Vec<String>,
    #[serde(default)]
    separated: Vec<String>,
    #[serde(default)]
    hugging: Vec<String>,
    #[serde(default)]
    separators: Vec<String>,
    #[serde(default)]
    space_before: Vec<String>,
    #[serde(default)]
    space_after: Vec<String>,
    #[serde(default)]
    no_space_before: Vec<String>,
    #[serde(default)]
    no_space_after: Vec<String>,
    #[serde(default)]
    break_before: Vec<String>,
    #[serde(default)]
    break_after: Vec<String>,
    #[serde(default)]
    formatters: Vec<Formatter>,
}

fn default_indent() -> String {
    "    ".to_string()
}

/// `[[same_line]]`: a `lines` node that stays on its parent's line (`else if`, a `for` loop's
/// initializer): a child of kind `kind` (any kind when absent) in field `field` (any when
/// absent) of a `parent` node.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
struct SameLine {
    parent: String,
    #[serde(default)]
    kind: Option<String>,
    #[serde(default)]
    field: Option<String>,
}

/// `[[formatters]]`: a formatter of the language, run as `command` with the text on standard
/// input, the formatted text on standard output. The first one installed is used.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Formatter {
    /// The name `--stats` reports.
    pub name: String,
    /// Program (looked up in `PATH`) and arguments.
    pub command: Vec<String>,
}

/// A language's layout data, checked against its grammar.
#[derive(Debug)]
struct Layout {
    indent: String,
    lines: HashSet<String>,
    blocks: HashSet<String>,
    bodies: HashSet<String>,
    same_line: Vec<SameLine>,
    verbatim: HashSet<String>,
    spaced: HashSet<String>,
    tight: HashSet<String>,
    separated: HashSet<String>,
    hugging: HashSet<String>,
    separators: HashSet<String>,
    space_before: HashSet<String>,
    space_after: HashSet<String>,
    no_space_before: HashSet<String>,
    no_space_after: HashSet<String>,
    break_before: HashSet<String>,
    break_after: HashSet<String>,
    formatters: Vec<Formatter>,
}

/// The data file of a built-in language.
fn source(lang: Lang) -> Option<&'static str> {
    Some(match lang {
        Lang::C => include_str!("../../../grammars/c/layout.toml"),
        Lang::Cpp => include_str!("../../../grammars/cpp/layout.toml"),
        Lang::JavaScript => include_str!("../../../grammars/javascript/layout.toml"),
        Lang::TypeScript => include_str!("../../../grammars/typescript/layout.toml"),
        Lang::Java => include_str!("../../../grammars/java/layout.toml"),
        Lang::Rust => include_str!("../../../grammars/rust/layout.toml"),
        Lang::Python => include_str!("../../../grammars/python/layout.toml"),
        Lang::Go => include_str!("../../../grammars/go/layout.toml"),
        // No layout data for HTML and CSS: their results keep their whitespace.
        Lang::Html | Lang::Css | Lang::Text | Lang::Loaded(_) => return None,
    })
}

impl Layout {
    /// Parse `text` and check every kind and token it names against the grammar.
    fn new(name: &str, text: &str, ts: &tree_sitter::Language) -> Result<Layout, String> {
        let spec: LayoutSpec =
            toml::from_str(text).map_err(|e| format!("grammars/{name}/layout.toml: {e}"))?;
        let kinds = |list: &[String], what: &str| -> Result<HashSet<String>, String> {
            for k in list {
                if ts.id_for_node_kind(k, true) == 0 {
                    return Err(format!(
                        "grammars/{name}/layout.toml: `{what}` names {k:?}, not a node kind of the grammar"
                    ));
                }
            }
            Ok(list.iter().cloned().collect())
        };
        let tokens = |list: &[String], what: &str| -> Result<HashSet<String>, String> {
            for t in list {
                if ts.id_for_node_kind(t, false) == 0 && ts.id_for_node_kind(t, true) == 0 {
                    return Err(format!(
                        "grammars/{name}/layout.toml: `{what}` names {t:?}, not a token of the grammar"
                    ));
                }
            }
            Ok(list.iter().cloned().collect())
        };
        for s in &spec.same_line {
            kinds(std::slice::from_ref(&s.parent), "same_line")?;
            if let Some(k) = &s.kind {
                kinds(std::slice::from_ref(k), "same_line")?;
            }
            if let Some(f) = &s.field {
                if ts.field_id_for_name(f).is_none() {
                    return Err(format!(
                        "grammars/{name}/layout.toml: `same_line` names field {f:?}, not a field of the grammar"
                    ));
                }
            }
        }
        if spec.indent.is_empty() || !spec.indent.bytes().all(|b| b == b' ' || b == b'\t') {
            return Err(format!(
                "grammars/{name}/layout.toml: `indent` must be spaces or tabs"
            ));
        }
        if spec.formatters.iter().any(|f| f.command.is_empty()) {
            return Err(format!(
                "grammars/{name}/layout.toml: a formatter without a command"
            ));
        }
        Ok(Layout {
            indent: spec.indent.clone(),
            lines: kinds(&spec.lines, "lines")?,
            blocks: kinds(&spec.blocks, "blocks")?,
            bodies: kinds(&spec.bodies, "bodies")?,
            verbatim: kinds(&spec.verbatim, "verbatim")?,
            spaced: kinds(&spec.spaced, "spaced")?,
            tight: kinds(&spec.tight, "tight")?,
            separated: kinds(&spec.separated, "separated")?,
            hugging: kinds(&spec.hugging, "hugging")?,
            separators: tokens(&spec.separators, "separators")?,
            space_before: tokens(&spec.space_before, "space_before")?,
            space_after: tokens(&spec.space_after, "space_after")?,
            no_space_before: tokens(&spec.no_space_before, "no_space_before")?,
            no_space_after: tokens(&spec.no_space_after, "no_space_after")?,
            break_before: tokens(&spec.break_before, "break_before")?,
            break_after: tokens(&spec.break_after, "break_after")?,
            same_line: spec.same_line,
            formatters: spec.formatters,
        })
    }

    /// The layout of a built-in language, loaded and checked once per process.
    fn of(lang: Lang) -> Option<&'static Layout> {
        static DATA: [OnceLock<Option<Layout>>; 16] = [const { OnceLock::new() }; 16];
        let i = Lang::all().iter().position(|&l| l == lang)?;
        DATA.get(i)?
            .get_or_init(|| {
                let text = source(lang)?;
                let data = lang.data().ok()?;
                Some(
                    Layout::new(lang.name(), text, &data.ts)
                        .unwrap_or_else(|e| panic!("built-in layout data is broken: {e}")),
                )
            })
            .as_ref()
    }

    fn is_line(&self, node: &tree_sitter::Node<'_>) -> bool {
        node.is_named() && self.lines.contains(node.kind())
    }

    fn is_block(&self, node: &tree_sitter::Node<'_>) -> bool {
        node.is_named() && self.blocks.contains(node.kind())
    }

    /// Is `node` copied as one piece (a leaf, a verbatim kind, an ERROR node)?
    fn is_token(&self, node: &tree_sitter::Node<'_>) -> bool {
        node.child_count() == 0
            || node.is_error()
            || (node.is_named() && self.verbatim.contains(node.kind()))
    }

    fn stays_on_line(&self, parent: &str, child: &str, field: Option<&str>) -> bool {
        self.same_line.iter().any(|s| {
            s.parent == parent
                && s.kind.as_deref().is_none_or(|k| k == child)
                && s.field.as_deref().is_none_or(|f| Some(f) == field)
        })
    }
}

impl Lang {
    /// treedd's own layout of `text` (see the module doc), or `None` where this language has
    /// no layout data, the text has no tokens, or the laid-out text would not parse to the
    /// same tree.
    pub fn lay_out(self, text: &[u8]) -> Option<Vec<u8>> {
        let layout = Layout::of(self)?;
        let tree = crate::parse::parse(self, text).ok()?;
        let out = lay_out(layout, &self.data().ok()?.ts, &tree, text)?;
        let again = crate::parse::parse(self, &out).ok()?;
        (shape(&tree) == shape(&again) && non_whitespace(&out) == non_whitespace(text))
            .then_some(out)
    }

    /// The language's own formatters (`[[formatters]]` of `layout.toml`), in order of
    /// preference; none for plain text and run-time grammars.
    pub fn formatters(self) -> &'static [Formatter] {
        Layout::of(self).map_or(&[], |l| &l.formatters)
    }
}

/// The non-whitespace bytes of `text`, in order (what the layout and the formatters must keep).
pub fn non_whitespace(text: &[u8]) -> Vec<u8> {
    text.iter()
        .copied()
        .filter(|b| !b.is_ascii_whitespace())
        .collect()
}

/// The tree's kinds and shape, in pre-order: what a change of whitespace must not change.
fn shape(tree: &tree_sitter::Tree) -> Vec<(u16, u32, bool)> {
    let mut out = Vec::new();
    walk(tree, |node| {
        out.push((node.kind_id(), node.child_count(), node.is_missing()));
        true
    });
    out
}

/// A piece of the text copied as it is.
#[derive(Debug)]
struct Token {
    start: usize,
    end: usize,
    /// The token's kind (the token rules of `layout.toml` name kinds of either sort).
    kind: Option<&'static str>,
    /// A comment or other extra: keeps the line breaks it had around it.
    extra: bool,
}

/// What the rules decided about the gap before each token (index = token).
#[derive(Default, Clone, Copy)]
struct Gap {
    brk: bool,
    tight: bool,
    spaced: bool,
    separated: bool,
}

fn lay_out(
    layout: &Layout,
    language: &'static tree_sitter::Language,
    tree: &tree_sitter::Tree,
    text: &[u8],
) -> Option<Vec<u8>> {
    // The tokens; a token of whitespace only (C's newline ending a directive) is a break.
    let mut tokens: Vec<Token> = Vec::new();
    let mut forced: Vec<usize> = Vec::new();
    walk(tree, |node| {
        if !layout.is_token(&node) {
            return true;
        }
        let (start, end) = (node.start_byte(), node.end_byte());
        if start >= end {
            return false;
        }
        if text[start..end].iter().all(u8::is_ascii_whitespace) {
            if text[start..end].contains(&b'\n') {
                forced.push(tokens.len());
            }
            return false;
        }
        tokens.push(Token {
            start,
            end,
            kind: language.node_kind_for_id(node.kind_id()),
            extra: node.is_extra(),
        });
        false
    });
    if tokens.is_empty() {
        return None;
    }
    let n = tokens.len();
    let mut gaps = vec![Gap::default(); n + 1];
    // +1 at a region's first token, -1 after its last.
    let mut depth = vec![0i32; n + 1];
    for i in forced {
        gaps[i].brk = true;
    }
    // Token range [a, b) of a node: the tokens starting inside it.
    let first_at = |byte: usize| tokens.partition_point(|t| t.start < byte);
    let range =
        |node: &tree_sitter::Node<'_>| (first_at(node.start_byte()), first_at(node.end_byte()));
    let sep = |i: usize| {
        i < n
            && tokens[i]
                .kind
                .is_some_and(|k| layout.separators.contains(k))
    };

    walk(tree, |node| {
        if layout.is_token(&node) {
            return false;
        }
        let (a, b) = range(&node);
        if a >= b {
            return false;
        }
        let kind = node.kind();
        let named = node.is_named();
        if layout.is_block(&node) {
            let count = node.child_count();
            let first = node.child(0).filter(|c| !c.is_named() && !c.is_extra());
            let last = node
                .child(count.saturating_sub(1))
                .filter(|c| !c.is_named() && !c.is_extra());
            match (first, last) {
                (Some(_), Some(_)) if count >= 2 => {
                    if b - 1 > a + 1 {
                        gaps[a + 1].brk = true;
                        gaps[b - 1].brk = true;
                        depth[a + 1] += 1;
                        depth[b - 1] -= 1;
                    }
                }
                _ => {
                    gaps[a].brk = true;
                    gaps[b].brk = true;
                    depth[a] += 1;
                    depth[b] -= 1;
                }
            }
        }
        // What the node decides about its children.
        let body = named && layout.bodies.contains(kind);
        let spaced = named && layout.spaced.contains(kind);
        let tight = named && layout.tight.contains(kind);
        let separated = named && layout.separated.contains(kind);
        let mut cursor = node.walk();
        let count = node.child_count() as usize;
        let mut previous_end: Option<usize> = None;
        for (i, child) in node.children(&mut cursor).enumerate() {
            let (ca, cb) = range(&child);
            if ca >= cb {
                continue;
            }
            if layout.is_line(&child) {
                let field = node.field_name_for_child(i as u32);
                if !layout.stays_on_line(kind, child.kind(), field) {
                    let mut end = cb;
                    while sep(end) {
                        end += 1;
                    }
                    gaps[ca].brk = true;
                    gaps[end].brk = true;
                    if body && !layout.is_block(&child) {
                        depth[ca] += 1;
                        depth[end] -= 1;
                    }
                }
            }
            let inner = i > 0 && i + 1 < count;
            if inner && !child.is_named() && !child.is_extra() && cb == ca + 1 {
                let bracket = child.kind().bytes().any(|b| b"()[]{},;".contains(&b));
                if tight {
                    gaps[ca].tight = true;
                    gaps[cb].tight = true;
                } else if spaced && !bracket {
                    gaps[ca].spaced = true;
                    gaps[cb].spaced = true;
                }
            }
            if previous_end.is_some() {
                if tight {
                    gaps[ca].tight = true;
                } else if separated && !layout.hugging.contains(child.kind()) {
                    gaps[ca].separated = true;
                }
            }
            previous_end = Some(cb);
        }
        true
    });
    for (i, t) in tokens.iter().enumerate() {
        if let Some(k) = t.kind {
            if layout.break_before.contains(k) {
                gaps[i].brk = true;
            }
            if layout.break_after.contains(k) {
                gaps[i + 1].brk = true;
            }
        }
    }

    let mut out = Vec::with_capacity(text.len() + text.len() / 4);
    let mut level = 0i32;
    // A break owed from before a trailing comment kept on its line.
    let mut owed = false;
    for i in 0..n {
        level += depth[i];
        let t = &tokens[i];
        if i > 0 {
            let p = &tokens[i - 1];
            let gap = &text[p.end..t.start];
            let newline = gap.contains(&b'\n');
            let g = gaps[i];
            let brk = g.brk || owed;
            owed = false;
            if !gap.iter().all(u8::is_ascii_whitespace) {
                // Text no token covers: copied as it is.
                out.extend_from_slice(gap);
            } else if t.extra && !newline {
                // A comment at the end of a line stays there; the break goes after it.
                out.push(b' ');
                owed = brk;
            } else if brk || (newline && (t.extra || p.extra)) {
                out.push(b'\n');
                for _ in 0..level.max(0) {
                    out.extend_from_slice(layout.indent.as_bytes());
                }
            } else if space(layout, &g, p, t, text) {
                out.push(b' ');
            }
        }
        out.extend_from_slice(&text[t.start..t.end]);
    }
    if out.last() != Some(&b'\n') {
        out.push(b'\n');
    }
    Some(out)
}

/// Is there a space between tokens `p` and `t` on one line?
fn space(layout: &Layout, g: &Gap, p: &Token, t: &Token, text: &[u8]) -> bool {
    if crate::glue(text[p.end - 1], text[t.start]) {
        return true;
    }
    if g.tight {
        return false;
    }
    if g.spaced {
        return true;
    }
    let after = |set: &HashSet<String>| p.kind.is_some_and(|k| set.contains(k));
    let before = |set: &HashSet<String>| t.kind.is_some_and(|k| set.contains(k));
    if after(&layout.no_space_after) || before(&layout.no_space_before) {
        return false;
    }
    after(&layout.space_after) || before(&layout.space_before) || g.separated || p.extra || t.extra
}

#[cfg(test)]
mod tests;
