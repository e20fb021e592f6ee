//! The report's parts, each from the run's summary (and windows): the header, the
//! throughput over time, the load per data node, the node x time heatmap, the hottest
//! rows and what holds the throughput. A figure always comes with its numbers as a table.

use crate::format::{escape, grouped, percent, with_interval};
use crate::svg::{self, Level, Series};
use crate::windows::Windows;
use serde_json::Value;
use std::fmt::Write;

fn num(v: &Value) -> f64 {
    v.as_f64().unwrap_or(0.0)
}

fn text(v: &Value) -> &str {
    v.as_str().unwrap_or("")
}

/// The workload's name: `dbt2`, a shipped spec's, or the spec's own.
pub fn workload(s: &Value) -> String {
    let w = &s["config"]["workload"];
    w.as_str().map_or_else(|| text(&w["name"]).to_string(), str::to_string)
}

/// The label of the metric `name` (the catalog's).
fn label(name: &str) -> &'static str {
    hotrow::catalog::metric(name).map_or("transactions/s", |m| m.label)
}

/// The run's headline rate as the core's facts name it (`summary.facts.headline`): its
/// metric, label and seconds per unit of it (TPM is per minute).
fn headline(s: &Value) -> (&str, &'static str, f64) {
    let name = s["facts"]["headline"].as_str().unwrap_or("transactionsPerSecond");
    (name, label(name), if name == "tpm" { 60.0 } else { 1.0 })
}

/// The hot row in words: the row that binds, or the busiest row lock while something else
/// binds (`summary.facts.hotRow`).
fn hot_row(s: &Value) -> Option<String> {
    let h = s["facts"]["hotRow"].as_object()?;
    let (name, node, busy) = (text(&h["name"]), num(&h["node"]), percent(num(&h["lockBusyFraction"])));
    Some(if h["binds"] == true {
        format!("{name}, on data node {node}, {busy} busy: it binds")
    } else {
        format!("none binds; the busiest row lock is {name}, on data node {node}, {busy} busy")
    })
}

/// Title, the configuration in one line, and the headline figures.
pub fn header(s: &Value, version: &str) -> String {
    let c = &s["config"];
    let mut out = String::new();
    let _ = write!(
        out,
        "<header><h1>hotrow: {} on {} data nodes x {} replicas</h1><p class=\"config\">{}; \
seed {}, {} s measured after {} ms of warm-up; digest <code>{}</code>, hotrow {}</p>",
        escape(&workload(s)),
        num(&c["dataNodes"]),
        num(&c["replicas"]),
        escape(text(&s["facts"]["described"])),
        num(&c["seed"]),
        crate::format::coord(num(&s["simulatedSeconds"])),
        measured_from_ms(s),
        escape(text(&s["digest"])),
        escape(version)
    );
    out.push_str("<dl class=\"headline\">");
    let mut item = |label: &str, value: String| {
        let _ = write!(out, "<div><dt>{}</dt><dd>{}</dd></div>", escape(label), value);
    };
    // A rate with its 95% interval (`summary.intervals`) where the run has one, in the one
    // format every surface writes (`hotrow::format`).
    let figure = |name: &str| with_interval(num(&s[name]), s["intervals"]["metrics"][name]["halfWidth"].as_f64(), "1/s");
    // The headline figure first, then the other rates the run has.
    let (first, _, _) = headline(s);
    let others = ["tpm", "insertsPerSecond", "transactionsPerSecond"].into_iter().filter(|&n| n != first && n != "tpm");
    for name in std::iter::once(first).chain(others) {
        item(label(name), figure(name));
    }
    item("latency p99", format!("{} us", grouped(num(&s["latencyUs"]["p99"]))));
    if num(&s["abortsPerSecond"]) > 0.0 {
        item("aborts/s", figure("abortsPerSecond"));
        item("aborted lock waits/s", figure("lockTimeoutsPerSecond"));
    }
    if let Some(h) = hot_row(s) {
        item("hot row", escape(&h));
    }
    if let Some(d) = s["deadlocks"]["text"].as_str() {
        item("deadlocks", escape(d));
    }
    // The bottleneck, unless the hot row is it (said just above).
    if let Some(b) = s["bottleneck"].as_object().filter(|_| s["facts"]["hotRow"]["binds"] != true) {
        item("held by", escape(text(&b["name"])));
    }
    out.push_str("</dl></header>");
    out
}

/// The headline rate per window with the bound it had, the bug report's figures across it
/// where they apply (DBT2 on its cluster), and a table of each second's means.
pub fn throughput(s: &Value, w: &Windows) -> (String, String) {
    let (column, label, per) = headline(s);
    let x: Vec<f64> = w.column("endMs").unwrap_or(&[]).iter().map(|ms| ms / 1000.0).collect();
    let values = w.column(column).unwrap_or(&[]).to_vec();
    // The bound is in transactions per second; in TPM it scales as the run's TPM does (the
    // New-Orders among them, per minute).
    let scale = if per > 1.0 { num(&s["tpm"]) / num(&s["transactionsPerSecond"]).max(1e-9) } else { 1.0 };
    let bound: Vec<f64> = w.column("boundTransactionsPerSecond").unwrap_or(&[]).iter().map(|b| b * scale).collect();
    let levels: Vec<Level> = if s["facts"]["referenceLines"] == true {
        hotrow::validate::REPORTED_TPM.iter().map(|(l, v)| Level { label: format!("{l}: {} TPM", grouped(*v)), value: *v }).collect()
    } else {
        Vec::new()
    };
    let series =
        [Series { name: label, values: &values, bound: false }, Series { name: "bound (the bottleneck's)", values: &bound, bound: true }];
    let warmup = measured_from_ms(s) / 1000.0;
    let figure =
        svg::lines("throughput", &format!("{label} per window, with the bound the bottleneck sets"), label, &x, warmup, &series, &levels);
    let mut table = format!("<table><caption>{label}, mean of each second</caption><thead><tr><th>second</th><th>{label}</th><th>bound</th></tr></thead><tbody>");
    let mut i = 0;
    while i < x.len() {
        let second = x[i].ceil().max(1.0);
        let j = (i..x.len()).find(|&j| x[j].ceil().max(1.0) != second).unwrap_or(x.len());
        let mean = |v: &[f64]| if v.is_empty() { 0.0 } else { v.iter().sum::<f64>() / v.len() as f64 };
        let _ = write!(
            table,
            "<tr><td>{} to {}</td><td>{}</td><td>{}</td></tr>",
            second - 1.0,
            second,
            grouped(mean(values.get(i..j).unwrap_or(&[]))),
            grouped(mean(bound.get(i..j).unwrap_or(&[])))
        );
        i = j;
    }
    for l in &levels {
        let _ = write!(table, "<tr><td colspan=\"2\">{}</td><td>{}</td></tr>", escape(&l.label), grouped(l.value));
    }
    table.push_str("</tbody></table>");
    (figure, table)
}

/// The load of each data node over the measured period, the hot row's node marked (and
/// the id counter row's, when it is in use and elsewhere).
pub fn nodes(s: &Value) -> (String, String) {
    let list = s["nodes"].as_array().cloned().unwrap_or_default();
    let labels: Vec<String> = list.iter().map(|n| format!("node {}", num(&n["id"]))).collect();
    let loads: Vec<f64> = list.iter().map(|n| num(&n["load"])).collect();
    let facts = &s["facts"];
    let node_of = |v: &Value| v["node"].as_u64().map(|n| n as u32);
    let hot_node = node_of(&facts["hotRow"]);
    let counter_row = node_of(&facts["counterRow"]).map(|n| (n, facts["counterRow"]["isHotRow"] == true));
    let id = |n: &Value| num(&n["id"]) as u32;
    let hot = hot_node.and_then(|h| list.iter().position(|n| id(n) == h));
    let mark = |n: &Value| hotrow::facts::node_mark(id(n), hot_node, counter_row).map_or(String::new(), |m| format!(" ({m})"));
    let figure = svg::bars("nodes", "load per data node over the measured period", &labels, &loads, hot);
    let mut table = String::from(
        "<table><caption>per data node</caption><thead><tr><th>node</th><th>group</th><th>load</th><th>TC txn/s</th><th>messages/s</th></tr></thead><tbody>",
    );
    for n in &list {
        let _ = write!(
            table,
            "<tr><td>{}{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            num(&n["id"]),
            mark(n),
            num(&n["nodeGroup"]),
            percent(num(&n["load"])),
            grouped(num(&n["tcTransactions"])),
            grouped(num(&n["messages"]))
        );
    }
    table.push_str("</tbody></table>");
    (figure, table)
}

/// Each data node's load per window; its table gives each node's least, mean and most.
pub fn heatmap(w: &Windows) -> (String, String) {
    let rows = w.vector("nodeLoad");
    let x: Vec<f64> = w.column("endMs").unwrap_or(&[]).iter().map(|ms| ms / 1000.0).collect();
    let figure = svg::heatmap("heatmap", "load of each data node, window by window", &rows, &x);
    let mut table = String::from(
        "<table><caption>load per window</caption><thead><tr><th>node</th><th>least</th><th>mean</th><th>most</th></tr></thead><tbody>",
    );
    for (i, r) in rows.iter().enumerate() {
        let mean = if r.is_empty() { 0.0 } else { r.iter().sum::<f64>() / r.len() as f64 };
        let _ = write!(
            table,
            "<tr><td>{i}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            percent(r.iter().copied().fold(f64::INFINITY, f64::min).min(1.0)),
            percent(mean),
            percent(r.iter().copied().fold(0.0, f64::max))
        );
    }
    table.push_str("</tbody></table>");
    (figure, table)
}

/// The rows whose locks were busiest, and who waited for whom on each.
pub fn hottest(s: &Value) -> String {
    let mut out = String::from(
        "<table><caption>hottest rows</caption><thead><tr><th>row</th><th>busy</th><th>grants/s</th><th>waits/s</th><th>mean wait us</th><th>who waits for whom</th></tr></thead><tbody>",
    );
    for r in s["hottestRows"].as_array().into_iter().flatten() {
        let row = match r["counterOf"].as_str() {
            Some(of) => format!("{} ({of})", text(&r["table"])),
            None => format!("{} {}", text(&r["table"]), num(&r["key"])),
        };
        let waits: Vec<String> = r["waits"]
            .as_array()
            .into_iter()
            .flatten()
            .take(3)
            .map(|x| format!("{} waits for {} ({})", escape(text(&x["waiter"])), escape(text(&x["holder"])), percent(num(&x["share"]))))
            .collect();
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(&row),
            percent(num(&r["lockBusyFraction"])),
            grouped(num(&r["grantsPerSecond"])),
            grouped(num(&r["waitsPerSecond"])),
            grouped(num(&r["meanWaitUs"])),
            waits.join("<br>")
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// The bottleneck, the bound it sets, the next ceiling and the busiest resources.
pub fn holds(s: &Value) -> String {
    let (_, label, per) = headline(s);
    // A rate with its 95% interval's half-width when it has one (`boundIntervals`).
    let rate = |tps: f64, i: &Value| {
        let h = i["halfWidth"].as_f64();
        if per > 1.0 {
            let tpm = num(&s["tpm"]) / num(&s["transactionsPerSecond"]).max(1e-9);
            format!("{} TPM ({} transactions/s)", with_interval(tps * tpm, h.map(|h| h * tpm), "TPM"), with_interval(tps, h, label))
        } else {
            format!("{} {label}", with_interval(tps, h, label))
        }
    };
    let intervals = &s["boundIntervals"];
    let Some(b) = s["bottleneck"].as_object() else {
        return "<p>Nothing committed: no bottleneck to name.</p>".into();
    };
    let u = num(&b["utilization"]);
    let verdict = if u >= 0.9 { "saturated: it sets the throughput" } else { "the tightest bound, not saturated" };
    let mut out = format!(
        "<p><strong>Bottleneck:</strong> {}, {} busy, bound {} ({verdict}).</p>",
        escape(text(&b["name"])),
        percent(u),
        rate(num(&b["boundTransactionsPerSecond"]), &intervals["bound"])
    );
    if let Some(n) = s["nextCeiling"].as_object() {
        let _ = write!(
            out,
            "<p><strong>Next ceiling:</strong> {} with {} relieved, held then by {}.</p>",
            rate(num(&n["transactionsPerSecond"]), &intervals["nextCeiling"]),
            escape(text(&n["relieved"])),
            escape(text(&n["heldBy"]))
        );
    }
    if let Some(method) = intervals["method"].as_str() {
        let key = if intervals["bound"].is_object() { "±: " } else { "" };
        let _ = write!(out, "<p class=\"note\">{key}{}.</p>", escape(method));
    }
    for c in s["deadlocks"]["cycles"].as_array().into_iter().flatten() {
        let _ =
            write!(out, "<p><strong>Deadlock</strong> ({} of the timeouts): {}.</p>", percent(num(&c["share"])), escape(text(&c["text"])));
    }
    out.push_str("<table><caption>busiest resources</caption><thead><tr><th>resource</th><th>busy</th><th>blocked</th><th>queued</th><th>bound transactions/s</th></tr></thead><tbody>");
    for r in s["resources"].as_array().into_iter().flatten() {
        let _ = write!(
            out,
            "<tr><td>{}</td><td>{}</td><td>{}</td><td>{}</td><td>{}</td></tr>",
            escape(text(&r["name"])),
            percent(num(&r["utilization"])),
            percent(num(&r["blockedFraction"])),
            percent(num(&r["queuedFraction"])),
            grouped(num(&r["boundTransactionsPerSecond"]))
        );
    }
    out.push_str("</tbody></table>");
    out
}

/// Each remedy run from the start with the same seed: the rate it reached, against the run,
/// and what held it then.
pub fn remedies(s: &Value, list: &[(String, Result<Value, String>)]) -> String {
    let (column, label, _) = headline(s);
    let base = num(&s[column]).max(1e-9);
    let held = |x: &Value| escape(x["bottleneck"]["name"].as_str().unwrap_or("nothing committed"));
    let mut out = format!(
        "<table><caption>each remedy run from the start, the same seed</caption><thead><tr><th>remedy</th><th>{label}</th><th>x</th><th>held then by</th></tr></thead><tbody>\
<tr><td>(as run)</td><td>{}</td><td>1.00</td><td class=\"text\">{}</td></tr>",
        grouped(num(&s[column])),
        held(s)
    );
    for (name, outcome) in list {
        match outcome {
            Ok(t) => {
                let _ = write!(
                    out,
                    "<tr><td>{}</td><td>{}</td><td>{:.2}</td><td class=\"text\">{}</td></tr>",
                    escape(name),
                    grouped(num(&t[column])),
                    num(&t[column]) / base,
                    held(t)
                );
            }
            Err(e) => {
                let _ = write!(out, "<tr><td>{}</td><td colspan=\"3\" class=\"text\">did not run: {}</td></tr>", escape(name), escape(e));
            }
        }
    }
    out.push_str("</tbody></table>");
    out
}

/// Where the measured period began, in ms: the summary's `warmup` (a detected warm-up may
/// end past `warmupMs`), else the config's `warmupMs`.
fn measured_from_ms(s: &Value) -> f64 {
    s["warmup"]["measuredFromMs"].as_f64().unwrap_or_else(|| num(&s["config"]["warmupMs"]))
}
