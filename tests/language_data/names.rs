//! Names on each language's compiler's terms: which spellings are renamed and to what, type
//! aliases inlined into their uses, and a library's names put in the place of the file's.

use super::{compiler_oracle, reduce, JAVAC, RUSTC, TSC};
use crate::util::Dir;

#[test]
fn contextual_keywords_spelling_a_name_are_renamed() {
    // `record` (Java) and `path` (Rust: a macro fragment specifier) are keyword tokens of
    // their grammars, but here they name methods and functions: they are renamed like any
    // other name, while never becoming a new name themselves.
    let d = Dir::new();
    d.write(
        "M.java",
        "class M {\n    int record(int value) {\n        return value;\n    }\n\n\
         \x20   int run() {\n        return record(20);\n    }\n}\n",
    );
    compiler_oracle(&d, &JAVAC, "-E \"[a-z]\\(20\\)\"");
    let (out, _) = reduce(&d, "M.java", &[]);
    assert!(!out.contains("record") && out.contains("(20)"), "{out}");

    let d = Dir::new();
    d.write(
        "m.rs",
        "fn path(value: u8) -> u8 {\n    value\n}\n\n\
         pub fn marker() -> u8 {\n    path(20)\n}\n",
    );
    compiler_oracle(&d, &RUSTC, "-E \"[a-z]\\(20\\)\"");
    let (out, _) = reduce(&d, "m.rs", &[]);
    assert!(!out.contains("path") && out.contains("(20)"), "{out}");
}

#[test]
fn renamed_names_keep_the_case_of_their_first_letter() {
    // Go's encoding/json writes only exported fields (those whose name starts with a capital),
    // so `Count` can become `A` but not `a`: a renamed name starts with a capital letter
    // when the name it replaces does.
    let d = Dir::new();
    d.write(
        "m.go",
        "package main\n\nimport (\n\t\"encoding/json\"\n\t\"fmt\"\n)\n\n\
         type Report struct {\n\tCount int\n}\n\n\
         func main() {\n\tout, _ := json.Marshal(Report{Count: 42})\n\tfmt.Println(string(out))\n}\n",
    );
    d.script("oracle.sh", r#"go run "$1" 2>/dev/null | grep -q ':42}'"#);
    let (out, _) = reduce(&d, "m.go", &[]);
    let field = out.lines().map(str::trim).find(|l| l.ends_with(" int"));
    let short_capital =
        field.is_some_and(|l| l.len() == 5 && l.starts_with(|c: char| c.is_ascii_uppercase()));
    assert!(short_capital, "{out}");
}

#[test]
fn rust_and_typescript_type_aliases_are_inlined_into_their_uses() {
    // `[[inline]]` of a type alias: the aliased type takes the alias's place in every use and
    // the alias goes in the same step (the oracle asks for the function type and the impl,
    // the object type and a use of its field).
    let d = Dir::new();
    d.write(
        "m.rs",
        "pub struct Guard;\n\npub type Callback = fn(Guard);\n\npub trait Hook {}\n\n\
         impl Hook for Callback {}\n",
    );
    compiler_oracle(&d, &RUSTC, r"-Pz '(?s)(?=.*impl)(?=.*fn\()'");
    let (out, _) = reduce(&d, "m.rs", &[]);
    assert!(!out.contains("type") && out.contains("for fn("), "{out}");

    let d = Dir::new();
    d.write(
        "m.ts",
        "type Point = { x: number };\n\nexport function norm(p: Point): number {\n    return p.x;\n}\n",
    );
    compiler_oracle(&d, &TSC, r"-Pz '(?s)(?=.*x: number)(?=.*\.x)'");
    let (out, _) = reduce(&d, "m.ts", &[]);
    assert!(!out.contains("type") && out.contains("p: {"), "{out}");
}

/// A Java method whose parameter and result have library types, each spelled once: `int`
/// takes both places (autoboxing makes `int` an `Object`).
const JAVA_LIBRARY_TYPES: &str = r#"public class M {
    static Object label(String text) {
        return text;
    }
}
"#;

#[test]
fn java_library_types_spelled_once_become_int() {
    let d = Dir::new();
    d.write("M.java", JAVA_LIBRARY_TYPES);
    compiler_oracle(&d, &JAVAC, "text");
    let (out, _) = reduce(&d, "M.java", &["-j", "1"]);
    // Without the library's names among `replace-ids`' candidates, `String` and `Object`
    // stay: each occurs once, and `rename` leaves a library's names alone.
    assert!(!out.contains("String") && !out.contains("Object"), "{out}");
    assert!(out.contains("(int text)"), "{out}");
}

/// A Java method that returns an object of an anonymous class of an interface the file
/// declares: `Object` takes the interface's place and the interface goes.
const JAVA_RETIRED_TYPE: &str = r#"public class M {
    interface Marker {
    }

    static Object make() {
        return new Marker() {
        };
    }
}
"#;

#[test]
fn java_type_declared_once_gives_way_to_object() {
    let d = Dir::new();
    d.write("M.java", JAVA_RETIRED_TYPE);
    compiler_oracle(&d, &JAVAC, "new");
    let (out, _) = reduce(&d, "M.java", &["-j", "1"]);
    assert!(
        !out.contains("interface") && out.contains("new Object"),
        "{out}"
    );
}
