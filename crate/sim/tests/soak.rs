//! Soak: one simulated hour of the bug39267 preset (about 5 billion events; several
//! minutes). Not part of `npm test`: run it with `npm run soak`
//! (`cargo test --release -p hotrow --features soak --test soak -- --nocapture`).
//!
//! The footprint at the end of the measured part equals the one after the window ring
//! filled (the 20th simulated minute), and so does the process's resident memory, give or
//! take the allocator's slack.

use hotrow::{Config, Simulation};
use serde_json::json;

fn rss_kib() -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("Linux /proc");
    let line = status.lines().find(|l| l.starts_with("VmRSS:")).expect("a VmRSS line");
    line.split_whitespace().nth(1).and_then(|v| v.parse().ok()).expect("VmRSS in kB")
}

#[test]
fn memory_is_flat_over_a_simulated_hour() {
    let config = Config::from_json(&json!({ "preset": "bug39267", "warmupMs": 2000, "durationMs": 3_598_000 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_until(21 * 60 * 1_000_000_000);
    let (start, rss_start) = (sim.memory_bytes(), rss_kib());
    sim.run_to_end();
    let (end, rss_end) = (sim.memory_bytes(), rss_kib());
    println!("footprint {start} -> {end} bytes; RSS {rss_start} -> {rss_end} KiB; {} events", sim.events());
    assert!(end as f64 <= start as f64 * 1.05, "footprint grew from {start} to {end} bytes");
    assert!(rss_end <= rss_start + 4 * 1024, "resident memory grew from {rss_start} to {rss_end} KiB");
    sim.check_invariants().unwrap();
    assert_eq!(sim.summary().duplicate_ids, 0);
}
