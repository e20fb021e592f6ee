//! Measured points: a CSV whose header names config fields (what varied between the
//! measurements) and one summary metric (what was measured), one row per measurement.
//!
//! ```text
//! dataNodes,insertsPerSecond
//! 2,21000
//! 4,38500
//! ```
//!
//! A cell is read as JSON where it parses as JSON (`4`, `true`), else as a string
//! (`ndbapi-insert`), as `--set` and `--vary` read values.

use crate::metric;
use hotrow::config::fields;
use serde_json::Value;

/// One measurement: the varied fields' values (in `Measured::fields` order) and the value
/// measured there.
#[derive(Clone, Debug, PartialEq)]
pub struct Point {
    pub values: Vec<Value>,
    pub measured: f64,
}

/// The parsed CSV.
#[derive(Clone, Debug, PartialEq)]
pub struct Measured {
    /// Config fields that vary between points, as dotted names (`dataNodes`, `cpu.scale`).
    pub fields: Vec<String>,
    /// The summary metric measured (`tpm`, `insertsPerSecond`, `latencyUs.p50`, ...).
    pub metric: String,
    pub points: Vec<Point>,
}

impl Measured {
    /// Parses the CSV text. Errors name the line and column a person must fix.
    pub fn parse(text: &str) -> Result<Measured, String> {
        let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).comment(Some(b'#')).from_reader(text.as_bytes());
        let header: Vec<String> = reader
            .headers()
            .map_err(|e| format!("measured points: cannot read the header line: {e}"))?
            .iter()
            .map(str::to_string)
            .collect();
        let (mut fields, mut metrics) = (Vec::new(), Vec::new());
        for (i, name) in header.iter().enumerate() {
            if name.is_empty() {
                return Err(format!("measured points: column {} has no name in the header", i + 1));
            }
            if fields::field(name).is_some() {
                fields.push(i);
            } else if metric::is_known(name) {
                metrics.push(i);
            } else {
                return Err(format!(
                    "measured points: column `{name}` is neither a config field (`hotrow fields` lists them) nor a summary metric ({})",
                    metric::EXAMPLES
                ));
            }
        }
        let metric = match metrics.as_slice() {
            [m] => *m,
            [] => return Err(format!("measured points: no column names a measured metric; add one, e.g. {}", metric::EXAMPLES)),
            many => {
                let names: Vec<&str> = many.iter().map(|&i| header[i].as_str()).collect();
                return Err(format!(
                    "measured points: one measured metric per file, and this one has {}: {}",
                    names.len(),
                    names.join(", ")
                ));
            }
        };
        let mut points = Vec::new();
        for row in reader.records() {
            let row = row.map_err(|e| format!("measured points: {e}"))?;
            let line = row.position().map_or(0, |p| p.line());
            let cell = |i: usize| row.get(i).unwrap_or("");
            let text = cell(metric);
            let measured: f64 =
                text.parse().map_err(|_| format!("measured points, line {line}: `{}` is `{text}`, not a number", header[metric]))?;
            if !(measured.is_finite() && measured > 0.0) {
                return Err(format!(
                    "measured points, line {line}: `{}` is {text}; a measured value must be above 0 (the fit compares relative errors)",
                    header[metric]
                ));
            }
            let values = fields
                .iter()
                .map(|&i| {
                    let v = cell(i);
                    if v.is_empty() {
                        Err(format!("measured points, line {line}: `{}` is empty", header[i]))
                    } else {
                        Ok(serde_json::from_str(v).unwrap_or_else(|_| Value::String(v.to_string())))
                    }
                })
                .collect::<Result<Vec<Value>, String>>()?;
            points.push(Point { values, measured });
        }
        if points.is_empty() {
            return Err("measured points: the file has a header but no rows".into());
        }
        Ok(Measured { fields: fields.iter().map(|&i| header[i].clone()).collect(), metric: header[metric].clone(), points })
    }

    /// The one field whose values differ between points, if exactly one does.
    pub fn single_varied(&self) -> Option<usize> {
        let varied: Vec<usize> =
            (0..self.fields.len()).filter(|&f| self.points.iter().any(|p| p.values[f] != self.points[0].values[f])).collect();
        match varied.as_slice() {
            [one] => Some(*one),
            _ => None,
        }
    }
}
