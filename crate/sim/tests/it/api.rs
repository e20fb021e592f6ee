//! The library API the CLI and the wasm binding use: config errors, stepping, windows.

use hotrow::{Config, Simulation};
use serde_json::json;

#[test]
fn advance_is_bounded_by_events_and_time() {
    let config = Config::from_preset("bug39267").unwrap();
    let mut sim = Simulation::new(config);
    let a = sim.advance(u64::MAX / 4, 1000);
    assert_eq!(a.events, 1000);
    let t = sim.now_ns();
    let b = sim.advance(10_000, u64::MAX);
    assert_eq!(b.now_ns, t + 10_000, "the clock moves to the target even between events");
    assert!(sim.step());
    assert_eq!(sim.events(), 1001 + b.events);
}

#[test]
fn windows_report_live_figures_and_stay_bounded() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "windowMs": 10, "durationMs": 500, "warmupMs": 0 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_to_end();
    let windows: Vec<_> = sim.windows().collect();
    assert_eq!(windows.len(), 50);
    let last = windows.last().unwrap();
    assert!(last.rates.tpm > 0.0 && last.rates.refills_per_second > 0.0);
    assert_eq!(last.node_load.len(), 8);
    assert!(last.rates.hot_row_lock_utilization > 0.9, "{}", last.rates.hot_row_lock_utilization);
    assert!(windows.windows(2).all(|w| w[0].end_ms < w[1].end_ms));
}

#[test]
fn live_changes_take_effect_and_are_validated() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "durationMs": 2000, "warmupMs": 0 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(500_000_000);
    let before = sim.windows().last().unwrap().rates.tpm;
    sim.set("cacheSize", json!(1000)).unwrap();
    sim.set("hintedRefill", json!(true)).unwrap();
    sim.run_until(1_500_000_000);
    let after = sim.windows().last().unwrap().rates.tpm;
    assert!(after > before * 1.2, "cache 1 -> 1000 live: {before} -> {after}");
    let e = sim.set("cacheSize", json!(0)).unwrap_err();
    assert_eq!(e.field, "cacheSize");
    assert_eq!(sim.config().cache_size, 1000, "a rejected change loses nothing");
    let e = sim.set("dataNodes", json!(4)).unwrap_err();
    assert_eq!(e.field, "dataNodes");
    assert!(e.allowed.contains("new Simulation"), "{e}");
    let e = sim.set("cpu.lqhWriteNs", json!("x")).unwrap_err();
    assert_eq!(e.field, "cpu.lqhWriteNs");
    sim.set("network.latencyUs", json!(20)).unwrap();
    assert_eq!(sim.config().network.latency_us, 20);
}

#[test]
fn clients_can_be_added_and_retired_live() {
    let config = Config::from_json(&json!({ "preset": "ndbapi-pk", "clientsPerApiNode": 4, "durationMs": 3000, "warmupMs": 0 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(300_000_000);
    let few = sim.windows().last().unwrap().rates.transactions_per_second;
    sim.set("clientsPerApiNode", json!(16)).unwrap();
    assert_eq!(sim.active_clients(), 16);
    sim.run_until(600_000_000);
    let many = sim.windows().last().unwrap().rates.transactions_per_second;
    assert!(many > few * 2.0, "4 -> 16 clients: {few} -> {many}");
    sim.set("clientsPerApiNode", json!(2)).unwrap();
    sim.run_until(900_000_000);
    let fewer = sim.windows().last().unwrap().rates.transactions_per_second;
    assert!(fewer < few, "16 -> 2 clients: {many} -> {fewer}");
    sim.set("clientsPerApiNode", json!(8)).unwrap();
    sim.run_until(1_200_000_000);
    assert_eq!(sim.active_clients(), 8);
    sim.check_invariants().unwrap();
    // Back from 2 to 8 active clients: throughput rises again.
    let w = sim.windows().last().unwrap();
    assert!(w.rates.transactions_per_second > fewer);
}

/// The summary is a public contract (`hotrow run --json`, `sim.summary()`): its whole key
/// set is pinned here, nested objects included. Adding a field means adding it here too;
/// renaming or removing one breaks other programs.
#[test]
fn summary_serialises_with_public_names() {
    let config = Config::from_json(&json!({ "preset": "ndbapi-hidden-pk", "durationMs": 100, "warmupMs": 10 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_to_end();
    let v = serde_json::to_value(sim.summary()).unwrap();
    let keys = |v: &serde_json::Value| -> Vec<String> { v.as_object().unwrap().keys().cloned().collect() };
    assert_eq!(
        keys(&v),
        [
            "aborts",
            "abortsPerSecond",
            "allocator",
            "arrivals",
            "bottleneck",
            "boundIntervals",
            "clients",
            "committedByType",
            "config",
            "deadlocks",
            "digest",
            "duplicateIds",
            "events",
            "facts",
            "hotRow",
            "hottestRows",
            "idsIssued",
            "idsLost",
            "insertsPerSecond",
            "intervals",
            "keys",
            "latencyByTypeUs",
            "latencyUs",
            "lockTimeouts",
            "lockTimeoutsPerSecond",
            "nextCeiling",
            "nodes",
            "precision",
            "resources",
            "simulatedSeconds",
            "tpm",
            "transactionsPerSecond",
            "warmup",
        ]
    );
    assert_eq!(keys(&v["allocator"]), ["coordinationLatencyUs", "coordinationsPerSecond", "idsLost", "inOrderFraction", "kind"]);
    assert_eq!(keys(&v["allocator"]["coordinationLatencyUs"]), ["mean", "p99"]);
    assert_eq!(keys(&v["keys"]), ["hottestPartition", "insertSkew", "partitionsTouched"]);
    assert!(v["arrivals"].is_null(), "a closed loop has no arrivals");
    assert!(v["intervals"].is_null(), "9 measured windows: no interval");
    assert!(v["precision"].is_null(), "none asked");
    let mut long = Simulation::new(
        Config::from_json(&json!({ "preset": "ndbapi-hidden-pk", "durationMs": 2000, "warmupMs": 10, "precision": 0.5 })).unwrap(),
    );
    long.run_to_end();
    let long = serde_json::to_value(long.summary()).unwrap();
    assert_eq!(keys(&long["intervals"]), ["batches", "metrics", "windows", "windowsPerBatch"]);
    assert_eq!(keys(&long["intervals"]["metrics"]["insertsPerSecond"]), ["halfWidth", "lag1", "relative"]);
    assert_eq!(keys(&long["precision"]), ["asked", "converged", "metric", "reached"]);
    assert_eq!(keys(&long["warmup"]), ["decided", "leastMs", "measuredFromMs", "mode", "truncationMs"]);
    let mut open = Simulation::new(
        Config::from_json(&json!({ "preset": "ndbapi-pk", "arrivalRatePerApiNode": 1000, "durationMs": 100, "warmupMs": 10 })).unwrap(),
    );
    open.run_to_end();
    let open = serde_json::to_value(open.summary()).unwrap();
    assert_eq!(keys(&open["arrivals"]), ["offeredPerSecond", "refused", "waitUs", "waitedFraction", "waitingMean"]);
    assert_eq!(keys(&open["arrivals"]["waitUs"]), ["mean", "p99"]);
    assert_eq!(
        keys(&v["hotRow"]),
        [
            "lockHoldMeanUs",
            "lockHoldUsMean",
            "lockUtilization",
            "lockWaitMeanUs",
            "lockWaitUsMean",
            "node",
            "queueLengthMean",
            "refills",
            "refillsPerSecond"
        ]
    );
    assert_eq!(
        keys(&v["nodes"][0]),
        [
            "holdsHotRow",
            "id",
            "load",
            "messages",
            "nodeGroup",
            "tcTransactions",
            "threadLoad",
            "threadServiceMeanUs",
            "threadServiceUsMean",
            "threadServicesPerSecond",
        ]
    );
    assert_eq!(keys(&v["latencyUs"]), ["count", "mean", "p50", "p99"]);
    assert_eq!(
        keys(&v["hottestRows"][0]),
        [
            "blockedFraction",
            "countedSeconds",
            "counterOf", // The first row is the SYSTAB_0 counter row; other rows have no `counterOf`.
            "grantsPerSecond",
            "key",
            "lockBusyFraction",
            "meanWaitUs",
            "meanWaiters",
            "node",
            "queuedFraction",
            "table",
            "waits",
            "waitsPerSecond",
        ]
    );
    assert_eq!(keys(&v["hottestRows"][0]["waits"][0]), ["holder", "share", "waitUs", "waiter"]);
    let resource = [
        "allocatorFraction",
        "blockedFraction",
        "boundTransactionsPerSecond",
        "ceilingGrantsPerSecond",
        "demandUs",
        "grantsPerSecond",
        "holdMeanUs",
        "holdUsMean",
        "kind",
        "name",
        "node",
        "queuedFraction",
        "servers",
        "utilization",
    ];
    assert_eq!(keys(&v["bottleneck"]), resource);
    assert_eq!(keys(&v["resources"][0]), resource);
    assert_eq!(keys(&v["nextCeiling"]), ["heldBy", "kind", "relieved", "transactionsPerSecond"]);
    assert_eq!(keys(&v["latencyByTypeUs"]), ["insert", "refill"]);
    assert_eq!(keys(&v["config"]), keys(&serde_json::to_value(Config::default()).unwrap()));
    assert_eq!(v["config"]["workload"], "ndbapi-insert");
    assert!((v["simulatedSeconds"].as_f64().unwrap() - 0.1).abs() < 1e-9);
}

/// Regression: a cache size changed while a refill was in flight must not resize the range
/// that refill already took from the counter row (that issued ids twice).
#[test]
fn cache_size_change_during_a_refill_issues_no_id_twice() {
    for at in [1_000_000u64, 5_000_000, 5_300_000, 7_777_777] {
        let config = Config::from_json(&json!({ "preset": "ndbapi-hidden-pk", "durationMs": 50, "warmupMs": 0 })).unwrap();
        let mut sim = Simulation::new(config);
        sim.run_until(at);
        sim.set("cacheSize", json!(2)).unwrap();
        sim.run_until(at + 3_000_000);
        sim.set("cacheSize", json!(1)).unwrap();
        sim.run_to_end();
        sim.check_invariants().unwrap();
        assert_eq!(sim.summary().duplicate_ids, 0);
    }
}

/// What a run can stop on (`precisionMetric`'s values) is the headline figure, then exactly
/// the metric table's metrics with an interval, in table order.
#[test]
fn the_precision_metrics_are_the_metric_table_s_with_an_interval() {
    use hotrow::config::fields::{PRECISION_LABELS, PRECISION_METRICS};
    let with: Vec<&str> = hotrow::catalog::METRICS.iter().filter(|m| m.batch.is_some()).map(|m| m.name).collect();
    assert_eq!(PRECISION_METRICS[0], "headline");
    assert_eq!(&PRECISION_METRICS[1..], with.as_slice());
    assert_eq!(PRECISION_LABELS.len(), PRECISION_METRICS.len());
}

/// A detected warm-up: MSER-5 decides where the transient ended, the run is measured from
/// there (or from where it said so, its counters started over), the summary says both; a
/// run too short for it stays measured from warmupMs and says it is undecided.
#[test]
fn a_detected_warm_up_says_where_it_cut() {
    let run = |duration: u64| {
        // Cache 1000 from cold: its first refills and queues are a transient (at cache 1 the
        // counter row holds the rate from the first windows, and MSER-5 cuts nothing).
        let c = json!({ "preset": "bug39267-fixed", "warmupMs": 0, "durationMs": duration, "warmup": "auto" });
        let mut sim = Simulation::new(Config::from_json(&c).unwrap());
        sim.run_to_end();
        sim.check_invariants().unwrap();
        sim.summary()
    };
    let s = run(6000);
    let w = &s.warmup;
    assert!(w.decided && w.mode == "auto", "{w:?}");
    let cut = w.truncation_ms.unwrap();
    assert!(cut > 0.0 && w.measured_from_ms >= cut, "DBT2 from cold has a transient: {w:?}");
    assert!((s.simulated_seconds - (6.0 - w.measured_from_ms / 1000.0)).abs() < 1e-9, "measured from the cut on: {}", s.simulated_seconds);
    let short = run(1500);
    assert!(!short.warmup.decided && short.warmup.truncation_ms.is_none() && short.warmup.measured_from_ms == 0.0, "{:?}", short.warmup);
}
