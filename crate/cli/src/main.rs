//! `hotrow`: runs the simulation headless. It parses arguments, prints, and nothing else;
//! every number comes from the `hotrow` library.

use args::{parse_set, Cli, Command};
use clap::Parser;
use hotrow::{Config, Simulation, Summary};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod args;
mod bench;
mod equivalence;
mod explain;
mod fit;
mod grid;
mod import;
mod lists;
mod markdown;
mod measure;
mod report;
mod results;
mod scenario;
mod swarm;
mod sweep;
mod sweep_table;
mod table;
mod trace;
mod workloads;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { scenario, json, csv, remedies, fail_check_for_tests } => run(&scenario, json, csv, remedies, fail_check_for_tests),
        Command::Fit { scenario, measured, fit, seeds, max_iterations, predict, jobs, json } => {
            let options = hotrow_fit::Options { fit, seeds, max_iterations };
            fit::run(&scenario, &measured, options, &predict, jobs, json)
        }
        Command::Report { scenario, out, fragment, svg, vary, jobs, remedies } => {
            let what = report::Asked { out: out.as_deref(), fragment, svg: svg.as_deref(), remedies };
            report::command(&scenario, what, vary.as_deref(), jobs)
        }
        Command::Sweep { scenario, varies, seeds, jobs, shard, shards, out, resume, csv: _, json } => {
            sweep::command(&scenario, &varies, seeds, jobs, sweep::Sharding { shard, shards, out, resume }, json)
        }
        Command::Merge { dir, json } => results::merge_command(&dir, json),
        Command::Trace { scenario, baseline, baseline_sets } => trace::command(&scenario, baseline.as_deref(), &baseline_sets),
        Command::Fields { json, markdown } => lists::fields(json, markdown),
        Command::Metrics { json, markdown } => lists::metrics(json, markdown),
        Command::Presets { json, markdown } => lists::presets(json, markdown),
        Command::Invariants { json, markdown } => lists::invariants(json, markdown),
        Command::Import { files, dialect, scale, json } => import::main(&files, dialect.as_deref(), scale, json),
        Command::Measure { postgres, mysql, script, setup, own, clients, seconds, warmup_seconds, scale, out, allow_remote } => {
            let server = match measure::Server::parse(postgres.as_deref(), mysql.as_deref()) {
                Ok(s) => s,
                Err(e) => {
                    eprintln!("error: {e}");
                    return ExitCode::from(2);
                }
            };
            let req = measure::Request {
                server,
                script_file: String::new(),
                script: String::new(),
                setup: None,
                own,
                clients,
                seconds,
                warmup_seconds,
                scale,
                allow_remote,
            };
            measure::command(req, &script, setup.as_deref(), out.as_deref())
        }
        Command::Workloads { json, markdown } => {
            workloads::print(json, markdown);
            ExitCode::SUCCESS
        }
        Command::Validate { seed, json } => validate(seed, json),
        Command::Swarm { seeds, start, json, baseline } => swarm::run(start, seeds, json, baseline.as_deref()),
        Command::Equivalence { baseline, presets, seeds, duration_ms, warmup_ms, sets, baseline_sets, jobs, json } => {
            let parse = |list: &[String]| list.iter().map(|s| parse_set(s)).collect::<Result<Vec<_>, String>>();
            let (sets, baseline_sets) = match (parse(&sets), parse(&baseline_sets)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(msg), _) | (_, Err(msg)) => return bad_input(&msg),
            };
            if seeds < 2 {
                return bad_input(&format!("--seeds {seeds}: at least 2 (an interval needs a spread)"));
            }
            let presets = every_preset_unless(presets);
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            equivalence::command(
                &equivalence::Options { baseline: &baseline, presets, seeds, duration_ms, warmup_ms, sets, baseline_sets, jobs },
                json,
            )
        }
        Command::Bench { presets, duration_ms, reps, baseline, json } => bench::command(
            &bench::Options { presets: every_preset_unless(presets), duration_ms, reps: reps.max(1), baseline: baseline.as_deref() },
            json,
        ),
    }
}

/// The presets named, or every preset when none is.
fn every_preset_unless(presets: Vec<String>) -> Vec<String> {
    if presets.is_empty() {
        hotrow::PRESETS.iter().map(|(n, _)| n.to_string()).collect()
    } else {
        presets
    }
}

/// `hotrow run`: one run, printed as a table, CSV of its windows or JSON, with its remedies.
fn run(scenario: &args::Scenario, json: bool, csv: bool, remedies: bool, fail_check: bool) -> ExitCode {
    let config = match scenario.config() {
        Ok(config) => config,
        Err(msg) => return bad_input(&msg),
    };
    let (summary, windows) = match run_with_progress(config, fail_check) {
        Ok(done) => done,
        Err(broken) => {
            eprintln!("error: {broken}");
            return ExitCode::from(1);
        }
    };
    if csv {
        if let Err(e) = table::windows_csv(std::io::stdout().lock(), &windows) {
            eprintln!("error: writing CSV: {e}");
            return ExitCode::from(1);
        }
    } else if json {
        println!("{}", serde_json::to_string_pretty(&summary).expect("summary serialises"));
    } else {
        print!("{}", table::render(&summary));
    }
    if remedies {
        let base = scenario.to_json().expect("it gave the config above");
        print!("{}", explain::remedies(&base, &summary, |c| run_with_progress(c, false).map(|(s, _)| s)));
    }
    if summary.duplicate_ids > 0 {
        eprintln!("error: {} duplicate ids issued", summary.duplicate_ids);
        return ExitCode::from(1);
    }
    ExitCode::SUCCESS
}

/// `hotrow validate`: the model against the bug report's figures; fails when one misses.
fn validate(seed: u64, json: bool) -> ExitCode {
    if let Err(e) = Config::from_json(&serde_json::json!({ "seed": seed })) {
        return bad_input(&e.to_string());
    }
    let report = hotrow::validate::run(seed, |name| eprintln!("validate: running {name}"));
    if json {
        println!("{}", serde_json::to_string_pretty(&report).expect("report serialises"));
    } else {
        print!("{}", table::validation(&report));
    }
    if report.pass {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    }
}

pub(crate) fn bad_input(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Runs to the end in slices, showing progress on stderr once the run passes a second.
/// Returns the summary and the windows still in the ring, or the broken invariant (a bug
/// in hotrow), named with the seed that reproduces it.
pub(crate) fn run_with_progress(config: Config, fail_check: bool) -> Result<(Summary, Vec<hotrow::Window>), String> {
    let seed = config.seed;
    let run = std::panic::catch_unwind(move || simulate(config, fail_check));
    run.unwrap_or_else(|panic| {
        let msg = panic.downcast_ref::<String>().cloned().or_else(|| panic.downcast_ref::<&str>().map(|s| s.to_string()));
        Err(format!("internal error (a bug in hotrow; seed {seed}): {}", msg.unwrap_or_else(|| "panic".into())))
    })
}

fn simulate(config: Config, fail_check: bool) -> Result<(Summary, Vec<hotrow::Window>), String> {
    let end = config.end_ns();
    let mut sim = Simulation::new(config);
    let started = Instant::now();
    // A terminal gets one line redrawn 4 times a second; a log gets a line every 5 s.
    let terminal = std::io::stderr().is_terminal();
    let every = if terminal { 0.25 } else { 5.0 };
    let mut next_report = 1.0;
    let slice = (end / 200).max(1);
    while !sim.finished() {
        sim.advance(slice.min(end - sim.now_ns()), u64::MAX);
        let elapsed = started.elapsed().as_secs_f64();
        if elapsed >= next_report {
            next_report = elapsed + every;
            let line = format!(
                "simulating: {:3}% ({:.1} of {:.1} simulated s)",
                100 * sim.now_ns() / end,
                sim.now_ns() as f64 / 1e9,
                end as f64 / 1e9
            );
            if terminal {
                eprint!("\r{line}")
            } else {
                eprintln!("{line}")
            }
            let _ = std::io::stderr().flush();
        }
    }
    if terminal && next_report > 1.0 {
        eprintln!();
    }
    let checked = if fail_check { Err("deliberate failure requested by a test".to_string()) } else { sim.check_invariants() };
    if let Err(broken) = checked {
        return Err(format!("invariant broken at the end of the run (a bug in hotrow; seed {}): {broken}", sim.config().seed));
    }
    Ok((sim.summary(), sim.windows().cloned().collect()))
}
