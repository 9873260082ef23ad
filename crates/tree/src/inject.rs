//! Documents with embedded languages (tree-sitter's *language injections*, Picireny's island
//! grammars): an HTML `<script>` holds JavaScript, a `<style>` CSS. A host language says in
//! `grammars/<lang>/injections.toml` which node kind holds text of which language; each such
//! node's text is an *island*, parsed with the island's own grammar over the island's byte
//! range of the whole text (tree-sitter's included ranges), so every node of an island has
//! its byte range in the document, as the host's nodes do. Islands may hold islands.
//!
//! The reduction tree puts each island's root in the place of the node that holds it
//! (`raw.rs`), its nodes carrying their own language's data; the syntax filter counts the
//! islands' errors ([`errors`]); [`crate::Facts`] are the host's and the islands' facts
//! together.
//!
//! An `[[injections]]` entry: the `content` node kind (under a `parent` of the given kind)
//! holds text of `language`, or of the language `select` names: the first node of kind
//! `select.node` under the parent (outside the content) whose `select.key` child has the text
//! `select.is` (ASCII case ignored), its `select.value` descendant's text looked up in
//! `languages` (or taken as a language name when there is no table). A named value not in the
//! table is no island (`<script type="text/template">`).

use crate::injections::{Injection, Select};
use crate::{parse, Lang};

/// How deep islands may nest (an island of an island ...).
const MAX_DEPTH: usize = 8;

/// An island: a range of the text in another language, its parse, and its own islands.
pub(crate) struct Island {
    pub lang: Lang,
    pub range: tree_sitter::Range,
    /// The tree-sitter kind id of the host's node that holds it.
    pub holder: u16,
    pub tree: tree_sitter::Tree,
    pub islands: Vec<Island>,
}

/// The islands of `src`, whose parse in `lang` is `tree`, each parsed (with its own islands);
/// none for a language without injections.
pub(crate) fn islands(lang: Lang, tree: &tree_sitter::Tree, src: &[u8]) -> Vec<Island> {
    islands_at(lang, tree, src, 0)
}

fn islands_at(lang: Lang, tree: &tree_sitter::Tree, src: &[u8], depth: usize) -> Vec<Island> {
    if depth >= MAX_DEPTH {
        return Vec::new();
    }
    sites(lang, tree, src)
        .into_iter()
        .filter_map(|(lang, range, holder)| {
            let tree = parse::parse_range(lang, src, range).ok()?;
            let islands = islands_at(lang, &tree, src, depth + 1);
            Some(Island {
                lang,
                range,
                holder,
                tree,
                islands,
            })
        })
        .collect()
}

/// ERROR and MISSING nodes of the islands of `src` (parsed in `lang` as `tree`), nested
/// islands included.
pub(crate) fn errors(lang: Lang, tree: &tree_sitter::Tree, src: &[u8]) -> usize {
    fn count(islands: &[Island]) -> usize {
        islands
            .iter()
            .map(|i| parse::error_nodes(&i.tree) + count(&i.islands))
            .sum()
    }
    count(&islands(lang, tree, src))
}

/// The languages a text in `lang` may hold islands of (not nested ones).
pub(crate) fn languages(lang: Lang) -> Vec<Lang> {
    let Ok(data) = lang.data() else {
        return Vec::new();
    };
    let mut out: Vec<Lang> = data
        .injections
        .iter()
        .flat_map(|i| i.language.iter().chain(i.languages.values()))
        .filter_map(|l| Lang::from_name(l))
        .collect();
    out.sort_by_key(|l| l.name());
    out.dedup();
    out
}

/// The nodes of `tree` that hold text of another language, in source order: that language,
/// the node's range (non-empty) and kind id.
fn sites(lang: Lang, tree: &tree_sitter::Tree, src: &[u8]) -> Vec<(Lang, tree_sitter::Range, u16)> {
    let Ok(data) = lang.data() else {
        return Vec::new();
    };
    if data.injections.is_empty() {
        return Vec::new();
    }
    let mut out = Vec::new();
    parse::walk(tree, |node| {
        if node.start_byte() == node.end_byte() {
            return false;
        }
        let Some(inj) = data.injections.iter().find(|i| holds(i, node)) else {
            return true;
        };
        if let Some(l) = node.parent().and_then(|p| language_of(inj, p, node, src)) {
            out.push((l, node.range(), node.kind_id()));
        }
        false
    });
    out
}

/// `node` is the content node of `inj`.
fn holds(inj: &Injection, node: tree_sitter::Node<'_>) -> bool {
    node.kind() == inj.content
        && node.is_named()
        && inj
            .parent
            .as_ref()
            .is_none_or(|p| node.parent().is_some_and(|n| n.kind() == p))
}

/// The language of `content`, an island under `parent`, if it is one.
fn language_of(
    inj: &Injection,
    parent: tree_sitter::Node<'_>,
    content: tree_sitter::Node<'_>,
    src: &[u8],
) -> Option<Lang> {
    let named = inj
        .select
        .as_ref()
        .and_then(|s| selected(s, parent, content, src));
    let name = match named {
        None => inj.language.clone()?,
        Some(value) if inj.languages.is_empty() => value,
        Some(value) => inj.languages.get(&value)?.clone(),
    };
    Lang::from_name(&name).filter(|l| l.has_grammar())
}

/// The value `select` finds under `parent` (outside `content`), lowercased and trimmed.
fn selected(
    select: &Select,
    parent: tree_sitter::Node<'_>,
    content: tree_sitter::Node<'_>,
    src: &[u8],
) -> Option<String> {
    let text =
        |n: tree_sitter::Node<'_>| String::from_utf8_lossy(&src[n.byte_range()]).into_owned();
    let mut stack = vec![parent];
    while let Some(n) = stack.pop() {
        if n == content {
            continue;
        }
        if n.kind() == select.node {
            let key_matches = match (&select.key, &select.is) {
                (Some(key), is) => {
                    let mut c = n.walk();
                    let keys: Vec<_> = n
                        .named_children(&mut c)
                        .filter(|k| k.kind() == key)
                        .collect();
                    keys.iter().any(|k| {
                        is.as_ref()
                            .is_none_or(|is| text(*k).trim().eq_ignore_ascii_case(is))
                    })
                }
                (None, _) => true,
            };
            if key_matches {
                let value = match &select.value {
                    None => Some(n),
                    Some(v) => first_of_kind(n, v),
                };
                return Some(value.map_or(String::new(), |v| text(v).trim().to_ascii_lowercase()));
            }
        }
        let mut c = n.walk();
        let kids: Vec<_> = n.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    None
}

/// The first node of `kind` under `node` (itself excluded), in pre-order.
fn first_of_kind<'t>(node: tree_sitter::Node<'t>, kind: &str) -> Option<tree_sitter::Node<'t>> {
    let mut c = node.walk();
    let mut stack: Vec<_> = node.children(&mut c).collect();
    stack.reverse();
    while let Some(n) = stack.pop() {
        if n.kind() == kind {
            return Some(n);
        }
        let mut c = n.walk();
        let kids: Vec<_> = n.children(&mut c).collect();
        stack.extend(kids.into_iter().rev());
    }
    None
}

/// Re-parse `src` and count its ERROR and MISSING nodes (the syntax filter's measure),
/// those of its islands in other languages included.
/// A language without grammar, or a parser failure, counts as 0 errors.
pub fn count_errors(lang: Lang, src: &[u8]) -> usize {
    parse_counting(lang, src).0
}

/// [`count_errors`] with the tree it counted in (none without a grammar or a tree).
pub(crate) fn parse_counting(lang: Lang, src: &[u8]) -> (usize, Option<tree_sitter::Tree>) {
    match parse::parse(lang, src) {
        Ok(tree) => (
            parse::error_nodes(&tree) + errors(lang, &tree, src),
            Some(tree),
        ),
        Err(_) => (0, None),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_error(text: &str, expected: &str) {
        let ts = &Lang::Html.data().unwrap().ts;
        let known = |l: &str| Lang::from_name(l).is_some_and(Lang::has_grammar);
        let err = crate::injections::parse("html", text, ts, known).unwrap_err();
        assert!(err.contains(expected), "{err}");
        assert!(!err.contains('\n') || err.starts_with("grammars/html/injections.toml"));
    }

    #[test]
    fn bad_injections_are_clear_errors() {
        check_error(
            "[[injections]]\ncontent = \"no_such_kind\"\nlanguage = \"css\"\n",
            "grammars/html/injections.toml: `no_such_kind` is not a named node kind of the grammar",
        );
        check_error(
            "[[injections]]\ncontent = \"raw_text\"\nlanguage = \"cobol\"\n",
            "grammars/html/injections.toml: `cobol` is not a built-in language",
        );
        check_error(
            "[[injections]]\ncontent = \"raw_text\"\nlanguage = \"css\"\nlang = \"x\"\n",
            "unknown field `lang`",
        );
    }

    /// The languages of the islands of an HTML text, in source order, nested ones after
    /// their host's.
    fn island_langs(src: &str) -> Vec<&'static str> {
        fn walk(islands: &[Island], out: &mut Vec<&'static str>) {
            for i in islands {
                out.push(i.lang.name());
                walk(&i.islands, out);
            }
        }
        let tree = parse::parse(Lang::Html, src.as_bytes()).unwrap();
        let mut out = Vec::new();
        walk(&islands(Lang::Html, &tree, src.as_bytes()), &mut out);
        out
    }

    #[test]
    fn the_type_attribute_selects_the_language() {
        assert_eq!(
            island_langs(
                "<script>a()</script><script type=' MODULE '>b()</script>\
                 <script type=\"text/template\"><p>{{x}}</p></script>\
                 <script type=\"application/json\">{}</script>\
                 <style>p { color: red }</style><script></script>"
            ),
            ["javascript", "javascript", "css"]
        );
    }

    #[test]
    fn islands_have_their_byte_ranges_in_the_document() {
        let src = "<p>x</p><script>let abc = 1;</script>";
        let tree = parse::parse(Lang::Html, src.as_bytes()).unwrap();
        let islands = islands(Lang::Html, &tree, src.as_bytes());
        let root = islands[0].tree.root_node();
        assert_eq!(&src[root.byte_range()], "let abc = 1;");
        let decl = root.named_child(0).unwrap().named_child(0).unwrap();
        assert_eq!(&src[decl.byte_range()], "abc = 1");
    }

    #[test]
    fn the_islands_errors_count_with_the_documents() {
        let count = |s: &str| count_errors(Lang::Html, s.as_bytes());
        assert_eq!(
            count("<script>let a = 1;</script><style>p { color: red }</style>"),
            0
        );
        assert!(count("<script>let = ;</script>") > 0);
        assert!(count("<style>p { color: red </style>") > 0);
        // Not an island: not JavaScript's error.
        assert_eq!(count("<script type=text/template>let = ;</script>"), 0);
    }

    #[test]
    fn facts_and_reserved_words_include_the_islands() {
        let src = b"<p class=\"note\">t</p><script>function f(x) { return x; } f(1);</script>";
        let facts = Lang::Html.facts(src).unwrap();
        let idents: Vec<&str> = facts
            .idents
            .iter()
            .map(|i| std::str::from_utf8(&src[i.range.clone()]).unwrap())
            .collect();
        assert_eq!(idents, ["note", "f", "x", "x", "f"]);
        assert!(facts
            .functions
            .iter()
            .any(|f| f.name == b"f" && f.elems.len() == 1));
        assert!(Lang::Html.is_reserved(b"function"));
        assert!(Lang::Html.is_reserved(b"module"));
        assert!(!Lang::Css.is_reserved(b"function"));
    }
}
