//! Which rows a statement names: the key columns a predicate (`WHERE`, `ON`) or a row of
//! values gives, and where each value comes from (a parameter, a constant, the clock).

use sqlparser::ast::{BinaryOperator, Expr, InTarget, TableFactor, Value};

use super::{Access, KeyFrom, Keys, Op};
use crate::schema::name_of;

pub(crate) fn relation(r: &TableFactor) -> Result<String, String> {
    match r {
        TableFactor::Table { name, .. } => Ok(name_of(name)),
        _ => Err("a derived table or table function: name a table".into()),
    }
}

/// A statement on `table` whose rows `selection` picks.
pub(crate) fn keyed(op: Op, table: String, selection: Option<&Expr>, key_columns: &dyn Fn(&str) -> Option<Keys>) -> Result<Access, String> {
    let (pk, by, _, _) =
        key_columns(&table).ok_or_else(|| format!("table `{table}` is not in the schema (give its CREATE TABLE first)"))?;
    let mut found: Vec<(String, KeyFrom, u64)> = Vec::new();
    if let Some(e) = selection {
        terms(e, &mut |column, key, rows| {
            let wanted = pk.contains(&column) || by.as_ref() == Some(&column);
            if wanted && !found.iter().any(|(c, _, _)| *c == column) {
                found.push((column, key, rows));
            }
        });
    }
    let why = || match selection {
        None => "no WHERE".to_string(),
        Some(e) if ranges_key(e, &pk) => format!("`WHERE {e}`: a range of the key ({}) whose length the SQL does not say", pk.join(", ")),
        Some(e) => format!("`WHERE {e}` is not on the key ({})", if pk.is_empty() { "a hidden key".to_string() } else { pk.join(", ") }),
    };
    Ok(picked(op, table, found, &pk, by.as_ref(), &why))
}

/// The row operation on `table` whose key columns `pk` (and partitioning column `by`) are
/// given the values `found`; `why` says why no key is known when none is given.
pub(crate) fn picked(
    op: Op,
    table: String,
    mut found: Vec<(String, KeyFrom, u64)>,
    pk: &[String],
    by: Option<&String>,
    why: &dyn Fn() -> String,
) -> Access {
    let bound: Vec<(String, KeyFrom)> = found.iter().map(|(c, k, _)| (c.clone(), k.clone())).collect();
    let partial = pk.iter().any(|c| !found.iter().any(|(f, _, _)| f == c));
    // The key: the first key column compared to a parameter, else one compared at all; the
    // partitioning column last (it says where the row is, the others which row).
    let on_key = |i: &usize| pk.contains(&found[*i].0) && (by != Some(&found[*i].0) || pk.len() == 1);
    let param = |i: &usize| matches!(found[*i].1, KeyFrom::Param(_));
    let order: Vec<usize> = (0..found.len()).filter(on_key).collect();
    let pick = order.iter().copied().find(param).or(order.first().copied()).or((0..found.len()).find(|i| pk.contains(&found[*i].0)));
    let Some(i) = pick else {
        let mut a = Access::new(op, table, 1, KeyFrom::Unknown(why()));
        a.bound = bound;
        return a;
    };
    let (_, key, rows) = found.swap_remove(i);
    let mut a = Access::new(op, table, rows, key);
    a.bound = bound;
    a.partial = partial;
    a
}

/// Whether a predicate's `AND`s hold a range of a key column (`id BETWEEN ? AND ?`, `id > ?`).
fn ranges_key(e: &Expr, pk: &[String]) -> bool {
    let key = |x: &Expr| column(x).is_some_and(|c| pk.contains(&c));
    match e {
        Expr::Nested(inner) => ranges_key(inner, pk),
        Expr::BinaryOp { left, op: BinaryOperator::And, right } => ranges_key(left, pk) || ranges_key(right, pk),
        Expr::Between { expr, negated: false, .. } => key(expr),
        Expr::BinaryOp { left, op: BinaryOperator::Gt | BinaryOperator::GtEq | BinaryOperator::Lt | BinaryOperator::LtEq, right } => {
            key(left) || key(right)
        }
        _ => false,
    }
}

/// Calls `f(column, key, rows)` for each `column = value` and `column IN (...)` of the
/// predicate's `AND`s.
fn terms(e: &Expr, f: &mut dyn FnMut(String, KeyFrom, u64)) {
    match e {
        Expr::Nested(inner) => terms(inner, f),
        Expr::BinaryOp { left, op: BinaryOperator::And, right } => {
            terms(left, f);
            terms(right, f);
        }
        Expr::BinaryOp { left, op: BinaryOperator::Eq, right } => {
            if let Some(c) = column(left) {
                f(c, value(right), 1);
            } else if let Some(c) = column(right) {
                f(c, value(left), 1);
            }
        }
        Expr::In { expr, target: InTarget::List(list), negated: false, .. } => {
            if let (Some(c), Some(first)) = (column(expr), list.first()) {
                f(c, value(first), list.len() as u64);
            }
        }
        _ => {}
    }
}

pub(crate) fn column(e: &Expr) -> Option<String> {
    match e {
        Expr::Identifier(i) if !i.value.starts_with('@') => Some(i.value.to_lowercase()),
        Expr::CompoundIdentifier(parts) => parts.last().map(|i| i.value.to_lowercase()),
        Expr::Nested(inner) => column(inner),
        _ => None,
    }
}

/// The clock's functions and the bucket their value changes by (`DATE_TRUNC`'s is its unit's).
const CLOCK: &[(&str, u64)] = &[
    ("curdate", DAY),
    ("current_date", DAY),
    ("utc_date", DAY),
    ("date", DAY),
    ("now", SECOND),
    ("current_timestamp", SECOND),
    ("sysdate", SECOND),
    ("localtimestamp", SECOND),
    ("utc_timestamp", SECOND),
    ("unix_timestamp", SECOND),
    ("date_trunc", DAY),
];
const SECOND: u64 = 1000;
const DAY: u64 = 86_400_000;
/// `DATE_TRUNC`'s units.
const UNITS: &[(&str, u64)] = &[
    ("second", SECOND),
    ("minute", 60 * SECOND),
    ("hour", 3_600_000),
    ("day", DAY),
    ("week", 7 * DAY),
    ("month", 30 * DAY),
    ("quarter", 91 * DAY),
    ("year", 365 * DAY),
];

/// The bucket of a clock function's value: `DATE_TRUNC`'s unit, else the function's own. A
/// function of a value (`DATE(x)`, `DATE_TRUNC('hour', x)`, `UNIX_TIMESTAMP(x)`) is the clock
/// only when `x` is; else it is what `x` is (`DATE(?)` a parameter).
fn clock(func: &sqlparser::ast::Function, name: &str) -> Option<KeyFrom> {
    use sqlparser::ast::{FunctionArg, FunctionArgExpr, FunctionArguments};
    let &(_, own) = CLOCK.iter().find(|(n, _)| *n == name)?;
    let args: Vec<&Expr> = match &func.args {
        FunctionArguments::List(list) => list
            .args
            .iter()
            .filter_map(|a| match a {
                FunctionArg::Unnamed(FunctionArgExpr::Expr(e)) => Some(e),
                _ => None,
            })
            .collect(),
        _ => Vec::new(),
    };
    let of_value = matches!(name, "date" | "date_trunc" | "unix_timestamp");
    if let (true, Some(last)) = (of_value, args.last()) {
        let inner = value(last);
        if !matches!(inner, KeyFrom::Clock { .. }) {
            return Some(inner);
        }
    }
    let text = func.to_string().to_lowercase();
    let bucket_ms =
        if name == "date_trunc" { UNITS.iter().find(|(u, _)| text.contains(&format!("'{u}'"))).map_or(own, |&(_, ms)| ms) } else { own };
    Some(KeyFrom::Clock { bucket_ms, function: func.to_string() })
}

pub(crate) fn value(e: &Expr) -> KeyFrom {
    match e {
        Expr::Value(v) => match &v.value {
            Value::Placeholder(p) => KeyFrom::Param(p.trim_start_matches([':', '@']).to_string()),
            other => KeyFrom::Constant(other.to_string()),
        },
        Expr::Identifier(i) if i.value.starts_with('@') => KeyFrom::Param(i.value.trim_start_matches('@').to_string()),
        Expr::Nested(inner) | Expr::Cast { expr: inner, .. } => value(inner),
        Expr::Function(func) => {
            let name = name_of(&func.name);
            // DATE(NOW()) and the like: the outer function sets the bucket.
            clock(func, &name).unwrap_or_else(|| KeyFrom::Unknown(format!("`{e}` is neither a parameter, a constant nor the clock")))
        }
        Expr::TypedString(t) => KeyFrom::Constant(t.to_string()),
        other => KeyFrom::Unknown(format!("`{other}` is neither a parameter nor a constant")),
    }
}
