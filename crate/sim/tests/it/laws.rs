//! The laws of docs/MODEL.md §7, checked on every preset: numbers the simulation reports must
//! agree with queueing theory computed from other numbers it reports. Runs are short (0.4
//! simulated s after 0.1 s warm-up): the allocator lab's presets insert 1.8 million rows a
//! second.

use crate::{close, run, PRESETS};
use serde_json::json;

/// Utilization law: a thread's busy fraction = completions per second x mean service time
/// (over its cores: a one-server engine's one station is a pool of `server.cores`).
#[test]
fn utilization_law_per_thread() {
    for preset in PRESETS {
        let s = run(preset, json!({ "durationMs": 400, "warmupMs": 100 }));
        let cores = if s.config.engine != hotrow::config::Engine::Ndb { s.config.server.cores as f64 } else { 1.0 };
        for n in &s.nodes {
            for (t, load) in n.thread_load.iter().enumerate() {
                let predicted = n.thread_services_per_second[t] * n.thread_service_mean_us[t] / 1e6 / cores;
                assert!(
                    (load - predicted).abs() <= 0.02 * predicted.max(0.05),
                    "{preset} node {} thread {t}: load {load} vs X*S {predicted}",
                    n.id
                );
            }
        }
    }
}

/// Little's law for the closed client loop: clients = throughput x (response + think).
#[test]
fn littles_law_for_clients() {
    for preset in PRESETS {
        for think_us in [0u64, 2_000] {
            let s = run(preset, json!({ "thinkTimeUs": think_us, "durationMs": 400, "warmupMs": 100 }));
            let n = s.transactions_per_second * (s.latency_us.mean + think_us as f64) / 1e6;
            assert!(close(n, s.clients as f64, 0.02), "{preset} think {think_us}: X(R+Z) = {n} for {} clients", s.clients);
        }
    }
}

/// Hot-row ceiling: refills per second <= 1 / lock hold time, whatever the node count.
/// From 8 data nodes (8 mysqlds) the row is the bottleneck and the bound is met; on
/// smaller clusters each mysqld's allocator mutex allows one refill in flight, and those
/// few refills cannot keep the row busy.
#[test]
fn hot_row_ceiling() {
    for nodes in [2, 4, 8, 16] {
        let s = run("bug39267", json!({ "dataNodes": nodes }));
        let h = &s.hot_row;
        let bound = 1e6 / h.lock_hold_mean_us;
        assert!(h.refills_per_second <= bound * 1.02, "{nodes} nodes: {} refills/s > 1/hold {bound}", h.refills_per_second);
        assert!(nodes < 8 || h.lock_utilization > 0.95, "{nodes} nodes: cache 1 should saturate the row, got {}", h.lock_utilization);
        assert!(close(h.refills_per_second * h.lock_hold_mean_us / 1e6, h.lock_utilization, 0.03), "{nodes}: {h:?}");
    }
}

/// Flow balance and lock conservation are checked by `run` at the end of every run;
/// here also in the middle of one, at many points.
#[test]
fn conservation_holds_at_every_step() {
    use hotrow::{Config, Simulation};
    for preset in PRESETS {
        let config = Config::from_json(&json!({ "preset": preset, "durationMs": 100, "warmupMs": 0 })).unwrap();
        let mut sim = Simulation::new(config);
        while !sim.finished() {
            sim.advance(1_000_000, 20_011);
            sim.check_invariants().unwrap_or_else(|e| panic!("{preset} at {} ns: {e}", sim.now_ns()));
        }
    }
}

/// Ids: none issued twice, whatever the cache size, node count or hint.
#[test]
fn ids_are_unique() {
    for (cache, nodes, hinted) in [(1, 2, false), (3, 4, true), (1000, 8, false), (7, 16, true)] {
        for preset in ["bug39267", "ndbapi-hidden-pk"] {
            let s = run(preset, json!({ "cacheSize": cache, "dataNodes": nodes, "hintedRefill": hinted, "apiNodes": 3 }));
            assert_eq!(s.duplicate_ids, 0);
            assert!(s.ids_issued > 0, "{preset}: no inserts took a hidden key");
        }
    }
}

/// Raising the cache size never lowers throughput beyond noise.
#[test]
fn cache_size_is_monotone() {
    for preset in ["bug39267", "ndbapi-hidden-pk"] {
        let mut last = 0.0;
        for cache in [1, 2, 10, 100, 1000, 100_000] {
            let s = run(preset, json!({ "cacheSize": cache }));
            assert!(s.transactions_per_second >= last * 0.97, "{preset} cache {cache}: {} < {last}", s.transactions_per_second);
            last = s.transactions_per_second;
        }
    }
}
