//! Go registration: tables under grammars/go/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::Go,
    names: &["go", "golang"],
    extensions: &["go"],
    spec: || Spec {
        name: "go",
        language: tree_sitter_go::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/go/replacements.tsv"),
        positions: include_str!("../../../../grammars/go/positions.tsv"),
        compatible: include_str!("../../../../grammars/go/compatible.txt"),
        flatten: include_str!("../../../../grammars/go/flatten.txt"),
        passes: include_str!("../../../../grammars/go/passes.toml"),
    },
};
