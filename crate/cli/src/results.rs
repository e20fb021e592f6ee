//! A sweep's results on disk, past one machine. `sweep --out DIR` appends one JSON line per
//! run (grid point and seed) to `DIR/shard-I-of-N.jsonl` as runs finish, keyed by a hash of
//! the run's effective config (its seed included) and the build; `--resume` runs only what
//! DIR does not hold yet; `hotrow merge DIR` prints the whole grid's CSV (or JSON) in grid
//! order, refusing lines of two builds or two grids (or of another build than its own), a
//! line whose key is not its run's, and a grid with runs missing.
//! `--shard auto` reads the slice from Slurm's array variables or a Kubernetes Indexed Job's.

use crate::grid::{self, Outcome, Run, Shard, Vary};
use crate::sweep_table;
use hotrow::Fnv;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::path::{Path, PathBuf};

/// What makes the grid: every line carries it, so `merge` rebuilds the grid from any line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Grid {
    /// The config every run starts from (`--preset`, `--config`, `--set`, ...).
    pub base: Map<String, Value>,
    /// `--vary`s, in order: `[field, [values]]`.
    pub vary: Vec<(String, Vec<Value>)>,
    pub seeds: u64,
}

impl Grid {
    pub fn varies(&self) -> Vec<Vary> {
        self.vary.iter().map(|(field, values)| Vary { field: field.clone(), values: values.clone() }).collect()
    }

    /// A hash of the grid's definition: lines of one grid share it.
    fn id(&self) -> String {
        hash(&serde_json::to_string(self).expect("a grid serialises"))
    }
}

/// One run's result, one line of a shard's file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Line {
    /// Hash of the build and the run's effective config, its seed included.
    pub key: String,
    pub build: String,
    /// Hash of the grid's definition (`Grid`).
    pub grid_id: String,
    /// The run's place in the grid, and the grid's size.
    pub index: usize,
    pub total: usize,
    pub seed: u64,
    /// Each summary metric of the metric table, in its order (the CSV's columns).
    pub metrics: Vec<f64>,
    pub bottleneck: String,
    pub digest: String,
    pub grid: Grid,
}

/// This build: the version and a hash of the executable, so that results of two builds of
/// one version are told apart too.
pub fn build() -> String {
    let exe = std::env::current_exe().and_then(std::fs::read).unwrap_or_default();
    let mut h = Fnv::default();
    h.feed(&exe);
    format!("{}+{:016x}", env!("CARGO_PKG_VERSION"), h.value())
}

fn hash(text: &str) -> String {
    let mut h = Fnv::default();
    h.feed(text.as_bytes());
    format!("{:016x}", h.value())
}

/// A run's key: the build, the grid, its place in it and its effective config (every field,
/// its seed included).
pub fn key(build: &str, grid_id: &str, index: usize, run: &Run) -> String {
    hash(&format!("{build}\n{grid_id}\n{index}\n{}", run.config_json()))
}

/// `--shard auto`: from Slurm's `SLURM_ARRAY_TASK_ID` (less `SLURM_ARRAY_TASK_MIN`, out of
/// `SLURM_ARRAY_TASK_COUNT` unless `--shards` says), else a Kubernetes Indexed Job's
/// `JOB_COMPLETION_INDEX` (0-based, out of `--shards N`, its completions).
pub fn auto_shard(env: impl Fn(&str) -> Option<String>, shards: Option<usize>) -> Result<Shard, String> {
    let num = |name: &str| -> Result<Option<usize>, String> {
        env(name).map(|v| v.trim().parse().map_err(|_| format!("--shard auto: {name}={v} is not a whole number"))).transpose()
    };
    let (index, count) = if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
        let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0).min(id);
        let count = shards.or(num("SLURM_ARRAY_TASK_COUNT")?).ok_or("--shard auto: SLURM_ARRAY_TASK_COUNT is not set: give --shards N")?;
        (id - min + 1, count)
    } else if let Some(i) = num("JOB_COMPLETION_INDEX")? {
        (i + 1, shards.ok_or("--shard auto with JOB_COMPLETION_INDEX: give --shards N (the Job's completions)")?)
    } else {
        return Err("--shard auto: neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX is set; give --shard I/N".into());
    };
    Shard::parse(&format!("{index}/{count}")).map_err(|e| format!("--shard auto ({index} of {count}): {e}"))
}

/// Every line of every `*.jsonl` file in `dir`, with the file and line it came from.
fn read_dir(dir: &Path) -> Result<Vec<(String, Line)>, String> {
    let mut files: Vec<PathBuf> = std::fs::read_dir(dir)
        .map_err(|e| format!("cannot read {}: {e}", dir.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "jsonl"))
        .collect();
    files.sort();
    let mut lines = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).map_err(|e| format!("cannot read {}: {e}", f.display()))?;
        for (n, l) in text.lines().enumerate().filter(|(_, l)| !l.trim().is_empty()) {
            // A line cut short by a kill is the last of its file: it is run again.
            match serde_json::from_str(l) {
                Ok(line) => lines.push((format!("{}:{}", f.display(), n + 1), line)),
                Err(_) if n + 1 == text.lines().count() => {}
                Err(e) => return Err(format!("{}:{}: not a result line: {e}", f.display(), n + 1)),
            }
        }
    }
    Ok(lines)
}

/// `sweep --out DIR [--resume]`: runs this shard's runs that DIR lacks, appending each chunk
/// of finished runs to the shard's file. Says how many it computed and reused.
pub fn run_into(
    dir: &Path,
    grid: &Grid,
    runs: &[Run],
    range: std::ops::Range<usize>,
    shard: Shard,
    jobs: usize,
    resume: bool,
) -> Result<(), String> {
    std::fs::create_dir_all(dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    let file = dir.join(format!("shard-{}-of-{}.jsonl", shard.index, shard.count));
    let build = build();
    let done: BTreeSet<String> = if resume {
        read_dir(dir)?.into_iter().filter(|(_, l)| l.build == build).map(|(_, l)| l.key).collect()
    } else if std::fs::metadata(&file).is_ok_and(|m| m.len() > 0) {
        return Err(format!("{} exists: add --resume to run only what it lacks, or give another --out", file.display()));
    } else {
        BTreeSet::new()
    };
    let grid_id = grid.id();
    let todo: Vec<usize> = range.clone().filter(|&i| !done.contains(&key(&build, &grid_id, i, &runs[i]))).collect();
    cut_partial_line(&file)?;
    let mut out =
        std::fs::OpenOptions::new().create(true).append(true).open(&file).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    // Chunks of a few runs per thread: a kill loses at most one chunk.
    for chunk in todo.chunks(jobs.max(1) * 2) {
        let outcomes = grid::run_each(runs, chunk, jobs);
        let mut text = String::new();
        for (&i, o) in chunk.iter().zip(outcomes) {
            let line = Line {
                key: key(&build, &grid_id, i, &runs[i]),
                build: build.clone(),
                grid_id: grid_id.clone(),
                index: i,
                total: runs.len(),
                seed: runs[i].seed,
                metrics: o.values,
                bottleneck: o.bottleneck,
                digest: o.digest,
                grid: grid.clone(),
            };
            text += &serde_json::to_string(&line).expect("a line serialises");
            text.push('\n');
        }
        out.write_all(text.as_bytes()).and_then(|_| out.flush()).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    eprintln!(
        "sweep: shard {} of {}: computed {}, reused {} ({})",
        shard.index,
        shard.count,
        todo.len(),
        range.len() - todo.len(),
        file.display()
    );
    Ok(())
}

/// A line a kill cut short ends the file: it goes, so that the next line starts a line.
fn cut_partial_line(file: &Path) -> Result<(), String> {
    let Ok(bytes) = std::fs::read(file) else { return Ok(()) };
    if bytes.last().is_some_and(|&b| b != b'\n') {
        let keep = bytes.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
        let f = std::fs::OpenOptions::new().write(true).open(file).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
        f.set_len(keep as u64).map_err(|e| format!("cannot write {}: {e}", file.display()))?;
    }
    Ok(())
}

/// `hotrow merge DIR`: the grid's runs and their outcomes, in grid order, from every shard's
/// file; refused when the lines come from two builds or two grids, or runs are missing.
pub fn merge(dir: &Path) -> Result<(Grid, Vec<Run>, Vec<Outcome>), String> {
    let lines = read_dir(dir)?;
    let Some((_, first)) = lines.first() else { return Err(format!("{}: no result lines (*.jsonl)", dir.display())) };
    for (what, of) in [("builds", (|l: &Line| l.build.clone()) as fn(&Line) -> String), ("grids", |l: &Line| l.grid_id.clone())] {
        let mut seen: BTreeMap<String, (usize, &str)> = BTreeMap::new();
        for (at, l) in &lines {
            seen.entry(of(l)).or_insert((0, at)).0 += 1;
        }
        if seen.len() > 1 {
            let list: Vec<String> = seen.iter().map(|(k, (n, at))| format!("{k} ({n} lines, first at {at})")).collect();
            return Err(format!("{}: results of {} {what}, not merged: {}", dir.display(), seen.len(), list.join("; ")));
        }
    }
    // The metrics are a list in the metric table's order: only this build reads them right.
    let build = build();
    if first.build != build {
        return Err(format!(
            "{}: results of build {}, and this hotrow is {build}: merge with the hotrow that made them",
            dir.display(),
            first.build
        ));
    }
    let grid = first.grid.clone();
    let grid_id = first.grid_id.clone();
    let runs = grid::grid(&grid.base, &grid.varies(), grid.seeds)?;
    let mut outcomes: Vec<Option<Outcome>> = vec![None; runs.len()];
    for (at, l) in lines {
        let ours = runs.get(l.index).is_some_and(|r| l.total == runs.len() && l.key == key(&build, &grid_id, l.index, r));
        if !ours {
            return Err(format!("{at}: run {} of {} is not this grid's (its key differs)", l.index, l.total));
        }
        let slot = &mut outcomes[l.index];
        if slot.as_ref().is_some_and(|o: &Outcome| o.digest != l.digest) {
            return Err(format!("{at}: run {} was measured twice, with two digests", l.index));
        }
        *slot = Some(Outcome { values: l.metrics, bottleneck: l.bottleneck, digest: l.digest });
    }
    let missing: Vec<usize> = outcomes.iter().enumerate().filter(|(_, o)| o.is_none()).map(|(i, _)| i).collect();
    if let Some(&at) = missing.first() {
        return Err(format!(
            "{}: {} of {} runs missing (the first, run {at}): run the shards that lack them with --resume",
            dir.display(),
            missing.len(),
            runs.len()
        ));
    }
    Ok((grid, runs, outcomes.into_iter().map(|o| o.expect("none missing")).collect()))
}

/// `hotrow merge DIR [--json]`: the whole grid's CSV (or JSON), or why not (exit 1).
pub fn merge_command(dir: &Path, json: bool) -> std::process::ExitCode {
    match merge(dir) {
        Ok((grid, runs, outcomes)) => sweep_table::print(&grid.varies(), &runs, &outcomes, json, true),
        Err(msg) => {
            eprintln!("error: {msg}");
            std::process::ExitCode::from(1)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn auto_shards_read_slurm_and_kubernetes_variables() {
        let env =
            |vars: &'static [(&'static str, &'static str)]| move |k: &str| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string());
        let slurm =
            auto_shard(env(&[("SLURM_ARRAY_TASK_ID", "3"), ("SLURM_ARRAY_TASK_MIN", "0"), ("SLURM_ARRAY_TASK_COUNT", "4")]), None).unwrap();
        assert_eq!((slurm.index, slurm.count), (4, 4));
        let one_based =
            auto_shard(env(&[("SLURM_ARRAY_TASK_ID", "1"), ("SLURM_ARRAY_TASK_MIN", "1"), ("SLURM_ARRAY_TASK_COUNT", "16")]), None)
                .unwrap();
        assert_eq!((one_based.index, one_based.count), (1, 16));
        let k8s = auto_shard(env(&[("JOB_COMPLETION_INDEX", "0")]), Some(4)).unwrap();
        assert_eq!((k8s.index, k8s.count), (1, 4));
        assert!(auto_shard(env(&[("JOB_COMPLETION_INDEX", "0")]), None).unwrap_err().contains("--shards N"));
        assert!(auto_shard(env(&[]), None).unwrap_err().contains("neither SLURM_ARRAY_TASK_ID nor JOB_COMPLETION_INDEX"));
        assert!(auto_shard(env(&[("JOB_COMPLETION_INDEX", "4")]), Some(4)).is_err(), "index 5 of 4");
    }
}
