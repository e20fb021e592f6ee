//! The fault table: every kind of fault, its fields besides `atMs` with the values each may
//! take, and what it needs of the cluster. One list: `Fault::validate` checks a fault against
//! it and the swarm (`swarm/mod.rs`) draws every kind from it, so a new kind is checked and
//! fuzzed once it has its row here.

use super::fault::FaultKind;

/// The values a fault's field may take.
#[derive(Clone, Copy, Debug)]
pub enum FaultValue {
    /// A data node's index (below `dataNodes`).
    DataNode,
    /// An API node's index (below `apiNodes`).
    ApiNode,
    /// A number from `min` to `max`; `typical`, what the swarm draws (short, as its runs are).
    Range { min: u64, max: u64, typical: &'static [u64] },
}

/// What a kind of fault needs of the config.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Needs {
    Nothing,
    /// Two replicas or more: with one a failed node takes its data with it.
    TwoReplicas,
    /// An allocator that is a service (its traits' `service`), a process that can fail.
    Service,
}

/// A row of the fault table.
#[derive(Debug)]
pub struct FaultRow {
    pub kind: FaultKind,
    /// The fields besides `atMs`, as JSON names them.
    pub fields: &'static [(&'static str, FaultValue)],
    pub needs: Needs,
}

const HOUR_MS: u64 = 3_600_000;

/// Every kind of fault, in `FaultKind::NAMES`' order.
pub const FAULT_TABLE: [FaultRow; 4] = [
    FaultRow {
        kind: FaultKind::DataNodeFailure,
        fields: &[
            ("dataNode", FaultValue::DataNode),
            ("restartAfterMs", FaultValue::Range { min: 1, max: HOUR_MS, typical: &[20, 60, 200] }),
        ],
        needs: Needs::TwoReplicas,
    },
    FaultRow {
        kind: FaultKind::ApiNodeRestart,
        fields: &[("apiNode", FaultValue::ApiNode), ("downMs", FaultValue::Range { min: 0, max: HOUR_MS, typical: &[0, 20, 100] })],
        needs: Needs::Nothing,
    },
    FaultRow {
        kind: FaultKind::NetworkDelay,
        fields: &[
            ("dataNode", FaultValue::DataNode),
            ("extraUs", FaultValue::Range { min: 0, max: 1_000_000, typical: &[100, 1_000, 20_000] }),
            ("durationMs", FaultValue::Range { min: 1, max: HOUR_MS, typical: &[5, 20, 100] }),
        ],
        needs: Needs::Nothing,
    },
    FaultRow {
        kind: FaultKind::AllocatorFailure,
        fields: &[("takeoverMs", FaultValue::Range { min: 0, max: HOUR_MS, typical: &[0, 10, 100] })],
        needs: Needs::Service,
    },
];

/// The row of `kind`.
pub fn row(kind: FaultKind) -> &'static FaultRow {
    &FAULT_TABLE[kind as usize]
}

/// The name of `kind` as JSON has it.
pub fn name(kind: FaultKind) -> &'static str {
    FaultKind::NAMES[kind as usize]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_has_every_kind_in_order_and_typical_values_in_range() {
        assert_eq!(FAULT_TABLE.len(), FaultKind::NAMES.len());
        for (i, r) in FAULT_TABLE.iter().enumerate() {
            assert_eq!(r.kind as usize, i, "{}", name(r.kind));
            for (field, v) in r.fields {
                if let FaultValue::Range { min, max, typical } = v {
                    assert!(!typical.is_empty() && typical.iter().all(|t| (min..=max).contains(&t)), "{}.{field}", name(r.kind));
                }
            }
        }
    }

    /// The `faults` field's text names every kind (`hotrow fields`, the playground's hint).
    #[test]
    fn the_faults_field_names_every_kind() {
        let about = crate::config::fields::FIELDS.iter().find(|f| f.name == "faults").expect("a faults field").about;
        for r in &FAULT_TABLE {
            assert!(about.contains(name(r.kind)), "the faults field's about leaves out {}", name(r.kind));
        }
    }
}
