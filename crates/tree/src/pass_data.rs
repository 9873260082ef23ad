//! The transformation passes' per-language data, `grammars/<lang>/passes.toml` (issue 9),
//! parsed and checked against the grammar when a language is loaded. [`crate::facts`] uses
//! it; this module depends on nothing else of the crate.

use std::collections::{BTreeMap, HashMap, HashSet};

use serde::Deserialize;

/// `grammars/<lang>/passes.toml`, as written.
#[derive(Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct PassSpec {
    #[serde(default)]
    identifiers: Vec<String>,
    #[serde(default)]
    pub reserved: Vec<String>,
    #[serde(default)]
    groups: Vec<GroupSpec>,
    #[serde(default)]
    pub literals: BTreeMap<String, Vec<String>>,
    #[serde(default)]
    pub functions: Vec<ListSpec>,
    #[serde(default)]
    pub calls: Vec<ListSpec>,
}

#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct GroupSpec {
    kinds: Vec<String>,
    #[serde(default)]
    extra: Vec<String>,
}

#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub(crate) struct ListSpec {
    pub kind: String,
    pub name: String,
    pub list: String,
}

/// The per-language data of the passes, checked against the grammar when loaded.
#[derive(Debug, Default)]
pub(crate) struct PassData {
    /// Identifier kind -> its replacement group (index into `extras`), if any.
    pub identifiers: HashMap<String, Option<usize>>,
    /// Per group: words that may replace a spelling of the group besides the file's own.
    pub extras: Vec<Vec<String>>,
    /// Words a new name must never be (keywords of the grammar included).
    pub reserved: HashSet<Vec<u8>>,
    pub literals: HashMap<String, Vec<String>>,
    pub functions: Vec<ListSpec>,
    pub calls: Vec<ListSpec>,
}

impl PassData {
    /// Parse `text` and check every kind and field it names against `ts`. `keywords` are the
    /// grammar's anonymous word tokens.
    pub(crate) fn new(
        lang: &str,
        text: &str,
        ts: &tree_sitter::Language,
        keywords: impl Iterator<Item = String>,
    ) -> Result<PassData, String> {
        let spec: PassSpec =
            toml::from_str(text).map_err(|e| format!("grammars/{lang}/passes.toml: {e}"))?;
        let named_kind = |k: &str| -> Result<(), String> {
            if ts.id_for_node_kind(k, true) == 0 {
                return Err(format!(
                    "grammars/{lang}/passes.toml: `{k}` is not a named node kind of the grammar"
                ));
            }
            Ok(())
        };
        let field = |f: &str| -> Result<(), String> {
            ts.field_id_for_name(f).map(|_| ()).ok_or_else(|| {
                format!("grammars/{lang}/passes.toml: `{f}` is not a field of the grammar")
            })
        };
        let mut data = PassData::default();
        for k in &spec.identifiers {
            named_kind(k)?;
            data.identifiers.insert(k.clone(), None);
        }
        for (g, group) in spec.groups.iter().enumerate() {
            for k in &group.kinds {
                match data.identifiers.get_mut(k) {
                    Some(slot) => *slot = Some(g),
                    None => {
                        return Err(format!(
                            "grammars/{lang}/passes.toml: group kind `{k}` is not in `identifiers`"
                        ))
                    }
                }
            }
            data.extras.push(group.extra.clone());
        }
        for (k, texts) in &spec.literals {
            named_kind(k)?;
            data.literals.insert(k.clone(), texts.clone());
        }
        for l in spec.functions.iter().chain(&spec.calls) {
            named_kind(&l.kind)?;
            field(&l.name)?;
            field(&l.list)?;
        }
        data.functions = spec.functions;
        data.calls = spec.calls;
        data.reserved = spec
            .reserved
            .into_iter()
            .chain(keywords)
            .map(String::into_bytes)
            .collect();
        Ok(data)
    }
}
