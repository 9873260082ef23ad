//! The built-in languages beyond C, JavaScript and Java, each with its fixture's real
//! oracle (g++, rustc, python3, gofmt, tsc), and `--grammar DIR` with a grammar that is not
//! built in (tree-sitter-json's sources, a dev-dependency) compiled into a cache.

use std::path::PathBuf;
use std::process::{Command, Output};

use expect_test::expect;

use crate::util::{is_interesting, Dir};

/// Fails (never skips) when an oracle's tool is missing: `.ci/run` installs them.
#[track_caller]
fn require(tool: &str) {
    let install = match tool {
        "g++" => "apt-get install g++",
        "rustc" => "install a Rust toolchain",
        "python3" => "apt-get install python3",
        "gofmt" => "apt-get install golang-go",
        "tsc" => "npm install -g typescript",
        _ => "install it",
    };
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool} >/dev/null")])
        .status()
        .is_ok_and(|s| s.success());
    assert!(found, "{tool} is missing: {install} (.ci/run installs it)");
}

/// `--preset fastest`, for the fixtures whose oracle is slow.
const FASTEST: &[&str] = &["--preset", "fastest"];

/// Reduce `fixtures/<lang>/<case>/<file>` (`path`) with its oracle, which needs `tool`,
/// passing `extra` flags; the result is interesting, in the fixture's language, at most
/// `max_chars` non-whitespace characters, and still contains `keeps`.
#[track_caller]
fn check(path: &str, tool: &str, extra: &[&str], max_chars: u64, keeps: &str) {
    require(tool);
    let (case, file) = path.rsplit_once('/').unwrap();
    let lang = path.split('/').next().unwrap();
    let d = Dir::new();
    d.copy_fixture(case);
    let mut args = vec![
        "--test",
        "./oracle.sh",
        "-j",
        "2",
        "-q",
        "--stats",
        "s.json",
    ];
    args.extend_from_slice(extra);
    args.push(file);
    d.run(&args).expect_code(0);
    let s = d.stats("s.json");
    assert_eq!(s["language"], lang);
    let (stem, ext) = file.rsplit_once('.').unwrap();
    let out = d.read(&format!("{stem}.reduced.{ext}"));
    let text = String::from_utf8_lossy(&out).into_owned();
    assert!(
        is_interesting(&d.join("oracle.sh"), file, &out),
        "not interesting:\n{text}"
    );
    assert!(
        s["output_chars"].as_u64().unwrap() <= max_chars,
        "{s}\n{text}"
    );
    assert!(d.tmp_entries().is_empty());
    assert!(text.contains(keeps), "{text}");
}

#[test]
fn cpp_overload_with_gxx() {
    check("cpp/overload/overload.cpp", "g++", &[], 80, "scale");
}

#[test]
fn rust_borrow_with_rustc() {
    check(
        "rust/borrow/borrow.rs",
        "rustc",
        FASTEST,
        260,
        "self.items.push",
    );
}

#[test]
fn python_zerodiv_with_python3() {
    check(
        "python/zerodiv/zerodiv.py",
        "python3",
        FASTEST,
        450,
        "def ratio",
    );
}

#[test]
fn go_channel_with_gofmt() {
    check(
        "go/channel/channel.go",
        "gofmt",
        &[],
        60,
        "results <- Result{",
    );
}

#[test]
fn typescript_generic_with_tsc() {
    check(
        "typescript/generic/generic.ts",
        "tsc",
        FASTEST,
        60,
        "<T extends Entity>",
    );
}

/// The stderr of a treedd run that must have succeeded (else it is shown).
#[track_caller]
fn succeeded(out: Output) -> String {
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stderr).unwrap()
}

/// The source directory of a grammar crate of the workspace, from `cargo metadata`.
fn grammar_crate(name: &str) -> PathBuf {
    let cargo = std::env::var("CARGO").unwrap_or_else(|_| "cargo".into());
    let out = Command::new(cargo)
        .args(["metadata", "--format-version", "1"])
        .current_dir(env!("CARGO_MANIFEST_DIR"))
        .output()
        .expect("cannot run cargo metadata");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let meta: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    let manifest = meta["packages"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["name"] == name)
        .unwrap_or_else(|| panic!("{name} is not a dependency"))["manifest_path"]
        .as_str()
        .unwrap()
        .to_string();
    PathBuf::from(manifest).parent().unwrap().to_path_buf()
}

const JSON_INPUT: &str = r#"{
  "name": "treedd",
  "version": [0, 1, 0],
  "deps": {"tree-sitter": {"version": "0.27", "features": ["std"]}, "rayon": "1.12"},
  "tags": ["reducer", "delta-debugging", {"nested": [1, 2, 3]}],
  "bin": {"treedd": {"path": "src/main.rs", "doc": false}}
}
"#;

/// Interesting while `deps` holds a `tree-sitter` object with a string `version` (python3
/// reads the JSON: a real parser as the oracle).
const JSON_ORACLE: &str = r#"py=python3; [ -x /usr/bin/python3 ] && py=/usr/bin/python3
exec "$py" -I -c '
import json, sys
try:
    d = json.load(open(sys.argv[1]))
    ok = isinstance(d["deps"]["tree-sitter"]["version"], str)
except Exception:
    ok = False
sys.exit(0 if ok else 1)
' "$1""#;

#[test]
fn run_time_json_grammar_is_compiled_once_and_reduces() {
    let json = grammar_crate("tree-sitter-json");
    let d = Dir::new();
    d.write("in.json", JSON_INPUT);
    d.script("oracle.sh", JSON_ORACLE);
    let cache = d.join("cache");
    let run = |d: &Dir| {
        let out = d
            .cmd()
            .env("TREEDD_CACHE_DIR", &cache)
            .args(["--grammar", json.to_str().unwrap(), "--test", "oracle.sh"])
            .args(["--stats", "s.json", "in.json"])
            .output()
            .unwrap();
        succeeded(out)
    };
    let first = run(&d);
    assert!(
        first.contains("treedd: compiled grammar json into"),
        "{first}"
    );
    let reduced = d.read_string("in.reduced.json");
    assert_eq!(
        reduced.split_whitespace().collect::<String>(),
        r#"{"deps":{"tree-sitter":{"version":""}}}"#,
        "{reduced}"
    );
    assert_eq!(d.stats("s.json")["language"], "json");
    // The second run loads the cached library: no compilation, the same result.
    let second = run(&d);
    assert!(!second.contains("compiled grammar"), "{second}");
    assert_eq!(d.read_string("in.reduced.json"), reduced);
}

/// A built-in grammar's crate loaded at run time reduces as well as the built-in one.
#[test]
fn run_time_grammar_reduces_as_well_as_the_built_in_one() {
    let c = grammar_crate("tree-sitter-c");
    let d = Dir::new();
    let input =
        "int add(int a, int b) { return a + b; }\nint sub(int a, int b) { return a - b; }\n\
                 int main(void) { int x = add(1, 2); if (x > 2) { x = sub(x, 1); } return x; }\n";
    d.write("in.c", input);
    d.script(
        "oracle.sh",
        r#"grep -q 'sub(x' "$1" && grep -q 'return' "$1""#,
    );
    let mut chars = Vec::new();
    for grammar in [None, Some(c.to_str().unwrap())] {
        let mut cmd = d.cmd();
        cmd.env("TREEDD_CACHE_DIR", d.join("cache"));
        if let Some(g) = grammar {
            cmd.args(["--grammar", g]);
        }
        let out = cmd
            .args(["--test", "oracle.sh", "-q", "--stats", "s.json", "in.c"])
            .output()
            .unwrap();
        succeeded(out);
        chars.push(d.stats("s.json")["output_chars"].as_u64().unwrap());
    }
    assert!(
        chars[1] <= chars[0],
        "built-in {} vs run-time {}",
        chars[0],
        chars[1]
    );
}

#[test]
fn grammar_errors_are_clear() {
    let d = Dir::new();
    d.write("in.json", "{}\n");
    d.run(&["--grammar", ".", "--dump-tree", "in.json"])
        .expect_code(6)
        .expect_message(&d, &expect![[r#"
            treedd: error: --grammar .: . is not a tree-sitter grammar: no src/grammar.json (expected src/parser.c, src/grammar.json and src/node-types.json, or a prebuilt .so beside the two JSON files)
        "#]]);
    d.run(&[
        "--grammar",
        ".",
        "--language",
        "c",
        "--dump-tree",
        "in.json",
    ])
    .expect_code(7)
    .expect_message(
        &d,
        &expect![[r#"
        treedd: error: --grammar and --language both choose the language; give one
    "#]],
    );
    let json = grammar_crate("tree-sitter-json");
    let out = d
        .cmd()
        .env("TREEDD_CACHE_DIR", d.join("cache"))
        .env("CC", "/nonexistent/cc")
        .args([
            "--grammar",
            json.to_str().unwrap(),
            "--dump-tree",
            "in.json",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(6));
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(
        stderr.contains("no C compiler: cannot run \"/nonexistent/cc\""),
        "{stderr}"
    );
}
