//! `hotrow workloads`: DBT2 and the shipped workload specs; and `--workload FILE|NAME`.

use serde_json::Value;

pub fn print(json: bool, markdown: bool) {
    let list = hotrow::spec::describe();
    let list = list.as_array().expect("a list");
    if markdown {
        print!("{}", crate::markdown::workloads(list));
        return;
    }
    if json {
        println!("{}", serde_json::to_string_pretty(&list).expect("specs serialise"));
        return;
    }
    for w in list {
        println!("{:<16} {}", w["name"].as_str().unwrap_or(""), w["about"].as_str().unwrap_or(""));
    }
    println!("\nRun one with `hotrow run --workload NAME`; `hotrow workloads --json` prints each spec,");
    println!("a starting point for your own (`hotrow run --workload my-spec.json`).");
}

/// The `workload` value `--workload` gives: a workload's name, or the spec in file `arg`.
pub fn value(arg: &str) -> Result<Value, String> {
    if hotrow::config::WORKLOAD_NAMES.contains(&arg) {
        return Ok(Value::String(arg.to_string()));
    }
    if crate::import::is_sql(arg) {
        return crate::import::workload(arg);
    }
    let text = std::fs::read_to_string(arg).map_err(|e| {
        format!("--workload {arg}: not a workload name ({}) and not a readable file: {e}", hotrow::config::WORKLOAD_NAMES.join(", "))
    })?;
    match serde_json::from_str(&text) {
        // Any JSON goes to the config, whose error names the path (`workload` for a value
        // that is not a spec object).
        Ok(v) => Ok(v),
        Err(e) => Err(format!("--workload {arg}: not valid JSON: {e}")),
    }
}
