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
    /// The unique index tables an insert or a delete also writes a row of: each one's id
    /// and its number among the spec's indexes (`SpecState::index_next`).
    indexes: Vec<(u64, usize)>,
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
    /// Per table: the rows it starts with (a table taking ids: its keys `0..` that many
    /// exist already).
    id_rows: Vec<u64>,
    txns: Vec<TxnTemplate>,
    total_weight: u64,
    /// Per table: the next `sequential` key (inserts: rows past the initial ones).
    next: Vec<u64>,
    /// The keys of the transaction being drawn, per statement (for `sameAs`).
    keys: Vec<Vec<u64>>,
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
                        let allocated = s.op == OpKind::Insert && spec.tables[table].key != KeyKind::PrimaryKey;
                        let default = if s.op == OpKind::Insert { KeyChoice::Sequential } else { KeyChoice::Uniform };
                        let key = KeyChooser::new(s.key.as_ref().unwrap_or(&default), tables[table].1);
                        let indexes = match s.op {
                            OpKind::Insert | OpKind::Delete => spec.index_table_ids(table).zip(spec.first_index(table)..).collect(),
                            OpKind::Read | OpKind::Update => Vec::new(),
                        };
                        Stmt { op: s.op, table, rows: s.rows, key, allocated, slots: s.slots.unwrap_or(1), indexes }
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
            index_next: spec.tables.iter().flat_map(|t| t.unique_indexes.iter().map(|_| (t.rows.max(1) * spec.scale, 0))).collect(),
            tables,
            layouts,
            shard_bits,
            id_rows: spec.tables.iter().map(|t| t.rows * spec.scale).collect(),
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
                    index_rows(&mut self.index_next, &mut self.written, s, rng, out);
                    continue;
                }
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
                                n % rows
                            }
                        }
                        &KeyChooser::TimeBucket { bucket_ns } => KeyChooser::bucket(bucket_ns, client.now, rows),
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
            if !s.indexes.is_empty() && (!s.allocated || client.primary_key) {
                for _ in 0..s.rows {
                    index_rows(&mut self.index_next, &mut self.written, s, rng, out);
                }
            }
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
        let key = if s.op == OpKind::Insert {
            *added += 1;
            *rows + *added - 1
        } else {
            rng.below(*rows + *added)
        };
        if !written.insert(row_key(table, key)) {
            continue; // Written already by this transaction (a delete drew it twice).
        }
        let dist = key.wrapping_add(table.wrapping_mul(0x9e37_79b9_7f4a_7c15));
        out.ops.push(OpSpec { row: row_key(table, key), dist, write: true, insert: s.op == OpKind::Insert, needs_id: false });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::workload::table_of;

    /// An orders table with a UNIQUE key: each inserted row (by the allocator or keyed)
    /// also inserts a new row of its index table, in the same round; a delete writes one of
    /// the index's rows; a read or an update writes none.
    #[test]
    fn a_unique_key_writes_its_index_row_in_the_same_round() {
        let spec: Spec = serde_json::from_value(serde_json::json!({ "name": "u", "api": "mysqld",
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
            state.generate(0, ClientKeys { client: 0, next_key: &mut next_key, primary_key, now: 0 }, &mut rng, &mut out);
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
        assert_eq!(state.index_next[0], (100, 6));
    }
}
