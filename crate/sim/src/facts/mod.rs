//! What every surface says of a run, decided once: the figure the run is about (its
//! headline), the row that binds it, whether an id counter row is in use, whether the bug
//! report's reference lines apply, the run in words, and which figures a surface shows first. The CLI's
//! table, `hotrow report` and the playground format these facts and derive none of them.
//!
//! "Hot row" means the row that binds, whatever its table: the row whose lock is the
//! bottleneck, or, while something else binds (a thread, the clients), the busiest row
//! lock, marked as not binding. The SYSTAB_0 counter row is "the id counter row", shown
//! as such only when the run takes ids from one.

use crate::config::{Config, Engine, Workload};

mod described;

use crate::explain::Kind;
use crate::row_report::RowReport;
use crate::spec::OpKind;
pub use described::described;
use serde::Serialize;

/// The facts of a run, or of its latest window (the summary's `facts`, the wasm
/// snapshot's `facts`).
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Facts {
    /// The metric the run is about, by its catalog name: `tpm` for DBT2,
    /// `insertsPerSecond` for a workload whose transactions only insert,
    /// `transactionsPerSecond` otherwise.
    pub headline: &'static str,
    /// The row that binds (or the busiest row lock, `binds` false); null while no row
    /// lock was held twice.
    pub hot_row: Option<HotRow>,
    /// The SYSTAB_0 counter row the principal table's ids come from; null when the
    /// strategy has none or the table has a primary key of its own.
    pub counter_row: Option<CounterRow>,
    /// The bug report's two TPM figures (106k at cache 1, 158k at cache 1000) compare with
    /// this run: DBT2, closed loop, on the report's cluster (8 data nodes, 2 replicas).
    pub reference_lines: bool,
    /// The run in one sentence: what runs, on which cluster, how requests arrive, where ids
    /// come from, how rows are placed (`described.rs`).
    pub described: String,
    /// The figures a surface shows first, in order: catalog metric names, and `hotRow`
    /// for the hot row's lock busy (`hotRowLockUtilization` is the id counter row's,
    /// listed only when it is in use and is not the hot row).
    pub cards: Vec<&'static str>,
}

/// The row that binds, as reports name it.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct HotRow {
    /// The row's full key (its table's id in the top byte), as `RowReport::row`.
    #[serde(skip)]
    pub row: u64,
    /// In the user's words: "row 0 of `counters`", "the counter row of `history` in
    /// SYSTAB_0".
    pub name: String,
    pub table: String,
    pub key: u64,
    /// A SYSTAB_0 counter row's: the table whose ids it counts.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub counter_of: Option<String>,
    /// The data node of its primary replica.
    pub node: u32,
    /// Fraction of the time its lock was held, 0..=1.
    pub lock_busy_fraction: f64,
    /// True: its lock is the bottleneck and sets the throughput. False: something else
    /// binds, and this is the busiest row lock.
    pub binds: bool,
}

/// The id counter row in use.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct CounterRow {
    /// The table whose ids it counts.
    pub of: String,
    /// The data node of its primary replica.
    pub node: u32,
    /// It is the hot row too (it binds, or is the busiest row lock).
    pub is_hot_row: bool,
}

/// The resource that binds a span, as the explanation found it: its kind, its id
/// (`Load::id`: a row's full key for a row) and its utilization.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Binding {
    pub kind: Kind,
    pub id: u64,
    pub utilization: f64,
}

/// The summary metrics that are the id counter row's (the SYSTAB_0 row the principal
/// table's ids come from): shown, as the id counter row's, only when one is in use.
pub const COUNTER_ROW_METRICS: [&str; 4] = ["refillsPerSecond", "hotRowLockUtilization", "hotRowQueueMean", "hotRowLockHoldMeanUs"];

/// The metric a run of `cfg` is about.
pub fn headline(cfg: &Config) -> &'static str {
    match &cfg.workload {
        Workload::Dbt2 => "tpm",
        Workload::Spec(s) if s.transactions.iter().all(|t| t.statements.iter().all(|st| st.op == OpKind::Insert)) => "insertsPerSecond",
        Workload::Spec(_) => "transactionsPerSecond",
    }
}

/// The metric a precision stop and a detected warm-up watch: `precisionMetric`, with
/// `headline` (its default) read as the run's headline figure.
pub fn precision_metric(cfg: &Config) -> &str {
    match cfg.precision_metric.as_str() {
        "headline" => headline(cfg),
        named => named,
    }
}

/// The metric a detected warm-up (`warmup: "auto"`) watches: `precisionMetric`, with
/// `headline` read as transactions/s, every user commit. On `bug39267-fixed` from cold (6 s,
/// seed 1) MSER-5 cuts the first windows of transactions/s, which read above the steady
/// rate (5,905/s over the first 1.5 s against 5,882/s from 2 s on), and none of TPM, whose
/// New-Orders start low (2,240/s in the first window against about 2,630/s) and wander (CV
/// 0.064 over the first 1.5 s, 0.052 after; transactions/s 0.036 and 0.052): tests/it/api.rs,
/// `a_detected_warm_up_says_where_it_cut`.
pub fn warmup_metric(cfg: &Config) -> &str {
    match cfg.precision_metric.as_str() {
        "headline" => "transactionsPerSecond",
        named => named,
    }
}

/// Whether the run takes its principal table's ids from a counter row with a lock of its own
/// (NDB's SYSTAB_0 row, Raft's sequence row, InnoDB's AUTO-INC lock in mode 0): a
/// counter-row strategy on an engine that refills (a one-server engine takes them inside
/// the INSERT, under no lock but InnoDB's in mode 0), and a table that takes ids (DBT2's
/// HISTORY; a spec's table keyed by AUTO_INCREMENT or a hidden key).
pub fn uses_counter_row(cfg: &Config) -> bool {
    let takes_ids = cfg.workload.spec().is_none_or(|s| s.tables.iter().any(|t| t.key != crate::spec::KeyKind::PrimaryKey));
    let locked = !cfg.engine.one_server() || cfg.autoinc_table_lock();
    cfg.allocator.traits().counter_row && locked && !cfg.primary_key && takes_ids
}

/// Whether the bug report's TPM figures compare with a run of `cfg`.
pub fn reference_lines(cfg: &Config) -> bool {
    cfg.workload == Workload::Dbt2 && cfg.arrival_rate_per_api_node == 0 && cfg.data_nodes == 8 && cfg.replicas == 2
}

/// Whether any transaction of the workload inserts.
fn inserts(cfg: &Config) -> bool {
    cfg.workload.spec().is_none_or(|s| s.transactions.iter().any(|t| t.statements.iter().any(|st| st.op == OpKind::Insert)))
}

impl Facts {
    /// The facts of a span: `binding` what bound it, `rows` its hottest rows (busiest
    /// first, as `row_report::report` gives them), `(counter_row, node)` the principal
    /// counter row's key and the data node of its primary.
    /// `aborted`: attempts were aborted over the span (its aborts/s is then a card).
    pub fn of(cfg: &Config, binding: Option<Binding>, rows: &[RowReport], (counter_row, node): (u64, u32), aborted: bool) -> Facts {
        let headline = headline(cfg);
        let hot_row = hot_row(cfg.engine, binding, rows);
        let counter_row = uses_counter_row(cfg).then(|| CounterRow {
            of: crate::row_report::table_name(cfg, counter_row & ((1 << 56) - 1)),
            node,
            is_hot_row: hot_row.as_ref().is_some_and(|h| h.row == counter_row),
        });
        let mut cards = vec![headline];
        let throughput = ["tpm", "insertsPerSecond", "transactionsPerSecond"];
        let shown = |m: &&&str| **m != headline && (**m != "tpm" || headline == "tpm") && (**m != "insertsPerSecond" || inserts(cfg));
        cards.extend(throughput.iter().filter(shown).copied());
        cards.push("hotRow");
        if let Some(c) = &counter_row {
            if !c.is_hot_row {
                cards.push("hotRowLockUtilization");
            }
            // InnoDB's AUTO-INC lock (mode 0) is taken by each INSERT: no refills.
            if !cfg.engine.one_server() {
                cards.push("refillsPerSecond");
            }
        }
        if aborted {
            cards.push("abortsPerSecond");
        }
        cards.push("latencyP99Us");
        Facts { headline, hot_row, counter_row, reference_lines: reference_lines(cfg), described: described(cfg), cards }
    }

    /// What marks data node `node` in a node table: the hot row's, the id counter row's.
    pub fn node_mark(&self, node: u32) -> Option<&'static str> {
        node_mark(node, self.hot_row.as_ref().map(|h| h.node), self.counter_row.as_ref().map(|c| (c.node, c.is_hot_row)))
    }

    /// The facts of a metrics window: what bound it (`Window::bound`) and its hottest
    /// rows, reported (`row_report::report`); `aborted` whether the run so far aborted any
    /// attempt (a card that came and went with each window would flicker).
    pub fn of_window(cfg: &Config, w: &crate::metrics::Window, rows: &[RowReport], counter_row: (u64, u32), aborted: bool) -> Facts {
        let binding = Kind::of_code(w.bound.kind).map(|kind| Binding { kind, id: w.bound.id, utilization: w.bound.utilization });
        Facts::of(cfg, binding, rows, counter_row, aborted)
    }
}

/// What marks data node `node` in a node table, given the hot row's node and the id counter
/// row's (its node, and whether it is the hot row): the CLI's table asks through
/// `Facts::node_mark`, the report (which reads the summary's JSON) directly.
pub fn node_mark(node: u32, hot_row: Option<u32>, counter_row: Option<(u32, bool)>) -> Option<&'static str> {
    match (hot_row == Some(node), counter_row.filter(|c| c.0 == node)) {
        (true, Some((_, true))) => Some("hot row, the id counter row"),
        (true, Some(_)) => Some("hot row; id counter row"),
        (true, None) => Some("hot row"),
        (false, Some(_)) => Some("id counter row"),
        (false, None) => None,
    }
}

/// The row that binds: the bottleneck's row when a row binds, else the busiest row lock; a
/// counter row named as the engine has it ("the sequence of `t`").
fn hot_row(engine: Engine, binding: Option<Binding>, rows: &[RowReport]) -> Option<HotRow> {
    let of = |r: &RowReport, busy: f64, binds: bool| HotRow {
        row: r.row,
        name: match &r.counter_of {
            Some(of) => engine.counter_of(of),
            None => format!("row {} of `{}`", r.key, r.table),
        },
        table: r.table.clone(),
        key: r.key,
        counter_of: r.counter_of.clone(),
        node: r.node,
        lock_busy_fraction: busy,
        binds,
    };
    if let Some(b) = binding.filter(|b| matches!(b.kind, Kind::Row | Kind::CounterRow)) {
        if let Some(r) = rows.iter().find(|r| r.row == b.id) {
            return Some(of(r, b.utilization, true));
        }
    }
    rows.first().map(|r| of(r, r.lock_busy_fraction, false))
}

#[cfg(test)]
mod tests {
    use super::uses_counter_row;
    use crate::Config;
    use serde_json::json;

    /// A counter row with a lock of its own is NDB's and Raft's, and InnoDB's AUTO-INC lock
    /// in mode 0; a one-server engine otherwise takes its ids inside the INSERT, so no
    /// surface shows a counter row's figures for it.
    #[test]
    fn only_engines_that_lock_a_counter_have_an_id_counter_row() {
        let uses = |preset: &str, mode: u32| {
            let cfg = json!({ "preset": preset, "workload": "sysbench-insert", "server": { "autoincLockMode": mode } });
            uses_counter_row(&Config::from_json(&cfg).unwrap())
        };
        assert!(uses("bug39267", 1) && uses("raft", 1) && uses("innodb", 0));
        assert!(!uses("postgres", 1) && !uses("innodb", 1) && !uses("postgres", 0));
    }
}
