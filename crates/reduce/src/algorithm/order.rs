//! The orders of HDDr's work list (`--order`); `hdd.rs` keeps the list.

/// Order in which HDDr visits nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraversalOrder {
    /// Pop from the front of the queue (the papers' HDDr).
    BreadthFirst,
    /// Pop from the back, children pushed in reverse (first child visited first).
    DepthFirst,
    /// The node of the largest subtree (in tokens) first, as Perses' priority queue does
    /// ("Perses: Syntax-Guided Program Reduction", ICSE 2018); equal sizes breadth-first.
    SizeFirst,
    /// Size-first, but a node that holds the first occurrence of a name that also occurs
    /// after it (a declaration with a later use, as far as spellings tell) waits until
    /// every other node of the work list has been visited: the code that uses a class or
    /// a function shrinks first, so the visit of the declaration finds fewer of its
    /// members still in use. Only the languages whose files usually define a name before
    /// using it take part (`defined_before_use` of passes.toml, see `Tree::spelling`); with
    /// the reference closure, the names it knows defer nothing: the closure already removes
    /// a declaration's uses with it and keeps a declaration used from outside the visited
    /// siblings. And a child that a visit kept while the rest of the text used it is tried
    /// again as soon as its last use has gone (`hdd/orphans.rs`; by the names of every
    /// language that has them), not in the next pass.
    UsesFirst,
}

impl TraversalOrder {
    /// The orders, with the names `--order` takes.
    pub const NAMES: [(&'static str, TraversalOrder); 4] = [
        ("bfs", TraversalOrder::BreadthFirst),
        ("dfs", TraversalOrder::DepthFirst),
        ("size", TraversalOrder::SizeFirst),
        ("uses", TraversalOrder::UsesFirst),
    ];

    /// The name `--order` and `--stats` use.
    pub fn name(self) -> &'static str {
        match self {
            TraversalOrder::BreadthFirst => "bfs",
            TraversalOrder::DepthFirst => "dfs",
            TraversalOrder::SizeFirst => "size",
            TraversalOrder::UsesFirst => "uses",
        }
    }
}
