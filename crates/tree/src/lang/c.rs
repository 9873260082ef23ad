//! C registration: tables under grammars/c/.

use super::Spec;

pub(super) fn spec() -> Spec {
    Spec {
        name: "c",
        language: tree_sitter_c::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/c/replacements.tsv"),
        positions: include_str!("../../../../grammars/c/positions.tsv"),
        compatible: include_str!("../../../../grammars/c/compatible.txt"),
        flatten: include_str!("../../../../grammars/c/flatten.txt"),
        passes: include_str!("../../../../grammars/c/passes.toml"),
    }
}
