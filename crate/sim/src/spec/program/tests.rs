//! The programs drawn from specs: unique index rows, shared-column values, repeated blocks.

use super::*;
use crate::workload::{row_key, table_of, OpSpec};

/// An orders table with a UNIQUE key: each inserted row (by the allocator or keyed)
/// also inserts a new row of its index table, in the same round; a delete writes one of
/// the index's rows; a read or an update writes none.
#[test]
fn a_unique_key_writes_its_index_row_in_the_same_round() {
    let spec: Spec = <Spec as crate::read::Read>::read(&serde_json::json!({ "name": "u", "api": "mysqld",
        "tables": [{ "name": "orders", "rows": 100, "key": "autoIncrement", "uniqueIndexes": ["email"] },
                   { "name": "items", "rows": 10, "key": "primaryKey", "uniqueIndexes": ["sku", "ean"] }],
        "transactions": [{ "name": "x", "statements": [
            { "op": "insert", "table": "orders", "rows": 3 },
            { "op": "delete", "table": "items" },
            { "op": "update", "table": "items" },
            { "op": "read", "table": "orders" }] }] }))
    .unwrap();
    let (email, sku, ean) = (spec.index_table_ids(0).start, spec.index_table_ids(1).start, spec.index_table_ids(1).start + 1);
    assert_eq!(spec.table_name(email).as_deref(), Some("orders.email$unique"));
    assert_eq!(spec.table_name(ean).as_deref(), Some("items.ean$unique"));
    let mut state = SpecState::new(&spec, KeyLayout::Sequential, 0);
    let (mut rng, mut out, mut next_key) = (Prng::new(1, 1), Program::default(), 0);
    for primary_key in [false, true] {
        state.generate(0, ClientKeys { client: 0, next_key: &mut next_key, primary_key, now_ns: 0 }, &mut rng, &mut out);
        let round = |r: usize| -> Vec<u64> {
            let mut tables: Vec<u64> =
                out.ops[out.rounds[r] as usize..out.rounds[r + 1] as usize].iter().map(|o| table_of(o.row)).collect();
            tables.sort();
            tables
        };
        let orders = table_id(0);
        assert_eq!(round(0), [orders, orders, orders, email, email, email], "primaryKey {primary_key}");
        assert!(out.ops[..6].iter().all(|o| o.write && o.insert));
        assert_eq!(out.inserts, 3, "index rows are not the user's inserts");
        assert_eq!(round(1), [table_id(1), sku, ean]);
        assert_eq!(round(2), [table_id(1)]);
        assert_eq!(round(3), [orders]);
    }
    // New unique values are new index rows: none twice.
    assert_eq!(state.draw.index_next[0], (100, 6));
}

fn spec(v: serde_json::Value) -> Spec {
    Spec::from_json(&v, "workload").unwrap_or_else(|e| panic!("{e}"))
}

/// DBT2's shape: warehouses and stock partitioned by warehouse, items not. A statement
/// taking the warehouse's value draws among that warehouse's rows and lands where the
/// warehouse does; a remote share takes another warehouse; a block repeats 5 to 15 times.
#[test]
fn rows_of_one_value_share_its_partition_and_blocks_repeat() {
    let s = spec(serde_json::json!({ "name": "d", "api": "mysqld",
        "tables": [{ "name": "warehouse", "rows": 8, "key": "primaryKey", "distributionValues": 8 },
                   { "name": "stock", "rows": 80000, "key": "primaryKey", "distributionValues": 8 },
                   { "name": "item", "rows": 100, "key": "primaryKey" }],
        "transactions": [{ "name": "x", "statements": [
            { "op": "read", "table": "warehouse" },
            { "op": "read", "table": "item", "repeat": { "min": 5, "max": 15, "statements": 2 } },
            { "op": "update", "table": "stock", "distribution": { "sameAs": 0, "remote": 0.1 } }] },
            { "name": "y", "statements": [{ "op": "read", "table": "stock", "distribution": { "client": true } }] }] }));
    let mut state = SpecState::new(&s, KeyLayout::Sequential, 0);
    let (mut rng, mut out, mut next_key) = (Prng::new(1, 1), Program::default(), 0);
    let (mut lines, mut remote, mut stocks) = (Vec::new(), 0, 0);
    for _ in 0..2000 {
        state.generate(0, ClientKeys { client: 0, next_key: &mut next_key, primary_key: false, now_ns: 0 }, &mut rng, &mut out);
        let w = out.ops[0].dist;
        assert_eq!(out.ops[0].row, row_key(table_id(0), w), "a warehouse row's value is its key");
        let stock: Vec<&OpSpec> = out.ops.iter().filter(|o| table_of(o.row) == table_id(1)).collect();
        for o in &stock {
            let key = o.row & ((1 << 56) - 1);
            assert_eq!(key / 10_000, o.dist, "a stock row lies in its value's run of keys");
            remote += (o.dist != w) as u32;
        }
        stocks += stock.len();
        lines.push(out.ops.iter().filter(|o| table_of(o.row) == table_id(2)).count());
    }
    // 5 to 15 order lines, each an item read and a stock update, 10 on average.
    assert_eq!((lines.iter().min(), lines.iter().max()), (Some(&5), Some(&15)));
    let mean = lines.iter().sum::<usize>() as f64 / lines.len() as f64;
    assert!((mean - 10.0).abs() < 0.3, "mean lines {mean}");
    let share = remote as f64 / stocks as f64;
    assert!((share - 0.1).abs() < 0.02, "remote share {share}");
    // A client's own value: client number mod values, whatever the draw.
    for client in [3, 11] {
        for _ in 0..20 {
            state.generate(1, ClientKeys { client, next_key: &mut next_key, primary_key: false, now_ns: 0 }, &mut rng, &mut out);
            assert_eq!(out.ops[0].dist, client as u64 % 8);
        }
    }
}

/// A block with a share runs in that share of the transactions; an update setting a UNIQUE
/// column rewrites its index row (the old one out, a new one in).
#[test]
fn a_share_skips_its_block_and_a_unique_update_rewrites_its_index_row() {
    let s = spec(serde_json::json!({ "name": "d", "api": "mysqld",
        "tables": [{ "name": "customer", "rows": 100, "key": "primaryKey", "uniqueIndexes": ["email", "phone"] }],
        "transactions": [{ "name": "x", "statements": [
            { "op": "read", "table": "customer", "rows": 3, "repeat": { "share": 0.6 } },
            { "op": "update", "table": "customer", "setsUnique": ["phone"] }] }] }));
    let mut state = SpecState::new(&s, KeyLayout::Sequential, 0);
    let (mut rng, mut out, mut next_key) = (Prng::new(2, 1), Program::default(), 0);
    let mut ran = 0;
    for _ in 0..1000 {
        state.generate(0, ClientKeys { client: 0, next_key: &mut next_key, primary_key: false, now_ns: 0 }, &mut rng, &mut out);
        ran += (out.round_count() == 2) as u32;
        let last = &out.ops[out.rounds[out.round_count() - 1] as usize..];
        let phone = s.index_table_ids(0).start + 1;
        assert_eq!(last.iter().filter(|o| table_of(o.row) == phone).count(), 2, "{last:?}");
        assert_eq!(last.iter().filter(|o| o.insert).count(), 1, "the new value's index row is new");
    }
    assert!((550..650).contains(&ran), "the block ran in {ran} of 1000");
}

/// What the checks refuse: a value count that does not divide the rows, a link to a table
/// of other values, a nested block, a block past the end, a unique index the table lacks.
#[test]
fn shared_values_blocks_and_unique_updates_are_checked() {
    let with = |table: serde_json::Value, statements: serde_json::Value| {
        let v = serde_json::json!({ "name": "d", "api": "mysqld",
            "tables": [{ "name": "w", "rows": 4, "key": "primaryKey", "distributionValues": 4 }, table],
            "transactions": [{ "name": "x", "statements": statements }] });
        Spec::from_json(&v, "workload").err().map(|e| e.to_string())
    };
    let t = serde_json::json!({ "name": "s", "rows": 40, "key": "primaryKey", "distributionValues": 4, "uniqueIndexes": ["u"] });
    let read = |extra: serde_json::Value| {
        let mut s = serde_json::json!({ "op": "read", "table": "s" });
        for (k, v) in extra.as_object().unwrap() {
            s[k] = v.clone();
        }
        s
    };
    assert_eq!(with(t.clone(), serde_json::json!([read(serde_json::json!({}))])), None);
    let bad = serde_json::json!({ "name": "s", "rows": 40, "key": "primaryKey", "distributionValues": 3 });
    assert!(with(bad, serde_json::json!([read(serde_json::json!({}))])).unwrap().contains("distributionValues"));
    let other = serde_json::json!({ "name": "s", "rows": 40, "key": "primaryKey", "distributionValues": 8 });
    let linked = serde_json::json!([{ "op": "read", "table": "w" }, read(serde_json::json!({ "distribution": { "sameAs": 0 } }))]);
    assert!(with(other, linked).unwrap().contains("distribution.sameAs"));
    let both =
        serde_json::json!([{ "op": "read", "table": "w" }, read(serde_json::json!({ "distribution": { "sameAs": 0, "client": true } }))]);
    assert!(with(t.clone(), both).unwrap().contains("one of `sameAs`"));
    let nested = serde_json::json!([
        read(serde_json::json!({ "repeat": { "min": 2, "statements": 2 } })),
        read(serde_json::json!({ "repeat": { "min": 2 } }))
    ]);
    assert!(with(t.clone(), nested).unwrap().contains("do not nest"));
    let past = serde_json::json!([read(serde_json::json!({ "repeat": { "min": 2, "statements": 2 } }))]);
    assert!(with(t.clone(), past).unwrap().contains("repeat.statements"));
    let unique = serde_json::json!([{ "op": "update", "table": "s", "setsUnique": ["v"] }]);
    assert!(with(t.clone(), unique).unwrap().contains("setsUnique[0]"));
    let many = serde_json::json!([read(serde_json::json!({ "rows": 100, "repeat": { "min": 1, "max": 1000 } }))]);
    assert!(with(t, many).unwrap().contains("at most 60000 rows"));
}

/// `sortKeys`: the same draws (the rng is read as without it), each table's updated and
/// deleted rows handed to their statements in key order; inserts and rounds stay.
#[test]
fn sorted_keys_take_each_tables_rows_in_key_order() {
    let json = |sort: bool| {
        serde_json::json!({ "name": "s", "api": "mysqld",
            "tables": [{ "name": "inventory", "rows": 1000, "key": "primaryKey" }, { "name": "orders", "rows": 0, "key": "autoIncrement" }],
            "transactions": [{ "name": "x", "sortKeys": sort, "statements": [
                { "op": "update", "table": "inventory" },
                { "op": "insert", "table": "orders" },
                { "op": "update", "table": "inventory", "rows": 2 },
                { "op": "delete", "table": "inventory" }] }] })
    };
    let draw = |sort: bool| {
        let mut state = SpecState::new(&spec(json(sort)), KeyLayout::Sequential, 0);
        let (mut rng, mut next_key) = (Prng::new(7, 1), 0);
        (0..50)
            .map(|_| {
                let mut out = Program::default();
                state.generate(0, ClientKeys { client: 0, next_key: &mut next_key, primary_key: false, now_ns: 0 }, &mut rng, &mut out);
                out
            })
            .collect::<Vec<_>>()
    };
    let (drawn, sorted) = (draw(false), draw(true));
    let inventory = table_id(0);
    let mut reordered = 0;
    for (a, b) in drawn.iter().zip(&sorted) {
        assert_eq!(a.rounds, b.rounds);
        let rows = |p: &Program| p.ops.iter().filter(|o| table_of(o.row) == inventory).map(|o| o.row).collect::<Vec<_>>();
        let (mut want, got) = (rows(a), rows(b));
        want.sort_unstable();
        assert_eq!(got, want, "the same rows, in key order");
        reordered += (rows(a) != got) as u32;
        let inserts = |p: &Program| p.ops.iter().filter(|o| o.insert).map(|o| (o.row, o.dist)).collect::<Vec<_>>();
        assert_eq!(inserts(a), inserts(b), "inserts keep their rows");
        for o in &b.ops {
            assert!(!o.write || o.insert || table_of(o.row) == inventory);
        }
    }
    assert!(reordered > 25, "most draws of four keys come unsorted: {reordered} of 50 were");
    assert_eq!(serde_json::to_value(spec(json(false))).unwrap().pointer("/transactions/0/sortKeys"), None, "false is left out");
}
