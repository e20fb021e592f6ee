//! A sweep's grid: every combination of the `--vary` lists times `--seeds` seeds, each a
//! checked config, and the running of a slice of it on threads, results in grid order.
//! `hotrow sweep` (sweep.rs), `hotrow report --vary` (report.rs) and the keyed result files
//! (results.rs) run grids; `--shard I/N` is one of N contiguous slices.
//!
//! Each run is one `Simulation` on one thread; the core stays single-threaded and pure.
//! Results are stored by grid index, so the output is the same whatever `--jobs` is.

use hotrow::{catalog, Config, Simulation, Summary};
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::{Map, Value};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

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
}
