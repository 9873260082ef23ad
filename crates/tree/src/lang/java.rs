//! Java: the tests of its grammar data (`grammars/java/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_loads_and_parses, check_snapshots};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::Java, b"class A { void f() {} }\n");
}

/// test_data/java/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::Java);
}
