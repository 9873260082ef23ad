//! TypeScript: the tests of its grammar data (`grammars/typescript/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::TypeScript, b"let x: number = 1 + 2;\n");
}

/// test_data/typescript/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::TypeScript);
}

/// 10,000-deep nesting and a 10 MB input: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::TypeScript,
        &format!("{}{}", "{".repeat(10_000), "}".repeat(10_000)),
        "",
        "function f(a: number): number { return a * 2 + g<number>(a); } // note\n",
    );
}
