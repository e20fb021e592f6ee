//! The mechanisms behind the numbers: where TC work lands, what a hint changes, what the
//! allocator does.

use crate::{close, run};
use serde_json::json;

/// With hints and DBT2 on one warehouse, TC work lands only on the node holding the
/// primary replica of the warehouse's partition (user transactions) and on the one holding
/// the counter row (hinted refills): exactly those, no other.
#[test]
fn hinted_work_stays_on_owning_nodes() {
    for cache in [10, 1] {
        let s = run("bug39267", json!({ "warehouses": 1, "hintedRefill": true, "cacheSize": cache }));
        let topo = s.config.topology();
        let warehouse_primary = topo.first_primary(topo.partition_of(0));
        let mut owners = vec![warehouse_primary, s.hot_row.node];
        owners.sort();
        owners.dedup();
        let busy: Vec<u32> = s.nodes.iter().filter(|n| n.tc_transactions > 0.0).map(|n| n.id).collect();
        assert_eq!(busy, owners, "cache {cache}: TC work on {busy:?}, owners {owners:?}");
        assert!(s.hot_row.refills > 0, "cache {cache}: no refill ran, so the refill hint was not exercised");
    }
}

/// Without a hint, cache-1 refills put TC work on every data node, even those that own
/// no warehouse.
#[test]
fn unhinted_refills_reach_every_node() {
    let s = run("bug39267", json!({ "warehouses": 1 }));
    for n in &s.nodes {
        assert!(n.tc_transactions > 0.0, "node {} saw no TC work", n.id);
    }
    let hinted = run("bug39267", json!({ "warehouses": 1, "hintedRefill": true }));
    let idle = hinted.nodes.iter().filter(|n| n.tc_transactions == 0.0).count();
    assert!(idle >= 6, "with a hint, {idle} idle nodes");
}

/// Every cache-size-th id costs a refill; ids come only from refills.
#[test]
fn refills_follow_cache_size() {
    for cache in [1u64, 10, 100] {
        let s = run("ndbapi-hidden-pk", json!({ "cacheSize": cache }));
        // Every insert of this workload takes one hidden key: from a range refilled while
        // measuring, or from one each client's cache held when warm-up ended.
        let inserts = (s.inserts_per_second * s.simulated_seconds).round();
        let bound = cache as f64 * (s.hot_row.refills + s.clients as u64) as f64;
        assert!(inserts <= bound, "cache {cache}: {inserts} inserts from {} refills", s.hot_row.refills);
        let ids_per_refill = s.inserts_per_second / s.hot_row.refills_per_second;
        assert!(ids_per_refill > cache as f64 * 0.5, "cache {cache}: {ids_per_refill} ids per refill");
    }
}

/// A table with a primary key never touches the allocator.
#[test]
fn primary_key_inserts_take_no_ids() {
    for preset in ["ndbapi-pk", "bug39267"] {
        let s = run(preset, json!({ "primaryKey": true }));
        assert_eq!(s.ids_issued, 0, "{preset}");
        assert_eq!(s.hot_row.refills_per_second, 0.0, "{preset}");
        assert!(s.inserts_per_second > 0.0);
    }
}

/// With one replica a write has no backup, so there is no complete phase: a single-row
/// NDB API insert is exactly TCKEYREQ, LQHKEYREQ, LQHKEYCONF, COMMIT and COMMITTED (5 data
/// node messages). With two replicas the chain adds a backup LQHKEYREQ and COMMIT and the
/// complete phase's COMPLETE and COMPLETED (9).
#[test]
fn one_replica_runs_without_complete_phase() {
    for (replicas, nodes, messages) in [(1, 3, 5.0), (2, 2, 9.0)] {
        let s = run("ndbapi-pk", json!({ "replicas": replicas, "dataNodes": nodes }));
        assert_eq!(s.nodes.len(), nodes as usize);
        assert!(s.nodes.iter().all(|n| n.node_group == n.id / replicas));
        let received: f64 = s.nodes.iter().map(|n| n.messages).sum();
        let per_insert = received / s.inserts_per_second;
        assert!(close(per_insert, messages, 0.01), "{replicas} replicas: {per_insert} messages per insert, want {messages}");
    }
}
