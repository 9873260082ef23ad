//! First pass of building a reduction tree: the visible, non-empty tree-sitter nodes in
//! pre-order, copied with one iterative cursor walk into flat arrays. Below `squeeze`,
//! `flatten` and `rtree`, which read it.

use crate::lang::{KindId, LangData};

pub(crate) struct Raw {
    pub kind: Vec<KindId>,
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

impl Raw {
    pub fn new(data: &LangData, tree: &tree_sitter::Tree, src: &[u8]) -> Raw {
        let mut raw = Raw {
            kind: Vec::new(),
            named: Vec::new(),
            extra: Vec::new(),
            optional: Vec::new(),
            fixed: Vec::new(),
            pre: Vec::new(),
            start: Vec::new(),
            end: Vec::new(),
            kids_start: Vec::new(),
            kids_len: Vec::new(),
            token: Vec::new(),
            kids: Vec::new(),
            trailer: 0,
            height: 0,
        };
        let mut parents: Vec<u32> = Vec::new();
        let mut classes: Vec<(u8, u16)> = Vec::new();
        let mut cursor = tree.walk();
        // Raw ids of the nodes on the cursor's path (None: skipped zero-width node).
        let mut path: Vec<u32> = Vec::new();
        let mut prev_end = 0u32;
        loop {
            let node = cursor.node();
            let is_root = path.is_empty();
            let (start, end) = (node.start_byte() as u32, node.end_byte() as u32);
            if is_root || start < end {
                let id = raw.kind.len() as u32;
                let kind = data.kind_of(&node);
                let field = cursor.field_id().map_or(0, |f| f.get());
                let (parent, class) = match path.last() {
                    None => (u32::MAX, 1),
                    Some(&p) if node.is_extra() || node.is_error() => (p, 1),
                    Some(&p) => (p, data.position_class(raw.kind[p as usize], field, kind)),
                };
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
                raw.kind.push(kind);
                raw.named.push(node.is_named());
                raw.extra.push(node.is_extra());
                raw.optional.push(class == 1);
                let fixed = match path.last() {
                    Some(&p) if !node.is_extra() && !node.is_error() => {
                        data.sole_kind(raw.kind[p as usize], field) == Some(kind)
                    }
                    _ => false,
                };
                raw.fixed.push(fixed);
                classes.push((class, field));
                raw.start.push(start);
                raw.end.push(end);
                raw.token.push(leaf);
                if leaf {
                    raw.pre.push(prev_end.min(start));
                    prev_end = end;
                } else {
                    raw.pre.push(start);
                }
                parents.push(parent);
                if !leaf && cursor.goto_first_child() {
                    path.push(id);
                    raw.height = raw.height.max(path.len() + 1);
                    continue;
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
        raw.height = raw.height.max(1);
        raw.trailer = prev_end;
        // Children lists from the parent links (pre-order keeps source order).
        let n = raw.kind.len();
        raw.kids_len = vec![0; n];
        for &p in &parents[1..] {
            raw.kids_len[p as usize] += 1;
        }
        raw.kids_start = Vec::with_capacity(n);
        let mut acc = 0u32;
        for &len in &raw.kids_len {
            raw.kids_start.push(acc);
            acc += len;
        }
        raw.kids = vec![0; acc as usize];
        let mut fill = raw.kids_start.clone();
        for (child, &p) in parents.iter().enumerate().skip(1) {
            raw.kids[fill[p as usize] as usize] = child as u32;
            fill[p as usize] += 1;
        }
        // One of several: removable when a sibling in the same position remains.
        for p in 0..n {
            let s = raw.kids_start[p] as usize;
            let kids = &raw.kids[s..s + raw.kids_len[p] as usize];
            for (i, &k) in kids.iter().enumerate() {
                let (class, field) = classes[k as usize];
                if class == 2 {
                    let mut others = kids[..i].iter().chain(&kids[i + 1..]);
                    raw.optional[k as usize] = others.any(|&o| classes[o as usize] == (2, field));
                }
            }
        }
        raw
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
