//! The tables the docs restate, written as Markdown from the core's own tables: the
//! presets, the workloads, the config fields, the metrics and the invariants. `docs/*.md` holds each
//! between markers naming the command, and `npm test` fails when one differs from what
//! the command prints now (`tests/cli/docs.test.mjs`; `npm run docs` rewrites them).

use std::fmt::Write;

/// A table cell: pipes escaped, line breaks folded.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

/// A value as code, unless empty.
fn code(text: &str) -> String {
    if text.is_empty() {
        String::new()
    } else {
        format!("`{}`", cell(text))
    }
}

/// `hotrow presets --markdown`.
pub fn presets() -> String {
    let mut o = String::from("| preset | what it runs |\n|---|---|\n");
    for (name, about) in hotrow::PRESETS {
        let _ = writeln!(o, "| `{name}` | {} |", cell(about));
    }
    o
}

/// `hotrow workloads --markdown`, from the list `hotrow workloads --json` prints.
pub fn workloads(list: &[serde_json::Value]) -> String {
    let mut o = String::from("| workload | what it runs |\n|---|---|\n");
    for w in list {
        let _ = writeln!(o, "| `{}` | {} |", w["name"].as_str().unwrap_or(""), cell(w["about"].as_str().unwrap_or("")));
    }
    o
}

/// `hotrow fields --markdown`, from the same JSON as `hotrow fields --json`.
pub fn fields(list: &serde_json::Value) -> String {
    let mut o = String::from("| field | values | default | live | meaning |\n|---|---|---|---|---|\n");
    for f in list.as_array().into_iter().flatten() {
        let kind = &f["kind"];
        let unit = f["unit"].as_str().unwrap_or("");
        let values = match kind["type"].as_str() {
            Some("int" | "number") => {
                format!("{} .. {}{}", kind["min"], kind["max"], if unit.is_empty() { String::new() } else { format!(" {unit}") })
            }
            Some("bool") => "`true`, `false`".into(),
            Some("choice") => {
                kind["values"].as_array().into_iter().flatten().filter_map(|v| v.as_str()).map(code).collect::<Vec<_>>().join(", ")
            }
            _ => "a list of faults".into(),
        };
        let default = match &f["default"] {
            serde_json::Value::String(s) => code(s),
            other => code(&other.to_string()),
        };
        let live = if f["live"].as_bool() == Some(true) { "live" } else { "" };
        let name = f["name"].as_str().unwrap_or("");
        let _ = writeln!(o, "| `{name}` | {values} | {default} | {live} | {} |", cell(f["about"].as_str().unwrap_or("")));
    }
    o
}

/// `hotrow metrics --markdown`.
pub fn metrics() -> String {
    let mut o = String::from("| metric | label | unit | shape | window | summary path | meaning |\n|---|---|---|---|---|---|---|\n");
    for m in hotrow::catalog::METRICS {
        let window = if m.window.is_some() { "yes" } else { "" };
        let path = m.summary.map_or(String::new(), code);
        let _ = writeln!(
            o,
            "| `{}` | {} | {} | {} | {window} | {path} | {} |",
            m.name,
            cell(m.label),
            code(m.unit),
            m.shape.name(),
            cell(m.about)
        );
    }
    o += "\nRenamed in 0.2.0 so that every name ends in its unit; the old names are read and written\n";
    o += "through 0.2.x (`run --json` and `summary()` carry both, a sweep writes the old columns last)\n";
    o += "and go in 0.3.0:\n\n| old name or path | now |\n|---|---|\n";
    for (old, new) in hotrow::catalog::RENAMED {
        let _ = writeln!(o, "| `{old}` | `{new}` |");
    }
    o
}

/// `hotrow invariants --markdown`.
pub fn invariants() -> String {
    let mut o = String::from("| invariant | what holds |\n|---|---|\n");
    for i in &hotrow::INVARIANTS {
        let _ = writeln!(o, "| `{}` | {} |", i.name, cell(i.promise));
    }
    o
}
