//! A spec made ready to run: tables with their ids and sizes, each statement's key
//! chooser, the per-table sequence of `sequential` keys; and the program of one
//! transaction, drawn from it.

use super::{table_id, Api, KeyChoice, KeyChooser, KeyKind, OpKind, Spec};
use crate::keys::KeyLayout;
use crate::locks::FastHasher;
use crate::prng::Prng;
use crate::workload::Program;
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

#[derive(Clone, Debug)]
struct Stmt {
    op: OpKind,
    table: usize,
    rows: u64,
    key: KeyChooser,
    /// An insert whose key the id allocator gives (or, with `primaryKey`, the client).
    allocated: bool,
    /// A slotted counter's rows per key (1: not slotted).
    slots: u64,
    /// The unique index tables an insert or a delete (or an update setting their column)
    /// also writes a row of: each one's id and its number among the spec's indexes
    /// (`SpecState::index_next`).
    indexes: Vec<(u64, usize)>,
    /// Its table's `distributionValues` x scale (0: none) and rows per value.
    values: u64,
    per_value: u64,
    /// The statement whose rows' values its rows take (none: the client's own value), and
    /// the share (ppm) taking another.
    distribution: Option<(Option<usize>, u64)>,
    /// The block it starts: fewest and most runs, its statements, the share (ppm) of
    /// transactions it runs in.
    repeat: Option<(u64, u64, usize, u64)>,
}

/// A spec transaction made ready: its weight in the mix and its statements (each run of
/// it is a `sim::txn::Txn`).
#[derive(Clone, Debug)]
struct TxnTemplate {
    weight: u64,
    stmts: Vec<Stmt>,
    /// Whether a block of it repeats (else it is drawn statement by statement).
    blocks: bool,
    /// Its locked rows are taken in key order (`Transaction::sort_keys`).
    sort_keys: bool,
}

/// The running state of a spec workload, shared by its clients: the transactions made
/// ready, and what drawing their programs keeps.
#[derive(Clone, Debug)]
pub(crate) struct SpecState {
    txns: Vec<TxnTemplate>,
    total_weight: u64,
    draw: Drawing,
}

/// What drawing programs keeps: the tables, their sequences, and the transaction being
/// drawn's keys and written rows.
#[derive(Clone, Debug)]
struct Drawing {
    api: Api,
    /// Per table: its id in row keys and its rows.
    tables: Vec<(u64, u64)>,
    /// Per table: how a key becomes the stored key that places the row (`keyLayout`).
    layouts: Vec<KeyLayout>,
    shard_bits: u32,
    /// Per table: the rows it starts with (a table taking ids: its keys `0..` that many
    /// exist already).
    id_rows: Vec<u64>,
    /// Per table: the next `sequential` key (inserts: rows past the initial ones).
    next: Vec<u64>,
    /// The keys of the transaction being drawn, per statement (for `sameAs`); then, from
    /// `values` on, their rows' distribution values (tables with `distributionValues`).
    keys: Vec<Vec<u64>>,
    values: usize,
    /// Rows the transaction being drawn writes: a second write of one is folded into the
    /// first (the transaction holds that row's lock already; NDB chains such operations).
    written: HashSet<u64, BuildHasherDefault<FastHasher>>,
    /// Per unique index (in the spec's order): its rows at the start and how many were
    /// inserted since (a new row's unique value is a new index row).
    index_next: Vec<(u64, u64)>,
}

/// What the program needs of the client running it.
pub(crate) struct ClientKeys<'a> {
    pub client: u32,
    /// The client's own key counter, for inserts into a hidden-key table given a primary
    /// key (`primaryKey`).
    pub next_key: &'a mut u64,
    pub primary_key: bool,
    /// The simulated time (ns), for time-bucket keys.
    pub now_ns: u64,
}

impl SpecState {
    /// `key_layout` is the config's, for the table taking ids unless the spec names its
    /// own (`Spec::key_layout`); `shard_bits` the config's.
    pub fn new(spec: &Spec, key_layout: KeyLayout, shard_bits: u32) -> SpecState {
        let tables: Vec<(u64, u64)> = spec.tables.iter().enumerate().map(|(i, t)| (table_id(i), t.rows.max(1) * spec.scale)).collect();
        let layouts = (0..spec.tables.len()).map(|i| spec.key_layout(i, key_layout)).collect();
        let txns: Vec<TxnTemplate> = spec
            .transactions
            .iter()
            .map(|x| TxnTemplate {
                weight: x.weight,
                stmts: x
                    .statements
                    .iter()
                    .map(|s| {
                        let table = spec.table_index(&s.table);
                        let t = &spec.tables[table];
                        let allocated = s.op == OpKind::Insert && t.key != KeyKind::PrimaryKey;
                        let values = t.distribution_values.map_or(0, |v| v * spec.scale);
                        let per_value = tables[table].1.checked_div(values).unwrap_or(tables[table].1);
                        let default = if s.op == OpKind::Insert { KeyChoice::Sequential } else { KeyChoice::Uniform };
                        // A statement taking an earlier one's value draws among that value's rows.
                        let over = if s.distribution.is_some() { per_value } else { tables[table].1 };
                        let key = KeyChooser::new(s.key.as_ref().unwrap_or(&default), over);
                        let indexes = match s.op {
                            OpKind::Insert | OpKind::Delete => spec.index_table_ids(table).zip(spec.first_index(table)..).collect(),
                            OpKind::Update => spec
                                .index_table_ids(table)
                                .zip(spec.first_index(table)..)
                                .zip(&t.unique_indexes)
                                .filter(|(_, name)| s.sets_unique.contains(name))
                                .map(|(x, _)| x)
                                .collect(),
                            OpKind::Read => Vec::new(),
                        };
                        let ppm = |share: f64| (share * 1e6).round() as u64;
                        Stmt {
                            op: s.op,
                            table,
                            rows: s.rows,
                            key,
                            allocated,
                            slots: s.slots.unwrap_or(1),
                            indexes,
                            values,
                            per_value,
                            distribution: s.distribution.as_ref().map(|d| (d.same_as, ppm(d.remote))),
                            repeat: s.repeat.as_ref().map(|r| (r.min, r.max.unwrap_or(r.min), r.statements, ppm(r.share))),
                        }
                    })
                    .collect(),
                blocks: x.statements.iter().any(|s| s.repeat.is_some()),
                sort_keys: x.sort_keys,
            })
            .collect();
        let most = txns.iter().map(|t| t.stmts.len()).max().unwrap_or(0);
        let draw = Drawing {
            api: spec.api,
            next: vec![0; tables.len()],
            keys: vec![Vec::new(); 2 * most],
            values: most,
            written: HashSet::default(),
            index_next: spec.tables.iter().flat_map(|t| t.unique_indexes.iter().map(|_| (t.rows.max(1) * spec.scale, 0))).collect(),
            tables,
            layouts,
            shard_bits,
            id_rows: spec.tables.iter().map(|t| t.rows * spec.scale).collect(),
        };
        SpecState { total_weight: txns.iter().map(|t| t.weight).sum(), txns, draw }
    }

    /// Draws which transaction of the mix runs next (no draw when there is one).
    pub fn pick(&self, rng: &mut Prng) -> usize {
        if self.txns.len() == 1 {
            return 0;
        }
        let mut x = rng.below(self.total_weight);
        for (i, t) in self.txns.iter().enumerate() {
            if x < t.weight {
                return i;
            }
            x -= t.weight;
        }
        unreachable!("x < total weight")
    }

    /// Writes transaction `which`'s program; returns whether its commit rides on its last
    /// round (NDB API batches, autocommit statements).
    pub(crate) fn generate(&mut self, which: usize, mut client: ClientKeys, rng: &mut Prng, out: &mut Program) -> bool {
        out.clear();
        let d = &mut self.draw;
        d.written.clear();
        let stmts = &self.txns[which].stmts;
        if !self.txns[which].blocks {
            for (i, s) in stmts.iter().enumerate() {
                d.statement(s, i, &mut client, rng, out);
            }
        } else {
            let mut i = 0;
            while i < stmts.len() {
                // A block runs a drawn number of times (drawn only when a spec asks for one).
                let (runs, len) = match stmts[i].repeat {
                    None => (1, 1),
                    Some((min, max, len, share_ppm)) => {
                        let runs = if share_ppm < 1_000_000 && rng.below(1_000_000) >= share_ppm {
                            0
                        } else if min == max {
                            min
                        } else {
                            rng.range(min, max)
                        };
                        (runs, len)
                    }
                };
                if runs == 0 {
                    for j in i..i + len {
                        d.keys[j].clear();
                        d.keys[d.values + j].clear();
                    }
                }
                for _ in 0..runs {
                    for (j, s) in stmts.iter().enumerate().skip(i).take(len) {
                        d.statement(s, j, &mut client, rng, out);
                    }
                }
                i += len;
            }
        }
        out.end_round();
        if self.txns[which].sort_keys {
            sort_locked_keys(&mut out.ops);
        }
        d.api == Api::Ndbapi || stmts.len() == 1
    }

    /// True when statements go through mysqld (SQL statement costs).
    pub fn sql(&self) -> bool {
        self.draw.api == Api::Mysqld
    }
}

/// Each table's locked rows (updates and deletes; new rows lock no one out) handed to
/// their places in key order: the program's statements and rounds stay, their keys sorted.
fn sort_locked_keys(ops: &mut [crate::workload::OpSpec]) {
    let locked = |o: &crate::workload::OpSpec| o.write && !o.insert;
    let mut tables: Vec<u64> = Vec::new();
    for table in ops.iter().filter(|o| locked(o)).map(|o| crate::workload::table_of(o.row)) {
        if !tables.contains(&table) {
            tables.push(table);
        }
    }
    for table in tables {
        let at: Vec<usize> = (0..ops.len()).filter(|&i| locked(&ops[i]) && crate::workload::table_of(ops[i].row) == table).collect();
        // Pairs of u64: the sort the model has already (`locks.rs`), no new one in the module.
        let mut rows: Vec<(u64, u64)> = at.iter().map(|&i| (ops[i].row, ops[i].dist)).collect();
        rows.sort_unstable();
        for (&i, (row, dist)) in at.iter().zip(rows) {
            (ops[i].row, ops[i].dist) = (row, dist);
        }
    }
}

mod draw;
#[cfg(test)]
mod tests;
