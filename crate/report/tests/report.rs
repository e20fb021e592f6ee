//! The report of a real run: one HTML page with no script and no resource from elsewhere,
//! every figure an inline SVG beside its table, and the figures the summary holds written
//! as every hotrow surface writes them.

use hotrow::{Config, Simulation};
use hotrow_report::format::grouped;
use hotrow_report::{html, svg, sweep_html, Options, FIGURES};
use serde_json::{json, Value};

fn run(preset: &str) -> (Value, String) {
    run_with(json!({ "preset": preset }))
}

fn run_with(mut config: Value) -> (Value, String) {
    config["durationMs"] = json!(1000);
    config["warmupMs"] = json!(500);
    let c = Config::from_json(&config).unwrap();
    let mut sim = Simulation::new(c);
    sim.run_to_end();
    (serde_json::to_value(sim.summary()).unwrap(), hotrow::catalog::windows_csv(sim.windows()))
}

#[test]
fn a_report_needs_nothing_but_itself_and_says_what_the_summary_says() {
    let (summary, windows) = run("bug39267");
    let page = html(&summary, &windows, &Options::default()).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    let lower = page.to_lowercase();
    for absent in ["<script", "http://", "https://", " src=", "<link", "@import", "url("] {
        assert!(!lower.contains(absent), "the report holds {absent}");
    }
    assert_eq!(page.matches("<svg ").count(), 3, "throughput, nodes, heatmap");
    assert!(page.matches("<table>").count() >= 5, "every figure beside its numbers");
    // The headline figures, the bound and the bottleneck, as the CLI writes them.
    let tpm = grouped(summary["tpm"].as_f64().unwrap());
    let hw = grouped(summary["intervals"]["metrics"]["tpm"]["halfWidth"].as_f64().unwrap());
    assert!(page.contains(&format!("<dt>TPM</dt><dd>{tpm} ± {hw}</dd>")), "TPM {tpm} ± {hw}, its 95% interval");
    let b = &summary["bottleneck"];
    assert!(page.contains(b["name"].as_str().unwrap()), "{}", b["name"]);
    // The bound with its 95% interval (`boundIntervals`), as the CLI writes it.
    let (bound, hw) = (b["boundTransactionsPerSecond"].as_f64().unwrap(), summary["boundIntervals"]["bound"]["halfWidth"].as_f64());
    assert!(hw.is_some(), "a bound interval");
    let bound = hotrow_report::format::with_interval(bound, hw, "transactions/s");
    assert!(page.contains(&format!("({bound} transactions/s)")), "{bound}");
    // The bug report's figures across the DBT2 chart on its cluster.
    assert!(page.contains("106,000 TPM") && page.contains("158,000 TPM"));
    // A fragment is the same block without the page around it.
    let fragment = html(&summary, &windows, &Options { fragment: true, ..Default::default() }).unwrap();
    assert!(!fragment.contains("<html") && fragment.contains("<div class=\"hotrow-report\">"));
    assert!(page.contains(fragment.split("<div class=\"hotrow-report\">").nth(1).unwrap()));
}

#[test]
fn each_figure_stands_alone_and_other_workloads_have_no_reference_lines() {
    let (summary, windows) = run("ndb-autoincrement");
    for name in FIGURES {
        let one = svg(name, &summary, &windows).unwrap();
        assert!(one.starts_with("<svg xmlns=\"http://www.w3.org/2000/svg\" ") && one.ends_with("</svg>\n"), "{name}");
        assert!(one.contains("<title"), "{name} is titled");
    }
    let page = html(&summary, &windows, &Options::default()).unwrap();
    assert!(!page.contains("bug report, cache"), "the bug report's figures are DBT2's");
    assert!(page.contains("<dt>transactions/s</dt>") && !page.contains("<dt>TPM</dt>"));
    assert!(svg("nope", &summary, &windows).unwrap_err().contains("throughput, nodes, heatmap"));
    assert!(html(&json!([]), &windows, &Options::default()).is_err());
    assert!(html(&summary, "", &Options::default()).unwrap_err().contains("empty"));
}

/// A sweep over the cache size on the bug report's cluster: the counter row holds it at
/// cache 1, the data nodes' threads from cache 1000 on; the page marks the change there.
#[test]
fn a_sweep_marks_where_the_bottleneck_changes() {
    let points: Vec<(Value, Value)> =
        [1, 1000, 10000].iter().map(|&c| (json!(c), run_with(json!({ "preset": "bug39267", "cacheSize": c })).0)).collect();
    let page = sweep_html("cacheSize", &points, &Options::default()).unwrap();
    assert!(!page.to_lowercase().contains("<script"));
    assert_eq!(page.matches("(changes here)").count(), 1, "one change, at cache 1000");
    assert!(page.contains("held by a counter row") && page.contains("held by data-node threads"));
    for (_, s) in &points {
        assert!(page.contains(&grouped(s["tpm"].as_f64().unwrap())), "each point's TPM is in the table");
    }
    assert!(sweep_html("cacheSize", &[], &Options::default()).is_err());
}
