//! Issue 43, readable output: the final layout step with real oracles. treedd's own layout,
//! then the language's formatter (clang-format, rustfmt, gofmt, black, prettier), each kept
//! only if the oracle agrees; the fallbacks when the formatter is missing or the oracle
//! rejects a layout; `--no-format` keeps the reduction's bytes.

use std::process::Command;

use expect_test::{expect, Expect};

use crate::util::{is_interesting, Dir};

/// Fails (never skips) when a tool is missing: `.ci/run` installs them.
#[track_caller]
fn require(tool: &str) {
    let install = match tool {
        "clang-format" => "apt-get install clang-format",
        "black" => "pip install black",
        "prettier" => "npm install -g prettier",
        "gofmt" | "go" => "apt-get install golang-go",
        "rustfmt" => "rustup component add rustfmt",
        _ => "install it",
    };
    let found = Command::new("sh")
        .args(["-c", &format!("command -v {tool} >/dev/null")])
        .status()
        .is_ok_and(|s| s.success());
    assert!(found, "{tool} is missing: {install} (.ci/run installs it)");
}

/// Reduce `file` (written with `input`) with `oracle`, `extra` flags added; checks that the
/// output is interesting and has the non-whitespace characters of `--no-format`'s output,
/// which is also returned, then the format steps' outcomes `(step, outcome)`.
#[track_caller]
fn reduce(d: &Dir, file: &str, extra: &[&str]) -> (String, String, Vec<(String, String)>) {
    let (stem, ext) = file.rsplit_once('.').unwrap();
    let out_name = format!("{stem}.reduced.{ext}");
    let mut args = vec!["--test", "./oracle.sh", "-j", "2", "-q", "--stats", "s.json"];
    args.extend_from_slice(extra);
    args.push(file);
    d.run(&args).expect_code(0);
    let out = d.read(&out_name);
    let s = d.stats("s.json");
    let steps = s["format"]["steps"]
        .as_array()
        .unwrap_or_else(|| panic!("no format steps: {s}"))
        .iter()
        .map(|st| {
            let outcome = st["outcome"].as_str().unwrap().to_string();
            (st["step"].as_str().unwrap().to_string(), outcome)
        })
        .collect::<Vec<_>>();
    let runs: u64 = s["format"]["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|st| st["oracle_runs"].as_u64().unwrap())
        .sum();
    assert_eq!(s["format"]["oracle_runs"].as_u64(), Some(runs), "{s}");
    assert!(
        is_interesting(&d.join("oracle.sh"), file, &out),
        "not interesting:\n{}",
        String::from_utf8_lossy(&out)
    );
    // The same reduction without the layout step.
    let mut plain = args.clone();
    plain.retain(|a| *a != file);
    plain.extend(["--no-format", "--output", "plain.out", "--stats", "p.json", file]);
    d.run(&plain).expect_code(0);
    let raw = d.read("plain.out");
    assert_eq!(d.stats("p.json")["format"], serde_json::Value::Null);
    let nonws = |b: &[u8]| b.iter().filter(|c| !c.is_ascii_whitespace()).count();
    assert_eq!(nonws(&out), nonws(&raw));
    assert_eq!(
        s["output_chars"],
        d.stats("p.json")["output_chars"],
        "the size measure changed"
    );
    assert!(d.tmp_entries().is_empty(), "{:?}", d.tmp_entries());
    (
        String::from_utf8(out).unwrap(),
        String::from_utf8(raw).unwrap(),
        steps,
    )
}

fn steps(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(a, b)| (a.to_string(), b.to_string()))
        .collect()
}

#[track_caller]
fn case(file: &str, input: &str, oracle: &str, tools: &[&str], expect: Expect) -> Dir {
    for tool in tools {
        require(tool);
    }
    let d = Dir::new();
    d.write(file, input);
    d.script("oracle.sh", oracle);
    let (out, raw, done) = reduce(&d, file, &[]);
    expect.assert_eq(&out);
    assert_ne!(out, raw, "formatting changed nothing");
    let formatter = tools[0];
    assert_eq!(
        done,
        steps(&[("layout", "accepted"), (formatter, "accepted")]),
        "{out}"
    );
    d
}

#[test]
fn c_with_gcc_and_clang_format() {
    let d = case(
        "sum.c",
        "#include <stdio.h>\nint   twice ( int a ){return a*2;}\nint main(void){int s=0;for(int i=0;i<4;i++){s+=twice(i);}\n   if(s>1)printf(\"%d\\n\",s);   return 0;}\n",
        "gcc -w -o ./a.out \"$1\" 2>/dev/null && ./a.out | grep -qx 12",
        &["clang-format", "gcc"],
        expect![[r#"
"#]],
    );
    // --no-format gives the reduction's own bytes.
    expect![[r#"
"#]]
    .assert_eq(&d.read_string("plain.out"));
}

#[test]
fn cpp_with_gxx_and_clang_format() {
    case(
        "t.cpp",
        "#include <vector>\ntemplate<typename T>struct Box{T v;T get()const{return v;}};\nint main(){std::vector<Box<int>> b{{1},{2}};int s=0;for(auto&x:b){s+=x.get();}return s==3?0:1;}\n",
        "g++ -w -o ./a.out \"$1\" 2>/dev/null && ./a.out && grep -q 'for' \"$1\"",
        &["clang-format", "g++"],
        expect![[r#"
"#]],
    );
}

#[test]
fn rust_with_rustc_and_rustfmt() {
    case(
        "m.rs",
        "struct P{x:i32,y:i32}\nimpl P{fn sum(&self)->i32{self.x+self.y}}\nfn main(){let p=P{x:2,y:3};if p.sum()!=5{std::process::exit(1);}let v:Vec<i32>=(0..3).collect();println!(\"{}\",v.len());}\n",
        "rustc --edition 2021 -o ./a.out \"$1\" 2>/dev/null && ./a.out | grep -qx 3 && grep -q 'impl' \"$1\"",
        &["rustfmt", "rustc"],
        expect![[r#"
"#]],
    );
}

#[test]
fn go_with_go_and_gofmt() {
    case(
        "main.go",
        "package main\nimport \"fmt\"\ntype T struct{a int\nb string}\nfunc f(x int)int{if x>1{return x*2}\nreturn 0}\nfunc main(){t:=T{a:3,b:\"s\"}\nfor i:=0;i<2;i++{t.a+=f(t.a)}\nfmt.Println(t.a,t.b)}\n",
        "cd \"$(dirname \"$1\")\" && HOME=$PWD GOCACHE=$PWD/.gocache go run \"$1\" 2>/dev/null | grep -qx '27 s'",
        &["gofmt", "go"],
        expect![[r#"
"#]],
    );
}

#[test]
fn python_with_python3_and_black() {
    case(
        "p.py",
        "import sys\ndef f(a,b=1):\n  if a>b: return a*2\n  else:\n          return  b\nclass A:\n def m(self,x): return f(x)+1\nprint(A().m(5))\n",
        "python3 \"$1\" 2>/dev/null | grep -qx 11 && grep -q class \"$1\"",
        &["black", "python3"],
        expect![[r#"
"#]],
    );
}

#[test]
fn javascript_with_node_and_prettier() {
    case(
        "a.js",
        "function f(a,b){if(a>b){return a*2;}return b;}\nconst o={x:3,y:[1,2]};\nclass A{m(v){return f(v,o.x)+1;}}\nconsole.log(new A().m(5));\n",
        "node \"$1\" 2>/dev/null | grep -qx 11 && grep -q class \"$1\"",
        &["prettier", "node"],
        expect![[r#"
"#]],
    );
}

/// Without the formatter on `PATH`, the own layout stays and the formatter is `missing`.
#[test]
fn a_missing_formatter_is_skipped() {
    // The oracle names its interpreter by path: PATH holds nothing.
    let python = Command::new("python3")
        .args(["-c", "import sys; print(sys.executable)"])
        .output()
        .expect("python3 is missing: apt-get install python3");
    let python = String::from_utf8(python.stdout).unwrap();
    let d = Dir::new();
    d.write("p.py", "def f(a):\n  if a: return  a+1\n  return 0\nprint(f(1))\n");
    d.script(
        "oracle.sh",
        &format!(
            "case \"$({} \"$1\" 2>&1)\" in 2) exit 0;; *) exit 1;; esac",
            python.trim()
        ),
    );
    let empty = d.join("empty-path");
    std::fs::create_dir(&empty).unwrap();
    let out = d
        .cmd()
        .env("PATH", &empty)
        .args(["--test", "./oracle.sh", "-q", "--stats", "s.json", "p.py"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{out:?}");
    let s = d.stats("s.json");
    assert_eq!(s["format"]["steps"][0]["outcome"], "accepted", "{s}");
    assert_eq!(s["format"]["steps"][1]["step"], "black", "{s}");
    assert_eq!(s["format"]["steps"][1]["outcome"], "missing", "{s}");
    expect![[r#"
"#]]
    .assert_eq(&d.read_string("p.reduced.py"));
}

/// Indentation is syntax in Python: an oracle that needs a `TabError` rejects the layout
/// (which rebuilds the indentation from the tree); black cannot even parse the text.
#[test]
fn python_whose_indentation_matters_keeps_it() {
    require("python3");
    require("black");
    let d = Dir::new();
    let input = "def f(x):\n\tif x:\n\t\treturn 1\n        return 2\nprint(f(0))\n";
    d.write("tab.py", input);
    d.script("oracle.sh", "python3 \"$1\" 2>&1 | grep -q TabError");
    let (out, raw, done) = reduce(&d, "tab.py", &[]);
    assert_eq!(out, raw);
    assert_eq!(
        done,
        steps(&[("layout", "rejected"), ("black", "failed")])
    );
    expect![[r#"
"#]]
    .assert_eq(&out);
}

/// An oracle that greps for a line as clang-format lays it out (two spaces) rejects treedd's
/// own layout (four) and accepts clang-format's of the unformatted text; one that greps for
/// four spaces keeps treedd's layout and rejects clang-format's.
#[test]
fn an_oracle_that_greps_a_line_layout_decides() {
    require("clang-format");
    require("gcc");
    for (indent, expected) in [
        ("  ", [("layout", "rejected"), ("clang-format", "accepted")]),
        ("    ", [("layout", "accepted"), ("clang-format", "rejected")]),
    ] {
        let d = Dir::new();
        d.write(
            "l.c",
            format!("int f(int a) {{\n{indent}return a+1;\n}}\nint main(void)  {{ return f(-1); }}\n"),
        );
        d.script(
            "oracle.sh",
            &format!("gcc -c -w -o /dev/null \"$1\" && grep -q '^{indent}return' \"$1\""),
        );
        let (out, _, done) = reduce(&d, "l.c", &[]);
        assert_eq!(done, steps(&expected), "{out}");
        assert!(out.contains(&format!("\n{indent}return")), "{out}");
    }
}

/// prettier's own tokens (double quotes for single ones) are not the text's: skipped.
#[test]
fn a_formatter_that_changes_tokens_is_skipped() {
    require("prettier");
    require("node");
    let d = Dir::new();
    d.write("q.js", "let s='a'+  'b';console.log(s)\n");
    d.script("oracle.sh", "node \"$1\" | grep -qx ab");
    let (out, _, done) = reduce(&d, "q.js", &[]);
    assert_eq!(
        done,
        steps(&[("layout", "accepted"), ("prettier", "changed_tokens")])
    );
    expect![[r#"
"#]]
    .assert_eq(&out);
}
