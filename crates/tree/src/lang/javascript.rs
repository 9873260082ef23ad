//! JavaScript registration: tables under grammars/javascript/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::JavaScript,
    names: &["javascript", "js"],
    extensions: &["js", "mjs", "cjs"],
    spec: || Spec {
        name: "javascript",
        language: tree_sitter_javascript::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/javascript/replacements.tsv"),
        positions: include_str!("../../../../grammars/javascript/positions.tsv"),
        compatible: include_str!("../../../../grammars/javascript/compatible.txt"),
        flatten: include_str!("../../../../grammars/javascript/flatten.txt"),
        passes: include_str!("../../../../grammars/javascript/passes.toml"),
    },
};
