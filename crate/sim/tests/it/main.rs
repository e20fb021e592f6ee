//! One integration-test binary, a module per feature.

mod api;
mod determinism;
mod fidelity;
mod laws;
mod mechanisms;

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

pub const PRESETS: [&str; 5] = ["bug39267", "bug39267-fixed", "ndbapi-pk", "ndbapi-hidden-pk", "modern"];

/// |a - b| / b within `tolerance`.
pub fn close(a: f64, b: f64, tolerance: f64) -> bool {
    (a - b).abs() <= tolerance * b.abs().max(1e-12)
}
