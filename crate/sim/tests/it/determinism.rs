//! The same seed and config give the same run; another seed gives another.

use crate::run;
use serde_json::json;

#[test]
fn same_seed_same_digest_on_every_preset() {
    // Short runs: the golden cases pin every preset's digest over longer ones already.
    for preset in crate::PRESETS {
        let a = run(preset, json!({ "durationMs": 120, "warmupMs": 40 }));
        let b = run(preset, json!({ "durationMs": 120, "warmupMs": 40 }));
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

/// The outcomes a golden case records beside its digest, so that a changed digest says
/// what moved.
fn outcome(s: &hotrow::Summary) -> serde_json::Value {
    json!({
        "events": s.events,
        "committedByType": s.committed_by_type,
        "idsIssued": s.ids_issued,
        "idsLost": s.ids_lost,
        "aborts": s.aborts,
        "refills": s.hot_row.refills,
        "hotRowLockUtilization": s.hot_row.lock_utilization,
        "latencyUsMean": s.latency_us.mean,
    })
}

/// Named scenarios and their digests. The shipped wasm module checks the same file
/// (tests/js/golden.test.mjs), so native and wasm must agree. A failure names each case
/// whose digest changed and the recorded outcomes that moved. After an intended model
/// change, regenerate with `HOTROW_BLESS=1 cargo test --release -p hotrow --test it golden`.
#[test]
fn golden_digests() {
    use hotrow::{Config, Simulation};
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/golden/digests.json");
    let mut got = Vec::new();
    for input in crate::golden_cases() {
        let mut sim = Simulation::new(Config::from_json(&input).unwrap());
        sim.run_to_end();
        let s = sim.summary();
        got.push(json!({ "config": input, "digest": s.digest, "outcome": outcome(&s) }));
    }
    if std::env::var_os("HOTROW_BLESS").is_some() {
        std::fs::write(path, serde_json::to_string_pretty(&got).unwrap() + "\n").unwrap();
    }
    let want: Vec<serde_json::Value> =
        serde_json::from_str(&std::fs::read_to_string(path).expect("golden file; create it with HOTROW_BLESS=1")).unwrap();
    assert_eq!(want.len(), got.len(), "the golden file has {} cases, the test {}: rerun with HOTROW_BLESS=1", want.len(), got.len());
    let mut moved = Vec::new();
    for (i, (w, g)) in want.iter().zip(&got).enumerate() {
        assert_eq!(w["config"], g["config"], "case {i}: the golden file's config differs; rerun with HOTROW_BLESS=1");
        if w["digest"] != g["digest"] {
            let fields: Vec<String> = g["outcome"]
                .as_object()
                .unwrap()
                .iter()
                .filter(|(k, v)| w["outcome"].get(k.as_str()) != Some(*v))
                .map(|(k, v)| format!("{k}: {} -> {v}", w["outcome"].get(k.as_str()).unwrap_or(&serde_json::Value::Null)))
                .collect();
            let what = if fields.is_empty() { "only unrecorded outcomes".to_string() } else { fields.join(", ") };
            moved.push(format!("case {i} {}: digest {} -> {}; {what}", g["config"], w["digest"], g["digest"]));
        }
    }
    assert!(moved.is_empty(), "golden outcomes moved (if intended, rerun with HOTROW_BLESS=1):\n{}", moved.join("\n"));
}
