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

#[test]
fn lifetime_parameters_go_with_their_arguments() {
    // A type's lifetime becomes `'static`, a function's is elided (an argument included);
    // uses that leave their lifetimes out keep their arguments.
    let src =
        b"struct B<'a, T>(&'a T);\nfn f<'b>(h: B<'b, u8>, g: B<u8>) -> &'b u8 {\n    h.0\n}\n";
    let facts = Lang::Rust.facts(src).unwrap();
    let texts: Vec<String> = facts
        .templates
        .iter()
        .map(|splices| {
            let mut out = src.to_vec();
            for (r, t) in splices.iter().rev() {
                out.splice(r.clone(), t.iter().copied());
            }
            String::from_utf8(out).unwrap()
        })
        .collect();
    let expect = [
        "struct B<'a>(&'a u8);\nfn f<'b>(h: B<'b>, g: B) -> &'b u8 {\n    h.0\n}\n",
        "struct B<T>(&'static T);\nfn f<'b>(h: B<u8>, g: B<u8>) -> &'b u8 {\n    h.0\n}\n",
        "struct B<'a, T>(&'a T);\nfn f(h: B<u8>, g: B<u8>) -> & u8 {\n    h.0\n}\n",
    ];
    assert_eq!(texts, expect);
}
