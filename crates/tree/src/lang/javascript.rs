//! JavaScript: the tests of its grammar data (`grammars/javascript/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_loads_and_parses, check_snapshots};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::JavaScript, b"let x = 1 + 2;\n");
}

/// test_data/javascript/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::JavaScript);
}
