//! A sweep's curve: the headline rate at each value of the varied field, evenly spaced
//! (values may be cache sizes a decade apart, or workload names), each point a dot, and a
//! dashed mark where the bottleneck changes, labelled with the new one.

use crate::format::{coord, escape, grouped};
use std::fmt::Write;

use crate::svg::{LEFT, W};

const H: f64 = 260.0;
const RIGHT: f64 = 24.0;
const TOP: f64 = 30.0;
const BOTTOM: f64 = 44.0;

/// One point of the curve: the value's label, the rate, and the bottleneck's short name at
/// the first point and where it differs from the point before's.
pub struct Point {
    pub label: String,
    pub rate: f64,
    pub changed_to: Option<String>,
}

pub fn curve(id: &str, title: &str, x_label: &str, y_label: &str, points: &[Point]) -> String {
    let mut out = String::new();
    let _ = write!(
        out,
        "<svg viewBox=\"0 0 {W} {H}\" width=\"100%\" role=\"img\" aria-labelledby=\"{id}-t\" id=\"{id}\"><title id=\"{id}-t\">{}</title>\
<g font-family=\"system-ui,sans-serif\" font-size=\"11\" fill=\"#333\">",
        escape(title)
    );
    let top = points.iter().map(|p| p.rate).fold(0.0, f64::max);
    let py = crate::svg::y_grid(&mut out, crate::svg::Frame { height: H, top: TOP, bottom: BOTTOM, right: RIGHT }, top * 1.1);
    let n = points.len().max(1);
    let step = (W - LEFT - RIGHT) / n as f64;
    let px = |i: usize| LEFT + step * (i as f64 + 0.5);
    for (i, p) in points.iter().enumerate() {
        if let Some(to) = &p.changed_to {
            let x = coord(if i == 0 { LEFT } else { px(i) - step / 2.0 });
            let _ = write!(
                out,
                "<line class=\"ref\" x1=\"{x}\" x2=\"{x}\" y1=\"{}\" y2=\"{}\"/><text x=\"{}\" y=\"{}\">held by {}</text>",
                coord(TOP - 8.0),
                coord(H - BOTTOM),
                coord(if i == 0 { LEFT + 3.0 } else { px(i) - step / 2.0 + 3.0 }),
                coord(TOP - 12.0 + 12.0 * (i % 2) as f64),
                escape(to)
            );
        }
        let _ = write!(
            out,
            "<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text><circle class=\"dot\" cx=\"{}\" cy=\"{}\" r=\"3.5\"><title>{}: {}</title></circle>",
            coord(px(i)),
            coord(H - BOTTOM + 16.0),
            escape(&p.label),
            coord(px(i)),
            coord(py(p.rate)),
            escape(&p.label),
            grouped(p.rate)
        );
    }
    let line: Vec<String> = points.iter().enumerate().map(|(i, p)| format!("{},{}", coord(px(i)), coord(py(p.rate)))).collect();
    let _ = write!(
        out,
        "<polyline class=\"s0\" points=\"{}\"/><line class=\"axis\" x1=\"{l}\" x2=\"{r}\" y1=\"{b}\" y2=\"{b}\"/>\
<text x=\"{}\" y=\"{}\" text-anchor=\"middle\">{}</text><text transform=\"translate(12 {}) rotate(-90)\" text-anchor=\"middle\">{}</text>",
        line.join(" "),
        coord((LEFT + W - RIGHT) / 2.0),
        coord(H - 8.0),
        escape(x_label),
        coord((TOP + H - BOTTOM) / 2.0),
        escape(y_label),
        l = coord(LEFT),
        r = coord(W - RIGHT),
        b = coord(H - BOTTOM)
    );
    crate::svg::finish(out)
}
