//! `--predict`: the fitted model (and the USL, over its own field) at points not measured:
//! modelled, not measured, and with a range: the model run again with each fitted field at
//! either end of its 95% interval (the others at their fitted values).

use crate::model::{field_value, Fit, Runner};
use crate::session::RunResult;
use hotrow::Config;
use serde::Serialize;
use serde_json::{Map, Value};

/// One predicted point.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Prediction {
    pub values: Map<String, Value>,
    /// hotrow with the fitted fields (mean over the fit's seeds): modelled.
    pub simulated: f64,
    /// The least and the most of the runs with a fitted field at either end of its 95%
    /// interval (and `simulated`): how far the fit's uncertainty moves the prediction. None
    /// when the plan asked for no spread or no fitted field has an interval.
    pub low: Option<f64>,
    pub high: Option<f64>,
    /// The USL's value, when the grid varies only the USL's field (other fields may be
    /// held at one value each).
    pub usl: Option<f64>,
    pub bottleneck: Option<String>,
}

/// Every combination of the lists (the last changes fastest), as `hotrow sweep` orders them.
pub fn grid(lists: &[(String, Vec<Value>)]) -> Vec<Vec<(String, Value)>> {
    lists.iter().fold(vec![Vec::new()], |acc, (field, values)| {
        acc.iter()
            .flat_map(|prefix| {
                values.iter().map(move |v| {
                    let mut p = prefix.clone();
                    p.push((field.clone(), v.clone()));
                    p
                })
            })
            .collect()
    })
}

/// The runs a prediction needs: the base config with the fitted values at every grid
/// point, every seed of the fit (point-major), for a caller to run where it likes.
pub struct Plan {
    points: Vec<Vec<(String, Value)>>,
    pub configs: Vec<Config>,
    seeds: usize,
    /// The fields the grid varies (given more than one value).
    varied: Vec<String>,
    /// Runs per point beside the fitted one for the spread: two per fitted field with an
    /// interval (its low end, then its high end), each `seeds` runs.
    ends: usize,
}

/// The fitted values with one field at one end of its interval, per (field, end): the
/// fitted fields with an interval, low then high, each end kept within the field's range.
fn ends(fit: &Fit) -> Vec<(usize, f64)> {
    let mut out = Vec::new();
    for (i, f) in fit.fitted.iter().enumerate() {
        if let (Some(low), Some(high)) = (f.estimate.low, f.estimate.high) {
            let (min, max) = match hotrow::config::fields::field(&f.field).map(|x| x.kind) {
                Some(hotrow::config::fields::Kind::Int { min, max }) => (min as f64, max as f64),
                Some(hotrow::config::fields::Kind::Number { min, max }) => (min, max),
                _ => (f64::MIN, f64::MAX),
            };
            out.push((i, low.clamp(min, max)));
            out.push((i, high.clamp(min, max)));
        }
    }
    out
}

/// The runs that predict `lists`' grid; with `spread`, also those of each fitted field at
/// either end of its interval (two more sets of runs per such field and point).
pub fn plan(base: &Map<String, Value>, fit: &Fit, lists: &[(String, Vec<Value>)], spread: bool) -> Result<Plan, String> {
    let base_seed = Config::from_json(&Value::Object(base.clone())).map_err(|e| e.to_string())?.seed;
    let points = grid(lists);
    let ends = if spread { ends(fit) } else { Vec::new() };
    let mut configs = Vec::new();
    for point in &points {
        let mut m = base.clone();
        for (field, v) in point {
            if fit.fitted.iter().any(|f| &f.field == field) {
                return Err(format!("--predict {field}: a fitted field; predict over another field (the fit gives this one its value)"));
            }
            hotrow::config::set_dotted(&mut m, field, v.clone()).map_err(|e| format!("--predict {field}: {e}"))?;
        }
        // The fitted values, then each end in turn.
        let fitted = |end: Option<(usize, f64)>| -> Result<Map<String, Value>, String> {
            let mut m = m.clone();
            for (i, f) in fit.fitted.iter().enumerate() {
                let v = match end {
                    Some((j, x)) if j == i => x,
                    _ => f.estimate.value,
                };
                hotrow::config::set_dotted(&mut m, &f.field, field_value(&f.field, v)).map_err(|e| e.to_string())?;
            }
            Ok(m)
        };
        for end in std::iter::once(None).chain(ends.iter().copied().map(Some)) {
            let mut m = fitted(end)?;
            for j in 0..fit.seeds {
                m.insert("seed".into(), Value::from(base_seed + j));
                configs.push(Config::from_json(&Value::Object(m.clone())).map_err(|e| format!("--predict: {e}"))?);
            }
        }
    }
    let varied = lists.iter().filter(|(_, values)| values.len() > 1).map(|(field, _)| field.clone()).collect();
    Ok(Plan { points, configs, seeds: fit.seeds as usize, varied, ends: ends.len() })
}

impl Plan {
    /// The predictions from the runs' results, in the order of `configs`.
    pub fn predictions(&self, fit: &Fit, results: &[RunResult]) -> Vec<Prediction> {
        let only_usl_field = |point: &[(String, Value)]| match &fit.usl {
            Some(usl) if self.varied.iter().all(|f| *f == usl.field) => {
                point.iter().find(|(f, _)| *f == usl.field).and_then(|(_, v)| v.as_f64()).map(|n| usl.throughput(n))
            }
            _ => None,
        };
        let mean = |runs: &[RunResult]| runs.iter().map(|r| r.value).sum::<f64>() / runs.len() as f64;
        self.points
            .iter()
            .zip(results.chunks(self.seeds * (1 + self.ends)))
            .map(|(point, runs)| {
                let (fitted, ends) = runs.split_at(self.seeds);
                let simulated = mean(fitted);
                let spread = ends.chunks(self.seeds).map(mean);
                let (low, high) = spread.fold((simulated, simulated), |(lo, hi), x| (lo.min(x), hi.max(x)));
                Prediction {
                    values: point.iter().cloned().collect(),
                    simulated,
                    low: (self.ends > 0).then_some(low),
                    high: (self.ends > 0).then_some(high),
                    usl: only_usl_field(point),
                    bottleneck: fitted[0].bottleneck.clone(),
                }
            })
            .collect()
    }
}

/// Runs the base config with the fitted values at every grid point, and with each fitted
/// field at either end of its interval.
pub fn predict(
    base: &Map<String, Value>,
    fit: &Fit,
    lists: &[(String, Vec<Value>)],
    runner: &mut Runner,
) -> Result<Vec<Prediction>, String> {
    let plan = plan(base, fit, lists, true)?;
    let summaries = runner(plan.configs.clone())?;
    let results: Vec<RunResult> = summaries.iter().map(|s| RunResult::of(s, &fit.metric)).collect();
    Ok(plan.predictions(fit, &results))
}
