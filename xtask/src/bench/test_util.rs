//! Helpers shared by the bench modules' unit tests.

use std::fs;
use std::path::{Path, PathBuf};

use super::store::Row;
use super::suite::{load_case, Case};

/// Write an executable script.
pub(crate) fn script(path: &Path, body: &str) {
    use std::os::unix::fs::PermissionsExt as _;
    fs::write(path, body).unwrap();
    fs::set_permissions(path, fs::Permissions::from_mode(0o755)).unwrap();
}

pub(crate) fn row(case: &str, config: &str, chars: u64, runs: Option<u64>) -> Row {
    Row {
        case: case.to_string(),
        config: config.to_string(),
        jobs: 1,
        language: "c".to_string(),
        input_chars: 100,
        input_bytes: 120,
        output_chars: chars,
        output_bytes: chars + 5,
        oracle_runs: runs,
        verified: true,
        time_limit_seconds: 60.0,
        ..Row::default()
    }
}

pub(crate) fn case_in(dir: &Path, name: &str, input: &str, oracle: &str) -> Case {
    let case = dir.join(name);
    fs::create_dir_all(&case).unwrap();
    fs::write(case.join(input), "int main(void) { return 0; }\n").unwrap();
    script(&case.join("oracle.sh"), oracle);
    load_case(&case).unwrap()
}

/// A stand-in for treedd: writes the first 12 bytes of the input and a stats file, and
/// records its arguments; `extra` runs first.
pub(crate) fn fake_treedd(dir: &Path, extra: &str) -> PathBuf {
    let path = dir.join("fake-treedd");
    let args = dir.join("args.txt");
    script(
        &path,
        &format!(
            "#!/bin/sh\necho \"$@\" > {}\n{extra}\nwhile [ $# -gt 0 ]; do case \"$1\" in\n\
             --output) out=$2; shift 2;; --stats) stats=$2; shift 2;; --quiet) shift;; --*) shift 2;; *) input=$1; shift;;\n\
             esac; done\nhead -c 12 \"$input\" > \"$out\"\n\
             echo '{{\"oracle_runs\": 7, \"cache_hits\": 2, \"syntax_filtered\": 1, \"peak_rss_bytes\": 2048000}}' > \"$stats\"\n",
            args.display()
        ),
    );
    path
}
