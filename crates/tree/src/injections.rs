//! `grammars/<lang>/injections.toml`: which node kinds of a language hold text of another
//! language (the islands of `inject.rs`, which reads these entries), checked against the
//! grammar when the language's data loads.

use std::collections::HashMap;

use serde::Deserialize;

/// `injections.toml`, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct InjectionsFile {
    #[serde(default)]
    injections: Vec<Injection>,
}

/// One `[[injections]]` entry (see `inject.rs`'s module doc).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Injection {
    #[serde(default)]
    pub parent: Option<String>,
    pub content: String,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub select: Option<Select>,
    #[serde(default)]
    pub languages: HashMap<String, String>,
}

/// Where the host's text names an island's language (see `inject.rs`'s module doc).
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct Select {
    pub node: String,
    #[serde(default)]
    pub key: Option<String>,
    #[serde(default)]
    pub is: Option<String>,
    #[serde(default)]
    pub value: Option<String>,
}

/// Parse `injections.toml` of language `lang` and check its kinds against the grammar and its
/// languages with `known_language` (the built-in ones).
pub(crate) fn parse(
    lang: &str,
    text: &str,
    ts: &tree_sitter::Language,
    known_language: impl Fn(&str) -> bool,
) -> Result<Vec<Injection>, String> {
    let mut file: InjectionsFile =
        toml::from_str(text).map_err(|e| format!("grammars/{lang}/injections.toml: {e}"))?;
    let kind = |k: &str| -> Result<(), String> {
        match ts.id_for_node_kind(k, true) {
            0 => Err(format!(
                "grammars/{lang}/injections.toml: `{k}` is not a named node kind of the grammar"
            )),
            _ => Ok(()),
        }
    };
    let language = |l: &str| -> Result<(), String> {
        if known_language(l) {
            return Ok(());
        }
        Err(format!(
            "grammars/{lang}/injections.toml: `{l}` is not a built-in language"
        ))
    };
    for inj in &mut file.injections {
        inj.languages = std::mem::take(&mut inj.languages)
            .into_iter()
            .map(|(value, l)| (value.trim().to_ascii_lowercase(), l))
            .collect();
        kind(&inj.content)?;
        if let Some(p) = &inj.parent {
            kind(p)?;
        }
        if let Some(s) = &inj.select {
            for k in [Some(&s.node), s.key.as_ref(), s.value.as_ref()]
                .into_iter()
                .flatten()
            {
                kind(k)?;
            }
        }
        for l in inj.language.iter().chain(inj.languages.values()) {
            language(l)?;
        }
    }
    Ok(file.injections)
}
