//! CONTRACT (skeleton): configuration and entry point of tree reduction (issue 4).
//! The 16 configurations of the dissertation's Table 7.1 are `Base` x `Hoisting`.

use treedd_tree::RTree;

use crate::{DdminOptions, Judge};

/// The pruning algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Base {
    Hdd,
    Hddr,
    CoarseHdd,
    CoarseHddr,
}

/// How hoisting is combined with the pruning algorithm X.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Hoisting {
    /// X*
    None,
    /// Hoist* + X* (hoisting as preprocessing)
    Pre,
    /// XH* (interlaced, fig. 9 of 004)
    Interlace,
    /// Hoist* + XH*
    Both,
}

/// Order in which HDDr visits nodes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TraversalOrder {
    BreadthFirst,
    DepthFirst,
}

#[derive(Clone, Debug)]
pub struct TreeConfig {
    pub base: Base,
    pub hoist: Hoisting,
    pub order: TraversalOrder,
    /// Iterate each phase to its fixed point (the papers' *); on by default.
    pub fixpoint: bool,
    /// ddmin options used inside every algorithm (split factor, jobs, GreeDDy, ...).
    pub ddmin: DdminOptions,
    /// After the tree algorithms, line-then-character DDMIN* on the text.
    pub final_text_pass: bool,
}

/// Reduce `tree` in place; returns the serialized result (always interesting if the input was).
pub fn reduce_tree(tree: &mut RTree, judge: &Judge, config: &TreeConfig) -> Vec<u8> {
    let _ = (judge, config);
    tree.unparse()
}
