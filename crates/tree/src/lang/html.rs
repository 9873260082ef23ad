//! HTML: the tests of its grammar data (`grammars/html/`, with `injections.toml`: scripts are
//! JavaScript, styles CSS); it is registered in `lang.rs`'s `builtins!` table.

use super::tests::{check_deep_and_large, check_loads_and_parses, check_snapshots};
use super::Lang;

#[test]
fn loads_and_parses() {
    check_loads_and_parses(
        Lang::Html,
        b"<p class=\"a\">x</p><script>let y = 1;</script><style>p { color: red }</style>\n",
    );
}

/// test_data/html/: round trips and `.tree` snapshots, islands included.
#[test]
fn snapshots() {
    check_snapshots(Lang::Html);
}

/// 10,000-deep nesting and a 10 MB input with islands: no crash, byte-exact round trip.
#[test]
fn deep_and_large_inputs() {
    check_deep_and_large(
        Lang::Html,
        &format!("{}x{}", "<b>".repeat(10_000), "</b>".repeat(10_000)),
        "<!DOCTYPE html>\n",
        "<p class=a>t</p><script>f(1 + 2);</script><style>p { margin: 0 }</style>\n",
    );
}
