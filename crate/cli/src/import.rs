//! `hotrow import FILE...` and `--workload schema.sql,script.sql`: SQL to a workload spec
//! (crate/sql), its assumptions said.

use hotrow_sql::{import, Dialect, Imported, Options, Source};
use serde_json::Value;
use std::process::ExitCode;

/// Whether a `--workload` value names SQL files (each ends in `.sql`, or `.csv` for a
/// statement digest table, weights aside).
pub fn is_sql(arg: &str) -> bool {
    arg.split(',').all(|f| {
        let name = f.split('@').next().unwrap_or("").to_ascii_lowercase();
        name.ends_with(".sql") || name.ends_with(".csv")
    })
}

/// The files of `FILE[@WEIGHT]` arguments.
fn sources(files: &[&str]) -> Result<Vec<Source>, String> {
    files
        .iter()
        .map(|arg| {
            let (path, weight) = match arg.rsplit_once('@') {
                Some((p, w)) => (
                    p,
                    Some(
                        w.parse::<u64>()
                            .ok()
                            .filter(|w| (1..=1_000_000).contains(w))
                            .ok_or_else(|| format!("{arg}: the weight after @ must be a whole number from 1 to 1000000"))?,
                    ),
                ),
                None => (*arg, None),
            };
            let text = std::fs::read_to_string(path).map_err(|e| format!("{path}: cannot be read: {e}"))?;
            Ok(Source { name: path.to_string(), text, weight })
        })
        .collect()
}

fn imported(files: &[&str], dialect_name: Option<&str>, scale: u64) -> Result<Imported, String> {
    let sources = sources(files)?;
    let options = Options { dialect: Dialect::named(dialect_name, &sources).map_err(|e| format!("--{e}"))?, scale, ..Options::default() };
    import(&sources, &options).map_err(|e| e.to_string())
}

/// `--workload a.sql,b.sql`: the imported spec; its assumptions go to stderr, counted.
pub fn workload(arg: &str) -> Result<Value, String> {
    let files: Vec<&str> = arg.split(',').collect();
    let got = imported(&files, None, 1).map_err(|e| format!("--workload {arg}: {e}"))?;
    if !got.assumptions.is_empty() {
        eprintln!("hotrow: {arg}: imported with {} assumptions (`hotrow import {}` lists them)", got.assumptions.len(), files.join(" "));
    }
    Ok(got.spec)
}

/// `hotrow import`.
pub fn main(files: &[String], dialect_name: Option<&str>, scale: u64, json: bool) -> ExitCode {
    let files: Vec<&str> = files.iter().map(String::as_str).collect();
    let got = match imported(&files, dialect_name, scale) {
        Ok(g) => g,
        Err(e) => return crate::bad_input(&e),
    };
    if json {
        println!("{}", serde_json::to_string_pretty(&got).expect("the import serializes"));
        return ExitCode::SUCCESS;
    }
    let spec = &got.spec;
    println!("imported workload {}", spec["name"].as_str().unwrap_or(""));
    println!("  tables");
    for t in spec["tables"].as_array().into_iter().flatten() {
        let rows = t["rows"].as_u64().unwrap_or(0);
        println!(
            "    {:<28} {:>12} row{}  {}",
            t["name"].as_str().unwrap_or(""),
            rows,
            if rows == 1 { " " } else { "s" },
            t["key"].as_str().unwrap_or("")
        );
    }
    println!("  transactions");
    for t in spec["transactions"].as_array().into_iter().flatten() {
        let ops: Vec<String> = t["statements"]
            .as_array()
            .into_iter()
            .flatten()
            .map(|s| {
                format!(
                    "{} {}{}",
                    s["op"].as_str().unwrap_or(""),
                    s["table"].as_str().unwrap_or(""),
                    if s["rows"].as_u64().unwrap_or(1) > 1 { format!(" x{}", s["rows"]) } else { String::new() }
                )
            })
            .collect();
        println!("    {:<20} weight {:<6} {}", t["name"].as_str().unwrap_or(""), t["weight"].as_u64().unwrap_or(1), ops.join(", "));
    }
    println!("  assumptions");
    for a in &got.assumptions {
        println!("    {}: {}", a.at, a.text);
    }
    println!("\nRun it: hotrow run --workload {} (or save `hotrow import --json`'s spec)", files.join(","));
    ExitCode::SUCCESS
}
