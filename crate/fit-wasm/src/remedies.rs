//! The bottleneck's standard remedies (`hotrow::explain::remedies`, what `hotrow run
//! --remedies` runs), for JavaScript: the playground's "What would lift it" buttons and
//! `report(config, { remedies: true })`. They are here, in a module loaded only when asked,
//! not in the main module every embed loads: a compact embed never shows them.

use serde_json::{json, Map, Value};
use wasm_bindgen::prelude::*;

/// The remedies of a run of `config` (JSON: a config as `new Simulation()` takes it, or
/// the effective one) whose explanation is `explanation` (JSON: what `explain()` gives):
/// `[{ label, set: { field: value }, warning }]` as JSON text. Throws when either is not
/// what it says.
#[wasm_bindgen]
pub fn remedies(config: &str, explanation: &str) -> Result<String, JsError> {
    crate::alive()?;
    let config = hotrow::Config::from_json(&crate::parse(config, "config")?).map_err(|e| crate::fail(format!("config: {e}")))?;
    let e = crate::parse(explanation, "explanation")?;
    let bottleneck: Option<hotrow::explain::Resource> = field(&e, "bottleneck")?;
    let deadlocks: Option<hotrow::explain::Deadlocks> = field(&e, "deadlocks")?;
    let list: Vec<Value> = hotrow::explain::remedies(&config, bottleneck.as_ref(), deadlocks.as_ref())
        .into_iter()
        .map(|r| {
            // Inserted one by one: a map collected from an iterator sorts its entries first.
            let mut set = Map::new();
            for (field, value) in r.set {
                set.insert(field, value);
            }
            json!({ "label": r.label, "set": set, "warning": r.warning })
        })
        .collect();
    Ok(Value::Array(list).to_string())
}

/// Field `name` of the explanation, absent or null: None.
fn field<T: serde::de::DeserializeOwned>(e: &Value, name: &str) -> Result<Option<T>, JsError> {
    match e.get(name) {
        None | Some(Value::Null) => Ok(None),
        Some(v) => serde_json::from_value(v.clone()).map(Some).map_err(|err| crate::fail(format!("explanation.{name}: {err}"))),
    }
}
