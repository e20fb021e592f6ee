//! `hotrow sweep`: a grid of configurations (every combination of the `--vary` lists,
//! times `--seeds` seeds), run in parallel on threads, printed in grid order.
//!
//! Each run is one `Simulation` on one thread; the core stays single-threaded and pure.
//! Results are stored by grid index, so the output is the same whatever `--jobs` is.
//! `--shard I/N` runs only the I-th of N contiguous slices of the grid, so a sweep too big
//! for one machine runs as an array job and the CSV slices concatenate into one table (or,
//! with `--out DIR`, keyed result files that resume and merge: `results.rs`).

use crate::args::Scenario;
use crate::{bad_input, results};
use hotrow::{catalog, Config, Simulation, Summary};
use indicatif::{ProgressBar, ProgressStyle};
use serde::Serialize;
use serde_json::{Map, Value};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

/// One `--vary FIELD=V1,V2,...`.
#[derive(Clone, Debug)]
pub struct Vary {
    pub field: String,
    pub values: Vec<Value>,
}

impl Vary {
    /// Parses `FIELD=V1,V2,...`; values are JSON where they parse as JSON, else strings.
    pub fn parse(text: &str) -> Result<Vary, String> {
        let Some((field, list)) = text.split_once('=') else {
            return Err(format!("--vary {text}: expected FIELD=V1,V2,..., e.g. --vary cacheSize=1,10,100"));
        };
        let field = field.trim().to_string();
        if field.is_empty() {
            return Err(format!("--vary {text}: the field name is empty"));
        }
        let values: Vec<Value> = list
            .split(',')
            .map(str::trim)
            .filter(|v| !v.is_empty())
            .map(|v| serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string())))
            .collect();
        if values.is_empty() {
            return Err(format!("--vary {field}: give at least one value, e.g. --vary {field}=1,2"));
        }
        Ok(Vary { field, values })
    }
}

/// `--shard I/N`: the I-th (1-based) of N slices.
#[derive(Clone, Copy, Debug)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    pub fn parse(text: &str) -> Result<Shard, String> {
        let parsed = text.split_once('/').and_then(|(i, n)| Some((i.trim().parse().ok()?, n.trim().parse().ok()?)));
        match parsed {
            Some((index, count)) if count >= 1 && (1..=count).contains(&index) => Ok(Shard { index, count }),
            _ => Err(format!("--shard {text}: expected I/N with 1 <= I <= N, e.g. --shard 2/8")),
        }
    }

    /// The grid indexes of this slice: contiguous, in order, sizes differing by at most one.
    fn range(&self, total: usize) -> std::ops::Range<usize> {
        let start = total * (self.index - 1) / self.count;
        let end = total * self.index / self.count;
        start..end
    }
}

/// One run of the grid: its varied values and seed, and the config built from them.
pub struct Run {
    pub point: usize,
    pub values: Vec<Value>,
    pub seed: u64,
    config: Config,
}

impl Run {
    /// Its effective config as JSON text (every field): what its result's key hashes.
    pub fn config_json(&self) -> String {
        self.config.to_json().to_string()
    }
}

/// Builds every run of the grid in order (the last `--vary` changes fastest, then the
/// seed) and validates each, so bad input stops the sweep before anything runs.
pub fn grid(base: &Map<String, Value>, varies: &[Vary], seeds: u64) -> Result<Vec<Run>, String> {
    let base_seed = Config::from_json(&Value::Object(base.clone())).map_err(|e| e.to_string())?.seed;
    let points: usize = varies.iter().map(|v| v.values.len()).product();
    let mut runs = Vec::with_capacity(points * seeds as usize);
    for point in 0..points {
        let mut rest = point;
        let mut values = vec![Value::Null; varies.len()];
        for (k, v) in varies.iter().enumerate().rev() {
            values[k] = v.values[rest % v.values.len()].clone();
            rest /= v.values.len();
        }
        for s in 0..seeds {
            let mut obj = base.clone();
            for (v, value) in varies.iter().zip(&values) {
                hotrow::config::set_dotted(&mut obj, &v.field, value.clone()).map_err(|e| format!("--vary: {e}"))?;
            }
            let seed = obj.get("seed").and_then(Value::as_u64).unwrap_or(base_seed) + s;
            obj.insert("seed".into(), Value::from(seed));
            let config = Config::from_json(&Value::Object(obj)).map_err(|e| format!("--vary: {e}"))?;
            runs.push(Run { point, values: values.clone(), seed, config });
        }
    }
    Ok(runs)
}

/// `hotrow sweep`'s sharding and output: `--shard I/N|auto`, `--shards`, `--out`, `--resume`.
pub struct Sharding {
    pub shard: Option<String>,
    pub shards: Option<usize>,
    pub out: Option<std::path::PathBuf>,
    pub resume: bool,
}

/// `hotrow sweep`: builds and checks the grid, runs this shard's slice, prints its CSV (or
/// JSON), or with `--out` writes each run's result line (`results.rs`).
pub fn command(scenario: &Scenario, varies: &[String], seeds: u64, jobs: Option<usize>, sharding: Sharding, json: bool) -> ExitCode {
    let Value::Object(base) = (match scenario.to_json() {
        Ok(v) => v,
        Err(msg) => return bad_input(&msg),
    }) else {
        unreachable!("to_json builds an object")
    };
    let varies: Vec<Vary> = match varies.iter().map(|v| Vary::parse(v)).collect() {
        Ok(v) => v,
        Err(msg) => return bad_input(&msg),
    };
    if !(1..=10_000).contains(&seeds) {
        return bad_input(&format!("--seeds {seeds}: must be from 1 to 10000"));
    }
    let shard = match sharding.shard.as_deref() {
        Some("auto") => results::auto_shard(|k| std::env::var(k).ok(), sharding.shards).map(Some),
        other => other.map(Shard::parse).transpose(),
    };
    let shard = match shard {
        Ok(s) => s,
        Err(msg) => return bad_input(&msg),
    };
    let runs = match grid(&base, &varies, seeds) {
        Ok(r) => r,
        Err(msg) => return bad_input(&msg),
    };
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return bad_input("--jobs 0: give at least 1");
    }
    let range = slice(shard, runs.len());
    if let Some(dir) = &sharding.out {
        let grid = results::Grid { base, vary: varies.iter().map(|v| (v.field.clone(), v.values.clone())).collect(), seeds };
        let shard = shard.unwrap_or(Shard { index: 1, count: 1 });
        return match results::run_into(dir, &grid, &runs, range, shard, jobs, sharding.resume) {
            Ok(()) => ExitCode::SUCCESS,
            Err(msg) => {
                eprintln!("error: {msg}");
                ExitCode::from(1)
            }
        };
    }
    let started = Instant::now();
    let outcomes = run(&runs, range.clone(), jobs);
    eprintln!("sweep: {} runs on {jobs} threads in {:.1} s", outcomes.len(), started.elapsed().as_secs_f64());
    print(&varies, &runs[range], &outcomes, json, shard.is_none_or(|s| s.index == 1))
}

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

/// What one run measured, as the CSV's row: each summary metric of the metric table, in
/// the table's order, and the digest.
#[derive(Clone, Debug)]
pub struct Outcome {
    pub values: Vec<f64>,
    /// The bottleneck's name (empty when nothing committed).
    pub bottleneck: String,
    pub digest: String,
}

impl Outcome {
    pub fn of(s: &Summary) -> Outcome {
        let bottleneck = s.bottleneck.as_ref().map_or_else(String::new, |b| b.name.clone());
        Outcome { values: catalog::summary_values(s), bottleneck, digest: s.digest.clone() }
    }
}

/// Runs `runs[range]` on `jobs` threads; results come back in grid order.
pub fn run(runs: &[Run], range: std::ops::Range<usize>, jobs: usize) -> Vec<Outcome> {
    run_with(runs, range, jobs, Outcome::of)
}

/// Runs `runs[range]` on `jobs` threads and keeps `keep(summary)` of each, in grid order.
pub fn run_with<T: Send + Clone>(runs: &[Run], range: std::ops::Range<usize>, jobs: usize, keep: impl Fn(&Summary) -> T + Sync) -> Vec<T> {
    let picked: Vec<usize> = range.collect();
    run_picked(runs, &picked, jobs, keep)
}

/// Runs the runs at `picked` (grid indexes) on `jobs` threads; outcomes in `picked`'s order.
pub fn run_each(runs: &[Run], picked: &[usize], jobs: usize) -> Vec<Outcome> {
    run_picked(runs, picked, jobs, Outcome::of)
}

fn run_picked<T: Send + Clone>(runs: &[Run], picked: &[usize], jobs: usize, keep: impl Fn(&Summary) -> T + Sync) -> Vec<T> {
    let bar = ProgressBar::new(picked.len() as u64).with_style(
        ProgressStyle::with_template("sweep {bar:30} {pos}/{len} runs, {elapsed} elapsed, about {eta} left").expect("a valid template"),
    );
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<T>>> = Mutex::new(vec![None; picked.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, picked.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(&at) = picked.get(i) else { break };
                let mut sim = Simulation::new(runs[at].config.clone());
                sim.run_to_end();
                let kept = keep(&sim.summary());
                results.lock().expect("no thread panicked holding it")[i] = Some(kept);
                bar.inc(1);
            });
        }
    });
    bar.finish_and_clear();
    results.into_inner().expect("threads are done").into_iter().map(|o| o.expect("every run ran")).collect()
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

/// Parses the shard and returns the slice of the grid it covers.
pub fn slice(shard: Option<Shard>, total: usize) -> std::ops::Range<usize> {
    shard.map_or(0..total, |s| s.range(total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_grid_in_order() {
        for total in [0, 1, 7, 8, 100] {
            for count in 1..=9 {
                let mut covered = Vec::new();
                for index in 1..=count {
                    covered.extend(Shard { index, count }.range(total));
                }
                assert_eq!(covered, (0..total).collect::<Vec<_>>(), "{total} runs in {count} shards");
            }
        }
        assert!(Shard::parse("0/3").is_err() && Shard::parse("4/3").is_err() && Shard::parse("x").is_err());
    }

    #[test]
    fn vary_values_are_json_or_strings() {
        let v = Vary::parse("workload=dbt2,ndbapi-insert").unwrap();
        assert_eq!(v.values, vec![Value::from("dbt2"), Value::from("ndbapi-insert")]);
        let v = Vary::parse("cacheSize=1, 10,100").unwrap();
        assert_eq!(v.values, vec![Value::from(1), Value::from(10), Value::from(100)]);
        assert!(Vary::parse("cacheSize").is_err() && Vary::parse("cacheSize=").is_err());
    }

    #[test]
    fn intervals_widen_with_spread_and_vanish_for_one_seed() {
        let e = estimate(&[10.0, 12.0]);
        assert_eq!(e.mean, 11.0);
        assert!((e.high.unwrap() - (11.0 + 12.706)).abs() < 1e-9);
        assert!(estimate(&[5.0]).low.is_none());
    }
}
