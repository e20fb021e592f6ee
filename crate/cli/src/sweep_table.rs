//! A sweep's results as a table: one CSV row per run (the varied fields, the seed, every
//! summary metric, the bottleneck, the digest), or with `--json` each grid point's mean
//! and 95% interval over its seeds.

use crate::grid::{Outcome, Run, Vary};
use hotrow::catalog;
use serde::Serialize;
use serde_json::{Map, Value};
use std::process::ExitCode;

/// The CSV of `runs` (with its header when `header`), or with `json` each point's estimates.
pub fn print(varies: &[Vary], runs: &[Run], outcomes: &[Outcome], json: bool, header: bool) -> ExitCode {
    if json {
        let points = summarise(varies, runs, outcomes);
        println!("{}", serde_json::to_string_pretty(&points).expect("points serialise"));
    } else if let Err(e) = write_csv(std::io::stdout().lock(), varies, runs, outcomes, header) {
        eprintln!("error: writing CSV: {e}");
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// One CSV row per run: the varied fields, the seed, the metrics, the digest, and last the
/// metrics 0.2.0 renamed under their old names (through 0.2.x: `catalog::RENAMED`).
pub fn write_csv(out: impl std::io::Write, varies: &[Vary], runs: &[Run], outcomes: &[Outcome], header: bool) -> csv::Result<()> {
    let mut w = csv::Writer::from_writer(out);
    let old: Vec<(&str, usize)> = catalog::old_summary_names().collect();
    if header {
        let mut cols: Vec<&str> = varies.iter().map(|v| v.field.as_str()).collect();
        cols.push("seed");
        cols.extend(catalog::summary_metrics().map(|m| m.name));
        cols.push("bottleneck");
        cols.push("digest");
        cols.extend(old.iter().map(|&(name, _)| name));
        w.write_record(&cols)?;
    }
    for (r, o) in runs.iter().zip(outcomes) {
        let mut row: Vec<String> = r.values.iter().map(plain).collect();
        row.push(r.seed.to_string());
        row.extend(o.values.iter().map(f64::to_string));
        row.push(o.bottleneck.clone());
        row.push(o.digest.clone());
        row.extend(old.iter().map(|&(_, i)| o.values[i].to_string()));
        w.write_record(&row)?;
    }
    w.flush()?;
    Ok(())
}

/// A value as a CSV cell: strings without their JSON quotes.
fn plain(v: &Value) -> String {
    match v {
        Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Mean and 95% confidence interval (Student's t) of one metric over a point's seeds.
#[derive(Serialize)]
pub struct Estimate {
    mean: f64,
    /// The interval's ends; absent with a single seed.
    low: Option<f64>,
    high: Option<f64>,
}

#[derive(Serialize)]
pub struct Point {
    values: Map<String, Value>,
    seeds: Vec<u64>,
    metrics: Map<String, Value>,
}

/// Per grid point, each metric's mean and 95% interval over the point's seeds.
pub fn summarise(varies: &[Vary], runs: &[Run], outcomes: &[Outcome]) -> Vec<Point> {
    let mut points: Vec<Point> = Vec::new();
    let mut at = 0;
    while at < runs.len() {
        let end = (at..runs.len()).find(|&i| runs[i].point != runs[at].point).unwrap_or(runs.len());
        let values = varies.iter().zip(&runs[at].values).map(|(v, x)| (v.field.clone(), x.clone())).collect();
        let mut metrics = Map::new();
        for (i, m) in catalog::summary_metrics().enumerate() {
            let xs: Vec<f64> = outcomes[at..end].iter().map(|o| o.values[i]).collect();
            metrics.insert(m.name.to_string(), serde_json::to_value(estimate(&xs)).expect("numbers serialise"));
        }
        for (old, i) in catalog::old_summary_names() {
            metrics.insert(old.to_string(), metrics[catalog::summary_metrics().nth(i).expect("a summary metric").name].clone());
        }
        points.push(Point { values, seeds: runs[at..end].iter().map(|r| r.seed).collect(), metrics });
        at = end;
    }
    points
}

fn estimate(xs: &[f64]) -> Estimate {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    if xs.len() < 2 {
        return Estimate { mean, low: None, high: None };
    }
    let var = xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0);
    let half = t_975(xs.len() - 1) * (var / n).sqrt();
    Estimate { mean, low: Some(mean - half), high: Some(mean + half) }
}

/// Student's t quantile 0.975 for `df` degrees of freedom.
fn t_975(df: usize) -> f64 {
    const T: [f64; 30] = [
        12.706, 4.303, 3.182, 2.776, 2.571, 2.447, 2.365, 2.306, 2.262, 2.228, 2.201, 2.179, 2.160, 2.145, 2.131, 2.120, 2.110, 2.101,
        2.093, 2.086, 2.080, 2.074, 2.069, 2.064, 2.060, 2.056, 2.052, 2.048, 2.045, 2.042,
    ];
    T.get(df.wrapping_sub(1)).copied().unwrap_or(1.96)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn intervals_widen_with_spread_and_vanish_for_one_seed() {
        let e = estimate(&[10.0, 12.0]);
        assert_eq!(e.mean, 11.0);
        assert!((e.high.unwrap() - (11.0 + 12.706)).abs() < 1e-9);
        assert!(estimate(&[5.0]).low.is_none());
    }
}
