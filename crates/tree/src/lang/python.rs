//! Python: the tests of its grammar data (`grammars/python/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots, parens};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::Python, b"def f(a):\n    return a + 1\n");
}

/// test_data/python/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::Python);
}

/// 10,000-deep nesting and a 10 MB input: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::Python,
        &parens("x = ", "\n"),
        "",
        "def f(a):\n    return a * 2 + g(a)  # note\n",
    );
}
