//! The C++ transformations of grammars/cpp/passes.toml, each end to end with g++ as the
//! oracle: the reduced program still compiles and prints 42, the transformation took place
//! (its pass accepted a candidate), and what the program needs stays.

use crate::util::{is_interesting, rounds_sum, Dir};

/// A C++ program that must still print 42 when compiled with g++ and run.
const PRINTS_42: &str = r#"case "$1" in /*) b="$1.bin" ;; *) b="./$1.bin" ;; esac
g++ -std=c++17 -w -o "$b" -x c++ "$1" 2>/dev/null || exit 1
out=$("$b"); rm -f "$b"
[ "$out" = 42 ]"#;

/// Reduce `text` as `file` with only `passes` (and the tree phase); returns the output and
/// the candidates each pass named in `counted` accepted, summed.
fn reduce(file: &str, text: &str, passes: &str, counted: &[&str]) -> (String, u64) {
    let d = Dir::new();
    d.write(file, text);
    let oracle = d.script("oracle.sh", PRINTS_42);
    assert!(is_interesting(&oracle, file, text.as_bytes()), "{text}");
    let args = [
        "--test",
        "oracle.sh",
        "--passes",
        passes,
        "--stats",
        "s.json",
        "-q",
        file,
    ];
    d.run(&args).expect_code(0);
    let stem = file.strip_suffix(".cpp").unwrap();
    let out = d.read_string(&format!("{stem}.reduced.cpp"));
    assert!(is_interesting(&oracle, file, out.as_bytes()), "{out}");
    let s = d.stats("s.json");
    let accepted = rounds_sum(&s, "accepted", |r| counted.iter().any(|p| r["pass"] == *p));
    (out, accepted)
}

#[test]
fn cpp_attributes_and_specifiers_stripped_where_the_program_allows() {
    let (out, accepted) = reduce(
        "strip.cpp",
        "#include <cstdio>\n\
         template <int N> struct Size { static const int value = N; };\n\
         constexpr int forty = 40;\n\
         static inline __attribute__((unused)) int two() noexcept { return 2; }\n\
         [[nodiscard]] inline constexpr int add(int a, int b) noexcept(true) { return a + b; }\n\
         int main() { std::printf(\"%d\\n\", add(Size<forty>::value, two())); return 0; }\n",
        "strip",
        &["strip", "strip (early)"],
    );
    assert!(accepted >= 1, "{out}");
    for gone in [
        "__attribute__",
        "[[",
        "noexcept",
        "inline",
        "constexpr int add",
    ] {
        assert!(!out.contains(gone), "{gone} left in\n{out}");
    }
    // A template argument must be a constant: g++ demands `constexpr` on `forty` and
    // `static` on the member it reads through the class.
    assert!(out.contains("constexpr int forty"), "{out}");
    assert!(out.contains("static const int value"), "{out}");
}

#[test]
fn cpp_namespace_level_removed_with_its_qualifiers() {
    let (out, accepted) = reduce(
        "ns.cpp",
        "#include <cstdio>\n\
         namespace outer_space {\n\
         int forty_two() { return 42; }\n\
         }\n\
         int main() { std::printf(\"%d\\n\", outer_space::forty_two()); return 0; }\n",
        "rewrite",
        &["rewrite"],
    );
    assert!(accepted >= 1, "{out}");
    assert!(
        !out.contains("namespace") && !out.contains("outer_space"),
        "{out}"
    );
    assert!(out.contains("forty_two()"), "{out}");
}

#[test]
fn cpp_base_class_initializers_defaults_and_access_dropped() {
    let (out, accepted) = reduce(
        "drops.cpp",
        "#include <cstdio>\n\
         struct Base { int unused_member; };\n\
         class Widget : public Base {\n\
         public:\n\
         \x20 Widget() : count(1) { count = 40; }\n\
         \x20 int total(int extra = 7) { return count + extra; }\n\
         \x20 int count = 5;\n\
         };\n\
         int main() { Widget w; std::printf(\"%d\\n\", w.total(2)); return 0; }\n",
        "rewrite",
        &["rewrite"],
    );
    assert!(accepted >= 3, "{out}");
    // Base class, ctor-initializer, default argument, default member initializer, `class`
    // and `public:` gone; `struct` keeps the members public.
    for gone in ["Base", "count(1)", "= 7", "= 5", "class", "public"] {
        assert!(!out.contains(gone), "{gone} left in\n{out}");
    }
    assert!(out.contains("struct Widget"), "{out}");
}

#[test]
fn cpp_template_parameters_removed_with_their_arguments() {
    let (out, accepted) = reduce(
        "tmpl.cpp",
        "#include <cstdio>\n\
         template <typename Value, int Unused> struct Holder { Value v; Value get() { return v; } };\n\
         int main() { Holder<int, 3> h{42}; std::printf(\"%d\\n\", h.get()); return 0; }\n",
        "rewrite",
        &["rewrite"],
    );
    assert!(accepted >= 2, "{out}");
    // `Unused` removed with its argument, then `Value` instantiated as the `int` every use
    // gives it, and the template became a plain class.
    for gone in ["template", "Unused", "Value", "Holder<"] {
        assert!(!out.contains(gone), "{gone} left in\n{out}");
    }
    assert!(out.contains("int v;"), "{out}");
}

#[test]
fn cpp_member_functions_move_into_their_class_where_the_program_allows() {
    let (out, accepted) = reduce(
        "moves.cpp",
        "#include <cstdio>\n\
         struct Counter {\n\
         \x20 int base;\n\
         \x20 Counter(int);\n\
         \x20 int total(int = 2) const;\n\
         \x20 int later() const;\n\
         };\n\
         Counter::Counter(int b) : base(b) {}\n\
         int Counter::total(int extra) const { return base + extra; }\n\
         int helper(int x) { return x + 1; }\n\
         int Counter::later() const { return helper(base); }\n\
         int main() { Counter c(40); std::printf(\"%d\\n\", c.total() + c.later() - 41); }\n",
        "rewrite",
        &["rewrite"],
    );
    assert!(accepted >= 2, "{out}");
    let squeezed = out.split_whitespace().collect::<String>();
    // The constructor moves in with its initializers, `total` with the definition's
    // parameter name and the declaration's default value (`c.total()` needs it).
    assert!(squeezed.contains("Counter(intb):base(b){}"), "{out}");
    assert!(squeezed.contains("inttotal(intextra=2)"), "{out}");
    assert!(
        !out.contains("Counter::Counter") && !out.contains("Counter::total"),
        "{out}"
    );
    // `later` calls `helper`, declared after the class: inside the class it would not
    // compile, so it stays where it is.
    assert!(out.contains("Counter::later"), "{out}");
}

#[test]
fn cpp_aliases_and_typedefs_inlined_into_their_uses() {
    let (out, accepted) = reduce(
        "alias.cpp",
        "#include <cstdio>\n\
         using number_type = int;\n\
         typedef number_type count_type;\n\
         int main() { count_type n = 42; std::printf(\"%d\\n\", n); return 0; }\n",
        "inline",
        &["inline"],
    );
    assert!(accepted >= 2, "{out}");
    assert!(
        !out.contains("number_type") && !out.contains("count_type"),
        "{out}"
    );
}

/// A region tree-sitter-cpp does not parse (an ERROR node: the `_Class::` of a pointer to
/// member in a `typedef`), nested in a class in a namespace, is removable as a whole: the
/// oracle needs the typedef's name but not the region, and the syntax filter lets through
/// the candidate that removes it (the input's errors are the measure).
#[test]
fn cpp_a_nested_error_region_is_removed_as_a_whole() {
    let d = Dir::new();
    let text = "namespace lib {\n\
                template <typename _Res, typename _Class>\n\
                struct holder {\n\
                  int keep;\n\
                  typedef _Res _Class::* _MemPtr;\n\
                };\n\
                }\n\
                int main() { return 0; }\n";
    d.write("nested.cpp", text);
    let tree = d.run(&["--print-tree-stats", "nested.cpp"]);
    tree.expect_code(0);
    assert!(tree.stdout.contains("ERROR nodes: 1,"), "{}", tree.stdout);
    d.script(
        "oracle.sh",
        "grep -q _MemPtr \"$1\" && grep -q 'int keep' \"$1\"",
    );
    d.run(&["--test", "oracle.sh", "--no-passes", "-q", "nested.cpp"])
        .expect_code(0);
    let out = d.read_string("nested.reduced.cpp");
    assert!(out.contains("_MemPtr") && out.contains("int keep"), "{out}");
    assert!(!out.contains("::"), "the ERROR region is left in\n{out}");
}

/// A type the tree phase cannot remove stays as it is until what depends on it has gone: a
/// lambda converts to `bool` but not to `int`, so `bool ok = []() { .. }();` loses its call
/// and its body before anything may make `bool` an `int`. With `--replace-tokens` (the papers'
/// HDD), `bool` becomes `int` first and the call must stay.
#[test]
fn cpp_a_type_is_replaced_after_what_depends_on_it() {
    let d = Dir::new();
    let text = "#include <cstdio>\n\
                bool ok = []() { return true; }();\n\
                int main() { std::printf(\"%d\\n\", 42 * ok); return 0; }\n";
    d.write("lambda.cpp", text);
    // The oracle also demands a lambda with a parameter list.
    let oracle = d.script(
        "oracle.sh",
        &format!("grep -q '\\[\\] *(' \"$1\" || exit 1\n{PRINTS_42}"),
    );
    assert!(is_interesting(&oracle, "lambda.cpp", text.as_bytes()));
    let squeeze = |s: String| s.split_whitespace().collect::<String>();
    d.run(&["--test", "oracle.sh", "-q", "lambda.cpp"])
        .expect_code(0);
    let out = squeeze(d.read_string("lambda.reduced.cpp"));
    assert!(out.contains("bool") && out.contains("=[](){};"), "{out}");
    d.run(&[
        "--test",
        "oracle.sh",
        "--replace-tokens",
        "-q",
        "-o",
        "r.cpp",
        "lambda.cpp",
    ])
    .expect_code(0);
    let out = squeeze(d.read_string("r.cpp"));
    assert!(out.contains("int") && out.contains("}();"), "{out}");
}

/// Reduce `head`, forty functions `int fI(int x)` nothing calls (with `middle` after the
/// twenty-first) and `tail`, a program that prints 42, with an oracle that logs how many of
/// the forty each candidate keeps. The output keeps `needed` and none of the forty, and no
/// candidate keeps some of them but not all: they go in the first test of one visit.
fn forty_unused_go_in_one_run(head: &str, middle: &str, tail: &str, needed: &str) {
    let mut text = String::from(head);
    for i in 0..40 {
        text.push_str(&format!(
            "int f{i}(int x) {{ return x * {i} + {}; }}\n",
            i + 1
        ));
        if i == 20 {
            text.push_str(middle);
        }
    }
    text.push_str(tail);
    let d = Dir::new();
    d.write("lib.cpp", &text);
    let oracle = format!(
        "grep -c '^int f' \"$1\" >> {}\n{PRINTS_42}",
        d.join("kept.log").display()
    );
    d.script("oracle.sh", &oracle);
    let args = [
        "--test",
        "oracle.sh",
        "--no-passes",
        "-j",
        "1",
        "-q",
        "lib.cpp",
    ];
    d.run(&args).expect_code(0);
    let out = d.read_string("lib.reduced.cpp");
    assert!(!out.contains("f0") && out.contains(needed), "{out}");
    let kept: Vec<u32> = (d.read_string("kept.log").lines())
        .map(|l| l.parse().unwrap())
        .collect();
    assert!(kept.iter().all(|&k| k == 0 || k == 40), "{kept:?}");
    assert!(kept.contains(&0), "{kept:?}");
}

#[test]
fn cpp_a_used_class_keeps_its_definition_and_specializations() {
    // `lib` forward-declares the template `box`, defines it after forty unused functions,
    // and specializes it for `int`; `main` uses `box<int>`. The visit of `lib` keeps every
    // place that declares `box` (the forward declaration alone is an incomplete type, and
    // without the specialization `get` is missing) and removes the forty in its first test.
    forty_unused_go_in_one_run(
        "#include <cstdio>\nnamespace lib {\ntemplate <class T> struct box;\n",
        "template <class T> struct box { T v; };\n",
        "template <> struct box<int> { int get() { return 42; } };\n}\n\
         int main() { std::printf(\"%d\\n\", lib::box<int>{}.get()); return 0; }\n",
        "get",
    );
}

#[test]
fn cpp_a_member_type_is_kept_with_the_members_that_use_it() {
    // `box` has forty member functions that nothing calls, a member typedef `pointer` (the
    // name is first declared in `other`, above), and `get`, which `main` calls and which
    // uses `pointer`. The visit of `box`'s members keeps `get` and the typedef it uses, and
    // removes the forty in its first test.
    forty_unused_go_in_one_run(
        "#include <cstdio>\nnamespace other { typedef long *pointer; }\nstruct box {\n",
        "typedef int *pointer;\n",
        "int get() { pointer p = nullptr; return p ? 0 : 42; }\n};\n\
         int main() { std::printf(\"%d\\n\", box{}.get()); return 0; }\n",
        "get",
    );
}

#[test]
fn cpp_an_anonymous_union_declares_its_members_for_the_class() {
    // `box` has forty member functions that nothing calls and an anonymous union whose
    // member `buf` `get` uses (`main` calls `get`): the union's body is no scope of its own,
    // so the visit of `box`'s members keeps `get` and the union and removes the forty in its
    // first test.
    forty_unused_go_in_one_run(
        "#include <cstdio>\nstruct box {\nunion { int buf[2]; long cap; };\n",
        "int get() { buf[0] = 42; return buf[0]; }\n",
        "};\nint main() { std::printf(\"%d\\n\", box{}.get()); return 0; }\n",
        "buf",
    );
}

#[test]
fn cpp_the_unused_part_of_a_namespace_goes_in_one_run() {
    // `lib` holds forty functions that nothing calls and one that `main` calls: the visit of
    // `lib` keeps the one used from outside and removes the forty in its first test, so no
    // candidate keeps some of them but not all.
    forty_unused_go_in_one_run(
        "#include <cstdio>\nnamespace lib {\n",
        "int used() { return 42; }\n",
        "}\nint main() { std::printf(\"%d\\n\", lib::used()); return 0; }\n",
        "used",
    );
}
