//! The hot rows as reports give them (the summary's `hottestRows`, each window's): a
//! tracked row's totals (`heat.rs`) as rates over the span (a lower bound for a row
//! counted for less of it, which `counted_seconds` says), its table's name and key, and
//! who waits for whom.

use crate::config::Config;
use crate::heat::RowLockTotals;
use crate::rates::ratio;
use crate::time::{self, Ns};
use crate::waits;
use crate::workload::{self, table};
use serde::Serialize;

/// One hot row as reports give it: its table's name and key, how busy its lock was.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RowReport {
    /// The row's full key (its table's id in the top byte), to find it again.
    #[serde(skip)]
    pub row: u64,
    pub table: String,
    pub key: u64,
    /// A SYSTAB_0 counter row's: the table whose ids it counts (its key is that table's id).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_of: Option<String>,
    /// The data node of its primary replica.
    pub node: u32,
    /// The seconds it was counted: the whole span (the measured period, a window) for a
    /// row tracked from its start; less for a row first tracked after it began, whose
    /// rates (over the whole span) are then a lower bound.
    pub counted_seconds: f64,
    /// Fraction of the time its primary lock was held, 0..=1.
    pub lock_busy_fraction: f64,
    pub grants_per_second: f64,
    /// Lock requests that had to wait, per second.
    pub waits_per_second: f64,
    /// Requests waiting on average (total wait over the span, by Little's law).
    pub mean_waiters: f64,
    /// Mean wait of the requests that waited, in microseconds.
    pub mean_wait_us: f64,
    /// Of the time its lock was held, the share its holders spent waiting for another
    /// lock or an id (a lock mostly blocked is a convoy's victim), and for busy threads.
    pub blocked_fraction: f64,
    pub queued_fraction: f64,
    /// Who waits for whom: the row's whole wait split by the waiting and the holding
    /// request (transaction and statement), largest first; the parts sum to the wait.
    pub waits: Vec<WaitReport>,
}

/// One part of a row's wait: requests of `waiter` waiting for holders of `holder`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WaitReport {
    /// "transfer: update branches": the transaction and what it does to the row.
    pub waiter: String,
    pub holder: String,
    /// Microseconds waited in all over the span.
    pub wait_us: f64,
    /// Of the row's whole wait, 0..=1.
    pub share: f64,
}

/// The name of the table with id `id` in `cfg`'s workload (the id counters' as the engine
/// holds them: `Engine::counter_table`).
pub fn table_name(cfg: &Config, id: u64) -> String {
    match cfg.workload.spec() {
        _ if id == table::SYSTAB => cfg.engine.counter_table().to_string(),
        Some(spec) => spec.table_name(id).unwrap_or_else(|| workload::builtin_table_name(id).to_string()),
        None => workload::builtin_table_name(id).to_string(),
    }
}

/// `rows`' totals over a span of `span_ns` as a report (a row counted for less of it
/// says so in `counted_seconds`: its rates are then a lower bound).
pub fn report(cfg: &Config, rows: &[RowLockTotals], span_ns: Ns) -> Vec<RowReport> {
    let secs = time::as_secs(span_ns).max(1e-12);
    rows.iter()
        .map(|r| RowReport {
            row: r.row,
            table: table_name(cfg, workload::table_of(r.row)),
            key: r.row & ((1 << 56) - 1),
            counter_of: (workload::table_of(r.row) == table::SYSTAB).then(|| table_name(cfg, r.row & ((1 << 56) - 1))),
            node: r.node,
            counted_seconds: time::as_secs(r.counted_ns.min(span_ns)),
            lock_busy_fraction: (r.busy_ns as f64 / span_ns.max(1) as f64).min(1.0),
            grants_per_second: r.grants as f64 / secs,
            waits_per_second: r.waits as f64 / secs,
            mean_waiters: r.wait_ns as f64 / span_ns.max(1) as f64,
            mean_wait_us: if r.waits > 0 { time::as_us(r.wait_ns as f64 / r.waits as f64) } else { 0.0 },
            blocked_fraction: ratio(r.blocked_ns, r.busy_ns).min(1.0),
            queued_fraction: ratio(r.queued_ns, r.busy_ns).min(1.0),
            waits: waits(cfg, r),
        })
        .collect()
}

/// `r`'s wait split, largest part first.
fn waits(cfg: &Config, r: &RowLockTotals) -> Vec<WaitReport> {
    let table = table_name(cfg, workload::table_of(r.row));
    // Largest first, then by waiter and holder: as pairs of u64, the one sort the WebAssembly
    // module keeps (`locks.rs`).
    let mut order: Vec<(u64, u64)> = r.split.iter().map(|s| (u64::MAX - s.ns, (s.waiter as u64) << 16 | s.holder as u64)).collect();
    order.sort_unstable();
    order
        .iter()
        .map(|&(ns, classes)| (u64::MAX - ns, (classes >> 16) as u16, classes as u16))
        .map(|(ns, waiter, holder)| WaitReport {
            waiter: waits::class_name(cfg, waiter, &table),
            holder: waits::class_name(cfg, holder, &table),
            wait_us: time::as_us(ns as f64),
            share: if r.wait_ns > 0 { ns as f64 / r.wait_ns as f64 } else { 0.0 },
        })
        .collect()
}
