//! The bug report's measurements (MySQL Bug #39267, docs/MODEL.md §1 and §6) as checks against the model,
//! plus the mechanism behind them. `hotrow validate` prints this table; tests run it.
//!
//! Every case runs a preset with its defaults (only the seed, and for some cases one
//! documented override, changes). Nothing in the model knows these figures.

use crate::{Config, Simulation, Summary};
use serde::Serialize;
use serde_json::{json, Value};

/// The bug report's DBT2 figures on its cluster (8 data nodes): the bug (cache 1) and the
/// fix (cache 1000), in TPM. The validation checks the model against them; reports draw
/// them across a DBT2 run's chart where they apply (`facts::reference_lines`).
pub const REPORTED_TPM: [(&str, f64); 2] = [("bug report, cache 1", 106_000.0), ("bug report, cache 1000", 158_000.0)];

/// How a model figure is judged against the reported one.
#[derive(Clone, Copy, Debug, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase")]
pub enum Rule {
    /// Within `tolerance` (a fraction) of `target`.
    Within {
        target: f64,
        tolerance: f64,
    },
    AtLeast {
        min: f64,
    },
    AtMost {
        max: f64,
    },
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CaseResult {
    pub name: &'static str,
    /// What the bug report (or docs/MODEL.md, for a mechanism) says.
    pub reported: String,
    pub model: f64,
    /// (model - target) / target in percent, for `Within` rules.
    pub diff_percent: Option<f64>,
    pub rule: Rule,
    pub pass: bool,
}

#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub seed: u64,
    pub cases: Vec<CaseResult>,
    pub pass: bool,
}

fn case(name: &'static str, reported: &str, model: f64, rule: Rule) -> CaseResult {
    let (pass, diff_percent) = match rule {
        Rule::Within { target, tolerance } => {
            let d = (model - target) / target;
            (d.abs() <= tolerance, Some(d * 100.0))
        }
        Rule::AtLeast { min } => (model >= min, None),
        Rule::AtMost { max } => (model <= max, None),
    };
    CaseResult { name, reported: reported.to_string(), model, diff_percent, rule, pass }
}

/// Runs a preset with overrides and the given seed to its end.
pub(crate) fn run_preset(preset: &str, seed: u64, overrides: Value) -> Summary {
    let mut input = json!({ "preset": preset, "seed": seed });
    for (k, v) in overrides.as_object().expect("overrides are an object") {
        input[k] = v.clone();
    }
    let config = Config::from_json(&input).unwrap_or_else(|e| panic!("validation case {input}: {e}"));
    let mut sim = Simulation::new(config);
    sim.run_to_end();
    sim.summary()
}

/// Runs every case with `seed`. `progress` is told each run's name before it starts.
pub fn run(seed: u64, mut progress: impl FnMut(&str)) -> Report {
    let mut go = |label: &str, preset: &str, overrides: Value| {
        progress(label);
        run_preset(preset, seed, overrides)
    };
    let bug = go("bug39267", "bug39267", json!({}));
    let fixed = go("bug39267-fixed", "bug39267-fixed", json!({}));
    let pk = go("ndbapi-pk", "ndbapi-pk", json!({}));
    let hidden = go("ndbapi-hidden-pk", "ndbapi-hidden-pk", json!({}));
    let hidden_1000 = go("ndbapi-hidden-pk cacheSize=1000", "ndbapi-hidden-pk", json!({ "cacheSize": 1000 }));
    // One warehouse: its node group owns all user work; other nodes should be idle.
    let one_wh = go("bug39267 warehouses=1", "bug39267", json!({ "warehouses": 1 }));
    let one_wh_hinted = go("bug39267 warehouses=1 hintedRefill", "bug39267", json!({ "warehouses": 1, "hintedRefill": true }));

    let tc_nodes = |s: &Summary| s.nodes.iter().filter(|n| n.tc_transactions > 0.0).count() as f64;
    let cases = vec![
        case("DBT2 8 nodes, cache 1, no hint: TPM", "106k TPM", bug.tpm, Rule::Within { target: REPORTED_TPM[0].1, tolerance: 0.10 }),
        case("DBT2 8 nodes, cache 1000: TPM", "158k TPM", fixed.tpm, Rule::Within { target: REPORTED_TPM[1].1, tolerance: 0.10 }),
        case(
            "DBT2 TPM ratio, cache 1000 / cache 1",
            "1.49",
            fixed.tpm / bug.tpm,
            Rule::Within { target: REPORTED_TPM[1].1 / REPORTED_TPM[0].1, tolerance: 0.10 },
        ),
        case(
            "NDB API cache 1: inserts/s, PK / hidden PK",
            "easily 10x",
            pk.inserts_per_second / hidden.inserts_per_second,
            Rule::AtLeast { min: 10.0 },
        ),
        case(
            "NDB API cache 1000: inserts/s, hidden PK / PK",
            "within 10%",
            hidden_1000.inserts_per_second / pk.inserts_per_second,
            Rule::Within { target: 1.0, tolerance: 0.10 },
        ),
        case("mechanism: hot row lock utilization, cache 1", "saturated", bug.hot_row.lock_utilization, Rule::AtLeast { min: 0.9 }),
        case(
            "mechanism: refills/s x lock hold, cache 1",
            "refills/s = 1/hold",
            bug.hot_row.refills_per_second * bug.hot_row.lock_hold_mean_us / 1e6,
            Rule::Within { target: 1.0, tolerance: 0.05 },
        ),
        case("mechanism: hot row lock utilization, cache 1000", "nearly idle", fixed.hot_row.lock_utilization, Rule::AtMost { max: 0.05 }),
        case(
            "mechanism: nodes with TC work, 1 warehouse, refill unhinted",
            "all 8, idle ones too",
            tc_nodes(&one_wh),
            Rule::AtLeast { min: 8.0 },
        ),
        case(
            "mechanism: nodes with TC work, 1 warehouse, refill hinted",
            "only owners (<= 2)",
            tc_nodes(&one_wh_hinted),
            Rule::AtMost { max: 2.0 },
        ),
    ];
    let pass = cases.iter().all(|c| c.pass);
    Report { seed, cases, pass }
}
