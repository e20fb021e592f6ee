//! hotrow's fit (`hotrow-fit`) for the browser, as a module of its own: only the
//! playground's Fit mode loads it, so an embed that never fits never downloads it. It
//! holds no simulation: a [`FitSession`] says which configs to run (the page runs them on
//! its workers with the main module) and hears what they gave, exactly as `hotrow fit`
//! drives the same session on threads. Values cross as JSON text, parsed by the caller
//! (`js/element/fit-session.js`): a set is a handful of configs, and the module needs no
//! JavaScript-value conversion of its own.
//!
//! It also answers the bottleneck's remedies (`remedies.rs`), which only the full page and
//! the report's remedies ask for.
//!
//! Errors are thrown as `Error` with a message a person can act on. A panic would be a
//! bug: the hook reports it on the console, and every later call throws.

mod remedies;

use hotrow_fit::{Fit, FitSession as Session, Measured, Options, Plan, RunResult, Step};
use serde::Serialize;
use serde_json::{json, Map, Value};
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
        error(&format!("hotrow fit: internal error (a bug, please report it): {info}"));
    }));
}

fn fail(msg: impl std::fmt::Display) -> JsError {
    JsError::new(&msg.to_string())
}

fn alive() -> Result<(), JsError> {
    if POISONED.load(Ordering::SeqCst) {
        return Err(fail("hotrow fit stopped after an internal error: load the page again"));
    }
    Ok(())
}

fn parse(text: &str, what: &str) -> Result<Value, JsError> {
    serde_json::from_str(text).map_err(|e| fail(format!("{what}: not JSON ({e})")))
}

fn text<T: Serialize>(v: &T) -> String {
    serde_json::to_string(v).expect("plain data serialises")
}

/// `{ fit?: string[], seeds?: number, maxIterations?: number }`.
fn options_of(v: &Value) -> Result<Options, JsError> {
    let mut o = Options::default();
    let Value::Object(m) = v else { return Err(fail("options must be an object: { fit, seeds, maxIterations }")) };
    for (k, v) in m {
        let whole = |lo: u64, hi: u64| {
            v.as_u64()
                .filter(|n| (lo..=hi).contains(n))
                .ok_or_else(|| fail(format!("options.{k} = {v}: must be a whole number from {lo} to {hi}")))
        };
        match k.as_str() {
            "fit" => {
                let names = v.as_array().and_then(|a| a.iter().map(|x| x.as_str().map(String::from)).collect::<Option<Vec<_>>>());
                o.fit = names.ok_or_else(|| fail("options.fit must be a list of field names, e.g. [\"cpu.scale\"]"))?;
            }
            "seeds" => o.seeds = whole(1, 100)?,
            "maxIterations" => o.max_iterations = whole(1, 1000)?,
            other => return Err(fail(format!("options.{other}: unknown; the options are fit, seeds and maxIterations"))),
        }
    }
    Ok(o)
}

/// A fit in progress: `next()` says what to run, `tell()` what it gave.
#[wasm_bindgen]
pub struct FitSession {
    session: Session,
    base: Map<String, Value>,
    fit: Option<Fit>,
    plan: Option<Plan>,
}

#[wasm_bindgen]
impl FitSession {
    /// `base`: a config as JSON (fields and a preset, as `new Simulation()` takes it);
    /// `measured`: the CSV of measured points; `options`: JSON `{ fit, seeds, maxIterations }`.
    /// Everything is checked here, before anything runs.
    #[wasm_bindgen(constructor)]
    pub fn new(base: &str, measured: &str, options: &str) -> Result<FitSession, JsError> {
        alive()?;
        let Value::Object(base) = parse(base, "the base config")? else {
            return Err(fail("the base config must be an object of config fields (and a preset)"));
        };
        let points = Measured::parse(measured).map_err(fail)?;
        let session = Session::new(&base, &points, &options_of(&parse(options, "options")?)?).map_err(fail)?;
        Ok(FitSession { session, base, fit: None, plan: None })
    }

    /// The summary metric the points measured, by its name in the metric table (`metrics()`):
    /// what each result's `value` is.
    #[wasm_bindgen(getter)]
    pub fn metric(&self) -> String {
        hotrow_fit::metric_catalog_name(self.session.metric()).unwrap_or(self.session.metric()).to_string()
    }

    /// JSON: `{ "type": "run", "sets": [{ values, configs }] }` (run every config, then `tell`
    /// the results), or `{ "type": "done", "fit": ... }` (`hotrow fit --json`'s `fit`).
    #[wasm_bindgen(js_name = next)]
    pub fn next_step(&mut self) -> Result<String, JsError> {
        alive()?;
        match self.session.next_step().map_err(fail)? {
            Step::Run(requests) => {
                let sets: Vec<Value> = requests.iter().map(|r| json!({ "values": r.values, "configs": r.configs })).collect();
                Ok(text(&json!({ "type": "run", "sets": sets })))
            }
            Step::Done(fit) => {
                let out = text(&json!({ "type": "done", "fit": &*fit }));
                self.fit = Some(*fit);
                Ok(out)
            }
        }
    }

    /// The results of the sets `next` asked for, as JSON: per set, per config in its order,
    /// `{ value, bottleneck }` (the metric's value and the bottleneck's name, or null).
    pub fn tell(&mut self, results: &str) -> Result<(), JsError> {
        alive()?;
        let results: Vec<Vec<RunResult>> = serde_json::from_str(results)
            .map_err(|e| fail(format!("tell: results must be a list per set of {{ value, bottleneck }}: {e}")))?;
        self.session.tell(&results).map_err(fail)
    }

    /// Where the search is, as JSON: `{ iteration, maxIterations, values, rmsRelativeError,
    /// runs }`, or `null` before its first iteration.
    pub fn progress(&self) -> String {
        text(&self.session.progress())
    }

    /// Takes back `fit` (JSON, as `next` gave it when done) for these points and fields, as
    /// a link's result reopens: predictions then need no new search. Errors when it is the
    /// fit of other points, fields or metric.
    pub fn reopen(&mut self, fit: &str) -> Result<(), JsError> {
        alive()?;
        let fit: Fit = serde_json::from_str(fit).map_err(|e| fail(format!("reopen: not a fit: {e}")))?;
        self.session.reopen(&fit).map_err(fail)?;
        self.fit = Some(fit);
        Ok(())
    }

    /// After the fit: the configs (JSON list) that predict `grid` (JSON `{ field: [values] }`)
    /// with the fitted values; run them and pass their results to `predictions`.
    #[wasm_bindgen(js_name = predictionConfigs)]
    pub fn prediction_configs(&mut self, grid: &str) -> Result<String, JsError> {
        alive()?;
        let fit = self.fit.as_ref().ok_or_else(|| fail("predictionConfigs: the fit is not done yet"))?;
        let Value::Object(grid) = parse(grid, "the grid")? else {
            return Err(fail("predictionConfigs: the grid must be an object { field: [values] }"));
        };
        let lists = grid
            .into_iter()
            .map(|(k, v)| match v {
                Value::Array(values) if !values.is_empty() => Ok((k, values)),
                _ => Err(fail(format!("predictionConfigs: grid.{k} must be a list of values"))),
            })
            .collect::<Result<Vec<_>, JsError>>()?;
        let plan = hotrow_fit::plan(&self.base, fit, &lists, false).map_err(fail)?;
        let configs = text(&plan.configs);
        self.plan = Some(plan);
        Ok(configs)
    }

    /// The predictions (JSON) from the prediction configs' results (`{ value, bottleneck }`
    /// each, in their order): `hotrow fit --json`'s `predictions`.
    pub fn predictions(&self, results: &str) -> Result<String, JsError> {
        alive()?;
        let (Some(fit), Some(plan)) = (&self.fit, &self.plan) else { return Err(fail("predictions: call predictionConfigs first")) };
        let results: Vec<RunResult> = serde_json::from_str(results).map_err(|e| fail(format!("predictions: {e}")))?;
        if results.len() != plan.configs.len() {
            return Err(fail(format!("predictions: expected {} results, one per config", plan.configs.len())));
        }
        Ok(text(&plan.predictions(fit, &results)))
    }
}
