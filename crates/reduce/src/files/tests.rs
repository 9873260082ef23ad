use std::path::Path;

use treedd_proc::FileEntry;

use super::*;
use crate::engine::observer::Recorder;
use crate::engine::FnOracle;
use crate::JudgeOptions;

/// Judge options whose observer is `recorder`.
fn observed(recorder: &Arc<Recorder>) -> JudgeOptions {
    JudgeOptions {
        observer: Some(Arc::clone(recorder) as Arc<dyn crate::Observer>),
        ..JudgeOptions::default()
    }
}

fn tree(files: &[(&str, &str)]) -> Files {
    Files::new(
        files
            .iter()
            .map(|(p, t)| FileEntry::file(*p, 0o644, t.as_bytes().to_vec()))
            .collect(),
    )
    .unwrap()
}

fn text(files: &Files, path: &str) -> Option<String> {
    let i = files.position(Path::new(path))?;
    Some(String::from_utf8(files.entries()[i].bytes.clone()).unwrap())
}

/// The name of the first function `a.h` declares (`int NAME(`).
fn declared(files: &Files) -> Option<String> {
    let h = text(files, "a.h")?;
    let at = h.find('(')?;
    let name = h[..at]
        .rsplit(|c: char| !c.is_alphanumeric() && c != '_')
        .next()?;
    (!name.is_empty()).then(|| name.to_string())
}

/// A header, two sources and a note: interesting while the note says "bug", `a.h` declares a
/// function and `a.c` calls it (by the same name, whatever it is).
fn case() -> (
    Files,
    impl Fn(&Files) -> bool + Send + Sync + Clone + 'static,
) {
    let files = tree(&[
        ("a.h", "int helper_function(int value);\nint unused_thing;\n"),
        (
            "a.c",
            "#include \"a.h\"\nint other(void) { return 3; }\nint main(void) { return helper_function(2); }\n",
        ),
        ("b.c", "int twice(int x) { return x * 2; }\n"),
        ("notes.txt", "line one\nthe bug here\nline three\n"),
    ]);
    let oracle = |f: &Files| {
        let note = text(f, "notes.txt").is_some_and(|t| t.contains("bug"));
        let call = match (declared(f), text(f, "a.c")) {
            (Some(name), Some(c)) => c.contains(&format!("{name}(")),
            _ => false,
        };
        note && call
    };
    (files, oracle)
}

fn reduce(jobs: usize) -> (Files, Arc<Judge>, Arc<Recorder>, u64) {
    let (files, oracle) = case();
    let fn_oracle = Arc::new(FnOracle::new(move |c: &[u8]| {
        oracle(&Files::decode(c).unwrap())
    }));
    let recorder = Arc::new(Recorder::default());
    let judge = Arc::new(Judge::new(
        Box::new(Arc::clone(&fn_oracle)),
        observed(&recorder),
    ));
    let mut tree = TreeConfig::default();
    tree.ddmin.jobs = jobs;
    let config = FilesConfig {
        tree,
        text: TextUnit::LineThenChar,
        text_only: false,
        syntax_filter: true,
    };
    let start = files.encode();
    let out = reduce_files(&judge, &start, &start, &config).text;
    (
        Files::decode(&out).unwrap(),
        judge,
        recorder,
        fn_oracle.runs(),
    )
}

#[test]
fn files_are_deleted_whole_reduced_in_their_languages_and_renamed_across() {
    let (out, judge, recorder, runs) = reduce(1);
    // b.c is not needed.
    let paths: Vec<_> = out.entries().iter().map(|e| e.path.clone()).collect();
    assert_eq!(
        paths,
        ["a.c", "a.h", "notes.txt"].map(std::path::PathBuf::from)
    );
    // The text file by lines and characters, the C files by their trees, and the function's
    // name renamed in both.
    assert_eq!(text(&out, "notes.txt").unwrap(), "bug");
    let name = declared(&out).unwrap();
    assert_eq!(name.len(), 1, "{out:?}");
    assert!(text(&out, "a.c").unwrap().contains(&format!("{name}(")));
    assert!(!text(&out, "a.h").unwrap().contains("unused_thing"));
    // Every oracle run is counted once, in the whole's judge; the files' steps are recorded
    // under their paths.
    let stats = judge.stats();
    assert_eq!(stats.oracle_runs, runs);
    assert!(stats.tests >= runs);
    let passes: Vec<String> = recorder.records().into_iter().map(|r| r.pass).collect();
    for want in [
        "whole files",
        "a.h: tree",
        "notes.txt: text",
        "rename (across files)",
    ] {
        assert!(
            passes.iter().any(|p| p.starts_with(want)),
            "{want} not in {passes:?}"
        );
    }
}

#[test]
fn jobs_do_not_change_the_result() {
    assert_eq!(reduce(1).0, reduce(3).0);
}

#[test]
fn a_cancelled_judge_reaches_the_file_under_way() {
    let (files, oracle) = case();
    let recorder = Arc::new(Recorder::default());
    let judge: Arc<Judge> = Arc::new(Judge::new(
        Box::new(FnOracle::new(move |c: &[u8]| {
            oracle(&Files::decode(c).unwrap())
        })),
        observed(&recorder),
    ));
    let start = files.encode();
    let part = judge.nested(
        "a.c",
        1,
        Box::new({
            let f = files.clone();
            move |c: &[u8]| f.encode_replacing(0, c)
        }),
        None,
        None,
    );
    assert_eq!(recorder.phase(), "a.c: ");
    part.phase("hdd");
    assert_eq!(recorder.phase(), "a.c: hdd");
    judge.cancel();
    assert!(part.is_cancelled());
    judge.end_nested(&part);
    // A part made after the cancel starts cancelled.
    let late = judge.nested("b.c", 1, Box::new(|c: &[u8]| c.to_vec()), None, None);
    assert!(late.is_cancelled());
    judge.end_nested(&late);
    let config = FilesConfig {
        tree: TreeConfig::default(),
        text: TextUnit::Line,
        text_only: false,
        syntax_filter: true,
    };
    assert_eq!(reduce_files(&judge, &start, &start, &config).text, start);
}

/// Reduce `files` with the `balanced` preset under `oracle`, one job.
fn reduce_with(
    files: &Files,
    oracle: impl Fn(&Files) -> bool + Send + Sync + 'static,
) -> (Files, Arc<Recorder>) {
    let recorder = Arc::new(Recorder::default());
    let judge = Arc::new(Judge::new(
        Box::new(FnOracle::new(move |c: &[u8]| {
            oracle(&Files::decode(c).unwrap())
        })),
        observed(&recorder),
    ));
    let mut tree = TreeConfig::default();
    tree.ddmin.jobs = 1;
    let config = FilesConfig {
        tree,
        text: TextUnit::LineThenChar,
        text_only: false,
        syntax_filter: true,
    };
    let start = files.encode();
    let out = reduce_files(&judge, &start, &start, &config).text;
    (Files::decode(&out).unwrap(), recorder)
}

#[test]
fn a_parameter_is_removed_from_the_prototype_the_definition_and_the_calls_together() {
    let files = tree(&[
        ("a.h", "int f(int x, int unused);\n"),
        (
            "a.c",
            "#include \"a.h\"\nint f(int x, int unused) { return x; }\n",
        ),
        (
            "b.c",
            "#include \"a.h\"\nint g(void) { return f(1, 2) + f(3, 4); }\n",
        ),
    ]);
    // Interesting while `a.h` declares the function, `a.c` defines it with `x` first and `b.c`
    // calls it twice, all by one name, and all agree on the number of parameters: no file
    // alone can drop one.
    let (out, recorder) = reduce_with(&files, |f| {
        let t = |p: &str| text(f, p).unwrap_or_default();
        let commas = |p: &str| t(p).matches(',').count();
        let Some(name) = declared(f) else {
            return false;
        };
        t("a.h").contains(&format!("{name}(int x"))
            && t("a.c").contains(&format!("{name}(int x"))
            && t("b.c").matches(&format!("{name}(")).count() == 2
            && commas("a.h") == commas("a.c")
            && commas("b.c") == 2 * commas("a.h")
    });
    for path in ["a.h", "a.c", "b.c"] {
        let t = text(&out, path).unwrap();
        assert!(!t.contains(','), "{path}: {t:?}");
    }
    let records = recorder.records();
    let params = (records.iter()).any(|r| r.pass == "params (across files)" && r.chars_removed > 0);
    assert!(params, "{records:?}");
}
