//! Where every table's rows land: the placement of the tables taking ids and of a spec's
//! other range-partitioned tables (`keys.rs` has the layouts and the range maps).

use crate::config::{Config, KeyLayout, Partitioning};
use crate::keys::{KeyPlacement, RangeMap};
use crate::topology::Topology;

/// Where every table's rows land: the principal table taking ids (its placement and key
/// layout, the config's unless a spec names its own), a spec's other tables taking ids,
/// and each other range-partitioned table of a spec. A hash-partitioned table needs no
/// state: `Topology::partition_of` its key.
#[derive(Clone, Debug)]
pub struct Tables {
    /// The id (in row keys) of the principal table taking ids: DBT2's HISTORY, a spec's
    /// first `autoIncrement` or `hidden` table, or without one `Spec::inserted_table`.
    pub table: u64,
    /// Where that table's rows land.
    pub inserted: KeyPlacement,
    /// How an id becomes the inserted table's key.
    pub layout: KeyLayout,
    /// A spec's other tables taking ids, in the spec's order (id table 1, 2, ...).
    pub more: Vec<IdTable>,
    /// A spec's other range-partitioned tables, by table id.
    ranged: Vec<(u64, RangeMap)>,
}

/// A table taking ids besides the principal one: its id in row keys, where its rows land
/// and how an id becomes its key.
#[derive(Clone, Debug)]
pub struct IdTable {
    pub table: u64,
    pub placement: KeyPlacement,
    pub layout: KeyLayout,
}

impl Tables {
    pub fn new(cfg: &Config, partitions: u32) -> Tables {
        let placement = |partitioning, rows, layout| KeyPlacement::with_rows(partitioning, rows, layout, cfg.range_rows, partitions);
        let Some(spec) = cfg.workload.spec() else {
            let inserted = placement(cfg.partitioning, 0, cfg.key_layout);
            return Tables {
                table: crate::workload::table::HISTORY,
                inserted,
                layout: cfg.key_layout,
                more: Vec::new(),
                ranged: Vec::new(),
            };
        };
        let id_table = spec.inserted_table();
        let (partitioning, layout) = (spec.partitioning(id_table, cfg.partitioning), spec.key_layout(id_table, cfg.key_layout));
        let rows = |i: usize| spec.tables[i].rows * spec.scale;
        let more: Vec<IdTable> = spec
            .id_tables()
            .skip(1)
            .map(|i| {
                let layout = spec.key_layout(i, cfg.key_layout);
                IdTable {
                    table: crate::spec::table_id(i),
                    placement: placement(spec.partitioning(i, cfg.partitioning), rows(i), layout),
                    layout,
                }
            })
            .collect();
        let ranged = (0..spec.tables.len())
            .filter(|&i| i != id_table && !more.iter().any(|m| m.table == crate::spec::table_id(i)))
            .filter(|&i| spec.partitioning(i, cfg.partitioning) == Partitioning::Range)
            .map(|i| {
                (crate::spec::table_id(i), RangeMap::presplit(rows(i), spec.key_layout(i, cfg.key_layout), cfg.range_rows, partitions))
            })
            .collect();
        Tables { table: crate::spec::table_id(id_table), inserted: placement(partitioning, rows(id_table), layout), layout, more, ranged }
    }

    /// How many tables take ids (1 when none does: the inserted table stands for one).
    pub fn id_tables(&self) -> usize {
        1 + self.more.len()
    }

    /// Which table taking ids `table` is (0 the principal), if it is one.
    pub fn id_index(&self, table: u64) -> Option<usize> {
        if table == self.table {
            Some(0)
        } else {
            self.more.iter().position(|m| m.table == table).map(|i| i + 1)
        }
    }

    /// The table id of id table `k` (0 the principal).
    pub fn id_table(&self, k: usize) -> u64 {
        if k == 0 {
            self.table
        } else {
            self.more[k - 1].table
        }
    }

    /// The partition of a row of `table` (not the principal one taking ids) with stored
    /// key `key`; `insert` for a new row.
    pub fn place(&mut self, table: u64, key: u64, insert: bool, topo: &Topology) -> u32 {
        if let Some((_, ranges)) = self.ranged.iter_mut().find(|(id, _)| *id == table) {
            return if insert { ranges.insert(key) } else { ranges.find(key) };
        }
        match self.more.iter_mut().find(|m| m.table == table) {
            None => topo.partition_of(key),
            Some(m) if insert => m.placement.place(key, topo),
            Some(m) => m.placement.find(key, topo),
        }
    }

    pub fn memory_bytes(&self) -> usize {
        self.inserted.memory_bytes()
            + self.more.iter().map(|m| m.placement.memory_bytes()).sum::<usize>()
            + self.ranged.iter().map(|(_, r)| r.memory_bytes()).sum::<usize>()
    }
}
