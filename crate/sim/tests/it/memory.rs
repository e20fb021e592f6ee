//! Resources: memory stays flat over a long run, and work per call stays bounded even for
//! the largest configuration.

use hotrow::{Config, Simulation};
use serde_json::json;

/// The footprint stays flat once the window ring is full: 1 ms windows fill the ring
/// (12,000 windows) in 12 simulated seconds; the next 15 must not grow it. The simulated
/// hour of the same check is `npm run soak` (tests/soak.rs).
#[test]
fn memory_is_flat_once_warm() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "windowMs": 1, "warmupMs": 1000, "durationMs": 29_000 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(14_000_000_000);
    let start = sim.memory_bytes();
    sim.run_to_end();
    let end = sim.memory_bytes();
    assert!(end as f64 <= start as f64 * 1.02, "footprint grew from {start} to {end} bytes");
    assert_eq!(sim.windows().len(), hotrow::WINDOW_RING);
    sim.check_invariants().unwrap();
}

/// The largest allowed cluster and client count: `advance` with an event budget returns
/// after that many events, so a caller (the browser's worker) always gets control back.
#[test]
fn largest_configuration_stays_responsive() {
    let config = Config::from_json(&json!({
        "preset": "modern", "dataNodes": 48, "replicas": 4, "ldmThreads": 32, "tcThreads": 32,
        "apiNodes": 256, "clientsPerApiNode": 256, "warehouses": 100000, "cacheSize": 1
    }))
    .unwrap();
    let mut sim = Simulation::new(config);
    for _ in 0..20 {
        let a = sim.advance(u64::MAX / 2, 50_000);
        assert_eq!(a.events, 50_000);
    }
    sim.check_invariants().unwrap();
}
