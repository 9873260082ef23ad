//! The languages: the built-in grammars, registered in one `builtins!` table (one line each:
//! variant, name, tree-sitter language, other names, extensions; the tables come from
//! `grammars/<name>/`), plain text, and grammars loaded at run time ([`Lang::Loaded`], see
//! `loader.rs`). [`LangData`] is a grammar's data as the tree crate uses it, built once per
//! process. Each `lang/<name>.rs` holds that language's tests.

use std::collections::HashMap;
use std::path::Path;
use std::sync::OnceLock;

use crate::pass_data::PassData;
use crate::replace::{parse_positions, parse_replacements, unescape};
use crate::Error;

#[cfg(test)]
mod c;
#[cfg(test)]
mod cpp;
#[cfg(test)]
mod css;
#[cfg(test)]
mod go;
#[cfg(test)]
mod html;
#[cfg(test)]
mod java;
#[cfg(test)]
mod javascript;
#[cfg(test)]
mod python;
#[cfg(test)]
mod rust;
#[cfg(test)]
mod typescript;

/// The input languages treedd knows: the built-in grammars, plain text, and grammars
/// loaded at run time (`--grammar DIR`, see [`Lang::load`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Lang {
    C,
    Cpp,
    JavaScript,
    TypeScript,
    Java,
    Rust,
    Python,
    Go,
    Html,
    Css,
    /// No grammar: reduced by line/character ddmin.
    Text,
    /// A grammar compiled and loaded at run time; lives for the rest of the process.
    Loaded(&'static Grammar),
}

/// One built-in language: its `--language` names (the first is canonical), the file
/// extensions that imply it, and its tables (under `grammars/<name>/`).
pub(crate) struct Builtin {
    pub lang: Lang,
    pub names: &'static [&'static str],
    pub extensions: &'static [&'static str],
    pub spec: fn() -> Spec<'static>,
}

/// `BUILTINS` from one line per grammar: the variant, the canonical name (also the folder under
/// `grammars/`), the tree-sitter language, the other `--language` names, the extensions, and
/// `injections` for a language with `grammars/<name>/injections.toml` (see `inject.rs`).
macro_rules! builtins {
    (@injections $name:literal injections) => {
        include_str!(concat!("../../../grammars/", $name, "/injections.toml"))
    };
    (@injections $name:literal) => { "" };
    ($($lang:ident $name:literal $language:expr, [$($alias:literal),*], [$($ext:literal),*] $(, $inj:ident)?;)*) => {
        const BUILTINS: &[Builtin] = &[$(Builtin {
            lang: Lang::$lang,
            names: &[$name $(, $alias)*],
            extensions: &[$($ext),*],
            spec: || Spec {
                name: $name,
                language: $language.into(),
                replacements: include_str!(concat!("../../../grammars/", $name, "/replacements.tsv")),
                positions: include_str!(concat!("../../../grammars/", $name, "/positions.tsv")),
                compatible: include_str!(concat!("../../../grammars/", $name, "/compatible.txt")),
                flatten: include_str!(concat!("../../../grammars/", $name, "/flatten.txt")),
                passes: include_str!(concat!("../../../grammars/", $name, "/passes.toml")),
                injections: builtins!(@injections $name $($inj)?),
            },
        }),*];
    };
}

// The registration list, in the order of `--language`'s help. Each language's tests are in
// `lang/<name>.rs`.
builtins! {
    C "c" tree_sitter_c::LANGUAGE, [], ["c", "h"];
    Cpp "cpp" tree_sitter_cpp::LANGUAGE, ["c++", "cxx"], ["cpp", "cc", "cxx", "c++", "hpp", "hh", "hxx"];
    JavaScript "javascript" tree_sitter_javascript::LANGUAGE, ["js"], ["js", "mjs", "cjs"];
    TypeScript "typescript" tree_sitter_typescript::LANGUAGE_TYPESCRIPT, ["ts"], ["ts", "mts", "cts"];
    Java "java" tree_sitter_java::LANGUAGE, [], ["java"];
    Rust "rust" tree_sitter_rust::LANGUAGE, ["rs"], ["rs"];
    Python "python" tree_sitter_python::LANGUAGE, ["py"], ["py", "pyi"];
    Go "go" tree_sitter_go::LANGUAGE, ["golang"], ["go"];
    Html "html" tree_sitter_html::LANGUAGE, ["htm"], ["html", "htm", "xhtml"], injections;
    Css "css" tree_sitter_css::LANGUAGE, [], ["css"];
}

impl Lang {
    /// The built-in languages and text (not the run-time grammars).
    pub fn all() -> &'static [Lang] {
        &[
            Lang::C,
            Lang::Cpp,
            Lang::JavaScript,
            Lang::TypeScript,
            Lang::Java,
            Lang::Rust,
            Lang::Python,
            Lang::Go,
            Lang::Html,
            Lang::Css,
            Lang::Text,
        ]
    }

    fn builtin(self) -> Option<(usize, &'static Builtin)> {
        BUILTINS.iter().enumerate().find(|(_, b)| b.lang == self)
    }

    /// The name used by `--language` (a run-time grammar's `name` in grammar.json).
    pub fn name(self) -> &'static str {
        match self {
            Lang::Text => "text",
            Lang::Loaded(g) => g.name(),
            _ => self.builtin().map_or("?", |(_, b)| b.names[0]),
        }
    }

    /// Comma-separated names of the built-in languages, for messages.
    pub fn names() -> String {
        let mut names: Vec<&str> = BUILTINS.iter().map(|b| b.names[0]).collect();
        names.push("text");
        names.join(", ")
    }

    pub fn from_name(name: &str) -> Option<Lang> {
        let name = name.to_ascii_lowercase();
        if name == "text" || name == "txt" {
            return Some(Lang::Text);
        }
        BUILTINS
            .iter()
            .find(|b| b.names.contains(&name.as_str()))
            .map(|b| b.lang)
    }

    /// The language implied by a file's extension, if any.
    pub fn from_path(path: &Path) -> Option<Lang> {
        let ext = path.extension()?.to_str()?.to_ascii_lowercase();
        if ext == "txt" {
            return Some(Lang::Text);
        }
        BUILTINS
            .iter()
            .find(|b| b.extensions.contains(&ext.as_str()))
            .map(|b| b.lang)
    }

    /// True for languages with a grammar (everything but [`Lang::Text`]).
    pub fn has_grammar(self) -> bool {
        self != Lang::Text
    }

    /// The loaded grammar data (tree-sitter language + tables), built once per process.
    pub(crate) fn data(self) -> Result<&'static LangData, Error> {
        static DATA: [OnceLock<LangData>; BUILTINS.len()] =
            [const { OnceLock::new() }; BUILTINS.len()];
        if let Lang::Loaded(g) = self {
            return Ok(g.data());
        }
        let (i, b) = self.builtin().ok_or(Error::NoGrammar(self.name()))?;
        Ok(DATA[i].get_or_init(|| {
            LangData::new((b.spec)())
                .unwrap_or_else(|e| panic!("built-in grammar data is broken: {e}"))
        }))
    }
}

/// A grammar loaded at run time: its name (from grammar.json) and derived tables.
pub struct Grammar {
    name: &'static str,
    data: LangData,
}

impl Grammar {
    pub(crate) fn new(name: &'static str, data: LangData) -> Grammar {
        Grammar { name, data }
    }

    pub fn name(&self) -> &'static str {
        self.name
    }

    pub(crate) fn data(&'static self) -> &'static LangData {
        &self.data
    }
}

impl std::fmt::Debug for Grammar {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "Grammar({})", self.name)
    }
}

/// Identity: each loaded grammar is its own language.
impl PartialEq for Grammar {
    fn eq(&self, other: &Self) -> bool {
        std::ptr::eq(self, other)
    }
}

impl Eq for Grammar {}

impl std::hash::Hash for Grammar {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        (self as *const Grammar).hash(state)
    }
}

/// What one language registers (see `lang/<x>.rs`). The tables are files under
/// `grammars/<lang>/`: `replacements.tsv` and `positions.tsv` are generated by
/// `cargo xtask codegen`; `compatible.txt`, `flatten.txt` and `passes.toml` are written by
/// hand.
pub(crate) struct Spec<'a> {
    /// The language's name (for messages about its data files).
    pub name: &'a str,
    pub language: tree_sitter::Language,
    pub replacements: &'a str,
    pub positions: &'a str,
    /// Lines of kinds that may stand for each other when hoisting.
    pub compatible: &'a str,
    /// Lines `kinds... [; links...]`: families of kinds whose nested chains are flattened,
    /// and link kinds a chain may pass through (`else_clause` between `if_statement`s).
    pub flatten: &'a str,
    /// The transformation passes' data (`passes.toml`, see `crate::facts`).
    pub passes: &'a str,
    /// Where the text is in other languages (`injections.toml`, see `crate::inject`; empty:
    /// nowhere).
    pub injections: &'a str,
}

/// Kind ids: tree-sitter's canonical ids `0..n`, then ERROR = `n`, then for every kind `k`
/// the synthetic "tail" kind `k + n + 1` of flattened chain groups.
pub(crate) type KindId = u16;

pub(crate) struct LangData {
    pub ts: tree_sitter::Language,
    pub names: Vec<Box<str>>,
    /// Named kinds (anonymous ones are punctuation and keywords).
    pub named: Vec<bool>,
    /// tree-sitter kind id -> canonical kind id (first id with the same name and namedness).
    canon: Vec<KindId>,
    pub error: KindId,
    /// Minimal replacement per kind (None: unknown, use the node's own text).
    pub min: Vec<Option<Box<[u8]>>>,
    /// (canonical parent kind, field id or 0 for unnamed children) -> position class:
    /// 0 required, 1 may be empty, 2 one of several (removable while a sibling remains).
    pub positions: HashMap<(KindId, u16), u8>,
    /// (canonical parent kind, child kind) -> position class of an unnamed child of that
    /// kind, where it differs from the parent's default for unnamed children.
    kind_positions: HashMap<(KindId, KindId), u8>,
    /// (canonical parent kind, field id) -> the one kind the field admits, where every text
    /// of that kind begins with one token (see `positions.tsv`).
    sole: HashMap<(KindId, u16), KindId>,
    /// Kind -> the token every text of that kind begins with (the kinds of `sole`).
    leads: HashMap<KindId, Box<[u8]>>,
    /// Canonical parent kind -> the tokens other than `,` that separate the items of a
    /// list among its children (Java's `catch (A | B e)`, Rust's `T: A + B`).
    separators: HashMap<KindId, Vec<Box<[u8]>>>,
    /// Compatibility groups per kind, one bit per line of compatible.txt (0: compatible only
    /// with itself).
    pub compat: Vec<u64>,
    /// Flattening family per kind (0: none).
    pub family: Vec<u16>,
    pub link: Vec<bool>,
    /// The transformation passes' data.
    pub passes: PassData,
    /// Where the text holds other languages (`injections.toml`, see `crate::inject`).
    pub injections: Vec<crate::injections::Injection>,
}

/// The lines of a data file that are neither blank nor comments.
fn data_lines(text: &str) -> impl Iterator<Item = &str> {
    text.lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
}

impl LangData {
    pub(crate) fn new(spec: Spec<'_>) -> Result<LangData, String> {
        let ts = spec.language;
        let n = ts.node_kind_count();
        let mut names: Vec<Box<str>> = Vec::with_capacity(2 * n + 2);
        let mut named = Vec::with_capacity(2 * n + 2);
        let mut canon = Vec::with_capacity(n);
        let mut first: HashMap<(String, bool), KindId> = HashMap::new();
        for id in 0..n as u16 {
            let name = ts.node_kind_for_id(id).unwrap_or("?").to_string();
            let is_named = ts.node_kind_is_named(id);
            canon.push(*first.entry((name.clone(), is_named)).or_insert(id));
            names.push(name.into());
            named.push(is_named);
        }
        let error = n as KindId;
        names.push("ERROR".into());
        named.push(true);
        for k in 0..=n {
            names.push(format!("{}/tail", names[k]).into());
            named.push(true);
        }
        let by_name = |name: &str| -> Option<KindId> {
            if name == "ERROR" {
                return Some(error);
            }
            first.get(&(name.to_string(), true)).copied()
        };

        let mut min: Vec<Option<Box<[u8]>>> = vec![None; names.len()];
        for (kind, text) in parse_replacements(spec.replacements) {
            if let Some(k) = by_name(&kind) {
                min[k as usize] = Some(text.into_bytes().into());
            }
        }
        // Anonymous tokens derive their own text; ERROR and tails may vanish.
        for id in 0..n {
            if !named[id] {
                min[id] = Some(names[id].as_bytes().into());
            }
        }
        min[error as usize] = Some(Box::new([]));
        for m in min.iter_mut().skip(n + 1) {
            *m = Some(Box::new([]));
        }

        let mut positions = HashMap::new();
        let mut kind_positions = HashMap::new();
        let mut sole = HashMap::new();
        let mut leads = HashMap::new();
        let mut separators: HashMap<KindId, Vec<Box<[u8]>>> = HashMap::new();
        for (parent, field, class, only) in parse_positions(spec.positions) {
            let Some(p) = by_name(&parent) else { continue };
            if let Some(sep) = field.strip_prefix('/').and_then(unescape) {
                separators
                    .entry(p)
                    .or_default()
                    .push(sep.into_bytes().into_boxed_slice());
                continue;
            }
            if let Some(kind) = field.strip_prefix('*').filter(|k| !k.is_empty()) {
                if let Some(k) = by_name(kind) {
                    kind_positions.insert((p, k), class);
                }
                continue;
            }
            let f = if field == "*" {
                0
            } else {
                match ts.field_id_for_name(&field) {
                    Some(f) => f.get(),
                    None => continue,
                }
            };
            positions.insert((p, f), class);
            if let Some((k, lead)) = only.and_then(|(k, lead)| Some((by_name(&k)?, lead))) {
                sole.insert((p, f), k);
                leads.insert(k, lead.into_bytes().into_boxed_slice());
            }
        }

        let groups = |text: &str| -> Vec<u16> {
            let mut out = vec![0u16; names.len()];
            for (i, line) in data_lines(text).enumerate() {
                let members = line.split(';').next().unwrap_or("");
                for kind in members.split_whitespace() {
                    if let Some(k) = by_name(kind) {
                        out[k as usize] = i as u16 + 1;
                    }
                }
            }
            out
        };
        // A kind may be in several compatibility groups (C's `identifier` is an expression
        // and a declarator): one bit per group.
        let mut compat = vec![0u64; names.len()];
        for (i, line) in data_lines(spec.compatible).enumerate() {
            if i >= 64 {
                return Err(format!(
                    "grammars/{}/compatible.txt: more than 64 groups",
                    spec.name
                ));
            }
            for kind in line.split_whitespace() {
                if let Some(k) = by_name(kind) {
                    compat[k as usize] |= 1 << i;
                }
            }
        }
        let family = groups(spec.flatten);
        let mut link = vec![false; names.len()];
        for line in spec
            .flatten
            .lines()
            .filter(|l| !l.trim_start().starts_with('#'))
        {
            if let Some((_, links)) = line.split_once(';') {
                for kind in links.split_whitespace() {
                    if let Some(k) = by_name(kind) {
                        link[k as usize] = true;
                    }
                }
            }
        }
        // Kind 0 is tree-sitter's end of input, spelled `end`: no keyword (`end()` is a name).
        let keywords = (1..n)
            .filter(|&k| !named[k] && is_word(&names[k]))
            .map(|k| names[k].to_string())
            .collect::<Vec<_>>();
        let passes = PassData::new(spec.name, spec.passes, &ts, keywords.into_iter())?;
        let injections = crate::injections::parse(spec.name, spec.injections, &ts, |l| {
            Lang::from_name(l).is_some_and(Lang::has_grammar)
        })?;
        Ok(LangData {
            ts,
            names,
            named,
            canon,
            error,
            min,
            positions,
            kind_positions,
            sole,
            leads,
            separators,
            compat,
            family,
            link,
            passes,
            injections,
        })
    }

    /// Canonical kind id of a tree-sitter node.
    pub fn kind_of(&self, node: &tree_sitter::Node<'_>) -> KindId {
        if node.is_error() {
            return self.error;
        }
        self.canon
            .get(node.kind_id() as usize)
            .copied()
            .unwrap_or(self.error)
    }

    pub fn tail(&self, k: KindId) -> KindId {
        if k > self.error {
            k
        } else {
            k + self.error + 1
        }
    }

    pub fn is_named(&self, k: KindId) -> bool {
        self.named[k as usize]
    }

    pub fn is_tail(&self, k: KindId) -> bool {
        k > self.error
    }

    /// The one kind a child with this field (0: none) of a `parent` node may have, if the
    /// grammar admits only one there and every text of that kind begins with one token.
    pub fn sole_kind(&self, parent: KindId, field: u16) -> Option<KindId> {
        if field == 0 {
            return None;
        }
        self.sole.get(&(parent, field)).copied()
    }

    /// The token every text of `kind` begins with, for the kinds `sole_kind` names.
    pub fn leading_token(&self, kind: KindId) -> Option<&[u8]> {
        self.leads.get(&kind).map(|t| &t[..])
    }

    /// Whether a hidden token with this text separates the items of a list among the
    /// children of a `parent` node: `,` everywhere, others where positions.tsv says so.
    pub fn is_separator(&self, parent: KindId, text: &[u8]) -> bool {
        text == b","
            || self
                .separators
                .get(&parent)
                .is_some_and(|seps| seps.iter().any(|s| **s == *text))
    }

    /// Position class of a child with this field (0: none) of a `parent` node: 0 required,
    /// 1 may be empty, 2 may be removed while a sibling in the same field remains.
    pub fn position_class(&self, parent: KindId, field: u16, child: KindId) -> u8 {
        if parent == self.error {
            return 1;
        }
        if field == 0 {
            if !self.named[child as usize] {
                return 0;
            }
            if let Some(&class) = self.kind_positions.get(&(parent, child)) {
                return class;
            }
        }
        self.positions.get(&(parent, field)).copied().unwrap_or(0)
    }
}

/// A keyword-like token text: a letter or `_`, then letters, digits or `_`.
fn is_word(s: &str) -> bool {
    let mut chars = s.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_')
}

#[cfg(test)]
mod tests {
    use super::*;

    use std::path::PathBuf;

    use expect_test::expect_file;

    /// `lang`'s tables load and `src`, a small valid program, parses without errors and
    /// round-trips (each `lang/<x>.rs` calls this).
    #[track_caller]
    pub(super) fn check_loads_and_parses(lang: Lang, src: &[u8]) {
        let data = lang.data().unwrap();
        assert!(data.names.len() > 50, "{lang:?}");
        let min_known = data.min.iter().filter(|m| m.is_some()).count();
        assert!(min_known > data.names.len() / 2, "{lang:?}");
        assert!(!data.positions.is_empty(), "{lang:?}");
        let tree = crate::RTree::build(lang, src).unwrap();
        assert_eq!(tree.unparse(), src);
        assert_eq!(tree.error_count(), 0, "{lang:?}");
    }

    /// Every input under test_data/<lang>/ round-trips and matches its `.tree` snapshot
    /// (refresh with UPDATE_EXPECT=1).
    #[track_caller]
    pub(super) fn check_snapshots(lang: Lang) {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("test_data")
            .join(lang.name());
        let mut files: Vec<PathBuf> = std::fs::read_dir(&dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| Lang::from_path(p) == Some(lang))
            .collect();
        files.sort();
        assert!(!files.is_empty(), "no inputs in {}", dir.display());
        for path in files {
            let src = std::fs::read(&path).unwrap();
            let tree = crate::RTree::build(lang, &src).unwrap();
            assert_eq!(tree.unparse(), src, "{}", path.display());
            let mut snapshot = crate::dump(&tree);
            snapshot.push_str(&format!("errors: {}\n", tree.error_count()));
            expect_file![path.with_extension("tree")].assert_eq(&snapshot);
        }
    }

    /// A 10,000-deep nesting (`deep`) and a 10 MB input of repeated `unit`s (after `head`):
    /// no crash, byte-exact round trip, no error in the large one.
    #[track_caller]
    pub(super) fn check_deep_and_large(lang: Lang, deep: &str, head: &str, unit: &str) {
        let tree = crate::RTree::build(lang, deep.as_bytes()).unwrap();
        assert_eq!(tree.unparse(), deep.as_bytes(), "{lang:?}");
        let large = format!("{head}{}", unit.repeat(10_000_000 / unit.len() + 1));
        let tree = crate::RTree::build(lang, large.as_bytes()).unwrap();
        assert_eq!(tree.unparse(), large.as_bytes(), "{lang:?}");
        assert_eq!(tree.error_count(), 0, "{lang:?}");
    }

    /// `pre`, 10,000 opening parentheses, `1`, as many closing ones, `post`.
    pub(super) fn parens(pre: &str, post: &str) -> String {
        format!("{pre}{}1{}{post}", "(".repeat(10_000), ")".repeat(10_000))
    }

    #[test]
    fn text_has_no_grammar() {
        let e = Lang::Text.data().err().unwrap();
        assert_eq!(
            e.to_string(),
            "language text has no grammar; reduce it as text"
        );
    }

    #[test]
    fn the_end_of_input_is_no_keyword() {
        // tree-sitter names its end-of-input symbol `end`; a member `end()` is a name.
        for &lang in Lang::all() {
            let Ok(data) = lang.data() else { continue };
            assert!(!data.passes.fixed.contains(&b"end"[..]), "{}", lang.name());
        }
        let cpp = &Lang::Cpp.data().unwrap().passes;
        assert!(cpp.fixed.contains(&b"while"[..]));
    }

    #[test]
    fn names_and_paths() {
        for &lang in Lang::all() {
            assert_eq!(Lang::from_name(lang.name()), Some(lang));
        }
        assert_eq!(
            Lang::from_path(Path::new("a/b.MJS")),
            Some(Lang::JavaScript)
        );
        assert_eq!(Lang::from_path(Path::new("x.h")), Some(Lang::C));
        assert_eq!(Lang::from_path(Path::new("x.rs")), Some(Lang::Rust));
        assert_eq!(Lang::from_path(Path::new("x.cc")), Some(Lang::Cpp));
        assert_eq!(Lang::from_path(Path::new("x.py")), Some(Lang::Python));
        assert_eq!(Lang::from_path(Path::new("x.go")), Some(Lang::Go));
        assert_eq!(Lang::from_path(Path::new("x.ts")), Some(Lang::TypeScript));
        assert_eq!(Lang::from_path(Path::new("x.lua")), None);
        assert_eq!(Lang::from_name("C++"), Some(Lang::Cpp));
    }
}
