//! A spec made ready to run: tables with their ids and sizes, each statement's key
//! chooser, the per-table sequence of `sequential` keys; and the program of one
//! transaction, drawn from it.

use super::{table_id, Api, KeyChoice, KeyChooser, KeyKind, OpKind, Spec};
use crate::keys::{key_of, KeyLayout};
use crate::locks::FastHasher;
use crate::prng::Prng;
use crate::workload::{row_key, OpSpec, Program};
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
}

/// The running state of a spec workload, shared by its clients: the transactions made
/// ready, and what drawing their programs keeps.
#[derive(Clone, Debug)]
pub struct SpecState {
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
pub struct ClientKeys<'a> {
    pub client: u32,
    /// The client's own key counter, for inserts into a hidden-key table given a primary
    /// key (`primaryKey`).
    pub next_key: &'a mut u64,
    pub primary_key: bool,
    /// The simulated time (ns), for time-bucket keys.
    pub now: u64,
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
    pub fn generate(&mut self, which: usize, mut client: ClientKeys, rng: &mut Prng, out: &mut Program) -> bool {
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
        d.api == Api::Ndbapi || stmts.len() == 1
    }

    /// True when statements go through mysqld (SQL statement costs).
    pub fn sql(&self) -> bool {
        self.draw.api == Api::Mysqld
    }
}

impl Drawing {
    /// Writes statement `s` (number `i` of its transaction): its rows, their index rows, and
    /// in mysqld the end of its round.
    fn statement(&mut self, s: &Stmt, i: usize, client: &mut ClientKeys, rng: &mut Prng, out: &mut Program) {
        let (table, rows) = self.tables[s.table];
        if s.allocated && !client.primary_key && s.indexes.is_empty() {
            // Rows whose keys the allocator gives: nothing to draw, and no statement may
            // name their keys (`sameAs`, `distribution` refuse it), so none are kept.
            for _ in 0..s.rows {
                out.insert_allocated(table);
            }
            if self.api == Api::Mysqld {
                out.end_round();
            }
            return;
        }
        let mut keys = std::mem::take(&mut self.keys[i]);
        keys.clear();
        // Only a table of shared-column values keeps its rows' values.
        let mut values = if s.values > 0 { std::mem::take(&mut self.keys[self.values + i]) } else { Vec::new() };
        values.clear();
        for r in 0..s.rows {
            let write = s.op != OpKind::Read;
            if s.allocated && !client.primary_key {
                out.insert_allocated(table);
                index_rows(&mut self.index_next, &mut self.written, s, rng, out);
                continue;
            }
            // The value its row takes from an earlier statement's (then its key is drawn
            // among that value's rows), if the spec links them.
            let value = s.distribution.map(|(j, remote_ppm)| {
                let v = match j {
                    None => client.client as u64 % s.values,
                    Some(j) => match self.keys[self.values + j].get(r as usize % self.keys[self.values + j].len().max(1)) {
                        Some(&v) => v,
                        None => rng.below(s.values),
                    },
                };
                if remote_ppm > 0 && s.values > 1 && rng.below(1_000_000) < remote_ppm {
                    (v + 1 + rng.below(s.values - 1)) % s.values
                } else {
                    v
                }
            });
            let (over, base) = match value {
                Some(v) => (s.per_value, v * s.per_value),
                None => (rows, 0),
            };
            let mut value = value;
            let key = if s.allocated {
                // A hidden key given a primary key: unique to the client, past the
                // rows the table starts with.
                let k = self.id_rows[s.table] + ((client.client as u64) << 32 | *client.next_key);
                *client.next_key += 1;
                k
            } else {
                match &s.key {
                    KeyChooser::Sequential => {
                        let n = self.next[s.table];
                        self.next[s.table] += 1;
                        if s.op == OpKind::Insert {
                            rows + n
                        } else {
                            base + n % over
                        }
                    }
                    &KeyChooser::TimeBucket { bucket_ns } => base + KeyChooser::bucket(bucket_ns, client.now, over),
                    &KeyChooser::SameAs { statement } => {
                        let at = r as usize % self.keys[statement].len().max(1);
                        if let Some(&v) = self.keys[self.values + statement].get(at) {
                            value = Some(v);
                        }
                        self.keys[statement].get(at).copied().unwrap_or(0)
                    }
                    k => base + k.draw(over, rng),
                }
            };
            // A table of `distributionValues`: a row's value is its run's (a new row's, the
            // value it was given, else one by its key).
            let value = match value {
                _ if s.values == 0 => 0,
                Some(v) => v,
                None if key < rows => key / s.per_value,
                None => key % s.values,
            };
            keys.push(key);
            if s.values > 0 {
                values.push(value);
            }
            // A slotted counter: an update takes one slot's row, a read every slot's.
            let slots = match (s.slots, s.op) {
                (1, _) => 0..1,
                (n, OpKind::Read) => 0..n,
                (n, _) => {
                    let slot = rng.below(n);
                    slot..slot + 1
                }
            };
            for slot in slots {
                let key = key + slot * super::MAX_TABLE_ROWS;
                // The row is named by its key; the key layout only moves where it lands, and
                // a shared column's value, when the table has one, places it.
                let dist = if s.values > 0 {
                    value
                } else if s.allocated {
                    key
                } else {
                    key_of(key, self.layouts[s.table], self.shard_bits)
                };
                let op = OpSpec { row: row_key(table, key), dist, write, insert: s.op == OpKind::Insert, needs_id: false };
                if write && !self.written.insert(op.row) {
                    continue; // Written already by this transaction: folded into that write.
                }
                if s.op == OpKind::Insert {
                    out.insert_keyed(op);
                } else {
                    out.ops.push(op);
                }
            }
        }
        self.keys[i] = keys;
        if s.values > 0 {
            self.keys[self.values + i] = values;
        }
        if !s.indexes.is_empty() && (!s.allocated || client.primary_key) {
            for _ in 0..s.rows {
                index_rows(&mut self.index_next, &mut self.written, s, rng, out);
            }
        }
        if self.api == Api::Mysqld {
            out.end_round();
        }
    }
}

/// The unique index rows one row of insert or delete `s` writes, in its round: an
/// insert's new unique value is a new index row, a delete's is one of the existing rows
/// (its unique value, any). An index row lands where a hash of the value puts it.
fn index_rows(
    index_next: &mut [(u64, u64)],
    written: &mut HashSet<u64, BuildHasherDefault<FastHasher>>,
    s: &Stmt,
    rng: &mut Prng,
    out: &mut Program,
) {
    for &(table, g) in &s.indexes {
        let (rows, added) = &mut index_next[g];
        // An insert's value is new, a delete's any existing one; an update of the column
        // does both (the old value's row out, the new one's in).
        let mut keys = [None, None];
        if s.op != OpKind::Insert {
            keys[0] = Some((rng.below(*rows + *added), false));
        }
        if s.op != OpKind::Delete {
            *added += 1;
            keys[1] = Some((*rows + *added - 1, true));
        }
        for (key, insert) in keys.into_iter().flatten() {
            if !written.insert(row_key(table, key)) {
                continue; // Written already by this transaction (a delete drew it twice).
            }
            let dist = key.wrapping_add(table.wrapping_mul(0x9e37_79b9_7f4a_7c15));
            out.ops.push(OpSpec { row: row_key(table, key), dist, write: true, insert, needs_id: false });
        }
    }
}

#[cfg(test)]
mod tests;
