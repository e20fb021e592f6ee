//! Where every table's rows land: the placement of the table taking ids and of a spec's
//! other range-partitioned tables (`keys.rs` has the layouts and the range maps).

use crate::config::{Config, KeyLayout, Partitioning};
use crate::keys::{KeyPlacement, RangeMap};
use crate::topology::Topology;

/// Where every table's rows land: the table taking ids (its placement and key layout,
/// the config's unless a spec names its own) and each other range-partitioned table of a
/// spec. A hash-partitioned table needs no state: `Topology::partition_of` its key.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The table taking ids (DBT2's HISTORY, a spec's `autoIncrement` or `hidden` table;
    /// without one, the table it inserts into first: `Spec::inserted_table`).
    pub inserted: KeyPlacement,
    /// How an id becomes the inserted table's key.
    pub layout: KeyLayout,
    /// A spec's other range-partitioned tables, by table id.
    ranged: Vec<(u64, RangeMap)>,
}

impl Tables {
    pub fn new(cfg: &Config, partitions: u32) -> Tables {
        let Some(spec) = cfg.workload.spec() else {
            return Tables { inserted: KeyPlacement::new(cfg.partitioning, cfg.range_rows, partitions), layout: cfg.key_layout, ranged: Vec::new() };
        };
        let mut t = Tables { inserted: KeyPlacement::Hash, layout: cfg.key_layout, ranged: Vec::new() };
        for (i, table) in spec.tables.iter().enumerate() {
            let (partitioning, layout) = spec.placement(i, cfg.partitioning, cfg.key_layout);
            let rows = table.rows * spec.scale;
            if Some(i) == spec.inserted_table() {
                t.inserted = KeyPlacement::with_rows(partitioning, rows, layout, cfg.range_rows, partitions);
                t.layout = layout;
            } else if partitioning == Partitioning::Range {
                t.ranged.push((crate::spec::table_id(i), RangeMap::presplit(rows, layout, cfg.range_rows, partitions)));
            }
        }
        t
    }

    /// The partition of a row of `table` (not the one taking ids) with stored key `key`;
    /// `insert` for a new row.
    pub fn place(&mut self, table: u64, key: u64, insert: bool, topo: &Topology) -> u32 {
        match self.ranged.iter_mut().find(|(id, _)| *id == table) {
            None => topo.partition_of(key),
            Some((_, ranges)) if insert => ranges.insert(key),
            Some((_, ranges)) => ranges.find(key),
        }
    }

    pub fn memory_bytes(&self) -> usize {
        self.inserted.memory_bytes() + self.ranged.iter().map(|(_, r)| r.memory_bytes()).sum::<usize>()
    }
}
