//! C++: the tests of its grammar data (`grammars/cpp/`); it is registered in
//! `lang.rs`'s `builtins!` table.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots, parens};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::Cpp, b"template <class T> T f(T a) { return a; }\n");
}

/// test_data/cpp/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::Cpp);
}

/// 10,000-deep nesting and a 10 MB input: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::Cpp,
        &parens("int x = ", ";"),
        "",
        "template <class T> T f(T a) { return a * 2 + g<T>(a); } // note\n",
    );
}
