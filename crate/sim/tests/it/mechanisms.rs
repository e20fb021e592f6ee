//! The mechanisms behind the numbers: where TC work lands, what a hint changes, what the
//! allocator does.

use crate::run;
use serde_json::json;

/// With hints and DBT2 on one warehouse, only the warehouse's primary node coordinates
/// user transactions, and hinted refills go to the counter row's primary node.
#[test]
fn hinted_work_stays_on_owning_nodes() {
    let s = run("bug39267", json!({ "warehouses": 1, "hintedRefill": true, "cacheSize": 1000 }));
    let busy: Vec<u32> = s.nodes.iter().filter(|n| n.tc_transactions > 0.0).map(|n| n.id).collect();
    assert!(busy.len() <= 2, "TC work on {busy:?}");
    let idle = s.nodes.iter().filter(|n| n.tc_transactions == 0.0).count();
    assert!(idle >= 6, "{idle} idle nodes");
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
        // Every insert of this workload takes one hidden key.
        let ids_per_refill = s.inserts_per_second / s.hot_row.refills_per_second;
        assert!(ids_per_refill <= cache as f64 + 1e-9, "cache {cache}: {ids_per_refill} ids per refill");
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

/// The client's response never includes the complete phase: with one replica there is
/// none, and latency drops accordingly but stays positive.
#[test]
fn one_replica_runs_without_complete_phase() {
    let s = run("ndbapi-pk", json!({ "replicas": 1, "dataNodes": 3 }));
    assert!(s.transactions_per_second > 0.0);
    assert_eq!(s.nodes.len(), 3);
    assert!(s.nodes.iter().all(|n| n.node_group == n.id));
}
