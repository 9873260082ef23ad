//! CONTRACT (skeleton): reduction of inputs without a grammar.

use crate::{DdminOptions, Judge};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TextUnit {
    Line,
    Char,
    /// Line-level DDMIN*, then character-level DDMIN* (dissertation ch. 5).
    LineThenChar,
}

pub fn reduce_text(input: &[u8], _unit: TextUnit, _judge: &Judge, _opts: &DdminOptions) -> Vec<u8> {
    input.to_vec()
}
