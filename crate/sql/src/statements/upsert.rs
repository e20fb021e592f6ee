//! INSERT in all its forms: `VALUES` rows, a `SELECT` of known rows, a sequence's next
//! value as the key, and the upserts, each read as the row operation it performs on the
//! cluster: PostgreSQL's `ON CONFLICT ... DO UPDATE / DO NOTHING`, MySQL's `ON DUPLICATE
//! KEY UPDATE`, `INSERT IGNORE` and `REPLACE INTO`, and `MERGE` (PostgreSQL 15+, SQL:2003).
//!
//! An upsert whose conflict key is given a value (a constant, a parameter, the clock) finds
//! that row: it is locked and updated when it exists, inserted when it does not. A counter
//! row exists after its first insert, so the upsert is read as an update of it, and said.

use sqlparser::ast::{
    ConflictTarget, Cte, Expr, Insert, Merge, MergeAction, MergeClauseKind, OnConflictAction, OnInsert, SelectItem, SetExpr,
    SqliteOnConflict, TableFactor, TableObject,
};

use super::keys::{column, picked};
use super::{clip, keyed, nextval, relation, value, Access, KeyFrom, Keys, Op};
use crate::schema::name_of;

/// What an insert does when its key exists.
enum OnExisting {
    /// A plain insert (the key is new).
    Fails,
    /// The row is updated (`DO UPDATE`, `ON DUPLICATE KEY UPDATE`, `REPLACE`).
    Updates(&'static str),
    /// Nothing is written (`DO NOTHING`, `INSERT IGNORE`).
    Nothing(&'static str),
}

/// An INSERT: its row operations (a read first for `INSERT ... SELECT` of a table).
pub(super) fn insert(i: &Insert, key_columns: &dyn Fn(&str) -> Option<Keys>, ctes: &[Cte]) -> Result<Vec<Access>, String> {
    let TableObject::TableName(name) = &i.table else { return Err("INSERT into a table function: not a table".into()) };
    let table = name_of(name);
    let (pk, _, _, all) =
        key_columns(&table).ok_or_else(|| format!("table `{table}` is not in the schema (give its CREATE TABLE first)"))?;
    let mut out = Vec::new();
    let (rows, first) = source_rows(i, &table, key_columns, ctes, &mut out)?;
    // The values by column: the column list's, else the table's columns in order; MySQL's
    // `INSERT ... SET col = value` names its own.
    let mut columns: Vec<String> = i.columns.iter().map(name_of).collect();
    if columns.is_empty() {
        columns = all;
    }
    let mut given: Vec<(String, &Expr)> = columns.iter().cloned().zip(first.iter().copied()).collect();
    for x in &i.assignments {
        if let sqlparser::ast::AssignmentTarget::ColumnName(c) = &x.target {
            given.push((name_of(c), &x.value));
        }
    }
    let bound: Vec<(String, KeyFrom)> = given.iter().map(|(c, e)| (c.clone(), value(e))).collect();
    let sequences: Vec<(String, String)> = given.iter().filter_map(|(c, e)| nextval(e).map(|s| (c.clone(), s))).collect();
    if sequences.len() > 1 {
        return Err(format!(
            "two sequences' values in one INSERT into {table}: one sequence per insert here (each table has one counter row)"
        ));
    }
    let sequence = sequences.first().map(|(_, s)| s.clone());
    let (on, target) = on_existing(i);
    let mut a = match on {
        OnExisting::Fails => Access::new(Op::Insert, table.clone(), rows, KeyFrom::New),
        OnExisting::Updates(how) | OnExisting::Nothing(how) => {
            let updates = matches!(on, OnExisting::Updates(_));
            upserted(how, updates, &table, rows, &bound, target, sequence.is_some(), key_columns)?
        }
    };
    if a.op == Op::Insert {
        a.bound = bound;
        if let Some((column, seq)) = sequences.first().filter(|(c, _)| !pk.contains(c)) {
            a.notes.push(format!(
                "nextval('{seq}') fills {column}, not {table}'s key: its new rows are keyed by the sequence's values here (its counter row is the hot row either way)"
            ));
        }
        a.sequence = sequence;
    }
    if let Some(OnInsert::OnConflict(sqlparser::ast::OnConflict { conflict_target: Some(ConflictTarget::OnConstraint(c)), .. })) = &i.on {
        a.notes.push(format!(
            "ON CONFLICT ON CONSTRAINT {c}: the constraint's columns are not read here; the primary key (or the first UNIQUE key the row gives) is taken as the conflict key"
        ));
    }
    super::returning(&mut a, i.returning.is_some());
    out.push(a);
    Ok(out)
}

/// How many rows an INSERT inserts and the expressions of its first (a `SELECT` of rows
/// found by key reads them first, into `out`). Borrowed, never cloned: a clone of the
/// syntax tree would compile its whole Clone into the SQL module (100 KiB before wasm-opt).
fn source_rows<'a>(
    i: &'a Insert,
    table: &str,
    key_columns: &dyn Fn(&str) -> Option<Keys>,
    ctes: &[Cte],
    out: &mut Vec<Access>,
) -> Result<(u64, Vec<&'a Expr>), String> {
    Ok(match i.source.as_deref().map(|q| q.body.as_ref()) {
        None => (1, Vec::new()),
        Some(SetExpr::Values(v)) => (v.rows.len() as u64, v.rows.first().map(|r| r.content.iter().collect()).unwrap_or_default()),
        Some(SetExpr::Select(sel)) => {
            let projection: Vec<&Expr> = sel
                .projection
                .iter()
                .filter_map(|p| match p {
                    SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Some(e),
                    _ => None,
                })
                .collect();
            let Some(f) = sel.from.first() else { return Ok((1, projection)) };
            let src = relation(&f.relation)?;
            if ctes.iter().any(|c| c.alias.name.value.to_lowercase() == src) {
                return Ok((1, projection));
            }
            let mut a = keyed(Op::Read, src.clone(), sel.selection.as_ref(), key_columns)?;
            if matches!(a.key, KeyFrom::Unknown(_)) || a.partial {
                return Err(format!(
                    "INSERT ... SELECT FROM {src}: the rows it inserts are not known (its WHERE does not name {src}'s rows by key); write the rows as VALUES, or select them by key"
                ));
            }
            a.notes.push(format!("INSERT ... SELECT: reads {} row(s) of {src} by key, then inserts as many into {table}", a.rows));
            let rows = a.rows;
            out.push(a);
            (rows, projection)
        }
        Some(_) => return Err("INSERT of a UNION or a nested query: the rows it inserts are not known; write them as VALUES".into()),
    })
}

/// What an INSERT does when its key exists, and `ON CONFLICT`'s columns if it names them.
fn on_existing(i: &Insert) -> (OnExisting, Option<Vec<String>>) {
    match &i.on {
        Some(OnInsert::OnConflict(oc)) => {
            let target = match &oc.conflict_target {
                Some(ConflictTarget::Columns { columns, .. }) => Some(columns.iter().map(|c| c.value.to_lowercase()).collect()),
                // `ON CONSTRAINT name`: the constraint's columns are not known here (said).
                _ => None,
            };
            let on = match &oc.action {
                OnConflictAction::DoUpdate(_) => OnExisting::Updates("ON CONFLICT ... DO UPDATE"),
                OnConflictAction::DoNothing => OnExisting::Nothing("ON CONFLICT ... DO NOTHING"),
            };
            (on, target)
        }
        Some(OnInsert::DuplicateKeyUpdate(_)) => (OnExisting::Updates("ON DUPLICATE KEY UPDATE"), None),
        _ if i.replace_into || i.or == Some(SqliteOnConflict::Replace) => (OnExisting::Updates("REPLACE"), None),
        _ if i.ignore || i.or == Some(SqliteOnConflict::Ignore) => (OnExisting::Nothing("INSERT IGNORE"), None),
        _ => (OnExisting::Fails, None),
    }
}

/// An upsert (`how`) of `rows` rows of `table` whose first gives `bound`: the row its
/// conflict key names updated (`updates`) or left (read); an insert when the key is new.
#[allow(clippy::too_many_arguments)]
fn upserted(
    how: &str,
    updates: bool,
    table: &str,
    rows: u64,
    bound: &[(String, KeyFrom)],
    target: Option<Vec<String>>,
    from_sequence: bool,
    key_columns: &dyn Fn(&str) -> Option<Keys>,
) -> Result<Access, String> {
    let (pk, by, unique, _) =
        key_columns(table).ok_or_else(|| format!("table `{table}` is not in the schema (give its CREATE TABLE first)"))?;
    let given = |c: &String| bound.iter().any(|(b, k)| b == c && !matches!(k, KeyFrom::Unknown(_)));
    // The conflict key: ON CONFLICT's columns, else the primary key when the row gives it,
    // else the first UNIQUE key it gives (MySQL's rule: any unique key).
    let key: Vec<String> = target
        .or_else(|| (!pk.is_empty() && pk.iter().all(given)).then(|| pk.clone()))
        .or_else(|| unique.iter().find(|u| u.iter().all(given)).cloned())
        .unwrap_or_default();
    let insert = |note: String| {
        let mut a = Access::new(Op::Insert, table.to_string(), rows, KeyFrom::New);
        a.notes.push(note);
        a
    };
    if key.is_empty() || from_sequence {
        return Ok(insert(format!("{how}: the row's key is new (no key value given, or a sequence's), so it never conflicts: an insert")));
    }
    let found: Vec<(String, KeyFrom, u64)> =
        key.iter().filter_map(|c| bound.iter().find(|(b, _)| b == c).map(|(b, k)| (b.clone(), k.clone(), rows))).collect();
    let row = found.iter().map(|(c, k, _)| format!("{c} = {}", shown(k))).collect::<Vec<_>>().join(", ");
    let fixed = found.iter().all(|(_, k, _)| matches!(k, KeyFrom::Constant(_) | KeyFrom::Clock { .. }));
    let why = || format!("{how}: the conflict key ({}) is not given a value", key.join(", "));
    let (op, note) = if updates {
        (
            Op::Update,
            format!("{how}: the row of {table} where {row} is locked and updated; it exists after its first insert, so taken as an update"),
        )
    } else if fixed {
        (Op::Read, format!("{how}: the row of {table} where {row} exists after its first insert: found, and nothing written (a read)"))
    } else {
        return Ok(insert(format!("{how}: a new row each time, assumed (its key, {row}, is drawn afresh): an insert")));
    };
    let mut a = picked(op, table.to_string(), found, &key, by.as_ref(), &why);
    a.notes.push(note);
    Ok(a)
}

/// A value as a note shows it: the constant, `:param`, the clock's function.
fn shown(k: &KeyFrom) -> String {
    match k {
        KeyFrom::Param(p) if p.starts_with(['$', '?']) => p.clone(),
        KeyFrom::Param(p) => format!(":{p}"),
        KeyFrom::Constant(c) => c.clone(),
        KeyFrom::Clock { function, .. } => function.clone(),
        KeyFrom::Unknown(_) | KeyFrom::New => "?".into(),
    }
}

/// MERGE: the target's row its `ON` names, updated when matched (inserted when not), or
/// deleted, or only inserted.
pub(super) fn merge(m: &Merge, key_columns: &dyn Fn(&str) -> Option<Keys>) -> Result<Access, String> {
    let table = relation(&m.table)?;
    let (pk, by, _, _) =
        key_columns(&table).ok_or_else(|| format!("MERGE INTO `{table}`: not in the schema (give its CREATE TABLE first)"))?;
    let target_alias = match &m.table {
        TableFactor::Table { alias: Some(a), .. } => a.name.value.to_lowercase(),
        _ => table.clone(),
    };
    let (source_alias, given) = source_values(&m.source);
    // `target.col = source.col` (either way round): the target's column takes the value the
    // source gives that column (or the expression's own, a parameter or a constant).
    let mut found: Vec<(String, KeyFrom, u64)> = Vec::new();
    equalities(&m.on, &mut |l, r| {
        for (t, s) in [(l, r), (r, l)] {
            let Some(col) = target_column(t, &target_alias, &source_alias) else { continue };
            let k = match source_column(s, &source_alias) {
                Some(name) => given.iter().find(|(n, _)| *n == name).map_or_else(
                    || KeyFrom::Unknown(format!("MERGE ... USING {}: the source's {name} is not a value given here", m.source)),
                    |(_, k)| k.clone(),
                ),
                None => value(s),
            };
            if (pk.contains(&col) || by.as_ref() == Some(&col)) && !found.iter().any(|(c, _, _)| *c == col) {
                found.push((col, k, 1));
            }
            break;
        }
    });
    let kinds: Vec<(&MergeClauseKind, &MergeAction)> = m.clauses.iter().map(|c| (&c.clause_kind, &c.action)).collect();
    let matched = |f: fn(&MergeAction) -> bool| kinds.iter().any(|(k, a)| matches!(k, MergeClauseKind::Matched) && f(a));
    let updates = matched(|a| matches!(a, MergeAction::Update(_)));
    let deletes = matched(|a| matches!(a, MergeAction::Delete { .. }));
    let inserts = kinds.iter().any(|(k, a)| !matches!(k, MergeClauseKind::Matched) && matches!(a, MergeAction::Insert(_)));
    let on = clip(&m.on.to_string());
    let why =
        || format!("MERGE's `ON {on}` is not on the key ({})", if pk.is_empty() { "a hidden key".to_string() } else { pk.join(", ") });
    let row = if found.is_empty() {
        "its ON names".to_string()
    } else {
        format!("where {}", found.iter().map(|(c, k, _)| format!("{c} = {}", shown(k))).collect::<Vec<_>>().join(", "))
    };
    let (op, note) = match (updates, deletes, inserts) {
        (true, _, _) => (Op::Update, format!("MERGE: the row of {table} {row} is locked and updated when matched; it exists after its first insert, so taken as an update")),
        (false, true, _) => (Op::Delete, format!("MERGE ... WHEN MATCHED THEN DELETE: the row of {table} {row} is deleted")),
        (false, false, true) => {
            let mut a = Access::new(Op::Insert, table.clone(), 1, KeyFrom::New);
            a.notes.push(format!("MERGE ... WHEN NOT MATCHED THEN INSERT only: a new row of {table} each time, assumed"));
            return Ok(a);
        }
        _ => (Op::Read, format!("MERGE that writes nothing: the row of {table} {row} is read")),
    };
    let mut a = picked(op, table.clone(), found, &pk, by.as_ref(), &why);
    a.notes.push(note);
    if given.is_empty() {
        a.notes.push(format!(
            "MERGE ... USING {}: its rows come from another table or query, not read here: one row of {table} per MERGE assumed",
            clip(&m.source.to_string())
        ));
    }
    Ok(a)
}

/// Calls `f(left, right)` for each `left = right` of a predicate's `AND`s.
fn equalities(e: &Expr, f: &mut dyn FnMut(&Expr, &Expr)) {
    use sqlparser::ast::BinaryOperator;
    match e {
        Expr::Nested(inner) => equalities(inner, f),
        Expr::BinaryOp { left, op: BinaryOperator::And, right } => {
            equalities(left, f);
            equalities(right, f);
        }
        Expr::BinaryOp { left, op: BinaryOperator::Eq, right } => f(left, right),
        _ => {}
    }
}

/// The target's column `e` names: `target.col`, or a bare `col` (not the source's).
fn target_column(e: &Expr, target: &str, source: &str) -> Option<String> {
    match e {
        Expr::CompoundIdentifier(parts) if parts.len() >= 2 => {
            let q = parts[parts.len() - 2].value.to_lowercase();
            (q == target && q != source).then(|| parts[parts.len() - 1].value.to_lowercase())
        }
        Expr::Identifier(_) => column(e),
        _ => None,
    }
}

/// The source's column `e` names (`source.col`).
fn source_column(e: &Expr, source: &str) -> Option<String> {
    match e {
        Expr::CompoundIdentifier(parts) if parts.len() >= 2 && parts[parts.len() - 2].value.to_lowercase() == source => {
            Some(parts[parts.len() - 1].value.to_lowercase())
        }
        _ => None,
    }
}

/// A MERGE source's alias and the values it gives its columns: `(SELECT 'x' AS name) s`,
/// `(VALUES ('x')) AS s(name)`. A table source gives none (its rows are not known here).
fn source_values(source: &TableFactor) -> (String, Vec<(String, KeyFrom)>) {
    match source {
        TableFactor::Derived { subquery, alias, .. } => {
            let name = alias.as_ref().map_or(String::new(), |a| a.name.value.to_lowercase());
            let named: Vec<String> = alias.iter().flat_map(|a| a.columns.iter().map(|c| c.name.value.to_lowercase())).collect();
            let values: Vec<(String, KeyFrom)> = match subquery.body.as_ref() {
                SetExpr::Select(sel) => sel
                    .projection
                    .iter()
                    .enumerate()
                    .filter_map(|(k, p)| match p {
                        SelectItem::ExprWithAlias { expr, alias } => Some((alias.value.to_lowercase(), value(expr))),
                        SelectItem::UnnamedExpr(expr) => {
                            named.get(k).map(|n| (n.clone(), value(expr))).or_else(|| column(expr).map(|c| (c, value(expr))))
                        }
                        _ => None,
                    })
                    .collect(),
                SetExpr::Values(v) => {
                    v.rows.first().map_or(Vec::new(), |r| named.iter().cloned().zip(r.content.iter().map(value)).collect())
                }
                _ => Vec::new(),
            };
            (name, values)
        }
        TableFactor::Table { name, alias, .. } => {
            (alias.as_ref().map_or_else(|| name_of(name), |a| a.name.value.to_lowercase()), Vec::new())
        }
        _ => (String::new(), Vec::new()),
    }
}
