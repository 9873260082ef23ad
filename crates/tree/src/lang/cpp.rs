//! C++ registration: tables under grammars/cpp/.

use super::{Builtin, Lang, Spec};

pub(super) const BUILTIN: Builtin = Builtin {
    lang: Lang::Cpp,
    names: &["cpp", "c++", "cxx"],
    extensions: &["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx"],
    spec: || Spec {
        name: "cpp",
        language: tree_sitter_cpp::LANGUAGE.into(),
        replacements: include_str!("../../../../grammars/cpp/replacements.tsv"),
        positions: include_str!("../../../../grammars/cpp/positions.tsv"),
        compatible: include_str!("../../../../grammars/cpp/compatible.txt"),
        flatten: include_str!("../../../../grammars/cpp/flatten.txt"),
        passes: include_str!("../../../../grammars/cpp/passes.toml"),
    },
};
