//! One statement of a spec transaction drawn into the program: its rows' shared-column
//! values, keys and slots, and the unique index rows they write.

use super::{ClientKeys, Drawing, Stmt};
use crate::keys::key_of;
use crate::locks::FastHasher;
use crate::prng::Prng;
use crate::spec::{Api, KeyChooser, OpKind};
use crate::workload::{row_key, OpSpec, Program};
use std::collections::HashSet;
use std::hash::BuildHasherDefault;

impl Drawing {
    /// Writes statement `s` (number `i` of its transaction): its rows, their index rows, and
    /// in mysqld the end of its round.
    pub(super) fn statement(&mut self, s: &Stmt, i: usize, client: &mut ClientKeys, rng: &mut Prng, out: &mut Program) {
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
            if s.allocated && !client.primary_key {
                out.insert_allocated(table);
                index_rows(&mut self.index_next, &mut self.written, s, rng, out);
                continue;
            }
            let mut value = self.linked_value(s, r, client, rng);
            let key = self.key(s, r, rows, client, &mut value, rng);
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
            self.row_ops(s, table, key, value, rng, out);
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

    /// The shared-column value row `r` of `s` takes from an earlier statement's (then its
    /// key is drawn among that value's rows) or the client's, if the spec links them; a
    /// `remote` share takes another value.
    fn linked_value(&self, s: &Stmt, r: u64, client: &ClientKeys, rng: &mut Prng) -> Option<u64> {
        s.distribution.map(|(j, remote_ppm)| {
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
        })
    }

    /// The key of row `r` of `s` (a table of `rows`), among the rows of its `value` when it
    /// has one; a `sameAs` key takes the named statement's value too.
    fn key(&mut self, s: &Stmt, r: u64, rows: u64, client: &mut ClientKeys, value: &mut Option<u64>, rng: &mut Prng) -> u64 {
        let (over, base) = match *value {
            Some(v) => (s.per_value, v * s.per_value),
            None => (rows, 0),
        };
        if s.allocated {
            // A hidden key given a primary key: unique to the client, past the rows the
            // table starts with.
            let k = self.id_rows[s.table] + ((client.client as u64) << 32 | *client.next_key);
            *client.next_key += 1;
            return k;
        }
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
            &KeyChooser::TimeBucket { bucket_ns } => base + KeyChooser::bucket(bucket_ns, client.now_ns, over),
            &KeyChooser::SameAs { statement } => {
                let at = r as usize % self.keys[statement].len().max(1);
                if let Some(&v) = self.keys[self.values + statement].get(at) {
                    *value = Some(v);
                }
                self.keys[statement].get(at).copied().unwrap_or(0)
            }
            k => base + k.draw(over, rng),
        }
    }

    /// The operations on the row of `key` (of table id `table`, shared-column `value`):
    /// one, or a slotted counter's (an update takes one slot's row, a read every slot's);
    /// a row this transaction writes already is folded into that write.
    fn row_ops(&mut self, s: &Stmt, table: u64, key: u64, value: u64, rng: &mut Prng, out: &mut Program) {
        let write = s.op != OpKind::Read;
        let slots = match (s.slots, s.op) {
            (1, _) => 0..1,
            (n, OpKind::Read) => 0..n,
            (n, _) => {
                let slot = rng.below(n);
                slot..slot + 1
            }
        };
        for slot in slots {
            let key = key + slot * crate::spec::MAX_TABLE_ROWS;
            // The row is named by its key; the key layout only moves where it lands, and a
            // shared column's value, when the table has one, places it.
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
