//! A directory as the input (or several files as one directory): real multi-file failures
//! (a crash of the H8/300 gcc on a project of a header and two sources, a link-time type
//! mismatch between a header and two C sources under gcc -flto, a private function called
//! across the module files of a rustc crate) reduced with files deleted whole and names
//! renamed across files; what the oracle sees; Ctrl-C and `--resume`; every bad
//! input's error. The input directory is compared byte for byte, modes and times included,
//! before and after every run.

use std::fs;
use std::os::unix::fs::{MetadataExt, PermissionsExt};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

use expect_test::{expect, Expect};

use crate::util::{interrupt, kill, numbers, wait_for, Dir};

/// Every entry under `root` (itself included): path, kind, mode, modification time, and the
/// bytes of a file or the target of a link.
fn snapshot(root: &Path) -> Vec<String> {
    fn walk(root: &Path, rel: &Path, out: &mut Vec<String>) {
        let path = root.join(rel);
        let meta = fs::symlink_metadata(&path).unwrap();
        let what = if meta.is_symlink() {
            format!("link {}", fs::read_link(&path).unwrap().display())
        } else if meta.is_dir() {
            "dir".to_string()
        } else {
            format!("file {:?}", fs::read(&path).unwrap())
        };
        out.push(format!(
            "{} {:o} {}.{} {what}",
            rel.display(),
            meta.mode(),
            meta.mtime(),
            meta.mtime_nsec()
        ));
        if meta.is_dir() {
            let mut names: Vec<_> = fs::read_dir(&path)
                .unwrap()
                .map(|e| e.unwrap().file_name())
                .collect();
            names.sort();
            for name in names {
                walk(root, &rel.join(name), out);
            }
        }
    }
    let mut out = Vec::new();
    walk(root, Path::new(""), &mut out);
    out
}

/// The files of a directory and their contents, as one text (links as `-> target`).
fn listing(root: &Path) -> String {
    let mut out = String::new();
    for line in snapshot(root).iter().skip(1) {
        let rel = line.split(' ').next().unwrap();
        let path = root.join(rel);
        if fs::symlink_metadata(&path).unwrap().is_symlink() {
            out.push_str(&format!(
                "{rel} -> {}\n",
                fs::read_link(&path).unwrap().display()
            ));
        } else if path.is_file() {
            let text = fs::read_to_string(&path).unwrap();
            let end = if text.ends_with('\n') { "" } else { "\n" };
            out.push_str(&format!("== {rel}\n{text}{end}"));
        }
    }
    out
}

/// Run `oracle` on a copy of `dir` the way treedd does: the copy named `name` in a fresh
/// directory, the oracle inside it with its absolute path as the argument.
fn is_interesting(oracle: &Path, name: &str, dir: &Path) -> bool {
    let t = tempfile::tempdir().unwrap();
    let copy = t.path().join(name);
    let status = Command::new("cp")
        .arg("-a")
        .arg(dir)
        .arg(&copy)
        .status()
        .unwrap();
    assert!(status.success());
    Command::new(oracle)
        .arg(&copy)
        .current_dir(&copy)
        .env("TMPDIR", t.path())
        .stderr(Stdio::null())
        .status()
        .unwrap()
        .success()
}

/// Nothing but `names` beside the input in the test directory (no temporary directory of
/// the output writer), and no run directory left in `tmp/`.
#[track_caller]
fn nothing_left(d: &Dir, names: &[&str]) {
    let mut want: Vec<String> = names.iter().map(|s| s.to_string()).collect();
    want.push("tmp".into());
    want.sort();
    assert_eq!(d.entries(), want);
    wait_for(5, "the scratch directories to go", || {
        d.tmp_entries().is_empty()
    });
}

fn write_all(dir: &Path, files: &[(&str, &str)]) {
    for (name, text) in files {
        let path = dir.join(name);
        fs::create_dir_all(path.parent().unwrap()).unwrap();
        fs::write(path, text).unwrap();
    }
}

/// A statistics program split over a header and two sources, with a third source and a note
/// it does not need. `stats.c` does not include the header that declares its variable `long`,
/// so nothing but the link-time optimizer sees that it defines it `int`: gcc -flto warns
/// (`-Wlto-type-mismatch`), which takes the header and both sources.
const LTO_PROJECT: [(&str, &str); 5] = [
    (
        "stats.h",
        "#ifndef STATS_H\n#define STATS_H\n/* How many samples were processed so far. */\nextern long samples_processed;\nvoid record_sample(int value);\nint average_value(void);\n#endif\n",
    ),
    (
        "stats.c",
        "/* stats.h is not included: nothing checks the definitions against it */\nint samples_processed = 0;\nstatic long total;\nvoid record_sample(int value) {\n    total += value;\n    samples_processed++;\n}\nint average_value(void) {\n    return samples_processed ? total / samples_processed : 0;\n}\n",
    ),
    (
        "main.c",
        "#include <stdio.h>\n#include \"stats.h\"\nint main(void) {\n    for (int i = 0; i < 10; i++)\n        record_sample(i * 3);\n    printf(\"%ld samples, average %d\\n\", samples_processed, average_value());\n    return 0;\n}\n",
    ),
    (
        "util.c",
        "int clamp_value(int v, int lo, int hi) {\n    return v < lo ? lo : v > hi ? hi : v;\n}\n",
    ),
    ("BUILD.txt", "gcc -flto -O1 *.c -o stats\n"),
];

#[test]
fn gcc_lto_type_mismatch_between_a_header_and_two_sources() {
    let d = Dir::new();
    let proj = d.join("proj");
    write_all(&proj, &LTO_PROJECT);
    // Modes are part of what must stay as it was (and what the runs get).
    fs::set_permissions(proj.join("BUILD.txt"), fs::Permissions::from_mode(0o600)).unwrap();
    let oracle = d.script(
        "oracle.sh",
        "gcc -flto -O1 *.c -o prog 2>&1 | grep -q 'does not match original declaration'",
    );
    let before = snapshot(&proj);
    d.run(&["--test", "oracle.sh", "--stats", "s.json", "proj"])
        .expect_code(0)
        .expect_stderr("result in proj.reduced");
    assert_eq!(snapshot(&proj), before);
    let out = d.join("proj.reduced");
    // util.c and BUILD.txt deleted whole; the variable renamed in the header and the source
    // that defines it (`b`), the header's guard too.
    expect![[r#"
        == main.c

        #include "stats.h"
        == stats.c

         b;
        == stats.h
        #ifndef a
         long b;
        #endif
    "#]]
    .assert_eq(&listing(&out));
    assert!(is_interesting(&oracle, "proj", &out));
    let stats = d.stats("s.json");
    let passes: Vec<&str> = stats["rounds"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["chars_removed"].as_i64() > Some(0))
        .map(|r| r["pass"].as_str().unwrap())
        .collect();
    for want in ["whole files", "stats.c: tree", "rename (across files)"] {
        assert!(passes.contains(&want), "{want} not in {passes:?}");
    }
    // Per file sizes (null: deleted); the totals are their sums.
    let files = stats["files"].as_array().unwrap();
    let util = files.iter().find(|f| f["path"] == "util.c").unwrap();
    assert_eq!(util["output_bytes"], serde_json::Value::Null);
    let sum: u64 = files
        .iter()
        .filter_map(|f| f["output_chars"].as_u64())
        .sum();
    assert_eq!(stats["output_chars"].as_u64(), Some(sum));
    assert_eq!(stats["language"], "per file");
    nothing_left(&d, &["oracle.sh", "proj", "proj.reduced", "s.json"]);
}

#[test]
fn rustc_private_function_across_module_files() {
    let d = Dir::new();
    write_all(
        &d.join("crate"),
        &[
            (
                "lib.rs",
                "//! A small crate whose modules are files.\nmod checks;\nmod parser;\nmod report;\n\npub fn run(text: &str) -> usize {\n    let tokens = parser::tokenize(text);\n    checks::validate(&tokens) + report::summary(&tokens).len()\n}\n",
            ),
            (
                "parser.rs",
                "pub struct Token {\n    pub text: String,\n    pub line: usize,\n}\n\npub fn tokenize(text: &str) -> Vec<Token> {\n    text.lines()\n        .enumerate()\n        .flat_map(|(line, l)| l.split_whitespace().map(move |w| Token { text: w.to_string(), line }))\n        .collect()\n}\n\nfn normalize_identifier(word: &str) -> String {\n    word.trim_matches('_').to_lowercase()\n}\n",
            ),
            (
                "checks.rs",
                "use crate::parser::Token;\n\n/// Tokens that are nothing but underscores.\npub fn validate(tokens: &[Token]) -> usize {\n    tokens\n        .iter()\n        .filter(|t| crate::parser::normalize_identifier(&t.text).is_empty())\n        .count()\n}\n",
            ),
            (
                "report.rs",
                "use crate::parser::Token;\n\npub fn summary(tokens: &[Token]) -> String {\n    let lines = tokens.iter().map(|t| t.line).max().unwrap_or(0);\n    format!(\"{} tokens on {} lines\", tokens.len(), lines + 1)\n}\n",
            ),
        ],
    );
    // E0603: checks.rs calls a function parser.rs keeps private.
    let oracle = d.script(
        "oracle.sh",
        r#"rustc --edition 2021 --crate-type lib --emit=metadata --out-dir "$TMPDIR" lib.rs 2>&1 | grep -q E0603"#,
    );
    let before = snapshot(&d.join("crate"));
    let run = d.run(&["--test", "oracle.sh", "crate"]);
    run.expect_code(0);
    assert_eq!(snapshot(&d.join("crate")), before);
    // Progress and summary count the bytes of the files (1025 in all), not of their encoding.
    let lines: Vec<&str> = run.stderr.lines().collect();
    let sizes: Vec<(usize, usize)> = (lines.iter())
        .filter_map(|l| {
            let (size, rest) = l
                .split_once(" bytes (")?
                .0
                .rsplit_once(": ")?
                .1
                .split_once(" / ")?;
            Some((size.parse().ok()?, rest.parse().ok()?))
        })
        .collect();
    assert!(sizes.len() > 3, "{}", run.stderr);
    assert!(
        sizes.iter().all(|&(now, all)| all == 1025 && now <= all),
        "{sizes:?}"
    );
    assert!(
        lines.last().unwrap().starts_with("treedd: 1025 -> "),
        "{}",
        run.stderr
    );
    let out = d.join("crate.reduced");
    // report.rs and parser.rs deleted whole (with their `mod`s): a private function of
    // checks.rs named from lib.rs is the same error.
    expect![[r#"
        == checks.rs
         fn b()  {}
        == lib.rs
        mod checks; fn a()   {
            checks::b
        }
    "#]]
    .assert_eq(&listing(&out));
    assert!(is_interesting(&oracle, "crate", &out));
    nothing_left(&d, &["crate", "crate.reduced", "oracle.sh"]);
}

/// A table module (a header and its source), a checksum source that calls it, a main and a
/// Makefile. The H8/300 cross compiler (GCC 3.4.6, Debian's gcc-h8300-hms) crashes in
/// `byte_reg` on checksum.c; the host gcc must still build all the sources into a library
/// with every symbol defined, which takes table.c with the header.
const ICE_PROJECT: [(&str, &str); 5] = [
    (
        "table.h",
        "#ifndef TABLE_H\n#define TABLE_H\ntypedef signed char int8_t;\ntypedef int int16_t;\ntypedef long int32_t;\ntypedef long long int64_t;\n/* The current key, defined in checksum.c. */\nextern int8_t current_key;\nint8_t *table_lookup(int8_t **table, int32_t index, int64_t key);\nint16_t table_size(void);\nint32_t checksum(void);\n#endif\n",
    ),
    (
        "checksum.c",
        "#include \"table.h\"\nint8_t current_key = 3;\nint32_t checksum(void)\n{\n    int32_t sum = table_size();\n    table_lookup(0, current_key, current_key);\n    return sum;\n}\n",
    ),
    (
        "table.c",
        "#include \"table.h\"\nstatic int8_t *slots[4];\nint8_t *table_lookup(int8_t **table, int32_t index, int64_t key)\n{\n    if (!table)\n        table = slots;\n    return table[(index + key) & 3];\n}\nint16_t table_size(void)\n{\n    return 4;\n}\n",
    ),
    (
        "main.c",
        "#include \"table.h\"\nint main(void)\n{\n    return checksum() != 4;\n}\n",
    ),
    (
        "Makefile",
        "all:\n\th8300-hms-gcc -w -O1 -c checksum.c table.c main.c\n",
    ),
];

#[test]
fn gcc_internal_compiler_error_that_needs_a_header_and_two_sources() {
    let installed = Command::new("sh")
        .args(["-c", "command -v h8300-hms-gcc"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !installed {
        eprintln!("SKIPPED: h8300-hms-gcc is not installed (apt-get install gcc-h8300-hms)");
        return;
    }
    let d = Dir::new();
    let proj = d.join("proj");
    write_all(&proj, &ICE_PROJECT);
    let oracle = d.script(
        "oracle.sh",
        r#"gcc -std=gnu99 -fPIC -shared -Wl,--no-undefined -Werror=implicit-function-declaration \
    -Werror=implicit-int -Werror=return-type -Werror=int-conversion \
    -Werror=incompatible-pointer-types *.c -o "$TMPDIR/lib.so" >/dev/null 2>&1 || exit 1
for f in *.c; do
    h8300-hms-gcc -w -O1 -c "$f" -o "$TMPDIR/out.o" 2>&1
done | grep -q 'internal compiler error: in byte_reg'"#,
    );
    let before = snapshot(&proj);
    // The fastest preset with renaming keeps the test short.
    let args = [
        "--test",
        "oracle.sh",
        "--preset",
        "fastest",
        "--passes",
        "rename",
    ];
    let mut all = args.to_vec();
    all.extend(["--stats", "s.json", "proj"]);
    d.run(&all)
        .expect_code(0)
        .expect_stderr("result in proj.reduced");
    assert_eq!(snapshot(&proj), before);
    // main.c and the Makefile deleted whole; `table_lookup` renamed `b` and `table_size` `e`
    // in the header, their definitions in table.c and their calls in checksum.c, the types
    // in all three.
    let out = d.join("proj.reduced");
    expect![[r#"
        == checksum.c
        #include "table.h"
        a d = 3;
        c j()
        {
            c l = e();
            b(0, d, d);
            return l;
        }
        == table.c
        #include "table.h"
        a *b(a **h, c i, f m)
        {
            return h[(i + m) & 3];
        }
        g e()
        {
            return 4;
        }
        == table.h
        #ifndef K
        typedef signed char a;
        typedef int g;
        typedef long c;
        typedef long long f;
        a *b(a **h, c, f);
        g e();
        #endif
    "#]]
    .assert_eq(&listing(&out));
    assert!(is_interesting(&oracle, "proj", &out));
    let stats = d.stats("s.json");
    let files = stats["files"].as_array().unwrap();
    for deleted in ["main.c", "Makefile"] {
        let file = files.iter().find(|f| f["path"] == deleted).unwrap();
        assert_eq!(file["output_bytes"], serde_json::Value::Null);
    }
    nothing_left(&d, &["oracle.sh", "proj", "proj.reduced", "s.json"]);
}

#[test]
fn the_oracle_runs_inside_a_private_copy_named_like_the_directory() {
    let d = Dir::new();
    let proj = d.join("proj");
    write_all(
        &proj,
        &[("keep.txt", "keep\nthis\n"), ("sub/run.sh", "#!/bin/sh\n")],
    );
    fs::set_permissions(proj.join("sub/run.sh"), fs::Permissions::from_mode(0o750)).unwrap();
    std::os::unix::fs::symlink("../keep.txt", proj.join("sub/link.txt")).unwrap();
    let log = d.join("log");
    // The first run logs what it sees; every run may write into its copy.
    d.script(
        "oracle.sh",
        &format!(
            r#"test -e {log} || {{ pwd; echo "$1"; ls -l sub | tail -n +2 | cut -c1-10; readlink sub/link.txt; cat sub/link.txt; }} > {log}
echo junk > made-by-the-oracle
grep -q keep keep.txt"#,
            log = log.display()
        ),
    );
    let before = snapshot(&proj);
    d.run(&["--test", "oracle.sh", "--jobs", "1", "proj"])
        .expect_code(0);
    assert_eq!(snapshot(&proj), before);
    let log = fs::read_to_string(&log).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    // The working directory is the copy, the argument its absolute path, named as the input.
    assert_eq!(lines[0], lines[1]);
    assert!(
        lines[0].starts_with(&d.join("tmp").display().to_string()),
        "{log}"
    );
    assert!(lines[0].ends_with("/proj"), "{log}");
    assert_eq!(
        &lines[2..],
        ["lrwxrwxrwx", "-rwxr-x---", "../keep.txt", "keep", "this"],
        "{log}"
    );
    // Only what the oracle needs is left, the link deleted like a file.
    expect![[r#"
        == keep.txt
        keep
    "#]]
    .assert_eq(&listing(&d.join("proj.reduced")));
    nothing_left(&d, &["log", "oracle.sh", "proj", "proj.reduced"]);
}

#[test]
fn several_files_are_reduced_side_by_side_in_one_directory() {
    let d = Dir::new();
    d.write("a.c", "int used;\nint unused;\n");
    fs::create_dir(d.join("inc")).unwrap();
    d.write("inc/a.h", "extern int used;\n");
    d.write("notes.txt", "nothing here\n");
    // The files by their names in one directory named after the first one.
    d.script(
        "oracle.sh",
        r#"test "$(basename "$PWD")" = a && grep -q used a.c && grep -q used a.h"#,
    );
    d.run(&["--test", "oracle.sh", "a.c", "inc/a.h", "notes.txt"])
        .expect_code(0)
        .expect_stderr("result in a.reduced");
    expect![[r#"
        == a.c
         used;
        == a.h
          used;
    "#]]
    .assert_eq(&listing(&d.join("a.reduced")));
    assert_eq!(d.read_string("a.c"), "int used;\nint unused;\n");
}

#[track_caller]
fn check_error(d: &Dir, args: &[&str], code: i32, expected: &Expect) {
    let mut all = vec!["--test", "ok.sh"];
    all.extend_from_slice(args);
    d.run(&all).expect_code(code).expect_message(d, expected);
}

#[test]
fn bad_directory_inputs_are_refused_before_any_run() {
    let d = Dir::new();
    d.script("ok.sh", "exit 0");
    fs::create_dir(d.join("empty")).unwrap();
    fs::create_dir_all(d.join("only/dirs")).unwrap();
    check_error(
        &d,
        &["empty"],
        3,
        &expect![[r#"
        treedd: error: cannot read input empty: it holds no files; give a directory with the files to reduce
    "#]],
    );
    check_error(
        &d,
        &["only"],
        3,
        &expect![[r#"
        treedd: error: cannot read input only: it holds no files; give a directory with the files to reduce
    "#]],
    );
    write_all(&d.join("out"), &[("a.c", "int a;\n")]);
    std::os::unix::fs::symlink("../../etc", d.join("out/up")).unwrap();
    check_error(
        &d,
        &["out"],
        3,
        &expect![[r#"
        treedd: error: cannot read input out/up: it is a symbolic link out of the directory (to ../../etc); every run gets a copy of the directory, and the link would lead it to files treedd does not copy (replace the link by a copy of what it points to)
    "#]],
    );
    fs::remove_file(d.join("out/up")).unwrap();
    std::os::unix::fs::symlink("/etc/hostname", d.join("out/abs")).unwrap();
    check_error(
        &d,
        &["out"],
        3,
        &expect![[r#"
        treedd: error: cannot read input out/abs: it is a symbolic link out of the directory (to /etc/hostname); every run gets a copy of the directory, and the link would lead it to files treedd does not copy (replace the link by a copy of what it points to)
    "#]],
    );
    fs::remove_file(d.join("out/abs")).unwrap();
    let fifo = Command::new("mkfifo")
        .arg(d.join("out/pipe"))
        .status()
        .unwrap();
    assert!(fifo.success());
    check_error(
        &d,
        &["out"],
        3,
        &expect![[r#"
        treedd: error: cannot read input out/pipe: it is a FIFO; a directory input may hold only regular files, directories and symbolic links within it
    "#]],
    );
    fs::remove_file(d.join("out/pipe")).unwrap();
    // Several files: regular files with different names.
    write_all(&d.path, &[("x/a.c", ""), ("b.c", ""), ("y/a.c", "")]);
    check_error(
        &d,
        &["x/a.c", "y/a.c"],
        3,
        &expect![[r#"
        treedd: error: two inputs are named a.c; several input files are put side by side in one directory, so their names must differ
    "#]],
    );
    check_error(
        &d,
        &["b.c", "y"],
        3,
        &expect![[r#"
        treedd: error: cannot read input y: it is a directory; give one directory, or several regular files
    "#]],
    );
    // Nothing was made anywhere.
    assert_eq!(
        d.entries(),
        ["b.c", "empty", "ok.sh", "only", "out", "tmp", "x", "y"]
    );
}

#[test]
fn outputs_that_would_touch_the_input_or_other_data_are_refused() {
    let d = Dir::new();
    d.script("ok.sh", "exit 0");
    write_all(&d.join("proj"), &[("a.c", "int a;\n")]);
    check_error(
        &d,
        &["--output", "proj/out", "proj"],
        7,
        &expect![[r#"
        treedd: error: --output proj/out is inside the input proj; treedd never modifies its input
    "#]],
    );
    check_error(
        &d,
        &["--output", ".", "proj"],
        7,
        &expect![[r#"
        treedd: error: --output . holds the input proj; treedd never modifies its input
    "#]],
    );
    check_error(
        &d,
        &["--output", "proj/..", "proj/a.c", "ok.sh"],
        7,
        &expect![[r#"
        treedd: error: --output proj/.. holds the input proj/a.c; treedd never modifies its input
    "#]],
    );
    check_error(
        &d,
        &["--stats", "proj/s.json", "proj"],
        7,
        &expect![[r#"
        treedd: error: --stats proj/s.json is inside the input or the output directory
    "#]],
    );
    write_all(&d.join("data"), &[("keep.txt", "precious\n")]);
    check_error(
        &d,
        &["--output", "data", "proj"],
        7,
        &expect![[r#"
        treedd: error: --output data is a directory that is not empty; treedd replaces its output directory whole, so give a new name (or remove it first)
    "#]],
    );
    d.write("file", "");
    check_error(
        &d,
        &["--output", "file", "proj"],
        9,
        &expect![[r#"
        treedd: error: cannot write output file: it exists and is not a directory; the output of a directory input is a directory
    "#]],
    );
    check_error(
        &d,
        &["--language", "c", "proj"],
        7,
        &expect![[r#"
        treedd: error: --language and --grammar choose the language of one input file; the files of a directory are reduced in the languages of their extensions (as text without a known one)
    "#]],
    );
    check_error(
        &d,
        &["--dump-tree", "proj"],
        7,
        &expect![[r#"
        treedd: error: --dump-tree and --print-tree-stats show the tree of one file, but the input is a directory
    "#]],
    );
    assert_eq!(d.read_string("data/keep.txt"), "precious\n");
    assert_eq!(d.entries(), ["data", "file", "ok.sh", "proj", "tmp"]);
}

#[test]
fn a_directory_the_oracle_rejects_gets_a_recipe_that_reproduces_it() {
    let d = Dir::new();
    write_all(
        &d.join("proj"),
        &[("a.c", "int a;\n"), ("sub/b.h", "int b;\n")],
    );
    d.script("oracle.sh", "test -f sub/b.h && test -d \"$1\" && exit 3");
    let run = d.run(&["--test", "oracle.sh", "proj"]);
    run.expect_code(5).expect_message(&d, &expect![[r#"
        treedd: error: the oracle does not find the original input interesting (exit code 3)
          the oracle must exit 0 on the original input; reproduce its run with:
          d=$(mktemp -d) && mkdir "$d"/proj && cp -a $DIR/proj/. "$d"/proj && (cd "$d"/proj && $DIR/oracle.sh "$d"/proj); echo "exit status $?"
    "#]]);
    let (_, stdout, _) = run.run_recipe();
    assert_eq!(stdout, "exit status 3\n");
    assert!(!d.join("proj.reduced").exists());
}

/// Three text files, a slow oracle that needs a line of two of them: a reduction that takes
/// long enough to be interrupted.
fn slow_case() -> (Dir, String) {
    let d = Dir::new();
    write_all(
        &d.join("proj"),
        &[
            ("a.txt", &numbers(0..30)),
            ("b.txt", &numbers(10..40)),
            ("c.txt", &numbers(0..20)),
        ],
    );
    let oracle = r#"sleep 0.1; grep -qx 3 a.txt && grep -qx 21 b.txt"#;
    d.script("oracle.sh", oracle);
    (d, oracle.to_string())
}

const SLOW_ARGS: [&str; 5] = ["--test", "oracle.sh", "--jobs", "1", "proj"];

/// Bytes of the files of a directory of files, if it is there.
fn output_size(out: &PathBuf) -> Option<u64> {
    let entries = fs::read_dir(out).ok()?;
    Some(entries.map(|e| e.unwrap().metadata().unwrap().len()).sum())
}

#[test]
fn interrupt_keeps_the_best_directory() {
    let (d, _) = slow_case();
    let before = snapshot(&d.join("proj"));
    let child = d
        .cmd()
        .args(SLOW_ARGS)
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let out = d.join("proj.reduced");
    let full = output_size(&d.join("proj")).unwrap();
    wait_for(60, "a first improvement", || {
        output_size(&out).is_some_and(|n| n < full)
    });
    let stderr = interrupt(child, "INT");
    assert!(
        stderr.contains("interrupted; the best result so far"),
        "{stderr}"
    );
    assert!(is_interesting(&d.join("oracle.sh"), "proj", &out));
    assert_eq!(snapshot(&d.join("proj")), before);
    // The state for --resume stays; no temporary directory beside the output.
    nothing_left(
        &d,
        &[
            "oracle.sh",
            "proj",
            "proj.reduced",
            "proj.reduced.treedd-state.json",
        ],
    );
    // --resume goes on from the directory Ctrl-C left to the result of a whole run.
    let mut resumed = SLOW_ARGS.to_vec();
    resumed.push("--resume");
    d.run(&resumed)
        .expect_code(0)
        .expect_stderr("resuming from proj.reduced");
    assert_eq!(listing(&out), SLOW_RESULT);
    assert_eq!(snapshot(&d.join("proj")), before);
    nothing_left(&d, &["oracle.sh", "proj", "proj.reduced"]);
}

/// What a whole reduction of [`slow_case`] gives: c.txt deleted whole, the two others by
/// lines and characters.
const SLOW_RESULT: &str = "== a.txt\n3\n== b.txt\n21\n";

#[test]
fn resume_after_sigkill_gives_the_uninterrupted_result() {
    let (whole, _) = slow_case();
    whole.run(&SLOW_ARGS).expect_code(0);
    let want = listing(&whole.join("proj.reduced"));
    assert_eq!(want, SLOW_RESULT);

    let (d, _) = slow_case();
    let mut child = d
        .cmd()
        .args(SLOW_ARGS)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let out = d.join("proj.reduced");
    let full = output_size(&d.join("proj")).unwrap();
    wait_for(60, "a first improvement", || {
        output_size(&out).is_some_and(|n| n < full)
    });
    kill(&child, "KILL");
    child.wait().unwrap();
    assert!(is_interesting(&d.join("oracle.sh"), "proj", &out));
    // The state records every file's hash.
    let state: serde_json::Value =
        serde_json::from_slice(&d.read("proj.reduced.treedd-state.json")).unwrap();
    let files = state["files"].as_object().unwrap();
    assert_eq!(
        files.keys().collect::<Vec<_>>(),
        ["a.txt", "b.txt", "c.txt"]
    );

    let mut resumed = SLOW_ARGS.to_vec();
    resumed.extend(["--resume", "--stats", "s.json"]);
    d.run(&resumed)
        .expect_code(0)
        .expect_stderr("resuming from proj.reduced");
    assert_eq!(listing(&out), want);
    assert_eq!(d.stats("s.json")["resumed"], true);
    nothing_left(&d, &["oracle.sh", "proj", "proj.reduced", "s.json"]);
}

#[test]
fn resume_names_the_files_that_changed() {
    let (d, _) = slow_case();
    let mut child = d
        .cmd()
        .args(SLOW_ARGS)
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let state = d.join("proj.reduced.treedd-state.json");
    wait_for(60, "the state file", || state.exists());
    kill(&child, "KILL");
    child.wait().unwrap();
    d.write("proj/b.txt", numbers(10..41));
    let mut resumed = SLOW_ARGS.to_vec();
    resumed.push("--resume");
    d.run(&resumed).expect_code(7).expect_message(&d, &expect![[r#"
        treedd: error: --resume: the unfinished reduction in proj.reduced differs: the input $DIR/proj has changed since (b.txt); use the same options, or start over without --resume
    "#]]);
}
