//! The fit's answer once the search has stopped: the fitted values' 95% intervals from a
//! central-difference Jacobian at the best point (its sets asked for together), each
//! point's residual and bottleneck, and the USL fitted to the same points beside it.

use super::{key, FitSession};
use crate::metric;
use crate::model::{Fit, Fitted, PointFit};
use crate::points::Measured;
use crate::search::Stop;
use crate::stats::{self, Estimate};
use crate::usl::Usl;
use hotrow::config::fields::{self, Kind};

impl FitSession {
    /// Each fitted field's two neighbours of `best`, for a central difference.
    pub(super) fn jacobian_sets(&self, best: &[f64]) -> Vec<(Vec<f64>, Vec<f64>)> {
        if self.measured.points.len() <= best.len() {
            return Vec::new();
        }
        self.params
            .iter()
            .enumerate()
            .map(|(j, p)| {
                let h = if p.integer { (best[j] * 0.05).round().max(1.0) } else { best[j] * 0.05 };
                let at = |v: f64| {
                    let mut values = best.to_vec();
                    values[j] = p.value(libm::log(v.max(1e-12)));
                    values
                };
                (at(best[j] + h), at(best[j] - h))
            })
            .collect()
    }

    /// Half-widths of the fitted values' 95% intervals, or why there are none.
    fn intervals(&self, best: &[f64], ssr: f64) -> (Option<Vec<f64>>, Option<String>) {
        let (n, p) = (self.measured.points.len(), best.len());
        if n <= p {
            return (None, Some(format!("no interval: {n} points for {p} fitted fields leave no spread to estimate one from")));
        }
        let mut columns = Vec::new();
        for (j, (up, down)) in self.jacobian_sets(best).into_iter().enumerate() {
            let width = up[j] - down[j];
            if width <= 0.0 {
                return (None, Some(format!("no interval: {} is at the edge of its range", self.params[j].field)));
            }
            if !self.seen.contains_key(&key(&up)) || !self.seen.contains_key(&key(&down)) {
                return (None, Some(format!("no interval: {} 5% either side of the fit makes no valid config", self.params[j].field)));
            }
            let r = |v: &[f64]| self.seen[&key(v)].residuals(&self.measured);
            let (ru, rd) = (r(&up), r(&down));
            columns.push(ru.iter().zip(&rd).map(|(a, b)| (a - b) / width).collect::<Vec<f64>>());
        }
        let jacobian: Vec<Vec<f64>> = (0..n).map(|i| columns.iter().map(|c| c[i]).collect()).collect();
        match stats::half_widths(&jacobian, ssr) {
            Some(h) => (Some(h), None),
            None => (
                None,
                Some(
                    "no interval: the points do not depend on every fitted field (another field, or other points, would tell them apart)"
                        .into(),
                ),
            ),
        }
    }

    pub(super) fn finish(&self, best: &[f64], ssr: f64, stop: Stop, iterations: u64) -> Fit {
        let (half, interval_note) = self.intervals(best, ssr);
        let outcome = &self.seen[&key(best)];
        let residuals = outcome.residuals(&self.measured);
        let points = self
            .measured
            .points
            .iter()
            .enumerate()
            .map(|(i, p)| PointFit {
                values: self.measured.fields.iter().cloned().zip(p.values.iter().cloned()).collect(),
                measured: p.measured,
                simulated: outcome.simulated[i],
                residual: residuals[i],
                bottleneck: outcome.bottlenecks[i].clone(),
            })
            .collect();
        let fitted = self
            .params
            .iter()
            .zip(best)
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
        let usl = usl_beside(&self.measured);
        Fit {
            metric: self.measured.metric.clone(),
            fitted,
            interval_note,
            points,
            rms_relative_error: (ssr / self.measured.points.len() as f64).sqrt(),
            seeds: self.options.seeds,
            iterations,
            evaluations: self.seen.len() as u64,
            runs: self.runs,
            stop: stop.says().to_string(),
            usl: usl.as_ref().ok().cloned(),
            usl_note: usl.err(),
        }
    }
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
