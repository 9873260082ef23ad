//! SVG plots: Figure 7.9-style scatter plots of hoisting's effect, and progress curves (size
//! over oracle runs).

use std::path::Path;

use anyhow::{anyhow, Result};
use treedd_reduce::{Base, Hoisting};

use super::config::{hoisting_column, Config};
use super::store::{Row, TracePoint};
use super::tables::Index;

/// The series colours of both kinds of plot.
const PALETTE: [plotters::style::RGBColor; 10] = {
    use plotters::style::RGBColor;
    [
        RGBColor(31, 119, 180),
        RGBColor(214, 39, 40),
        RGBColor(44, 160, 44),
        RGBColor(255, 127, 14),
        RGBColor(148, 103, 189),
        RGBColor(140, 86, 75),
        RGBColor(227, 119, 194),
        RGBColor(127, 127, 127),
        RGBColor(188, 189, 34),
        RGBColor(23, 190, 207),
    ]
};

/// Points of a Figure 7.9 panel: (change in size %, change in oracle runs %) of every case
/// reduced with a hoisting variant of `base`, one series per hoisting combination.
pub(super) fn scatter_points(
    index: &Index<'_>,
    cases: &[String],
    base: Base,
) -> Vec<(String, Vec<(f64, f64)>)> {
    let base_slug = Config::Tree(base, Hoisting::None).slug();
    Hoisting::ALL[1..]
        .iter()
        .map(|&h| {
            let config = Config::Tree(base, h);
            let slug = config.slug();
            let points = cases
                .iter()
                .filter_map(|case| {
                    let b = index.get(&(case.as_str(), base_slug.as_str()))?;
                    let r = index.get(&(case.as_str(), slug.as_str()))?;
                    if b.error.is_some() || r.error.is_some() || b.output_chars == 0 {
                        return None;
                    }
                    let (b_runs, r_runs) = (b.oracle_runs?, r.oracle_runs?);
                    if b_runs == 0 {
                        return None;
                    }
                    let pct = |base: u64, v: u64| (v as f64 - base as f64) / base as f64 * 100.0;
                    Some((pct(b.output_chars, r.output_chars), pct(b_runs, r_runs)))
                })
                .collect();
            (
                format!("{} ({})", config.paper_name(), hoisting_column(h)),
                points,
            )
        })
        .collect()
}

/// Draw one panel of Figure 7.9 as SVG.
pub(super) fn scatter_svg(
    path: &Path,
    title: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<()> {
    use plotters::prelude::*;

    let all: Vec<(f64, f64)> = series.iter().flat_map(|(_, p)| p.iter().copied()).collect();
    let bounds = |sel: fn(&(f64, f64)) -> f64| {
        let lo = all.iter().map(sel).fold(-10.0f64, f64::min);
        let hi = all.iter().map(sel).fold(10.0f64, f64::max);
        let pad = (hi - lo) * 0.08;
        (lo - pad)..(hi + pad)
    };
    let (xr, yr) = (bounds(|p| p.0), bounds(|p| p.1));
    let err = |e: &dyn std::fmt::Display| anyhow!("plotting {}: {e}", path.display());
    let root = SVGBackend::new(path, (720, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(xr.clone(), yr.clone())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc("change in output size vs base (%)")
        .y_desc("change in oracle runs vs base (%)")
        .draw()
        .map_err(|e| err(&e))?;
    let axis = BLACK.stroke_width(1);
    chart
        .draw_series(LineSeries::new([(0.0, yr.start), (0.0, yr.end)], axis))
        .map_err(|e| err(&e))?;
    chart
        .draw_series(LineSeries::new([(xr.start, 0.0), (xr.end, 0.0)], axis))
        .map_err(|e| err(&e))?;
    for (i, (name, points)) in series.iter().enumerate() {
        // The first three colours of the palette, one marker shape each.
        let color = PALETTE[i % 3];
        let style = color.filled();
        let label = format!("{name}: {} cases", points.len());
        // One series of `$shape` markers, the same marker in the legend. (A macro: the
        // markers are different types, drawn at data and at pixel coordinates.)
        macro_rules! markers {
            ($shape:ident, $size:expr, $style:expr) => {
                chart
                    .draw_series(points.iter().map(|&p| $shape::new(p, $size, $style)))
                    .map_err(|e| err(&e))?
                    .label(label)
                    .legend(move |(x, y)| $shape::new((x, y), $size, $style))
            };
        }
        match i % 3 {
            0 => markers!(Circle, 5, style),
            1 => markers!(TriangleMarker, 6, style),
            _ => {
                let stroke = color.stroke_width(2);
                markers!(Cross, 5, stroke)
            }
        };
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.85))
        .border_style(BLACK)
        .draw()
        .map_err(|e| err(&e))?;
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

/// A progress curve: from the input's size at 0 oracle runs, a step down at every trace
/// point, flat to the run's last oracle run. `None` without a trace.
pub(super) fn curve_points(row: &Row) -> Option<Vec<(f64, f64)>> {
    let end = row.oracle_runs.map(|r| r as f64);
    steps(row, |p| p.oracle_runs as f64, end)
}

/// The same over wall time in seconds: flat to the end of the run.
pub(super) fn time_curve_points(row: &Row) -> Option<Vec<(f64, f64)>> {
    steps(row, |p| p.seconds, Some(row.wall_seconds))
}

/// Steps down from the input's size at x = 0 at every trace point (at `x(point)`), flat to
/// `end` (or the last point).
fn steps(row: &Row, x: impl Fn(&TracePoint) -> f64, end: Option<f64>) -> Option<Vec<(f64, f64)>> {
    let trace = row.usable_trace()?;
    let mut size = row.input_chars as f64;
    let mut points = vec![(0.0, size)];
    for p in trace {
        let x = x(p);
        points.push((x, size));
        size = p.size as f64;
        points.push((x, size));
    }
    let last = end.unwrap_or(points[points.len() - 1].0);
    points.push((last.max(points[points.len() - 1].0), size));
    Some(points)
}

/// Size-over-wall-time curves: x in minutes when the longest run took more than 10 minutes,
/// in seconds otherwise, with a dotted line at each checkpoint of `marks` (seconds) in range.
pub(super) fn time_curves_svg(
    path: &Path,
    title: &str,
    series: &[(String, Vec<(f64, f64)>)],
    marks: &[u64],
) -> Result<()> {
    let x_max = series
        .iter()
        .flat_map(|(_, p)| p.iter().map(|q| q.0))
        .fold(0.0f64, f64::max);
    let (unit, per) = if x_max > 600.0 {
        ("minutes", 60.0)
    } else {
        ("seconds", 1.0)
    };
    let scaled: Vec<(String, Vec<(f64, f64)>)> = series
        .iter()
        .map(|(n, p)| (n.clone(), p.iter().map(|&(x, y)| (x / per, y)).collect()))
        .collect();
    let marks: Vec<f64> = marks
        .iter()
        .map(|&m| m as f64 / per)
        .filter(|&m| m <= x_max / per)
        .collect();
    draw_curves(
        path,
        title,
        &format!("wall time ({unit})"),
        "output size (non-whitespace chars, log scale)",
        &scaled,
        &marks,
    )
}

/// Draw progress curves over oracle runs, one line per configuration, size on a log scale.
pub(super) fn curves_svg(
    path: &Path,
    title: &str,
    series: &[(String, Vec<(f64, f64)>)],
) -> Result<()> {
    draw_curves(
        path,
        title,
        "oracle runs",
        "output size (non-whitespace chars)",
        series,
        &[],
    )
}

/// Draw progress curves, one line per configuration, size on a log scale, with a dotted
/// vertical line at each x of `marks`.
fn draw_curves(
    path: &Path,
    title: &str,
    x_desc: &str,
    y_desc: &str,
    series: &[(String, Vec<(f64, f64)>)],
    marks: &[f64],
) -> Result<()> {
    use plotters::prelude::*;

    let all = series.iter().flat_map(|(_, p)| p.iter().copied());
    let (mut x_max, mut y_max, mut y_min) = (1.0f64, 10.0f64, f64::INFINITY);
    for (x, y) in all {
        x_max = x_max.max(x);
        y_max = y_max.max(y);
        y_min = y_min.min(y);
    }
    // The size axis starts at the power of ten below the smallest size (at 1 at least).
    let y_low = if y_min.is_finite() && y_min >= 1.0 {
        10f64.powi(y_min.log10().floor() as i32).min(y_max / 10.0)
    } else {
        1.0
    }
    .max(1.0);
    let err = |e: &dyn std::fmt::Display| anyhow!("plotting {}: {e}", path.display());
    // The legend gets its own column right of the plot, so it never hides a curve.
    let root = SVGBackend::new(path, (960, 540)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| err(&e))?;
    let (plot, legend) = root.split_horizontally(720);
    let mut chart = ChartBuilder::on(&plot)
        .caption(title, ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(45)
        .y_label_area_size(60)
        .build_cartesian_2d(0.0..x_max * 1.02, (y_low..y_max * 1.2).log_scale())
        .map_err(|e| err(&e))?;
    chart
        .configure_mesh()
        .light_line_style(WHITE)
        .x_desc(x_desc)
        .y_desc(y_desc)
        .x_label_formatter(&|x| format!("{x:.0}"))
        .y_label_formatter(&|y| format!("{y:.0}"))
        .draw()
        .map_err(|e| err(&e))?;
    let grey = RGBColor(170, 170, 170).stroke_width(1);
    for &m in marks {
        chart
            .draw_series(DashedLineSeries::new(
                [(m, y_low), (m, y_max * 1.2)],
                2,
                4,
                grey,
            ))
            .map_err(|e| err(&e))?;
    }
    for (i, (name, points)) in series.iter().enumerate() {
        let style = PALETTE[i % PALETTE.len()].stroke_width(2);
        // Every other round of the colors is dashed, so no two series look alike.
        let dashed = (i / PALETTE.len()) % 2 == 1;
        let points: Vec<(f64, f64)> = points.iter().map(|&(x, y)| (x, y.max(y_low))).collect();
        if dashed {
            chart
                .draw_series(DashedLineSeries::new(points, 6, 4, style))
                .map_err(|e| err(&e))?;
        } else {
            chart
                .draw_series(LineSeries::new(points, style))
                .map_err(|e| err(&e))?;
        }
        let y = 50 + 22 * i as i32;
        let dashes: &[(i32, i32)] = if dashed {
            &[(10, 16), (20, 26), (30, 34)]
        } else {
            &[(10, 34)]
        };
        for &(a, b) in dashes {
            legend
                .draw(&PathElement::new([(a, y), (b, y)], style))
                .map_err(|e| err(&e))?;
        }
        legend
            .draw(&Text::new(
                name.clone(),
                (42, y - 7),
                ("sans-serif", 13).into_font(),
            ))
            .map_err(|e| err(&e))?;
    }
    root.present().map_err(|e| err(&e))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::bench::tables::{cases_of, index};
    use crate::bench::test_util::row;

    #[test]
    fn scatter_points_are_changes_against_the_base() {
        let rows = vec![
            row("x", "hdd", 100, Some(200)),
            row("x", "hoist+hdd", 50, Some(300)),
            row("x", "hddh", 80, Some(100)),
            row("y", "hoist+hdd", 10, Some(10)), // no base: no point
            row("z", "hdd", 40, None),
            row("z", "hddh", 20, Some(7)), // base did not report runs: no point
        ];
        let idx = index(&rows, 1);
        let points = scatter_points(&idx, &cases_of(&rows), Base::Hdd);
        assert_eq!(points.len(), 3);
        assert_eq!(points[0].0, "Hoist*+HDD* (Preprocessing)");
        assert_eq!(points[0].1, [(-50.0, 50.0)]);
        assert_eq!(points[1].1, [(-20.0, -50.0)]);
        assert!(points[2].1.is_empty());
    }

    #[test]
    fn curves_step_down_at_every_improvement() {
        use crate::bench::store::TracePoint;
        let mut r = row("x", "hdd", 30, Some(12));
        assert_eq!(curve_points(&r), None, "no trace, no curve");
        let tp = |oracle_runs, size| TracePoint {
            oracle_runs,
            seconds: 0.0,
            size,
        };
        r.trace = Some(vec![tp(2, 60), tp(5, 30)]);
        assert_eq!(
            curve_points(&r).unwrap(),
            [
                (0.0, 100.0),
                (2.0, 100.0),
                (2.0, 60.0),
                (5.0, 60.0),
                (5.0, 30.0),
                (12.0, 30.0)
            ]
        );
        r.wall_seconds = 9.5;
        r.trace = Some(vec![
            TracePoint {
                oracle_runs: 2,
                seconds: 1.25,
                size: 60,
            },
            TracePoint {
                oracle_runs: 5,
                seconds: 4.0,
                size: 30,
            },
        ]);
        assert_eq!(
            time_curve_points(&r).unwrap(),
            [
                (0.0, 100.0),
                (1.25, 100.0),
                (1.25, 60.0),
                (4.0, 60.0),
                (4.0, 30.0),
                (9.5, 30.0)
            ]
        );
        let dir = crate::bench::run::Scratch::new("curves").unwrap();
        // Over wall time: seconds for a short run, minutes past 10, checkpoint lines in range.
        let time = dir.path().join("t.svg");
        let series = [
            ("HDD*".to_string(), time_curve_points(&r).unwrap()),
            ("C-Vise".to_string(), vec![(0.0, 100.0), (90.0, 50.0)]),
        ];
        time_curves_svg(&time, "t", &series, &[60, 300]).unwrap();
        let svg = std::fs::read_to_string(&time).unwrap();
        assert!(svg.contains("wall time (seconds)"), "{svg}");
        assert!(svg.contains("log scale") && svg.contains("C-Vise"), "{svg}");
        let mut long = series.clone();
        long[1].1.push((1_800.0, 40.0));
        time_curves_svg(&time, "t", &long, &[60, 300]).unwrap();
        let long_svg = std::fs::read_to_string(&time).unwrap();
        assert!(long_svg.contains("wall time (minutes)"), "{long_svg}");
        // The 1-minute mark is drawn on the short plot (90 s), the 5-minute one is not.
        let dashes = |s: &str| s.matches("stroke=\"#AAAAAA\"").count();
        assert!(
            dashes(&svg) > 0 && dashes(&long_svg) > dashes(&svg),
            "{svg}"
        );
        let path = dir.path().join("c.svg");
        curves_svg(&path, "x", &[("HDD*".into(), curve_points(&r).unwrap())]).unwrap();
        let svg = std::fs::read_to_string(&path).unwrap();
        assert!(
            svg.contains("<polyline") && svg.contains("oracle runs"),
            "{svg}"
        );
    }
}
