//! hotrow fitted to measured points: the chosen numeric fields are searched (on a log
//! scale, so a multiplier and a latency move alike) to minimize the relative squared error
//! Σ((simulated − measured) / measured)². Every evaluation runs the same seeds (common
//! random numbers), so two parameter sets are compared on the same random draws.

use crate::points::Measured;
use crate::stats::Estimate;
use crate::usl::Usl;
use hotrow::config::fields::{self, Kind};
use hotrow::{Config, Summary};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// The fields fitted when none are named, as `--fit` takes them.
pub const DEFAULT_FIT: &str = "cpu.scale,network.latencyUs";

/// Runs configurations and returns their summaries in the same order: the CLI on every
/// core, the browser on its workers.
pub type Runner<'a> = dyn FnMut(Vec<Config>) -> Result<Vec<Summary>, String> + 'a;

#[derive(Clone, Debug)]
pub struct Options {
    /// Dotted names of the fields to fit.
    pub fit: Vec<String>,
    /// Seeds per point: the base config's seed, seed + 1, ... (the same at every evaluation).
    pub seeds: u64,
    /// Nelder–Mead iterations at most.
    pub max_iterations: u64,
}

impl Default for Options {
    fn default() -> Options {
        Options { fit: DEFAULT_FIT.split(',').map(String::from).collect(), seeds: 1, max_iterations: 60 }
    }
}

/// One fitted field.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fitted {
    pub field: String,
    /// The base config's value, where the search started.
    pub start: f64,
    pub estimate: Estimate,
}

/// One measured point against the fitted model.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PointFit {
    /// The measured point's config fields.
    pub values: Map<String, Value>,
    pub measured: f64,
    /// The model's value with the fitted fields (mean over the seeds).
    pub simulated: f64,
    /// (simulated − measured) / measured.
    pub residual: f64,
    /// What holds the simulated throughput there ("Explain every number"), first seed.
    pub bottleneck: Option<String>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Fit {
    pub metric: String,
    pub fitted: Vec<Fitted>,
    /// Why an interval is missing, when one is.
    pub interval_note: Option<String>,
    pub points: Vec<PointFit>,
    /// sqrt(mean squared relative residual).
    pub rms_relative_error: f64,
    pub seeds: u64,
    pub iterations: u64,
    /// Parameter sets simulated (each is every point times every seed).
    pub evaluations: u64,
    pub runs: u64,
    pub stop: String,
    /// The USL fitted to the same points, when one varied field is a count and the metric
    /// a throughput.
    pub usl: Option<Usl>,
    /// Why there is no USL, when there is none.
    pub usl_note: Option<String>,
}

/// Reported once per search iteration; the callback returns false to cancel.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    pub iteration: u64,
    pub max_iterations: u64,
    /// The best values so far, in `Options::fit` order.
    pub values: Vec<f64>,
    pub rms_relative_error: f64,
    pub runs: u64,
}

/// A fitted field's search space.
#[derive(Clone, Debug)]
pub(crate) struct Param {
    pub field: String,
    pub min: f64,
    pub max: f64,
    pub integer: bool,
    pub start: f64,
}

impl Param {
    /// From the log-scale search coordinate to a value the config takes.
    pub fn value(&self, x: f64) -> f64 {
        let v = libm::exp(x).clamp(self.min, self.max);
        if self.integer {
            v.round()
        } else {
            v
        }
    }

    pub fn json(&self, v: f64) -> Value {
        field_value(&self.field, v)
    }
}

/// A fitted value as its field takes it: a whole number for an integer field.
pub(crate) fn field_value(field: &str, v: f64) -> Value {
    match fields::field(field).map(|f| f.kind) {
        Some(Kind::Int { .. }) => Value::from(v.round() as u64),
        _ => Value::from(v),
    }
}

/// A parameter set's outcome: the metric at each point (mean over seeds) and each point's
/// bottleneck.
#[derive(Clone, Debug)]
pub(crate) struct Outcome {
    pub simulated: Vec<f64>,
    pub bottlenecks: Vec<Option<String>>,
}

impl Outcome {
    pub fn residuals(&self, m: &Measured) -> Vec<f64> {
        self.simulated.iter().zip(&m.points).map(|(s, p)| (s - p.measured) / p.measured).collect()
    }
}

/// Checks the fitted fields against the field table and the measured columns.
pub(crate) fn params(base: &Config, measured: &Measured, names: &[String]) -> Result<Vec<Param>, String> {
    if names.is_empty() {
        return Err("--fit: name at least one field to fit, e.g. --fit cpu.scale".into());
    }
    let base_json = serde_json::to_value(base).expect("a config serialises");
    let mut out: Vec<Param> = Vec::new();
    for name in names {
        let Some(field) = fields::field(name) else {
            return Err(format!("--fit {name}: no such config field (`hotrow fields` lists them)"));
        };
        let (min, max, integer) = match field.kind {
            Kind::Int { min, max } => (min as f64, max as f64, true),
            Kind::Number { min, max } => (min, max, false),
            _ => return Err(format!("--fit {name}: only a numeric field can be fitted (this one is a choice, a flag or a list)")),
        };
        if name == "seed" || name == "durationMs" || name == "warmupMs" || name == "windowMs" {
            return Err(format!("--fit {name}: this field sets how the model is run, not the cluster; fit a cluster field"));
        }
        if measured.fields.contains(name) {
            return Err(format!("--fit {name}: the measured points give its value; a field cannot be both measured and fitted"));
        }
        if out.iter().any(|p| &p.field == name) {
            return Err(format!("--fit {name}: named twice"));
        }
        let at = name.split('.').try_fold(&base_json, |v, part| v.get(part)).and_then(Value::as_f64).unwrap_or(0.0);
        // A log-scale search cannot start at 0: it starts at 1, or at the lowest value above 0.
        let start = if at > 0.0 { at } else { 1.0f64.clamp(min.max(1e-6), max) };
        out.push(Param { field: name.clone(), min: min.max(if integer { 0.0 } else { 1e-9 }), max, integer, start });
    }
    Ok(out)
}
