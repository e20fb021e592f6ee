//! The swarm's workload specs: drawn at random, valid by construction, and small enough
//! that a run stays short. Each part of the spec language is reached: every key kind (up
//! to two tables taking ids, each with its own fetch size or not), each table's own
//! partitioning and key layout, every operation, multi-row statements, unique indexes (and
//! updates rewriting them), every key choice with its parameters anywhere in their ranges,
//! `sameAs` naming any earlier statement it may, shared-column values (a client's, an
//! earlier statement's, remote shares), repeated blocks and shares, both API paths, a scale.

use super::{log_uniform, pick};
use crate::prng::Prng;
use serde_json::{json, Value};

/// A random valid spec.
pub(crate) fn random_spec(rng: &mut Prng) -> Value {
    let tables = rng.range(1, 5) as usize;
    let mut id_tables = Vec::new();
    if rng.chance(2, 3) {
        id_tables.push(rng.below(tables as u64) as usize);
        if tables > 1 && rng.chance(1, 3) {
            id_tables.push((id_tables[0] + 1 + rng.below(tables as u64 - 1) as usize) % tables);
        }
    }
    let table_list: Vec<Value> = (0..tables).map(|i| random_table(rng, i, id_tables.contains(&i))).collect();
    let transactions: Vec<Value> = (0..rng.range(1, 4)).map(|x| random_transaction(rng, x, &table_list, &id_tables)).collect();
    json!({ "name": "swarm", "api": pick(rng, &["mysqld", "ndbapi"]), "scale": rng.range(1, 3),
            "tables": table_list, "transactions": transactions })
}

/// Table `t{i}`, taking ids if `takes_ids`.
fn random_table(rng: &mut Prng, i: usize, takes_ids: bool) -> Value {
    let key = if takes_ids { pick(rng, &["autoIncrement", "hidden"]) } else { "primaryKey" };
    let rows = if key == "primaryKey" { log_uniform(rng, 1, 100_000) } else { rng.below(1000) };
    let mut t = json!({ "name": format!("t{i}"), "rows": rows, "key": key });
    if key == "primaryKey" && rng.chance(1, 3) {
        // Partitioned on a shared column: 1, 2, 4 or 8 values, a whole number of rows each.
        let values = 1 << rng.below(4);
        t["rows"] = (rows.max(values) / values * values).into();
        t["distributionValues"] = values.into();
    } else {
        if rng.chance(1, 4) {
            t["partitioning"] = pick(rng, &["hash", "range"]).into();
        }
        if rng.chance(1, 4) {
            t["keyLayout"] = pick(rng, &["sequential", "shardBits", "bitReversed"]).into();
        }
    }
    if takes_ids && rng.chance(1, 4) {
        t["idCache"] = log_uniform(rng, 1, 10_000).into();
    }
    if rng.chance(1, 5) {
        t["uniqueIndexes"] = if rng.chance(1, 2) { json!(["u"]) } else { json!(["u", "v"]) };
    }
    t
}

/// Transaction `x{x}` over `tables` (those at `id_tables` take ids).
fn random_transaction(rng: &mut Prng, x: u64, tables: &[Value], id_tables: &[usize]) -> Value {
    let values: Vec<Option<u64>> = tables.iter().map(|t| t["distributionValues"].as_u64()).collect();
    let count = rng.range(1, 6) as usize;
    // Statements whose keys the allocator gives: `sameAs` may not name them.
    let mut allocated: Vec<bool> = Vec::with_capacity(count);
    let mut on_table: Vec<usize> = Vec::with_capacity(count);
    let mut block_end = None;
    let statements: Vec<Value> = (0..count)
        .map(|i| {
            let op = pick(rng, &["read", "update", "insert", "delete"]);
            let table = rng.below(tables.len() as u64) as usize;
            let rows = if rng.chance(1, 6) { log_uniform(rng, 2, 200) } else { 1 };
            let from_allocator = op == "insert" && id_tables.contains(&table);
            let mut s = json!({ "op": op, "table": format!("t{table}"), "rows": rows });
            if !from_allocator && rng.chance(3, 4) {
                let earlier: Vec<usize> = (0..i).filter(|&j| !allocated[j]).collect();
                s["key"] = key_choice(rng, &earlier);
            }
            if let (Some(v), true) = (values[table], rng.chance(1, 2)) {
                let linked: Vec<usize> = (0..i).filter(|&j| values[on_table[j]] == Some(v)).collect();
                s["distribution"] =
                    if linked.is_empty() || rng.chance(1, 3) { json!({ "client": true }) } else { json!({ "sameAs": pick(rng, &linked) }) };
                if rng.chance(1, 2) {
                    s["distribution"]["remote"] = (rng.below(101) as f64 / 100.0).into();
                }
            }
            if op == "update" && tables[table]["uniqueIndexes"].is_array() && rng.chance(1, 2) {
                s["setsUnique"] = json!(["u"]);
            }
            if block_end.is_none_or(|end| i > end) && rng.chance(1, 5) {
                let len = rng.range(1, (count - i) as u64) as usize;
                let min = rng.below(3);
                s["repeat"] = json!({ "min": min, "max": min + rng.below(4), "statements": len });
                if rng.chance(1, 3) {
                    s["repeat"]["share"] = ((1 + rng.below(100)) as f64 / 100.0).into();
                }
                block_end = Some(i + len - 1);
            }
            allocated.push(from_allocator);
            on_table.push(table);
            s
        })
        .collect();
    json!({ "name": format!("x{x}"), "weight": rng.range(1, 10), "statements": statements })
}

/// A key choice; `sameAs` one of `earlier` when there is one.
fn key_choice(rng: &mut Prng, earlier: &[usize]) -> Value {
    let percent = |rng: &mut Prng, lo: u64| rng.range(lo, 99) as f64 / 100.0;
    match rng.below(9) {
        0 => json!({ "dist": "uniform" }),
        1 => json!({ "dist": "zipfian", "theta": percent(rng, 1) }),
        2 => json!({ "dist": "hotspot", "hotFraction": percent(rng, 1), "hotShare": percent(rng, 0) }),
        3 => json!({ "dist": "sequential" }),
        5 => json!({ "dist": "exponential", "parameter": log_uniform(rng, 1, 100) as f64 / 10.0 }),
        6 => json!({ "dist": "gaussian", "parameter": 2.0 + percent(rng, 0) * 8.0 }),
        7 => json!({ "dist": "fixed", "key": 0 }),
        8 => json!({ "dist": "timeBucket", "bucketMs": log_uniform(rng, 1, 10_000) }),
        _ if !earlier.is_empty() => json!({ "dist": "sameAs", "statement": pick(rng, earlier) }),
        _ => json!({ "dist": "uniform" }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Config;

    #[test]
    fn every_drawn_spec_is_valid_and_they_differ() {
        let mut rng = Prng::new(7, 1);
        let specs: Vec<Value> = (0..300).map(|_| random_spec(&mut rng)).collect();
        for s in &specs {
            Config::from_json(&json!({ "workload": s })).unwrap_or_else(|e| panic!("{s}: {e}"));
        }
        let text = |s: &Value| s.to_string();
        let mut distinct: Vec<String> = specs.iter().map(text).collect();
        distinct.sort();
        distinct.dedup();
        assert!(distinct.len() > 290);
        let all = specs.iter().map(text).collect::<String>();
        for part in [
            "\"hidden\"",
            "\"autoIncrement\"",
            "\"range\"",
            "\"bitReversed\"",
            "\"sameAs\"",
            "\"zipfian\"",
            "\"hotspot\"",
            "\"ndbapi\"",
            "\"delete\"",
            "\"distributionValues\"",
            "\"client\"",
            "\"remote\"",
            "\"repeat\"",
            "\"share\"",
            "\"setsUnique\"",
        ] {
            assert!(all.contains(part), "no drawn spec has {part}");
        }
    }
}
