//! hotrow's SQL import (`hotrow-sql`) for JavaScript, as a WebAssembly module of its own:
//! only a page or a program that gives SQL loads it (the SQL parser is most of its size),
//! so the main module every embed loads does not grow. `importSql` takes the sources and
//! the options as JSON text and answers JSON text, `{ spec, assumptions }` or `{ error: {
//! file, line, column, message } }`, which `js/sql.js` turns into a value or a thrown
//! error with the place named: the answer is data, not a JavaScript exception, so an
//! error's line and column cross intact.
//!
//! A panic would be a bug: the hook reports it on the console, and every later call says so.

use hotrow_sql::{import, Dialect, Options, Source};
use serde_json::{json, Value};
use std::sync::atomic::{AtomicBool, Ordering};
use wasm_bindgen::prelude::*;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console)]
    fn error(s: &str);
}

static POISONED: AtomicBool = AtomicBool::new(false);

/// Installs the panic hook. Runs when the module is instantiated.
#[wasm_bindgen(start)]
pub fn start() {
    std::panic::set_hook(Box::new(|info| {
        POISONED.store(true, Ordering::SeqCst);
        error(&format!("hotrow sql: internal error (a bug, please report it): {info}"));
    }));
}

/// An error that names no place in the SQL (bad options, bad sources).
fn refused(message: impl Into<String>) -> String {
    json!({ "error": { "file": "", "line": 0, "column": 0, "message": message.into() } }).to_string()
}

/// `sources`: `[{ name, text, weight? }]`; `options`: `{ dialect?, scale?, defaultRows?, name? }`.
#[wasm_bindgen(js_name = importSql)]
pub fn import_sql(sources: &str, options: &str) -> String {
    if POISONED.load(Ordering::SeqCst) {
        return refused("hotrow's SQL import stopped after an internal error: load the page again");
    }
    match answer(sources, options) {
        Ok(v) | Err(v) => v,
    }
}

fn answer(sources: &str, options: &str) -> Result<String, String> {
    let sources = sources_of(sources).map_err(refused)?;
    let options = options_of(options, &sources).map_err(refused)?;
    match import(&sources, &options) {
        Ok(got) => Ok(serde_json::to_string(&got).expect("an import serialises")),
        Err(e) => Err(json!({ "error": e }).to_string()),
    }
}

fn sources_of(text: &str) -> Result<Vec<Source>, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("sources: not JSON ({e})"))?;
    let list = v.as_array().filter(|a| !a.is_empty()).ok_or("sources: give SQL text, or a list of { name, text, weight? }")?;
    list.iter()
        .enumerate()
        .map(|(i, s)| {
            let text = s["text"].as_str().ok_or_else(|| format!("sources[{i}].text: the SQL, as a string"))?;
            let name = match &s["name"] {
                Value::Null => format!("sql-{}", i + 1),
                Value::String(n) if !n.is_empty() => n.clone(),
                other => return Err(format!("sources[{i}].name = {other}: a file name, as a string")),
            };
            let weight = match &s["weight"] {
                Value::Null => None,
                w => Some(
                    w.as_u64()
                        .filter(|w| (1..=1_000_000).contains(w))
                        .ok_or_else(|| format!("sources[{i}].weight = {w}: must be a whole number from 1 to 1000000"))?,
                ),
            };
            Ok(Source { name, text: text.to_string(), weight })
        })
        .collect()
}

fn options_of(text: &str, sources: &[Source]) -> Result<Options, String> {
    let v: Value = serde_json::from_str(text).map_err(|e| format!("options: not JSON ({e})"))?;
    let Value::Object(m) = v else { return Err("options must be an object: { dialect, scale, defaultRows, name }".into()) };
    let mut o = Options::default();
    let mut dialect = None;
    for (k, v) in &m {
        let whole = |lo: u64, hi: u64| {
            v.as_u64()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| format!("options.{k} = {v}: must be a whole number from {lo} to {hi}"))
        };
        match k.as_str() {
            "dialect" => dialect = Some(v.as_str().ok_or_else(|| format!("options.dialect = {v}: \"mysql\" or \"postgres\""))?),
            "scale" => o.scale = whole(1, 100_000)?,
            "defaultRows" => o.default_rows = whole(1, hotrow_sql::MAX_DEFAULT_ROWS)?,
            "name" => o.name = Some(v.as_str().ok_or_else(|| format!("options.name = {v}: a name, as a string"))?.to_string()),
            other => return Err(format!("options.{other}: unknown; the options are dialect, scale, defaultRows and name")),
        }
    }
    o.dialect = Dialect::named(dialect, sources).map_err(|e| format!("options.{e}"))?;
    Ok(o)
}
