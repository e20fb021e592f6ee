//! The human-readable summary `hotrow run` prints.

use hotrow::Summary;
use hotrow_report::format::{grouped, half_width, percent, value};
use std::fmt::Write;

/// The summary's metrics as the table's lines (name, value, interval, unit): the headline
/// first, TPM only beside DBT2, the id counter row's only when one is in use.
fn metric_lines(s: &Summary, f: &hotrow::facts::Facts) -> Vec<(String, String, String, &'static str)> {
    let summary = serde_json::to_value(s).expect("the summary serialises");
    let mut metrics: Vec<&hotrow::catalog::Metric> = hotrow::catalog::summary_metrics().collect();
    metrics.sort_by_key(|m| m.name != f.headline);
    let mut lines = Vec::new();
    for m in metrics {
        let v = hotrow::catalog::of_summary(&summary, m);
        if m.name == "tpm" && f.headline != "tpm" {
            continue; // New-Order exists only in DBT2.
        }
        let counter_row = hotrow::facts::COUNTER_ROW_METRICS.contains(&m.name);
        if counter_row && f.counter_row.is_none() {
            continue;
        }
        let label = if counter_row { format!("id counter row {}", m.label) } else { m.label.to_string() };
        let pm = s.intervals.as_ref().and_then(|i| i.get(m.name)).map_or(String::new(), |i| {
            let flag = if i.lag1 > hotrow::intervals::LAG1_LIMIT { "*" } else { "" };
            format!("± {}{flag}", half_width(i.half_width, v, m.unit))
        });
        // A fraction reads as a percentage: its unit column is then empty.
        let unit = if m.unit == "fraction" { "" } else { m.unit };
        lines.push((format!("{label} ({})", m.name), value(v, m.unit), pm, unit));
    }
    lines
}

/// The row that binds (or the busiest row lock, while something else binds) and the id
/// counter row, when it is another row.
/// On one server a row has no node to name; under Raft its node is its range's leaseholder.
fn hot_rows(w: &mut String, f: &hotrow::facts::Facts, engine: hotrow::config::Engine) {
    let one_server = engine.one_server();
    let on = |node: u32, what: &str| match engine {
        _ if one_server => String::new(),
        hotrow::config::Engine::Raft if what.starts_with("primary") => format!(", leaseholder on node {node}"),
        _ => format!(", {what} {node}"),
    };
    match &f.hot_row {
        Some(h) if h.binds => {
            let _ = writeln!(
                w,
                "  hot row: {}{}, lock busy {}: it binds",
                h.name,
                on(h.node, "primary on node"),
                percent(h.lock_busy_fraction)
            );
        }
        Some(h) => {
            let _ = writeln!(
                w,
                "  hot row: none binds (see What holds it); the busiest row lock is {}{}, {} busy",
                h.name,
                on(h.node, "on node"),
                percent(h.lock_busy_fraction)
            );
        }
        None => {
            let _ = writeln!(w, "  hot row: none (no row lock was held twice)");
        }
    }
    if let Some(c) = &f.counter_row {
        if !c.is_hot_row {
            let _ = writeln!(w, "  id counter: {}{}", engine.counter_of(&c.of), on(c.node, "primary on node"));
        }
    }
}

/// Lock-wait timeouts that cost the clients a material share of their time, and the
/// tables of the lock-order cycles they led to (the summary's `deadlocks`).
fn deadlocks(w: &mut String, s: &Summary) {
    if let Some(d) = &s.deadlocks {
        let _ = writeln!(w, "  deadlocks: {}", d.text);
    }
}

/// How services take their time, when not as calibrated: ", CPU costs x0.5, service times
/// CV 1 (gamma)".
fn services(c: &hotrow::Config) -> String {
    // How requests arrive is in the first line (`facts.described`).
    let mut o = String::new();
    if c.cpu.scale != 1.0 {
        o += &format!(", CPU costs x{}", round_to(c.cpu.scale, 4));
    }
    if c.cpu.service_cv > 0.0 {
        o += &format!(", service times CV {} (gamma)", c.cpu.service_cv);
    }
    o += &format!(", network {} us", c.network.latency_us);
    if c.network.latency_cv > 0.0 {
        o += &format!(" CV {}", c.network.latency_cv);
    }
    o
}

/// The warm-up as the header says it: fixed, or where a detected one cut and why.
fn warmup(s: &Summary) -> String {
    let w = &s.warmup;
    match (w.mode.as_str(), w.truncation_ms) {
        ("auto", Some(cut)) if cut > w.least_ms as f64 => format!(
            "a detected warm-up (MSER-5 put the transient's end at {cut:.0} ms, past the least {} ms: measured from {:.0} ms, where it said so)",
            w.least_ms, w.measured_from_ms
        ),
        ("auto", Some(_)) => format!("a detected warm-up (MSER-5 found no transient past the least {} ms)", w.least_ms),
        ("auto", None) => format!("{} ms warm-up (detection undecided: too short a run for MSER-5)", w.least_ms),
        _ => format!("{} ms warm-up", w.least_ms),
    }
}

pub fn render(s: &Summary) -> String {
    let c = &s.config;
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "hotrow: {}; seed {}", s.facts.described, c.seed);
    let _ = writeln!(w, "measured {:.2} simulated s after {}, {} events{}\n", s.simulated_seconds, warmup(s), s.events, services(c));
    let f = &s.facts;
    hot_rows(w, f, c.engine);
    deadlocks(w, s);
    let lines = metric_lines(s, f);
    let width = lines.iter().map(|l| l.0.chars().count()).max().unwrap_or(0).max(40);
    for (name, value, pm, unit) in lines {
        let line = format!("  {name:<width$} {value:>14} {pm:<10} {unit}");
        let _ = writeln!(w, "{}", line.trim_end());
    }
    if let Some(i) = &s.intervals {
        let _ = writeln!(
            w,
            "  ±: the 95% interval, by batch means ({} batches of {} window{}{})",
            i.batches,
            i.windows_per_batch,
            if i.windows_per_batch == 1 { "" } else { "s" },
            if i.metrics.iter().any(|(_, x)| x.lag1 > hotrow::intervals::LAG1_LIMIT) {
                "; *: batch means correlated, too narrow: run longer"
            } else {
                ""
            }
        );
    }
    if let Some(p) = &s.precision {
        let reached = p.reached.map_or("no interval yet".to_string(), |r| format!("± {:.2}%", 100.0 * r));
        let _ = if p.converged {
            writeln!(w, "  precision: met, {} of {} (asked ± {:.2}%): the run stopped there", reached, p.metric, 100.0 * p.asked)
        } else {
            writeln!(
                w,
                "  precision: not met, {} of {} (asked ± {:.2}%) when durationMs ran out: run longer",
                reached,
                p.metric,
                100.0 * p.asked
            )
        };
    }
    let _ = writeln!(w, "  ids issued {}, lost {}, duplicates {}", s.ids_issued, s.ids_lost, s.duplicate_ids);
    if !c.faults.is_empty() {
        let _ = writeln!(w, "  faults scheduled {}, transaction attempts aborted by them {}", c.faults.len(), s.aborts);
    }
    let _ = writeln!(w, "\n  node  group   load   TC txn/s   messages/s");
    for n in &s.nodes {
        let mark = f.node_mark(n.id).map_or(String::new(), |m| format!("  <- {m}"));
        let _ = writeln!(
            w,
            "  {:>4}  {:>5}  {:>5}  {:>9}  {:>11}{mark}",
            n.id,
            n.node_group,
            value(n.load, "fraction"),
            value(n.tc_transactions, "1/s"),
            value(n.messages, "1/s")
        );
    }
    crate::explain::hottest_rows(w, s);
    crate::explain::render(w, s);
    let _ = writeln!(w, "\n  latency by type (us)       mean       p50       p99    committed");
    for (name, l) in &s.latency_by_type_us {
        let n = s.committed_by_type.get(name).copied().unwrap_or(0);
        let _ = writeln!(
            w,
            "  {:<20} {:>10} {:>9} {:>9} {:>12}",
            name,
            value(l.mean, "us"),
            value(l.p50, "us"),
            value(l.p99, "us"),
            grouped(n as f64)
        );
    }
    let _ = writeln!(w, "\n  digest {}", s.digest);
    o
}

/// The `hotrow validate` table: each reported figure beside the model's.
pub fn validation(r: &hotrow::validate::Report) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "hotrow validate (seed {}): the model against MySQL Bug #39267\n", r.seed);
    let _ = writeln!(w, "  {:<58} {:>22} {:>12} {:>8}  result", "case", "reported", "model", "diff");
    for c in &r.cases {
        let diff = c.diff_percent.map_or(String::new(), |d| format!("{d:+.1}%"));
        let model = if c.model >= 1000.0 { format!("{:.0}", c.model) } else { format!("{:.3}", c.model) };
        let _ = writeln!(w, "  {:<58} {:>22} {:>12} {:>8}  {}", c.name, c.reported, model, diff, if c.pass { "pass" } else { "FAIL" });
    }
    let _ = writeln!(w, "\n  {}", if r.pass { "every case passes" } else { "SOME CASES FAIL" });
    o
}

/// `hotrow run --csv`: one row per metrics window (the core's CSV, as the playground
/// downloads it).
pub fn windows_csv(mut out: impl std::io::Write, windows: &[hotrow::Window]) -> std::io::Result<()> {
    out.write_all(hotrow::catalog::windows_csv(windows).as_bytes())?;
    out.flush()
}

/// `hotrow fields`: the config field table.
pub fn fields(list: &serde_json::Value) -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "{:<22} {:<34} {:>12} {:<5} meaning", "field", "values", "default", "live");
    for f in list.as_array().into_iter().flatten() {
        let kind = &f["kind"];
        let values = match kind["type"].as_str() {
            Some("int" | "number") => {
                let unit = f["unit"].as_str().unwrap_or("");
                format!("{}..={}{}", kind["min"], kind["max"], if unit.is_empty() { String::new() } else { format!(" {unit}") })
            }
            Some("bool") => "true | false".into(),
            Some("choice") => kind["values"].as_array().into_iter().flatten().filter_map(|v| v.as_str()).collect::<Vec<_>>().join(" | "),
            _ => "list of faults".into(),
        };
        let default = match &f["default"] {
            serde_json::Value::Array(a) if a.is_empty() => "[]".to_string(),
            serde_json::Value::String(s) => s.clone(),
            other => other.to_string(),
        };
        let live = if f["live"].as_bool() == Some(true) { "live" } else { "" };
        let _ = writeln!(
            w,
            "{:<22} {:<34} {:>12} {:<5} {}",
            f["name"].as_str().unwrap_or(""),
            values,
            default,
            live,
            f["about"].as_str().unwrap_or("")
        );
    }
    let _ = writeln!(w, "\nlive: a running simulation (npm `sim.set`, the playground) can take a new value.");
    o
}

/// `hotrow metrics`: the metric table.
pub fn metrics() -> String {
    let mut o = String::new();
    let w = &mut o;
    let _ = writeln!(w, "{:<26} {:<8} {:<12} {:<6} {:<7} meaning", "metric", "unit", "shape", "window", "summary");
    for m in hotrow::catalog::METRICS {
        let yes = |b: bool| if b { "yes" } else { "" };
        let _ = writeln!(
            w,
            "{:<26} {:<8} {:<12} {:<6} {:<7} {}",
            m.name,
            m.unit,
            m.shape.name(),
            yes(m.window.is_some()),
            yes(m.summary.is_some()),
            m.about
        );
    }
    let _ = writeln!(w, "\nwindow: in `run --csv`, npm `snapshot()` and `windows()`; summary: in `sweep` columns (`run --json` has it at the path `metrics --json` gives).");
    o
}

/// `v` to `digits` significant digits, trailing zeros dropped (x1.0057292403044622 reads x1.006).
fn round_to(v: f64, digits: i32) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    let decimals = (digits - 1 - v.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.decimals$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}
