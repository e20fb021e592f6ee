//! The order a spec's transactions take their rows in, read from the spec alone: whether
//! two of them can wait for each other in a cycle (a remedy that reorders statements says
//! so before it is taken), and the spec with each transaction's keys sorted (the remedy
//! for the cycles a run saw, `deadlocks.rs`).

use crate::spec::{KeyChoice, OpKind, Spec, Statement, Transaction};

/// A statement that locks rows whose keys are drawn: an update or a delete whose key is
/// neither a constant nor an earlier statement's, on a table of more than one row.
fn drawn_locks(spec: &Spec, s: &Statement) -> u64 {
    let rows = spec.tables.iter().find(|t| t.name == s.table).map_or(1, |t| t.rows * spec.scale);
    let drawn = !matches!(s.key, Some(KeyChoice::Fixed { .. } | KeyChoice::SameAs { .. }));
    if matches!(s.op, OpKind::Update | OpKind::Delete) && drawn && rows > 1 {
        s.rows
    } else {
        0
    }
}

/// A statement that locks one row every run of the transaction takes: a constant key, or
/// a table of one row, not spread over slots. Taken first, it admits one such transaction
/// at a time.
fn one_row_lock(spec: &Spec, s: &Statement) -> bool {
    let rows = spec.tables.iter().find(|t| t.name == s.table).map_or(1, |t| t.rows * spec.scale);
    let one = rows == 1 || matches!(s.key, Some(KeyChoice::Fixed { .. }));
    matches!(s.op, OpKind::Update | OpKind::Delete) && one && s.slots.unwrap_or(1) == 1
}

/// The table whose drawn rows `x` may take in an order another run of it reverses: two
/// or more of them, unsorted, with no one-row lock taken before the first.
fn cycle_table<'a>(spec: &Spec, x: &'a Transaction) -> Option<&'a str> {
    if x.sort_keys {
        return None;
    }
    for (i, s) in x.statements.iter().enumerate() {
        if drawn_locks(spec, s) == 0 {
            continue;
        }
        let total: u64 = x.statements.iter().filter(|t| t.table == s.table).map(|t| drawn_locks(spec, t)).sum();
        let guarded = x.statements[..i].iter().any(|t| one_row_lock(spec, t));
        if total >= 2 && !guarded {
            return Some(&s.table);
        }
    }
    None
}

/// Where `spec` lets two transactions wait for each other in a cycle, in words, when
/// `before` did not: "it opens a lock-order cycle: `place_order` would take two or more
/// `inventory` rows in drawn order, none taken first to admit one at a time, ...".
pub fn new_cycle(before: &Spec, spec: &Spec, timeout_ms: u64) -> Option<String> {
    let was: Vec<&str> = before.transactions.iter().filter(|x| cycle_table(before, x).is_some()).map(|x| x.name.as_str()).collect();
    let (x, table) = spec.transactions.iter().filter(|x| !was.contains(&x.name.as_str())).find_map(|x| Some((x, cycle_table(spec, x)?)))?;
    Some(format!(
        "it opens a lock-order cycle: `{}` would take two or more `{table}` rows in drawn order, none taken first to admit \
         one at a time, so two runs can wait for each other until one waits out the {timeout_ms} ms lock-wait timeout",
        x.name
    ))
}

/// `spec` with transactions `names` (all when empty) taking their rows in key order.
pub fn sorted(spec: &Spec, names: &[&str]) -> Spec {
    let mut out = spec.clone();
    for x in out.transactions.iter_mut().filter(|x| names.is_empty() || names.contains(&x.name.as_str())) {
        x.sort_keys = true;
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shop(counter_first: bool) -> Spec {
        let counter = json!({ "op": "update", "table": "counters" });
        let stock = json!({ "op": "update", "table": "inventory", "key": { "dist": "zipfian", "theta": 0.99 } });
        let statements = if counter_first { json!([counter, stock, stock]) } else { json!([stock, stock, counter]) };
        Spec::from_json(
            &json!({ "name": "shop", "api": "mysqld",
                "tables": [{ "name": "counters", "rows": 1, "key": "primaryKey" }, { "name": "inventory", "rows": 1000, "key": "primaryKey" }],
                "transactions": [{ "name": "place_order", "statements": statements }] }),
            "workload",
        )
        .unwrap()
    }

    #[test]
    fn a_one_row_lock_taken_first_admits_one_at_a_time() {
        let (first, last) = (shop(true), shop(false));
        assert_eq!(new_cycle(&first, &first, 1200), None);
        let said = new_cycle(&first, &last, 1200).expect("the counter moved last opens the cycle");
        assert!(said.contains("`place_order` would take two or more `inventory` rows"), "{said}");
        assert!(said.contains("1200 ms"), "{said}");
        assert_eq!(new_cycle(&last, &last, 1200), None, "a cycle the spec had already is not new");
        assert_eq!(new_cycle(&first, &sorted(&last, &[]), 1200), None, "sorted keys close it");
        assert!(sorted(&last, &["other"]).transactions.iter().all(|x| !x.sort_keys));
        let mut slotted = first.clone();
        slotted.transactions[0].statements[0].slots = Some(32);
        assert!(new_cycle(&first, &slotted, 1200).is_some(), "a counter spread over slots admits many at a time");
    }
}
