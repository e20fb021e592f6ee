//! The fit as a conversation: the session says which parameter sets it needs simulated
//! (`next_step`), the caller runs them wherever it likes (threads, a browser's workers) and
//! says what they gave (`tell`). So the CLI and the playground share one implementation,
//! and a parameter set's runs (every point, every seed) go out together.
//!
//! argmin's Nelder–Mead asks for its costs one at a time from inside its step. The session
//! replays the whole search from the start on every `next_step`, answering from the costs
//! already known; the first cost not known stops the replay and is asked for. The search
//! is deterministic, so each replay retraces the last one and goes one cost further (a
//! replay is arithmetic on a few dozen points; a cost is a set of simulations). The first
//! simplex's vertices are asked for together, and so are the points of the intervals'
//! Jacobian.

use crate::metric;
use crate::model::{params, Fit, Options, Outcome, Param, Progress, Runner};
use crate::points::Measured;
use crate::search::{self, Limits, Stop};
use hotrow::{Config, Summary};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::cell::RefCell;
use std::collections::{HashMap, HashSet};

mod answer;

/// The first simplex's step in the log-scale search space (about +35%), and at least one
/// unit of a whole-number field (from 1, +35% would round back to 1 and the search would
/// never move).
const STEP: f64 = 0.3;

/// One parameter set to simulate: every measured point with every seed, point-major.
#[derive(Clone, Debug)]
pub struct Request {
    /// The fitted fields' values, in `Options::fit` order.
    pub values: Vec<f64>,
    pub configs: Vec<Config>,
}

/// What one run gave: the measured metric's value and what held its throughput.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RunResult {
    pub value: f64,
    pub bottleneck: Option<String>,
}

impl RunResult {
    pub fn of(summary: &Summary, metric: &str) -> RunResult {
        RunResult {
            value: metric::of(summary, metric).unwrap_or(f64::NAN),
            bottleneck: summary.bottleneck.as_ref().map(|b| b.name.clone()),
        }
    }
}

/// What the session wants next.
#[derive(Debug)]
pub enum Step {
    /// Simulate these, then `tell` their results in the same order.
    Run(Vec<Request>),
    Done(Box<Fit>),
}

pub struct FitSession {
    base: Map<String, Value>,
    measured: Measured,
    options: Options,
    params: Vec<Param>,
    seeds: Vec<u64>,
    seen: HashMap<Vec<u64>, Outcome>,
    /// Sets the search tried that make no valid config (e.g. `cacheSizeMax` below
    /// `cacheSize`): they cost infinity, so the search turns away from them.
    invalid: HashSet<Vec<u64>>,
    asked: Vec<Vec<f64>>,
    runs: u64,
    progress: Option<Progress>,
}

fn key(values: &[f64]) -> Vec<u64> {
    values.iter().map(|v| v.to_bits()).collect()
}

impl FitSession {
    /// Checks everything before anything runs: the base config, the fitted fields, the
    /// seeds and every measured point's config.
    pub fn new(base: &Map<String, Value>, measured: &Measured, options: &Options) -> Result<FitSession, String> {
        let base_config = Config::from_json(&Value::Object(base.clone())).map_err(|e| e.to_string())?;
        if !(1..=100).contains(&options.seeds) {
            return Err(format!("--seeds {}: must be from 1 to 100", options.seeds));
        }
        let params = params(&base_config, measured, &options.fit)?;
        let session = FitSession {
            base: base.clone(),
            measured: measured.clone(),
            options: options.clone(),
            seeds: (0..options.seeds).map(|j| base_config.seed + j).collect(),
            params,
            seen: HashMap::new(),
            invalid: HashSet::new(),
            asked: Vec::new(),
            runs: 0,
            progress: None,
        };
        session.configs(&session.starts())?;
        Ok(session)
    }

    /// Takes back a fit this session's points and fields gave before (a link's result, as
    /// `Step::Done` gave it), so it predicts without searching again. Refused when the fit is
    /// of another metric, other fields or other points.
    pub fn reopen(&self, fit: &Fit) -> Result<(), String> {
        let fields: Vec<&str> = fit.fitted.iter().map(|f| f.field.as_str()).collect();
        if fit.metric != self.measured.metric || fields != self.options.fit.iter().map(String::as_str).collect::<Vec<_>>() {
            return Err(format!(
                "the fit is of {} by {}; these points measure {} and fit {}",
                fit.metric,
                fields.join(", "),
                self.measured.metric,
                self.options.fit.join(", ")
            ));
        }
        let same = fit.points.len() == self.measured.points.len()
            && fit.points.iter().zip(&self.measured.points).all(|(f, m)| {
                f.measured == m.measured && self.measured.fields.iter().zip(&m.values).all(|(k, v)| f.values.get(k) == Some(v))
            });
        if !same {
            return Err("the fit is of other points than these".into());
        }
        if fit.seeds != self.options.seeds {
            return Err(format!("the fit ran {} seeds per point; this session runs {}", fit.seeds, self.options.seeds));
        }
        Ok(())
    }

    /// The metric the points measured (what a `RunResult` carries).
    pub fn metric(&self) -> &str {
        &self.measured.metric
    }

    /// Where the search is, after the last `next_step`.
    pub fn progress(&self) -> Option<&Progress> {
        self.progress.as_ref()
    }

    fn starts(&self) -> Vec<f64> {
        self.params.iter().map(|p| p.start).collect()
    }

    fn steps(&self) -> Vec<f64> {
        self.params.iter().map(|p| if p.integer { STEP.max(libm::log((p.start + 1.0) / p.start)) } else { STEP }).collect()
    }

    /// The configs of every point and seed for these fitted values (point-major).
    fn configs(&self, values: &[f64]) -> Result<Vec<Config>, String> {
        let mut out = Vec::new();
        for (i, point) in self.measured.points.iter().enumerate() {
            let mut m = self.base.clone();
            for (field, v) in self.measured.fields.iter().zip(&point.values) {
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

    fn values_at(&self, x: &[f64]) -> Vec<f64> {
        self.params.iter().zip(x).map(|(p, &x)| p.value(x)).collect()
    }

    fn ssr(&self, o: &Outcome) -> f64 {
        o.residuals(&self.measured).iter().map(|r| r * r).sum()
    }

    /// Asks for the sets not simulated yet among `sets` (none twice).
    fn ask(&mut self, sets: Vec<Vec<f64>>) -> Result<Option<Step>, String> {
        let starts = self.starts();
        let (mut fresh, mut requests) = (Vec::new(), Vec::new());
        for s in sets {
            if self.seen.contains_key(&key(&s)) || self.invalid.contains(&key(&s)) || fresh.contains(&s) {
                continue;
            }
            match self.configs(&s) {
                Ok(configs) => {
                    requests.push(Request { values: s.clone(), configs });
                    fresh.push(s);
                }
                // The start must be valid (checked when the session began); a set the
                // search tried is only turned away from.
                Err(e) if s == starts => return Err(e),
                Err(_) => {
                    self.invalid.insert(key(&s));
                }
            }
        }
        if fresh.is_empty() {
            return Ok(None);
        }
        self.asked = fresh;
        Ok(Some(Step::Run(requests)))
    }

    /// What to simulate next, or the fit when nothing is left to simulate.
    pub fn next_step(&mut self) -> Result<Step, String> {
        if !self.asked.is_empty() {
            return Err("the last sets asked for were not told yet".into());
        }
        let x0: Vec<f64> = self.starts().iter().map(|&v| libm::log(v)).collect();
        let steps = self.steps();
        if let Some(step) = self.first_simplex(&x0, &steps)? {
            return Ok(step);
        }
        let (x, ssr, stop, iterations) = match self.replay(&x0, &steps)? {
            Ok(found) => found,
            Err(step) => return Ok(step),
        };
        debug_assert_ne!(stop, Stop::Cancelled);
        let best = self.values_at(&x);
        // The intervals' Jacobian: each fitted field 5% either side (at least 1 for a whole
        // number: small enough to be local, large enough to step over the model's
        // event-order noise).
        let sides = self.jacobian_sets(&best);
        if let Some(step) = self.ask(sides.iter().flat_map(|(u, d)| [u.clone(), d.clone()]).collect())? {
            return Ok(step);
        }
        Ok(Step::Done(Box::new(self.finish(&best, ssr, stop, iterations))))
    }

    /// The first simplex, asked for all at once (the step that simulates what is missing of
    /// it); an error if the metric is 0 at every one of its sets.
    fn first_simplex(&mut self, x0: &[f64], steps: &[f64]) -> Result<Option<Step>, String> {
        let mut first = vec![x0.to_vec()];
        for j in 0..x0.len() {
            let mut v = x0.to_vec();
            v[j] += steps[j];
            first.push(v);
        }
        let first: Vec<Vec<f64>> = first.iter().map(|x| self.values_at(x)).collect();
        if let Some(step) = self.ask(first.clone())? {
            return Ok(Some(step));
        }
        // A metric this config never produces (tpm outside DBT2, arrivals in a closed loop)
        // is 0 everywhere: nothing to fit, and the search would "converge" where it began.
        if first.iter().filter_map(|v| self.seen.get(&key(v))).all(|o| o.simulated.iter().all(|&s| s == 0.0)) {
            return Err(format!(
                "{} is 0 at every point with these settings, whatever the fitted fields: this config does not produce it (tpm counts DBT2's New-Order transactions; arrivals.* need arrivalRatePerApiNode > 0; insertsPerSecond needs a workload that inserts). Measure another metric, or give a base config that produces it",
                self.measured.metric
            ));
        }
        Ok(None)
    }

    /// Replays the search on what is known, up to the first unknown cost: the search's
    /// end (point, cost, why it stopped, iterations), or the step that simulates the
    /// first set it lacks.
    #[allow(clippy::type_complexity)]
    fn replay(&mut self, x0: &[f64], steps: &[f64]) -> Result<Result<(Vec<f64>, f64, Stop, u64), Step>, String> {
        let n = self.measured.points.len() as f64;
        let limits = Limits {
            max_iterations: self.options.max_iterations,
            // Settled: the best point moved less than 0.5% over 2(p + 1) iterations (or over
            // p + 1 while every point tried was within 2%: search.rs), well inside any
            // interval the points can give.
            stall_iterations: 2 * (self.params.len() as u64 + 1),
            x_tolerance: 0.005,
            sd_tolerance: 1e-12,
        };
        // A set found invalid on the way is known from then on: replay again.
        loop {
            let missing: RefCell<Option<Vec<f64>>> = RefCell::new(None);
            let mut progress = None;
            let found = search::minimize(
                |x| {
                    let values = self.values_at(x);
                    match self.seen.get(&key(&values)) {
                        Some(o) => self.ssr(o),
                        None if self.invalid.contains(&key(&values)) => f64::INFINITY,
                        None => {
                            missing.borrow_mut().get_or_insert(values);
                            f64::INFINITY
                        }
                    }
                },
                x0,
                steps,
                limits,
                |iteration, best, cost| {
                    if missing.borrow().is_some() {
                        return false;
                    }
                    progress = Some(Progress {
                        iteration,
                        max_iterations: self.options.max_iterations,
                        values: self.values_at(best),
                        rms_relative_error: (cost / n).sqrt(),
                        runs: self.runs,
                    });
                    true
                },
            );
            if progress.is_some() {
                self.progress = progress;
            }
            match missing.into_inner() {
                Some(values) => {
                    if let Some(step) = self.ask(vec![values])? {
                        return Ok(Err(step));
                    }
                }
                None => return Ok(Ok(found)),
            }
        }
    }

    /// The results of the sets the last `next_step` asked for: for each, every point and seed's
    /// run, in the order of its configs.
    pub fn tell(&mut self, results: &[Vec<RunResult>]) -> Result<(), String> {
        let asked = std::mem::take(&mut self.asked);
        let runs = self.measured.points.len() * self.seeds.len();
        if results.len() != asked.len() || results.iter().any(|r| r.len() != runs) {
            self.asked = asked;
            return Err(format!("tell: expected {} sets of {runs} results", self.asked.len()));
        }
        let k = self.seeds.len();
        for (values, set) in asked.iter().zip(results) {
            let mut outcome = Outcome { simulated: Vec::new(), bottlenecks: Vec::new() };
            for chunk in set.chunks(k) {
                outcome.simulated.push(chunk.iter().map(|r| r.value).sum::<f64>() / k as f64);
                outcome.bottlenecks.push(chunk[0].bottleneck.clone());
            }
            self.seen.insert(key(values), outcome);
            self.runs += runs as u64;
        }
        Ok(())
    }
}

/// Fits `options.fit` to the measured points from the base config (a JSON object as
/// `hotrow run` builds it: preset, config file, workload, `--set`s), running every set the
/// session asks for with `runner`. `on_progress` hears of each iteration the search
/// reaches; it returns false to cancel.
pub fn fit(
    base: &Map<String, Value>,
    measured: &Measured,
    options: &Options,
    runner: &mut Runner,
    on_progress: &mut dyn FnMut(&Progress) -> bool,
) -> Result<Fit, String> {
    let mut session = FitSession::new(base, measured, options)?;
    let mut reported = 0;
    loop {
        match session.next_step()? {
            Step::Done(fit) => return Ok(*fit),
            Step::Run(requests) => {
                let sizes: Vec<usize> = requests.iter().map(|r| r.configs.len()).collect();
                let summaries = runner(requests.into_iter().flat_map(|r| r.configs).collect())?;
                let mut results = summaries.iter().map(|s| RunResult::of(s, session.metric()));
                let sets: Vec<Vec<RunResult>> = sizes.iter().map(|&n| results.by_ref().take(n).collect()).collect();
                session.tell(&sets)?;
            }
        }
        if let Some(p) = session.progress().filter(|p| p.iteration > reported) {
            reported = p.iteration;
            if !on_progress(p) {
                return Err("cancelled".into());
            }
        }
    }
}
