//! The last outcomes of something, in a window of fixed length: the answers `Streak`
//! predicts from (`streak.rs`) and the assumptions' outcomes `Mispredictions` counts
//! (`replay.rs`).

use std::collections::VecDeque;

/// The last `N` outcomes added, oldest first.
#[derive(Default)]
pub(super) struct Recent<const N: usize> {
    outcomes: VecDeque<bool>,
}

impl<const N: usize> Recent<N> {
    pub fn add(&mut self, outcome: bool) {
        if self.outcomes.len() == N {
            self.outcomes.pop_front();
        }
        self.outcomes.push_back(outcome);
    }

    /// How many outcomes it holds (at most `N`).
    pub fn len(&self) -> usize {
        self.outcomes.len()
    }

    /// How many of them are true.
    pub fn count(&self) -> usize {
        self.outcomes.iter().filter(|&&o| o).count()
    }
}
