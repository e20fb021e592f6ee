//! Row statements: `INSERT` (one or many `VALUES` rows), `UPDATE`, `DELETE` and `SELECT`
//! (`FOR UPDATE` too) become row operations on one table, with where their key comes from:
//! a parameter (`:aid`, `?`, `$1`, `@w_id`), a constant, the clock (`CURDATE()`, `NOW()`,
//! `DATE_TRUNC('hour', NOW())`: a time bucket), or nothing the importer can read (a non-key
//! predicate: an assumption).

use sqlparser::ast::{
    AssignmentTarget, BinaryOperator, Expr, FromTable, InTarget, LockType, SetExpr, Statement, TableFactor, TableObject, Value,
};

use crate::schema::name_of;

/// Where the rows' keys come from.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyFrom {
    /// A parameter, by name (`?` and `$n` are named by their text).
    Param(String),
    /// A literal, as written (`42`, `'EU'`): the same literal is the same row.
    Constant(String),
    /// The clock, truncated to a bucket of this many ms (a day for `CURDATE()`).
    Clock { bucket_ms: u64, function: String },
    /// A predicate that is not on the key (or none): the rows are not known.
    Unknown(String),
    /// An insert: a new row.
    New,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Op {
    Read,
    Update,
    Insert,
    Delete,
}

/// One statement as a row operation.
#[derive(Clone, Debug)]
pub struct Access {
    pub op: Op,
    pub table: String,
    pub rows: u64,
    pub key: KeyFrom,
    /// An UPDATE's assigned columns.
    pub set: Vec<String>,
    /// The key columns (and the partitioning column) the statement gives a value, and
    /// whether some key column is left without one (a range of rows: `rows=` says how many).
    pub bound: Vec<(String, KeyFrom)>,
    pub partial: bool,
    /// How its key is drawn, as a `key=` annotation says (else from the SQL).
    pub dist: Option<hotrow::spec::KeyChoice>,
    /// What was assumed reading it.
    pub notes: Vec<String>,
}

/// A table's primary key columns and the column it is partitioned by, if any.
pub type Keys = (Vec<String>, Option<String>);

/// The row operation of a DML statement, `key_columns(table)` giving a table's key
/// columns; `Err` says why the statement cannot be one.
pub fn access(s: &Statement, key_columns: &dyn Fn(&str) -> Option<Keys>) -> Result<Access, String> {
    match s {
        Statement::Insert(i) => {
            let TableObject::TableName(name) = &i.table else { return Err("INSERT into a table function: not a table".into()) };
            let mut bound = Vec::new();
            let rows = match i.source.as_deref().map(|q| q.body.as_ref()) {
                Some(SetExpr::Values(v)) => {
                    if let Some(first) = v.rows.first() {
                        bound = i.columns.iter().zip(&first.content).map(|(c, e)| (name_of(c), value(e))).collect();
                    }
                    v.rows.len() as u64
                }
                Some(_) => {
                    return Err("INSERT ... SELECT: the rows it inserts are not known; write the rows as VALUES (one or many)".into())
                }
                None => 1,
            };
            let table = name_of(name);
            Ok(Access {
                op: Op::Insert,
                table,
                rows,
                key: KeyFrom::New,
                set: Vec::new(),
                bound,
                partial: false,
                dist: None,
                notes: Vec::new(),
            })
        }
        Statement::Update(u) => {
            let table = relation(&u.table.relation)?;
            if !u.table.joins.is_empty() || u.from.is_some() {
                return Err("UPDATE of joined tables: update one table by its key".into());
            }
            let mut a = keyed(Op::Update, table, u.selection.as_ref(), key_columns)?;
            a.set = u
                .assignments
                .iter()
                .flat_map(|x| match &x.target {
                    AssignmentTarget::ColumnName(c) => vec![name_of(c)],
                    AssignmentTarget::Tuple(cs) => cs.iter().map(name_of).collect(),
                })
                .collect();
            Ok(a)
        }
        Statement::Delete(d) => {
            let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &d.from;
            let [one] = from.as_slice() else { return Err("DELETE from several tables: delete from one table by its key".into()) };
            keyed(Op::Delete, relation(&one.relation)?, d.selection.as_ref(), key_columns)
        }
        Statement::Query(q) => {
            let SetExpr::Select(sel) = q.body.as_ref() else {
                return Err("a query that is not one SELECT (a UNION, VALUES): not a row operation".into());
            };
            let Some(first) = sel.from.first() else { return Err("a SELECT without FROM reads no row".into()) };
            let mut a = keyed(Op::Read, relation(&first.relation)?, sel.selection.as_ref(), key_columns)?;
            if sel.from.len() > 1 || !first.joins.is_empty() {
                a.notes.push(format!("a join: only {} is read (its first table)", a.table));
            }
            if q.locks.iter().any(|l| l.lock_type == LockType::Update) {
                a.op = Op::Update;
                a.notes.push("SELECT ... FOR UPDATE: a locking read, taken as an update (an exclusive row lock held to commit)".into());
            }
            Ok(a)
        }
        other => Err(format!("`{}`: not a row statement (INSERT, UPDATE, DELETE, SELECT)", first_words(&other.to_string()))),
    }
}

fn first_words(text: &str) -> String {
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

fn relation(r: &TableFactor) -> Result<String, String> {
    match r {
        TableFactor::Table { name, .. } => Ok(name_of(name)),
        _ => Err("a derived table or table function: name a table".into()),
    }
}

/// A statement on `table` whose rows `selection` picks.
fn keyed(op: Op, table: String, selection: Option<&Expr>, key_columns: &dyn Fn(&str) -> Option<Keys>) -> Result<Access, String> {
    let (pk, by) = key_columns(&table).ok_or_else(|| format!("table `{table}` is not in the schema (give its CREATE TABLE first)"))?;
    let mut found: Vec<(String, KeyFrom, u64)> = Vec::new();
    if let Some(e) = selection {
        terms(e, &mut |column, key, rows| {
            let wanted = pk.contains(&column) || by.as_ref() == Some(&column);
            if wanted && !found.iter().any(|(c, _, _)| *c == column) {
                found.push((column, key, rows));
            }
        });
    }
    let bound: Vec<(String, KeyFrom)> = found.iter().map(|(c, k, _)| (c.clone(), k.clone())).collect();
    let partial = pk.iter().any(|c| !found.iter().any(|(f, _, _)| f == c));
    // The key: the first key column compared to a parameter, else one compared at all; the
    // partitioning column last (it says where the row is, the others which row).
    let on_key = |i: &usize| pk.contains(&found[*i].0) && (by.as_ref() != Some(&found[*i].0) || pk.len() == 1);
    let param = |i: &usize| matches!(found[*i].1, KeyFrom::Param(_));
    let order: Vec<usize> = (0..found.len()).filter(on_key).collect();
    let pick = order.iter().copied().find(param).or(order.first().copied()).or((0..found.len()).find(|i| pk.contains(&found[*i].0)));
    let Some(i) = pick else {
        let why = match selection {
            None => "no WHERE".to_string(),
            Some(e) => {
                format!("`WHERE {e}` is not on the key ({})", if pk.is_empty() { "a hidden key".to_string() } else { pk.join(", ") })
            }
        };
        return Ok(Access {
            op,
            table,
            rows: 1,
            key: KeyFrom::Unknown(why),
            set: Vec::new(),
            bound,
            partial: false,
            dist: None,
            notes: Vec::new(),
        });
    };
    let (_, key, rows) = found.swap_remove(i);
    Ok(Access { op, table, rows, key, set: Vec::new(), bound, partial, dist: None, notes: Vec::new() })
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

fn column(e: &Expr) -> Option<String> {
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

fn value(e: &Expr) -> KeyFrom {
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
