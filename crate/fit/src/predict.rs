//! `--predict`: the fitted model (and the USL, over its own field) at points not measured.

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
    /// hotrow with the fitted fields (mean over the fit's seeds).
    pub simulated: f64,
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
}

pub fn plan(base: &Map<String, Value>, fit: &Fit, lists: &[(String, Vec<Value>)]) -> Result<Plan, String> {
    let base_seed = Config::from_json(&Value::Object(base.clone())).map_err(|e| e.to_string())?.seed;
    let points = grid(lists);
    let mut configs = Vec::new();
    for point in &points {
        let mut m = base.clone();
        for f in &fit.fitted {
            hotrow::config::set_dotted(&mut m, &f.field, field_value(&f.field, f.estimate.value)).map_err(|e| e.to_string())?;
        }
        for (field, v) in point {
            if fit.fitted.iter().any(|f| &f.field == field) {
                return Err(format!("--predict {field}: a fitted field; predict over another field (the fit gives this one its value)"));
            }
            hotrow::config::set_dotted(&mut m, field, v.clone()).map_err(|e| format!("--predict {field}: {e}"))?;
        }
        for j in 0..fit.seeds {
            m.insert("seed".into(), Value::from(base_seed + j));
            configs.push(Config::from_json(&Value::Object(m.clone())).map_err(|e| format!("--predict: {e}"))?);
        }
    }
    let varied = lists.iter().filter(|(_, values)| values.len() > 1).map(|(field, _)| field.clone()).collect();
    Ok(Plan { points, configs, seeds: fit.seeds as usize, varied })
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
        self.points
            .iter()
            .zip(results.chunks(self.seeds))
            .map(|(point, runs)| Prediction {
                values: point.iter().cloned().collect(),
                simulated: runs.iter().map(|r| r.value).sum::<f64>() / runs.len() as f64,
                usl: only_usl_field(point),
                bottleneck: runs[0].bottleneck.clone(),
            })
            .collect()
    }
}

/// Runs the base config with the fitted values at every grid point.
pub fn predict(
    base: &Map<String, Value>,
    fit: &Fit,
    lists: &[(String, Vec<Value>)],
    runner: &mut Runner,
) -> Result<Vec<Prediction>, String> {
    let plan = plan(base, fit, lists)?;
    let summaries = runner(plan.configs.clone())?;
    let results: Vec<RunResult> = summaries.iter().map(|s| RunResult::of(s, &fit.metric)).collect();
    Ok(plan.predictions(fit, &results))
}
