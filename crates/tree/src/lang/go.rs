//! Go: the tests of its grammar data (`grammars/go/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots, parens};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(
        Lang::Go,
        b"package main\n\nfunc main() { x := 1 + 2; _ = x }\n",
    );
}

/// test_data/go/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::Go);
}

/// 10,000-deep nesting and a 10 MB input: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::Go,
        &parens("package p\nvar x = ", "\n"),
        "package p\n",
        "func f(a int) int { return a*2 + g(a) } // note\n",
    );
}
