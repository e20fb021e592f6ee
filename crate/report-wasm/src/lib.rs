//! hotrow's report (`hotrow-report`) for JavaScript, as a WebAssembly module of its own:
//! only a page or a program that asks for a report loads it, so the main module every
//! embed loads does not grow. `report` takes the run's summary as JSON text (what
//! `summary()` gives, as `hotrow run --json` prints it), its windows as CSV (what
//! `windowsCsv()` gives, as `hotrow run --csv` prints it) and the options as JSON, and
//! answers `{ html }` or `{ error }` as JSON text: the CLI's bytes for the same run.
//!
//! A panic would be a bug: the hook reports it on the console, and every later call says so.

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
        error(&format!("hotrow report: internal error (a bug, please report it): {info}"));
    }));
}

/// `options`: `{ fragment?: boolean, svg?: "throughput" | "nodes" | "heatmap", remedies?:
/// [{ label, summary } | { label, error }] }` (each standard remedy's run, which js/report.js
/// makes with the main module, as `hotrow report --remedies` does natively).
#[wasm_bindgen]
pub fn report(summary: &str, windows_csv: &str, options: &str) -> String {
    if POISONED.load(Ordering::SeqCst) {
        return json!({ "error": "hotrow's report stopped after an internal error: load the page again" }).to_string();
    }
    match answer(summary, windows_csv, options) {
        Ok(html) => json!({ "html": html }),
        Err(e) => json!({ "error": e }),
    }
    .to_string()
}

fn answer(summary: &str, windows_csv: &str, options: &str) -> Result<String, String> {
    let summary: Value = serde_json::from_str(summary).map_err(|e| format!("summary: not JSON ({e})"))?;
    let options: Value = serde_json::from_str(options).map_err(|e| format!("options: not JSON ({e})"))?;
    let Value::Object(o) = &options else { return Err(format!("options = {options}: an object, {{ fragment?, svg? }}")) };
    if let Some(k) = o.keys().find(|k| !["fragment", "svg", "remedies"].contains(&k.as_str())) {
        return Err(format!("options.{k}: not an option; the options are fragment, svg and remedies"));
    }
    let fragment = match &o.get("fragment") {
        None | Some(Value::Null) => false,
        Some(Value::Bool(b)) => *b,
        Some(other) => return Err(format!("options.fragment = {other}: true or false")),
    };
    let remedies = remedies(o.get("remedies"))?;
    match o.get("svg") {
        None | Some(Value::Null) => hotrow_report::html(&summary, windows_csv, &hotrow_report::Options { fragment, remedies }),
        Some(Value::String(name)) => hotrow_report::svg(name, &summary, windows_csv),
        Some(other) => Err(format!("options.svg = {other}: a figure's name: {}", hotrow_report::FIGURES.join(", "))),
    }
}

/// The remedies' runs: `[{ label, summary }]`, or `{ label, error }` for one that could not run.
fn remedies(given: Option<&Value>) -> Result<Vec<hotrow_report::RemedyRun>, String> {
    let list = match given {
        None | Some(Value::Null) => return Ok(Vec::new()),
        Some(Value::Array(list)) => list,
        Some(other) => return Err(format!("options.remedies = {other}: a list of {{ label, summary }} or {{ label, error }}")),
    };
    list.iter()
        .enumerate()
        .map(|(i, r)| match (r.get("label"), r.get("summary"), r.get("error")) {
            (Some(Value::String(label)), Some(summary @ Value::Object(_)), None) => Ok((label.clone(), Ok(summary.clone()))),
            (Some(Value::String(label)), None, Some(Value::String(error))) => Ok((label.clone(), Err(error.clone()))),
            _ => Err(format!("options.remedies[{i}]: {{ label, summary }} or {{ label, error }}")),
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn options_are_checked_by_name() {
        let said = |o: &str| report("{}", "endMs\n100\n", o);
        assert!(said("{\"pie\":1}").contains("options.pie: not an option"));
        assert!(said("{\"remedies\":1}").contains("options.remedies = 1"));
        assert!(said("{\"remedies\":[{\"label\":\"x\"}]}").contains("options.remedies[0]"));
        assert!(said("{\"fragment\":1}").contains("options.fragment = 1"));
        assert!(said("[]").contains("an object"));
        assert!(said("{\"svg\":\"pie\"}").contains("the figures are throughput"));
        assert!(report("nope", "", "{}").contains("summary: not JSON"));
    }
}
