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
    /// The id (in row keys) of the table taking ids: DBT2's HISTORY, a spec's
    /// `autoIncrement` or `hidden` table, or without one `Spec::inserted_table`.
    pub table: u64,
    /// Where that table's rows land.
    pub inserted: KeyPlacement,
    /// How an id becomes the inserted table's key.
    pub layout: KeyLayout,
    /// A spec's other range-partitioned tables, by table id.
    ranged: Vec<(u64, RangeMap)>,
}

impl Tables {
    pub fn new(cfg: &Config, partitions: u32) -> Tables {
        let placement = |partitioning, rows, layout| KeyPlacement::with_rows(partitioning, rows, layout, cfg.range_rows, partitions);
        let Some(spec) = cfg.workload.spec() else {
            let inserted = placement(cfg.partitioning, 0, cfg.key_layout);
            return Tables { table: crate::workload::table::HISTORY, inserted, layout: cfg.key_layout, ranged: Vec::new() };
        };
        let id_table = spec.inserted_table();
        let (partitioning, layout) = (spec.partitioning(id_table, cfg.partitioning), spec.key_layout(id_table, cfg.key_layout));
        let rows = |i: usize| spec.tables[i].rows * spec.scale;
        let ranged = (0..spec.tables.len())
            .filter(|&i| i != id_table && spec.partitioning(i, cfg.partitioning) == Partitioning::Range)
            .map(|i| {
                (crate::spec::table_id(i), RangeMap::presplit(rows(i), spec.key_layout(i, cfg.key_layout), cfg.range_rows, partitions))
            })
            .collect();
        Tables { table: crate::spec::table_id(id_table), inserted: placement(partitioning, rows(id_table), layout), layout, ranged }
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
