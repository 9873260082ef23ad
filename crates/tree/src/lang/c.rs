//! C: the tests of its grammar data (`grammars/c/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_loads_and_parses, check_snapshots};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::C, b"int main(void) { return 0; }\n");
}

/// test_data/c/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::C);
}
