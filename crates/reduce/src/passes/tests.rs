//! Unit tests of the passes, with toy oracles.

use std::sync::Arc;

use super::*;
use crate::engine::FnOracle;
use crate::JudgeOptions;

fn run(lang: Lang, src: &str, pass: Pass, oracle: fn(&str) -> bool) -> (String, u64) {
    let f = FnOracle::new(move |c: &[u8]| oracle(std::str::from_utf8(c).unwrap_or("")));
    let oracle = Arc::new(f);
    let judge = Judge::new(Box::new(Arc::clone(&oracle)), JudgeOptions::default());
    let facts = FactsCache::default();
    let mut p = Passes::new(
        lang,
        &judge,
        &DdminOptions::default(),
        src.as_bytes().into(),
        &facts,
    );
    p.run(pass);
    (String::from_utf8(p.current).unwrap(), oracle.runs())
}

#[test]
fn apply_separates_glued_tokens() {
    let s = [Splice::new(1..4, b"")];
    assert_eq!(apply(b"a + b", &s), b"a b");
    assert_eq!(apply(b"a(b)", &[Splice::new(1..2, b"")]), b"a b)");
    assert_eq!(apply(b"x=y", &[Splice::new(2..3, b"zz")]), b"x=zz");
}

#[test]
fn short_names() {
    let names: Vec<String> = [0, 1, 25, 26, 27, 51, 52, 701, 702]
        .map(|n| String::from_utf8(rename::short_name(n)).unwrap())
        .to_vec();
    assert_eq!(names, ["a", "b", "z", "aa", "ab", "az", "ba", "zz", "aaa"]);
}

#[test]
fn rename_avoids_names_in_the_file_and_keywords() {
    let src = "int a; int b; int do_it(int value) { return value + a + b; }";
    let (out, _) = run(Lang::C, src, Pass::Rename, |c| !c.contains("a;  int a;"));
    assert_eq!(out, "int a; int b; int d(int c) { return c + a + b; }");
    // Names that are keywords (`do`, `if`) are skipped.
    let many: String = (0..120).map(|i| format!("int long_name_{i};")).collect();
    let (out, _) = run(Lang::C, &many, Pass::Rename, |_| true);
    assert!(!out.contains(" do;") && !out.contains(" if;"), "{out}");
    assert!(out.contains(" dn;") && out.contains(" dp;"), "{out}");
}

#[test]
fn rename_keeps_what_the_oracle_needs_in_few_runs() {
    let src = "int counter; int helper(int value) { return value; }\n\
               int main(void) { return helper(counter); }";
    let (out, runs) = run(Lang::C, src, Pass::Rename, |c| c.contains("helper"));
    assert_eq!(
        out,
        "int a; int helper(int c) { return c; }\nint main(void) { return helper(a); }"
    );
    assert!(runs <= 6, "{runs}");
}

#[test]
fn rename_leaves_the_names_a_java_file_does_not_declare() {
    // `String`, `List` and `java.util` are a library's, `List` brought in by an import: one
    // run renames everything else, labels and pattern variables too.
    let src = "import java.util.List;\nclass Main { String label;\n\
               void show(List<String> items, Object o) {\n\
               outer: for (String item : items) { if (o instanceof String text) break outer; }\n\
               } }";
    let (out, runs) = run(Lang::Java, src, Pass::Rename, |c| {
        c.contains("java.util.List;") && c.contains("<String>")
    });
    assert_eq!(
        out,
        "import java.util.List;\nclass D { String c;\n\
         void e(List<String> a, Object o) {\n\
         b: for (String f : a) { if (o instanceof String g) break b; }\n\
         } }"
    );
    assert_eq!(runs, 1);
}

#[test]
fn literals_shrink_together_and_alone() {
    let src = "int x = 0x5BL; int y = 1234; char *s = \"long string\"; int z = 77;";
    let (out, _) = run(Lang::C, src, Pass::Literals, |c| !c.contains("z = 0"));
    assert_eq!(out, "int x = 0; int y = 0; char *s = \"\"; int z = 1;");
    let (out, _) = run(
        Lang::JavaScript,
        "f('abc', `t${x}`, 3.14);",
        Pass::Literals,
        |_| true,
    );
    assert_eq!(out, "f(\"\", ``, 0);");
}

#[test]
fn params_go_with_their_arguments() {
    let src = "int f(int a, int b, int c) { return a + c; }\nint main() { return f(1, 2, 3) + f(4, 5, 6); }";
    let (out, _) = run(Lang::C, src, Pass::Params, |c| {
        ["int a", "int c", "a + c", "1", "3", "4", "6"]
            .iter()
            .all(|w| c.contains(w))
    });
    assert_eq!(
        out,
        "int f(int a, int c) { return a + c; }\nint main() { return f(1, 3) + f(4, 6); }"
    );
}

#[test]
fn replace_ids_makes_declarations_dead() {
    let src = "typedef long Type1; typedef long Type2; Type1 x; Type2 y; Type2 z;";
    let (out, _) = run(Lang::C, src, Pass::ReplaceIds, |c| c.contains("typedef"));
    assert_eq!(
        out,
        "typedef long Type1; typedef long Type2; int x; int y; int z;"
    );
    // Never longer: `T` cannot become `int`, but `U` can become `T`.
    let src = "typedef long T; typedef long U; T x; U y; U z;";
    let (out, _) = run(Lang::C, src, Pass::ReplaceIds, |c| c.contains("typedef"));
    assert_eq!(out, "typedef long T; typedef long U; T x; T y; T z;");
}

#[test]
fn replace_ids_make_each_candidate_once() {
    // `x` is a field, a variable, a field and a variable again: each group's candidates come
    // once, however the groups alternate.
    let src = b"struct s { int x; int ab; } x, y; int f(void) { return x.x + y.ab + x.ab + y.x; }";
    let facts = FactsCache::default().get(Lang::C, src).unwrap();
    let cands = replace_ids::candidates(src, Lang::C, &facts);
    let texts: Vec<Vec<u8>> = cands.iter().map(|c| apply(src, c)).collect();
    let distinct: std::collections::HashSet<&Vec<u8>> = texts.iter().collect();
    assert!(texts.len() > 2, "{}", texts.len());
    assert_eq!(distinct.len(), texts.len());
}

#[test]
fn replace_ids_replace_even_a_single_use_of_a_library_name() {
    // `String` is declared nowhere in the file: its one occurrence is no declaration, so it
    // becomes the group's `int`; `Helper`, declared by the file, keeps its first occurrence.
    let src = "class Helper { Object show(String text) { return text; } }";
    let (out, _) = run(Lang::Java, src, Pass::ReplaceIds, |c| {
        c.contains("Object show") && c.contains("return text")
    });
    assert_eq!(
        out,
        "class Helper { Object show(int text) { return text; } }"
    );
}

#[test]
fn replace_ids_retire_a_declared_type_into_a_longer_word_of_the_library() {
    // `D` becomes `Object` at its one use and its declaration goes: 14 bytes less.
    let src = "interface D {} class C { Object f() { return new D() {}; } }";
    let keep = |c: &str| c.contains("Object f") && c.contains("new Object");
    let (out, _) = run(Lang::Java, src, Pass::ReplaceIds, keep);
    assert_eq!(out, " class C { Object f() { return new Object() {}; } }");
    // `D.x` spells `D` as an identifier, which no extra word of the types replaces.
    let src =
        "interface D { int x = 1; } class C { Object f() { return new D() {}; } int g = D.x; }";
    let (out, _) = run(Lang::Java, src, Pass::ReplaceIds, |c| {
        !c.contains("interface")
    });
    assert_eq!(out, src);
    // Seven uses would grow the text by as much as the declaration weighs, even as `int`.
    let src = "interface D {} class C { D a; D b; D c; D d; D e; D f; D g; }";
    let (out, _) = run(Lang::Java, src, Pass::ReplaceIds, |c| {
        !c.contains("interface")
    });
    assert_eq!(out, src);
}

#[test]
fn typedefs_are_inlined_when_the_text_does_not_grow() {
    let src = "typedef signed char small_t; small_t g; int f(small_t x) { return x; }";
    let (out, _) = run(Lang::C, src, Pass::Inline, |c| c.contains("signed char g"));
    assert_eq!(out, " signed char g; int f(signed char x) { return x; }");
    // Four uses of a one-letter name: inlining would grow the text.
    let src = "typedef unsigned long long d; d a; d b; d c; d e;";
    let (out, runs) = run(Lang::C, src, Pass::Inline, |_| true);
    assert_eq!((out.as_str(), runs), (src, 0));
}

#[test]
fn subtrees_use_shorter_compatible_nodes_anywhere() {
    let src = "int f(int a) { return a * (a + 2); }\nint g(void) { return 0; }";
    let (out, _) = run(Lang::C, src, Pass::Subtrees, |c| c.contains("int f(int a)"));
    assert!(out.contains("return 0;") && !out.contains("a + 2"), "{out}");
}

#[test]
fn subtrees_try_one_node_of_the_file_per_node_besides_the_constants() {
    // `a * (a + 2)` has several shorter compatible nodes outside it (`g`, `b`, `1`, `b - 1`):
    // only the shortest is a candidate, after the grammar's constant `0`.
    let src = "int g(int b) { return b - 1; }\nint f(int a) { return a * (a + 2); }";
    let facts = Lang::C.facts(src.as_bytes()).unwrap();
    let cands = super::subtrees::candidates(src.as_bytes(), Lang::C, &facts);
    let start = src.find("a * (a + 2)").unwrap();
    let whole = start..start + "a * (a + 2)".len();
    let texts: Vec<&[u8]> = cands
        .iter()
        .filter(|c| c.len() == 1 && c[0].range == whole)
        .map(|c| c[0].text.as_slice())
        .collect();
    assert_eq!(texts.len(), 2, "{texts:?}");
    assert_eq!(texts[0], b"0");
}

#[test]
fn subtrees_put_the_grammar_constants_in_place_of_expressions() {
    // No `0` in the file: it comes from `[constants]`.
    let src = "long x; int f(void) { long *p = &x; return *p + 7; }";
    let (out, _) = run(Lang::C, src, Pass::Subtrees, |c| c.contains("return"));
    assert!(out.contains("return 0;"), "{out}");
    // An identifier token becomes `0` though that is no shorter (its declaration is dead).
    let src = "long *p; int f(void) { long *q; *p = q; }";
    let (out, _) = run(Lang::C, src, Pass::Subtrees, |c| {
        c.starts_with("long *p; int f(void) { long *q; *p =")
    });
    assert_eq!(out, "long *p; int f(void) { long *q; *p = 0; }");
    let (out, _) = run(Lang::JavaScript, "f(a.b + c);", Pass::Subtrees, |c| {
        c.contains("f(")
    });
    assert_eq!(out, "f(0);");
    // Tokens of named kinds get the constants too: C++'s `true`, TypeScript's `any` (a type
    // becomes the literal type `0`); keywords do not.
    let (out, _) = run(
        Lang::Cpp,
        "bool f() { return true; }",
        Pass::Subtrees,
        |c| c.starts_with("bool f() { return") && c.ends_with("; }"),
    );
    assert_eq!(out, "bool f() { return 0; }");
    let (out, _) = run(
        Lang::TypeScript,
        "type a<x = any> = {};",
        Pass::Subtrees,
        |c| c.starts_with("type a<x =") && c.ends_with("> = {};"),
    );
    assert_eq!(out, "type a<x = 0> = {};");
    // A type becomes `int` where the tree can only keep it: a sized type's shortest form is
    // itself (`long`), and there is no `int` in the file to take the place of either.
    for (lang, src) in [
        (Lang::C, "long f(void) { return 1; }"),
        (Lang::Cpp, "unsigned long f(void) { return 1; }"),
    ] {
        let (out, _) = run(lang, src, Pass::Subtrees, |c| {
            c.ends_with(" f(void) { return 1; }")
        });
        assert_eq!(out, "int f(void) { return 1; }", "{lang:?}");
    }
}

#[test]
fn token_search_removes_what_no_node_boundary_allows() {
    let (out, _) = run(Lang::C, "int main() { return 0; }", Pass::Tokens, |c| {
        c.contains("main")
    });
    assert!(out.len() < "int main() { return 0; }".len(), "{out}");
    assert!(!out.starts_with("int"), "{out}");
}

#[test]
fn pass_names_round_trip() {
    for p in Pass::ALL {
        assert_eq!(Pass::from_name(p.name()), Some(p));
    }
    assert_eq!(
        Pass::parse_list("tokens, rename,tokens").unwrap(),
        [Pass::Rename, Pass::Tokens]
    );
    assert!(Pass::parse_list("rename,bogus")
        .unwrap_err()
        .contains("bogus"));
}

#[test]
fn calls_become_their_value_with_the_arguments() {
    let src = "static int add_them(int first, long second) { return first + second * 2; }\n\
               int main(void) { return add_them(g, 7) + add_them(g + 1, h); }";
    let (out, _) = run(Lang::C, src, Pass::InlineCalls, |_| true);
    assert_eq!(
        out,
        "\nint main(void) { return (g + 7 * 2) + ((g + 1) + h * 2); }"
    );
    // The definition stays where the oracle needs it; calls go one at a time.
    let (out, _) = run(Lang::C, src, Pass::InlineCalls, |c| c.contains("add_them"));
    assert_eq!(
        out,
        "static int add_them(int first, long second) { return first + second * 2; }\n\
         int main(void) { return (g + 7 * 2) + ((g + 1) + h * 2); }"
    );
    // A body of more than one statement is inlined in C with its parameters bound (GNU C's
    // statement expression); a recursive one is not inlined.
    let src = "int f(int a) { a++; return a; }\nint r(int a) { return r(a); }\n\
               int main(void) { return f(1) + r(2); }";
    let (out, _) = run(Lang::C, src, Pass::InlineCalls, |_| true);
    assert_eq!(
        out,
        "\nint r(int a) { return r(a); }\n\
         int main(void) { return ({int a=1;a++;a;}) + r(2); }"
    );
    // Without call bindings (JavaScript), it is not inlined whole.
    let src = "function f(a) { a++; return a; }\nprint(f(1));";
    let (out, runs) = run(Lang::JavaScript, src, Pass::InlineCalls, |_| true);
    assert_eq!((out.as_str(), runs), (src, 0));
    // An argument that must be evaluated once (C-Reduce's simple-inliner): substituting it
    // twice is rejected, binding it is accepted.
    let src = "static int b(int c, long d) { return (c ^ d & (c ^ 1)) < 0; }\n\
               int m(void) { if (b(e(), g)) return 1; }";
    let once = |c: &str| c.matches("e()").count() == 1;
    let (out, _) = run(Lang::C, src, Pass::InlineCalls, once);
    assert_eq!(
        out,
        "\nint m(void) { if (({int c=e();long d=g;(c ^ d & (c ^ 1)) < 0;})) return 1; }"
    );
    // A body with an early return is not inlined.
    let src = "int f(int a) { if (a) return 1; a++; return a; }\nint m(void) { return f(1); }";
    let (out, runs) = run(Lang::C, src, Pass::InlineCalls, |_| true);
    assert_eq!((out.as_str(), runs), (src, 0));
    // Inlining that would lengthen the text is never tried.
    let src =
        "int f(int a){return a*a*a*a;}\nint m(){return f(long_arg1)+f(long_arg2)+f(long_arg3);}";
    let (out, runs) = run(Lang::C, src, Pass::InlineCalls, |_| true);
    assert_eq!((out.as_str(), runs), (src, 0));
    // JavaScript and Java use the same data.
    let src = "function twice(x) { return x + x; }\nprint(twice(3));";
    let (out, _) = run(Lang::JavaScript, src, Pass::InlineCalls, |_| true);
    assert_eq!(out, "\nprint((3 + 3));");
    let src = "class A { static int sq(int v) { return v * v; } int m() { return sq(5); } }";
    let (out, _) = run(Lang::Java, src, Pass::InlineCalls, |_| true);
    assert_eq!(out, "class A {  int m() { return (5 * 5); } }");
    let src = "def inc(x):\n    return x + 1\nprint(inc(2))\n";
    let (out, _) = run(Lang::Python, src, Pass::InlineCalls, |_| true);
    assert_eq!(out, "\nprint((2 + 1))\n");
}

#[test]
fn rewrites_turn_statements_into_their_conditions() {
    let src = "int f(int x) { if (x > 2) { x = 1; } else x = 2; while (x) x--; return x; }";
    let (out, _) = run(Lang::C, src, Pass::Rewrite, |c| c.contains("x--"));
    assert_eq!(out, "int f(int x) { (x > 2); while (x) x--; return x; }");
    // A block-scope declaration becomes its initializer (a field of a field); a file-scope
    // one is left alone.
    let src = "int g = 5; int f(int *a) { int unused = *a ^= 3; return *a; }";
    let (out, _) = run(Lang::C, src, Pass::Rewrite, |c| c.contains("^="));
    assert_eq!(out, "int g = 5; int f(int *a) { *a ^= 3; return *a; }");
    let (out, _) = run(Lang::JavaScript, "if (a) { b(); }", Pass::Rewrite, |_| true);
    assert_eq!(out, "(a);");
    let (out, _) = run(Lang::Python, "if a:\n    b()\n", Pass::Rewrite, |_| true);
    assert_eq!(out, "a\n");
}

#[test]
fn statement_calls_become_the_body() {
    // A function that returns no value, called only as a statement of its own: the call
    // statement becomes the body's statements, with the argument in place of the parameter,
    // and the definition goes; failing that, the body with its braces.
    let src = "function a(c) { const x = new Array(c); }\na(0 - Math);";
    let (out, _) = run(Lang::JavaScript, src, Pass::InlineCalls, |_| true);
    assert_eq!(out, "\nconst x = new Array((0 - Math));");
    let (out, _) = run(Lang::JavaScript, src, Pass::InlineCalls, |c| {
        c.contains('{')
    });
    assert_eq!(out, "\n{ const x = new Array((0 - Math)); }");
    // Every call at once in C (before the bindings' statement expression, which is longer).
    let src = "void show(int v) { put(v, v); }\n\
               int main(void) { show(1); show(x + 2); return 0; }";
    let (out, _) = run(Lang::C, src, Pass::InlineCalls, |_| true);
    assert_eq!(
        out,
        "\nint main(void) { put(1, 1); put((x + 2), (x + 2)); return 0; }"
    );
    // A call whose value is used keeps the function (JavaScript has no call bindings).
    let src = "function a(c) { g(c); }\na(1); var y = a(2);";
    let (out, runs) = run(Lang::JavaScript, src, Pass::InlineCalls, |_| true);
    assert_eq!((out.as_str(), runs), (src, 0));
    // Java: a void method called as a statement.
    let src = "class A { void p(int v) { q(v); } void m() { p(3); } }";
    let (out, _) = run(Lang::Java, src, Pass::InlineCalls, |_| true);
    assert_eq!(out, "class A {  void m() { q(3); } }");
}

#[test]
fn javascript_declarations_become_their_initializers() {
    // The declarators have no field: the template's path names their kind. A declaration of
    // two variables, or of one without a value, has no such path and stays (the oracle
    // rejects merging `var w` into the `let`).
    let src = "const x = new Array(n);\nlet y = 1, z = 2;\nvar w;";
    let (out, _) = run(Lang::JavaScript, src, Pass::Rewrite, |c| {
        c.contains("new Array") && c.contains("var w")
    });
    assert_eq!(out, "new Array(n);\nlet y = 1, z = 2;\nvar w;");
}

#[test]
fn nested_blocks_lose_their_braces() {
    // `{..}`: a block inside a block becomes its statements; a function body stays a block.
    let src = "int f(int x) { x = 1; { int y = x; x = y; } return x; }";
    let (out, _) = run(Lang::C, src, Pass::Rewrite, |c| c.contains("int y = x"));
    assert_eq!(out, "int f(int x) { x = 1;  int y = x; x = y;  return x; }");
    let src = "function f() { a(); { b(); c(); } }";
    let (out, _) = run(Lang::JavaScript, src, Pass::Rewrite, |c| c.contains("c()"));
    assert_eq!(out, "function f() { a();  b(); c();  }");
    // The statements matter (or Java's method rewrite would empty `m` instead).
    let src = "class A { void m() { { p(); q(); } } }";
    let (out, _) = run(Lang::Java, src, Pass::Rewrite, |c| c.contains("p(); q();"));
    assert_eq!(out, "class A { void m() {  p(); q();  } }");
    let src = "package m\nfunc f() { { a(); b() } }\n";
    let (out, _) = run(Lang::Go, src, Pass::Rewrite, |_| true);
    assert_eq!(out, "package m\nfunc f() {  a(); b()  }\n");
    // The oracle decides: a block whose braces matter (a shadowing declaration) stays.
    let src = "int f(int x) { { int x = 2; g(x); } return x; }";
    let (out, _) = run(Lang::C, src, Pass::Rewrite, |c| {
        c.matches('{').count() == 2 && c.contains("int x = 2")
    });
    assert_eq!(out, src);
}

#[test]
fn the_next_pass_starts_while_this_one_runs() {
    // With 2 jobs, `literals`' only candidate (`= 0`) waits until `rename`'s first candidate
    // (every spelling renamed: `int a;`) has started: announced before `literals` runs, it
    // takes the idle worker. (Without the announcement it would only start after `literals`
    // answered, 10 s later.)
    use std::sync::atomic::{AtomicBool, Ordering};
    use std::time::{Duration, Instant};
    static RENAMED: AtomicBool = AtomicBool::new(false);
    static SEEN: AtomicBool = AtomicBool::new(false);
    let oracle = FnOracle::new(|c: &[u8]| {
        let c = std::str::from_utf8(c).unwrap_or("");
        if c.contains("int a;") {
            RENAMED.store(true, Ordering::SeqCst);
        } else if c.contains("= 0") {
            let until = Instant::now() + Duration::from_secs(10);
            while !RENAMED.load(Ordering::SeqCst) && Instant::now() < until {
                std::thread::sleep(Duration::from_millis(2));
            }
            SEEN.store(RENAMED.load(Ordering::SeqCst), Ordering::SeqCst);
        }
        false
    });
    let judge = Judge::new(Box::new(oracle), JudgeOptions::default());
    let ddmin = DdminOptions {
        jobs: 2,
        ..DdminOptions::default()
    };
    let src = "int x = 1234; int long_name;";
    judge.with_lookahead(2, || {
        let facts = FactsCache::default();
        let mut p = Passes::new(Lang::C, &judge, &ddmin, src.as_bytes().into(), &facts);
        p.announce(&[Pass::Literals, Pass::Rename]);
        assert_eq!(p.run(Pass::Literals), 0);
    });
    assert!(
        SEEN.load(Ordering::SeqCst),
        "rename's candidate did not start early"
    );
}

#[test]
fn the_facts_of_an_unchanged_text_are_made_once() {
    let cache = FactsCache::default();
    let a = cache.get(Lang::C, b"int x = 1;").unwrap();
    let again = cache.get(Lang::C, b"int x = 1;").unwrap();
    assert!(Arc::ptr_eq(&a, &again), "the same text was parsed again");
    let b = cache.get(Lang::C, b"int y = 22;").unwrap();
    assert!(!Arc::ptr_eq(&a, &b));
    assert_eq!(b.literals.len(), 1);
    assert_eq!(b.tokens, Lang::C.facts(b"int y = 22;").unwrap().tokens);
}

#[test]
fn the_sequence_of_a_pass_on_an_unchanged_text_is_made_once() {
    use std::sync::atomic::{AtomicUsize, Ordering};
    static MADE: AtomicUsize = AtomicUsize::new(0);
    fn make(text: &[u8], lang: Lang, facts: &Facts) -> Vec<Vec<Splice>> {
        MADE.fetch_add(1, Ordering::SeqCst);
        subtrees::candidates(text, lang, facts)
    }
    let cache = FactsCache::default();
    let text = b"int x = 1234; int y = x + 1;";
    let once = cache.sequence(Lang::C, text, Pass::Subtrees, make).unwrap();
    let again = cache.sequence(Lang::C, text, Pass::Subtrees, make).unwrap();
    assert!(Arc::ptr_eq(&once, &again), "made again for the same text");
    assert_eq!(MADE.load(Ordering::SeqCst), 1);
    let facts = Lang::C.facts(text).unwrap();
    assert_eq!(*once, subtrees::candidates(text, Lang::C, &facts));
    // Another pass, another sequence; another text, made again.
    cache.sequence(Lang::C, text, Pass::Tokens, make).unwrap();
    assert_eq!(MADE.load(Ordering::SeqCst), 2);
    cache
        .sequence(Lang::C, b"int z = 5;", Pass::Subtrees, make)
        .unwrap();
    cache.sequence(Lang::C, text, Pass::Subtrees, make).unwrap();
    assert_eq!(MADE.load(Ordering::SeqCst), 4);
}
