//! The report of a real run: one HTML page with no script and no resource from elsewhere,
//! every figure an inline SVG beside its table, and the figures the summary holds written
//! as every hotrow surface writes them.

use hotrow::{Config, Simulation};
use hotrow_report::format::grouped;
use hotrow_report::{html, svg, Options, FIGURES};
use serde_json::{json, Value};

fn run(preset: &str) -> (Value, String) {
    let c = Config::from_json(&json!({ "preset": preset, "durationMs": 1000, "warmupMs": 500 })).unwrap();
    let mut sim = Simulation::new(c);
    sim.run_to_end();
    (serde_json::to_value(sim.summary()).unwrap(), hotrow::catalog::windows_csv(sim.windows()))
}

#[test]
fn a_report_needs_nothing_but_itself_and_says_what_the_summary_says() {
    let (summary, windows) = run("bug39267");
    let page = html(&summary, &windows, &Options { fragment: false }).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    let lower = page.to_lowercase();
    for absent in ["<script", "http://", "https://", " src=", "<link", "@import", "url("] {
        assert!(!lower.contains(absent), "the report holds {absent}");
    }
    assert_eq!(page.matches("<svg ").count(), 3, "throughput, nodes, heatmap");
    assert!(page.matches("<table>").count() >= 5, "every figure beside its numbers");
    // The headline figures, the bound and the bottleneck, as the CLI writes them.
    let tpm = grouped(summary["tpm"].as_f64().unwrap());
    assert!(page.contains(&format!("<dt>TPM</dt><dd>{tpm}</dd>")), "TPM {tpm}");
    let b = &summary["bottleneck"];
    assert!(page.contains(b["name"].as_str().unwrap()), "{}", b["name"]);
    assert!(page.contains(&format!("({} transactions/s)", grouped(b["boundTransactionsPerSecond"].as_f64().unwrap()))));
    // The bug report's figures across the DBT2 chart on its cluster.
    assert!(page.contains("106,000 TPM") && page.contains("158,000 TPM"));
    // A fragment is the same block without the page around it.
    let fragment = html(&summary, &windows, &Options { fragment: true }).unwrap();
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
