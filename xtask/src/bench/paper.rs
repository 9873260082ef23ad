//! The papers' own figures: Tables I and II of HDD with hoisting (its examples) and the
//! dissertation's Tables 7.3-7.10, parsed from its text in `shared/papers/`.

use std::collections::{BTreeMap, HashMap};
use std::fmt::Write as _;
use std::fs;
use std::path::Path;

use treedd_reduce::{Base, Hoisting};

use super::config::Config;
use super::suite::{paper_case_name, shared_dir};
use super::tables::{comparison_table, md_escape, note_of, thousands, Cell, Index, Measure};

/// One of the paper's own examples (HDD with hoisting, Tables I and II).
pub(super) struct PaperExample {
    /// Case folder name, lower case.
    pub(super) case: &'static str,
    pub(super) input: u64,
    /// (size, test executions) for HDD*, Hoist*+HDD*, HDDH*, Hoist*+HDDH*.
    pub(super) results: [(u64, u64); 4],
}

pub(super) const PAPER_EXAMPLES: &[PaperExample] = &[
    PaperExample {
        case: "helloworld",
        input: 42,
        results: [(42, 32), (35, 26), (35, 51), (35, 26)],
    },
    PaperExample {
        case: "localizedpi",
        input: 446,
        results: [(359, 638), (186, 302), (186, 588), (186, 304)],
    },
];

pub(super) fn paper_example(case: &str) -> Option<&'static PaperExample> {
    let lower = case.to_ascii_lowercase();
    PAPER_EXAMPLES.iter().find(|e| lower == e.case)
}

/// Ours next to the paper's figures for the cases of HDD with hoisting, Tables I/II.
pub(super) fn paper_reference_table(index: &Index<'_>, cases: &[String]) -> Option<String> {
    let configs: Vec<Config> = Hoisting::ALL
        .iter()
        .map(|&h| Config::Tree(Base::Hdd, h))
        .collect();
    let mut out = String::from("| Test | Input |");
    for c in &configs {
        let _ = write!(out, " {} |", md_escape(&c.paper_name()));
    }
    out.push_str("\n|---|--:|");
    out.push_str(&"--:|".repeat(configs.len()));
    out.push('\n');
    let mut any = false;
    for case in cases {
        let Some(paper) = paper_example(case) else {
            continue;
        };
        let ours_input = configs.iter().find_map(|c| {
            index
                .get(&(case.as_str(), c.slug().as_str()))
                .map(|r| r.input_chars)
        });
        let Some(ours_input) = ours_input else {
            continue;
        };
        any = true;
        let _ = write!(out, "| {case} | {ours_input} / {} |", paper.input);
        for (c, (paper_size, paper_runs)) in configs.iter().zip(paper.results) {
            let ours = match index.get(&(case.as_str(), c.slug().as_str())) {
                Some(r) if r.error.is_none() => format!(
                    "{}{} ({})",
                    r.output_chars,
                    note_of(r),
                    r.oracle_runs.map_or("?".to_string(), thousands)
                ),
                _ => "—".to_string(),
            };
            let _ = write!(out, " {ours} / {paper_size} ({paper_runs}) |");
        }
        out.push('\n');
    }
    any.then_some(out)
}

/// The dissertation's raw data (Tables 7.3-7.10): per (base, measure), per case, the figures
/// for X*, Hoist*+X*, XH*, Hoist*+XH* (`None`: not reported).
pub(super) type PaperFigures = HashMap<(Base, Measure), BTreeMap<String, [Option<u64>; 4]>>;

/// File name of the dissertation in `shared/papers/`.
pub(super) const DISSERTATION: &str = "001_683c3f3acd8e54c1.txt";

/// First number of a table cell such as `<b>2,614</b> (-17.20%)` or `— 5,878 (+101.72%)` (the
/// text extraction moved some `—` into the next cell); `None` for `—`.
pub(super) fn paper_cell(cell: &str) -> Option<u64> {
    let cell = cell.replace("<b>", "").replace("</b>", "");
    let cell = cell.trim().trim_start_matches('—').trim_start();
    let number: String = cell
        .chars()
        .take_while(|c| c.is_ascii_digit() || *c == ',')
        .filter(char::is_ascii_digit)
        .collect();
    number.parse().ok()
}

/// Parse Tables 7.3-7.10 out of the dissertation's text.
pub(super) fn parse_paper_tables(text: &str) -> PaperFigures {
    let mut figures = PaperFigures::new();
    let mut current: Option<(Base, Measure)> = None;
    for line in text.lines() {
        if let Some(rest) = line.strip_prefix("Table 7.") {
            let n: String = rest.chars().take_while(char::is_ascii_digit).collect();
            current = match n.parse::<usize>() {
                Ok(n @ 3..=10) if rest[n.to_string().len()..].starts_with(':') => {
                    let base = Base::ALL[(n - 3) / 2];
                    let measure = if n % 2 == 1 {
                        Measure::Size
                    } else {
                        Measure::Runs
                    };
                    Some((base, measure))
                }
                _ => None,
            };
            continue;
        }
        let Some(key) = current else { continue };
        let cells: Vec<&str> = line.split('\t').collect();
        let is_case = cells.len() == 5
            && (cells[0].starts_with("clang-")
                || cells[0].starts_with("gcc-")
                || cells[0].starts_with("jerry-"));
        if is_case {
            let values = [1, 2, 3, 4].map(|i| paper_cell(cells[i]));
            figures
                .entry(key)
                .or_default()
                .insert(cells[0].to_string(), values);
        } else if !line.trim().is_empty() && !line.starts_with("Test\t") {
            current = None;
        }
    }
    figures
}

pub(super) fn load_paper_tables(root: &Path) -> PaperFigures {
    shared_dir(root)
        .and_then(|s| fs::read_to_string(s.join("papers").join(DISSERTATION)).ok())
        .map(|t| parse_paper_tables(&t))
        .unwrap_or_default()
}

/// The dissertation's figures for our cases, in the same table format; `None` if it has none.
pub(super) fn paper_family_table(
    paper: &PaperFigures,
    base: Base,
    measure: Measure,
    cases: &[String],
) -> Option<String> {
    let table = paper.get(&(base, measure))?;
    let rows: Vec<(String, Vec<Option<Cell>>)> = cases
        .iter()
        .filter_map(|case| {
            let name = paper_case_name(case);
            let values = table.get(&name)?;
            let cells = values
                .iter()
                .map(|v| {
                    v.map(|v| Cell {
                        value: Some(v),
                        note: "",
                    })
                })
                .collect();
            Some((name, cells))
        })
        .collect();
    if rows.is_empty() {
        return None;
    }
    let columns: Vec<String> = Hoisting::ALL
        .iter()
        .map(|&h| Config::Tree(base, h).paper_name())
        .collect();
    Some(comparison_table(&columns, &rows))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_dissertations_tables_are_parsed() {
        let text = "7.3\tHoisting and HDD Output Sizes . . . . .\t75\n\
            Table 7.3: Hoisting and HDD Output Sizes\n\n\
            Test\tHDD*\tHoist*+HDD*\tHDDH*\tHoist*+HDDH*\n\
            clang-22382\t582\t489 (-15.98%)\t<b>475</b> (-18.38%)\t489 (-15.98%)\n\
            gcc-70127\t—\t992 —\t<b>915</b> —\t947 —\n\
            jerry-3433\t<b>18</b>\t<b>18</b> —\t<b>18</b> —\t<b>18</b> —\n\n\
            Table 7.10: Coarse Hoisting and HDD<sup>r</sup> Number of Test Executions\n\n\
            clang-22382\t3,157\t<b>2,614</b> (-17.20%)\t3,157\t— <b>2,614</b> (-17.20%)\n\n\
            *A quote.*\n\
            jerry-9999\t1\t2\t3\t4\n";
        let figures = parse_paper_tables(text);
        assert_eq!(figures.len(), 2);
        let hdd = &figures[&(Base::Hdd, Measure::Size)];
        assert_eq!(
            hdd["clang-22382"],
            [Some(582), Some(489), Some(475), Some(489)]
        );
        assert_eq!(hdd["gcc-70127"], [None, Some(992), Some(915), Some(947)]);
        assert_eq!(hdd["jerry-3433"], [Some(18); 4]);
        let coarse = &figures[&(Base::CoarseHddr, Measure::Runs)];
        assert_eq!(
            coarse["clang-22382"],
            [Some(3157), Some(2614), Some(3157), Some(2614)]
        );
        assert_eq!(
            coarse.len(),
            1,
            "rows after the table ended are not part of it"
        );

        let cases = vec![
            "3433".to_string(),
            "clang-22382".to_string(),
            "mine".to_string(),
        ];
        let table = paper_family_table(&figures, Base::Hdd, Measure::Size, &cases).unwrap();
        assert!(
            table.contains("| jerry-3433 | **18** | **18** — |"),
            "{table}"
        );
        assert!(
            table.contains("| clang-22382 | 582 | 489 (-15.98%) | **475** (-18.38%) |"),
            "{table}"
        );
        assert!(!table.contains("mine"));
        assert!(paper_family_table(&figures, Base::Hddr, Measure::Size, &cases).is_none());
    }
}
