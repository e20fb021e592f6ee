//! One integration-test binary, a module per feature.

mod api;
mod arrivals;
mod checkpoint;
mod determinism;
mod engines;
mod explain;
mod faults;
mod fidelity;
mod laws;
mod mechanisms;
mod memory;
mod mva;
mod props;
mod specs;
mod strategies;
mod variability;
mod view;

use hotrow::{Config, Simulation, Summary};
use serde_json::{json, Value};

/// A preset with overrides, run to its end; fails the test on any broken invariant.
pub fn run(preset: &str, overrides: Value) -> Summary {
    let mut input = json!({ "preset": preset, "durationMs": 1000, "warmupMs": 300 });
    for (k, v) in overrides.as_object().expect("overrides are an object") {
        input[k] = v.clone();
    }
    let config = Config::from_json(&input).unwrap_or_else(|e| panic!("{preset} {input}: {e}"));
    let seed = config.seed;
    let mut sim = Simulation::new(config);
    sim.run_to_end();
    if let Err(broken) = sim.check_invariants() {
        panic!("{preset} seed {seed}: invariant broken: {broken}");
    }
    sim.summary()
}

/// Every preset's name, from the package's one list.
pub const PRESETS: [&str; hotrow::PRESETS.len()] = {
    let mut names = [""; hotrow::PRESETS.len()];
    let mut i = 0;
    while i < names.len() {
        names[i] = hotrow::PRESETS[i].0;
        i += 1;
    }
    names
};

/// |a - b| / b within `tolerance`.
pub fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(1e-12)
}

/// Scenarios whose digests are pinned in tests/golden/digests.json: every preset and a few
/// seeds, short enough to run in wasm too.
pub fn golden_cases() -> Vec<Value> {
    let mut cases = Vec::new();
    for preset in PRESETS {
        for seed in [1, 42] {
            cases.push(json!({ "preset": preset, "seed": seed, "durationMs": 200, "warmupMs": 50 }));
        }
    }
    cases.push(json!({ "preset": "bug39267", "seed": 7, "dataNodes": 12, "replicas": 3, "cacheSize": 5, "hintedRefill": true, "durationMs": 200, "warmupMs": 50 }));
    cases.push(json!({ "preset": "ndbapi-hidden-pk", "seed": 9, "thinkTimeUs": 300, "apiNodes": 3, "durationMs": 200, "warmupMs": 50 }));
    // Service times drawn (gamma, both sides of shape 1) and scaled: native and wasm draw alike.
    cases.push(json!({ "preset": "bug39267", "seed": 11, "cpu": { "serviceCv": 1.0, "scale": 0.8 }, "durationMs": 200, "warmupMs": 50 }));
    cases.push(json!({ "preset": "modern", "seed": 5, "cpu": { "serviceCv": 2.5, "scale": 1.5 }, "durationMs": 60, "warmupMs": 20 }));
    // Random knobs and fault schedules: what the swarm drew for seeds 0..30 when these
    // cases were blessed, frozen as data so that the swarm may change its draws without
    // moving a golden case.
    let frozen: Vec<Value> = serde_json::from_str(include_str!("../golden/swarm-configs.json")).expect("frozen swarm configs");
    cases.extend(frozen);
    // Every shipped workload spec on the modern cluster, and a spec written by hand.
    for (workload, _, _) in hotrow::spec::SHIPPED {
        cases.push(json!({ "preset": "modern", "workload": workload, "seed": 1, "durationMs": 40, "warmupMs": 20 }));
    }
    let hand: Value = serde_json::from_str(include_str!("../golden/hand-spec.json")).expect("the hand-written spec");
    cases.push(json!({ "preset": "modern", "workload": hand, "seed": 3, "durationMs": 40, "warmupMs": 20 }));
    // The same with tables placed by their own partitioning and key layout.
    let mut placed = hand.clone();
    placed["tables"][1]["partitioning"] = json!("range");
    placed["tables"][1]["keyLayout"] = json!("shardBits");
    placed["tables"][2]["partitioning"] = json!("range");
    placed["tables"][2]["keyLayout"] = json!("bitReversed");
    cases.push(json!({ "preset": "modern", "workload": placed, "seed": 3, "durationMs": 40, "warmupMs": 20, "rangeRows": 1000 }));
    // Random workload specs with random knobs and faults: what the swarm drew for seeds 3,
    // 6, 21 and 32 when it began drawing specs, frozen as data (the wasm test runs them too).
    let specs: Vec<Value> = serde_json::from_str(include_str!("../golden/swarm-specs.json")).expect("frozen swarm specs");
    cases.extend(specs);
    // Open arrivals: Poisson below saturation on DBT2, and gamma-spread gaps past it with
    // an API node restarting (requests refused, waiting, taken by threads coming back).
    cases.push(json!({ "preset": "bug39267", "seed": 3, "arrivalRatePerApiNode": 300, "durationMs": 200, "warmupMs": 50 }));
    cases.push(json!({
        "preset": "ndbapi-pk", "seed": 13, "apiNodes": 2, "arrivalRatePerApiNode": 40000, "arrivalCv": 0.5, "durationMs": 100, "warmupMs": 20,
        "faults": [{ "atMs": 50, "kind": "apiNodeRestart", "apiNode": 1, "downMs": 20 }]
    }));
    // What real schemas need (several tables taking ids, unique indexes, pgbench's keys, a
    // fixed row, a time bucket), on the bug report's cluster with a small cache and per
    // client, and an API node restarting: native and wasm draw and count alike.
    let hand2: Value = serde_json::from_str(include_str!("../golden/hand-spec-2.json")).expect("the second hand-written spec");
    cases.push(json!({ "preset": "bug39267", "workload": hand2, "seed": 4, "cacheSize": 3, "durationMs": 60, "warmupMs": 20 }));
    cases.push(json!({
        "preset": "modern", "workload": hand2, "seed": 6, "idCacheScope": "client", "cacheSize": 2, "durationMs": 40, "warmupMs": 10,
        "faults": [{ "atMs": 25, "kind": "apiNodeRestart", "apiNode": 0, "downMs": 5 }]
    }));
    // The one-server engines taking ids under contention: InnoDB's AUTO_INCREMENT counter
    // and PostgreSQL's sequence, each taken inside the INSERT (`take_in_server`).
    for preset in ["innodb", "postgres"] {
        cases.push(json!({ "preset": preset, "workload": "sysbench-insert", "seed": 2, "clientsPerApiNode": 16, "durationMs": 100, "warmupMs": 20 }));
    }
    cases
}
