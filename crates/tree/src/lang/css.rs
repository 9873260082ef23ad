//! CSS: the tests of its grammar data (`grammars/css/`); it is registered in `lang.rs`'s
//! `builtins!` table. Also the language of HTML's `<style>` islands.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(Lang::Css, b"p.a, #b > c { color: red; margin: 0 4px; }\n");
}

/// test_data/css/: round trips and `.tree` snapshots.
#[test]
fn snapshots() {
    check_snapshots(Lang::Css);
}

/// 10,000-deep nesting and a 10 MB input: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::Css,
        &format!("a {{ b: {}1{} }}", "(".repeat(10_000), ")".repeat(10_000)),
        "",
        ".a > b { margin: 0 4px; color: #fff }\n",
    );
}
