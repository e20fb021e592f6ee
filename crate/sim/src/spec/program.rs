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
}

/// A spec transaction made ready: its weight in the mix and its statements (each run of
/// it is a `sim::txn::Txn`).
#[derive(Clone, Debug)]
struct TxnTemplate {
    weight: u64,
    stmts: Vec<Stmt>,
}

/// The running state of a spec workload, shared by its clients.
#[derive(Clone, Debug)]
pub struct SpecState {
    api: Api,
    /// Per table: its id in row keys and its rows.
    tables: Vec<(u64, u64)>,
    /// Per table: how a key becomes the stored key that places the row (`keyLayout`).
    layouts: Vec<KeyLayout>,
    shard_bits: u32,
    /// Rows the table taking ids starts with (its keys `0..id_rows` exist already).
    id_rows: u64,
    txns: Vec<TxnTemplate>,
    total_weight: u64,
    /// Per table: the next `sequential` key (inserts: rows past the initial ones).
    next: Vec<u64>,
    /// The keys of the transaction being drawn, per statement (for `sameAs`).
    keys: Vec<Vec<u64>>,
    /// Rows the transaction being drawn writes: a second write of one is folded into the
    /// first (the transaction holds that row's lock already; NDB chains such operations).
    written: HashSet<u64, BuildHasherDefault<FastHasher>>,
}

/// What the program needs of the client running it.
pub struct ClientKeys<'a> {
    pub client: u32,
    /// The client's own key counter, for inserts into a hidden-key table given a primary
    /// key (`primaryKey`).
    pub next_key: &'a mut u64,
    pub primary_key: bool,
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
                        let allocated = s.op == OpKind::Insert && spec.tables[table].key != KeyKind::PrimaryKey;
                        let default = if s.op == OpKind::Insert { KeyChoice::Sequential } else { KeyChoice::Uniform };
                        let key = KeyChooser::new(s.key.as_ref().unwrap_or(&default), tables[table].1);
                        Stmt { op: s.op, table, rows: s.rows, key, allocated, slots: s.slots.unwrap_or(1) }
                    })
                    .collect(),
            })
            .collect();
        SpecState {
            api: spec.api,
            total_weight: txns.iter().map(|t| t.weight).sum(),
            next: vec![0; tables.len()],
            keys: vec![Vec::new(); txns.iter().map(|t| t.stmts.len()).max().unwrap_or(0)],
            written: HashSet::default(),
            tables,
            layouts,
            shard_bits,
            id_rows: spec.id_rows(),
            txns,
        }
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
    pub fn generate(&mut self, which: usize, client: ClientKeys, rng: &mut Prng, out: &mut Program) -> bool {
        out.clear();
        self.written.clear();
        let txn = &self.txns[which];
        for (i, s) in txn.stmts.iter().enumerate() {
            let (table, rows) = self.tables[s.table];
            let mut keys = std::mem::take(&mut self.keys[i]);
            keys.clear();
            for r in 0..s.rows {
                let write = s.op != OpKind::Read;
                if s.allocated && !client.primary_key {
                    out.insert_allocated(table);
                    continue;
                }
                let key = if s.allocated {
                    // A hidden key given a primary key: unique to the client, past the
                    // rows the table starts with.
                    let k = self.id_rows + ((client.client as u64) << 32 | *client.next_key);
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
                                n % rows
                            }
                        }
                        &KeyChooser::SameAs { statement } => {
                            let theirs = &self.keys[statement];
                            theirs.get(r as usize % theirs.len().max(1)).copied().unwrap_or(0)
                        }
                        k => k.draw(rows, rng),
                    }
                };
                keys.push(key);
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
                    // The row is named by its key; the key layout only moves where it lands.
                    let dist = if s.allocated { key } else { key_of(key, self.layouts[s.table], self.shard_bits) };
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
            if self.api == Api::Mysqld {
                out.end_round();
            }
        }
        out.end_round();
        self.api == Api::Ndbapi || txn.stmts.len() == 1
    }

    /// True when statements go through mysqld (SQL statement costs).
    pub fn sql(&self) -> bool {
        self.api == Api::Mysqld
    }
}
