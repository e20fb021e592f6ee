//! The reference lists: `hotrow fields`, `metrics`, `presets` and `invariants`, each as a
//! table, JSON or the Markdown the documents are generated from.

use crate::{markdown, table};
use hotrow::Config;
use serde_json::Value;
use std::process::ExitCode;

pub fn fields(json: bool, markdown: bool) -> ExitCode {
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

pub fn metrics(json: bool, markdown: bool) -> ExitCode {
    if markdown {
        print!("{}", markdown::metrics());
    } else if json {
        println!("{}", serde_json::to_string_pretty(&hotrow::catalog::describe()).expect("metrics serialise"));
    } else {
        print!("{}", table::metrics());
    }
    ExitCode::SUCCESS
}

pub fn presets(json: bool, markdown: bool) -> ExitCode {
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

pub fn invariants(json: bool, markdown: bool) -> ExitCode {
    if markdown {
        print!("{}", markdown::invariants());
    } else if json {
        let list: Vec<Value> = hotrow::INVARIANTS.iter().map(|i| serde_json::json!({ "name": i.name, "promise": i.promise })).collect();
        println!("{}", serde_json::to_string_pretty(&list).expect("invariants serialise"));
    } else {
        for i in &hotrow::INVARIANTS {
            println!("{:<38} {}", i.name, i.promise);
        }
    }
    ExitCode::SUCCESS
}
