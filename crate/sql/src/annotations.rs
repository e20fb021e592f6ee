//! What SQL cannot say, said in comments: `-- hotrow: key=value, key=value` (on a line of
//! its own, or after a statement's `;`) applies to the statement that follows it, however
//! the one before it is formatted. One that cannot apply (a key the statement after it does
//! not take, inside a statement, after the last) is an error where it stands. The keys:
//! - before `CREATE TABLE`: `rows=N`, the rows the table starts with; `values=N`, how
//!   many values the column of its `PARTITION BY KEY (col)` takes when that column is not
//!   its whole key (DBT2's `w_id`: the warehouses);
//! - before `BEGIN` / `START TRANSACTION` (or an autocommit statement): `name=...` and
//!   `weight=N`, the transaction's name and its share of the mix; `client=w_id`, a
//!   parameter each client keeps (its value: client number mod the values of the
//!   partitioning column it is given to; a DBT2 terminal's warehouse); `sort_keys=true`,
//!   that it takes the rows it locks in key order (the spec's `sortKeys`: the application
//!   sorts its ids before it updates them, the remedy for a lock-order deadlock);
//! - before a row statement: `rows=N`, the rows it touches when its `WHERE` does not say
//!   (a non-key predicate); `key=DIST`, how its key's value is drawn, when the SQL cannot
//!   say (a `?` parameter is uniform otherwise): `uniform`, `zipfian(THETA)`,
//!   `hotspot(FRACTION, SHARE)`, `exponential(PARAMETER)`, `gaussian(PARAMETER)`, as the
//!   spec language's key choices; `remote=SHARE`, the share of its rows whose partitioning
//!   column takes another value than the parameter's (TPC-C's remote warehouse);
//!   `repeat=MIN..MAX` (or `repeat=N`) with `statements=N`, that it and the statements after
//!   it run as a block a drawn number of times (New-Order's `repeat=5..15, statements=3`);
//!   `share=SHARE`, that it (or its block) runs in that share of the transactions.

use crate::{At, ImportError};

/// One `-- hotrow:` line: its pairs, each with where its key starts.
#[derive(Clone, Debug)]
pub struct Annotation {
    pub line: u64,
    /// The column of its `--`.
    pub column: u64,
    pub pairs: Vec<(String, String, At)>,
}

const KEYS: &[&str] = &["rows", "values", "name", "weight", "client", "sort_keys", "key", "remote", "repeat", "statements", "share"];

/// Every `-- hotrow:` comment of `text` (`comments`: where its `--` comments start), in order; an unknown key or a pair without `=` is
/// refused where it stands.
pub fn scan(file: &str, text: &str, comments: &[(u64, u64)]) -> Result<Vec<Annotation>, ImportError> {
    let mut out = Vec::new();
    for (i, line) in text.lines().enumerate() {
        let line_no = i as u64 + 1;
        // The line's `--` comment, where the tokenizer found one (its column counts characters).
        let Some(&(_, column)) = comments.iter().find(|(l, _)| *l == line_no) else { continue };
        let Some((dash, _)) = line.char_indices().nth(column.saturating_sub(1) as usize) else { continue };
        let Some(rest) = line[dash..].strip_prefix("--").map(str::trim_start).and_then(|r| r.strip_prefix("hotrow:")) else { continue };
        let base = line.len() - rest.len();
        let mut pairs = Vec::new();
        let mut offset = 0;
        for part in split_top(rest) {
            let lead = part.len() - part.trim_start().len();
            let at = At { file: file.into(), line: line_no, column: (base + offset + lead) as u64 + 1 };
            offset += part.len() + 1;
            let part = part.trim();
            if part.is_empty() {
                continue;
            }
            let Some((k, v)) = part.split_once('=') else {
                return Err(ImportError { at, message: format!("`{part}`: an annotation is key=value ({})", KEYS.join(", ")) });
            };
            let (k, v) = (k.trim(), v.trim());
            if !KEYS.contains(&k) {
                return Err(ImportError { at, message: format!("`{k}`: not an annotation key; the keys are {}", KEYS.join(", ")) });
            }
            pairs.push((k.to_string(), v.to_string(), at));
        }
        out.push(Annotation { line: line_no, column: dash as u64 + 1, pairs });
    }
    Ok(out)
}

/// Splits at the commas outside parentheses (`key=hotspot(0.01, 0.9), rows=3`; a pgbench
/// function's arguments too).
pub(crate) fn split_top(text: &str) -> Vec<&str> {
    let (mut depth, mut start, mut out) = (0i32, 0, Vec::new());
    for (i, c) in text.char_indices() {
        match c {
            '(' => depth += 1,
            ')' => depth -= 1,
            ',' if depth == 0 => {
                out.push(&text[start..i]);
                start = i + 1;
            }
            _ => {}
        }
    }
    out.push(&text[start..]);
    out
}

/// A `key=` annotation's key choice.
pub fn key_choice(v: &str, at: &At) -> Result<hotrow::spec::KeyChoice, ImportError> {
    use hotrow::spec::KeyChoice;
    let fail = || ImportError {
        at: at.clone(),
        message: format!(
            "key={v}: a key choice is uniform, zipfian(THETA), hotspot(FRACTION, SHARE), exponential(PARAMETER) or gaussian(PARAMETER)"
        ),
    };
    let (name, args) = match v.split_once('(') {
        Some((n, rest)) => (n.trim(), rest.strip_suffix(')').ok_or_else(fail)?),
        None => (v.trim(), ""),
    };
    let nums: Vec<f64> = if args.trim().is_empty() {
        Vec::new()
    } else {
        args.split(',').map(|x| x.trim().parse::<f64>()).collect::<Result<_, _>>().map_err(|_| fail())?
    };
    let choice = match (name, nums.as_slice()) {
        ("uniform", []) => KeyChoice::Uniform,
        ("zipfian", &[theta]) => KeyChoice::Zipfian { theta },
        ("hotspot", &[hot_fraction, hot_share]) => KeyChoice::Hotspot { hot_fraction, hot_share },
        ("exponential", &[parameter]) => KeyChoice::Exponential { parameter },
        ("gaussian", &[parameter]) => KeyChoice::Gaussian { parameter },
        _ => return Err(fail()),
    };
    // The core's own checks of the parameters, named here.
    let json = serde_json::to_value(&choice).expect("a key choice serializes");
    let spec = serde_json::json!({ "name": "k", "api": "mysqld", "tables": [{ "name": "t", "rows": 1, "key": "primaryKey" }],
        "transactions": [{ "name": "x", "statements": [{ "op": "read", "table": "t", "key": json }] }] });
    hotrow::spec::Spec::from_json(&spec, "key").map_err(|e| ImportError { at: at.clone(), message: format!("key={v}: {}", e.allowed) })?;
    Ok(choice)
}

/// A key choice as a `key=` annotation writes it (`hotspot(0.2, 0.8)`).
pub fn key_text(k: &hotrow::spec::KeyChoice) -> String {
    use hotrow::spec::KeyChoice;
    match k {
        KeyChoice::Uniform => "uniform".into(),
        KeyChoice::Zipfian { theta } => format!("zipfian({theta})"),
        KeyChoice::Hotspot { hot_fraction, hot_share } => format!("hotspot({hot_fraction}, {hot_share})"),
        KeyChoice::Exponential { parameter } => format!("exponential({parameter})"),
        KeyChoice::Gaussian { parameter } => format!("gaussian({parameter})"),
        other => serde_json::to_string(other).expect("a key choice serializes"),
    }
}

/// The annotations between `after` and `start` (line, column): those of the statement
/// that starts at `start`, the statement before it having ended at `after`. Each is marked
/// in `claimed`.
pub fn for_statement(all: &[Annotation], claimed: &mut [bool], after: (u64, u64), start: (u64, u64)) -> Vec<(String, String, At)> {
    let mut out = Vec::new();
    for (a, c) in all.iter().zip(claimed.iter_mut()) {
        if (a.line, a.column) > after && (a.line, a.column) < start {
            *c = true;
            out.extend(a.pairs.iter().cloned());
        }
    }
    out
}

/// Where annotation key `key` may stand: before which statements.
pub fn goes_before(key: &str) -> &'static str {
    match key {
        "values" => "a CREATE TABLE",
        "rows" => "a CREATE TABLE or a row statement",
        "name" | "weight" | "client" | "sort_keys" => "a BEGIN (or a statement that autocommits)",
        _ => "a row statement (INSERT, UPDATE, DELETE, SELECT, MERGE)",
    }
}

/// The keys a statement of each kind takes.
pub const TABLE_KEYS: &[&str] = &["rows", "values"];
pub const TRANSACTION_KEYS: &[&str] = &["name", "weight", "client", "sort_keys"];
pub const ROW_KEYS: &[&str] = &["rows", "key", "remote", "repeat", "statements", "share"];

/// A whole-number value of a pair, within `lo..=hi`.
pub fn number(v: &str, at: &At, key: &str, lo: u64, hi: u64) -> Result<u64, ImportError> {
    let n: Option<u64> = v.replace('_', "").parse().ok();
    n.filter(|n| (lo..=hi).contains(n))
        .ok_or_else(|| ImportError { at: at.clone(), message: format!("{key}={v}: must be a whole number from {lo} to {hi}") })
}

/// A share from `0` to `1` (`remote=0.01`); `share=` is more than 0.
pub fn share(v: &str, at: &At, key: &str) -> Result<f64, ImportError> {
    let x: Option<f64> = v.parse().ok();
    let low = if key == "share" { "more than 0" } else { "from 0" };
    x.filter(|x| (0.0..=1.0).contains(x) && (key != "share" || *x > 0.0))
        .ok_or_else(|| ImportError { at: at.clone(), message: format!("{key}={v}: must be a share {low} to 1 (0.01 is 1%)") })
}

/// `repeat=MIN..MAX` or `repeat=N`: the fewest and most runs of a block.
pub fn runs(v: &str, at: &At) -> Result<(u64, u64), ImportError> {
    let max_repeat = hotrow::spec::MAX_REPEAT;
    let fail = || ImportError { at: at.clone(), message: format!("repeat={v}: runs are MIN..MAX or N, 0 <= MIN <= MAX <= {max_repeat}") };
    let (lo, hi) = v.split_once("..").unwrap_or((v, v));
    let n = |x: &str| x.trim().replace('_', "").parse::<u64>().ok().filter(|n| *n <= max_repeat);
    match (n(lo), n(hi)) {
        (Some(lo), Some(hi)) if lo <= hi => Ok((lo, hi)),
        _ => Err(fail()),
    }
}
