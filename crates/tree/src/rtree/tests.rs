//! Tests of `rtree.rs`: round trips of every input, edits. (The snapshots of test_data/ are
//! checked per language, in `lang/<x>.rs`.)

use super::*;
use crate::dump::dump;

fn build(lang: Lang, src: &str) -> RTree {
    RTree::build(lang, src.as_bytes()).unwrap()
}

fn find(tree: &RTree, kind: &str, text: &str) -> NodeId {
    tree.preorder()
        .into_iter()
        .find(|&n| tree.kind(n) == kind && tree.text(n) == text.as_bytes())
        .unwrap_or_else(|| panic!("no {kind} {text:?} in\n{}", dump(tree)))
}

#[test]
fn prune_uses_replacements_and_never_glues_tokens() {
    let mut tree = build(Lang::C, "int f(void) { return a - -b; }\nint x;");
    // An optional position vanishes; a required one gets the kind's minimal string.
    let ret = find(&tree, "return_statement", "return a - -b;");
    let minus = find(&tree, "unary_expression", "-b");
    let text = tree.unparse_with(&|n| if n == minus { Edit::Prune } else { Edit::Keep });
    assert_eq!(
        String::from_utf8(text).unwrap(),
        "int f(void) { return a - !a; }\nint x;"
    );
    tree.prune(ret);
    assert_eq!(tree.unparse(), b"int f(void) { }\nint x;");
    assert!(tree.is_pruned(ret));
    assert!(tree.children(tree.parent(ret).unwrap()).contains(&ret));

    // Removing the comment between two words inserts a space.
    let tree = build(Lang::C, "int/**/x;");
    let comment = find(&tree, "comment", "/**/");
    let text = tree.unparse_with(&|n| {
        if n == comment {
            Edit::Prune
        } else {
            Edit::Keep
        }
    });
    assert_eq!(text, b"int x;");
    // Two minus signs stay apart.
    let tree = build(Lang::JavaScript, "a - (-b)");
    let paren = find(&tree, "parenthesized_expression", "(-b)");
    let inner = find(&tree, "unary_expression", "-b");
    let text = tree.unparse_with(&|n| {
        if n == paren {
            Edit::Hoist(inner)
        } else {
            Edit::Keep
        }
    });
    assert_eq!(text, b"a - -b");
}

#[test]
fn pruning_keeps_line_breaks_before_non_empty_replacements() {
    let tree = build(Lang::C, "int x;\nint f() { return 1; }\n");
    let int = tree
        .preorder()
        .into_iter()
        .filter(|&n| tree.kind(n) == "primitive_type")
        .nth(1)
        .unwrap();
    let body = find(&tree, "compound_statement", "{ return 1; }");
    let text = tree.unparse_with(&|n| {
        if n == int || n == body {
            Edit::Prune
        } else {
            Edit::Keep
        }
    });
    assert_eq!(String::from_utf8(text).unwrap(), "int x;\nint f(){}\n");
}

#[test]
fn hoist_moves_the_descendant_into_the_slot() {
    let src = "int main() { if (1) { puts(\"hi\"); } return 0; }";
    let mut tree = build(Lang::C, src);
    let stmt = find(&tree, "if_statement", "if (1) { puts(\"hi\"); }");
    let block = find(&tree, "compound_statement", "{ puts(\"hi\"); }");
    assert!(
        tree.compatible(stmt, block),
        "statements may stand for each other"
    );
    let edited = tree.unparse_with(&|n| {
        if n == stmt {
            Edit::Hoist(block)
        } else {
            Edit::Keep
        }
    });
    assert_eq!(edited, b"int main() { { puts(\"hi\"); } return 0; }");
    assert_eq!(
        tree.unparse(),
        src.as_bytes(),
        "unparse_with does not mutate"
    );
    let parent = tree.parent(stmt).unwrap();
    tree.hoist(stmt, block);
    assert_eq!(tree.unparse(), edited);
    assert_eq!(tree.parent(block), Some(parent));
    assert!(tree.children(parent).contains(&block));
    assert!(!tree.children(parent).contains(&stmt));
    // Nested edits are consulted inside a hoisted subtree.
    let call = find(&tree, "expression_statement", "puts(\"hi\");");
    let text = tree.unparse_with(&|n| if n == call { Edit::Prune } else { Edit::Keep });
    assert_eq!(text, b"int main() { { } return 0; }");
}

#[test]
fn hidden_tokens_and_compatibility() {
    let tree = build(Lang::Java, "class A { int f() { return 1 + 2; } }");
    let class_text = "class A { int f() { return 1 + 2; } }";
    let semi = find(&tree, ";", ";");
    assert!(tree.is_hidden(semi));
    let one = find(&tree, "binary_expression", "1 + 2");
    assert!(!tree.is_hidden(one));
    let class = find(&tree, "program", class_text);
    let method = find(&tree, "method_declaration", "int f() { return 1 + 2; }");
    assert!(!tree.compatible(class, method));
    assert!(tree.compatible(method, method));
}

#[test]
fn robustness_inputs_round_trip() {
    let deep_c = format!("int x = {}1{};", "(".repeat(10_000), ")".repeat(10_000));
    let deep_js = format!("{}{}", "{".repeat(10_000), "}".repeat(10_000));
    let deep_java = format!("class A {{ int x = {}1{}; }}", "-".repeat(10_000), "");
    let mut random = Vec::new();
    let mut state = 0x2545_f491_4f6c_dd1du64;
    for _ in 0..20_000 {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        random.push((state >> 24) as u8);
    }
    let cases: Vec<(Lang, Vec<u8>)> = vec![
        (Lang::C, deep_c.into_bytes()),
        (Lang::JavaScript, deep_js.into_bytes()),
        (Lang::Java, deep_java.into_bytes()),
        (Lang::C, Vec::new()),
        (Lang::JavaScript, Vec::new()),
        (Lang::Java, b"   \n".to_vec()),
        (Lang::C, random.clone()),
        (Lang::JavaScript, random.clone()),
        (Lang::Java, random),
        (Lang::C, b"int \xff\xfe x = \"\xc3\x28\";".to_vec()),
        (Lang::JavaScript, b"var s = '\x80\x81';\n".to_vec()),
    ];
    for (lang, src) in cases {
        let tree = RTree::build(lang, &src).unwrap();
        assert_eq!(tree.unparse(), src, "{lang:?}");
        let stats = tree.stats();
        assert!(stats.nodes >= 1);
        // Pruning the root is always possible and gives the root's replacement.
        let text = tree.unparse_with(&|_| Edit::Prune);
        assert!(text.len() <= src.len() + 8, "{lang:?}");
        let _ = dump(&tree);
        drop(tree);
    }
}

/// serialize(parse(x)) == x for every input of test_data/, fixtures/ and the suites.
#[test]
fn round_trip_every_input() {
    let inputs = crate::replace::tests::inputs(u64::MAX);
    assert!(inputs.len() >= 7);
    for (lang, path) in inputs {
        let src = std::fs::read(&path).unwrap();
        let tree = RTree::build(lang, &src).unwrap();
        assert!(
            tree.unparse() == src,
            "{} does not round-trip",
            path.display()
        );
    }
}

#[test]
fn ten_megabyte_input() {
    // Realistic density: code with comments and string data (about 200k lines).
    let unit = "/* a comment line that is long enough to be typical of real code. */\n\
                var s = \"some string data in a literal, as test inputs often carry\";\n\
                function f(a, b) { return a.b(c)[d] + 1 * (b - 2); }\n";
    let src = unit.repeat(10_000_000 / unit.len() + 1);
    let tree = build(Lang::JavaScript, &src);
    assert_eq!(tree.unparse(), src.as_bytes());
    assert_eq!(tree.error_count(), 0);
}

#[test]
fn flattening_reduces_height_of_deep_chains() {
    let src = format!("int x = {};", vec!["a"; 5000].join(" + "));
    let tree = build(Lang::C, &src);
    let stats = tree.stats();
    assert!(stats.raw_height > 5000, "{stats:?}");
    assert!(stats.height < 10, "{stats:?}");
    assert_eq!(tree.unparse(), src.as_bytes());
}

/// Identifier tokens are numbered by spelling (the kinds of `identifiers` in passes.toml);
/// the first occurrence of each spelling is marked.
#[test]
fn identifier_tokens_are_named_and_first_occurrences_marked() {
    let src = b"typedef int t; t a; int f(t b) { return a + b + f(0); }";
    let tree = RTree::build(Lang::C, src).unwrap();
    let mut seen = Vec::new();
    for n in tree.preorder() {
        if let Some(name) = tree.name(n) {
            let text = String::from_utf8(tree.token_text(n).to_vec()).unwrap();
            seen.push((text, name, tree.is_declaration(n)));
        }
    }
    let expected: Vec<(String, u32, bool)> = [
        ("t", 0, true),
        ("t", 0, false),
        ("a", 1, true),
        ("f", 2, true),
        ("t", 0, false),
        ("b", 3, true),
        ("a", 1, false),
        ("b", 3, false),
        ("f", 2, false),
    ]
    .iter()
    .map(|&(t, n, f)| (t.to_string(), n, f))
    .collect();
    assert_eq!(seen, expected);
    // Keywords, literals and punctuation have no name.
    let int = tree
        .preorder()
        .into_iter()
        .find(|&n| tree.token_text(n) == b"int")
        .unwrap();
    assert_eq!(tree.name(int), None);
    assert!(!tree.is_declaration(int));
}

/// In C, the identifier a call calls is marked (`implicit_calls`), and whether the call is a
/// statement alone; not a function pointer's dereference nor any other name. C++ marks none
/// (a call there needs a declaration).
#[test]
fn the_names_calls_call_are_marked_in_c_only() {
    let src = b"int f(int x); int g(int (*p)(int)) { f(0); return f(1) + (*p)(2) + x; }";
    let callees = |lang| {
        let tree = RTree::build(lang, src).unwrap();
        tree.preorder()
            .into_iter()
            .filter(|&n| tree.is_callee(n))
            .map(|n| (tree.node(n).start, tree.is_statement_callee(n)))
            .collect::<Vec<_>>()
    };
    assert_eq!(&src[37..38], b"f");
    assert_eq!(&src[50..51], b"f");
    assert_eq!(callees(Lang::C), vec![(37, true), (50, false)]);
    assert_eq!(callees(Lang::Cpp), Vec::new());
}

#[test]
fn a_scoped_unparse_walks_only_the_paths_to_its_edits() {
    // 200 functions; one tentative edit deep inside one of them.
    let src: String = (0..200)
        .map(|i| format!("int f{i}(int a) {{ if (a) {{ return a + {i}; }} return 0; }}\n"))
        .collect();
    let mut tree = build(Lang::C, &src);
    let target = find(&tree, "binary_expression", "a + 123");
    let asked = std::cell::Cell::new(0);
    let edits = |n| {
        asked.set(asked.get() + 1);
        if n == target {
            Edit::Prune
        } else {
            Edit::Keep
        }
    };
    let walked = tree.unparse_with(&edits);
    let all = asked.replace(0);
    let scoped = tree.unparse_scoped(&[&[target]], &edits);
    assert_eq!(scoped, walked);
    assert!(String::from_utf8_lossy(&scoped)
        .contains("int f123(int a) { if (a) { return; } return 0; }"));
    // The other 199 functions are copied whole: the edits are asked about the root's
    // children and the path down to the target only.
    assert!(asked.get() < 250, "{} of {all}", asked.get());
    assert!(all > 3000, "{all}");
    // A commit takes its subtree and its ancestors off the fast path; the rest stays on it.
    let other = find(&tree, "binary_expression", "a + 7");
    tree.prune(other);
    let walked = tree.unparse_with(&|_| Edit::Keep);
    assert_eq!(tree.unparse(), walked);
    assert!(String::from_utf8_lossy(&walked).contains("int f7(int a) { if (a) { return; }"));
    assert_eq!(tree.unparse_scoped(&[&[target]], &edits), {
        tree.unparse_with(&|n| if n == target { Edit::Prune } else { Edit::Keep })
    });
    // A committed hoist: the hoisted subtree is copied from the source again.
    let stmt = find(&tree, "if_statement", "if (a) { return a + 9; }");
    let block = find(&tree, "compound_statement", "{ return a + 9; }");
    tree.hoist(stmt, block);
    let walked = tree.unparse_with(&|_| Edit::Keep);
    assert_eq!(tree.unparse(), walked);
    assert!(
        String::from_utf8_lossy(&walked).contains("int f9(int a) { { return a + 9; } return 0; }")
    );
}

#[test]
fn a_field_of_one_kind_with_a_fixed_first_token_fits_only_what_begins_with_it() {
    let mut tree = build(
        Lang::C,
        "int f(int a) { if (a) { a = 1; } return a; }\n\
         int g(void) { { return 2; } }\n\
         int h[] = { 3 };\n",
    );
    let body = find(
        &tree,
        "compound_statement",
        "{ if (a) { a = 1; } return a; }",
    );
    let stmt = find(&tree, "if_statement", "if (a) { a = 1; }");
    let inner = find(&tree, "compound_statement", "{ a = 1; }");
    let ret = find(&tree, "return_statement", "return a;");
    // function_definition's body admits compound_statement only, which always begins with
    // `{` (positions.tsv).
    assert!(tree.compatible(body, ret) && !tree.fits(body, ret));
    assert!(!tree.fits(body, stmt));
    assert!(tree.fits(body, inner));
    // Whatever begins with `{` may stand there; the parse decides.
    assert!(tree.fits(body, find(&tree, "initializer_list", "{ 3 }")));
    // An if's consequence is any statement.
    assert!(tree.fits(stmt, inner) && tree.fits(inner, ret));
    // The hoisted node takes over the position's restriction.
    let g_body = find(&tree, "compound_statement", "{ { return 2; } }");
    let g_inner = find(&tree, "compound_statement", "{ return 2; }");
    let g_ret = find(&tree, "return_statement", "return 2;");
    tree.hoist(g_body, g_inner);
    assert!(!tree.fits(g_inner, g_ret));

    // A Python function's body is a `block`, which begins with its first statement: a
    // statement may stand there.
    let tree = build(
        Lang::Python,
        "def f(x):\n    if x:\n        return 1\n    return 2\n",
    );
    let block = find(&tree, "block", "if x:\n        return 1\n    return 2");
    let ret = find(&tree, "return_statement", "return 2");
    assert!(tree.fits(block, ret));
}

#[test]
fn spellings_are_numbered_where_files_define_names_before_their_uses() {
    // Python says `defined_before_use`: the same number for the same spelling, none for a
    // reserved word. Java does not: no spellings.
    let tree = build(Lang::Python, "def f(x):\n    return x\n\nprint(f(1))\n");
    let f = find(&tree, "identifier", "f");
    let x = find(&tree, "identifier", "x");
    assert!(tree.spelling(f).is_some() && tree.spelling(x).is_some());
    assert_ne!(tree.spelling(f), tree.spelling(x));
    let uses: Vec<NodeId> = (tree.preorder().into_iter())
        .filter(|&n| tree.text(n) == b"f")
        .collect();
    assert_eq!(uses.len(), 2);
    assert_eq!(tree.spelling(uses[0]), tree.spelling(uses[1]));
    assert_eq!(tree.spelling(find(&tree, "identifier", "print")), None);
    let java = build(Lang::Java, "class A { int f() { return f(); } }");
    assert!(java
        .preorder()
        .into_iter()
        .all(|n| java.spelling(n).is_none()));
}
