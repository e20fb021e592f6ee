//! `hotrow`: runs the simulation headless. It parses arguments, prints, and nothing else;
//! every number comes from the `hotrow` library.

use args::{parse_set, Cli, Command};
use clap::Parser;
use hotrow::{Config, Simulation, Summary};
use serde_json::{Map, Value};
use std::io::{IsTerminal, Write};
use std::process::ExitCode;
use std::time::Instant;

mod args;
mod bench;
mod equivalence;
mod explain;
mod fit;
mod import;
mod markdown;
mod report;
mod results;
mod scenario;
mod swarm;
mod sweep;
mod table;
mod trace;
mod workloads;

fn main() -> ExitCode {
    let cli = Cli::parse();
    match cli.command {
        Command::Run { scenario, json, csv, remedies, fail_check_for_tests } => match scenario.config() {
            Ok(config) => {
                let (summary, windows) = match run_with_progress(config, fail_check_for_tests) {
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
            Err(msg) => bad_input(&msg),
        },
        Command::Fit { scenario, measured, fit, seeds, max_iterations, predict, jobs, json } => {
            let options = hotrow_fit::Options { fit, seeds, max_iterations };
            fit::run(&scenario, &measured, options, &predict, jobs, json)
        }
        Command::Report { scenario, out, fragment, svg, vary, jobs, remedies } => {
            if let Some(name) = svg.as_deref().filter(|n| !hotrow_report::FIGURES.contains(n)) {
                return bad_input(&format!("--svg {name}: the figures are {}", hotrow_report::FIGURES.join(", ")));
            }
            if let Some(vary) = vary {
                return report::of_sweep(&scenario, &vary, jobs, out.as_deref(), fragment);
            }
            match scenario.config() {
                Ok(config) => match run_with_progress(config, false) {
                    Ok((summary, windows)) => {
                        let remedies = if remedies {
                            let base = scenario.to_json().expect("it gave the config above");
                            explain::run_remedies(&base, &summary, |c| run_with_progress(c, false).map(|(s, _)| s))
                        } else {
                            Vec::new()
                        };
                        report::write(&summary, &windows, &remedies, out.as_deref(), fragment, svg.as_deref())
                    }
                    Err(broken) => {
                        eprintln!("error: {broken}");
                        ExitCode::from(1)
                    }
                },
                Err(msg) => bad_input(&msg),
            }
        }
        Command::Sweep { scenario, varies, seeds, jobs, shard, shards, out, resume, csv: _, json } => {
            sweep::command(&scenario, &varies, seeds, jobs, sweep::Sharding { shard, shards, out, resume }, json)
        }
        Command::Merge { dir, json } => results::merge_command(&dir, json),
        Command::Trace { scenario, baseline, baseline_sets } => {
            // Read once: `--config -` is standard input.
            let json = match scenario.to_json() {
                Ok(v) => v,
                Err(msg) => return bad_input(&msg),
            };
            let config = match Config::from_json(&json) {
                Ok(c) => c,
                Err(e) => return bad_input(&e.to_string()),
            };
            match baseline {
                Some(path) => {
                    if let Some(bad) = baseline_sets.iter().find_map(|s| parse_set(s).err()) {
                        return bad_input(&bad);
                    }
                    trace::against(config, &json, &path, &baseline_sets)
                }
                None => trace::print(config),
            }
        }
        Command::Fields { json, markdown } => {
            let fields = hotrow::config::fields::describe();
            if markdown {
                print!("{}", markdown::fields(&fields));
            } else if json {
                println!("{}", serde_json::to_string_pretty(&fields).expect("fields serialise"));
            } else {
                print!("{}", table::fields(&fields));
            }
            ExitCode::SUCCESS
        }
        Command::Metrics { json, markdown } => {
            if markdown {
                print!("{}", markdown::metrics());
            } else if json {
                println!("{}", serde_json::to_string_pretty(&hotrow::catalog::describe()).expect("metrics serialise"));
            } else {
                print!("{}", table::metrics());
            }
            ExitCode::SUCCESS
        }
        Command::Presets { json, markdown } => {
            if markdown {
                print!("{}", markdown::presets());
            } else if json {
                let list: Vec<Value> = hotrow::PRESETS
                    .iter()
                    .map(|(name, description)| {
                        let config = Config::from_preset(name).expect("presets are valid");
                        serde_json::json!({ "name": name, "description": description, "config": config })
                    })
                    .collect();
                println!("{}", serde_json::to_string_pretty(&list).expect("presets serialise"));
            } else {
                for (name, about) in hotrow::PRESETS {
                    println!("{name:<18} {about}");
                }
            }
            ExitCode::SUCCESS
        }
        Command::Invariants { json, markdown } => {
            if markdown {
                print!("{}", markdown::invariants());
            } else if json {
                let list: Vec<Value> =
                    hotrow::INVARIANTS.iter().map(|i| serde_json::json!({ "name": i.name, "promise": i.promise })).collect();
                println!("{}", serde_json::to_string_pretty(&list).expect("invariants serialise"));
            } else {
                for i in &hotrow::INVARIANTS {
                    println!("{:<38} {}", i.name, i.promise);
                }
            }
            ExitCode::SUCCESS
        }
        Command::Import { files, dialect, scale, json } => import::main(&files, dialect.as_deref(), scale, json),
        Command::Workloads { json, markdown } => {
            workloads::print(json, markdown);
            ExitCode::SUCCESS
        }
        Command::Validate { seed, json } => {
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
        Command::Swarm { seeds, start, json, baseline } => swarm::run(start, seeds, json, baseline.as_deref()),
        Command::Equivalence { baseline, presets, seeds, duration_ms, warmup_ms, sets, baseline_sets, jobs, json } => {
            let parse = |list: &[String]| list.iter().map(|s| parse_set(s)).collect::<Result<Vec<_>, String>>();
            let (sets, baseline_sets) = match (parse(&sets), parse(&baseline_sets)) {
                (Ok(a), Ok(b)) => (a, b),
                (Err(msg), _) | (_, Err(msg)) => return bad_input(&msg),
            };
            let presets = if presets.is_empty() { hotrow::PRESETS.iter().map(|(n, _)| n.to_string()).collect() } else { presets };
            if seeds < 2 {
                return bad_input(&format!("--seeds {seeds}: at least 2 (an interval needs a spread)"));
            }
            let jobs = jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()));
            let options = equivalence::Options { baseline: &baseline, presets, seeds, duration_ms, warmup_ms, sets, baseline_sets, jobs };
            // Every config both sides will run must be valid before anything runs.
            for p in &options.presets {
                let mut m = Map::new();
                m.insert("preset".into(), Value::String(p.clone()));
                m.insert("durationMs".into(), duration_ms.into());
                m.insert("warmupMs".into(), warmup_ms.into());
                for (k, v) in options.sets.iter().chain(&options.baseline_sets) {
                    if let Err(e) = hotrow::config::set_dotted(&mut m, k, v.clone()) {
                        return bad_input(&e.to_string());
                    }
                }
                if let Err(e) = Config::from_json(&Value::Object(m)) {
                    return bad_input(&e.to_string());
                }
            }
            let started = Instant::now();
            let report = equivalence::run(&options, |done, total| {
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
                        print!("{}", equivalence::render(&r));
                    }
                    if r.equal {
                        ExitCode::SUCCESS
                    } else {
                        ExitCode::from(1)
                    }
                }
                Err(msg) => bad_input(&msg),
            }
        }
        Command::Bench { presets, duration_ms, reps, baseline, json } => {
            let presets = if presets.is_empty() { hotrow::PRESETS.iter().map(|(n, _)| n.to_string()).collect() } else { presets };
            let options = bench::Options { presets, duration_ms, reps: reps.max(1), baseline: baseline.as_deref() };
            match bench::run(&options, |what| eprintln!("bench: {what}")) {
                Ok(results) if json => {
                    println!("{}", serde_json::to_string_pretty(&results).expect("bench results serialise"));
                    ExitCode::SUCCESS
                }
                Ok(results) => {
                    print!("{}", bench::render(&results));
                    ExitCode::SUCCESS
                }
                Err(msg) => bad_input(&msg),
            }
        }
    }
}

pub(crate) fn bad_input(msg: &str) -> ExitCode {
    eprintln!("error: {msg}");
    ExitCode::from(2)
}

/// Runs to the end in slices, showing progress on stderr once the run passes a second.
/// Returns the summary and the windows still in the ring, or the broken invariant (a bug
/// in hotrow), named with the seed that reproduces it.
fn run_with_progress(config: Config, fail_check: bool) -> Result<(Summary, Vec<hotrow::Window>), String> {
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
