//! The summary metrics a measurement can name: those of the metric catalog that the run
//! summary reports (`hotrow metrics`), by their name (`latencyP50Us`) or by their path in
//! `hotrow run --json` (`latencyUs.p50`), old names too through 0.2.x (`catalog::RENAMED`).
//! The catalog is the one list; nothing here copies it.

use hotrow::catalog::{self, Metric};
use hotrow::Summary;

/// Named in errors.
pub const EXAMPLES: &str = "tpm, transactionsPerSecond, insertsPerSecond, latencyUs.p50, latencyUs.p99 (`hotrow metrics` lists them)";

fn find(name: &str) -> Option<&'static Metric> {
    let name = catalog::renamed(name);
    catalog::summary_metrics().find(|m| m.name == name || m.summary == Some(name))
}

/// The metric's name in the catalog (`latencyUs.p50` is `latencyP50Us`): how the playground's
/// workers report it.
pub fn catalog_name(name: &str) -> Option<&'static str> {
    find(name).map(|m| m.name)
}

pub fn is_known(name: &str) -> bool {
    find(name).is_some()
}

/// The system's throughput (what the Universal Scalability Law models), as opposed to a
/// latency, a utilization or one part's rate.
pub fn is_throughput(name: &str) -> bool {
    matches!(name, "tpm" | "transactionsPerSecond" | "insertsPerSecond")
}

/// The metric's value in a summary.
pub fn of(summary: &Summary, name: &str) -> Option<f64> {
    let m = find(name)?;
    Some(catalog::of_summary(&serde_json::to_value(summary).ok()?, m))
}

#[cfg(test)]
mod tests {
    #[test]
    fn old_names_and_paths_are_read_through_0_2() {
        for name in ["hotRowLockHoldUsMean", "hotRow.lockHoldUsMean", "hotRowLockHoldMeanUs", "hotRow.lockHoldMeanUs"] {
            assert_eq!(super::catalog_name(name), Some("hotRowLockHoldMeanUs"), "{name}");
        }
        assert_eq!(super::catalog_name("arrivalWaitUsP99"), Some("arrivalWaitP99Us"));
    }
}
