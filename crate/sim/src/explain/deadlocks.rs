//! Aborts in the explanation: the time clients lost waiting out lock-wait timeouts, and
//! the lock-order cycles those timeouts ended (`crate::cycles`), in the user's words:
//! which transactions, which statements, which tables, in which order.
//!
//! NDB has no deadlock detector: a cycle of waits lasts until one of its transactions has
//! waited `lockWaitTimeoutMs`, is aborted and runs again. Each such wait is time its
//! client spent on no commit, so the clients' bound counts it (`ClientsIn::lost_us`), and
//! the remedy is to take the rows in one order (`Transaction::sort_keys`).

use crate::config::Config;
use crate::counts::Counts;
use crate::cycles::{Cycles, Link, OpAt};
use crate::format::{percent, seconds, value};
use crate::spec::{OpKind, Transaction};
use crate::time;
use crate::txn_kind::TxnKind;
use serde::Serialize;

/// The share of the clients' time lost to timeouts from which the explanation names them.
pub const MATERIAL: f64 = 0.05;

/// Cycles named, most frequent first.
const SHOWN: usize = 3;

/// What lock-wait timeouts cost a span, and the cycles they ended.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Deadlocks {
    pub lock_timeouts_per_second: f64,
    /// Time waited by the attempts timed out, per committed transaction, in microseconds.
    pub lost_per_commit_us: f64,
    /// The same as a share of the clients' time (clients x span), 0..=1.
    pub lost_fraction: f64,
    /// Of the timeouts, the share whose wait led to a lock-order cycle: the one timed out
    /// was in it, or queued behind it (the rest queued behind holds that no cycle held at
    /// that moment, often holds a cycle had stretched).
    pub in_cycles_fraction: f64,
    /// The tables whose rows the named cycles wait for, in the order first named.
    pub tables: Vec<String>,
    /// The most frequent cycles (at most 3).
    pub cycles: Vec<Cycle>,
    /// All of it in one sentence, as every surface prints it: "389 aborted lock waits/s,
    /// 13% of them in or behind a lock-order cycle on `inventory`; each commit loses 8.8 s
    /// to them, 99% of the clients' time".
    pub text: String,
}

/// One lock-order cycle: its transactions in wait order, each waiting for a row the next
/// one holds, the last for one the first holds.
#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Cycle {
    /// Of the timeouts, the share whose wait led to this cycle.
    pub share: f64,
    pub steps: Vec<CycleStep>,
    /// The cycle in one sentence.
    pub text: String,
}

#[derive(Clone, Debug, PartialEq, Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CycleStep {
    /// The transaction's name (`place_order`, `newOrder`).
    pub transaction: String,
    /// The operation whose row it holds, and the one at which it waits: "statement 3,
    /// update `inventory`" (a spec's statements counted from 1).
    pub holds: String,
    pub waits_at: String,
    /// The table of the row it waits for.
    pub waits_table: String,
}

/// The time the attempts timed out over a span had waited, per commit of the span, in us:
/// what each commit cost its client beyond its own response (the clients' bound counts it).
pub(crate) fn lost_per_commit_us(c: &Counts) -> f64 {
    time::as_us(c.timeout_wait_ns as f64) / c.user_txns().max(1) as f64
}

/// The deadlocks of a span of `secs` counted in `c` by `clients` clients, `cycles` after
/// warm-up; None when the timeouts cost less than `MATERIAL` of the clients' time.
pub(crate) fn of(cfg: &Config, cycles: &Cycles, c: &Counts, clients: u32, secs: f64) -> Option<Deadlocks> {
    let lost_fraction = time::as_secs(c.timeout_wait_ns) / (clients.max(1) as f64 * secs);
    if c.lock_timeouts == 0 || secs <= 0.0 || lost_fraction < MATERIAL {
        return None;
    }
    let counted = (cycles.in_cycles() + cycles.outside).max(1) as f64;
    let cycles_named: Vec<Cycle> = grouped(cycles)
        .into_iter()
        .take(SHOWN)
        .map(|(links, sizes, n)| {
            let steps: Vec<CycleStep> = links.iter().map(|l| step(cfg, l)).collect();
            Cycle { share: n as f64 / counted, text: sentence(&steps, sizes), steps }
        })
        .collect();
    let mut tables: Vec<String> = Vec::new();
    for t in cycles_named.iter().flat_map(|c: &Cycle| c.steps.iter().map(|s| &s.waits_table)) {
        if !tables.contains(t) {
            tables.push(t.clone());
        }
    }
    let mut d = Deadlocks {
        lock_timeouts_per_second: c.lock_timeouts as f64 / secs,
        lost_per_commit_us: lost_per_commit_us(c),
        lost_fraction: lost_fraction.min(1.0),
        in_cycles_fraction: cycles.in_cycles() as f64 / counted,
        tables,
        cycles: cycles_named,
        text: String::new(),
    };
    d.text = summary_sentence(&d);
    Some(d)
}

/// The deadlocks in one sentence (`Deadlocks::text`).
fn summary_sentence(d: &Deadlocks) -> String {
    let mut on = String::new();
    for (i, t) in d.tables.iter().enumerate() {
        on += &format!("{}`{t}`", if i == 0 { " on " } else { ", " });
    }
    format!(
        "{} aborted lock waits/s, {} of them in or behind a lock-order cycle{on}; each commit loses {} to them, {} of the clients' time",
        value(d.lock_timeouts_per_second, "1/s"),
        percent(d.in_cycles_fraction),
        seconds(d.lost_per_commit_us),
        percent(d.lost_fraction)
    )
}

/// Cycles alike but for how many take part (two, three or four runs of one transaction
/// taking rows in opposite orders) as one: the shortest's links, the fewest and most that
/// took part, and their timeouts; most timeouts first.
#[inline(never)] // Called per named cycle, not per event: small over fast.
fn grouped(cycles: &Cycles) -> Vec<(Vec<Link>, (usize, usize), u64)> {
    // No sort of a type of its own here (each costs the WebAssembly module kilobytes): the
    // lists are a few links, a few shapes.
    let same = |a: &[Link], b: &[Link]| a.iter().all(|x| b.contains(x)) && b.iter().all(|x| a.contains(x));
    let mut out: Vec<(Vec<Link>, (usize, usize), u64)> = Vec::new();
    for (links, n) in &cycles.shapes {
        match out.iter_mut().find(|(l, _, _)| same(l, links)) {
            Some((l, (lo, hi), count)) => {
                *count += n;
                (*lo, *hi) = ((*lo).min(links.len()), (*hi).max(links.len()));
                if links.len() < l.len() {
                    *l = links.clone();
                }
            }
            None => out.push((links.clone(), (links.len(), links.len()), *n)),
        }
    }
    // Most timeouts first, in the order first seen among equals: as pairs of u64, the sort
    // the model has already (`locks.rs`).
    let mut order: Vec<(u64, u64)> = out.iter().enumerate().map(|(i, x)| (u64::MAX - x.2, i as u64)).collect();
    order.sort_unstable();
    order.into_iter().map(|(_, i)| out[i as usize].clone()).collect()
}

#[inline(never)] // Called per named cycle, not per event: small over fast.
fn step(cfg: &Config, l: &Link) -> CycleStep {
    let kind = TxnKind::ALL[l.kind as usize];
    let txn = kind.spec_index().and_then(|i| cfg.workload.spec()?.transactions.get(i));
    CycleStep {
        transaction: crate::waits::kind_name(cfg, kind),
        holds: op_name(cfg, txn, l.holds),
        waits_at: op_name(cfg, txn, l.waits),
        waits_table: crate::row_report::table_name(cfg, l.waits.table),
    }
}

/// "statement 3, update `inventory`", or without a spec's statements "its 2nd `stock` row".
#[inline(never)] // Called per named cycle, not per event: small over fast.
fn op_name(cfg: &Config, txn: Option<&Transaction>, at: OpAt) -> String {
    let table = crate::row_report::table_name(cfg, at.table);
    match txn.and_then(|x| statement_of(x, &table, at.nth)) {
        Some((i, op)) => format!("statement {}, {} `{table}`", i + 1, verb(op)),
        None => format!("its {} `{table}` row", ordinal(at.nth as usize + 1)),
    }
}

/// The statement of `txn` whose rows include the `nth` operation on `table` (counted as
/// the program draws them: a statement's rows in order, a slotted read's every slot);
/// None when a block of it repeats (its statements then run a drawn number of times).
#[inline(never)] // Called per named cycle, not per event: small over fast.
fn statement_of(txn: &Transaction, table: &str, nth: u16) -> Option<(usize, OpKind)> {
    if txn.statements.iter().any(|s| s.repeat.is_some()) {
        return None;
    }
    let mut left = nth as u64;
    for (i, s) in txn.statements.iter().enumerate().filter(|(_, s)| s.table == table) {
        let ops = s.rows * if s.op == OpKind::Read { s.slots.unwrap_or(1) } else { 1 };
        if left < ops {
            return Some((i, s.op));
        }
        left -= ops;
    }
    None
}

fn verb(op: OpKind) -> &'static str {
    match op {
        OpKind::Read => "read",
        OpKind::Update => "update",
        OpKind::Insert => "insert into",
        OpKind::Delete => "delete from",
    }
}

fn ordinal(n: usize) -> String {
    let suffix = match (n % 10, n % 100) {
        (_, 11..=13) => "th",
        (1, _) => "st",
        (2, _) => "nd",
        (3, _) => "rd",
        _ => "th",
    };
    format!("{n}{suffix}")
}

/// The cycle in words, `sizes` the fewest and most transactions that took part in it:
/// runs of one transaction taking the same table's rows in opposite orders, or the chain
/// "a (holds ...; waits at ...) waits for b (...), which waits for the first".
#[inline(never)] // Called per named cycle, not per event: small over fast.
fn sentence(steps: &[CycleStep], (lo, hi): (usize, usize)) -> String {
    let runs = if lo == hi { lo.to_string() } else { format!("{lo} to {hi}") };
    if let Some(s) = steps.first().filter(|s| steps.iter().all(|t| t == *s)) {
        return format!(
            "{runs} runs of {} at once, each holding the row of its {} and waiting at {} for a row another holds: they take the same `{}` rows in opposite orders",
            s.transaction, s.holds, s.waits_at, s.waits_table
        );
    }
    let mut text = String::new();
    for (i, s) in steps.iter().enumerate() {
        if i > 0 {
            text += " waits for ";
        }
        text += &format!("{} (holds {}; waits at {})", s.transaction, s.holds, s.waits_at);
    }
    text += ", which waits for the first";
    if hi > lo {
        text += &format!(" ({runs} transactions)");
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shop() -> Config {
        Config::from_json(&json!({ "workload": {
            "name": "shop", "api": "mysqld",
            "tables": [{ "name": "inventory", "rows": 1000, "key": "primaryKey" }, { "name": "orders", "rows": 10, "key": "autoIncrement" }],
            "transactions": [{ "name": "place_order", "statements": [
                { "op": "insert", "table": "orders" },
                { "op": "update", "table": "inventory" },
                { "op": "update", "table": "inventory" }
            ] }]
        } }))
        .unwrap()
    }

    #[test]
    fn a_cycle_names_its_statements_and_tables() {
        let cfg = shop();
        let inventory = crate::spec::table_id(0);
        let at = |nth| OpAt { table: inventory, nth, insert: false };
        let kind = TxnKind::spec(0).index() as u8;
        let mut cycles = Cycles::default();
        cycles.add(vec![Link { kind, holds: at(0), waits: at(1) }, Link { kind, holds: at(1), waits: at(0) }]);
        cycles.outside = 1;
        // 2 timeouts that waited 8 s in all, over 10 s of 8 clients committing 100.
        let counts = |wait_ns| {
            let mut c = Counts::new(1);
            c.add_committed(TxnKind::spec(0), 100);
            (c.lock_timeouts, c.timeout_wait_ns) = (2, wait_ns);
            c
        };
        let d = of(&cfg, &cycles, &counts(8_000_000_000), 8, 10.0).expect("10% of 8 clients' 10 s: material");
        assert_eq!(d.in_cycles_fraction, 0.5);
        assert_eq!(d.tables, ["inventory"]);
        assert_eq!(d.lost_per_commit_us, 80_000.0);
        assert!((d.lost_fraction - 0.1).abs() < 1e-12);
        assert_eq!(
            d.text,
            "0.2 aborted lock waits/s, 50% of them in or behind a lock-order cycle on `inventory`; each commit loses 0.1 s to them, 10% of the clients' time"
        );
        let c = &d.cycles[0];
        assert_eq!(c.steps[0].holds, "statement 2, update `inventory`");
        assert_eq!(c.steps[0].waits_at, "statement 3, update `inventory`");
        assert_eq!(c.steps[1].holds, "statement 3, update `inventory`");
        assert_eq!(
            c.text,
            "place_order (holds statement 2, update `inventory`; waits at statement 3, update `inventory`) waits for \
             place_order (holds statement 3, update `inventory`; waits at statement 2, update `inventory`), which waits for the first"
        );
        // Runs of one transaction, each holding its first row and waiting at its second: a
        // pair and a trio are one cycle named once.
        let same = Link { kind, holds: at(0), waits: at(1) };
        let mut alike = Cycles::default();
        alike.add(vec![same; 2]);
        alike.add(vec![same; 3]);
        alike.add(vec![same; 2]);
        let d = of(&cfg, &alike, &counts(8_000_000_000), 8, 10.0).unwrap();
        assert_eq!(d.cycles.len(), 1);
        assert_eq!(d.cycles[0].share, 1.0);
        assert_eq!(d.cycles[0].steps.len(), 2);
        assert_eq!(
            d.cycles[0].text,
            "2 to 3 runs of place_order at once, each holding the row of its statement 2, update `inventory` and waiting at \
             statement 3, update `inventory` for a row another holds: they take the same `inventory` rows in opposite orders"
        );
        assert!(of(&cfg, &cycles, &counts(2_400_000_000), 8, 10.0).is_none(), "3% of the clients' time is not material");
    }
}
