//! `hotrow sweep`: a grid of configurations (every combination of the `--vary` lists,
//! times `--seeds` seeds, grid.rs), run in parallel on threads, printed in grid order
//! (sweep_table.rs). `--shard I/N` runs only the I-th of N contiguous slices of the grid,
//! so a sweep too big for one machine runs as an array job and the CSV slices concatenate
//! into one table (or, with `--out DIR`, keyed result files that resume and merge:
//! `results.rs`).

use crate::args::Scenario;
use crate::grid::{grid, run, slice, Shard, Vary};
use crate::sweep_table::print;
use crate::{bad_input, results};
use serde_json::Value;
use std::process::ExitCode;
use std::time::Instant;

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
