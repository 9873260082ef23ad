use super::*;

/// Each candidate (a list of splices) applied to `src`, white space squeezed to one space:
/// what the facts' unit tests compare.
pub(super) fn applied(src: &str, candidates: &[Vec<(Range<usize>, Vec<u8>)>]) -> Vec<String> {
    candidates
        .iter()
        .map(|splices| {
            let mut out = String::new();
            let mut at = 0;
            for (r, t) in splices {
                out.push_str(&src[at..r.start]);
                out.push_str(std::str::from_utf8(t).unwrap());
                at = r.end;
            }
            out.push_str(&src[at..]);
            out.split_whitespace().collect::<Vec<_>>().join(" ")
        })
        .collect()
}

fn texts(src: &str, ranges: impl IntoIterator<Item = Range<usize>>) -> Vec<String> {
    ranges.into_iter().map(|r| src[r].to_string()).collect()
}

#[test]
fn c_facts() {
    let src = "typedef long int32_t;\nstatic int32_t g_5 = 0x5BL; /* c */\n\
               int32_t f(int32_t a, int b) { return a + 'x'; }\n\
               int main(void) { return f(g_5, \"s\"); }\n";
    let f = Lang::C.facts(src.as_bytes()).unwrap();
    assert_eq!(
        texts(src, f.idents.iter().map(|i| i.range.clone())),
        [
            "int32_t", "int32_t", "g_5", "int32_t", "f", "int32_t", "a", "int", "b", "a", "int",
            "main", "void", "f", "g_5"
        ]
    );
    assert_eq!(
        texts(src, f.literals.iter().map(|l| l.range.clone())),
        ["0x5BL", "'x'", "\"s\""]
    );
    assert_eq!(f.literals[0].replacements, [b"0".to_vec(), b"1".to_vec()]);
    // `"s"` is not longer than `""`'s alternatives except the empty string.
    assert_eq!(f.literals[2].replacements, [b"\"\"".to_vec()]);
    let fns: Vec<(String, Vec<String>)> = f
        .functions
        .iter()
        .map(|s| {
            (
                String::from_utf8(s.name.clone()).unwrap(),
                texts(src, s.elems.clone()),
            )
        })
        .collect();
    assert_eq!(
        fns,
        [
            (
                "f".to_string(),
                vec!["int32_t a".to_string(), "int b".to_string()]
            ),
            ("main".to_string(), vec!["void".to_string()]),
        ]
    );
    assert_eq!(f.calls.len(), 1);
    assert_eq!(texts(src, f.calls[0].elems.clone()), ["g_5", "\"s\""]);
    assert!(f.tokens.iter().any(|t| &src[t.clone()] == "/* c */"));
    assert_eq!(f.group_extras[0], [b"int".to_vec(), b"char".to_vec()]);
    assert!(Lang::C.is_reserved(b"int"));
    assert!(Lang::C.is_reserved(b"if"));
    assert!(!Lang::C.is_reserved(b"a"));
}

#[test]
fn declarations_of_one_variable_with_a_value_are_definitions_of_their_scope() {
    let src = "typedef int t; int f(int e) { long c = e; int *p = &e; long s = c + 1; g(c); }";
    let f = Lang::C.facts(src.as_bytes()).unwrap();
    let defs: Vec<(String, String, String)> = f
        .definitions
        .iter()
        .map(|d| {
            (
                String::from_utf8(d.name.clone()).unwrap(),
                String::from_utf8(d.body.clone()).unwrap(),
                src[d.scope.clone()].to_string(),
            )
        })
        .collect();
    // `*p` is not a name; a value of several tokens gets parentheses, a type does not.
    let block = &src[src.find('{').unwrap()..];
    assert_eq!(
        defs,
        [
            ("t".into(), "int".into(), src.into()),
            ("c".into(), "e".into(), block.into()),
            ("s".into(), "(c + 1)".into(), block.into()),
        ]
    );
    let js = Lang::JavaScript
        .facts(b"const k = a.b; let m = 2, n = 3; var x;")
        .unwrap();
    let names: Vec<&[u8]> = js.definitions.iter().map(|d| d.name.as_slice()).collect();
    assert_eq!(names, [b"k"]);
    assert_eq!(js.definitions[0].body, b"(a.b)");
}

#[test]
fn c_statement_expressions_unwrap_in_front_of_their_statement() {
    let src = "int f(int e) { if (({int b = e; b ^ 1;})) return (({e;})); return ({0;}); }";
    let f = Lang::C.facts(src.as_bytes()).unwrap();
    let edits: Vec<[(String, String); 2]> = f
        .unwraps
        .iter()
        .map(|u| {
            u.clone()
                .map(|(r, t)| (src[r].to_string(), String::from_utf8(t).unwrap()))
        })
        .collect();
    // Inserted at the start of the enclosing statement (an empty range), and the node's
    // replacement. The `(...)` of an `if` or of `((...))` is not a statement expression.
    assert_eq!(
        edits,
        [
            [
                (String::new(), "int b = e; ".to_string()),
                ("({int b = e; b ^ 1;})".to_string(), "b ^ 1".to_string())
            ],
            [
                (String::new(), String::new()),
                ("({e;})".to_string(), "e".to_string())
            ],
            [
                (String::new(), String::new()),
                ("({0;})".to_string(), "0".to_string())
            ],
        ]
    );
    let at = src.find("if").unwrap();
    assert_eq!(f.unwraps[0][0].0, at..at);
    let cpp = Lang::Cpp
        .facts(b"int f() { return ({int b = 1; b;}); }")
        .unwrap();
    assert_eq!(cpp.unwraps.len(), 1);
    assert!(Lang::JavaScript
        .facts(b"(function(){ a; })()")
        .unwrap()
        .unwraps
        .is_empty());
}

#[test]
fn javascript_and_java_facts() {
    let src = "function f(a, b) { return a.length + `t` + 'q'; }\nf(1, 2);\nnew F(3);";
    let f = Lang::JavaScript.facts(src.as_bytes()).unwrap();
    assert_eq!(
        texts(src, f.idents.iter().map(|i| i.range.clone())),
        ["f", "a", "b", "a", "length", "f", "F"]
    );
    assert_eq!(f.functions.len(), 1);
    assert_eq!(f.calls.len(), 2);
    assert_eq!(f.calls[1].name, b"F");
    assert!(Lang::JavaScript.is_reserved(b"in"));
    assert!(Lang::JavaScript.is_reserved(b"of"));

    let src = "class A { int m(int x, String y) { return m(1, \"s\") + 0x1F; } }";
    let f = Lang::Java.facts(src.as_bytes()).unwrap();
    assert_eq!(f.functions[0].elems.len(), 2);
    assert_eq!(f.calls[0].name, b"m");
    assert_eq!(
        texts(src, f.literals.iter().map(|l| l.range.clone())),
        ["1", "\"s\"", "0x1F"]
    );
    assert!(Lang::Java.is_reserved(b"do"));
}

#[test]
fn contextual_keywords_are_no_new_names_but_are_renamed() {
    for (lang, word) in [
        (Lang::Java, "record"),
        (Lang::Rust, "path"),
        (Lang::Python, "match"),
        (Lang::TypeScript, "type"),
        (Lang::JavaScript, "of"),
    ] {
        assert!(lang.is_reserved(word.as_bytes()), "{lang:?} {word}");
        assert!(!lang.is_fixed(word.as_bytes()), "{lang:?} {word}");
    }
    for (lang, word) in [
        (Lang::Java, "var"),
        (Lang::Java, "do"),
        (Lang::Python, "len"),
    ] {
        assert!(lang.is_reserved(word.as_bytes()) && lang.is_fixed(word.as_bytes()));
    }
}

#[test]
fn every_language_loads_its_pass_data() {
    for &lang in Lang::all() {
        if lang.has_grammar() {
            lang.facts(b"").unwrap();
        }
    }
}
