//! CONTRACT (skeleton): the public API other crates code against. Bodies are filled in
//! by the tree-crate work (issue 3); signatures change only by agreement.

use crate::{Error, Lang};

/// A node of a reduction tree. Index into the tree's arena.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct NodeId(u32);

impl NodeId {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// A tentative change to one node, used to serialize a candidate without mutating the tree.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edit {
    /// Keep the node as it is in the current tree.
    Keep,
    /// Replace the node's subtree by its replacement string.
    Prune,
    /// Put this (compatible) descendant in the node's place.
    Hoist(NodeId),
}

/// A reduction tree: rule nodes and token leaves in an arena, with the current state of
/// reduction (pruned nodes, hoisted nodes).
pub struct RTree {
    lang: Lang,
}

impl RTree {
    /// Parse `src` and build the squeezed, flattened tree. Never fails on bad input.
    pub fn build(lang: Lang, src: &[u8]) -> Result<RTree, Error> {
        let _ = src;
        Err(Error::NoGrammar(lang.name()))
    }
    pub fn lang(&self) -> Lang {
        self.lang
    }
    /// The root of the current tree.
    pub fn root(&self) -> NodeId {
        todo!()
    }
    /// The node kind (tree-sitter kind name; tokens: their kind, e.g. `;`).
    pub fn kind(&self, _n: NodeId) -> &str {
        todo!()
    }
    /// Parent in the current tree (after hoisting), None for the root.
    pub fn parent(&self, _n: NodeId) -> Option<NodeId> {
        todo!()
    }
    /// Children in the current tree, in source order (pruned children included).
    pub fn children(&self, _n: NodeId) -> &[NodeId] {
        todo!()
    }
    pub fn is_token(&self, _n: NodeId) -> bool {
        todo!()
    }
    /// Tokens that can never be removed on their own; HDD never puts them in a configuration.
    pub fn is_hidden(&self, _n: NodeId) -> bool {
        todo!()
    }
    /// True once the node has been pruned (committed).
    pub fn is_pruned(&self, _n: NodeId) -> bool {
        todo!()
    }
    /// The text that replaces the node when pruned ("" when the position may be empty).
    pub fn replacement(&self, _n: NodeId) -> &[u8] {
        todo!()
    }
    /// Two node kinds may stand for each other (same kind, or listed in grammars/<lang>).
    pub fn compatible(&self, _a: NodeId, _b: NodeId) -> bool {
        todo!()
    }
    /// Serialize the current tree.
    pub fn unparse(&self) -> Vec<u8> {
        self.unparse_with(&|_| Edit::Keep)
    }
    /// Serialize the current tree with tentative edits (consulted for every live node).
    pub fn unparse_with(&self, _edits: &dyn Fn(NodeId) -> Edit) -> Vec<u8> {
        todo!()
    }
    /// Commit: replace the node's subtree by its replacement.
    pub fn prune(&mut self, _n: NodeId) {
        todo!()
    }
    /// Commit: `desc` (a descendant compatible with `n`) takes `n`'s place.
    pub fn hoist(&mut self, _n: NodeId, _desc: NodeId) {
        todo!()
    }
    /// ERROR and MISSING nodes in the original parse.
    pub fn error_count(&self) -> usize {
        todo!()
    }
}

/// Re-parse `src` and count its ERROR and MISSING nodes (the syntax filter's measure).
pub fn count_errors(lang: Lang, src: &[u8]) -> usize {
    let _ = (lang, src);
    todo!()
}
