//! The reduction tree: an arena of rule nodes and token leaves built from a tree-sitter
//! parse, with the current state of reduction (pruned and hoisted nodes).
//!
//! **Invariant:** serializing the untouched tree gives the input back byte for byte.
//! Every token leaf owns the bytes between the previous token and itself (whitespace, and
//! text of hidden grammar tokens) as its prefix; the bytes after the last token are the
//! trailer. Zero-width nodes (MISSING, automatic semicolons) are not in the tree.
//!
//! Building runs in two passes, both iterative: [`crate::raw`] copies the visible tree-sitter
//! nodes with an explicit cursor walk; the second pass creates the final nodes top-down,
//! squeezing single-child chains ([`crate::squeeze`]) and flattening recursive chains
//! ([`crate::flatten`]): chains listed in `grammars/<lang>/flatten.txt` become one node of
//! removable `<kind>/tail` groups.
//!
//! What the algorithms see of a node: its replacement ([`crate::replace`]: "" where its
//! position may be empty, one of several where a sibling in the same position remains, else
//! its kind's minimal string); whether it is *hidden* (an anonymous token in a required
//! position, which no algorithm tests); [`RTree::compatible`] (same kind, or a shared group of
//! `grammars/<lang>/compatible.txt`, one bit per group) and [`RTree::fits`] for hoisting.
//! Identifier tokens (the `identifiers` kinds of passes.toml, reserved words but contextual
//! keywords excepted) carry a number per spelling and a mark on each spelling's first
//! occurrence, for the reference closure. The tree changes only through [`RTree::prune`] and
//! [`RTree::hoist`], committed after the judge found the candidate interesting; candidates
//! are serialized without mutating it (`rtree/unparse.rs`).

use crate::flatten::{self, Item};
use crate::lang::{KindId, LangData};
use crate::raw::{Langed, Raw};
use crate::{parse, squeeze, Error, Lang};

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

/// Sizes and heights of a tree, before (raw tree-sitter tree of visible nodes) and after
/// squeezing and flattening.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TreeStats {
    pub bytes: usize,
    /// Visible non-empty tree-sitter nodes and their height.
    pub raw_nodes: usize,
    pub raw_height: usize,
    /// Nodes of the reduction tree (rules + tokens) and its height (a lone root is 1).
    pub nodes: usize,
    pub rules: usize,
    pub tokens: usize,
    /// Nodes HDD never tests (tokens that cannot be removed on their own).
    pub hidden: usize,
    pub height: usize,
    /// ERROR and MISSING nodes of the parse.
    pub errors: usize,
    /// The MISSING ones among them.
    pub missing: usize,
}

const TOKEN: u16 = 1;
const HIDDEN: u16 = 2;
const OPTIONAL: u16 = 4;
const PRUNED: u16 = 8;
/// A hidden list separator (`,`, or another token where positions.tsv says so).
const SEPARATOR: u16 = 16;
/// Where a name is declared (see [`RTree::is_declaration`]).
const DECLARES: u16 = 32;
/// An identifier token naming the function a call calls (see [`RTree::is_callee`]).
const CALLEE: u16 = 64;
/// A [`CALLEE`] whose call is a statement alone (see [`RTree::is_statement_callee`]).
const STATEMENT_CALLEE: u16 = 128;
/// In a field that admits one kind only, whose texts all begin with one token: hoisting puts
/// only what begins with that token here ([`RTree::fits`]).
const FIXED: u16 = 256;
/// A token the grammar allows anywhere (a comment).
const EXTRA: u16 = 512;
/// A declaration the compiler rejects when nothing uses it (see [`RTree::must_be_used`]).
const MUST_USE: u16 = 1024;
const NONE: u32 = u32::MAX;

#[derive(Clone, Copy, Debug)]
struct Node {
    kind: KindId,
    /// Kind of the innermost node of a squeezed chain (== kind if not squeezed).
    inner: KindId,
    flags: u16,
    /// The node's language: an index into [`RTree::langs`] (0: the text's; others: islands',
    /// see `inject.rs`). `kind` and `inner` are kinds of that language.
    lang: u8,
    /// Tokens: prefix start, text start, text end. Rules: pre == start, byte range.
    pre: u32,
    start: u32,
    end: u32,
    kids_start: u32,
    kids_len: u32,
    parent: u32,
}

/// A reduction tree: rule nodes and token leaves in an arena, with the current state of
/// reduction (pruned nodes, hoisted nodes).
#[derive(Clone)]
pub struct RTree {
    /// The text's language first, then the languages of its islands.
    langs: Vec<Langed>,
    src: Vec<u8>,
    nodes: Vec<Node>,
    kids: Vec<NodeId>,
    root: NodeId,
    /// Start of the bytes after the last token.
    trailer: u32,
    errors: usize,
    /// The MISSING nodes among `errors`.
    missing: usize,
    /// Per node: the identifier name of an identifier token (see [`RTree::name`]), else NONE;
    /// empty for a language without `declare_before_use` or `[[declarations]]`.
    names: Vec<u32>,
    /// Per node: the spelling of an identifier token (see [`RTree::spelling`]), else NONE.
    spellings: Vec<u32>,
    raw_nodes: usize,
    raw_height: usize,
    /// Per node: the source range `src[pre..end]` its subtree unparses to while no edit,
    /// committed or tentative, touches it (first token's prefix start, last token's end);
    /// `(NONE, NONE)` when its tokens are not contiguous in the source or a commit touched
    /// it. A child's `NONE` makes its parent's `NONE`. See [`RTree::unparse_scoped`].
    spans: Vec<(u32, u32)>,
    /// In a language whose blocks are marked by indentation (`indentation` of passes.toml):
    /// the nodes hoisted into another's place, by node index, with where they now stand
    /// (see [`Move`]).
    moves: std::collections::HashMap<u32, Move>,
}

/// Where a node hoisted into another's place stands, in a language whose blocks are marked
/// by indentation (Python): its lines are shifted by `shift` columns (the place's column
/// less its own), and its first token takes the whitespace before the place (`lead`, a
/// source range) instead of its own, so `if x:\n    f()` becomes `f()` at the `if`'s column.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Move {
    pub shift: i32,
    pub lead: (u32, u32),
}

/// A parse of the text an [`RTree`] was built from (see [`RTree::build_parsed`]).
pub struct Parse(pub(crate) tree_sitter::Tree);

impl RTree {
    /// Parse `src` and build the squeezed, flattened tree. Never fails on bad input.
    pub fn build(lang: Lang, src: &[u8]) -> Result<RTree, Error> {
        RTree::build_with(lang, src, drop).map(|(tree, ())| tree)
    }

    /// [`RTree::build`], also giving back the parse of `src`, which the syntax filter can
    /// start from ([`crate::SyntaxFilter::rebase_parsed`]) instead of parsing `src` again.
    pub fn build_parsed(lang: Lang, src: &[u8]) -> Result<(RTree, Parse), Error> {
        RTree::build_with(lang, src, Parse)
    }

    /// The tree of `src`, and what `keep` makes of its parse. The parse, the raw nodes and
    /// the tree are each many times the text: `keep` takes the parse before the tree is made
    /// (`drop` frees it), and the raw nodes go before the tree's spans and names.
    fn build_with<P>(
        lang: Lang,
        src: &[u8],
        keep: impl FnOnce(tree_sitter::Tree) -> P,
    ) -> Result<(RTree, P), Error> {
        let data = lang.data()?;
        if src.len() >= u32::MAX as usize {
            return Err(Error::TooLarge(src.len()));
        }
        // What was freed before (the last text's tree and facts) goes first.
        parse::release_freed_memory(src.len());
        let ts_tree = parse::parse(lang, src)?;
        let islands = crate::inject::islands(lang, &ts_tree, src);
        let mut langs: Vec<Langed> = vec![(lang, data)];
        let mut errors = parse::error_nodes(&ts_tree);
        let mut missing = parse::missing_nodes(&ts_tree);
        let mut callees = std::collections::HashMap::new();
        let mut sites = Vec::new();
        // The text's tree and its islands' (the built-in languages are fewer than 256).
        let mut trees = vec![(data, &ts_tree, &islands)];
        while let Some((d, t, below)) = trees.pop() {
            if d.passes.declare_before_use {
                callees.extend(crate::facts::callee_starts(&d.passes, t));
            }
            sites.extend(crate::facts::declaration_sites(&d.passes, t, src));
            for island in below {
                let d = island.lang.data()?;
                if !langs.iter().any(|x| x.0 == island.lang) {
                    langs.push((island.lang, d));
                }
                errors += parse::error_nodes(&island.tree);
                missing += parse::missing_nodes(&island.tree);
                trees.push((d, &island.tree, &island.islands));
            }
        }
        let raw = Raw::new(&langs, &ts_tree, &islands, src);
        drop(islands);
        let parse = keep(ts_tree);
        let mut tree = RTree {
            langs,
            src: src.to_vec(),
            nodes: Vec::with_capacity(raw.len()),
            kids: Vec::with_capacity(raw.len()),
            root: NodeId(0),
            trailer: raw.trailer,
            errors,
            missing,
            names: Vec::new(),
            spellings: Vec::new(),
            raw_nodes: raw.len(),
            raw_height: raw.height,
            spans: Vec::new(),
            moves: Default::default(),
        };
        tree.build_from(&raw);
        drop(raw);
        parse::release_freed_memory(src.len());
        tree.spans = tree.source_spans();
        tree.name_identifiers(&callees, &sites);
        tree.number_spellings();
        Ok((tree, parse))
    }

    /// Second pass: final nodes, top-down with an explicit task stack.
    fn build_from(&mut self, raw: &Raw) {
        enum Task {
            Raw(u32, bool),
            Group(u32, u32, KindId),
        }
        let mut scratch: Vec<u32> = Vec::new();
        let mut items: Vec<Item> = Vec::new();
        let mut tasks: Vec<(Task, u32, u32)> = vec![(Task::Raw(0, true), NONE, 0)];
        while let Some((task, parent, slot)) = tasks.pop() {
            let id = self.nodes.len() as u32;
            let first_item = items.len();
            let mut node = match task {
                Task::Raw(r0, optional) => {
                    let outer = raw.kind[r0 as usize];
                    let lang = raw.lang[r0 as usize];
                    let data = self.langs[lang as usize].1;
                    let outer_named = data.is_named(outer);
                    let r = squeeze::squeeze(raw, r0);
                    let ru = r as usize;
                    let mut node = Node {
                        kind: outer,
                        inner: raw.kind[ru],
                        lang,
                        flags: if optional { OPTIONAL } else { 0 }
                            | if raw.fixed[r0 as usize] { FIXED } else { 0 }
                            | if raw.extra[ru] { EXTRA } else { 0 },
                        pre: raw.pre[ru],
                        start: raw.start[ru],
                        end: raw.end[ru],
                        kids_start: self.kids.len() as u32,
                        kids_len: 0,
                        parent,
                    };
                    if raw.is_token(r) {
                        node.flags |= TOKEN;
                        let text = &self.src[node.start as usize..node.end as usize];
                        // Named tokens stay visible even where pruning is a no-op (an
                        // identifier `a` whose replacement is `a`): they are hoisting
                        // candidates.
                        if !optional && !outer_named {
                            node.flags |= HIDDEN;
                            let list = self.nodes.get(parent as usize).map(|p| (p.inner, p.lang));
                            let sep = match list {
                                Some((kind, l)) if l == lang => data.is_separator(kind, text),
                                _ => text == b",",
                            };
                            if sep {
                                node.flags |= SEPARATOR;
                            }
                        }
                    } else if !flatten::chain(raw, data, r, &mut items, &mut scratch) {
                        items.extend(
                            raw.kids(r)
                                .iter()
                                .map(|&k| Item::Raw(k, raw.optional[k as usize])),
                        );
                    }
                    node
                }
                Task::Group(s, len, kind) => {
                    let members = &scratch[s as usize..(s + len) as usize];
                    let first = members[0] as usize;
                    let last = members[members.len() - 1] as usize;
                    items.extend(
                        members
                            .iter()
                            .map(|&k| Item::Raw(k, raw.optional[k as usize])),
                    );
                    Node {
                        kind,
                        inner: kind,
                        lang: raw.lang[first],
                        flags: OPTIONAL,
                        pre: raw.start[first],
                        start: raw.start[first],
                        end: raw.end[last],
                        kids_start: self.kids.len() as u32,
                        kids_len: 0,
                        parent,
                    }
                }
            };
            let n_items = items.len() - first_item;
            node.kids_len = n_items as u32;
            self.kids.extend(std::iter::repeat_n(NodeId(NONE), n_items));
            // Push in reverse so that nodes are created in pre-order.
            for (i, item) in items.drain(first_item..).enumerate().rev() {
                let slot = node.kids_start + i as u32;
                let task = match item {
                    Item::Raw(k, opt) => Task::Raw(k, opt),
                    Item::Group(s, len, kind) => Task::Group(s, len, kind),
                };
                tasks.push((task, id, slot));
            }
            self.nodes.push(node);
            if parent == NONE {
                self.root = NodeId(id);
            } else {
                self.kids[slot as usize] = NodeId(id);
            }
        }
    }

    /// [`RTree::spans`] of the tree just built: children have larger ids than their parent
    /// (pre-order), so one pass from the last id computes every node after its children.
    fn source_spans(&self) -> Vec<(u32, u32)> {
        let mut spans = vec![(NONE, NONE); self.nodes.len()];
        for i in (0..self.nodes.len()).rev() {
            let node = &self.nodes[i];
            if node.flags & TOKEN != 0 {
                spans[i] = (node.pre, node.end);
                continue;
            }
            let kids = self.children(NodeId(i as u32));
            let contiguous = !kids.is_empty()
                && kids.iter().all(|k| spans[k.index()].0 != NONE)
                && kids
                    .windows(2)
                    .all(|w| spans[w[0].index()].1 == spans[w[1].index()].0);
            if contiguous {
                spans[i] = (
                    spans[kids[0].index()].0,
                    spans[kids[kids.len() - 1].index()].1,
                );
            }
        }
        spans
    }

    /// A commit changed what `n`'s subtree unparses to: it and its ancestors leave the
    /// fast path of [`RTree::unparse_scoped`].
    fn touch(&mut self, mut n: u32) {
        while n != NONE && self.spans[n as usize].0 != NONE {
            self.spans[n as usize] = (NONE, NONE);
            n = self.nodes[n as usize].parent;
        }
    }

    /// The language of the text the tree was built from.
    pub fn lang(&self) -> Lang {
        self.langs[0].0
    }
    /// The language of a node: the text's, or that of the island it is in (`<script>`'s
    /// JavaScript in an HTML document).
    pub fn lang_of(&self, n: NodeId) -> Lang {
        self.langs[self.node(n).lang as usize].0
    }
    /// The grammar data of a node's language.
    fn data(&self, n: NodeId) -> &'static LangData {
        self.langs[self.node(n).lang as usize].1
    }
    /// The root of the current tree.
    pub fn root(&self) -> NodeId {
        self.root
    }
    /// Number of nodes in the arena (ids are `0..node_count()`; detached nodes included).
    pub fn node_count(&self) -> usize {
        self.nodes.len()
    }
    /// The node kind (tree-sitter kind name; tokens: their kind, e.g. `;`). Squeezed nodes
    /// have the kind of the outermost node of the chain; the groups of a flattened chain
    /// have kind `<kind>/tail`.
    pub fn kind(&self, n: NodeId) -> &str {
        &self.data(n).names[self.node(n).kind as usize]
    }
    /// The kind of the innermost node of a squeezed chain (== `kind` when not squeezed).
    pub fn inner_kind(&self, n: NodeId) -> &str {
        &self.data(n).names[self.node(n).inner as usize]
    }
    /// Parent in the current tree (after hoisting), None for the root.
    pub fn parent(&self, n: NodeId) -> Option<NodeId> {
        let p = self.node(n).parent;
        (p != NONE).then_some(NodeId(p))
    }
    /// Children in the current tree, in source order (pruned children included).
    pub fn children(&self, n: NodeId) -> &[NodeId] {
        let node = self.node(n);
        &self.kids[node.kids_start as usize..(node.kids_start + node.kids_len) as usize]
    }
    pub fn is_token(&self, n: NodeId) -> bool {
        self.node(n).flags & TOKEN != 0
    }
    /// The node's kind is a named kind of the grammar (`true`, `predefined_type`, an
    /// identifier), not a keyword or punctuation token such as `;`.
    pub fn is_named(&self, n: NodeId) -> bool {
        self.data(n).is_named(self.node(n).kind)
    }
    /// Tokens that can never be removed on their own; HDD never puts them in a configuration.
    pub fn is_hidden(&self, n: NodeId) -> bool {
        self.node(n).flags & HIDDEN != 0
    }
    /// An identifier token's name: the same number for the same spelling, in the kinds that
    /// `identifiers` of `grammars/<lang>/passes.toml` lists, fixed words (`int`, `main`)
    /// excepted; also a declaration that a path names (Go's `import "unicode/utf8"`: `utf8`);
    /// `None` for every other node, and for every node of a language whose passes.toml has
    /// neither `declare_before_use` nor `[[declarations]]` (names are only used for the
    /// reference closure, which needs to know where a name is declared).
    pub fn name(&self, n: NodeId) -> Option<u32> {
        self.names
            .get(n.index())
            .copied()
            .filter(|&name| name != NONE)
    }
    /// An identifier token's spelling, numbered (the same number for the same spelling), in
    /// every language whose passes.toml says `defined_before_use`, fixed words excepted;
    /// `None` for other nodes. Unlike [`RTree::name`] it says nothing of where names are
    /// declared.
    pub fn spelling(&self, n: NodeId) -> Option<u32> {
        self.spellings
            .get(n.index())
            .copied()
            .filter(|&s| s != NONE)
    }

    /// Where its name is declared, as the text the tree was built from says: with
    /// `declare_before_use`, an identifier token whose spelling occurs in no token before
    /// it; and a token (or a path's node) a declaration of `[[declarations]]` declares.
    pub fn is_declaration(&self, n: NodeId) -> bool {
        self.node(n).flags & DECLARES != 0
    }
    /// A declaration (see [`RTree::is_declaration`]) that the compiler rejects when nothing
    /// uses it (`must_use` of `[[declarations]]`: Go's imports and local variables).
    pub fn must_be_used(&self, n: NodeId) -> bool {
        self.node(n).flags & MUST_USE != 0
    }
    /// The text's language declares each name before its uses (`declare_before_use`): a
    /// name's first occurrence declares it, and every occurrence refers to the places that
    /// declare it (the first, and the definitions and specializations of `[[declarations]]`).
    pub fn declares_before_use(&self) -> bool {
        self.langs[0].1.passes.declare_before_use
    }
    /// A language of the text has declarations that must be used (`must_use` of
    /// `[[declarations]]`).
    pub fn has_must_use(&self) -> bool {
        self.langs
            .iter()
            .any(|l| l.1.passes.declarations.iter().any(|d| d.must_use))
    }
    /// What goes with a declaration that [`RTree::must_be_used`] when its last use goes: the
    /// nearest enclosing node (or itself) of a kind of `[[declarations]]`, or further up to
    /// the first that may be left empty (`var x int` for its `var_spec`). `None` when that
    /// is the root.
    pub fn removal_unit(&self, n: NodeId) -> Option<NodeId> {
        let decls = &self.data(n).passes.declarations;
        let is_decl = |m: NodeId| {
            decls.iter().any(|d| {
                d.kinds
                    .iter()
                    .any(|k| k == self.kind(m) || k == self.inner_kind(m))
            })
        };
        let mut unit = n;
        while !is_decl(unit) {
            unit = self.parent(unit)?;
        }
        while !self.is_optional(unit) {
            unit = self.parent(unit)?;
        }
        (unit != self.root).then_some(unit)
    }
    /// An identifier token naming the function a call calls (`f` of `f(x)`), in a language
    /// whose calls may name undeclared functions (`implicit_calls` of passes.toml: C).
    pub fn is_callee(&self, n: NodeId) -> bool {
        self.node(n).flags & CALLEE != 0
    }
    /// A callee whose call is a statement alone, its value unused (`f(x);`).
    pub fn is_statement_callee(&self, n: NodeId) -> bool {
        self.node(n).flags & STATEMENT_CALLEE != 0
    }
    /// A node whose names are not visible outside it (`local_scopes` of passes.toml: C's
    /// blocks and parameter lists), unless it is the body of a node of `anonymous` that has
    /// no name (an anonymous union's members).
    pub fn is_local_scope(&self, n: NodeId) -> bool {
        let passes = &self.data(n).passes;
        let of = |kinds: &std::collections::HashSet<String>, m: NodeId| {
            kinds.contains(self.kind(m)) || kinds.contains(self.inner_kind(m))
        };
        if passes.local_scopes.is_empty() || !of(&passes.local_scopes, n) {
            return false;
        }
        let open = |p: NodeId| {
            of(&passes.anonymous, p) && !self.children(p).iter().any(|&c| self.name(c).is_some())
        };
        !self.parent(n).is_some_and(open)
    }
    /// True once the node has been pruned (committed).
    pub fn is_pruned(&self, n: NodeId) -> bool {
        self.node(n).flags & PRUNED != 0
    }
    /// The node's position in its parent may be left empty.
    pub fn is_optional(&self, n: NodeId) -> bool {
        self.node(n).flags & OPTIONAL != 0
    }
    /// The text that replaces the node when pruned ("" when the position may be empty).
    pub fn replacement(&self, n: NodeId) -> &[u8] {
        let node = self.node(n);
        if node.flags & OPTIONAL != 0 {
            return b"";
        }
        match &self.data(n).min[node.kind as usize] {
            Some(s) => s,
            None => &self.src[node.start as usize..node.end as usize],
        }
    }
    /// `d` may take `slot`'s place as far as the grammar's fields go. A slot in a field that
    /// admits one kind only, every text of which begins with one token (C's function body: a
    /// `compound_statement`, always `{ ... }`), takes only what begins with that token; any
    /// other slot anything [`RTree::compatible`] allows. A hoisting that does not fit is a
    /// syntax error, which the syntax filter finds only with a parse from scratch of the whole
    /// text, slow on a large input.
    /// Kinds without a fixed first token (a Python `block`, which may be one statement)
    /// restrict nothing. Where `d`'s first token is unknown (a pruned node's replacement, a
    /// comment), `d` fits.
    pub fn fits(&self, slot: NodeId, d: NodeId) -> bool {
        let s = self.node(slot);
        if s.flags & FIXED == 0 {
            return true;
        }
        let Some(lead) = self.data(slot).leading_token(s.kind) else {
            return true;
        };
        let dn = self.node(d);
        if dn.lang == s.lang && (dn.kind == s.kind || dn.inner == s.kind) {
            return true;
        }
        match self.first_live_token(d) {
            Some(t) => {
                let text = self.token_text(t);
                text.is_empty() || self.node(t).flags & EXTRA != 0 || text == lead
            }
            None => true,
        }
    }

    /// The first token of `n`'s current text; `None` if a pruned node's replacement or
    /// nothing comes first.
    fn first_live_token(&self, n: NodeId) -> Option<NodeId> {
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            if self.is_pruned(m) {
                if self.replacement(m).is_empty() {
                    continue;
                }
                return None;
            }
            if self.is_token(m) {
                return Some(m);
            }
            stack.extend(self.children(m).iter().rev());
        }
        None
    }
    /// Two node kinds may stand for each other (same kind, or listed in
    /// grammars/<lang>/compatible.txt). Groups of flattened chains are compatible with
    /// nothing but themselves.
    pub fn compatible(&self, a: NodeId, b: NodeId) -> bool {
        let (x, y) = (self.node(a), self.node(b));
        if x.lang != y.lang {
            return false;
        }
        let data = self.data(a);
        if data.is_tail(x.kind) || data.is_tail(y.kind) {
            return a == b;
        }
        let compat = &data.compat;
        let same = |p: KindId, q: KindId| p == q || compat[p as usize] & compat[q as usize] != 0;
        same(x.kind, y.kind)
            || same(x.inner, y.inner)
            || same(x.kind, y.inner)
            || same(x.inner, y.kind)
    }
    /// `n` may be replaced by a node of the named kind `kind` (as in [`RTree::compatible`]);
    /// false for a kind the grammar does not have.
    pub fn compatible_kind(&self, n: NodeId, kind: &str) -> bool {
        let d = self.data(n);
        let Some(k) = (0..d.names.len()).find(|&k| d.named[k] && &*d.names[k] == kind) else {
            return false;
        };
        let x = self.node(n);
        if d.is_tail(x.kind) {
            return false;
        }
        let same = |p: KindId| p as usize == k || d.compat[p as usize] & d.compat[k] != 0;
        same(x.kind) || same(x.inner)
    }

    /// The node's byte range in the text the tree was built from (tokens: without the
    /// whitespace before them). Meaningful for the nodes of an untouched tree.
    pub fn span(&self, n: NodeId) -> std::ops::Range<usize> {
        let node = self.node(n);
        node.start as usize..node.end as usize
    }

    /// A token's own text (without the whitespace before it); empty for rule nodes.
    pub fn token_text(&self, n: NodeId) -> &[u8] {
        let node = self.node(n);
        if node.flags & TOKEN == 0 {
            return b"";
        }
        &self.src[node.start as usize..node.end as usize]
    }

    /// Number of tokens in the (current, unpruned) subtree of `n`.
    pub fn token_count(&self, n: NodeId) -> usize {
        let mut count = 0;
        let mut stack = vec![n];
        while let Some(m) = stack.pop() {
            if self.is_token(m) {
                count += 1;
            } else if !self.is_pruned(m) {
                stack.extend_from_slice(self.children(m));
            }
        }
        count
    }

    /// Where `n` stands when written in `slot`'s place (itself when `slot == n`), in a
    /// language whose blocks are marked by indentation; `None` elsewhere, and for a node in
    /// its own place that never moved.
    pub(crate) fn placement(&self, slot: NodeId, n: NodeId) -> Option<Move> {
        if !self.data(slot).passes.indentation {
            return None;
        }
        let moved = self.moves.get(&slot.0).copied();
        if slot == n {
            return moved;
        }
        let start = self.node(slot).start;
        let (shift, lead) = match moved {
            Some(m) => (m.shift, m.lead),
            None => {
                let ws = self.src[..start as usize]
                    .iter()
                    .rposition(|b| !b.is_ascii_whitespace())
                    .map_or(0, |i| i + 1) as u32;
                (0, (ws, start))
            }
        };
        Some(Move {
            shift: self.column(slot) + shift - self.column(n),
            lead,
        })
    }
    /// The column of a node's first byte in the source.
    fn column(&self, n: NodeId) -> i32 {
        crate::indent::column(&self.src, self.node(n).start as usize)
    }

    fn first_token(&self, mut n: NodeId) -> Option<NodeId> {
        loop {
            if self.is_token(n) {
                return Some(n);
            }
            n = *self.children(n).first()?;
        }
    }

    /// Commit: replace the node's subtree by its replacement.
    pub fn prune(&mut self, n: NodeId) {
        self.nodes[n.index()].flags |= PRUNED;
        self.touch(n.0);
    }
    /// Commit: `desc` (a descendant compatible with `n`) takes `n`'s place. `desc` takes
    /// over `n`'s position (and so whether it may be empty, and which kinds fit there); `n` is detached. `desc` must be
    /// live (not pruned, as `chi` guarantees): a pruned `desc` unparses differently here than
    /// in `unparse_with` (found by the fuzz campaign, docs/reliability.md).
    pub fn hoist(&mut self, n: NodeId, desc: NodeId) {
        if n == desc {
            return;
        }
        if let Some(m) = self.placement(n, desc) {
            self.moves.insert(desc.0, m);
        }
        let parent = self.node(n).parent;
        self.touch(parent);
        let position = self.node(n).flags & (OPTIONAL | FIXED);
        let d = &mut self.nodes[desc.index()];
        d.parent = parent;
        d.flags = (d.flags & !(OPTIONAL | FIXED)) | position;
        if parent == NONE {
            self.root = desc;
        } else {
            let p = self.nodes[parent as usize];
            let range = p.kids_start as usize..(p.kids_start + p.kids_len) as usize;
            if let Some(slot) = self.kids[range].iter_mut().find(|k| **k == n) {
                *slot = desc;
            }
        }
        self.nodes[n.index()].parent = NONE;
    }
    /// ERROR and MISSING nodes in the original parse.
    pub fn error_count(&self) -> usize {
        self.errors
    }

    /// Depth of a node in the current tree (root: 0).
    pub fn depth(&self, mut n: NodeId) -> usize {
        let mut d = 0;
        while let Some(p) = self.parent(n) {
            n = p;
            d += 1;
        }
        d
    }

    /// Statistics of the current tree (live nodes reachable from the root).
    pub fn stats(&self) -> TreeStats {
        let mut s = TreeStats {
            bytes: self.src.len(),
            raw_nodes: self.raw_nodes,
            raw_height: self.raw_height,
            errors: self.errors,
            missing: self.missing,
            ..TreeStats::default()
        };
        let mut stack = vec![(self.root, 1usize)];
        while let Some((n, depth)) = stack.pop() {
            s.nodes += 1;
            s.height = s.height.max(depth);
            if self.is_hidden(n) {
                s.hidden += 1;
            }
            if self.is_token(n) {
                s.tokens += 1;
            } else {
                s.rules += 1;
            }
            if !self.is_pruned(n) {
                stack.extend(self.children(n).iter().map(|&k| (k, depth + 1)));
            }
        }
        s
    }

    /// All live nodes of the current tree in pre-order.
    pub fn preorder(&self) -> Vec<NodeId> {
        let mut out = Vec::new();
        let mut stack = vec![self.root];
        while let Some(n) = stack.pop() {
            out.push(n);
            if !self.is_pruned(n) {
                stack.extend(self.children(n).iter().rev());
            }
        }
        out
    }

    fn node(&self, n: NodeId) -> &Node {
        &self.nodes[n.index()]
    }
}

mod names;
mod unparse;

#[cfg(test)]
mod tests;
