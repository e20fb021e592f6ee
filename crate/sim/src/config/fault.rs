//! The fault schedule's schema: what can fail, when, and how each fault is validated
//! against the cluster it will hit. What a fault *does* is `sim/faults.rs`.

use super::fault_table::{self, FaultValue, Needs};
use super::{range, Config, ConfigError};
use crate::read::{Bad, Fields, Read};
use serde::Serialize;
use serde_json::Value;

/// A scheduled fault. In JSON: `{"atMs": 2000, "kind": "dataNodeFailure", "dataNode": 1,
/// "restartAfterMs": 3000}`, `{"atMs": 2000, "kind": "apiNodeRestart", "apiNode": 0}` or
/// `{"atMs": 1000, "kind": "networkDelay", "dataNode": 2, "extraUs": 500, "durationMs": 1000}`
/// or `{"atMs": 3000, "kind": "allocatorFailure", "takeoverMs": 1000}`.
#[derive(Clone, Debug, PartialEq, Serialize)]
#[serde(tag = "kind", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum Fault {
    /// A data node stops; its node group's other replica takes over as primary,
    /// transactions in flight on it abort (clients retry them), and it rejoins as a backup
    /// `restartAfterMs` later (1..=3600000, default 3000).
    DataNodeFailure { at_ms: u64, data_node: u32, restart_after_ms: u64 },
    /// An API node restarts: its cached id range is lost (gaps, counted as `idsLost`), its
    /// transactions in flight abort, and its clients reconnect after `downMs`
    /// (0..=3600000, default 1000).
    ApiNodeRestart { at_ms: u64, api_node: u32, down_ms: u64 },
    /// Messages to and from a data node take `extraUs` (0..=1000000) longer for
    /// `durationMs` (1..=3600000).
    NetworkDelay { at_ms: u64, data_node: u32, extra_us: u64, duration_ms: u64 },
    /// The central allocator service's primary fails (only with `allocator`
    /// `"centralService"`): its standby takes over after `takeoverMs` (0..=3600000,
    /// default 1000), starting past the ids the primary had reserved, so those the primary
    /// had not handed out are lost. Requests meanwhile wait for the standby.
    AllocatorFailure { at_ms: u64, takeover_ms: u64 },
}

/// A fault's kind as JSON names it (`Fault`'s reader).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum FaultKind {
    DataNodeFailure,
    ApiNodeRestart,
    NetworkDelay,
    AllocatorFailure,
}

impl FaultKind {
    pub(crate) const NAMES: &'static [&'static str] = &["dataNodeFailure", "apiNodeRestart", "networkDelay", "allocatorFailure"];
}

crate::named::by_name!(FaultKind, [DataNodeFailure, ApiNodeRestart, NetworkDelay, AllocatorFailure]);

/// Every kind's fields: a fault is read flat (`read.rs`), each kind taking its own fields
/// and refusing the others'.
const FIELDS: &[&str] = &["kind", "atMs", "dataNode", "restartAfterMs", "apiNode", "downMs", "extraUs", "durationMs", "takeoverMs"];

/// A fault as JSON: `{ "kind": ..., "atMs": ..., ... }`.
impl Read for Fault {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::of(v, "a fault: an object with atMs, kind and the kind's fields", FIELDS)?;
        let kind: FaultKind = f.need("kind")?;
        let at_ms = f.need("atMs")?;
        let (fault, own): (Fault, &[&str]) = match kind {
            FaultKind::DataNodeFailure => (
                Fault::DataNodeFailure {
                    at_ms,
                    data_node: f.need("dataNode")?,
                    restart_after_ms: f.or("restartAfterMs", DEFAULT_RESTART_MS)?,
                },
                &["atMs", "dataNode", "restartAfterMs"],
            ),
            FaultKind::ApiNodeRestart => (
                Fault::ApiNodeRestart { at_ms, api_node: f.need("apiNode")?, down_ms: f.or("downMs", DEFAULT_DOWN_MS)? },
                &["atMs", "apiNode", "downMs"],
            ),
            FaultKind::NetworkDelay => (
                Fault::NetworkDelay {
                    at_ms,
                    data_node: f.need("dataNode")?,
                    extra_us: f.need("extraUs")?,
                    duration_ms: f.need("durationMs")?,
                },
                &["atMs", "dataNode", "extraUs", "durationMs"],
            ),
            FaultKind::AllocatorFailure => {
                (Fault::AllocatorFailure { at_ms, takeover_ms: f.or("takeoverMs", DEFAULT_TAKEOVER_MS)? }, &["atMs", "takeoverMs"])
            }
        };
        f.only("kind", own)?;
        Ok(fault)
    }
}

const DEFAULT_TAKEOVER_MS: u64 = 1_000;
const DEFAULT_RESTART_MS: u64 = 3_000;
const DEFAULT_DOWN_MS: u64 = 1_000;

impl Fault {
    pub fn at_ms(&self) -> u64 {
        match self {
            Fault::DataNodeFailure { at_ms, .. }
            | Fault::ApiNodeRestart { at_ms, .. }
            | Fault::NetworkDelay { at_ms, .. }
            | Fault::AllocatorFailure { at_ms, .. } => *at_ms,
        }
    }

    /// The same fault at another time (live injection happens "now").
    pub fn at(mut self, ms: u64) -> Fault {
        match &mut self {
            Fault::DataNodeFailure { at_ms, .. }
            | Fault::ApiNodeRestart { at_ms, .. }
            | Fault::NetworkDelay { at_ms, .. }
            | Fault::AllocatorFailure { at_ms, .. } => *at_ms = ms,
        }
        self
    }

    /// Its kind.
    pub(crate) fn kind(&self) -> FaultKind {
        match self {
            Fault::DataNodeFailure { .. } => FaultKind::DataNodeFailure,
            Fault::ApiNodeRestart { .. } => FaultKind::ApiNodeRestart,
            Fault::NetworkDelay { .. } => FaultKind::NetworkDelay,
            Fault::AllocatorFailure { .. } => FaultKind::AllocatorFailure,
        }
    }

    /// Its fields besides `atMs`, in its row of the fault table.
    fn values(&self) -> Vec<u64> {
        match *self {
            Fault::DataNodeFailure { data_node, restart_after_ms, .. } => vec![data_node as u64, restart_after_ms],
            Fault::ApiNodeRestart { api_node, down_ms, .. } => vec![api_node as u64, down_ms],
            Fault::NetworkDelay { data_node, extra_us, duration_ms, .. } => vec![data_node as u64, extra_us, duration_ms],
            Fault::AllocatorFailure { takeover_ms, .. } => vec![takeover_ms],
        }
    }

    /// Checks the fault against the cluster it will hit (the fault table's ranges and
    /// needs); `field` is its path (`faults[2]`).
    pub fn validate(&self, c: &Config, field: &str) -> Result<(), ConfigError> {
        range(&format!("{field}.atMs"), self.at_ms(), 0, 86_400_000 + 3_600_000)?;
        let row = fault_table::row(self.kind());
        for (&(name, values), value) in row.fields.iter().zip(self.values()) {
            let (lo, hi) = match values {
                FaultValue::DataNode => (0, c.data_nodes as u64 - 1),
                FaultValue::ApiNode => (0, c.api_nodes as u64 - 1),
                FaultValue::Range { min, max, .. } => (min, max),
            };
            range(&format!("{field}.{name}"), value, lo, hi)?;
        }
        let kind = format!("\"{}\"", fault_table::name(self.kind()));
        match row.needs {
            Needs::TwoReplicas if c.replicas < 2 => Err(ConfigError::new(
                &format!("{field}.kind"),
                kind,
                "needs replicas >= 2: with one replica a failed node takes its data with it",
            )),
            Needs::Service if !c.allocator.traits().service => Err(ConfigError::new(
                &format!("{field}.kind"),
                kind,
                "needs `allocator` \"centralService\": only the central service is a process that can fail",
            )),
            _ => Ok(()),
        }
    }

    /// The interval a data-node failure keeps its node down, in ms.
    pub(crate) fn downtime(&self) -> Option<(u32, u64, u64)> {
        match *self {
            Fault::DataNodeFailure { at_ms, data_node, restart_after_ms } => Some((data_node, at_ms, at_ms + restart_after_ms)),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn read(v: serde_json::Value) -> Result<Fault, String> {
        <Fault as Read>::read(&v).map_err(|e| format!("{e:?}"))
    }

    /// Each kind takes its own fields with their defaults, and refuses a null, a missing
    /// field, another kind's field (given, even as null) and an unknown one.
    #[test]
    fn faults_read_their_own_fields_and_refuse_the_rest() {
        use serde_json::json;
        assert_eq!(
            read(json!({ "atMs": 5, "kind": "dataNodeFailure", "dataNode": 1 })),
            Ok(Fault::DataNodeFailure { at_ms: 5, data_node: 1, restart_after_ms: 3_000 })
        );
        assert_eq!(
            read(json!({ "atMs": 5, "kind": "apiNodeRestart", "apiNode": 0 })),
            Ok(Fault::ApiNodeRestart { at_ms: 5, api_node: 0, down_ms: 1_000 })
        );
        assert_eq!(read(json!({ "atMs": 5, "kind": "allocatorFailure" })), Ok(Fault::AllocatorFailure { at_ms: 5, takeover_ms: 1_000 }));
        let delay = Fault::NetworkDelay { at_ms: 5, data_node: 2, extra_us: 500, duration_ms: 100 };
        assert_eq!(read(serde_json::to_value(&delay).unwrap()), Ok(delay.clone()), "what it writes it reads");
        assert_eq!(
            serde_json::to_value(&delay).unwrap(),
            json!({ "kind": "networkDelay", "atMs": 5, "dataNode": 2, "extraUs": 500, "durationMs": 100 })
        );
        for (bad, says) in [
            (json!({ "atMs": 5, "kind": "dataNodeFailure", "dataNode": 1, "restartAfterMs": null }), "invalid type: null"),
            (json!({ "atMs": null, "kind": "allocatorFailure" }), "invalid type: null"),
            (json!({ "atMs": 5, "kind": "allocatorFailure", "dataNode": null }), "unknown field `dataNode`"),
            (json!({ "atMs": 5, "kind": "allocatorFailure", "dataNode": 1 }), "unknown field `dataNode`, expected `atMs` or `takeoverMs`"),
            (json!({ "atMs": 5, "kind": "allocatorFailure", "bogus": 1 }), "unknown field `bogus`"),
            (json!({ "atMs": 5, "kind": "networkDelay", "dataNode": 1, "extraUs": 5 }), "missing field `durationMs`"),
            (json!({ "atMs": 5 }), "missing field `kind`"),
            (json!({ "kind": "apiNodeRestart", "apiNode": 0 }), "missing field `atMs`"),
            (json!({ "atMs": 5, "kind": "nope" }), "unknown variant `nope`"),
            (json!(3), "expected a fault"),
        ] {
            let e = read(bad.clone()).expect_err(&bad.to_string());
            assert!(e.contains(says), "{bad}: {e}");
        }
    }
}
