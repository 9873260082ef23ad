//! Tests of `replace.rs`, and the inputs of the data-driven tests of the crate.

use super::*;
use crate::quality::replacement_quality;

#[track_caller]
fn check_regex(pattern: &str, expect: Option<&str>) {
    assert_eq!(
        sample_regex(pattern).as_deref(),
        expect,
        "pattern {pattern}"
    );
}

#[test]
fn regex_samples() {
    check_regex(r"[a-zA-Z_]\w*", Some("a"));
    check_regex(r"\d+(\.\d+)?", Some("0"));
    check_regex(r#"[^"\\\n]+"#, Some("a"));
    check_regex(r"//[^\n]*", Some("//"));
    check_regex(r"0[xX][0-9a-fA-F]+|\d+", Some("0"));
    check_regex(r"\r?\n", Some("\n"));
    check_regex(r"\p{XID_Start}\p{XID_Continue}*", Some("a"));
    check_regex(r"a{3,5}", Some("aaa"));
    check_regex(r"(unclosed", None);
}

#[test]
fn minimal_strings_of_a_small_grammar() {
    let grammar = r#"{"rules": {
            "program": {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "stmt"}},
            "stmt": {"type": "CHOICE", "members": [
                {"type": "SEQ", "members": [{"type": "STRING", "value": "int"},
                    {"type": "SYMBOL", "name": "identifier"}, {"type": "STRING", "value": ";"}]},
                {"type": "SEQ", "members": [{"type": "STRING", "value": "{"},
                    {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "stmt"}},
                    {"type": "STRING", "value": "}"}]}]},
            "expr": {"type": "CHOICE", "members": [
                {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "expr"},
                    {"type": "STRING", "value": "+"}, {"type": "SYMBOL", "name": "expr"}]},
                {"type": "SYMBOL", "name": "number"}]},
            "number": {"type": "PATTERN", "value": "\\d+"},
            "identifier": {"type": "PATTERN", "value": "[a-z]+"},
            "ext": {"type": "SYMBOL", "name": "scanner_token"}
        }}"#;
    let mut overrides = HashMap::new();
    overrides.insert("scanner_token".to_string(), "@".to_string());
    let min = minimal_strings(&serde_json::from_str(grammar).unwrap(), &overrides).unwrap();
    assert_eq!(min["program"], "");
    assert_eq!(min["stmt"], "{}");
    assert_eq!(min["expr"], "0");
    assert_eq!(min["ext"], "@");
    // Word tokens are separated so they do not glue.
    let g2 = r#"{"rules": {"d": {"type": "SEQ", "members": [{"type": "STRING", "value": "int"},
            {"type": "PATTERN", "value": "[a-z]+"}, {"type": "STRING", "value": ";"}]}}}"#;
    let min = minimal_strings(&serde_json::from_str(g2).unwrap(), &HashMap::new()).unwrap();
    assert_eq!(min["d"], "int a;");
}

#[test]
fn leading_tokens_of_a_small_grammar() {
    let grammar = r#"{"rules": {
            "program": {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "_stmt"}},
            "_stmt": {"type": "CHOICE", "members": [
                {"type": "SYMBOL", "name": "block"}, {"type": "SYMBOL", "name": "decl"}]},
            "block": {"type": "PREC", "value": 1, "content": {"type": "SEQ", "members": [
                {"type": "TOKEN", "content": {"type": "STRING", "value": "{"}},
                {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "_stmt"}},
                {"type": "STRING", "value": "}"}]}},
            "decl": {"type": "CHOICE", "members": [
                {"type": "SEQ", "members": [{"type": "STRING", "value": "int"},
                    {"type": "SYMBOL", "name": "identifier"}]},
                {"type": "SEQ", "members": [{"type": "FIELD", "name": "t",
                    "content": {"type": "STRING", "value": "int"}},
                    {"type": "STRING", "value": "*"}]}]},
            "suite": {"type": "REPEAT1", "content": {"type": "SYMBOL", "name": "_stmt"}},
            "maybe": {"type": "SEQ", "members": [
                {"type": "CHOICE", "members": [{"type": "STRING", "value": "const"},
                    {"type": "BLANK"}]},
                {"type": "STRING", "value": "x"}]},
            "expr": {"type": "CHOICE", "members": [
                {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "expr"},
                    {"type": "STRING", "value": "+"}]},
                {"type": "STRING", "value": "("}]},
            "comment": {"type": "TOKEN", "content": {"type": "SEQ", "members": [
                {"type": "STRING", "value": "//"}, {"type": "PATTERN", "value": ".*"}]}},
            "wrap": {"type": "ALIAS", "named": true, "value": "body",
                "content": {"type": "SYMBOL", "name": "block"}},
            "identifier": {"type": "PATTERN", "value": "[a-z]+"}
        }}"#;
    let leads = leading_tokens(&serde_json::from_str(grammar).unwrap());
    assert_eq!(leads.get("block").map(String::as_str), Some("{"));
    assert_eq!(leads.get("decl").map(String::as_str), Some("int"));
    // An alias takes the aliased rule's token.
    assert_eq!(leads.get("body").map(String::as_str), Some("{"));
    // A block or a declaration; maybe empty at first; left recursion; a token that is more
    // than a string; a pattern; hidden rules are not kinds.
    for none in [
        "suite",
        "program",
        "maybe",
        "expr",
        "comment",
        "identifier",
        "_stmt",
    ] {
        assert_eq!(leads.get(none), None, "{none}");
    }
}

/// Inputs for the data-driven tests: test_data/, the repository's fixtures/ and the
/// shared suites (`TREEDD_SUITES`, default `shared/suites` beside the repository or one of
/// its ancestors, where CI puts them; a missing folder is an error, so the suites are never
/// skipped silently).
pub(crate) fn inputs(max_len: u64) -> Vec<(crate::Lang, std::path::PathBuf)> {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let suites = std::env::var_os("TREEDD_SUITES")
        .map(std::path::PathBuf::from)
        .unwrap_or_else(|| {
            let repo = root.join("..").join("..");
            let found = repo
                .canonicalize()
                .unwrap_or(repo)
                .ancestors()
                .skip(1)
                .map(|a| a.join("shared").join("suites"))
                .find(|p| p.is_dir());
            found.unwrap_or_else(|| root.join("shared-suites-not-found"))
        });
    assert!(
        suites.join("jrts").is_dir() && suites.join("perses").is_dir(),
        "the shared suites are not at {} (set TREEDD_SUITES)",
        suites.display()
    );
    let mut dirs = vec![root.join("test_data"), root.join("../../fixtures"), suites];
    let mut out = Vec::new();
    while let Some(dir) = dirs.pop() {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        for e in entries.flatten() {
            let path = e.path();
            if path.is_dir() {
                dirs.push(path);
            } else if let Some(lang) = crate::Lang::from_path(&path).filter(|l| l.has_grammar()) {
                if e.metadata().is_ok_and(|m| m.len() <= max_len) {
                    out.push((lang, path));
                }
            }
        }
    }
    out.sort_by(|a, b| a.1.cmp(&b.1));
    out
}

/// Replacing any single node by its replacement gives no new syntax errors for at
/// least 98% of the nodes, per language.
#[test]
fn replacement_quality_per_language() {
    let mut per_lang: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for (lang, path) in inputs(20_000) {
        let src = std::fs::read(&path).unwrap();
        let tree = crate::RTree::build(lang, &src).unwrap();
        // At most 150 nodes per input (evenly spread) keep the test fast.
        let q = replacement_quality(&tree, 150);
        let e = per_lang.entry(lang.name()).or_default();
        e.0 += q.ok;
        e.1 += q.tested;
    }
    for lang in [
        "c",
        "cpp",
        "javascript",
        "typescript",
        "java",
        "rust",
        "python",
        "go",
        "html",
        "css",
    ] {
        let (ok, tested) = per_lang.get(lang).copied().unwrap_or_default();
        let rate = ok as f64 / tested.max(1) as f64;
        eprintln!(
            "replacement success {lang}: {ok}/{tested} = {:.2}%",
            100.0 * rate
        );
        assert!(tested >= 50, "{lang}: only {tested} nodes tested");
        assert!(rate >= 0.98, "{lang}: {ok}/{tested}");
    }
}

#[test]
fn overrides_and_escapes() {
    let o = parse_overrides("# c\n[replacements]\na = \"x\\ny\"\n\"b\" = \"\"\n").unwrap();
    assert_eq!(o["a"], "x\ny");
    assert_eq!(o["b"], "");
    assert!(parse_overrides("a = x").is_err());
    let p = parse_position_overrides("a = \"x\"\n[positions]\n\"p/f\" = 0\n").unwrap();
    assert_eq!(p[&("p".to_string(), "f".to_string())], 0);
    assert_eq!(
        parse_overrides("[positions]\n\"p/f\" = 0\n").unwrap().len(),
        0
    );
    assert_eq!(unescape(&escape("a\tb\\c\n\"")).unwrap(), "a\tb\\c\n\"");
}

#[test]
fn separated_lists_keep_their_items_removable() {
    // `stmts` is `s (';' s)*` then a newline, repeated in `program` (Python's simple
    // statements); `union` is `t ('|' t)*` in a required place; `bound` is
    // `'extends' t ('&' t)*` (Java's type bounds); `init` is `x ('=' y)*`, whose `y` goes
    // with its `=`.
    let grammar = r#"{"rules": {
            "program": {"type": "REPEAT", "content": {"type": "SYMBOL", "name": "_stmts"}},
            "_stmts": {"type": "SEQ", "members": [
                {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "stmt"},
                    {"type": "REPEAT", "content": {"type": "SEQ", "members": [
                        {"type": "STRING", "value": ";"}, {"type": "SYMBOL", "name": "stmt"}]}}]},
                {"type": "SYMBOL", "name": "_newline"}]},
            "union": {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "ty"},
                {"type": "REPEAT", "content": {"type": "SEQ", "members": [
                    {"type": "STRING", "value": "|"}, {"type": "SYMBOL", "name": "ty"}]}}]},
            "bound": {"type": "SEQ", "members": [{"type": "STRING", "value": "extends"},
                {"type": "SYMBOL", "name": "ty"},
                {"type": "REPEAT", "content": {"type": "SEQ", "members": [
                    {"type": "STRING", "value": "&"}, {"type": "SYMBOL", "name": "ty"}]}}]},
            "init": {"type": "SEQ", "members": [{"type": "SYMBOL", "name": "stmt"},
                {"type": "REPEAT", "content": {"type": "SEQ", "members": [
                    {"type": "STRING", "value": "="}, {"type": "SYMBOL", "name": "ty"}]}}]},
            "stmt": {"type": "STRING", "value": "s"},
            "ty": {"type": "STRING", "value": "t"},
            "_newline": {"type": "STRING", "value": "\n"}
        }}"#;
    let occ = occurrences(&serde_json::from_str(grammar).unwrap());
    let class = |parent: &str, child: &str| class_of(&occ[&(parent.into(), format!("*{child}"))]);
    // A line of one statement goes as a whole.
    assert_eq!(class("program", "stmt"), 1);
    // A later type goes with its `|` while the first remains.
    assert_eq!(class("union", "ty"), 2);
    // So does a later type after a keyword.
    assert_eq!(class("bound", "ty"), 2);
    // Not a separated list: the `=` ties its value.
    assert_eq!(class("init", "ty"), 0);
    assert_eq!(class("init", "stmt"), 0);
    // The separators of the lists, by the visible kind whose children they are.
    let seps: Vec<_> = occ.keys().filter(|(_, key)| key.starts_with('/')).collect();
    assert_eq!(
        seps,
        [
            &("bound".to_string(), "/&".to_string()),
            &("program".to_string(), "/;".to_string()),
            &("union".to_string(), "/|".to_string())
        ]
    );
}
