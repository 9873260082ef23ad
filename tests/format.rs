//! Readable output: the final layout step with real oracles. treedd's own layout,
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
    let mut plain = vec![
        "--test",
        "./oracle.sh",
        "-j",
        "2",
        "-q",
        "--stats",
        "p.json",
    ];
    plain.extend_from_slice(extra);
    plain.extend(["--no-format", "--output", "plain.out", file]);
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
    // The fastest preset: the layout step is what is shown here.
    let (out, raw, done) = reduce(&d, file, &["--preset", "fastest"]);
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
        "#include <stdio.h>\nint   twice ( int a ){return a*2;}\nint main(void){int s=twice(3);   if(s>1){s=s+twice(3);}else{s=0;}\n   printf(\"%d\\n\",s);   return 0;}\n",
        "gcc -w -o ./a.out \"$1\" 2>/dev/null && timeout 2 ./a.out | grep -qx 12",
        &["clang-format", "gcc"],
        expect![[r#"
            int twice(int a) { return a * 2; }
            int main() {
              int s = twice(3);
              if (s > 1) {
                s = s + twice(3);
              }
              printf("%d", s);
            }
        "#]],
    );
    // --no-format gives the reduction's own bytes.
    expect![[r#"

        int   twice ( int a ){return a*2;}
        int main(){int s=twice(3);   if(s>1){s=s+twice(3);}
           printf("%d",s);}
    "#]]
    .assert_eq(&d.read_string("plain.out"));
}

#[test]
fn cpp_with_gxx_and_clang_format() {
    case(
        "t.cpp",
        "#include <vector>\ntemplate<typename T>struct Box{T v;T get()const{return v;}};\nint main(){std::vector<Box<int>> b{{1},{2}};int s=0;for(auto&x:b){s+=x.get();}return s==3?0:1;}\n",
        "g++ -w -o ./a.out \"$1\" 2>/dev/null && timeout 2 ./a.out && grep -q 'for' \"$1\"",
        &["clang-format", "g++"],
        expect![[r#"
            #include <vector>
            template <typename T> struct Box { T v; };
            int main() {
              std::vector<Box<int>> b{};
              for (auto &x : b) {
              }
            }
        "#]],
    );
}

#[test]
fn rust_with_rustc_and_rustfmt() {
    case(
        "m.rs",
        "struct P{x:i32,y:i32}\nimpl P{fn sum(&self)->i32{self.x+self.y}}\nfn main(){let p=P{x:2,y:3};if p.sum()!=5{std::process::exit(1);}let v:Vec<i32>=(0..3).collect();println!(\"{}\",v.len());}\n",
        "rustc --edition 2021 -o ./a.out \"$1\" 2>/dev/null && timeout 2 ./a.out | grep -qx 3 && grep -q 'impl' \"$1\"",
        &["rustfmt", "rustc"],
        expect![[r#"
            struct P {}
            impl P {}
            fn main() {
                let v: Vec<i32> = (0..3).collect();
                println!("{}", v.len());
            }
        "#]],
    );
}

#[test]
fn go_with_go_and_gofmt() {
    case(
        "main.go",
        "package main\nimport \"fmt\"\ntype T struct{a int\nb string}\nfunc f(x int)int{if x>1{return x*2}\nreturn 0}\nfunc main(){t:=T{a:3,b:\"s\"}\nt.a+=f(t.a)\nfmt.Println(t.a,t.b)}\n",
        // gofmt parses (fast, no build); the text keeps a struct, an `if` and the product.
        "gofmt -e \"$1\" >/dev/null 2>&1 && t=$(tr -d ' \\t\\n' < \"$1\") && case $t in *struct*if*x*2*) exit 0;; *) exit 1;; esac",
        &["gofmt"],
        expect![[r#"
            package main

            type T struct{}

            func f() {
            	if x > 1 {
            		return x * 2
            	}
            }
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
            def f(a, b=1):
                if a > b:
                    return a * 2


            class A:
                def m(self, x):
                    return f(x) + 1


            print(A().m(5))
        "#]],
    );
}

#[test]
fn javascript_with_node_and_prettier() {
    case(
        "a.js",
        "function f(a,b){if(a>b){return a*2;}return b;}\nconst o={x:3,y:[1,2]};\nclass A{m(v){return f(v,o.x)+1;}}\nconsole.log(new A().m(5));\n",
        // Semicolons kept (prettier would add them back: a text without them is not prettier's).
        "node \"$1\" 2>/dev/null | grep -qx 11 && grep -q class \"$1\" && [ \"$(tr -cd ';' < \"$1\" | wc -c)\" -ge 3 ]",
        &["prettier", "node"],
        expect![[r#"
            function f(a, b) {
              if (a > b) {
                return a * 2;
              }
            }
            const o = { x: 3 };
            class A {
              m(v) {
                return f(v, o.x) + 1;
              }
            }
            console.log(new A().m(5));
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
    d.write(
        "p.py",
        "def f(a):\n  if a: return  a+1\n  return 0\nprint(f(1))\n",
    );
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
        print(1 + 1)
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
    assert_eq!(done, steps(&[("layout", "rejected"), ("black", "failed")]));
    expect![[r#"
        def _():
        	return
                return
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
        (
            "    ",
            [("layout", "accepted"), ("clang-format", "rejected")],
        ),
    ] {
        let d = Dir::new();
        d.write(
            "l.c",
            format!("int f(int a)   {{\n{indent}int b = a+1;\n{indent}return b;\n}}\nint main(void)  {{ return f(-1); }}\n"),
        );
        d.script(
            "oracle.sh",
            &format!(
                "gcc -c -w -o /dev/null \"$1\" && grep -q '^{indent}int b' \"$1\" && grep -q '^{indent}return b' \"$1\""
            ),
        );
        let (out, _, done) = reduce(&d, "l.c", &[]);
        assert_eq!(done, steps(&expected), "{out}");
        assert!(out.contains(&format!("\n{indent}return b;")), "{out}");
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
        console.log('a' + 'b')
    "#]]
    .assert_eq(&out);
}

/// Ctrl-C leaves the reduction's own bytes (no layout step, exit 130); `--resume` finishes
/// the reduction and lays the result out.
#[test]
fn an_interrupted_reduction_is_not_formatted_and_resume_formats() {
    use std::process::Stdio;

    use crate::util::{kill, wait_for};
    require("clang-format");
    let d = Dir::new();
    let input = "int a(void){return 1;}\nint b(void){return 2;}\nint c(void){return 3;}\nint main(void){return b();}\n";
    d.write("k.c", input);
    // Slow enough to be interrupted after the first improvement.
    d.script(
        "oracle.sh",
        "sleep 0.2; grep -q 'return b()' \"$1\" && grep -q 'return 2' \"$1\"",
    );
    let args = [
        "--test",
        "./oracle.sh",
        "-j",
        "1",
        "--preset",
        "fastest",
        "k.c",
    ];
    let mut child = d.cmd().args(args).stderr(Stdio::null()).spawn().unwrap();
    let out = d.join("k.reduced.c");
    wait_for(60, "a first improvement", || {
        std::fs::read(&out).is_ok_and(|b| b.len() < input.len())
    });
    kill(&child, "INT");
    assert_eq!(child.wait().unwrap().code(), Some(130));
    let partial = d.read_string("k.reduced.c");
    // Unformatted: the input's bytes with pieces cut out.
    assert!(partial.contains("int b(void){return 2;}"), "{partial}");
    let mut resumed = args.to_vec();
    resumed.extend(["--resume", "-q", "--stats", "s.json"]);
    d.run(&resumed).expect_code(0);
    let s = d.stats("s.json");
    assert_eq!(s["resumed"], true);
    assert_eq!(s["format"]["steps"][0]["outcome"], "accepted", "{s}");
    expect![[r#"
        int b() { return 2; }
        int main() { return b(); }
    "#]]
    .assert_eq(&d.read_string("k.reduced.c"));
}
