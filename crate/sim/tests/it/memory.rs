//! Resources: memory stays flat over a long run, and work per call stays bounded even for
//! the largest configuration.

use hotrow::{Config, Simulation};
use serde_json::json;

fn rss_kib() -> Option<u64> {
    let status = std::fs::read_to_string("/proc/self/status").ok()?;
    let line = status.lines().find(|l| l.starts_with("VmRSS:"))?;
    line.split_whitespace().nth(1)?.parse().ok()
}

/// One simulated hour of the bug39267 preset (about 8 billion events; several minutes).
/// The footprint at the end of the measured part equals the one at its start, give or
/// take the growth of reused buffers; the window ring is full from the 20th minute on.
#[test]
fn memory_is_flat_over_a_simulated_hour() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "warmupMs": 2000, "durationMs": 3_598_000 })).unwrap();
    let mut sim = Simulation::new(config);
    // The window ring fills at 20 minutes (12,000 windows of 100 ms): measure after that.
    sim.run_until(21 * 60 * 1_000_000_000);
    let (start, rss_start) = (sim.memory_bytes(), rss_kib());
    sim.run_to_end();
    let (end, rss_end) = (sim.memory_bytes(), rss_kib());
    println!("footprint {start} -> {end} bytes; process RSS {rss_start:?} -> {rss_end:?} KiB; {} events", sim.events());
    assert!(end as f64 <= start as f64 * 1.05, "footprint grew from {start} to {end} bytes");
    sim.check_invariants().unwrap();
    assert_eq!(sim.summary().duplicate_ids, 0);
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
