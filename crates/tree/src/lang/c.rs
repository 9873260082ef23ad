//! C registration: tables under grammars/c/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::C,
    names: &["c"],
    extensions: &["c", "h"],
    spec: || Spec {
        name: "c",
        language: tree_sitter_c::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/c/replacements.tsv"),
        positions: include_str!("../../../../grammars/c/positions.tsv"),
        compatible: include_str!("../../../../grammars/c/compatible.txt"),
        flatten: include_str!("../../../../grammars/c/flatten.txt"),
        passes: include_str!("../../../../grammars/c/passes.toml"),
    },
};
