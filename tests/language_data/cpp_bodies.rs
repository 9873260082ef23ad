//! C and C++ bodies on gcc's and g++'s terms: the early `bodies` step makes definitions
//! declarations, removes the definitions outside their class whole, and leaves deduced return
//! types to the round's `bodies` pass.

use super::{bodies_go_first, chars, compiler_oracle, early_bodies, Compiler};
use crate::util::{is_interesting, Dir};

const GXX: Compiler = Compiler {
    compile: r#"g++ -std=c++20 -fsyntax-only "$1""#,
    first_error: "grep -m1 'error'",
};

#[test]
fn cpp_the_early_step_leaves_deduced_return_types_to_the_round() {
    // Eight plain functions between eight `auto` ones whose callers use the type: every part
    // of the early sequence would hold an `auto` function down to its sixteenths, so without
    // `coarse_unless` the eight plain bodies would go one by one, in 31 runs.
    let mut src = String::new();
    let mut plain = Vec::new();
    for i in 0..8 {
        let body = format!("{{\n    return x + {i};\n}}");
        src.push_str(&format!(
            "auto c{i}() {{\n    int v = {i};\n    return v;\n}}\n\
             int u{i} = c{i}();\n\
             int p{i}(int x) {body}\n"
        ));
        plain.push(body);
    }
    src.push_str("int marker(int x) {\n    return 2 * x;\n}\n");
    let d = Dir::new();
    compiler_oracle(&d, &GXX, "marker");
    let emptied: Vec<&str> = plain.iter().map(String::as_str).collect();
    // Each body becomes `;`.
    bodies_go_first(&d, "m.cpp", &src, &emptied, ";", 0);
}

#[test]
fn cpp_the_early_step_makes_definitions_declarations() {
    // A class template whose members are defined in the class and outside it, a constexpr
    // function nothing evaluates, and the marker. In one oracle run the constructor loses its
    // initializers with its body, the constexpr function and the in-class member become
    // declarations, and the definitions outside the class go with their `template <...>`:
    // `Box<T>::get() const;` outside the class would be an error.
    let src = "template <class T> struct Box {\n  T v;\n  Box(T x) : v(x) {\n    v = v + 1;\n    v = v * 2;\n  }\n  \
               T get() const;\n  void set(T x);\n  T twice() const {\n    return v * 2;\n  }\n};\n\
               template <class T> T Box<T>::get() const {\n  return v + 1;\n}\n\
               template <class T>\nvoid Box<T>::set(T x) {\n  v = x;\n  v = v * 3;\n}\n\
               constexpr int square(int x) {\n  return x * x;\n}\n\
               int marker(Box<int> &b) {\n  return b.twice();\n}\n";
    let d = Dir::new();
    compiler_oracle(&d, &GXX, "marker");
    d.write("m.cpp", src);
    let (out, early) = early_bodies(&d, "m.cpp");
    // What the step leaves (the rounds go on from there).
    let declared = "template <class T> struct Box {\n  T v;\n  Box(T x);\n  T get() const;\n  \
                    void set(T x);\n  T twice() const;\n};\n\
                    constexpr int square(int x);\nint marker(Box<int> &b);\n";
    assert_eq!(early["oracle_runs"], 1, "{early}");
    assert_eq!(
        early["chars_removed"].as_i64().unwrap(),
        chars(src) - chars(declared),
        "{early}"
    );
    assert!(out.contains("marker"));
}

#[test]
fn cpp_a_function_that_must_be_inlined_keeps_its_body_form() {
    // g++ rejects a call to an `__always_inline__` function it has no body of ("inlining
    // failed"), and the marker's body must stay, calling the allocator's member: as a
    // declaration, that member would make every candidate of the early step fail.
    let src = "struct Alloc {\n  [[__gnu__::__always_inline__]] int *allocate(int n) {\n    return new int[n];\n  }\n};\n\
               int helper(int x) {\n  int s = 0;\n  for (int i = 0; i < x; i++)\n    s += i;\n  return s;\n}\n\
               int marker(Alloc &a) {\n  return *a.allocate(helper(2));\n}\n";
    let d = Dir::new();
    let gxx = Compiler {
        compile: r#"g++ -std=c++20 -c -o /dev/null -x c++ "$1""#,
        first_error: "grep -m1 'error'",
    };
    compiler_oracle(&d, &gxx, "'a.allocate(helper(2))'");
    d.write("m.cpp", src);
    let (out, early) = early_bodies(&d, "m.cpp");
    assert_eq!(early["oracle_runs"], 3, "{early}");
    assert!(early["accepted"].as_u64().unwrap() >= 1, "{early}\n{out}");
    assert!(out.contains("allocate(int) {"), "{out}");
}

#[test]
fn c_the_early_step_makes_definitions_declarations_and_the_calls_stay() {
    // gcc -O2 finds that a static function whose body is an endless loop never returns, and
    // drops what follows each call to it: `sink(h)` would go with either body emptied. As
    // declarations, the two helpers go in the early step and the caller still calls `sink`.
    let src = "int sink(int);\n\
               static int square(int x) {\n  int s = 0;\n  for (int i = 0; i < x; i++)\n    s += x;\n  return s;\n}\n\
               static int twice(int y) {\n  return square(y) + square(y + 1);\n}\n\
               int marker(int v) {\n  int h = twice(v);\n  sink(h);\n  return square(v);\n}\n";
    let d = Dir::new();
    let oracle = d.script(
        "oracle.sh",
        r#"gcc -std=gnu99 -fsyntax-only -Werror=implicit-function-declaration "$1" 2>/dev/null || exit 1
gcc -O2 -S -o - -x c "$1" 2>/dev/null | grep -q 'call.*sink'"#,
    );
    assert!(is_interesting(&oracle, "m.c", src.as_bytes()));
    d.write("m.c", src);
    let (out, early) = early_bodies(&d, "m.c");
    assert!(early["accepted"].as_u64().unwrap() >= 1, "{early}");
    assert!(early["oracle_runs"].as_u64().unwrap() <= 8, "{early}");
    let bodies = [
        "{\n  int s = 0;\n  for (int i = 0; i < x; i++)\n    s += x;\n  return s;\n}",
        "{\n  return square(y) + square(y + 1);\n}",
    ];
    let want: i64 = bodies.iter().map(|b| chars(b) - chars(";")).sum();
    assert!(
        early["chars_removed"].as_i64().unwrap() >= want,
        "{early}: fewer than {want} characters removed\n{out}"
    );
    assert!(out.contains("sink("), "{out}");
}
