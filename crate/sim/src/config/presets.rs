//! Presets: named sets of fields on top of [`Config::default`] (the 2008 cluster of Bug
//! #39267). Nothing in the model knows their names; they are only JSON defaults.

use super::Config;
use serde_json::Value;

/// Names of the presets, in the order `hotrow presets` lists them.
pub const PRESETS: [(&str, &str); 5] = [
    ("bug39267", "DBT2 on 8 data nodes, hidden-key cache 1, refill without hint: the 2008 bug"),
    ("bug39267-fixed", "the same with cache 1000, as in MySQL Cluster 6.3.18"),
    ("ndbapi-pk", "NDB API single-row inserts into a table with a primary key"),
    ("ndbapi-hidden-pk", "the same table without a primary key (hidden key), cache 1"),
    ("modern", "a present-day cluster: 4 LDM + 2 TC threads, 20 us network, cache 1000, hinted"),
];

/// The fields a preset sets on top of [`Config::default`], as JSON.
pub fn preset(name: &str) -> Option<Value> {
    let base = Config::default();
    let v = match name {
        "bug39267" => serde_json::json!({}),
        "bug39267-fixed" => serde_json::json!({ "cacheSize": 1000 }),
        "ndbapi-pk" | "ndbapi-hidden-pk" => serde_json::json!({
            "workload": "ndbapi-insert",
            "dataNodes": 2,
            "apiNodes": 1,
            "clientsPerApiNode": 32,
            "primaryKey": name == "ndbapi-pk",
            "cacheSize": 1,
            "durationMs": 5000,
            "warmupMs": 1000,
        }),
        "modern" => serde_json::json!({
            "ldmThreads": 4,
            "tcThreads": 2,
            "apiCores": 32,
            "clientsPerApiNode": 64,
            "cacheSize": 1000,
            "hintedRefill": true,
            "network": { "latencyUs": 20 },
            "cpu": serde_json::to_value(base.cpu.faster(3)).expect("CpuConfig serialises"),
        }),
        _ => return None,
    };
    Some(v)
}

pub(super) fn preset_list() -> String {
    let names: Vec<String> = PRESETS.iter().map(|(n, _)| format!("\"{n}\"")).collect();
    format!("must be one of {}", names.join(", "))
}

