//! Faults and the promises the model keeps through them.

use crate::run;
use hotrow::{Config, Fault, Simulation};
use serde_json::json;

/// Every recorded regression and 200 fresh swarm seeds keep every invariant.
#[test]
fn swarm_keeps_every_invariant() {
    let list: serde_json::Value = serde_json::from_str(include_str!("../swarm_regressions.json")).unwrap();
    let regressions = list["cases"]
        .as_array()
        .unwrap()
        .iter()
        .map(|c| (c["seed"].as_u64().unwrap(), c["config"].clone(), "its config is in tests/swarm_regressions.json"));
    let fresh = (0..200).map(|seed| (seed, hotrow::swarm::config_for(seed), "reproduce: hotrow swarm --start SEED --seeds 1"));
    let mut failures = Vec::new();
    let (mut faults, mut ndb) = (0, 0);
    for (seed, config, how) in regressions.chain(fresh) {
        let o = hotrow::swarm::run_config(seed, &config);
        faults += o.faults;
        ndb += u32::from(config.get("engine").is_none_or(|e| e == "ndb"));
        if let Some(f) = o.failure {
            failures.push(format!("seed {seed}: {f} ({})", how.replace("SEED", &seed.to_string())));
        }
    }
    assert!(failures.is_empty(), "{failures:#?}");
    // Only NDB has faults; each of its draws has 0 to 4 (some dropped as invalid).
    assert!(faults as u32 > ndb, "the swarm drew only {faults} faults over {ndb} NDB runs");
}

/// A data node failure: the node goes silent, transactions in flight on it abort and are
/// retried, its partner takes over as primary, and it rejoins as a backup. DBT2 at cache
/// 1000 is CPU-bound and a lone replica does no replication work, so TPM holds: NDB
/// behaves the same way.
#[test]
fn data_node_failure_aborts_retries_and_rejoins() {
    let config = Config::from_json(&json!({
        "preset": "bug39267-fixed", "durationMs": 3000, "warmupMs": 0, "windowMs": 100,
        "faults": [{ "atMs": 1000, "kind": "dataNodeFailure", "dataNode": 2, "restartAfterMs": 1000 }]
    }))
    .unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(999_000_000);
    assert!(sim.nodes_down().is_empty());
    sim.run_until(1_050_000_000);
    assert_eq!(sim.nodes_down(), vec![2]);
    sim.run_to_end();
    sim.check_invariants().unwrap();
    let w: Vec<_> = sim.windows().collect();
    let mean =
        |from: usize, to: usize, f: &dyn Fn(&hotrow::Window) -> f64| w[from..to].iter().map(|x| f(x)).sum::<f64>() / (to - from) as f64;
    assert_eq!(mean(11, 20, &|w| w.node_load[2]), 0.0, "a failed node does no work");
    assert!(mean(22, 30, &|w| w.node_load[2]) > 0.2, "the restarted node works as a backup");
    let (before, after) = (mean(5, 10, &|w| w.rates.tpm), mean(22, 30, &|w| w.rates.tpm));
    assert!(after > before * 0.8, "throughput after the restart {after} vs before {before}");
    let s = sim.summary();
    assert!(s.aborts > 0, "transactions in flight on the node abort");
    assert_eq!(s.duplicate_ids, 0);
}

/// An API node restart: its clients are gone for `downMs`, so a client-bound cluster dips, then
/// recovers when they reconnect.
#[test]
fn api_node_restart_dips_and_recovers() {
    let config = Config::from_json(&json!({
        "preset": "ndbapi-hidden-pk", "cacheSize": 1000, "apiNodes": 2, "clientsPerApiNode": 4, "durationMs": 1500, "warmupMs": 0,
        "windowMs": 50, "faults": [{ "atMs": 500, "kind": "apiNodeRestart", "apiNode": 0, "downMs": 500 }]
    }))
    .unwrap();
    let mut sim = Simulation::new(config);
    sim.run_to_end();
    sim.check_invariants().unwrap();
    let w: Vec<_> = sim.windows().collect();
    let mean = |from: usize, to: usize| w[from..to].iter().map(|w| w.rates.inserts_per_second).sum::<f64>() / (to - from) as f64;
    let (before, during, after) = (mean(4, 10), mean(12, 20), mean(24, 30));
    assert!(during < before * 0.75, "no dip: {before} -> {during}");
    assert!(after > during * 1.2 && after > before * 0.85, "no recovery: {during} -> {after} (before {before})");
}

/// An API node restart loses its cached ranges: gaps, counted, never duplicates. With one
/// range per API node at most a range per restart is lost; with one per client, at most
/// one per client of the restarted node.
#[test]
fn api_node_restart_leaves_gaps_not_duplicates() {
    for (scope, most) in [("apiNode", 2 * 1000), ("client", 2 * 32 * 1000)] {
        let s = run(
            "ndbapi-hidden-pk",
            json!({
                "cacheSize": 1000, "apiNodes": 2, "durationMs": 1000, "idCacheScope": scope,
                "faults": [{ "atMs": 600, "kind": "apiNodeRestart", "apiNode": 1, "downMs": 100 },
                           { "atMs": 800, "kind": "apiNodeRestart", "apiNode": 0, "downMs": 0 }]
            }),
        );
        assert!(s.ids_lost > 0 && s.ids_lost < most, "{scope}: ids lost {}", s.ids_lost);
        assert_eq!(s.allocator.ids_lost, s.ids_lost);
        assert_eq!(s.duplicate_ids, 0);
        assert!(s.inserts_per_second > 0.0);
    }
}

/// A network delay spike slows the transactions that cross the slow node.
#[test]
fn network_delay_raises_latency() {
    let calm = run("ndbapi-pk", json!({ "durationMs": 500 }));
    let slow = run(
        "ndbapi-pk",
        json!({ "durationMs": 500,
        "faults": [{ "atMs": 300, "kind": "networkDelay", "dataNode": 0, "extraUs": 2000, "durationMs": 500 }] }),
    );
    assert!(slow.latency_us.mean > calm.latency_us.mean * 2.0, "{} vs {}", slow.latency_us.mean, calm.latency_us.mean);
}

/// Live injection is validated against the cluster's state now.
#[test]
fn live_injection_refuses_what_cannot_happen() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "durationMs": 1000, "warmupMs": 0 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(100_000_000);
    let fail = |n: u32| Fault::DataNodeFailure { at_ms: 0, data_node: n, restart_after_ms: 500 };
    sim.inject(fail(0)).unwrap();
    sim.run_until(110_000_000);
    assert_eq!(sim.inject(fail(0)).unwrap_err().field, "fault.dataNode", "already down");
    let e = sim.inject(fail(1)).unwrap_err();
    assert!(e.allowed.contains("last live replica"), "{e}");
    assert_eq!(sim.inject(fail(9)).unwrap_err().field, "fault.dataNode");
    sim.inject(Fault::ApiNodeRestart { at_ms: 0, api_node: 3, down_ms: 50 }).unwrap();
    sim.run_until(800_000_000);
    sim.check_invariants().unwrap();
    assert!(sim.nodes_down().is_empty(), "node 0 restarted after 500 ms");
}

/// Faults in the config are validated with named fields.
#[test]
fn bad_fault_schedules_are_named() {
    for (faults, field) in [
        (json!([{ "atMs": 1, "kind": "dataNodeFailure", "dataNode": 8 }]), "faults[0].dataNode"),
        (json!([{ "atMs": 1, "kind": "meteorStrike" }]), "faults[0]"),
        (json!([{ "atMs": 1, "kind": "apiNodeRestart", "apiNode": 0, "bogus": 1 }]), "faults[0]"),
        (
            json!([{ "atMs": 1, "kind": "dataNodeFailure", "dataNode": 0, "restartAfterMs": 100 },
                { "atMs": 50, "kind": "dataNodeFailure", "dataNode": 1 }]),
            "faults[0].dataNode",
        ),
        (json!([{ "atMs": 1, "kind": "networkDelay", "dataNode": 0, "extraUs": 5, "durationMs": 0 }]), "faults[0].durationMs"),
    ] {
        let e = Config::from_json(&json!({ "faults": faults })).unwrap_err();
        assert!(e.field.starts_with(field), "{faults}: {e}");
    }
    let e = Config::from_json(&json!({ "replicas": 1, "dataNodes": 2,
        "faults": [{ "atMs": 1, "kind": "dataNodeFailure", "dataNode": 0 }] }))
    .unwrap_err();
    assert!(e.allowed.contains("replicas >= 2"), "{e}");
}
