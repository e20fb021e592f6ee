//! The package's tables and free functions: presets, live fields, the field, workload
//! and metric tables, memory, the version, and a hidden helper of the tests.

use crate::alive;
use crate::convert::{to_js, Obj};
use hotrow::catalog;
use hotrow::Config;
use js_sys::Array;
use wasm_bindgen::prelude::*;

/// The presets: `[{ name, description, config }]`.
#[wasm_bindgen]
pub fn presets() -> Result<JsValue, JsValue> {
    alive()?;
    let list = Array::new();
    for (name, description) in hotrow::PRESETS {
        let config = Config::from_preset(name).expect("presets are valid");
        list.push(&Obj::new().set("name", name).set("description", description).set("config", to_js(&config.to_json())).done());
    }
    Ok(list.into())
}

/// Top-level config fields `Simulation.set` takes while running (nested fields follow
/// their top-level object: `network.latencyUs`, `cpu.lqhWriteNs`).
#[wasm_bindgen(js_name = liveFields)]
pub fn live_fields() -> Vec<String> {
    hotrow::config::fields::live_top_level().into_iter().map(String::from).collect()
}

/// The config field table: `[{ name, label, kind, unit, live, about, default }]`, where `kind` is
/// `{ type: "int", min, max }`, `{ type: "number", min, max }`, `{ type: "bool" }`,
/// `{ type: "choice", values, labels }` or
/// `{ type: "faults" }`. The one list of fields the CLI, the playground and the types share.
#[wasm_bindgen]
pub fn fields() -> Result<JsValue, JsValue> {
    alive()?;
    Ok(to_js(&hotrow::config::fields::describe()))
}

/// The workloads: `[{ name, about, spec }]`, DBT2 first (`spec` null: built in), then the
/// shipped workload specs, each in full (a starting point for one's own).
#[wasm_bindgen]
pub fn workloads() -> Result<JsValue, JsValue> {
    alive()?;
    Ok(to_js(&hotrow::spec::describe()))
}

/// The metric table: `[{ name, label, unit, shape, about, window, summary }]`, where
/// `shape` is "scalar", "perNode" or "perPartition", `window` says whether windows and
/// snapshots carry it, and `summary` is its dotted path in the run summary (or null).
#[wasm_bindgen]
pub fn metrics() -> Result<JsValue, JsValue> {
    alive()?;
    Ok(to_js(&catalog::describe()))
}

/// Bytes of WebAssembly memory the module holds now. It grows as simulations and
/// checkpoints need it and never shrinks; freed objects' bytes are reused.
#[wasm_bindgen(js_name = memoryBytes)]
pub fn memory_bytes() -> f64 {
    let memory: js_sys::WebAssembly::Memory = wasm_bindgen::memory().unchecked_into();
    memory.buffer().unchecked_into::<js_sys::ArrayBuffer>().byte_length() as f64
}

/// The version of the simulation crate.
#[wasm_bindgen]
pub fn version() -> String {
    env!("CARGO_PKG_VERSION").to_string()
}

/// Panics on purpose, to test that a panic is reported and poisons the module. Not part
/// of the API.
#[doc(hidden)]
#[wasm_bindgen(js_name = _panicForTests)]
pub fn panic_for_tests() -> Result<(), JsValue> {
    alive()?;
    panic!("deliberate panic requested by a test");
}
