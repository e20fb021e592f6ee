//! hotrow fitted to measured points: the chosen numeric fields are searched (on a log
//! scale, so a multiplier and a latency move alike) to minimize the relative squared error
//! Σ((simulated − measured) / measured)². Every evaluation runs the same seeds (common
//! random numbers), so two parameter sets are compared on the same random draws.

use crate::metric;
use crate::points::Measured;
use crate::search::{self, Limits};
use crate::stats::{self, Estimate};
use crate::usl::Usl;
use hotrow::config::fields::{self, Kind};
use hotrow::{Config, Summary};
use serde::Serialize;
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::HashMap;

/// The fields fitted when none are named.
pub const DEFAULT_FIT: &[&str] = &["cpu.scale", "network.latencyUs"];

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
        Options { fit: DEFAULT_FIT.iter().map(|s| s.to_string()).collect(), seeds: 1, max_iterations: 60 }
    }
}

/// One fitted field.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Fitted {
    pub field: String,
    /// The base config's value, where the search started.
    pub start: f64,
    pub estimate: Estimate,
}

/// One measured point against the fitted model.
#[derive(Clone, Debug, Serialize)]
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

#[derive(Clone, Debug, Serialize)]
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
struct Param {
    field: String,
    min: f64,
    max: f64,
    integer: bool,
    start: f64,
}

impl Param {
    /// From the log-scale search coordinate to a value the config takes.
    fn value(&self, x: f64) -> f64 {
        let v = x.exp().clamp(self.min, self.max);
        if self.integer {
            v.round()
        } else {
            v
        }
    }

    fn json(&self, v: f64) -> Value {
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
struct Outcome {
    simulated: Vec<f64>,
    bottlenecks: Vec<Option<String>>,
}

impl Outcome {
    fn residuals(&self, m: &Measured) -> Vec<f64> {
        self.simulated.iter().zip(&m.points).map(|(s, p)| (s - p.measured) / p.measured).collect()
    }
}

/// The problem: the base config, the points and the fitted fields, with every parameter
/// set simulated once (a rounded integer field repeats sets).
struct Problem<'r, 'a> {
    base: &'a Map<String, Value>,
    measured: &'a Measured,
    params: Vec<Param>,
    seeds: Vec<u64>,
    runner: RefCell<&'r mut Runner<'a>>,
    seen: RefCell<HashMap<Vec<u64>, Outcome>>,
    error: RefCell<Option<String>>,
    runs: RefCell<u64>,
}

impl Problem<'_, '_> {
    /// The configs of every point and seed for these fitted values (point-major).
    fn configs(&self, values: &[f64], extra: &[(String, Value)]) -> Result<Vec<Config>, String> {
        let mut out = Vec::new();
        for (i, point) in self.measured.points.iter().enumerate() {
            let mut m = self.base.clone();
            for (field, v) in self.measured.fields.iter().zip(&point.values).chain(extra.iter().map(|(f, v)| (f, v))) {
                hotrow::config::set_dotted(&mut m, field, v.clone()).map_err(|e| format!("measured point {}: {e}", i + 1))?;
            }
            for (p, &v) in self.params.iter().zip(values) {
                hotrow::config::set_dotted(&mut m, &p.field, p.json(v)).map_err(|e| e.to_string())?;
            }
            for &seed in &self.seeds {
                m.insert("seed".into(), Value::from(seed));
                out.push(Config::from_json(&Value::Object(m.clone())).map_err(|e| format!("measured point {}: {e}", i + 1))?);
            }
        }
        Ok(out)
    }

    fn outcome(&self, values: &[f64]) -> Result<Outcome, String> {
        let key: Vec<u64> = values.iter().map(|v| v.to_bits()).collect();
        if let Some(o) = self.seen.borrow().get(&key) {
            return Ok(o.clone());
        }
        let configs = self.configs(values, &[])?;
        let count = configs.len();
        let summaries = (self.runner.borrow_mut())(configs)?;
        *self.runs.borrow_mut() += count as u64;
        let k = self.seeds.len();
        let mut outcome = Outcome { simulated: Vec::new(), bottlenecks: Vec::new() };
        for chunk in summaries.chunks(k) {
            let sum: f64 = chunk.iter().map(|s| metric::of(s, &self.measured.metric).unwrap_or(f64::NAN)).sum();
            outcome.simulated.push(sum / k as f64);
            outcome.bottlenecks.push(chunk[0].bottleneck.as_ref().map(|b| b.name.clone()));
        }
        self.seen.borrow_mut().insert(key, outcome.clone());
        Ok(outcome)
    }

    /// Σ relative residual² at the search coordinate `x`; an error is kept and costs ∞.
    fn cost(&self, x: &[f64]) -> f64 {
        if self.error.borrow().is_some() {
            return f64::INFINITY;
        }
        let values: Vec<f64> = self.params.iter().zip(x).map(|(p, &x)| p.value(x)).collect();
        match self.outcome(&values) {
            Ok(o) => o.residuals(self.measured).iter().map(|r| r * r).sum::<f64>(),
            Err(e) => {
                *self.error.borrow_mut() = Some(e);
                f64::INFINITY
            }
        }
    }
}

/// Checks the fitted fields against the field table and the measured columns.
fn params(base: &Config, measured: &Measured, names: &[String]) -> Result<Vec<Param>, String> {
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

/// Fits `options.fit` to the measured points from the base config (a JSON object as
/// `hotrow run` builds it: preset, config file, workload, `--set`s).
pub fn fit(
    base: &Map<String, Value>,
    measured: &Measured,
    options: &Options,
    runner: &mut Runner,
    on_progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Fit, String> {
    let base_config = Config::from_json(&Value::Object(base.clone())).map_err(|e| e.to_string())?;
    if !(1..=100).contains(&options.seeds) {
        return Err(format!("--seeds {}: must be from 1 to 100", options.seeds));
    }
    let params = params(&base_config, measured, &options.fit)?;
    let problem = Problem {
        base,
        measured,
        seeds: (0..options.seeds).map(|j| base_config.seed + j).collect(),
        params,
        runner: RefCell::new(runner),
        seen: RefCell::new(HashMap::new()),
        error: RefCell::new(None),
        runs: RefCell::new(0),
    };
    // Every point must make a valid config before anything runs.
    let starts: Vec<f64> = problem.params.iter().map(|p| p.start).collect();
    problem.configs(&starts, &[])?;

    let n = measured.points.len() as f64;
    // Settled: the best point moved less than 0.5% over 2(p + 1) iterations, well inside
    // any interval the points can give.
    let limits = Limits {
        max_iterations: options.max_iterations,
        stall_iterations: 2 * (problem.params.len() as u64 + 1),
        x_tolerance: 0.005,
        sd_tolerance: 1e-12,
    };
    let x0: Vec<f64> = starts.iter().map(|v| v.ln()).collect();
    let (x, ssr, stop, iterations) = search::minimize(
        |x| problem.cost(x),
        &x0,
        0.3,
        limits,
        |iteration, best, cost| {
            let values = problem.params.iter().zip(best).map(|(p, &x)| p.value(x)).collect();
            on_progress(&Progress {
                iteration,
                max_iterations: options.max_iterations,
                values,
                rms_relative_error: (cost / n).sqrt(),
                runs: *problem.runs.borrow(),
            })
        },
    );
    if let Some(e) = problem.error.borrow_mut().take() {
        return Err(e);
    }
    let best: Vec<f64> = problem.params.iter().zip(&x).map(|(p, &x)| p.value(x)).collect();
    let (half, interval_note) = intervals(&problem, &best, ssr)?;
    let outcome = problem.outcome(&best)?;
    let residuals = outcome.residuals(measured);
    let points = measured
        .points
        .iter()
        .enumerate()
        .map(|(i, p)| PointFit {
            values: measured.fields.iter().cloned().zip(p.values.iter().cloned()).collect(),
            measured: p.measured,
            simulated: outcome.simulated[i],
            residual: residuals[i],
            bottleneck: outcome.bottlenecks[i].clone(),
        })
        .collect();
    let fitted = problem
        .params
        .iter()
        .zip(&best)
        .enumerate()
        .map(|(j, (p, &v))| Fitted {
            field: p.field.clone(),
            start: p.start,
            estimate: match &half {
                Some(h) => Estimate { value: v, low: Some((v - h[j]).max(p.min)), high: Some((v + h[j]).min(p.max)) },
                None => Estimate::bare(v),
            },
        })
        .collect();
    let usl = usl_beside(measured);
    let evaluations = problem.seen.borrow().len() as u64;
    let runs = *problem.runs.borrow();
    Ok(Fit {
        metric: measured.metric.clone(),
        fitted,
        interval_note,
        points,
        rms_relative_error: (ssr / n).sqrt(),
        seeds: options.seeds,
        iterations,
        evaluations,
        runs,
        stop: stop.says().to_string(),
        usl: usl.as_ref().ok().cloned(),
        usl_note: usl.err(),
    })
}

/// Half-widths of the fitted values' intervals from a central-difference Jacobian (steps
/// of 5%, at least 1 for a whole-number field: small enough to be local, large enough to
/// step over the model's event-order noise).
fn intervals(problem: &Problem, best: &[f64], ssr: f64) -> Result<(Option<Vec<f64>>, Option<String>), String> {
    let (n, p) = (problem.measured.points.len(), best.len());
    if n <= p {
        return Ok((None, Some(format!("no interval: {n} points for {p} fitted fields leave no spread to estimate one from"))));
    }
    let mut columns = Vec::new();
    for (j, param) in problem.params.iter().enumerate() {
        let h = if param.integer { (best[j] * 0.05).round().max(1.0) } else { best[j] * 0.05 };
        let at = |v: f64| {
            let mut values = best.to_vec();
            values[j] = param.value(v.max(1e-12).ln());
            values
        };
        let (up, down) = (at(best[j] + h), at(best[j] - h));
        let width = up[j] - down[j];
        if width <= 0.0 {
            return Ok((None, Some(format!("no interval: {} is at the edge of its range", param.field))));
        }
        let (ru, rd) = (problem.outcome(&up)?.residuals(problem.measured), problem.outcome(&down)?.residuals(problem.measured));
        columns.push(ru.iter().zip(&rd).map(|(a, b)| (a - b) / width).collect::<Vec<f64>>());
    }
    let jacobian: Vec<Vec<f64>> = (0..n).map(|i| columns.iter().map(|c| c[i]).collect()).collect();
    Ok(match stats::half_widths(&jacobian, ssr) {
        Some(h) => (Some(h), None),
        None => (
            None,
            Some(
                "no interval: the points do not depend on every fitted field (another field, or other points, would tell them apart)"
                    .into(),
            ),
        ),
    })
}

/// The USL beside the fit, when the points allow one.
fn usl_beside(measured: &Measured) -> Result<Usl, String> {
    if !metric::is_throughput(&measured.metric) {
        return Err(format!("USL: it models a throughput, and {} is not one", measured.metric));
    }
    let Some(f) = measured.single_varied() else {
        return Err("USL: it needs exactly one varied field (a count such as dataNodes or clientsPerApiNode)".into());
    };
    let name = &measured.fields[f];
    let count = matches!(fields::field(name).map(|x| (x.kind, x.unit)), Some((Kind::Int { .. }, "")));
    if !count {
        return Err(format!("USL: {name} is not a count (the law is over a number of units: nodes, threads, clients)"));
    }
    let pts: Vec<(f64, f64)> = measured.points.iter().map(|p| (p.values[f].as_f64().unwrap_or(f64::NAN), p.measured)).collect();
    Usl::fit(name, &pts)
}
