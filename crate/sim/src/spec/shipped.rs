//! The workloads shipped as specs: JSON files in `crate/sim/workloads/`, compiled in.

use super::Spec;

/// `(name, menu label, spec JSON)` of every shipped spec, in the order lists show them
/// (the spec's own `about` says the rest).
pub const SHIPPED: [(&str, &str, &str); 8] = [
    ("ndbapi-insert", "NDB API single-row inserts", include_str!("../../workloads/ndbapi-insert.json")),
    ("sql-insert", "SQL single-row INSERTs via mysqld", include_str!("../../workloads/sql-insert.json")),
    ("tpcb", "TPC-B transfers (branch, teller, account, history)", include_str!("../../workloads/tpcb.json")),
    ("sysbench-insert", "sysbench oltp_insert (AUTO_INCREMENT)", include_str!("../../workloads/sysbench-insert.json")),
    ("bulk-insert", "multi-row INSERTs of 100 rows", include_str!("../../workloads/bulk-insert.json")),
    ("event-log", "append-only event log via the NDB API", include_str!("../../workloads/event-log.json")),
    ("ycsb-a", "YCSB A: 50/50 read/update, Zipfian", include_str!("../../workloads/ycsb-a.json")),
    ("counter", "one counter row, UPDATE n = n + 1", include_str!("../../workloads/counter.json")),
];

/// Every workload: `[{ name, about, spec }]`, DBT2 first (`spec` null: built in), then
/// the shipped specs; for `hotrow workloads --json` and the npm `workloads()`.
pub fn describe() -> serde_json::Value {
    let mut out = vec![serde_json::json!({
        "name": "dbt2",
        "about": "DBT2's TPC-C-like mix through mysqld (built in, not a spec): New-Order, Payment, Order-Status, Delivery, Stock-Level",
        "spec": serde_json::Value::Null,
    })];
    for (name, _, _) in SHIPPED {
        let spec = shipped(name).expect("a shipped spec");
        out.push(serde_json::json!({ "name": name, "about": spec.about, "spec": spec }));
    }
    serde_json::Value::Array(out)
}

/// The shipped specs, read once (a config writes its workload back by comparing it with
/// the shipped spec of its name, each time it is serialised).
fn parsed() -> &'static [Spec] {
    static PARSED: std::sync::OnceLock<Vec<Spec>> = std::sync::OnceLock::new();
    PARSED.get_or_init(|| {
        SHIPPED
            .iter()
            .map(|(_, _, text)| {
                let v = crate::parse_json(text).expect("a shipped spec is JSON");
                Spec::from_json(&v, "workload").expect("a shipped spec is valid")
            })
            .collect()
    })
}

/// The shipped spec named `name`.
pub fn shipped(name: &str) -> Option<Spec> {
    shipped_ref(name).cloned()
}

/// The shipped spec named `name`, borrowed.
pub(crate) fn shipped_ref(name: &str) -> Option<&'static Spec> {
    let i = SHIPPED.iter().position(|(n, _, _)| *n == name)?;
    Some(&parsed()[i])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_shipped_spec_is_valid_and_named_as_listed() {
        for (name, _, _) in SHIPPED {
            assert_eq!(shipped(name).expect(name).name, name);
        }
    }
}
