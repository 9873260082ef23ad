//! Reduction trees for treedd, built from tree-sitter parse trees.
//!
//! [`RTree::build`] parses bytes of C, JavaScript or Java, squeezes linear chains,
//! flattens recursive chains, hides tokens that can never be removed on their own, and
//! attaches to every node the text that replaces it when it is pruned (empty where the
//! grammar allows, else the shortest string the grammar derives for its kind).
//! This crate knows nothing of oracles or processes.

mod dump;
mod error;
mod facts;
mod filter;
mod flatten;
mod fuzz;
mod glue;
mod indent;
mod inject;
mod injections;
mod lang;
mod layout;
mod loader;
mod parse;
mod pass_data;
mod quality;
mod raw;
mod replace;
mod rtree;
mod sample;
mod squeeze;

pub use dump::dump;
pub use error::Error;
pub use facts::{Definition, Facts, Ident, Inlinable, ListSite, Literal};
pub use filter::{changed_range, SyntaxFilter};
pub use glue::glue;
pub use inject::count_errors;
pub use lang::{Grammar, Lang};
pub use layout::{non_whitespace, Formatter};
pub use loader::{default_cache_dir, load as load_grammar, Loaded};
pub use pass_data::Bindings;
pub use rtree::{Edit, NodeId, Parse, RTree, TreeStats};

/// Entry points for the workspace's own tools, not part of the API: the fuzzer
/// (`cargo xtask fuzz`), the table generator (`cargo xtask codegen`) and the replacement
/// quality measure (`cargo xtask tree-stats`).
#[doc(hidden)]
pub mod dev {
    pub use crate::fuzz::{fuzz_case, mutate, FuzzCounts, Rng};
    pub use crate::quality::{replacement_quality, Quality};
    pub use crate::replace::{generate as generate_tables, GrammarSources};
}
