//! TypeScript registration: tables under grammars/typescript/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::TypeScript,
    names: &["typescript", "ts"],
    extensions: &["ts", "mts", "cts"],
    spec: || Spec {
        name: "typescript",
        language: tree_sitter_typescript::LANGUAGE_TYPESCRIPT.into(),
        replacements: include_str!("../../../../grammars/typescript/replacements.tsv"),
        positions: include_str!("../../../../grammars/typescript/positions.tsv"),
        compatible: include_str!("../../../../grammars/typescript/compatible.txt"),
        flatten: include_str!("../../../../grammars/typescript/flatten.txt"),
        passes: include_str!("../../../../grammars/typescript/passes.toml"),
    },
};
