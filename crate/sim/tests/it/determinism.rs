//! The same seed and config give the same run; another seed gives another.

use crate::run;
use serde_json::json;

#[test]
fn same_seed_same_digest_on_every_preset() {
    for preset in crate::PRESETS {
        let a = run(preset, json!({ "durationMs": 300, "warmupMs": 100 }));
        let b = run(preset, json!({ "durationMs": 300, "warmupMs": 100 }));
        assert_eq!(a.digest, b.digest, "{preset}");
        assert_eq!(a.events, b.events, "{preset}");
    }
}

#[test]
fn another_seed_another_digest() {
    let mut digests: Vec<String> =
        (1..=6).map(|seed| run("bug39267", json!({ "seed": seed, "durationMs": 300, "warmupMs": 100 })).digest).collect();
    digests.sort();
    digests.dedup();
    assert_eq!(digests.len(), 6, "six seeds gave only {} digests", digests.len());
}

#[test]
fn stepping_in_slices_equals_one_run() {
    use hotrow::{Config, Simulation};
    let config = Config::from_json(&json!({ "preset": "bug39267", "durationMs": 300, "warmupMs": 100 })).unwrap();
    let mut whole = Simulation::new(config.clone());
    whole.run_to_end();
    let mut sliced = Simulation::new(config);
    let end = sliced.config().end_ns();
    while !sliced.finished() {
        sliced.advance(7_777_777.min(end - sliced.now_ns()), 5_000);
    }
    assert_eq!(whole.summary().digest, sliced.summary().digest);
}

/// Named scenarios and their digests. The wasm build checks the same file
/// (crate/wasm/tests/node.rs), so native and wasm must agree. After an intended model
/// change, regenerate with `HOTROW_BLESS=1 cargo test --release -p hotrow --test it golden`.
#[test]
fn golden_digests() {
    use hotrow::{Config, Simulation};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/digests.json");
    let cases: Vec<serde_json::Value> = crate::golden_cases();
    let mut got = Vec::new();
    for input in &cases {
        let mut sim = Simulation::new(Config::from_json(input).unwrap());
        sim.run_to_end();
        got.push(json!({ "config": input, "digest": sim.summary().digest }));
    }
    let text = serde_json::to_string_pretty(&got).unwrap() + "\n";
    if std::env::var_os("HOTROW_BLESS").is_some() {
        std::fs::write(path, &text).unwrap();
    }
    let want = std::fs::read_to_string(path).expect("golden file; create it with HOTROW_BLESS=1");
    assert_eq!(text, want, "digests changed: if the model change is intended, rerun with HOTROW_BLESS=1");
}
