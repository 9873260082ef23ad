//! C++ bodies on g++'s terms: the early `bodies` step leaves constexpr functions and deduced
//! return types to the round's `bodies` pass.

use super::{bodies_go_first, compiler_oracle, Compiler};
use crate::util::Dir;

const GXX: Compiler = Compiler {
    compile: r#"g++ -std=c++20 -fsyntax-only "$1""#,
    first_error: "grep -m1 'error'",
};

#[test]
fn cpp_the_early_step_empties_the_plain_bodies_at_once() {
    // Eight plain functions between eight constexpr ones that static_asserts evaluate: every
    // part of the early sequence would hold a constexpr body down to its sixteenths, so
    // without `coarse_unless` the eight plain bodies would go one by one, in 31 runs.
    let mut src = String::new();
    let mut plain = Vec::new();
    for i in 0..8 {
        let body = format!("{{\n    return x + {i};\n}}");
        src.push_str(&format!(
            "constexpr int c{i}() {{\n    int v = {i};\n    return v;\n}}\n\
             static_assert(c{i}() == {i});\n\
             int p{i}(int x) {body}\n"
        ));
        plain.push(body);
    }
    src.push_str("auto twice(int x) {\n    return 2 * x;\n}\nint marker = twice(21);\n");
    let d = Dir::new();
    compiler_oracle(&d, &GXX, "marker");
    let emptied: Vec<&str> = plain.iter().map(String::as_str).collect();
    bodies_go_first(&d, "m.cpp", &src, &emptied, "{for(;;);}", 0);
}
