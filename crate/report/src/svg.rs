//! The figures, written as SVG by hand: a line chart over simulated time, a bar per data
//! node, a data node x time heatmap. Each carries its own `<style>` and `<title>`, so it
//! stands alone (`hotrow report --svg NAME`, pasted into a page). No crate fits here: the
//! SVG writers on crates.io draw to files or need fonts, and these are a few hundred lines.

use crate::format::{coord, escape, grouped};
use std::fmt::Write;

pub(crate) const W: f64 = 640.0;
const H: f64 = 240.0;
pub(crate) const LEFT: f64 = 64.0;
const RIGHT: f64 = 16.0;
const TOP: f64 = 14.0;
const BOTTOM: f64 = 38.0;

/// Colours and strokes, as presentation attributes rather than a `<style>` element: a page
/// whose Content-Security-Policy forbids inline styles (the playground's docs page) and a
/// Markdown renderer that strips `<style>` draw them the same. Figures are written with a
/// class name per look; `finish` turns each into its attributes.
const LOOKS: [(&str, &str); 11] = [
    ("axis", "stroke=\"#999\" stroke-width=\"1\""),
    ("grid", "stroke=\"#e4e4e4\" stroke-width=\"1\""),
    ("s0", "stroke=\"#1f6fb4\" stroke-width=\"1.6\" fill=\"none\""),
    ("s1", "stroke=\"#c2410c\" stroke-width=\"1.4\" fill=\"none\" stroke-dasharray=\"5 4\""),
    ("ref", "stroke=\"#6b7280\" stroke-width=\"1\" stroke-dasharray=\"2 3\""),
    ("warm", "fill=\"#f1f1f1\""),
    ("bar", "fill=\"#1f6fb4\""),
    ("dot", "fill=\"#1f6fb4\""),
    ("hot", "fill=\"#c2410c\""),
    ("label", "fill=\"#333\""),
    ("halo", "stroke=\"#fff\" stroke-width=\"3\" paint-order=\"stroke\""),
];

/// Closes a figure: its looks as attributes, and the `<g>` that sets the text's font.
pub(crate) fn finish(mut out: String) -> String {
    for (class, attrs) in LOOKS {
        out = out.replace(&format!("class=\"{class}\""), attrs);
    }
    out + "</g></svg>"
}

/// A line of the chart: its values (one per window), its name and whether it is dashed
/// (a bound).
pub struct Series<'a> {
    pub name: &'a str,
    pub values: &'a [f64],
    pub bound: bool,
}

/// A level drawn across the chart (the bug report's figures), with its label.
pub struct Level {
    pub label: String,
    pub value: f64,
}

fn open(out: &mut String, id: &str, title: &str, height: f64) {
    let _ = write!(
        out,
        "<svg viewBox=\"0 0 {W} {h}\" width=\"100%\" role=\"img\" aria-labelledby=\"{id}-t\" id=\"{id}\">\
<title id=\"{id}-t\">{t}</title><g font-family=\"system-ui,sans-serif\" font-size=\"11\" fill=\"#333\">",
        h = coord(height),
        t = escape(title)
    );
}

/// Round steps for an axis from 0 to `max`: 1, 2 or 5 times a power of ten.
pub(crate) fn ticks(max: f64) -> Vec<f64> {
    if max.is_nan() || max <= 0.0 {
        return vec![0.0, 1.0];
    }
    let raw = max / 4.0;
    let power = 10f64.powi(raw.log10().floor() as i32);
    let step = [1.0, 2.0, 5.0, 10.0].iter().map(|m| m * power).find(|s| *s >= raw).unwrap_or(10.0 * power);
    let n = (max / step).ceil() as usize;
    (0..=n).map(|i| i as f64 * step).collect()
}

/// Where a chart draws, inside its figure: its height and margins (the left one is `LEFT`,
/// the width `W`, for every chart).
#[derive(Clone, Copy)]
pub(crate) struct Frame {
    pub height: f64,
    pub top: f64,
    pub bottom: f64,
    pub right: f64,
}

/// The y axis from 0 to round ticks past `top`: a grid line and a label at each. Returns
/// where a value lands.
pub(crate) fn y_grid(out: &mut String, f: Frame, top: f64) -> impl Fn(f64) -> f64 {
    let yt = ticks(top);
    let ymax = *yt.last().expect("ticks are never empty");
    let py = move |v: f64| f.top + (1.0 - v / ymax) * (f.height - f.top - f.bottom);
    for t in &yt {
        let _ = write!(
            out,
            "<line class=\"grid\" x1=\"{}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            coord(LEFT),
            coord(W - f.right),
            coord(LEFT - 6.0),
            coord(py(*t) + 4.0),
            grouped(*t),
            y = coord(py(*t))
        );
    }
    py
}

/// A line chart of `series` over `x` (seconds), with `levels` across it and the warm-up
/// (seconds from 0) shaded.
pub fn lines(id: &str, title: &str, y_label: &str, x: &[f64], warmup: f64, series: &[Series], levels: &[Level]) -> String {
    let mut out = String::new();
    open(&mut out, id, title, H);
    let top = series.iter().flat_map(|s| s.values.iter().copied()).chain(levels.iter().map(|l| l.value)).fold(0.0, f64::max);
    let py = y_grid(&mut out, Frame { height: H, top: TOP, bottom: BOTTOM, right: RIGHT }, top * 1.05);
    let (x0, x1) = (x.first().copied().unwrap_or(0.0), x.last().copied().unwrap_or(1.0));
    let span = if x1 > x0 { x1 - x0 } else { 1.0 };
    let px = |v: f64| LEFT + (v - x0) / span * (W - LEFT - RIGHT);
    if warmup > x0 {
        let _ = write!(
            out,
            "<rect class=\"warm\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/><text x=\"{}\" y=\"{}\">warm-up</text>",
            coord(px(x0)),
            coord(TOP),
            coord(px(warmup.min(x1)) - px(x0)),
            coord(H - BOTTOM - TOP),
            coord(px(x0) + 4.0),
            coord(H - BOTTOM - 6.0)
        );
    }
    for v in ticks(x1) {
        if v < x0 - 1e-9 {
            continue;
        }
        let _ = write!(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text>", coord(px(v)), coord(H - BOTTOM + 16.0), trim(v));
    }
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{l}\" x2=\"{r}\" y1=\"{b}\" y2=\"{b}\"/><text x=\"{cx}\" y=\"{}\" text-anchor=\"middle\">simulated s</text>\
<text transform=\"translate(12 {cy}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        coord(H - 6.0),
        escape(y_label),
        l = coord(LEFT),
        r = coord(W - RIGHT),
        b = coord(H - BOTTOM),
        cx = coord((LEFT + W - RIGHT) / 2.0),
        cy = coord((TOP + H - BOTTOM) / 2.0)
    );
    // The levels' lines under the series, their labels over them (on a halo, so a line
    // crossing a label does not hide it).
    let mut labels = String::new();
    for l in levels {
        let _ = write!(
            out,
            "<line class=\"ref\" x1=\"{}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\"/>",
            coord(LEFT),
            coord(W - RIGHT),
            y = coord(py(l.value))
        );
        let _ = write!(
            labels,
            "<text class=\"halo\" x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text>",
            coord(W - RIGHT - 4.0),
            coord(py(l.value) - 4.0),
            escape(&l.label)
        );
    }
    for (i, s) in series.iter().enumerate() {
        let points: Vec<String> = x.iter().zip(s.values).map(|(a, b)| format!("{},{}", coord(px(*a)), coord(py(*b)))).collect();
        let class = if s.bound { "s1" } else { "s0" };
        let _ = write!(out, "<polyline class=\"{class}\" points=\"{}\"><title>{}</title></polyline>", points.join(" "), escape(s.name));
        // The legend, top left.
        let ly = TOP + 12.0 + 14.0 * i as f64;
        let _ = write!(
            out,
            "<line class=\"{class}\" x1=\"{}\" x2=\"{}\" y1=\"{y}\" y2=\"{y}\"/><text x=\"{}\" y=\"{}\">{}</text>",
            coord(LEFT + 8.0),
            coord(LEFT + 28.0),
            coord(LEFT + 32.0),
            coord(ly + 4.0),
            escape(s.name),
            y = coord(ly)
        );
    }
    out.push_str(&labels);
    finish(out)
}

/// Seconds as the axis writes them: 2, 2.5.
fn trim(v: f64) -> String {
    coord((v * 100.0).round() / 100.0)
}

/// One horizontal bar per item, `values` from 0 to 1 (a load), `hot` drawn apart.
pub fn bars(id: &str, title: &str, labels: &[String], values: &[f64], hot: Option<usize>) -> String {
    let row = 22.0;
    let height = TOP + row * labels.len() as f64 + BOTTOM;
    let mut out = String::new();
    open(&mut out, id, title, height);
    let width = W - LEFT - RIGHT - 40.0;
    for (i, (label, v)) in labels.iter().zip(values).enumerate() {
        let y = TOP + row * i as f64;
        let class = if Some(i) == hot { "hot" } else { "bar" };
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">{}</text><rect class=\"{class}\" x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\"/>\
<text x=\"{}\" y=\"{}\">{}</text>",
            coord(LEFT - 6.0),
            coord(y + 15.0),
            escape(label),
            coord(LEFT),
            coord(y + 4.0),
            coord(width * v.clamp(0.0, 1.0)),
            coord(row - 8.0),
            coord(LEFT + width * v.clamp(0.0, 1.0) + 4.0),
            coord(y + 15.0),
            crate::format::percent(*v)
        );
    }
    let b = TOP + row * labels.len() as f64;
    let _ = write!(
        out,
        "<line class=\"axis\" x1=\"{l}\" x2=\"{l}\" y1=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\" text-anchor=\"middle\">load (busy fraction of the data node's thread)</text>",
        coord(TOP),
        coord(b),
        coord(LEFT + width / 2.0),
        coord(b + 20.0),
        l = coord(LEFT)
    );
    finish(out)
}

/// A row per data node, a cell per window, darker the busier (0 to 1).
pub fn heatmap(id: &str, title: &str, rows: &[&[f64]], x: &[f64]) -> String {
    let row = 18.0;
    let height = TOP + row * rows.len() as f64 + BOTTOM;
    let mut out = String::new();
    open(&mut out, id, title, height);
    let n = x.len().max(1);
    let cell = (W - LEFT - RIGHT) / n as f64;
    for (r, values) in rows.iter().enumerate() {
        let y = TOP + row * r as f64;
        let _ = write!(out, "<text x=\"{}\" y=\"{}\" text-anchor=\"end\">node {r}</text>", coord(LEFT - 6.0), coord(y + 13.0));
        for (i, v) in values.iter().enumerate() {
            let _ = write!(
                out,
                "<rect x=\"{}\" y=\"{}\" width=\"{}\" height=\"{}\" fill=\"{}\"/>",
                coord(LEFT + cell * i as f64),
                coord(y),
                coord(cell + 0.3),
                coord(row - 2.0),
                shade(*v)
            );
        }
    }
    let b = TOP + row * rows.len() as f64;
    if let (Some(first), Some(last)) = (x.first(), x.last()) {
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\">{} s</text><text x=\"{}\" y=\"{}\" text-anchor=\"end\">{} s</text>",
            coord(LEFT),
            coord(b + 14.0),
            trim(*first),
            coord(W - RIGHT),
            coord(b + 14.0),
            trim(*last)
        );
    }
    let _ = write!(
        out,
        "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">load per window: light idle, dark red saturated</text>",
        coord((LEFT + W - RIGHT) / 2.0),
        coord(b + 30.0)
    );
    finish(out)
}

/// A load from 0 (pale yellow) to 1 (dark red).
fn shade(v: f64) -> String {
    let v = if v.is_finite() { v.clamp(0.0, 1.0) } else { 0.0 };
    let (a, b) = ((255.0, 247.0, 188.0), (153.0, 27.0, 27.0));
    let mix = |x: f64, y: f64| (x + (y - x) * v).round() as u8;
    format!("#{:02x}{:02x}{:02x}", mix(a.0, b.0), mix(a.1, b.1), mix(a.2, b.2))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_round_and_cover_the_top() {
        assert_eq!(ticks(170_000.0), vec![0.0, 50_000.0, 100_000.0, 150_000.0, 200_000.0]);
        assert_eq!(ticks(1.0), vec![0.0, 0.5, 1.0]);
        assert_eq!(ticks(0.0), vec![0.0, 1.0]);
        assert_eq!(shade(0.0), "#fff7bc");
        assert_eq!(shade(1.0), "#991b1b");
    }

    #[test]
    fn a_chart_is_one_svg_with_its_title_and_lines() {
        let x = [0.1, 0.2, 0.3];
        let svg = lines(
            "t",
            "throughput <&>",
            "TPM",
            &x,
            0.15,
            &[
                Series { name: "TPM", values: &[1.0, 2.0, 3.0], bound: false },
                Series { name: "bound", values: &[3.0, 3.0, 3.0], bound: true },
            ],
            &[Level { label: "bug report".into(), value: 2.5 }],
        );
        assert!(svg.starts_with("<svg ") && svg.ends_with("</svg>"));
        assert_eq!(svg.matches("<polyline").count(), 2);
        assert!(svg.contains("throughput &lt;&amp;&gt;"));
        assert!(svg.contains("stroke-dasharray=\"2 3\"") && !svg.contains("class=") && !svg.contains("<style"));
    }
}
