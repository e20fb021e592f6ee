//! `hotrow fit`: reads the measured points, runs the fit (the `hotrow-fit` crate) with
//! simulations on every core, and prints the fitted fields, the points, the USL beside it
//! and any predictions.

use crate::args::Scenario;
use crate::explain::grouped;
use crate::grid::Vary;
use hotrow::{Config, Simulation, Summary};
use hotrow_fit::{Estimate, Fit, Measured, Options, Prediction};
use serde_json::{Map, Value};
use std::fmt::Write;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

pub fn run(scenario: &Scenario, measured: &str, options: Options, predict: &[String], jobs: Option<usize>, json: bool) -> ExitCode {
    let text = if measured == "-" {
        std::io::read_to_string(std::io::stdin()).map_err(|e| format!("cannot read --measured - (standard input): {e}"))
    } else {
        std::fs::read_to_string(measured).map_err(|e| format!("cannot read --measured {measured}: {e}"))
    };
    let parsed = text.and_then(|t| Measured::parse(&t));
    let lists = predict
        .iter()
        .map(|p| Vary::parse(p).map(|v| (v.field, v.values)).map_err(|e| e.replace("--vary", "--predict")))
        .collect::<Result<Vec<_>, String>>();
    let base = scenario.to_json();
    let (measured, lists, base) = match (parsed, lists, base) {
        (Ok(m), Ok(l), Ok(Value::Object(b))) => (m, l, b),
        (Err(e), _, _) | (_, Err(e), _) | (_, _, Err(e)) => return crate::bad_input(&e),
        (_, _, Ok(_)) => unreachable!("to_json builds an object"),
    };
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return crate::bad_input("--jobs 0: give at least 1");
    }
    let started = Instant::now();
    let mut runner = |configs: Vec<Config>| run_all(configs, jobs);
    eprintln!(
        "fit: {} points of {}, fitting {} ({} seed{} per point, {jobs} threads)",
        measured.points.len(),
        measured.metric,
        options.fit.join(", "),
        options.seeds,
        if options.seeds == 1 { "" } else { "s" }
    );
    let names = options.fit.clone();
    let mut progress = |p: &hotrow_fit::Progress| {
        let values: Vec<String> = names.iter().zip(&p.values).map(|(n, v)| format!("{n} {}", short(*v))).collect();
        eprintln!(
            "fit: iteration {} of at most {}: {}, rms error {:.2}% ({} runs, {:.1} s)",
            p.iteration,
            p.max_iterations,
            values.join(", "),
            100.0 * p.rms_relative_error,
            p.runs,
            started.elapsed().as_secs_f64()
        );
        true
    };
    let fit = match hotrow_fit::fit(&base, &measured, &options, &mut runner, &mut progress) {
        Ok(f) => f,
        Err(e) if e.starts_with("internal error") => {
            eprintln!("error: {e}");
            return ExitCode::from(1);
        }
        Err(e) => return crate::bad_input(&e),
    };
    let seconds = started.elapsed().as_secs_f64();
    let predictions = if lists.is_empty() {
        Vec::new()
    } else {
        eprintln!("fit: predicting {} points", hotrow_fit::grid(&lists).len());
        match hotrow_fit::predict(&base, &fit, &lists, &mut runner) {
            Ok(p) => p,
            Err(e) => return crate::bad_input(&e),
        }
    };
    if json {
        let out = serde_json::json!({ "fit": fit, "seconds": seconds, "predictions": predictions });
        println!("{}", serde_json::to_string_pretty(&out).expect("a fit serialises"));
    } else {
        print!("{}", render(&fit, seconds, &predictions));
    }
    ExitCode::SUCCESS
}

/// Runs every config on `jobs` threads; results in input order. A panic is a bug in
/// hotrow, reported with its seed.
fn run_all(configs: Vec<Config>, jobs: usize) -> Result<Vec<Summary>, String> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<Summary, String>>>> = Mutex::new(vec![None; configs.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.clamp(1, configs.len().max(1)) {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(c) = configs.get(i) else { break };
                let seed = c.seed;
                let c = c.clone();
                let out = std::panic::catch_unwind(move || {
                    let mut sim = Simulation::new(c);
                    sim.run_to_end();
                    sim.summary()
                })
                .map_err(|_| format!("internal error (a bug in hotrow; seed {seed}): a run panicked"));
                results.lock().expect("no thread panicked holding it")[i] = Some(out);
            });
        }
    });
    results.into_inner().expect("threads are done").into_iter().map(|r| r.expect("every run ran")).collect()
}

/// Four significant digits, without trailing noise.
fn short(v: f64) -> String {
    if v == 0.0 || !v.is_finite() {
        return format!("{v}");
    }
    if v.abs() < 1e-3 {
        // Four significant digits, not a row of zeros.
        return format!("{v:.3e}");
    }
    let digits = (3 - v.abs().log10().floor() as i32).max(0) as usize;
    let s = format!("{v:.digits$}");
    if s.contains('.') {
        s.trim_end_matches('0').trim_end_matches('.').to_string()
    } else {
        s
    }
}

/// A measured or simulated value: grouped when large, four digits when small.
fn amount(v: f64) -> String {
    if v.abs() >= 1000.0 {
        grouped(v)
    } else {
        short(v)
    }
}

fn interval(e: &Estimate) -> String {
    match (e.low, e.high) {
        (Some(l), Some(h)) => format!("{} .. {}", short(l), short(h)),
        _ => "-".into(),
    }
}

fn values(m: &Map<String, Value>) -> String {
    m.values().map(|v| v.as_str().map_or_else(|| v.to_string(), str::to_string)).collect::<Vec<_>>().join(", ")
}

fn signed_percent(r: f64) -> String {
    format!("{:+.1}%", 100.0 * r)
}

fn render(fit: &Fit, seconds: f64, predictions: &[Prediction]) -> String {
    let mut w = String::new();
    let _ = writeln!(w, "fitted to {} measured points of {}", fit.points.len(), fit.metric);
    let _ = writeln!(w, "  {:<24} {:>10}  {:<24} {:>10}", "field", "fitted", "95% interval", "started at");
    for f in &fit.fitted {
        let _ = writeln!(w, "  {:<24} {:>10}  {:<24} {:>10}", f.field, short(f.estimate.value), interval(&f.estimate), short(f.start));
    }
    if let Some(note) = &fit.interval_note {
        let _ = writeln!(w, "  ({note})");
    }
    let _ = writeln!(
        w,
        "  rms relative error {:.2}%; {} after {} iterations: {} parameter sets, {} runs, {:.1} s\n",
        100.0 * fit.rms_relative_error,
        fit.stop,
        fit.iterations,
        fit.evaluations,
        fit.runs,
        seconds
    );
    let header = fit.points.first().map(|p| p.values.keys().cloned().collect::<Vec<_>>().join(", ")).unwrap_or_default();
    let _ = writeln!(w, "  {:<20} {:>12} {:>12} {:>9}  what holds it (hotrow)", header, "measured", "hotrow", "residual");
    for p in &fit.points {
        let _ = writeln!(
            w,
            "  {:<20} {:>12} {:>12} {:>9}  {}",
            values(&p.values),
            amount(p.measured),
            amount(p.simulated),
            signed_percent(p.residual),
            p.bottleneck.as_deref().unwrap_or("-")
        );
    }
    match &fit.usl {
        Some(u) => {
            let _ = writeln!(w, "\nUniversal Scalability Law over {} (a curve with no mechanism, fitted to the same points)", u.field);
            let _ = writeln!(w, "  {:<24} {:>10}  {:<24}", "coefficient", "fitted", "95% interval");
            for (name, e) in [("sigma (contention)", &u.sigma), ("kappa (crosstalk)", &u.kappa), ("lambda (one unit)", &u.lambda)] {
                let _ = writeln!(w, "  {:<24} {:>10}  {:<24}", name, short(e.value), interval(e));
            }
            match u.peak {
                Some(p) => {
                    let _ = writeln!(w, "  peak at {} = {}: {} {}", u.field, short(p.n), amount(p.x), fit.metric);
                }
                None => {
                    let _ = writeln!(w, "  no peak within reach (kappa ~ 0): it levels off towards lambda / sigma");
                }
            }
            let _ = writeln!(w, "  rms relative error {:.2}%", 100.0 * u.rms_relative_error);
        }
        None => {
            let _ = writeln!(w, "\n{}", fit.usl_note.as_deref().unwrap_or("USL: not fitted"));
        }
    }
    if !predictions.is_empty() {
        let header = predictions[0].values.keys().cloned().collect::<Vec<_>>().join(", ");
        let _ = writeln!(w, "\npredicted {} with the fitted fields: modelled, not measured", fit.metric);
        let _ = writeln!(w, "  (range: hotrow run again with each fitted field at either end of its 95% interval)");
        let _ = writeln!(w, "  {:<20} {:>12} {:>20} {:>12}  what holds it (hotrow)", header, "modelled", "range", "USL");
        for p in predictions {
            let usl = p.usl.map_or_else(|| "-".to_string(), amount);
            let range = match (p.low, p.high) {
                (Some(lo), Some(hi)) => format!("{} .. {}", amount(lo), amount(hi)),
                _ => "-".to_string(),
            };
            let _ = writeln!(
                w,
                "  {:<20} {:>12} {:>20} {:>12}  {}",
                values(&p.values),
                amount(p.simulated),
                range,
                usl,
                p.bottleneck.as_deref().unwrap_or("-")
            );
        }
    }
    w
}
