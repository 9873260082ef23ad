//! Rust: the tests of its grammar data (`grammars/rust/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots, parens};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::Rust, b"fn main() { let x: u8 = 1 + 2; }\n");
}

/// test_data/rust/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::Rust);
}

/// 10,000-deep nesting and a 10 MB input: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::Rust,
        &parens("fn f() { let x = ", "; }"),
        "",
        "fn f(a: u32) -> u32 { a.wrapping_mul(2) + g::<u32>(a) } // note\n",
    );
}
