//! What would lift it: the standard remedies for a bottleneck of each kind, as the config
//! fields each one changes. The CLI runs each (`hotrow run --remedies`); the playground
//! forks the running simulation with each. The list is here once, for both.
//!
//! - the counter row: a bigger cache (fewer refills; a table with its own, its sequence's
//!   CACHE, gets that one bigger), the refill's hint (no extra hops); InnoDB's AUTO-INC
//!   lock in mode 0: mode 1 (a light mutex), a connection pool;
//! - an id-cache mutex: a range per client (no shared mutex), a bigger cache;
//! - the allocator service: a cache of ids per request;
//! - a timestamp sequence: more sequence bits per tick;
//! - a row of a spec's own table: spread it over 32 rows (a slotted counter: an update
//!   picks one, a read sums them), or update it last (its lock is held for less);
//!   DBT2's warehouse and district rows: more warehouses;
//! - lock-wait timeouts that end lock-order cycles (`deadlocks.rs`), whatever binds: the
//!   cycles' transactions take their rows in key order;
//! - a thread: twice the LDM (or TC) threads, twice the data nodes;
//! - an API node's CPU: twice the cores; the clients: twice as many.

use super::{lock_order, Deadlocks, Kind, Resource};
use crate::config::{fields, Config};
use crate::spec::{KeyChoice, OpKind, Spec};
use serde_json::{json, Value};

/// One remedy: what it is in words, the config fields it sets (dotted names), and what it
/// costs besides, when it costs something a number will not show: "it opens a lock-order
/// cycle", "the numbers stop being unique and sequential".
#[derive(Clone, Debug, PartialEq)]
pub struct Remedy {
    pub label: String,
    pub set: Vec<(String, Value)>,
    pub warning: Option<String>,
}

impl Remedy {
    fn new(label: impl Into<String>, field: &str, value: Value) -> Remedy {
        Remedy { label: label.into(), set: vec![(field.to_string(), value)], warning: None }
    }
}

/// The remedies for a run of `cfg` whose bottleneck is `b` and whose lock-wait timeouts
/// are `deadlocks` (none that would change nothing): the cycles' first, then the
/// bottleneck's.
pub fn remedies(cfg: &Config, b: Option<&Resource>, deadlocks: Option<&Deadlocks>) -> Vec<Remedy> {
    let mut list = Vec::new();
    if let (Some(d), Some(spec)) = (deadlocks, cfg.workload.spec()) {
        let mut names: Vec<&str> = Vec::new();
        for name in d.cycles.iter().flat_map(|c| c.steps.iter().map(|s| s.transaction.as_str())) {
            if !names.contains(&name) {
                names.push(name);
            }
        }
        if !names.is_empty() {
            let mut label = String::new();
            for (i, n) in names.iter().enumerate() {
                label += &format!("{}`{n}`", if i > 0 { ", " } else { "" });
            }
            label += " take their rows in key order (sorted keys)";
            list.push(Remedy::new(label, "workload", spec_json(&lock_order::sorted(spec, &names))));
        }
    }
    if let Some(b) = b {
        list.extend(bottleneck_remedies(cfg, b));
    }
    let now = serde_json::to_value(cfg).expect("a config serialises");
    list.retain(|r| r.set.iter().any(|(field, v)| crate::config::lookup(&now, field) != Some(v)));
    list
}

fn bottleneck_remedies(cfg: &Config, b: &Resource) -> Vec<Remedy> {
    let twice = |v: u64, field: &str| (v * 2).min(fields::max_of(field));
    let bigger_cache = (cfg.cache_size * 10).clamp(1000, fields::max_of("cacheSize"));
    let mut list = Vec::new();
    match b.kind {
        // InnoDB's AUTO-INC lock in mode 0 (no cache lifts it: each INSERT takes it).
        Kind::CounterRow if cfg.autoinc_table_lock() => {
            list.push(Remedy::new("AUTO-INC lock mode 1 (a light mutex)", "server.autoincLockMode", json!(1)));
            list.extend(pool(cfg));
        }
        Kind::CounterRow => {
            match own_cache(cfg, b) {
                Some(r) => list.push(r),
                None => list.push(Remedy::new(format!("a cache of {bigger_cache} ids per refill"), "cacheSize", json!(bigger_cache))),
            }
            if !cfg.hinted_refill {
                list.push(Remedy::new("the refill hinted to the counter row's node", "hintedRefill", json!(true)));
            }
        }
        Kind::IdCache => {
            list.push(Remedy::new("a range per client, no shared mutex", "idCacheScope", json!("client")));
            list.push(Remedy::new(format!("a cache of {bigger_cache} ids per fetch"), "cacheSize", json!(bigger_cache)));
        }
        Kind::Service => list.push(Remedy::new(format!("a cache of {bigger_cache} ids per request"), "cacheSize", json!(bigger_cache))),
        Kind::Timestamp => {
            let bits = (cfg.timestamp_sequence_bits + 4).min(fields::max_of("timestampSequenceBits"));
            list.push(Remedy::new(format!("{bits} sequence bits per tick"), "timestampSequenceBits", json!(bits)));
        }
        Kind::Row => {
            list.extend(row_remedies(cfg, b));
            // Every waiter wakes at each hand-off (postgres), or the hand-over passes over
            // every waiter (innodb): fewer waiters, shorter hand-offs.
            if cfg.engine.one_server() {
                list.extend(pool(cfg));
            }
            // Each new wait searches for a deadlock: InnoDB's switch for hot rows.
            if cfg.engine == crate::config::Engine::Innodb && cfg.server.deadlock_search != crate::config::DeadlockSearch::Off {
                list.push(Remedy::new("no deadlock search (innodb_deadlock_detect OFF)", "server.deadlockSearch", json!("off")));
            }
        }
        Kind::Thread if cfg.engine.one_server() => {
            let cores = twice(cfg.server.cores as u64, "server.cores");
            list.push(Remedy::new(format!("{cores} server cores"), "server.cores", json!(cores)));
            list.extend(pool(cfg));
        }
        Kind::Thread if cfg.engine == crate::config::Engine::Raft => {
            let cores = twice(cfg.server.cores as u64, "server.cores");
            list.push(Remedy::new(format!("{cores} cores per node"), "server.cores", json!(cores)));
            let nodes = twice(cfg.data_nodes as u64, "dataNodes") / cfg.replicas as u64 * cfg.replicas as u64;
            list.push(Remedy::new(format!("{nodes} nodes"), "dataNodes", json!(nodes)));
        }
        Kind::Thread => {
            if b.name.starts_with("TC thread") {
                let tc = twice(cfg.tc_threads as u64, "tcThreads");
                list.push(Remedy::new(format!("{tc} TC threads per data node"), "tcThreads", json!(tc)));
            } else {
                let ldm = twice(cfg.ldm_threads as u64, "ldmThreads");
                list.push(Remedy::new(format!("{ldm} LDM threads per data node"), "ldmThreads", json!(ldm)));
            }
            let nodes = twice(cfg.data_nodes as u64, "dataNodes") / cfg.replicas as u64 * cfg.replicas as u64;
            list.push(Remedy::new(format!("{nodes} data nodes"), "dataNodes", json!(nodes)));
        }
        Kind::ApiCpu => {
            let cores = twice(cfg.api_cores as u64, "apiCores");
            list.push(Remedy::new(format!("{cores} cores per API node"), "apiCores", json!(cores)));
        }
        Kind::Clients => {
            let n = twice(cfg.clients_per_api_node as u64, "clientsPerApiNode");
            list.push(Remedy::new(format!("{n} clients per API node"), "clientsPerApiNode", json!(n)));
        }
        // The cluster keeps up with what is offered: nothing in it to relieve.
        Kind::Offered => {}
    }
    list
}

/// A connection pool in front of a one-server engine: a quarter of the clients (at least
/// 4 before), each woken waiter's wake-up and re-check cost the server less often.
fn pool(cfg: &Config) -> Option<Remedy> {
    let n = cfg.clients_per_api_node / 4;
    (n >= 1).then(|| Remedy::new(format!("{n} clients per API node (a connection pool)"), "clientsPerApiNode", json!(n)))
}

/// The counter row of a spec table with its own fetch size (its sequence's CACHE): that
/// size ten times over (at least 1000), since the config's `cacheSize` does not reach it.
fn own_cache(cfg: &Config, b: &Resource) -> Option<Remedy> {
    let spec = cfg.workload.spec()?;
    let i = spec.tables.iter().position(|t| t.id_cache.is_some() && b.name.contains(&format!("`{}`", t.name)))?;
    let mut bigger = spec.clone();
    let n = (spec.tables[i].id_cache? * 10).clamp(1000, fields::max_of("cacheSize"));
    bigger.tables[i].id_cache = Some(n);
    Some(Remedy::new(
        format!("`{}` fetching {n} ids per refill (its sequence's CACHE)", spec.tables[i].name),
        "workload",
        spec_json(&bigger),
    ))
}

/// A hot row of the workload's own: spread its table's updates over 32 slots, or update
/// it last; DBT2's rows: more warehouses.
fn row_remedies(cfg: &Config, b: &Resource) -> Vec<Remedy> {
    let Some(spec) = cfg.workload.spec() else {
        let w = (cfg.warehouses as u64 * 4).min(fields::max_of("warehouses"));
        return vec![Remedy::new(format!("{w} warehouses"), "warehouses", json!(w))];
    };
    let Some(table) = spec.tables.iter().map(|t| t.name.as_str()).find(|t| b.name.contains(&format!("`{t}`"))) else {
        return Vec::new();
    };
    let mut list = Vec::new();
    let mut slotted = spec.clone();
    for s in slotted.transactions.iter_mut().flat_map(|x| x.statements.iter_mut()) {
        if s.table == table && matches!(s.op, OpKind::Update | OpKind::Read) {
            s.slots = Some(32);
        }
    }
    let mut slots =
        Remedy::new(format!("`{table}` spread over 32 slots (an update picks one, a read sums them)"), "workload", spec_json(&slotted));
    let read = read_back(spec, table).then(|| {
        format!("a transaction reads `{table}` back: summed over 32 slots, the numbers it hands out stop being unique and sequential")
    });
    slots.warning = joined([read, lock_order::new_cycle(spec, &slotted, cfg.lock_wait_timeout_ms)]);
    list.push(slots);
    if let Some(last) = updated_last(spec, table) {
        let mut r = Remedy::new(format!("`{table}` updated last in its transactions"), "workload", spec_json(&last));
        r.warning = lock_order::new_cycle(spec, &last, cfg.lock_wait_timeout_ms);
        list.push(r);
    }
    list
}

/// The warnings that apply, as one ("...; ..."), or None.
fn joined<const N: usize>(warnings: [Option<String>; N]) -> Option<String> {
    let mut out: Option<String> = None;
    for w in warnings.into_iter().flatten() {
        out = Some(match out {
            Some(o) => format!("{o}; {w}"),
            None => w,
        });
    }
    out
}

/// Whether a transaction reads a row of `table` that it updates, or has its update return
/// the value (`RETURNING`): the counter's value is used (an invoice number), not only counted.
fn read_back(spec: &Spec, table: &str) -> bool {
    spec.transactions.iter().any(|x| {
        let on = |op| x.statements.iter().any(|s| s.table == table && s.op == op);
        on(OpKind::Update) && (on(OpKind::Read) || x.statements.iter().any(|s| s.table == table && s.returning))
    })
}

/// `spec` with each transaction's updates of `table` moved to its end (None when none
/// moves, or when a moved statement's key is another's `sameAs`).
fn updated_last(spec: &Spec, table: &str) -> Option<Spec> {
    let mut out = spec.clone();
    let mut moved = false;
    for x in &mut out.transactions {
        let n = x.statements.len();
        let late = |s: &crate::spec::Statement| s.table == table && s.op == OpKind::Update;
        let order: Vec<usize> = (0..n).filter(|&i| !late(&x.statements[i])).chain((0..n).filter(|&i| late(&x.statements[i]))).collect();
        if order.iter().enumerate().all(|(i, &o)| i == o) {
            continue;
        }
        let refers = x.statements.iter().any(|s| matches!(s.key, Some(KeyChoice::SameAs { .. })));
        if refers {
            return None;
        }
        x.statements = order.iter().map(|&i| x.statements[i].clone()).collect();
        moved = true;
    }
    moved.then_some(out)
}

fn spec_json(spec: &Spec) -> Value {
    spec.to_json()
}
