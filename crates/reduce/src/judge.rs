//! CONTRACT (skeleton): the judge every algorithm asks about a candidate:
//! syntax filter -> content cache -> oracle, with stats and the best-so-far callback.

use crate::{Oracle, Stats};

pub struct JudgeOptions {
    pub cache: bool,
}

pub struct Judge {
    _oracle: Box<dyn Oracle>,
}

impl Judge {
    pub fn new(oracle: Box<dyn Oracle>, _opts: JudgeOptions) -> Judge {
        Judge { _oracle: oracle }
    }
    /// True if the candidate is interesting.
    pub fn test(&self, _candidate: &[u8]) -> bool {
        todo!()
    }
    pub fn stats(&self) -> Stats {
        todo!()
    }
}
