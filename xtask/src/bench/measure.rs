//! Measures (the papers' size), dates and the machine, for rows and reports.

use std::fs;
use std::time::{SystemTime, UNIX_EPOCH};

/// The papers' size measure: characters that are not whitespace.
pub(super) fn nonws_chars(bytes: &[u8]) -> u64 {
    String::from_utf8_lossy(bytes)
        .chars()
        .filter(|c| !c.is_whitespace())
        .count() as u64
}

/// Seconds since the epoch as `YYYY-MM-DD HH:MM UTC`.
pub(super) fn format_utc(secs: u64) -> String {
    // Howard Hinnant's days-to-civil algorithm.
    let days = (secs / 86_400) as i64;
    let rem = secs % 86_400;
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!(
        "{y:04}-{m:02}-{d:02} {:02}:{:02} UTC",
        rem / 3_600,
        rem % 3_600 / 60
    )
}

pub(super) fn now_utc() -> String {
    let secs = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_secs())
        .unwrap_or(0);
    format_utc(secs)
}

/// `nproc`, memory and CPU model of this machine, for reports.
pub(super) fn machine_summary() -> String {
    let cpus = std::thread::available_parallelism()
        .map(|n| n.get())
        .unwrap_or(1);
    let meminfo = fs::read_to_string("/proc/meminfo").unwrap_or_default();
    let mem_gib = meminfo
        .lines()
        .find_map(|l| l.strip_prefix("MemTotal:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<f64>().ok())
        .map(|kib| format!("{:.1} GiB RAM", kib / 1024.0 / 1024.0))
        .unwrap_or_else(|| "unknown RAM".to_string());
    let cpuinfo = fs::read_to_string("/proc/cpuinfo").unwrap_or_default();
    let model = cpuinfo
        .lines()
        .find_map(|l| l.strip_prefix("model name"))
        .map(|v| v.trim_start_matches([' ', '\t', ':']).trim().to_string())
        .unwrap_or_else(|| "unknown CPU".to_string());
    format!("{cpus} CPUs (nproc), {model}, {mem_gib}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nonws_chars_counts_what_the_papers_count() {
        assert_eq!(nonws_chars(b"int main ( ) {\n\treturn 0;\n}\n"), 19);
        assert_eq!(nonws_chars(b""), 0);
        assert_eq!(nonws_chars(" \u{e9}t\u{e9} ".as_bytes()), 3);
    }
}
