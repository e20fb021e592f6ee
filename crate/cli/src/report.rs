//! `hotrow report`: a run as one HTML file that needs no JavaScript (crate/report), or one
//! of its figures as SVG, written to a file or standard output.

use crate::args::Scenario;
use crate::grid;
use serde_json::Value;
use std::process::ExitCode;

type Remedies = [(hotrow::explain::Remedy, Result<hotrow::Summary, String>)];

/// What `hotrow report` was asked to write: where, as a fragment, one figure as SVG, with
/// the remedies' runs.
pub struct Asked<'a> {
    pub out: Option<&'a str>,
    pub fragment: bool,
    pub svg: Option<&'a str>,
    pub remedies: bool,
}

/// `hotrow report`: a run's report (or a sweep's, with `vary`).
pub fn command(scenario: &Scenario, asked: Asked, vary: Option<&str>, jobs: Option<usize>) -> ExitCode {
    if let Some(name) = asked.svg.filter(|n| !hotrow_report::FIGURES.contains(n)) {
        return crate::bad_input(&format!("--svg {name}: the figures are {}", hotrow_report::FIGURES.join(", ")));
    }
    if let Some(vary) = vary {
        return of_sweep(scenario, vary, jobs, asked.out, asked.fragment);
    }
    let config = match scenario.config() {
        Ok(config) => config,
        Err(msg) => return crate::bad_input(&msg),
    };
    match crate::run_with_progress(config, false) {
        Ok((summary, windows)) => {
            let remedies = if asked.remedies {
                let base = scenario.to_json().expect("it gave the config above");
                crate::explain::run_remedies(&base, &summary, |c| crate::run_with_progress(c, false).map(|(s, _)| s))
            } else {
                Vec::new()
            };
            write(&summary, &windows, &remedies, asked.out, asked.fragment, asked.svg)
        }
        Err(broken) => {
            eprintln!("error: {broken}");
            ExitCode::from(1)
        }
    }
}

/// Writes the report of a run whose summary and windows are given (and the remedies' runs).
pub fn write(
    summary: &hotrow::Summary,
    windows: &[hotrow::Window],
    remedies: &Remedies,
    out: Option<&str>,
    fragment: bool,
    svg: Option<&str>,
) -> ExitCode {
    let summary = serde_json::to_value(summary).expect("the summary serialises");
    let windows = hotrow::catalog::windows_csv(windows);
    let as_json = |s: &hotrow::Summary| serde_json::to_value(s).expect("the summary serialises");
    // A remedy's cost that no number shows goes with its label.
    let label = |r: &hotrow::explain::Remedy| match &r.warning {
        Some(w) => format!("{} ({w})", r.label),
        None => r.label.clone(),
    };
    let remedies = remedies.iter().map(|(r, run)| (label(r), run.as_ref().map(as_json).map_err(Clone::clone))).collect();
    let options = hotrow_report::Options { fragment, remedies };
    let text = match svg {
        Some(name) => hotrow_report::svg(name, &summary, &windows),
        None => hotrow_report::html(&summary, &windows, &options),
    };
    match text {
        Ok(t) => emit(&t, out),
        Err(e) => crate::bad_input(&e),
    }
}

/// `--vary FIELD=V1,V2,...`: one run per value, on threads, and the sweep's report.
pub fn of_sweep(scenario: &Scenario, vary: &str, jobs: Option<usize>, out: Option<&str>, fragment: bool) -> ExitCode {
    let base = match scenario.to_json() {
        Ok(Value::Object(m)) => m,
        Ok(_) => unreachable!("to_json builds an object"),
        Err(msg) => return crate::bad_input(&msg),
    };
    let vary = match grid::Vary::parse(vary) {
        Ok(v) => v,
        Err(msg) => return crate::bad_input(&msg),
    };
    let runs = match grid::grid(&base, std::slice::from_ref(&vary), 1) {
        Ok(r) => r,
        Err(msg) => return crate::bad_input(&msg),
    };
    let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
    if jobs == 0 {
        return crate::bad_input("--jobs 0: give at least 1");
    }
    let summaries = grid::run_with(&runs, 0..runs.len(), jobs, |s| serde_json::to_value(s).expect("the summary serialises"));
    let points: Vec<(Value, Value)> = vary.values.iter().cloned().zip(summaries).collect();
    match hotrow_report::sweep_html(&vary.field, &points, &hotrow_report::Options { fragment, ..Default::default() }) {
        Ok(t) => emit(&t, out),
        Err(e) => crate::bad_input(&e),
    }
}

fn emit(text: &str, out: Option<&str>) -> ExitCode {
    match out {
        None | Some("-") => print!("{text}"),
        Some(path) => {
            if let Err(e) = std::fs::write(path, text) {
                eprintln!("error: {path}: cannot be written: {e}");
                return ExitCode::from(1);
            }
            eprintln!("hotrow: wrote {path}");
        }
    }
    ExitCode::SUCCESS
}
