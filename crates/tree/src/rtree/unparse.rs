//! Serializing a reduction tree: the walk that writes tokens, replacements and lazily
//! separated lists, and the scoped form that copies untouched subtrees in one piece.

use super::{Edit, Move, NodeId, RTree, HIDDEN, NONE, SEPARATOR, TOKEN};
use crate::glue::glue;
use crate::indent::reindent;

impl RTree {
    /// Serialize the current tree.
    pub fn unparse(&self) -> Vec<u8> {
        self.unparse_scoped(&[], &|_| Edit::Keep)
    }
    /// Serialize the current tree with tentative edits (consulted for every live node).
    pub fn unparse_with(&self, edits: &dyn Fn(NodeId) -> Edit) -> Vec<u8> {
        self.unparse_walked(None, edits)
    }
    /// [`RTree::unparse_with`] where `edits` is `Keep` for every node outside the lists of
    /// `scope`: a subtree without a node of `scope` and untouched by commits is copied from
    /// the source in one piece instead of being walked node by node. (Candidates edit a few
    /// nodes of a large tree, whose whole walk would be a large share of treedd's CPU.)
    pub fn unparse_scoped(&self, scope: &[&[NodeId]], edits: &dyn Fn(NodeId) -> Edit) -> Vec<u8> {
        let mut walk = match scope.iter().any(|s| !s.is_empty()) {
            true => Marks::with_room(self.nodes.len()),
            false => Marks::default(),
        };
        for &n in scope.iter().copied().flatten() {
            let mut m = n.0;
            while m != NONE && walk.insert(m) {
                m = self.nodes[m as usize].parent;
            }
        }
        self.unparse_walked(Some(&walk), edits)
    }
    fn unparse_walked(&self, walk: Option<&Marks>, edits: &dyn Fn(NodeId) -> Edit) -> Vec<u8> {
        let mut w = Writer {
            src: &self.src,
            out: Vec::with_capacity(self.src.len()),
            last_end: 0,
            shift: 0,
            lead: None,
        };
        self.write(self.root, edits, walk, &mut w);
        w.chunk(self.trailer as usize, self.src.len());
        w.out
    }
    /// Serialize one subtree of the current tree (without the text before its first token).
    pub fn text(&self, n: NodeId) -> Vec<u8> {
        let (pre, start) = self
            .first_token(n)
            .map_or((0, 0), |t| (self.node(t).pre, self.node(t).start));
        let mut w = Writer {
            src: &self.src,
            out: Vec::new(),
            last_end: pre,
            shift: 0,
            lead: None,
        };
        self.write(n, &|_| Edit::Keep, Some(&Marks::default()), &mut w);
        let prefix = &self.src[pre as usize..start as usize];
        if w.out.starts_with(prefix) {
            w.out.drain(..prefix.len());
        }
        w.out
    }

    /// One linear iterative walk; the only allocation is the frame stack.
    ///
    /// List separators (hidden `,` tokens) are written lazily: a separator is dropped
    /// when the element before it was removed, or when all elements after it were
    /// removed, so removing any element of `f(a, b, c)` leaves a well-formed list. An
    /// element is "removed" when it wrote no bytes; a speculatively written separator is
    /// truncated away again in that case.
    ///
    /// `walk`: the nodes whose subtrees must be walked (see [`RTree::unparse_scoped`]);
    /// `None`: all of them.
    fn write(
        &self,
        top: NodeId,
        edits: &dyn Fn(NodeId) -> Edit,
        walk: Option<&Marks>,
        w: &mut Writer<'_>,
    ) {
        let mut stack: Vec<Frame> = Vec::new();
        if let Some(frame) = self.visit(top, edits, walk, w) {
            stack.push(frame);
        }
        while let Some(f) = stack.last_mut() {
            let kids = self.children(f.node);
            let Some(&c) = kids.get(f.next as usize) else {
                self.flush_separator(f, w);
                if let Some(shift) = f.restore {
                    w.shift = shift;
                    w.lead = None;
                }
                stack.pop();
                if let Some(parent) = stack.last_mut() {
                    parent.element_done(w);
                }
                continue;
            };
            f.next += 1;
            let flags = self.node(c).flags;
            if flags & SEPARATOR != 0 {
                if f.prev != REMOVED {
                    self.flush_separator(f, w);
                    f.pending = c.0;
                    f.removed_after = false;
                }
                f.prev = NO_ELEMENT;
                continue;
            }
            if flags & HIDDEN != 0 {
                // A fence such as `(` or `;`: the list before it ends here.
                self.flush_separator(f, w);
                let node = self.node(c);
                w.token(node.pre, node.start, node.end);
                f.prev = NO_ELEMENT;
                continue;
            }
            if f.pending != NONE {
                f.mark = w.out.len();
                f.mark_end = w.last_end;
                let sep = self.node(NodeId(f.pending));
                w.token(sep.pre, sep.start, sep.end);
            }
            f.elem_start = w.out.len();
            match self.visit(c, edits, walk, w) {
                Some(frame) => stack.push(frame),
                None => f.element_done(w),
            }
        }
    }

    /// Write a token or a replacement (None), or return the frame of a live rule node.
    fn visit(
        &self,
        slot_node: NodeId,
        edits: &dyn Fn(NodeId) -> Edit,
        walk: Option<&Marks>,
        w: &mut Writer<'_>,
    ) -> Option<Frame> {
        let mut n = slot_node;
        let mut hops = 0;
        loop {
            if self.is_pruned(n) {
                self.write_replacement(slot_node, w);
                return None;
            }
            match edits(n) {
                Edit::Keep => break,
                Edit::Prune => {
                    self.write_replacement(slot_node, w);
                    return None;
                }
                Edit::Hoist(d) if d != n && hops < 64 => {
                    n = d;
                    hops += 1;
                }
                Edit::Hoist(_) => break,
            }
        }
        // In a language whose blocks are marked by indentation, a node in another's place
        // is re-indented to it (see `Move`), and so are its tokens, one by one.
        let restore = self.placement(slot_node, n).map(|m| w.enter(m));
        let node = self.node(n);
        if node.flags & TOKEN != 0 {
            w.token(node.pre, node.start, node.end);
            if let Some(shift) = restore {
                w.shift = shift;
                w.lead = None;
            }
            return None;
        }
        let (pre, end) = self.spans[n.index()];
        if pre != NONE && w.shift == 0 && w.lead.is_none() && walk.is_some_and(|m| !m.contains(n.0))
        {
            // Untouched: the walk would write these very bytes, token by token.
            w.chunk(pre as usize, end as usize);
            return None;
        }
        Some(Frame {
            node: n,
            restore,
            next: 0,
            pending: NONE,
            removed_after: false,
            prev: NO_ELEMENT,
            mark: 0,
            mark_end: 0,
            elem_start: 0,
        })
    }

    /// A pruned node: its replacement, after the whitespace that preceded the node when
    /// that holds a line break and the replacement is not empty (so line structure
    /// survives, and pruning `int` at the start of a line to `int` changes nothing).
    fn write_replacement(&self, n: NodeId, w: &mut Writer<'_>) {
        let repl = self.replacement(n);
        let (range, shift) = match (self.first_token(n), w.lead.take()) {
            (_, Some((from, to, shift))) if !repl.is_empty() => ((from, to), shift),
            (Some(t), _) if !repl.is_empty() => {
                let t = self.node(t);
                ((t.pre, t.start), w.shift)
            }
            _ => ((0, 0), 0),
        };
        let prefix = &self.src[range.0 as usize..range.1 as usize];
        if prefix.contains(&b'\n') && prefix.iter().all(u8::is_ascii_whitespace) {
            reindent(prefix, shift, &mut w.out);
        }
        w.replacement(repl);
    }

    /// Write the pending separator unless an element after it was removed.
    fn flush_separator(&self, f: &mut Frame, w: &mut Writer<'_>) {
        if f.pending != NONE && !f.removed_after {
            let sep = self.node(NodeId(f.pending));
            w.chunk(sep.pre as usize, sep.end as usize);
        }
        f.pending = NONE;
    }
}

const NO_ELEMENT: u8 = 0;
const LIVE: u8 = 1;
const REMOVED: u8 = 2;

/// A rule node being written, with the state of its separated list.
struct Frame {
    node: NodeId,
    /// The writer's shift before this node, which moved (see `Move`).
    restore: Option<i32>,
    next: u32,
    /// A separator not written yet (NONE if none).
    pending: u32,
    /// An element after `pending` was removed.
    removed_after: bool,
    /// The element since the last separator or fence: NO_ELEMENT, LIVE or REMOVED.
    prev: u8,
    /// Output length and `last_end` before a speculatively written separator.
    mark: usize,
    mark_end: u32,
    /// Output length when the current element started.
    elem_start: usize,
}

impl Frame {
    fn element_done(&mut self, w: &mut Writer<'_>) {
        if w.out.len() == self.elem_start {
            if self.pending != NONE {
                w.out.truncate(self.mark);
                w.last_end = self.mark_end;
                self.removed_after = true;
            }
            self.prev = REMOVED;
        } else {
            self.pending = NONE;
            self.prev = LIVE;
        }
    }
}

/// A set of node ids (a bit per node), for [`RTree::unparse_scoped`]; `Marks::default()`
/// is the empty set, with no room for any.
#[derive(Default)]
struct Marks(Vec<u64>);

impl Marks {
    /// An empty set with room for the ids below `len`.
    fn with_room(len: usize) -> Marks {
        Marks(vec![0; len.div_ceil(64)])
    }
    fn contains(&self, id: u32) -> bool {
        self.0
            .get(id as usize / 64)
            .is_some_and(|w| w & (1 << (id % 64)) != 0)
    }
    /// Add `id`; false if it was there already.
    fn insert(&mut self, id: u32) -> bool {
        let (word, bit) = (id as usize / 64, 1u64 << (id % 64));
        let fresh = self.0[word] & bit == 0;
        self.0[word] |= bit;
        fresh
    }
}

/// Output buffer that keeps original adjacency and separates tokens that would glue.
struct Writer<'a> {
    src: &'a [u8],
    out: Vec<u8>,
    /// Source offset right after the last original bytes written, or NONE after a
    /// replacement.
    last_end: u32,
    /// Columns added to the indentation of every line the next tokens begin (see `Move`).
    shift: i32,
    /// The whitespace the next token takes instead of its own (a source range), with the
    /// shift it is written with.
    lead: Option<(u32, u32, i32)>,
}

impl Writer<'_> {
    /// Start writing a node that moved (see `Move`); returns the shift to restore after it.
    fn enter(&mut self, m: Move) -> i32 {
        let before = self.shift;
        self.lead = Some((m.lead.0, m.lead.1, before));
        self.shift = before + m.shift;
        before
    }

    /// A token: its prefix (white space, or the pending lead) and its text.
    fn token(&mut self, pre: u32, start: u32, end: u32) {
        if self.shift == 0 && self.lead.is_none() {
            return self.chunk(pre as usize, end as usize);
        }
        let (from, to, shift, own) = match self.lead.take() {
            Some((from, to, shift)) => (from, to, shift, false),
            None => (pre, start, self.shift, true),
        };
        let mut bytes = Vec::new();
        reindent(&self.src[from as usize..to as usize], shift, &mut bytes);
        bytes.extend_from_slice(&self.src[start as usize..end as usize]);
        if !own || pre != self.last_end {
            self.separate(&bytes);
        }
        self.out.extend_from_slice(&bytes);
        self.last_end = end;
    }

    /// Original bytes `src[from..to]` (a token with its prefix, or the trailer).
    fn chunk(&mut self, from: usize, to: usize) {
        let bytes = &self.src[from..to];
        if from as u32 != self.last_end {
            self.separate(bytes);
        }
        self.out.extend_from_slice(bytes);
        self.last_end = to as u32;
    }

    fn replacement(&mut self, bytes: &[u8]) {
        self.separate(bytes);
        self.out.extend_from_slice(bytes);
        self.last_end = NONE;
    }

    fn separate(&mut self, next: &[u8]) {
        if let (Some(&a), Some(&b)) = (self.out.last(), next.first()) {
            if glue(a, b) {
                self.out.push(b' ');
            }
        }
    }
}
