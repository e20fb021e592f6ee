//! The allocator lab's laws, one per strategy, and where keys land. Each is a property the
//! simulation must show without being told it: the numbers come out of messages, CPU
//! queues and locks.

use crate::run;
use serde_json::json;

/// A small lab cluster: the lab presets with fewer clients and a short run.
fn lab(preset: &str, extra: serde_json::Value) -> hotrow::Summary {
    let mut fields = json!({ "clientsPerApiNode": 16, "durationMs": 300, "warmupMs": 100 });
    for (k, v) in extra.as_object().unwrap() {
        fields[k] = v.clone();
    }
    run(preset, fields)
}

/// Counter row: refills can commit no faster than one per lock hold, whatever owns the
/// cache or how many clients there are.
#[test]
fn counter_row_ceiling_holds_for_every_cache_owner() {
    for scope in ["apiNode", "client"] {
        let s = lab("ndb-autoincrement", json!({ "cacheSize": 1, "idCacheScope": scope, "clientsPerApiNode": 32 }));
        let hold_s = s.hot_row.lock_hold_mean_us / 1e6;
        let product = s.allocator.coordinations_per_second * hold_s;
        // 1% for the holds that straddle the end of warm-up (counted as a refill or a hold,
        // not both).
        assert!(product <= 1.01 && product > 0.9, "{scope}: id fetches/s x hold = {product}");
        assert_eq!(s.allocator.coordinations_per_second, s.hot_row.refills_per_second);
    }
}

/// Central service: its one thread serves each request for `allocatorRequestNs`, so the
/// requests it answers per second times that cost is its busy fraction: at most 1, and
/// close to 1 when enough clients wait on it (with deterministic services: drawn ones
/// average the cost only over many requests). No row lock is taken.
#[test]
fn central_service_obeys_the_utilization_law() {
    let cost_ns = 20_000.0;
    let busy = lab("central-allocator", json!({ "cpu": { "allocatorRequestNs": 20_000, "serviceCv": 0.0 } }));
    let u = busy.allocator.coordinations_per_second * cost_ns / 1e9;
    // A request served just before the measured period whose reply lands in it counts there.
    let one = 1.0 / (busy.allocator.coordinations_per_second * busy.simulated_seconds);
    assert!(u <= 1.0 + 2.0 * one && u > 0.97, "saturated service busy {u}");
    assert_eq!(busy.hot_row.refills, 0, "no counter row");
    let light = lab("central-allocator", json!({ "apiNodes": 1, "clientsPerApiNode": 1 }));
    let u = light.allocator.coordinations_per_second * cost_ns / 1e9;
    assert!(u < 0.2, "one client keeps the service mostly idle: {u}");
    assert!(light.allocator.coordination_latency_us.mean >= 2.0 * 20.0 + 20.0, "a round trip plus service");
}

/// Timestamp ids: an API node issues at most 2^sequenceBits ids per tick, and no
/// coordination at all.
#[test]
fn timestamp_ids_are_capped_per_tick() {
    let s = lab("timestamp-ids", json!({ "timestampSequenceBits": 1, "timestampTickUs": 1000, "apiNodes": 4 }));
    let cap = 4.0 * 2.0 * 1000.0; // API nodes x ids per tick x ticks per second.
    assert!(s.inserts_per_second <= cap * 1.001, "{} inserts/s above the cap {cap}", s.inserts_per_second);
    assert!(s.inserts_per_second > cap * 0.95, "clients enough to reach the cap: {}", s.inserts_per_second);
    assert_eq!(s.allocator.coordinations_per_second, 0.0);
    assert_eq!(s.duplicate_ids, 0);
    let free = lab("timestamp-ids", json!({ "apiNodes": 4 }));
    assert!(free.inserts_per_second > 10.0 * cap, "4096 ids per ms do not bind: {}", free.inserts_per_second);
}

/// Sequential keys on range partitioning all land in the newest range; hashed keys spread
/// over every partition; shard bits and bit reversal spread them again.
#[test]
fn insert_skew_follows_partitioning_and_layout() {
    let hash = lab("ndb-autoincrement", json!({}));
    let partitions = 8.0 * 4.0; // dataNodes x ldmThreads of the modern cluster.
    assert!(hash.keys.insert_skew < 2.0 / partitions, "hash skew {}", hash.keys.insert_skew);
    assert_eq!(hash.keys.partitions_touched, 32);
    // Skew is taken per window: 10 ms windows see the newest range as one hot partition.
    let seq = lab("range-sequential", json!({ "windowMs": 10 }));
    assert!(seq.keys.insert_skew > 0.9, "sequential on range: skew {}", seq.keys.insert_skew);
    for preset in ["range-shard-bits", "range-bit-reversed"] {
        let spread = lab(preset, json!({ "rangeRows": 2_000 }));
        assert!(spread.keys.insert_skew < 0.25, "{preset}: skew {}", spread.keys.insert_skew);
        assert!(spread.inserts_per_second > 2.0 * seq.inserts_per_second, "{preset} beats the tail hotspot");
    }
}

/// A growing cache coordinates less often than a fixed one of its starting size.
#[test]
fn a_growing_cache_coordinates_less() {
    let fixed = lab("ndb-autoincrement", json!({ "cacheSize": 1 }));
    let grown = lab("adaptive-cache", json!({}));
    assert!(grown.allocator.coordinations_per_second * 20.0 < fixed.allocator.coordinations_per_second);
    assert!(grown.inserts_per_second > 2.0 * fixed.inserts_per_second);
}

/// The service's standby takes over: ids the primary reserved but had not handed out are
/// lost, none is issued twice, inserts stop during the takeover and go on after it.
#[test]
fn allocator_failover_loses_ids_never_duplicates() {
    let sim = central_failing(16, 300, 100, 150, 50);
    let inserts_in = |from: f64, to: f64| -> f64 {
        let ws: Vec<f64> = sim.windows().filter(|w| w.end_ms > from && w.end_ms <= to).map(|w| w.rates.inserts_per_second).collect();
        ws.iter().sum::<f64>() / ws.len() as f64
    };
    let (before, during, after) = (inserts_in(100.0, 150.0), inserts_in(160.0, 200.0), inserts_in(220.0, 400.0));
    assert_eq!(during, 0.0, "no id while the standby takes over");
    assert!(before > 0.0 && after > 0.5 * before, "before {before}, after {after}");
    let s = sim.summary();
    assert!(s.allocator.ids_lost > 0 && s.allocator.ids_lost <= 10_000, "ids lost {}", s.allocator.ids_lost);
    assert_eq!(s.duplicate_ids, 0);
    sim.check_invariants().unwrap();
}

/// A service that fails before its first request has reserved nothing past the rows the
/// table starts with: it loses no id, and its standby goes on from there, not from 0 (its
/// high-water mark once started at 0: -1 ids lost, shown as 18446744073709551615).
#[test]
fn allocator_failing_before_its_first_request_loses_nothing() {
    let sim = central_failing(4, 200, 0, 0, 20);
    let s = sim.summary();
    assert_eq!(s.allocator.ids_lost, 0);
    assert!(s.ids_issued > 0 && s.duplicate_ids == 0, "issued {}, duplicates {}", s.ids_issued, s.duplicate_ids);
    sim.check_invariants().unwrap();
}

/// The central allocator preset with `clients` per API node, run to its end, its service
/// failing at `at_ms` for `takeover_ms` (10 ms windows).
fn central_failing(clients: u32, duration_ms: u64, warmup_ms: u64, at_ms: u64, takeover_ms: u64) -> hotrow::Simulation {
    let config = hotrow::Config::from_json(&json!({
        "preset": "central-allocator", "clientsPerApiNode": clients, "durationMs": duration_ms, "warmupMs": warmup_ms, "windowMs": 10,
        "faults": [{ "atMs": at_ms, "kind": "allocatorFailure", "takeoverMs": takeover_ms }]
    }))
    .unwrap();
    let mut sim = hotrow::Simulation::new(config);
    sim.run_to_end();
    sim
}

/// Each window's rows per partition add up to its inserts (rows are placed when a key is
/// chosen and counted as inserted at commit: they differ by at most the rows in flight, one
/// per client), and with sequential keys on range partitioning one partition (the tail)
/// takes nearly all of them.
#[test]
fn windows_place_every_inserted_row_on_a_partition() {
    use hotrow::{Config, Simulation};
    // Bit-reversed keys get small ranges, so that the table has split many times within the
    // short run; sequential keys keep ranges larger than a window's rows (the tail stays put).
    for (preset, range_rows, tail) in
        [("range-sequential", 100_000, true), ("range-bit-reversed", 2_000, false), ("ndb-autoincrement", 100_000, false)]
    {
        let input = json!({ "preset": preset, "clientsPerApiNode": 16, "durationMs": 300, "warmupMs": 100, "rangeRows": range_rows });
        let config = Config::from_json(&input).unwrap();
        let partitions = config.data_nodes * config.ldm_threads;
        let in_flight_per_second = config.clients() as f64 / (config.window_ms as f64 / 1000.0);
        let mut sim = Simulation::new(config);
        sim.run_to_end();
        for w in sim.windows() {
            assert_eq!(w.partition_inserts_per_second.len(), partitions as usize, "{preset}");
            let sum: f64 = w.partition_inserts_per_second.iter().sum();
            let diff = (sum - w.rates.inserts_per_second).abs();
            assert!(diff <= in_flight_per_second + 1e-6, "{preset}: {sum} placed vs {} inserted per s", w.rates.inserts_per_second);
            let top = w.partition_inserts_per_second.iter().cloned().fold(0.0, f64::max);
            assert!((top / sum - w.insert_skew()).abs() < 1e-9, "{preset}: the skew is the top partition's share");
        }
        // A range table starts as one range, so only the last window says where rows go.
        let last = sim.windows().last().unwrap().insert_skew();
        assert_eq!(last > 0.9, tail, "{preset}: last window's skew {last}");
    }
}
