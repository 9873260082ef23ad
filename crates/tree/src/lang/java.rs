//! Java registration: tables under grammars/java/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::Java,
    names: &["java"],
    extensions: &["java"],
    spec: || Spec {
        name: "java",
        language: tree_sitter_java::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/java/replacements.tsv"),
        positions: include_str!("../../../../grammars/java/positions.tsv"),
        compatible: include_str!("../../../../grammars/java/compatible.txt"),
        flatten: include_str!("../../../../grammars/java/flatten.txt"),
        passes: include_str!("../../../../grammars/java/passes.toml"),
    },
};
