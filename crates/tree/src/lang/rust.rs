//! Rust registration: tables under grammars/rust/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::Rust,
    names: &["rust", "rs"],
    extensions: &["rs"],
    spec: || Spec {
        name: "rust",
        language: tree_sitter_rust::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/rust/replacements.tsv"),
        positions: include_str!("../../../../grammars/rust/positions.tsv"),
        compatible: include_str!("../../../../grammars/rust/compatible.txt"),
        flatten: include_str!("../../../../grammars/rust/flatten.txt"),
        passes: include_str!("../../../../grammars/rust/passes.toml"),
    },
};
