//! The laws an explanation keeps on any run (`explain/`), checked on every swarm seed.

use crate::decimal::Shortest;
use crate::Summary;

/// The laws hold on any summary: utilizations within 0..=1, a saturated resource wherever
/// the throughput meets the lowest bound, every hot row's wait split summing to its wait.
pub fn explanation_laws(s: &Summary) -> Result<(), String> {
    let x = s.transactions_per_second;
    for r in s.resources.iter().chain(s.bottleneck.as_ref()) {
        if !(0.0..=1.0).contains(&r.utilization) {
            return Err(format!("{} utilization {}", r.name, Shortest(r.utilization)));
        }
        if r.bound_transactions_per_second > 0.0 && x > 0.0 && x >= 0.95 * r.bound_transactions_per_second && r.utilization < 0.9 {
            return Err(format!(
                "{} bound {} at throughput {} with utilization {}",
                r.name,
                Shortest(r.bound_transactions_per_second),
                Shortest(x),
                Shortest(r.utilization)
            ));
        }
    }
    for row in &s.hottest_rows {
        let wait_us = row.mean_waiters * s.simulated_seconds * 1e6;
        let parts: f64 = row.waits.iter().map(|w| w.wait_us).sum();
        if (parts - wait_us).abs() > 1e-9 * wait_us.max(1.0) {
            return Err(format!("{} {}: parts {} us of a wait of {} us", row.table, row.key, Shortest(parts), Shortest(wait_us)));
        }
    }
    Ok(())
}
