//! Python registration: tables under grammars/python/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::Python,
    names: &["python", "py"],
    extensions: &["py", "pyi"],
    spec: || Spec {
        name: "python",
        language: tree_sitter_python::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/python/replacements.tsv"),
        positions: include_str!("../../../../grammars/python/positions.tsv"),
        compatible: include_str!("../../../../grammars/python/compatible.txt"),
        flatten: include_str!("../../../../grammars/python/flatten.txt"),
        passes: include_str!("../../../../grammars/python/passes.toml"),
    },
};
