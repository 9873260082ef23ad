//! Text reduction end to end through the binary, with shell-script oracles on files of one
//! number per line: the mock-SUT examples of Practical improvements' Table 1 (their 1-minimal answers are unique),
//! the default output path, `--jobs`, `--stats`, non-UTF-8 input.

use crate::util::{is_interesting, numbers, Dir};

/// Example A: {5, 8} ⊆ c ∧ (2 ∈ c ∨ 7 ∉ c) over 1..=8; the unique 1-minimal answer is {5, 8}.
pub const EXAMPLE_A: &str = r#"has() { grep -qx "$1" "$file"; }
file=$1; has 5 && has 8 && { has 2 || ! has 7; }"#;

/// Example D: {2x | 0 <= x < 50} ⊆ c over 0..100 (lines are distinct, so counting suffices).
const EXAMPLE_D: &str = r#"test "$(grep -cE '^[0-9]*[02468]$' "$1")" -eq 50"#;

fn evens() -> String {
    (0..50).map(|x| format!("{}\n", 2 * x)).collect()
}

#[test]
fn example_a_reduces_to_its_unique_answer() {
    for jobs in ["1", "3"] {
        let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
        d.run(&[
            "--test",
            "./oracle.sh",
            "--unit",
            "line",
            "--jobs",
            jobs,
            "input.txt",
        ])
        .expect_code(0);
        assert_eq!(d.read_string("input.reduced.txt"), "5\n8\n", "jobs {jobs}");
        assert!(d.tmp_entries().is_empty());
    }
}

#[test]
fn example_d_reduces_to_its_unique_answer() {
    let d = Dir::text_case(numbers(0..100), EXAMPLE_D);
    d.reduce(&["--unit", "line", "--jobs", "2", "-q"])
        .expect_code(0);
    assert_eq!(d.read_string("input.reduced.txt"), evens());
}

#[test]
fn default_output_path_and_input_untouched() {
    let d = Dir::new();
    let input = numbers(1..9);
    d.write("crash.txt", &input);
    d.script("oracle.sh", EXAMPLE_A);
    d.run(&["--test", "oracle.sh", "--language", "text", "crash.txt"])
        .expect_code(0);
    assert_eq!(d.read_string("crash.txt"), input);
    assert_eq!(d.read_string("crash.reduced.txt"), "5\n8");
    // Nothing else appears next to the input (no temporary files of the atomic writes).
    assert_eq!(
        d.entries(),
        ["crash.reduced.txt", "crash.txt", "oracle.sh", "tmp"]
    );
}

#[test]
fn explicit_output_path() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    std::fs::create_dir(d.join("out")).unwrap();
    d.reduce(&["-o", "out/min.txt"]).expect_code(0);
    // line+char (the default) also removes the last newline.
    assert_eq!(d.read_string("out/min.txt"), "5\n8");
    assert!(!d.join("input.reduced.txt").exists());
}

#[test]
fn jobs_do_not_change_the_result() {
    // Many 1-minimal answers: any two lines containing a 3 or a 7, reduced further by chars.
    let d = Dir::text_case(numbers(0..60), r#"test "$(grep -c '[37]' "$1")" -ge 2"#);
    let mut results = Vec::new();
    for jobs in ["1", "2"] {
        let out = format!("out{jobs}.txt");
        d.reduce(&["-j", jobs, "-o", &out]).expect_code(0);
        results.push(d.read(&out));
    }
    assert_eq!(results[0], results[1]);
    assert!(
        results[0].len() <= 4,
        "{:?}",
        String::from_utf8_lossy(&results[0])
    );
}

#[test]
fn stats_have_the_documented_fields() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    let run = d.reduce(&["--unit", "line", "--stats", "stats.json"]);
    run.expect_code(0);
    let s: serde_json::Value = d.stats("stats.json");
    assert_eq!(s["algorithm"], "ddmin");
    assert_eq!(s["hoist"], "none");
    assert_eq!(s["unit"], "line");
    assert_eq!(s["language"], "text");
    // --jobs defaults to the number of CPUs.
    let cpus = std::thread::available_parallelism().map_or(1, |n| n.get());
    assert_eq!(s["jobs"], cpus);
    assert_eq!(s["input_bytes"], 16);
    assert_eq!(s["output_bytes"], 4);
    assert_eq!(s["input_chars"], 8);
    assert_eq!(s["output_chars"], 2);
    assert_eq!(s["interrupted"], false);
    assert_eq!(s["syntax_filtered"], 0);
    // The original's check plus at least the tests that removed six elements.
    let runs = s["oracle_runs"].as_u64().unwrap();
    assert!((4..100).contains(&runs), "{s}");
    assert!(s["cache_hits"].as_u64().is_some());
    let wall = s["wall_seconds"].as_f64().unwrap();
    assert!(wall > 0.0);
    // treedd's own CPU: some, and less than it could have used on every CPU.
    let cpu = s["cpu_seconds"].as_f64().unwrap();
    assert!(cpu > 0.0 && cpu < wall * cpus as f64 + 0.1, "{s}");
    assert!(s["peak_rss_bytes"].as_u64().unwrap() > 1_000_000);
    assert!(s["peak_oracle_rss_bytes"].as_u64().unwrap() > 0);
    // The summary line repeats the main figures.
    run.expect_stderr(&format!(
        "16 -> 4 bytes (75.0% smaller), 8 -> 2 non-whitespace chars, {runs} oracle runs"
    ));
    run.expect_stderr("result in input.reduced.txt");
}

#[test]
fn stats_trace_records_every_improvement() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    d.reduce(&["--unit", "line", "--jobs", "1", "--stats", "s.json"])
        .expect_code(0);
    let s = d.stats("s.json");
    let trace = s["trace"].as_array().expect("a trace");
    assert!(!trace.is_empty(), "{s}");
    let point = |p: &serde_json::Value| {
        (
            p["oracle_runs"].as_u64().unwrap(),
            p["seconds"].as_f64().unwrap(),
            p["size"].as_u64().unwrap(),
        )
    };
    let points: Vec<(u64, f64, u64)> = trace.iter().map(point).collect();
    for w in points.windows(2) {
        assert!(
            w[0].0 < w[1].0 && w[0].1 <= w[1].1 && w[0].2 > w[1].2,
            "{points:?}"
        );
    }
    // After the check of the original; the last improvement is the result.
    assert!(points[0].0 >= 2, "{points:?}");
    assert!(points.last().unwrap().0 <= s["oracle_runs"].as_u64().unwrap());
    assert_eq!(
        points.last().unwrap().2,
        s["output_chars"].as_u64().unwrap()
    );
}

#[test]
fn quiet_prints_nothing() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    let run = d.reduce(&["--quiet"]);
    run.expect_code(0);
    assert_eq!(run.stderr, "");
    assert_eq!(run.stdout, "");
}

#[test]
fn plain_progress_lines_when_stderr_is_not_a_terminal() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    // One job: the check of the input comes first (with more it runs alongside the reduction).
    let run = d.reduce(&["--unit", "line", "--jobs", "1"]);
    run.expect_code(0)
        .expect_stderr("treedd: checking the input: 16 / 16 bytes (100.0%)")
        .expect_stderr("treedd: 16 -> 4 bytes");
    // The first tick of the reduction always logs a line for its phase; which label it shows
    // (the CLI's "ddmin (line)" or the text pass's own "text: lines") depends on timing.
    assert!(
        run.stderr
            .lines()
            .any(|l| (l.starts_with("treedd: ddmin (line): ")
                || l.starts_with("treedd: text: lines: "))
                && l.contains(" / 16 bytes (")),
        "no progress line for the reduction phase:\n{}",
        run.stderr
    );
    assert!(
        !run.stderr.contains('\u{1b}'),
        "escape codes in plain output"
    );
}

#[test]
fn non_utf8_input_is_reduced_as_bytes() {
    let d = Dir::new();
    let input: &[u8] = b"\xff\xfe junk \x80\nkeep \xc3\x28 me\n\xfe\xfe\n";
    d.write("input.bin", input);
    d.script("oracle.sh", r#"grep -q 'keep' "$1""#);
    d.run(&[
        "--test",
        "oracle.sh",
        "--language",
        "text",
        "--unit",
        "line",
        "input.bin",
    ])
    .expect_code(0);
    assert_eq!(d.read("input.reduced.bin"), b"keep \xc3\x28 me\n");
    assert_eq!(d.read("input.bin"), input);
}

#[test]
fn result_is_interesting() {
    let d = Dir::new();
    d.write("input.txt", numbers(0..40));
    let oracle = d.script("oracle.sh", r#"test "$(grep -c '[37]' "$1")" -ge 2"#);
    d.reduce(&["--unit", "line+char", "-q"]).expect_code(0);
    assert!(is_interesting(
        &oracle,
        "input.txt",
        &d.read("input.reduced.txt")
    ));
}

#[test]
fn live_progress_on_a_terminal() {
    // util-linux `script` gives treedd a pseudo-terminal as stderr.
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    let bin = env!("CARGO_BIN_EXE_treedd");
    let out = std::process::Command::new("script")
        .args([
            "-qec",
            &format!("{bin} --test oracle.sh --unit line input.txt"),
            "/dev/null",
        ])
        .current_dir(&d.path)
        .env("TMPDIR", d.join("tmp"))
        .output()
        .expect("cannot run script(1)");
    let tty = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(0), "{tty}");
    // The live line (redrawn with escape codes) and the summary.
    assert!(tty.contains("\u{1b}["), "{tty}");
    assert!(tty.contains("bytes ("), "{tty}");
    assert!(tty.contains("treedd: 16 -> 4 bytes"), "{tty}");
    assert_eq!(d.read_string("input.reduced.txt"), "5\n8\n");
}

#[test]
fn split_factor_and_cache_options_keep_the_answer() {
    let d = Dir::text_case(numbers(1..9), EXAMPLE_A);
    for extra in [
        &["--split-factor", "3"][..],
        &["--split-factor", "8"],
        &["--no-cache"],
    ] {
        let mut args = vec!["--test", "oracle.sh", "--unit", "line", "--stats", "s.json"];
        args.extend_from_slice(extra);
        args.push("input.txt");
        d.run(&args).expect_code(0);
        assert_eq!(d.read_string("input.reduced.txt"), "5\n8\n", "{extra:?}");
    }
    let s: serde_json::Value = d.stats("s.json");
    assert_eq!(s["cache"], false);
    assert_eq!(s["cache_hits"], 0);
}

#[test]
fn cache_hits_are_reported() {
    let d = Dir::text_case(numbers(0..40), r#"test "$(grep -c '[37]' "$1")" -ge 2"#);
    d.reduce(&["--stats", "s.json", "-q"]).expect_code(0);
    let s: serde_json::Value = d.stats("s.json");
    assert!(s["cache_hits"].as_u64().unwrap() > 0, "{s}");
    assert!(s["cache_peak_entries"].as_u64().unwrap() > 0, "{s}");
}
