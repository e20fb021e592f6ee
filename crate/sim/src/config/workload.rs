//! The `workload` field: DBT2 (built in), a shipped spec by name, or a spec object.

use super::ConfigError;
use crate::spec::{self, Spec, SHIPPED};
use serde::{Serialize, Serializer};
use serde_json::Value;

/// What the clients do. Read by [`Workload::from_json`] (so that a spec's errors name their
/// path), not by serde: `Config::from_json` sets it.
#[derive(Clone, Debug, Default, PartialEq)]
pub enum Workload {
    #[default]
    /// TPC-C-like DBT2 mix through mysqld (SQL statements, one NDB round trip each).
    Dbt2,
    /// A workload spec: shipped (`ndbapi-insert`, `tpcb`, ...) or the user's own.
    Spec(Box<Spec>),
}

/// Every workload name: DBT2, then the shipped specs.
pub const WORKLOAD_NAMES: [&str; 1 + SHIPPED.len()] = with_shipped("dbt2", false);

/// How each of `WORKLOAD_NAMES` reads in a menu.
pub(crate) const WORKLOAD_LABELS: [&str; 1 + SHIPPED.len()] = with_shipped("DBT2 (TPC-C-like via mysqld)", true);

/// DBT2's entry, then each shipped spec's name, or its menu label when `labels`.
const fn with_shipped(dbt2: &'static str, labels: bool) -> [&'static str; 1 + SHIPPED.len()] {
    let mut out = [dbt2; 1 + SHIPPED.len()];
    let mut i = 0;
    while i < SHIPPED.len() {
        out[i + 1] = if labels { SHIPPED[i].1 } else { SHIPPED[i].0 };
        i += 1;
    }
    out
}

impl Workload {
    /// A name (`dbt2` or a shipped spec's) or a spec object; `at` is the JSON path.
    pub fn from_json(v: &Value, at: &str) -> Result<Workload, ConfigError> {
        match v {
            Value::String(name) if name == "dbt2" => Ok(Workload::Dbt2),
            Value::String(name) => spec::shipped(name)
                .map(|s| Workload::Spec(Box::new(s)))
                .ok_or_else(|| ConfigError::new(at, v, format!("one of {}, or a workload spec object", WORKLOAD_NAMES.join(", ")))),
            Value::Object(_) => Ok(Workload::Spec(Box::new(Spec::from_json(v, at)?))),
            _ => Err(ConfigError::new(at, v, format!("one of {}, or a workload spec object", WORKLOAD_NAMES.join(", ")))),
        }
    }

    /// The workload's name: `dbt2`, or its spec's.
    pub fn name(&self) -> &str {
        match self {
            Workload::Dbt2 => "dbt2",
            Workload::Spec(s) => &s.name,
        }
    }

    pub fn spec(&self) -> Option<&Spec> {
        match self {
            Workload::Dbt2 => None,
            Workload::Spec(s) => Some(s),
        }
    }

    /// Statements go through mysqld (SQL statement costs), not the NDB API.
    pub fn sql(&self) -> bool {
        self.spec().is_none_or(|s| s.api == spec::Api::Mysqld)
    }

    /// A shipped spec as shipped: written as its name.
    fn is_shipped(&self) -> bool {
        self.spec().is_some_and(|s| spec::shipped_ref(&s.name) == Some(s))
    }
}

impl Serialize for Workload {
    /// DBT2 and unchanged shipped specs as their names, other specs as objects.
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Workload::Dbt2 => s.serialize_str("dbt2"),
            Workload::Spec(spec) if self.is_shipped() => s.serialize_str(&spec.name),
            Workload::Spec(spec) => spec.serialize(s),
        }
    }
}
