//! JSON in: a config is built in layers — the defaults of [`Config::default`], the
//! preset's fields, then the user's — merged as JSON objects (so nested objects may be
//! partial and an unknown field is named with its full path), deserialised, and validated
//! once. Also `set_dotted`, which `--set a.b=v`, URL parameters and live changes use.

use super::presets::{preset, preset_list};
use super::{Config, ConfigError};
use serde_json::{Map, Value};

impl Config {
    /// The config as JSON, serialised here so that a shell crate (crate/wasm) does not compile
    /// a second copy of the serialiser (generic code is instantiated once per crate).
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).expect("a config serialises")
    }
}

/// DBT2 sizes a run to its cluster: these fields follow `dataNodes` unless set explicitly.
pub(super) const DBT2_WAREHOUSES_PER_DATA_NODE: u32 = 8;
const DBT2_API_NODES_PER_DATA_NODE: u32 = 1;

impl Config {
    /// Builds a validated configuration from JSON: an object with an optional `preset`
    /// name and any fields of [`Config`] (nested objects may be partial).
    pub fn from_json(input: &Value) -> Result<Config, ConfigError> {
        let Value::Object(user) = input else {
            return Err(ConfigError::new("(config)", input, "must be a JSON object"));
        };
        let mut user = user.clone();
        let preset_name = match user.remove("preset") {
            None | Some(Value::Null) => "bug39267".to_string(),
            Some(Value::String(s)) => s,
            Some(other) => return Err(ConfigError::new("preset", other, preset_list())),
        };
        let Some(preset_fields) = preset(&preset_name) else {
            return Err(ConfigError::new("preset", Value::String(preset_name), preset_list()));
        };
        let mut merged = serde_json::to_value(Config::default()).expect("Config serialises");
        merge(&mut merged, &preset_fields, "")?;
        merge(&mut merged, &Value::Object(user.clone()), "")?;
        // The workload first: a spec's errors name their path inside it.
        let workload = super::Workload::from_json(&merged["workload"], "workload")?;
        scale_dbt2(&mut merged, &user);
        scope_follows_workload(&mut merged, &workload, &preset_fields, &user);
        // The workload was read above; the reader leaves it out.
        let mut config = <Config as crate::read::Read>::read(&merged).map_err(|e| e.at("", &merged))?;
        config.workload = workload;
        config.validate(&merged)?;
        Ok(config)
    }

    /// Builds a configuration from a preset name and `key=value` overrides.
    pub fn from_preset(name: &str) -> Result<Config, ConfigError> {
        Config::from_json(&serde_json::json!({ "preset": name }))
    }
}

/// Merges `top` into `base` field by field. Unknown fields are errors here, where the
/// full dotted path is known, rather than in serde, whose message lacks the value.
fn merge(base: &mut Value, top: &Value, prefix: &str) -> Result<(), ConfigError> {
    let (Value::Object(b), Value::Object(t)) = (&mut *base, top) else { unreachable!("merge is only called on objects") };
    for (k, v) in t {
        let path = if prefix.is_empty() { k.clone() } else { format!("{prefix}.{k}") };
        match b.get_mut(k) {
            None => {
                let known: Vec<&String> = b.keys().collect();
                return Err(ConfigError::new(&path, v, format!("unknown field; known fields here: {}", join(&known))));
            }
            Some(at @ Value::Object(_)) => {
                if !v.is_object() {
                    return Err(ConfigError::new(&path, v, "must be an object"));
                }
                merge(at, v, &path)?;
            }
            Some(at) => *at = v.clone(),
        }
    }
    Ok(())
}

fn join(names: &[&String]) -> String {
    names.iter().map(|s| s.as_str()).collect::<Vec<_>>().join(", ")
}

/// A DBT2 run sizes its load to its cluster: warehouses and API nodes follow `dataNodes`
/// unless the user set them.
fn scale_dbt2(merged: &mut Value, user: &Map<String, Value>) {
    if merged["workload"] != "dbt2" {
        return;
    }
    let Some(nodes) = merged["dataNodes"].as_u64() else { return };
    let nodes = nodes.min(48) as u32;
    if !user.contains_key("warehouses") {
        merged["warehouses"] = (nodes * DBT2_WAREHOUSES_PER_DATA_NODE).max(1).into();
    }
    if !user.contains_key("apiNodes") {
        merged["apiNodes"] = (nodes * DBT2_API_NODES_PER_DATA_NODE).max(1).into();
    }
}

/// Unless the preset or the user chose `idCacheScope`, it follows the workload: the NDB
/// API keeps its range in each thread's `Ndb` object, mysqld in the table share.
fn scope_follows_workload(merged: &mut Value, workload: &super::Workload, preset_fields: &Value, user: &Map<String, Value>) {
    if user.contains_key("idCacheScope") || preset_fields.get("idCacheScope").is_some() {
        return;
    }
    if !workload.sql() {
        merged["idCacheScope"] = "client".into();
    }
}

/// Sets `dotted` (e.g. `network.latencyUs`) in a JSON object, creating nested objects.
/// Used by `--set key=value` and by URL parameters.
pub fn set_dotted(obj: &mut Map<String, Value>, dotted: &str, value: Value) -> Result<(), ConfigError> {
    let mut parts = dotted.split('.').peekable();
    let mut cur = obj;
    while let Some(part) = parts.next() {
        if part.is_empty() {
            return Err(ConfigError::new(dotted, &value, "a field name must not be empty"));
        }
        if parts.peek().is_none() {
            cur.insert(part.to_string(), value);
            return Ok(());
        }
        let at = cur.entry(part.to_string()).or_insert_with(|| Value::Object(Map::new()));
        let Value::Object(next) = at else {
            return Err(ConfigError::new(dotted, &value, format!("`{part}` is not an object")));
        };
        cur = next;
    }
    unreachable!("split yields at least one part")
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn set_dotted_builds_nested_objects() {
        let mut m = Map::new();
        set_dotted(&mut m, "network.latencyUs", json!(5)).unwrap();
        set_dotted(&mut m, "cacheSize", json!(10)).unwrap();
        assert_eq!(Value::Object(m), json!({"network": {"latencyUs": 5}, "cacheSize": 10}));
    }
}
