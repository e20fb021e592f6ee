//! `hotrow equivalence`: are this build's outcomes distributed as another build's?
//!
//! For a change meant to keep the model but not its event order (a different tie rule,
//! fewer events), digests must differ, so equality is judged statistically instead: every
//! preset runs over N seeds here and with the baseline binary, and for each summary metric
//! of the metric table the two means are compared with a 99.9% Welch interval of their
//! difference. A metric is equal when the interval contains 0 or the difference is under
//! 0.5% of the baseline's mean; any other verdict exits 1.
//!
//! The baseline runs as a process (`PATH run --json`), so any older build serves; its
//! metrics are read from its summary at the paths the metric table gives.

use hotrow::catalog::{self, Metric};
use hotrow::{Config, Simulation};
use serde::Serialize;
use serde_json::{Map, Value};
use std::path::Path;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

/// A difference under this share of the baseline's mean is equal whatever its interval.
const NEGLIGIBLE: f64 = 0.005;

pub struct Options<'a> {
    pub baseline: &'a Path,
    pub presets: Vec<String>,
    pub seeds: u64,
    pub duration_ms: u64,
    pub warmup_ms: u64,
    /// `--set` fields for both sides, and `--baseline-set` fields for the baseline only.
    pub sets: Vec<(String, Value)>,
    pub baseline_sets: Vec<(String, Value)>,
    pub jobs: usize,
}

/// One metric of one preset, both sides.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Row {
    pub preset: String,
    pub metric: &'static str,
    pub mean: f64,
    pub baseline_mean: f64,
    pub difference: f64,
    /// The 99.9% Welch interval of `mean - baselineMean`.
    pub low: f64,
    pub high: f64,
    pub equal: bool,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    pub seeds: u64,
    pub rows: Vec<Row>,
    pub equal: bool,
}

/// One run's config as JSON: the preset, the seed, the run length and the `sets`.
fn config(preset: &str, seed: u64, o: &Options, sets: &[(String, Value)]) -> Value {
    let mut m = Map::new();
    m.insert("preset".into(), preset.into());
    m.insert("seed".into(), seed.into());
    m.insert("durationMs".into(), o.duration_ms.into());
    m.insert("warmupMs".into(), o.warmup_ms.into());
    for (k, v) in o.sets.iter().chain(sets) {
        hotrow::config::set_dotted(&mut m, k, v.clone()).expect("checked before running");
    }
    Value::Object(m)
}

fn here(config: &Value) -> Result<Vec<f64>, String> {
    let cfg = Config::from_json(config).map_err(|e| e.to_string())?;
    let mut sim = Simulation::new(cfg);
    sim.run_to_end();
    Ok(catalog::summary_values(&sim.summary()))
}

/// Runs `config` with the baseline binary. The config goes in a file of its own (`--config
/// FILE` is understood by every build, unlike standard input).
fn there(binary: &Path, config: &Value) -> Result<Vec<f64>, String> {
    static FILES: AtomicUsize = AtomicUsize::new(0);
    let file =
        std::env::temp_dir().join(format!("hotrow-equivalence-{}-{}.json", std::process::id(), FILES.fetch_add(1, Ordering::Relaxed)));
    std::fs::write(&file, config.to_string()).map_err(|e| format!("writing {}: {e}", file.display()))?;
    let out = Command::new(binary).args(["run", "--json", "--config"]).arg(&file).output();
    let _ = std::fs::remove_file(&file);
    let out = out.map_err(|e| format!("--baseline {}: cannot run it: {e}", binary.display()))?;
    if !out.status.success() {
        let err = String::from_utf8_lossy(&out.stderr);
        return Err(format!("--baseline {} failed on {config}: {}", binary.display(), err.trim()));
    }
    let summary: Value =
        serde_json::from_slice(&out.stdout).map_err(|_| format!("--baseline {}: its run --json printed no JSON", binary.display()))?;
    catalog::summary_metrics()
        .map(|m| {
            let path = m.summary.expect("a summary metric");
            // A part that is null (no open arrivals in a closed loop), or that a build older
            // than the metric does not print, reads 0, as in this build's own summaries.
            let part = path.split_once('.').map(|(head, _)| head);
            if part.is_some_and(|p| summary.get(p).is_none_or(Value::is_null)) {
                return Ok(0.0);
            }
            // A build before 0.2.0 wrote some paths under their old names (`catalog::RENAMED`).
            let old = catalog::RENAMED.iter().find(|(_, new)| *new == path).map(|(old, _)| *old);
            hotrow::config::lookup(&summary, path)
                .or_else(|| hotrow::config::lookup(&summary, old?))
                .and_then(Value::as_f64)
                .ok_or_else(|| format!("--baseline {}: its summary has no number at {path}", binary.display()))
        })
        .collect()
}

/// Runs every (preset, seed) here and in the baseline on `jobs` threads.
pub fn run(o: &Options, progress: impl Fn(usize, usize) + Sync) -> Result<Report, String> {
    let jobs: Vec<(usize, u64, bool)> =
        (0..o.presets.len()).flat_map(|p| (1..=o.seeds).flat_map(move |s| [(p, s, false), (p, s, true)])).collect();
    let results: Mutex<Vec<Option<Vec<f64>>>> = Mutex::new(vec![None; jobs.len()]);
    let failure: Mutex<Option<String>> = Mutex::new(None);
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    std::thread::scope(|scope| {
        for _ in 0..o.jobs.max(1) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                if i >= jobs.len() || failure.lock().expect("no panic").is_some() {
                    break;
                }
                let (p, seed, baseline) = jobs[i];
                let preset = &o.presets[p];
                let outcome = if baseline {
                    there(o.baseline, &config(preset, seed, o, &o.baseline_sets))
                } else {
                    here(&config(preset, seed, o, &[]))
                };
                match outcome {
                    Ok(values) => results.lock().expect("no panic")[i] = Some(values),
                    Err(msg) => *failure.lock().expect("no panic") = Some(msg),
                }
                progress(done.fetch_add(1, Ordering::Relaxed) + 1, jobs.len());
            });
        }
    });
    if let Some(msg) = failure.into_inner().expect("threads are done") {
        return Err(msg);
    }
    let results: Vec<Vec<f64>> = results.into_inner().expect("threads are done").into_iter().map(|r| r.expect("every run ran")).collect();
    let metrics: Vec<&Metric> = catalog::summary_metrics().collect();
    let mut rows = Vec::new();
    for (p, preset) in o.presets.iter().enumerate() {
        for (k, m) in metrics.iter().enumerate() {
            let side = |baseline: bool| -> Vec<f64> {
                jobs.iter().zip(&results).filter(|((q, _, b), _)| *q == p && *b == baseline).map(|(_, r)| r[k]).collect()
            };
            rows.push(compare(preset, m.name, &side(false), &side(true)));
        }
    }
    let equal = rows.iter().all(|r| r.equal);
    Ok(Report { seeds: o.seeds, rows, equal })
}

fn mean_var(xs: &[f64]) -> (f64, f64) {
    let n = xs.len() as f64;
    let mean = xs.iter().sum::<f64>() / n;
    let var = if xs.len() > 1 { xs.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / (n - 1.0) } else { 0.0 };
    (mean, var)
}

/// Welch's comparison of two samples' means: the 99.9% interval of the difference.
fn compare(preset: &str, metric: &'static str, a: &[f64], b: &[f64]) -> Row {
    let (ma, va) = mean_var(a);
    let (mb, vb) = mean_var(b);
    let (na, nb) = (a.len() as f64, b.len() as f64);
    let (sa, sb) = (va / na, vb / nb);
    let se = (sa + sb).sqrt();
    // Welch-Satterthwaite degrees of freedom (infinite when both samples are constant).
    let df = if sa + sb > 0.0 { (sa + sb).powi(2) / (sa * sa / (na - 1.0) + sb * sb / (nb - 1.0)) } else { f64::INFINITY };
    let half = t_9995(df) * se;
    let difference = ma - mb;
    let (low, high) = (difference - half, difference + half);
    let negligible = difference.abs() <= NEGLIGIBLE * mb.abs() || difference == 0.0;
    Row {
        preset: preset.to_string(),
        metric,
        mean: ma,
        baseline_mean: mb,
        difference,
        low,
        high,
        equal: negligible || (low <= 0.0 && 0.0 <= high),
    }
}

/// Student's t quantile 0.9995 (a two-sided 99.9% interval) for `df` degrees of freedom,
/// from the standard table, interpolated linearly in 1/df between its rows.
fn t_9995(df: f64) -> f64 {
    const TABLE: [(f64, f64); 36] = [
        (1.0, 636.62),
        (2.0, 31.599),
        (3.0, 12.924),
        (4.0, 8.610),
        (5.0, 6.869),
        (6.0, 5.959),
        (7.0, 5.408),
        (8.0, 5.041),
        (9.0, 4.781),
        (10.0, 4.587),
        (11.0, 4.437),
        (12.0, 4.318),
        (13.0, 4.221),
        (14.0, 4.140),
        (15.0, 4.073),
        (16.0, 4.015),
        (17.0, 3.965),
        (18.0, 3.922),
        (19.0, 3.883),
        (20.0, 3.850),
        (21.0, 3.819),
        (22.0, 3.792),
        (23.0, 3.768),
        (24.0, 3.745),
        (25.0, 3.725),
        (26.0, 3.707),
        (27.0, 3.690),
        (28.0, 3.674),
        (29.0, 3.659),
        (30.0, 3.646),
        (40.0, 3.551),
        (60.0, 3.460),
        (80.0, 3.416),
        (100.0, 3.390),
        (120.0, 3.373),
        (f64::INFINITY, 3.291),
    ];
    if df <= 1.0 {
        return TABLE[0].1;
    }
    let inv = 1.0 / df;
    for w in TABLE.windows(2) {
        let ((d0, t0), (d1, t1)) = (w[0], w[1]);
        if df <= d1 {
            let (i0, i1) = (1.0 / d0, 1.0 / d1);
            return t0 + (t1 - t0) * (i0 - inv) / (i0 - i1);
        }
    }
    3.291
}

/// `hotrow equivalence`: every config both sides will run checked first, then the runs, the
/// report, and exit 1 when a metric differs.
pub fn command(o: &Options, json: bool) -> std::process::ExitCode {
    for p in &o.presets {
        let mut m = Map::new();
        m.insert("preset".into(), Value::String(p.clone()));
        m.insert("durationMs".into(), o.duration_ms.into());
        m.insert("warmupMs".into(), o.warmup_ms.into());
        for (k, v) in o.sets.iter().chain(&o.baseline_sets) {
            if let Err(e) = hotrow::config::set_dotted(&mut m, k, v.clone()) {
                return crate::bad_input(&e.to_string());
            }
        }
        if let Err(e) = Config::from_json(&Value::Object(m)) {
            return crate::bad_input(&e.to_string());
        }
    }
    let started = std::time::Instant::now();
    let report = run(o, |done, total| {
        if done % 20 == 0 || done == total {
            eprintln!("equivalence: {done} of {total} runs");
        }
    });
    match report {
        Ok(r) => {
            eprintln!("equivalence: {:.1} s", started.elapsed().as_secs_f64());
            if json {
                println!("{}", serde_json::to_string_pretty(&r).expect("the report serialises"));
            } else {
                print!("{}", render(&r));
            }
            if r.equal {
                std::process::ExitCode::SUCCESS
            } else {
                std::process::ExitCode::from(1)
            }
        }
        Err(msg) => crate::bad_input(&msg),
    }
}

/// The report as a table: one line per preset and metric.
pub fn render(r: &Report) -> String {
    let mut o = format!(
        "hotrow equivalence: {} seeds per preset, 99.9% Welch interval of (here - baseline); equal when it holds 0 or |diff| < {}% of the mean\n\n",
        r.seeds,
        NEGLIGIBLE * 100.0
    );
    o += &format!("{:<20} {:<24} {:>14} {:>14} {:>10} {:>24}  verdict\n", "preset", "metric", "here", "baseline", "diff %", "interval");
    for row in &r.rows {
        let pct = if row.baseline_mean != 0.0 { format!("{:+.2}", 100.0 * row.difference / row.baseline_mean) } else { "-".into() };
        o += &format!(
            "{:<20} {:<24} {:>14.4} {:>14.4} {:>10} {:>24}  {}\n",
            row.preset,
            row.metric,
            row.mean,
            row.baseline_mean,
            pct,
            format!("[{:.4}, {:.4}]", row.low, row.high),
            if row.equal { "equal" } else { "DIFFERS" }
        );
    }
    let differ = r.rows.iter().filter(|x| !x.equal).count();
    o += &format!(
        "\n{} of {} metrics equal{}\n",
        r.rows.len() - differ,
        r.rows.len(),
        if differ > 0 { format!(", {differ} DIFFER") } else { String::new() }
    );
    o
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn t_quantiles_follow_the_table_and_fall_with_df() {
        assert!((t_9995(20.0) - 3.850).abs() < 1e-9);
        assert!((t_9995(f64::INFINITY) - 3.291).abs() < 1e-9);
        let between = t_9995(50.0);
        assert!(between < 3.551 && between > 3.460, "{between}");
        assert!(t_9995(2.5) < 31.599 && t_9995(2.5) > 12.924);
    }

    #[test]
    fn welch_finds_a_shift_and_accepts_noise() {
        let a: Vec<f64> = (0..20).map(|i| 100.0 + (i % 5) as f64).collect();
        let same: Vec<f64> = (0..20).map(|i| 100.0 + ((i + 2) % 5) as f64).collect();
        assert!(compare("p", "m", &a, &same).equal);
        let shifted: Vec<f64> = a.iter().map(|x| x * 1.05).collect();
        let row = compare("p", "m", &a, &shifted);
        assert!(!row.equal && row.high < 0.0, "{} {}", row.low, row.high);
        // Constant samples: equal only when equal, or within 0.5%.
        assert!(compare("p", "m", &[1.0; 5], &[1.0; 5]).equal);
        assert!(compare("p", "m", &[1.004; 5], &[1.0; 5]).equal);
        assert!(!compare("p", "m", &[1.01; 5], &[1.0; 5]).equal);
    }
}
