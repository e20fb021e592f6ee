//! The scenario a command runs (`--preset`, `--config`, `--workload`, `--set`,
//! `--precision`) resolved to the library's JSON, and `KEY=VALUE` settings.

use crate::workloads;
use hotrow::{Config, ConfigError};
use serde_json::{Map, Value};

#[derive(clap::Args)]
pub struct Scenario {
    /// Start from this preset (see `hotrow presets`); default bug39267.
    #[arg(long)]
    preset: Option<String>,
    /// The database engine: `ndb`, `postgres` or `innodb`. Without --preset or --config, the
    /// run starts from the engine's own preset (`bug39267`, `postgres`, `innodb`: a cluster
    /// and costs calibrated for it).
    #[arg(long, value_name = "ENGINE")]
    engine: Option<String>,
    /// Read config fields from this JSON file, or from standard input with `-` (a
    /// `preset` field in it is honoured).
    #[arg(long, value_name = "FILE")]
    config: Option<String>,
    /// The workload: a name (`hotrow workloads` lists them), a JSON file holding a
    /// workload spec, or SQL files, comma-separated (`schema.sql,script.sql@WEIGHT`, as
    /// `hotrow import` reads them). Applied after --config and --preset, before --set.
    #[arg(long, value_name = "FILE|NAME|SQL,...")]
    workload: Option<String>,
    /// Set one field, e.g. `cacheSize=1000` or `network.latencyUs=20`. The value is read as
    /// JSON when it parses as JSON, else as a string. Repeatable; applied last.
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Stop once the 95% interval of the precision metric is within this fraction of it
    /// (0.02: ±2%), after at least 10 measured windows, durationMs at most (the field
    /// `precision`; the summary says whether it was met).
    #[arg(long, value_name = "FRACTION")]
    precision: Option<f64>,
    /// The figure the precision is of (the field `precisionMetric`; default headline: TPM for
    /// DBT2, inserts/s for a workload that only inserts, transactions/s otherwise):
    /// transactionsPerSecond, insertsPerSecond, tpm, latencyMeanUs, ...
    #[arg(long = "precision-metric", value_name = "METRIC")]
    precision_metric: Option<String>,
    /// `auto`: warmupMs is the least, and MSER-5 over the precision metric's windows (the
    /// headline's read as transactions/s) finds where the transient ended (the field
    /// `warmup`; `fixed` by default).
    #[arg(long, value_name = "fixed|auto")]
    warmup: Option<String>,
}

impl Scenario {
    /// The JSON object the library resolves: file, then preset flag, then `--set`s.
    pub fn to_json(&self) -> Result<Value, String> {
        let mut obj = Map::new();
        if let Some(path) = &self.config {
            let text = if path == "-" {
                std::io::read_to_string(std::io::stdin()).map_err(|e| format!("cannot read --config - (standard input): {e}"))?
            } else {
                std::fs::read_to_string(path).map_err(|e| format!("cannot read --config {path}: {e}"))?
            };
            match serde_json::from_str(&text) {
                Ok(Value::Object(m)) => obj = m,
                Ok(_) => return Err(format!("--config {path}: must hold one JSON object")),
                Err(e) => return Err(format!("--config {path}: not valid JSON: {e}")),
            }
        }
        if let Some(p) = &self.preset {
            obj.insert("preset".into(), Value::String(p.clone()));
        }
        if let Some(name) = &self.engine {
            let engine: hotrow::config::Engine =
                serde_json::from_value(Value::String(name.clone())).map_err(|e| format!("--engine {name}: {e}"))?;
            if self.preset.is_none() && self.config.is_none() {
                obj.insert("preset".into(), Value::String(engine.preset().into()));
            }
            obj.insert("engine".into(), Value::String(name.clone()));
        }
        if let Some(w) = &self.workload {
            obj.insert("workload".into(), workloads::value(w)?);
        }
        if let Some(p) = self.precision {
            obj.insert("precision".into(), p.into());
        }
        if let Some(m) = &self.precision_metric {
            obj.insert("precisionMetric".into(), Value::String(m.clone()));
        }
        if let Some(w) = &self.warmup {
            obj.insert("warmup".into(), Value::String(w.clone()));
        }
        for s in &self.sets {
            let (key, value) = parse_set(s)?;
            hotrow::config::set_dotted(&mut obj, &key, value).map_err(|e| e.to_string())?;
        }
        Ok(Value::Object(obj))
    }

    pub fn config(&self) -> Result<Config, String> {
        Config::from_json(&self.to_json()?).map_err(|e: ConfigError| e.to_string())
    }
}

/// `KEY=VALUE`, the value read as JSON when it parses, else as a string.
pub fn parse_set(s: &str) -> Result<(String, Value), String> {
    let Some((key, raw)) = s.split_once('=') else {
        return Err(format!("--set {s}: expected KEY=VALUE, e.g. --set cacheSize=1000"));
    };
    let value = serde_json::from_str(raw).unwrap_or_else(|_| Value::String(raw.to_string()));
    Ok((key.trim().to_string(), value))
}
