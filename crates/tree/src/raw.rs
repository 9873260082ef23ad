//! First pass of building a reduction tree: the visible, non-empty tree-sitter nodes in
//! pre-order, copied with one iterative cursor walk into flat arrays; an island's tree
//! (`inject.rs`) is walked in the place of the node that holds it. Below `squeeze`,
//! `flatten` and `rtree`, which read it.

use crate::inject::Island;
use crate::lang::{KindId, LangData};
use crate::Lang;

/// A language of a tree and its data; a tree's first is its text's language, the others
/// those of its islands.
pub(crate) type Langed = (Lang, &'static LangData);

pub(crate) struct Raw {
    pub kind: Vec<KindId>,
    /// Index of the node's language in the tree's languages (`kind` is in its ids).
    pub lang: Vec<u8>,
    pub named: Vec<bool>,
    pub extra: Vec<bool>,
    /// The node's position in its parent may be empty.
    pub optional: Vec<bool>,
    /// In a field that admits one kind only, whose texts begin with one token, and of that
    /// kind (`LangData::sole_kind`).
    pub fixed: Vec<bool>,
    /// Tokens: prefix start; rules: start.
    pub pre: Vec<u32>,
    pub start: Vec<u32>,
    pub end: Vec<u32>,
    kids_start: Vec<u32>,
    kids_len: Vec<u32>,
    token: Vec<bool>,
    kids: Vec<u32>,
    pub trailer: u32,
    pub height: usize,
}

/// The node under which an island's root goes (see [`Raw::walk`]).
struct Top {
    parent: u32,
    /// The position class and field of the node holding the island, in its parent.
    class: u8,
    field: u16,
    start: u32,
    end: u32,
    /// Depth of the holding node.
    depth: usize,
}

/// The walk's state, shared with the walks of islands (inside the host's walk).
struct Walk<'a> {
    langs: &'a [Langed],
    src: &'a [u8],
    parents: Vec<u32>,
    classes: Vec<(u8, u16)>,
    prev_end: u32,
}

impl Raw {
    /// The raw nodes of `tree`, a parse of `src` in `langs[0]`, with its `islands` in the
    /// places of the nodes that hold them (their languages in `langs`).
    pub fn new(langs: &[Langed], tree: &tree_sitter::Tree, islands: &[Island], src: &[u8]) -> Raw {
        // The visible nodes of the text's tree (the islands' come on top): the arrays are
        // made at their size at once, not grown by copies that would double their memory.
        let n = tree.root_node().descendant_count();
        let mut raw = Raw {
            kind: Vec::with_capacity(n),
            lang: Vec::with_capacity(n),
            named: Vec::with_capacity(n),
            extra: Vec::with_capacity(n),
            optional: Vec::with_capacity(n),
            fixed: Vec::with_capacity(n),
            pre: Vec::with_capacity(n),
            start: Vec::with_capacity(n),
            end: Vec::with_capacity(n),
            kids_start: Vec::new(),
            kids_len: Vec::new(),
            token: Vec::with_capacity(n),
            kids: Vec::new(),
            trailer: 0,
            height: 0,
        };
        let mut w = Walk {
            langs,
            src,
            parents: Vec::with_capacity(n),
            classes: Vec::with_capacity(n),
            prev_end: 0,
        };
        raw.walk(&mut w, 0, tree, islands, None);
        raw.height = raw.height.max(1);
        raw.trailer = w.prev_end;
        raw.link(&w.parents, &w.classes);
        raw
    }

    /// Add the nodes of `tree` (in `w.langs[lang]`) in pre-order; `top`: the tree is an island,
    /// whose root goes where the node holding it was.
    fn walk(
        &mut self,
        w: &mut Walk<'_>,
        lang: u8,
        tree: &tree_sitter::Tree,
        islands: &[Island],
        top: Option<Top>,
    ) {
        let (langs, src) = (w.langs, w.src);
        let data = langs[lang as usize].1;
        let depth0 = top.as_ref().map_or(0, |t| t.depth);
        let mut islands = islands.iter().peekable();
        let mut cursor = tree.walk();
        // Raw ids of the nodes on the cursor's path (None: skipped zero-width node).
        let mut path: Vec<u32> = Vec::new();
        loop {
            let node = cursor.node();
            let is_root = path.is_empty();
            let (mut start, mut end) = (node.start_byte() as u32, node.end_byte() as u32);
            if let (true, Some(t)) = (is_root, &top) {
                (start, end) = (t.start, t.end);
            }
            if is_root || start < end {
                let id = self.kind.len() as u32;
                let kind = data.kind_of(&node);
                let field = cursor.field_id().map_or(0, |f| f.get());
                let (parent, class) = match (path.last(), &top) {
                    (None, None) => (u32::MAX, 1),
                    (None, Some(t)) => (t.parent, t.class),
                    (Some(&p), _) if node.is_extra() || node.is_error() => (p, 1),
                    (Some(&p), _) => (p, data.position_class(self.kind[p as usize], field, kind)),
                };
                let field = match (is_root, &top) {
                    (true, Some(t)) => t.field,
                    _ => field,
                };
                let holds = islands.next_if(|i| {
                    !is_root
                        && i.holder == node.kind_id()
                        && (i.range.start_byte, i.range.end_byte) == (start as usize, end as usize)
                });
                if let Some(island) = holds {
                    let li = langs.iter().position(|l| l.0 == island.lang).unwrap_or(0);
                    let top = Top {
                        parent,
                        class,
                        field,
                        start,
                        end,
                        depth: depth0 + path.len(),
                    };
                    self.walk(w, li as u8, &island.tree, &island.islands, Some(top));
                } else {
                    // A node whose children leave text at its end uncovered (Rust's
                    // `// comment`: only the `//` is a child) is one token.
                    let uncovered = || {
                        let n = node.child_count();
                        let Some(last) = node.child((n.max(1) - 1) as _) else {
                            return false;
                        };
                        let tail = src.get(last.end_byte()..end as usize).unwrap_or(&[]);
                        tail.iter().any(|b| !b.is_ascii_whitespace())
                    };
                    let leaf = !is_root && (node.child_count() == 0 || uncovered());
                    self.kind.push(kind);
                    self.lang.push(lang);
                    self.named.push(node.is_named());
                    self.extra.push(node.is_extra());
                    self.optional.push(class == 1);
                    let fixed = match path.last() {
                        Some(&p) if !node.is_extra() && !node.is_error() => {
                            data.sole_kind(self.kind[p as usize], field) == Some(kind)
                        }
                        _ => false,
                    };
                    self.fixed.push(fixed);
                    w.classes.push((class, field));
                    self.start.push(start);
                    self.end.push(end);
                    self.token.push(leaf);
                    if leaf {
                        self.pre.push(w.prev_end.min(start));
                        w.prev_end = end;
                    } else {
                        self.pre.push(start);
                    }
                    w.parents.push(parent);
                    if !leaf && cursor.goto_first_child() {
                        path.push(id);
                        self.height = self.height.max(depth0 + path.len() + 1);
                        continue;
                    }
                }
            }
            // Next sibling, or up until there is one.
            loop {
                if cursor.goto_next_sibling() {
                    break;
                }
                if !cursor.goto_parent() {
                    break;
                }
                path.pop();
            }
            if path.is_empty() {
                break;
            }
        }
    }

    /// Children lists from the parent links (pre-order keeps source order), and which
    /// children of several in one position may go.
    fn link(&mut self, parents: &[u32], classes: &[(u8, u16)]) {
        let n = self.kind.len();
        self.kids_len = vec![0; n];
        for &p in &parents[1..] {
            self.kids_len[p as usize] += 1;
        }
        self.kids_start = Vec::with_capacity(n);
        let mut acc = 0u32;
        for &len in &self.kids_len {
            self.kids_start.push(acc);
            acc += len;
        }
        self.kids = vec![0; acc as usize];
        let mut fill = self.kids_start.clone();
        for (child, &p) in parents.iter().enumerate().skip(1) {
            self.kids[fill[p as usize] as usize] = child as u32;
            fill[p as usize] += 1;
        }
        // One of several: removable when a sibling in the same position remains.
        for p in 0..n {
            let s = self.kids_start[p] as usize;
            let kids = &self.kids[s..s + self.kids_len[p] as usize];
            for (i, &k) in kids.iter().enumerate() {
                let (class, field) = classes[k as usize];
                if class == 2 {
                    let mut others = kids[..i].iter().chain(&kids[i + 1..]);
                    self.optional[k as usize] = others.any(|&o| classes[o as usize] == (2, field));
                }
            }
        }
    }

    pub fn len(&self) -> usize {
        self.kind.len()
    }

    pub fn kids(&self, r: u32) -> &[u32] {
        let s = self.kids_start[r as usize] as usize;
        &self.kids[s..s + self.kids_len[r as usize] as usize]
    }

    pub fn is_token(&self, r: u32) -> bool {
        self.token[r as usize]
    }
}
