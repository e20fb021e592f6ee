//! Workload specs: any JSON as a spec gives a spec or an error naming its path (never a
//! panic); any valid spec runs keeping every invariant; hostile specs are refused with
//! the path named; the shipped workloads behave as their mechanisms say.

use hotrow::{Config, Simulation};
use proptest::prelude::*;
use serde_json::{json, Value};

/// A small cluster, a short run: for specs run many times.
fn small(workload: Value, extra: Value) -> Value {
    let mut v = json!({ "preset": "modern", "workload": workload, "dataNodes": 2, "apiNodes": 2, "clientsPerApiNode": 4,
        "durationMs": 4, "warmupMs": 1, "windowMs": 1 });
    for (k, x) in extra.as_object().unwrap() {
        v[k] = x.clone();
    }
    v
}

fn key_choice() -> impl Strategy<Value = Option<Value>> {
    prop_oneof![
        Just(None),
        Just(Some(json!({ "dist": "uniform" }))),
        (0.0f64..1.2).prop_map(|t| Some(json!({ "dist": "zipfian", "theta": t }))),
        (0.0f64..1.1, 0.0f64..1.1).prop_map(|(f, s)| Some(json!({ "dist": "hotspot", "hotFraction": f, "hotShare": s }))),
        Just(Some(json!({ "dist": "sequential" }))),
        (0usize..4).prop_map(|i| Some(json!({ "dist": "sameAs", "statement": i }))),
        Just(Some(json!({ "dist": "nope" }))),
    ]
}

fn statement() -> impl Strategy<Value = Value> {
    (prop::sample::select(&["read", "update", "insert", "delete", "upsert"][..]), 0usize..4, 0u64..5, key_choice()).prop_map(
        |(op, table, rows, key)| {
            let mut s = json!({ "op": op, "table": format!("t{table}"), "rows": rows });
            if let Some(k) = key {
                s["key"] = k;
            }
            s
        },
    )
}

/// Spec-shaped JSON: mostly valid, with the mistakes people make.
fn spec() -> impl Strategy<Value = Value> {
    let placement = prop_oneof![
        3 => Just(json!({})),
        1 => Just(json!({ "partitioning": "range" })),
        1 => Just(json!({ "partitioning": "range", "keyLayout": "bitReversed" })),
        1 => Just(json!({ "keyLayout": "shardBits" })),
        1 => Just(json!({ "partitioning": "ranges" })),
    ];
    let table = (0u64..5, prop::sample::select(&["primaryKey", "primaryKey", "autoIncrement", "hidden", "serial"][..]), placement);
    let txn = (prop::collection::vec(statement(), 0..5), 0u64..4);
    (prop::sample::select(&["mysqld", "ndbapi", "jdbc"][..]), prop::collection::vec(table, 1..4), prop::collection::vec(txn, 1..4), 0u64..3)
        .prop_map(|(api, tables, txns, scale)| {
            let tables: Vec<Value> = tables
                .iter()
                .enumerate()
                .map(|(i, (rows, key, placement))| {
                    let mut t = json!({ "name": format!("t{i}"), "rows": rows, "key": key });
                    t.as_object_mut().unwrap().extend(placement.as_object().unwrap().clone());
                    t
                })
                .collect();
            let txns: Vec<Value> = txns
                .into_iter()
                .enumerate()
                .map(|(i, (statements, weight))| json!({ "name": format!("x{i}"), "weight": weight, "statements": statements }))
                .collect();
            json!({ "name": "random", "api": api, "scale": scale, "tables": tables, "transactions": txns })
        })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, ..ProptestConfig::default() })]

    /// Any spec-shaped JSON gives a config or an error inside `workload`; a valid one runs
    /// without a panic, keeps every invariant and issues no id twice.
    #[test]
    fn any_spec_runs_or_is_refused_by_path(spec in spec()) {
        match Config::from_json(&small(spec.clone(), json!({}))) {
            Ok(config) => {
                let mut sim = Simulation::new(config);
                sim.run_to_end();
                prop_assert!(sim.check_invariants().is_ok(), "{:?}", sim.check_invariants());
                prop_assert_eq!(sim.ids().duplicates, 0);
            }
            Err(e) => {
                prop_assert!(e.field.starts_with("workload"), "error outside the spec: {}", e);
                prop_assert!(!e.allowed.is_empty());
            }
        }
    }
}

/// A block's count of statements as large as a 32-bit `usize` holds is refused by the
/// block's check, and one too large for it (5e9) by the reader, here as in WebAssembly
/// (where a larger one once wrapped past the check: tests/js/api.test.mjs sends both to the
/// module), each with its path.
#[test]
fn a_huge_repeat_count_is_refused_not_wrapped() {
    for (n, says) in [(4_294_967_295u64, "1 to 1 (this statement"), (5_000_000_000, "invalid value: integer `5000000000`")] {
        let spec = json!({ "name": "r", "api": "mysqld", "tables": [{ "name": "t", "rows": 10, "key": "primaryKey" }],
            "transactions": [{ "name": "x", "statements": [{ "op": "read", "table": "t" },
                { "op": "update", "table": "t", "repeat": { "min": 1, "statements": n } }] }] });
        let e = Config::from_json(&json!({ "workload": spec })).expect_err("refused");
        assert_eq!(e.field, "workload.transactions[0].statements[1].repeat.statements", "{n}: {e}");
        assert_eq!(e.value, n.to_string());
        assert!(e.allowed.starts_with(says), "{n}: {e}");
    }
}

/// Twenty hostile specs (`tests/hostile-specs.json`, which the CLI's test runs too), each
/// refused with the path of what is wrong.
#[test]
fn hostile_specs_name_their_path() {
    let list: Value = serde_json::from_str(include_str!("../hostile-specs.json")).unwrap();
    let cases = list["cases"].as_array().unwrap();
    assert_eq!(cases.len(), 20);
    for case in cases {
        let spec = &case["spec"];
        let e = Config::from_json(&json!({ "workload": spec })).expect_err(&spec.to_string());
        assert_eq!(e.field, case["path"].as_str().unwrap(), "{}: {spec}: {e}", case["why"]);
    }
}

/// A multi-row INSERT takes one id per row: ids issued follow the rows inserted.
#[test]
fn a_multi_row_insert_takes_an_id_per_row() {
    let s = crate::run("modern", json!({ "workload": "bulk-insert", "durationMs": 30, "warmupMs": 0 }));
    let loads = s.committed_by_type["load"];
    assert!(loads > 50, "{loads} loads");
    // Issued ids: every committed row's, and those of statements still in flight.
    assert!(s.ids_issued >= 100 * loads && s.ids_issued <= 100 * (loads + 2 * s.clients as u64), "{} ids for {loads} loads", s.ids_issued);
    assert_eq!(s.duplicate_ids, 0);
}

/// TPC-B at scale 1: every transfer updates the one branch row, which serialises the mix;
/// ten branches let ten transfers through at once.
#[test]
fn tpcb_is_held_by_its_branch_row() {
    let tps = |scale: u64| {
        let mut spec = hotrow::spec::shipped("tpcb").unwrap();
        spec.scale = scale;
        crate::run("modern", json!({ "workload": serde_json::to_value(&spec).unwrap(), "durationMs": 100, "warmupMs": 50 }))
            .transactions_per_second
    };
    let (one, ten) = (tps(1), tps(10));
    assert!(ten > 5.0 * one, "scale 1: {one:.0}/s, scale 10: {ten:.0}/s");
}

/// An insert-only spec's ids are unique under every allocator, with an API node restart and
/// a data node failure on the way.
#[test]
fn insert_only_ids_are_unique_under_every_strategy_and_fault() {
    for allocator in ["counterRow", "centralService", "timestamp"] {
        for workload in ["event-log", "bulk-insert"] {
            let faults =
                json!([{ "kind": "apiNodeRestart", "atMs": 10, "apiNode": 0 }, { "kind": "dataNodeFailure", "atMs": 20, "dataNode": 1 }]);
            // `run` fails the test on any broken invariant (ids-unique among them).
            let s = crate::run(
                "modern",
                json!({ "workload": workload, "allocator": allocator, "faults": faults, "durationMs": 40, "warmupMs": 0 }),
            );
            assert_eq!(s.duplicate_ids, 0, "{allocator} {workload}");
            assert!(s.inserts_per_second > 0.0, "{allocator} {workload}");
        }
    }
}

/// A shipped spec is written back as its name; a changed one as the whole spec, which reads
/// back to the same config.
#[test]
fn specs_round_trip_through_the_effective_config() {
    let c = Config::from_json(&json!({ "workload": "tpcb" })).unwrap();
    assert_eq!(serde_json::to_value(&c).unwrap()["workload"], "tpcb");
    let mut spec = hotrow::spec::shipped("tpcb").unwrap();
    spec.scale = 3;
    let c = Config::from_json(&json!({ "workload": serde_json::to_value(&spec).unwrap() })).unwrap();
    let v = serde_json::to_value(&c).unwrap();
    assert_eq!(v["workload"]["scale"], 3);
    assert_eq!(Config::from_json(&v).unwrap(), c);
}

/// NDB's rule for ids within a multi-row INSERT through mysqld (ha_ndbcluster.cc,
/// `start_bulk_insert`): an AUTO_INCREMENT column's refill fetches at least the statement's
/// rows, so 100-row statements with a prefetch of 10 refill once per statement; a hidden
/// key keeps its cache size (10 refills per statement).
#[test]
fn a_multi_row_insert_prefetches_its_rows_for_auto_increment_only() {
    let refills_per_statement = |key: &str| {
        let mut spec = hotrow::spec::shipped("bulk-insert").unwrap();
        spec.tables[0].key = serde_json::from_value(json!(key)).unwrap();
        let s = crate::run(
            "modern",
            json!({ "workload": serde_json::to_value(&spec).unwrap(), "cacheSize": 10, "durationMs": 50, "warmupMs": 20 }),
        );
        s.hot_row.refills as f64 / s.committed_by_type["load"] as f64
    };
    let auto = refills_per_statement("autoIncrement");
    let hidden = refills_per_statement("hidden");
    assert!((0.9..1.1).contains(&auto), "autoIncrement: {auto:.2} refills per 100-row statement");
    assert!((9.0..11.0).contains(&hidden), "hidden: {hidden:.2} refills per 100-row statement");
}

/// A transaction that writes one row twice (two statements, or one multi-row statement
/// drawing a key twice) holds the row's lock once: the second write is folded into the
/// first, as NDB chains a transaction's operations on a row. Two rows locked by one
/// batch in parallel can deadlock with another transaction's: the lock wait timeout
/// aborts one, which retries.
#[test]
fn writing_a_row_twice_takes_its_lock_once_and_deadlocks_time_out() {
    let spec = json!({ "name": "twice", "api": "ndbapi", "tables": [{ "name": "t", "rows": 2, "key": "primaryKey" }],
        "transactions": [{ "name": "x", "statements": [
            { "op": "update", "table": "t", "rows": 3 },
            { "op": "update", "table": "t", "key": { "dist": "sameAs", "statement": 0 } },
        ] }] });
    let mut sim = Simulation::new(
        Config::from_json(&small(spec, json!({ "durationMs": 40, "lockWaitTimeoutMs": 2, "cpu": { "serviceCv": 0.0 } }))).unwrap(),
    );
    sim.run_to_end();
    assert!(sim.check_invariants().is_ok(), "{:?}", sim.check_invariants());
    let s = sim.summary();
    assert!(s.committed_by_type.get("x").copied().unwrap_or(0) > 20, "{:?}", s.committed_by_type);
    assert!(s.lock_timeouts > 0 && s.aborts >= s.lock_timeouts, "{} timeouts", s.lock_timeouts);
}

/// TPC-B at scale 1: the branch row tops `hottestRows`, its lock busy all the time and
/// taken by every transfer; the report is bounded (at most ten rows).
#[test]
fn tpcb_shows_its_branch_row_as_the_hottest() {
    let config = Config::from_json(&json!({ "preset": "modern", "workload": "tpcb", "durationMs": 200, "warmupMs": 50 })).unwrap();
    let mut sim = Simulation::new(config);
    sim.run_to_end();
    let s = sim.summary();
    assert!(s.hottest_rows.len() <= hotrow::HOT_ROWS);
    let top = &s.hottest_rows[0];
    assert_eq!((top.table.as_str(), top.key), ("branches", 0), "{:?}", s.hottest_rows);
    assert!(top.lock_busy_fraction > 0.95, "{top:?}");
    assert!((top.grants_per_second - s.transactions_per_second).abs() < 0.02 * s.transactions_per_second, "{top:?}");
    let last = sim.windows().last().unwrap();
    assert!(
        hotrow::hot_rows_report(sim.config(), &last.hottest_rows, 1).iter().any(|r| (r.table.as_str(), r.key) == ("branches", 0)),
        "the branch is hot in each window"
    );
}

/// Two accountings of the counter row agree: the hot-row figures (`hotRow`, kept by the
/// allocator) and the row's entry in `hottestRows` (kept by the lock table's releases).
#[test]
fn the_counter_row_is_seen_alike_by_both_accountings() {
    let s = crate::run("bug39267", json!({ "durationMs": 300, "warmupMs": 100 }));
    let row = s.hottest_rows.iter().find(|r| r.table == "SYSTAB_0").expect("the counter row is hot in the bug");
    assert!((row.lock_busy_fraction - s.hot_row.lock_utilization).abs() < 0.02, "{row:?} vs {:?}", s.hot_row);
    assert!((row.grants_per_second - s.hot_row.refills_per_second).abs() < 0.02 * s.hot_row.refills_per_second, "{row:?}");
    assert!((row.mean_wait_us - s.hot_row.lock_wait_mean_us).abs() < 0.1 * s.hot_row.lock_wait_mean_us, "{row:?}");
}

/// The bug report's cluster: its Payments update the 64 warehouse rows evenly, and each
/// listed warehouse row's grants are its share of them (the tracker holds every contended
/// row at once, so none is forgotten and listed with partial counts).
#[test]
fn every_listed_warehouse_row_is_granted_its_share_of_the_payments() {
    let s = crate::run("bug39267", json!({ "durationMs": 10_000, "warmupMs": 1000 }));
    let each = s.committed_by_type["payment"] as f64 / s.simulated_seconds / s.config.warehouses as f64;
    let rows: Vec<_> = s.hottest_rows.iter().filter(|r| r.table == "warehouse").collect();
    assert!(rows.len() >= 5, "{:?}", s.hottest_rows);
    for r in rows {
        assert!(
            (r.grants_per_second - each).abs() < 0.1 * each,
            "warehouse {}: {} grants/s, {each} payments/s each",
            r.key,
            r.grants_per_second
        );
        assert!(r.lock_busy_fraction > 0.8 && r.counted_seconds == s.simulated_seconds, "{r:?}");
    }
}

/// Little's law per transaction type: with no think time every client is always inside a
/// transaction, so the types' throughput x mean latency add up to the clients.
#[test]
fn littles_law_holds_over_the_transaction_types() {
    // 512 clients' queues take about 150 ms to fill (at a 50 ms warm-up the measured
    // in-flight count is 7% short), so the warm-up is 200 ms.
    let s = crate::run("modern", json!({ "workload": "ycsb-a", "durationMs": 200, "warmupMs": 200 }));
    let secs = s.simulated_seconds;
    let in_flight: f64 =
        ["read", "update"].iter().map(|k| s.committed_by_type[*k] as f64 / secs * s.latency_by_type_us[*k].mean * 1e-6).sum();
    let clients = s.clients as f64;
    assert!((in_flight - clients).abs() < 0.03 * clients, "{in_flight:.1} in flight for {clients} clients");
}

/// An event log keyed by time (a primary key the application makes, rising) lands every
/// insert in the newest range when its table is range partitioned; bit-reversed keys
/// or hash partitioning spread them. The table's own placement, not the config's.
#[test]
fn a_tables_own_range_partitioning_puts_rising_keys_on_one_partition() {
    let log = |placement: Value| {
        let mut table = json!({ "name": "log", "rows": 1_000_000, "key": "primaryKey" });
        table.as_object_mut().unwrap().extend(placement.as_object().unwrap().clone());
        json!({ "name": "time-keyed log", "api": "ndbapi", "tables": [table],
            "transactions": [{ "name": "append", "statements": [{ "op": "insert", "table": "log", "rows": 4 }] }] })
    };
    let skew = |placement: Value| {
        let s = crate::run("modern", json!({ "workload": log(placement), "durationMs": 100, "warmupMs": 20, "rangeRows": 10_000 }));
        assert!(s.inserts_per_second > 0.0);
        s.keys.insert_skew
    };
    let partitions = 8.0 * 2.0; // modern: 8 data nodes, 2 LDM threads each
    let range = skew(json!({ "partitioning": "range" }));
    let reversed = skew(json!({ "partitioning": "range", "keyLayout": "bitReversed" }));
    let hash = skew(json!({}));
    // The newest range cuts as it fills (every ~rangeRows/2 inserts), so a window may
    // see two of them.
    assert!(range > 0.8, "rising keys in the newest range: skew {range}");
    assert!(reversed < 3.0 / partitions && hash < 3.0 / partitions, "spread: bit-reversed {reversed}, hash {hash}");
}

/// A range-partitioned table starts with its rows cut into ranges on every partition, so
/// uniform updates of existing rows load every data node; in one range (rangeRows above
/// its rows) they all go to one partition and its node group.
#[test]
fn a_presplit_table_spreads_its_existing_rows() {
    let spec = json!({ "name": "ranged updates", "api": "ndbapi",
        "tables": [{ "name": "accounts", "rows": 1_000_000, "key": "primaryKey", "partitioning": "range" }],
        "transactions": [{ "name": "touch", "statements": [{ "op": "update", "table": "accounts" }] }] });
    let spread = |range_rows: u64| {
        let s = crate::run("modern", json!({ "workload": spec, "durationMs": 100, "warmupMs": 20, "rangeRows": range_rows }));
        assert_eq!(s.keys.insert_skew, 0.0, "no inserts, no insert skew");
        let busy: Vec<f64> = s.nodes.iter().map(|n| n.load).collect();
        let (lo, hi) = busy.iter().fold((f64::MAX, 0.0f64), |(lo, hi), &b| (lo.min(b), hi.max(b)));
        (lo / hi, busy)
    };
    let (many, busy) = spread(10_000);
    assert!(many > 0.5, "100 ranges: every node takes its share of the updates: {busy:?}");
    let (one, busy) = spread(10_000_000);
    assert!(one < 0.2, "one range: its node group takes the updates: {busy:?}");
}

/// Updates are not inserts: a workload that inserts nothing reports no insert skew.
#[test]
fn updates_do_not_count_as_inserts() {
    let s = crate::run("modern", json!({ "workload": "ycsb-a", "durationMs": 60, "warmupMs": 20 }));
    assert_eq!(s.inserts_per_second, 0.0);
    assert_eq!((s.keys.insert_skew, s.keys.partitions_touched), (0.0, 0));
}

/// A table taking ids that starts with rows, updated and inserted into by one transaction:
/// no new id names an existing row under any allocator, nor a client's own key when the
/// table is given a primary key (each would lock one row twice, a panic).
#[test]
fn new_ids_never_name_the_rows_a_table_starts_with() {
    let spec = json!({ "name": "grow and touch", "api": "mysqld",
        "tables": [{ "name": "t", "rows": 700, "key": "hidden" }],
        "transactions": [{ "name": "x", "statements": [
            { "op": "insert", "table": "t", "rows": 20 },
            { "op": "update", "table": "t", "rows": 20, "key": { "dist": "zipfian", "theta": 0.9 } }] }] });
    for allocator in ["counterRow", "centralService", "timestamp"] {
        for primary_key in [false, true] {
            let s = crate::run(
                "modern",
                // 32 clients: with the preset's 512 the 20-row updates on 700 rows lock
                // each other out and a short run commits almost nothing.
                json!({ "workload": spec, "allocator": allocator, "primaryKey": primary_key,
                "clientsPerApiNode": 4, "durationMs": 100, "warmupMs": 0 }),
            );
            assert!(s.inserts_per_second > 0.0, "{allocator} primaryKey {primary_key}");
            assert_eq!(s.duplicate_ids, 0);
        }
    }
}

/// An orders schema with two AUTO_INCREMENT tables: each has its own SYSTAB_0 counter row,
/// refilled for its own inserts. Both are among the hottest rows (named by `counterOf`), the
/// summary's `hotRow` lock follows the first one's, the refills of both add up to the run's, and
/// with a cache of 1 the explanation names a counter row as the bottleneck.
#[test]
fn each_table_taking_ids_has_its_own_counter_row() {
    let spec = json!({ "name": "orders", "api": "mysqld",
        "tables": [{ "name": "orders", "rows": 1000, "key": "autoIncrement" },
                   { "name": "order_items", "rows": 5000, "key": "autoIncrement" }],
        "transactions": [{ "name": "place", "statements": [
            { "op": "insert", "table": "orders" },
            { "op": "insert", "table": "order_items", "rows": 5 }] }] });
    let s = crate::run("modern", json!({ "workload": spec, "cacheSize": 1, "durationMs": 200, "warmupMs": 50 }));
    let counter = |of: &str| {
        s.hottest_rows.iter().find(|r| r.counter_of.as_deref() == Some(of)).unwrap_or_else(|| panic!("{of}: {:?}", s.hottest_rows)).clone()
    };
    let (orders, items) = (counter("orders"), counter("order_items"));
    assert_eq!((orders.table.as_str(), items.table.as_str()), ("SYSTAB_0", "SYSTAB_0"));
    assert_ne!(orders.key, items.key, "a counter row per table");
    // One refill per statement each (cache 1; a 5-row INSERT prefetches its 5 ids).
    let tps = s.transactions_per_second;
    for r in [&orders, &items] {
        assert!((r.grants_per_second - tps).abs() < 0.05 * tps, "{r:?} vs {tps:.0} transactions/s");
    }
    // The hot row's lock figures are the first table's counter row's; its refills count
    // every table's.
    assert!((s.hot_row.lock_utilization - orders.lock_busy_fraction).abs() < 0.02, "{:?} vs {orders:?}", s.hot_row);
    let all = orders.grants_per_second + items.grants_per_second;
    assert!((s.hot_row.refills_per_second - all).abs() < 0.05 * all, "{} refills/s vs {all:.0}", s.hot_row.refills_per_second);
    assert!((s.inserts_per_second - 6.0 * tps).abs() < 0.05 * 6.0 * tps, "{} inserts/s", s.inserts_per_second);
    assert_eq!(s.duplicate_ids, 0);
    let b = s.bottleneck.as_ref().expect("a bottleneck");
    assert_eq!(b.kind.name(), "counterRow", "{b:?}");
    assert!(b.name.contains("in SYSTAB_0"), "{}", b.name);
}

/// A table with its own `idCache` (its sequence's CACHE) fetches that many ids at a time
/// whatever the config's `cacheSize`; another table goes on with the config's. A table not
/// taking ids may not have one.
#[test]
fn a_tables_own_id_cache_sizes_its_fetches() {
    let spec = json!({ "name": "invoices", "api": "mysqld",
        "tables": [{ "name": "invoices", "rows": 0, "key": "autoIncrement", "idCache": 1 },
                   { "name": "lines", "rows": 0, "key": "autoIncrement" }],
        "transactions": [{ "name": "bill", "statements": [
            { "op": "insert", "table": "invoices" }, { "op": "insert", "table": "lines" }] }] });
    let s = crate::run("modern", json!({ "workload": spec, "cacheSize": 1000, "durationMs": 200, "warmupMs": 50 }));
    let grants = |of: &str| s.hottest_rows.iter().find(|r| r.counter_of.as_deref() == Some(of)).map_or(0.0, |r| r.grants_per_second);
    let tps = s.transactions_per_second;
    assert!((grants("invoices") - tps).abs() < 0.05 * tps, "{} refills/s of invoices vs {tps:.0} transactions/s", grants("invoices"));
    assert!(grants("lines") < 0.01 * tps, "{} refills/s of lines at cacheSize 1000", grants("lines"));
    assert_eq!(s.duplicate_ids, 0);
    let mut bad = spec.clone();
    bad["tables"][0]["key"] = "primaryKey".into();
    let e = Config::from_json(&json!({ "workload": bad })).unwrap_err();
    assert_eq!(e.field, "workload.tables[0].idCache", "{e}");
}

/// Several tables taking ids keep ids unique under every strategy, an API node restart and a
/// data node failure, with and without `primaryKey`.
#[test]
fn several_tables_taking_ids_keep_ids_unique_under_every_strategy() {
    let spec = json!({ "name": "two", "api": "ndbapi",
        "tables": [{ "name": "a", "rows": 300, "key": "hidden" }, { "name": "b", "rows": 0, "key": "autoIncrement" },
                   { "name": "c", "rows": 100, "key": "primaryKey" }],
        "transactions": [{ "name": "x", "statements": [
            { "op": "insert", "table": "a", "rows": 3 }, { "op": "insert", "table": "b" },
            { "op": "update", "table": "c" }] },
            { "name": "y", "statements": [{ "op": "insert", "table": "b", "rows": 4 }] }] });
    let faults = json!([{ "kind": "apiNodeRestart", "atMs": 10, "apiNode": 0 }, { "kind": "dataNodeFailure", "atMs": 20, "dataNode": 1 }]);
    for allocator in ["counterRow", "centralService", "timestamp"] {
        for scope in ["apiNode", "client"] {
            for primary_key in [false, true] {
                let s = crate::run(
                    "modern",
                    json!({ "workload": spec, "allocator": allocator, "idCacheScope": scope, "primaryKey": primary_key,
                    "faults": faults, "cacheSize": 3, "durationMs": 40, "warmupMs": 0 }),
                );
                assert!(s.inserts_per_second > 0.0, "{allocator} {scope} primaryKey {primary_key}");
                assert_eq!(s.duplicate_ids, 0, "{allocator} {scope} primaryKey {primary_key}");
            }
        }
    }
}
