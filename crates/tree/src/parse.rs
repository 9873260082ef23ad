//! Parsing with a per-thread parser cache. Bytes in (no UTF-8 check): tree-sitter
//! recovers from anything, ERROR and MISSING nodes are data.

use std::cell::RefCell;

use crate::{Error, Lang};

thread_local! {
    static PARSERS: RefCell<Vec<(Lang, tree_sitter::Parser)>> = const { RefCell::new(Vec::new()) };
}

/// Parse `src` with this thread's cached parser for `lang`.
pub(crate) fn parse(lang: Lang, src: &[u8]) -> Result<tree_sitter::Tree, Error> {
    parse_from(lang, src, None)
}

/// Parse `src`, reusing the unchanged parts of `old` (a tree of the text `src` was edited
/// from, already told the edit with `Tree::edit`), or from scratch when `old` is `None`.
pub(crate) fn parse_from(
    lang: Lang,
    src: &[u8],
    old: Option<&tree_sitter::Tree>,
) -> Result<tree_sitter::Tree, Error> {
    with_parser(lang, |parser| parser.parse(src, old))
}

/// Parse the part `range` of `src` alone (an island, see `inject.rs`): the tree's nodes have
/// their byte ranges in the whole of `src`.
pub(crate) fn parse_range(
    lang: Lang,
    src: &[u8],
    range: tree_sitter::Range,
) -> Result<tree_sitter::Tree, Error> {
    with_parser(lang, |parser| {
        parser.set_included_ranges(&[range]).ok()?;
        let tree = parser.parse(src, None);
        // The cached parser parses whole texts again, whether or not this parse succeeded.
        parser.set_included_ranges(&[]).ok()?;
        tree
    })
}

/// Run `parse` with this thread's cached parser for `lang`, reset; its `None` is an error.
fn with_parser(
    lang: Lang,
    parse: impl FnOnce(&mut tree_sitter::Parser) -> Option<tree_sitter::Tree>,
) -> Result<tree_sitter::Tree, Error> {
    let data = lang.data()?;
    PARSERS.with(|cell| {
        let mut parsers = cell.borrow_mut();
        let i = match parsers.iter().position(|(l, _)| *l == lang) {
            Some(i) => i,
            None => {
                let mut parser = tree_sitter::Parser::new();
                parser.set_language(&data.ts).map_err(|e| Error::Parser {
                    lang: lang.name(),
                    reason: e.to_string(),
                })?;
                parsers.push((lang, parser));
                parsers.len() - 1
            }
        };
        let parser = &mut parsers[i].1;
        parser.reset();
        parse(parser).ok_or(Error::Parser {
            lang: lang.name(),
            reason: "the parser returned no tree".to_string(),
        })
    })
}

/// Texts from this many bytes on give the pages of their freed parses back
/// ([`release_freed_memory`]).
const RELEASE_BYTES: usize = 1 << 20;

/// Give the pages of freed memory back to the system after the parse, tree or facts of a
/// text of `len` bytes went (only for large texts: [`RELEASE_BYTES`]). A parse is millions of
/// small blocks; glibc keeps the pages of freed ones, scattered among live blocks, and the
/// large arrays made next (a reduction tree's, the facts') take new pages beside them, so the
/// resident set would hold the last text's parse and the next text's at once.
pub(crate) fn release_freed_memory(len: usize) {
    if len < RELEASE_BYTES {
        return;
    }
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    {
        extern "C" {
            fn malloc_trim(pad: usize) -> std::ffi::c_int;
        }
        // SAFETY: glibc's `malloc_trim` takes no pointer; it only returns free pages.
        unsafe {
            malloc_trim(0);
        }
    }
}

/// ERROR and MISSING nodes of a parse, counted with an iterative cursor walk that only
/// enters subtrees containing errors.
pub(crate) fn error_nodes(tree: &tree_sitter::Tree) -> usize {
    let mut count = 0;
    walk(tree, |node| {
        if node.is_error() || node.is_missing() {
            count += 1;
        }
        node.has_error()
    });
    count
}

/// MISSING nodes of a parse (the rest of [`error_nodes`] are ERROR nodes).
pub(crate) fn missing_nodes(tree: &tree_sitter::Tree) -> usize {
    let mut count = 0;
    walk(tree, |node| {
        count += usize::from(node.is_missing());
        node.has_error()
    });
    count
}

/// Visit the nodes of `tree` in pre-order; `visit` says whether to go into a node's children.
pub(crate) fn walk<'t>(
    tree: &'t tree_sitter::Tree,
    mut visit: impl FnMut(tree_sitter::Node<'t>) -> bool,
) {
    walk_in(tree, |node, _| visit(node));
}

/// [`walk`], with the ancestors of each node (the root first): a node's parent costs nothing
/// here, where tree-sitter's `Node::parent` searches down from the root, through every child
/// before the node's at each level.
pub(crate) fn walk_in<'t>(
    tree: &'t tree_sitter::Tree,
    mut visit: impl FnMut(tree_sitter::Node<'t>, &[tree_sitter::Node<'t>]) -> bool,
) {
    let mut cursor = tree.walk();
    let mut ancestors: Vec<tree_sitter::Node<'t>> = Vec::new();
    loop {
        let node = cursor.node();
        if visit(node, &ancestors) && cursor.goto_first_child() {
            ancestors.push(node);
            continue;
        }
        loop {
            if cursor.goto_next_sibling() {
                break;
            }
            if !cursor.goto_parent() {
                return;
            }
            ancestors.pop();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::count_errors;

    #[test]
    fn counts_errors_and_missing() {
        assert_eq!(count_errors(Lang::C, b"int x;"), 0);
        assert_eq!(count_errors(Lang::C, b"int x"), 1); // MISSING ;
        assert!(count_errors(Lang::C, b"int x = ) ;") >= 1);
        assert_eq!(count_errors(Lang::JavaScript, b"let a = 1\n"), 0);
        assert!(count_errors(Lang::Java, b"class { }") >= 1);
        assert_eq!(count_errors(Lang::Text, b"anything"), 0);
    }

    #[test]
    fn parser_is_reused_across_languages() {
        for _ in 0..3 {
            assert_eq!(count_errors(Lang::C, b"int x;"), 0);
            assert_eq!(count_errors(Lang::Java, b"class A {}"), 0);
        }
        PARSERS.with(|p| assert_eq!(p.borrow().len(), 2));
    }
}
