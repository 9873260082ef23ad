//! Fixed-point iteration of a reduction phase (the papers' `*`: HDD*, Hoist*, HDDH*, ...).

use crate::session::{Session, Tree};

/// Run `pass` once, or (with `enabled`) again and again until a pass leaves the serialized
/// tree unchanged. The text is the fixed point's measure: a pass that only commits edits
/// invisible in the text (pruning a node whose replacement is its own text) does not start
/// another pass. Stops early once the judge is cancelled. Returns the number of passes run.
pub(crate) fn fixpoint<T: Tree>(
    s: &mut Session<T>,
    enabled: bool,
    mut pass: impl FnMut(&mut Session<T>),
) -> usize {
    let mut passes = 0;
    loop {
        let before = s.current.clone();
        pass(s);
        passes += 1;
        if !enabled || s.cancelled() || s.current == before {
            return passes;
        }
    }
}
