//! Reduction algorithms of treedd: the ddmin family (split factor, complement orders,
//! parallel stabilized loops, GreeDDy, DDMIN*), the hierarchical algorithms (HDD, HDDr,
//! Coarse HDD/HDDr, hoisting, HDDH, fixed points), the transformation passes, and the test
//! engine every candidate goes through (`engine/`: judge, content cache, lookahead, driver),
//! and the reduction of several files at once (`files`).
//! The oracle itself is `treedd_proc`'s.

mod algorithm;
mod closure;
mod ddmin;
mod engine;
mod files;
mod fixpoint;
mod hdd;
mod hoist;
mod passes;
mod session;
mod text;

pub use algorithm::{
    reduce_tree, Base, ConfigNameError, Hoisting, Reduced, TraversalOrder, TreeConfig, PRESETS,
};
pub use ddmin::{ComplementOrder, DdminOptions, Minimizer};
pub use engine::{
    Cache, CancelToken, Confirm, Filter, Judge, JudgeOptions, MissingWorkers, Observer, PassRecord,
    Stats,
};
pub use files::{reduce_files, FilesConfig};
pub use passes::Pass;
pub use text::{reduce_text, TextUnit};

/// Entry points for tests and experiments, not part of the API: ddmin on plain lists and an
/// oracle that is a closure.
#[doc(hidden)]
pub mod dev {
    pub use crate::ddmin::{ddmin, ddmin_indices};
    pub use crate::engine::FnOracle;
}
