//! Row statements: `INSERT` (one or many `VALUES` rows, or a `SELECT` of known rows),
//! `UPDATE`, `DELETE`, `SELECT` (`FOR UPDATE` too), the upserts (`ON CONFLICT`, `ON
//! DUPLICATE KEY UPDATE`, `REPLACE`, `MERGE`, `upsert.rs`) and a data-modifying `WITH`
//! (its statements in order) become row operations on one table each, with where their key
//! comes from: a parameter (`:aid`, `?`, `$1`, `@w_id`), a constant, the clock
//! (`CURDATE()`, `NOW()`, `DATE_TRUNC('hour', NOW())`: a time bucket), a sequence
//! (`nextval('s')`), or nothing the importer can read (a non-key predicate: an
//! assumption). `keys.rs` reads the predicates and the values.

use sqlparser::ast::{
    AssignmentTarget, Cte, Expr, FromTable, FunctionArguments, LockType, Query, SelectItem, SetExpr, Statement, TableFactor,
};

use crate::schema::{name_of, nextval};

mod keys;
mod upsert;
pub(crate) use keys::{keyed, relation, value};

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
    /// A sequence's next value taken on its own (`SELECT nextval('s')`): `table` names the
    /// sequence.
    NextVal,
}

/// One statement (or one part of a statement) as a row operation.
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
    /// An insert whose key a sequence gives (`VALUES (nextval('s'), ...)`).
    pub sequence: Option<String>,
    /// `RETURNING`: the transaction uses the rows' values.
    pub returning: bool,
    /// What was assumed reading it.
    pub notes: Vec<String>,
}

impl Access {
    pub(crate) fn new(op: Op, table: String, rows: u64, key: KeyFrom) -> Access {
        Access {
            op,
            table,
            rows,
            key,
            set: Vec::new(),
            bound: Vec::new(),
            partial: false,
            dist: None,
            sequence: None,
            returning: false,
            notes: Vec::new(),
        }
    }
}

/// A table's primary key columns, the column it is partitioned by (if any), its UNIQUE
/// keys' columns and all its columns in order.
pub type Keys = (Vec<String>, Option<String>, Vec<Vec<String>>, Vec<String>);

/// What a statement is: its row operations in order (a `WITH` may hold several), or none
/// with what was said about it (`SELECT 1`: it reads no row).
pub enum Read {
    Rows(Vec<Access>),
    Said(String),
}

/// The row operations of a DML statement, `key_columns(table)` giving a table's key
/// columns; `Err` says why the statement cannot be one, naming its construct.
pub fn accesses(s: &Statement, key_columns: &dyn Fn(&str) -> Option<Keys>) -> Result<Read, String> {
    match s {
        Statement::Insert(i) => upsert::insert(i, key_columns, &[]).map(Read::Rows),
        Statement::Merge(m) => upsert::merge(m, key_columns).map(|a| Read::Rows(vec![a])),
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
            returning(&mut a, u.returning.is_some());
            Ok(Read::Rows(vec![a]))
        }
        Statement::Delete(d) => {
            let (FromTable::WithFromKeyword(from) | FromTable::WithoutKeyword(from)) = &d.from;
            let [one] = from.as_slice() else { return Err("DELETE from several tables: delete from one table by its key".into()) };
            let mut a = keyed(Op::Delete, relation(&one.relation)?, d.selection.as_ref(), key_columns)?;
            returning(&mut a, d.returning.is_some());
            Ok(Read::Rows(vec![a]))
        }
        Statement::Query(q) => query(q, key_columns),
        other => Err(format!("`{}`: not a row statement (INSERT, UPDATE, DELETE, SELECT, MERGE)", first_words(&other.to_string()))),
    }
}

/// A query: its `WITH`'s data-modifying statements in order, then its body.
fn query(q: &Query, key_columns: &dyn Fn(&str) -> Option<Keys>) -> Result<Read, String> {
    let ctes: &[Cte] = q.with.as_ref().map_or(&[], |w| &w.cte_tables);
    let mut out = Vec::new();
    for cte in ctes {
        let name = cte.alias.name.value.to_lowercase();
        match query(&cte.query, key_columns) {
            Ok(Read::Rows(mut rows)) => {
                for a in &mut rows {
                    a.notes.push(format!("WITH {name} AS (...): its statement runs first, in the order written"));
                }
                out.extend(rows);
            }
            Ok(Read::Said(_)) => {}
            Err(e) => return Err(format!("WITH {name} AS (...): {e}")),
        }
    }
    match body(&q.body, key_columns, ctes)? {
        Read::Rows(rows) => out.extend(rows),
        Read::Said(said) if out.is_empty() => return Ok(Read::Said(said)),
        Read::Said(_) => {}
    }
    if q.locks.iter().any(|l| l.lock_type == LockType::Update) {
        if let Some(a) = out.last_mut().filter(|a| a.op == Op::Read) {
            a.op = Op::Update;
            let skip = q.locks.iter().any(|l| l.nonblock == Some(sqlparser::ast::NonBlock::SkipLocked));
            a.notes.push(if skip {
                "SELECT ... FOR UPDATE SKIP LOCKED: a locking read that waits for no lock; taken as an update of one of the rows, uniformly (a queue whose takers do not meet on one row)".into()
            } else {
                "SELECT ... FOR UPDATE: a locking read, taken as an update (an exclusive row lock held to commit)".into()
            });
        }
    }
    Ok(Read::Rows(out))
}

/// A query's body: a SELECT (of a table, of a sequence's next value, of nothing), or in a
/// `WITH` a data-modifying statement.
fn body(b: &SetExpr, key_columns: &dyn Fn(&str) -> Option<Keys>, ctes: &[Cte]) -> Result<Read, String> {
    match b {
        SetExpr::Insert(Statement::Insert(i)) => upsert::insert(i, key_columns, ctes).map(Read::Rows),
        SetExpr::Insert(s) | SetExpr::Update(s) | SetExpr::Delete(s) | SetExpr::Merge(s) => accesses(s, key_columns),
        SetExpr::Query(q) => query(q, key_columns),
        SetExpr::Select(sel) => {
            let Some(first) = sel.from.first() else {
                let exprs = || {
                    sel.projection.iter().filter_map(|p| match p {
                        SelectItem::UnnamedExpr(e) | SelectItem::ExprWithAlias { expr: e, .. } => Some(e),
                        _ => None,
                    })
                };
                if exprs().filter_map(nextval).count() + exprs().filter_map(advisory).count() > 1 {
                    return Err("two sequences' values or advisory locks in one SELECT: one per statement here".into());
                }
                if let Some(seq) = exprs().find_map(nextval) {
                    return Ok(Read::Rows(vec![Access::new(Op::NextVal, seq, 1, KeyFrom::New)]));
                }
                if let Some(a) = exprs().find_map(advisory) {
                    return Ok(Read::Rows(vec![a]));
                }
                return Ok(Read::Said(format!("`{}`: reads no row (a SELECT without FROM): left out", clip(&sel.to_string()))));
            };
            if let TableFactor::Table { name, .. } = &first.relation {
                let name = name_of(name);
                if ctes.iter().any(|c| c.alias.name.value.to_lowercase() == name) {
                    return Ok(Read::Said(format!("reads {name}, the rows the WITH's statement returned: no table row")));
                }
            }
            let mut a = keyed(Op::Read, relation(&first.relation)?, sel.selection.as_ref(), key_columns)?;
            if sel.from.len() > 1 || !first.joins.is_empty() {
                a.notes.push(format!("a join: only {} is read (its first table)", a.table));
            }
            Ok(Read::Rows(vec![a]))
        }
        _ => Err("a query that is not one SELECT (a UNION, VALUES): not a row operation".into()),
    }
}

/// The table advisory locks are modelled as rows of (`ADVISORY_TABLE`, one row per key).
pub const ADVISORY_TABLE: &str = "advisory_locks";
/// Its keys: PostgreSQL's are 64-bit; a run never comes near.
pub const ADVISORY_KEYS: u64 = 1 << 32;

/// An advisory lock (`pg_advisory_xact_lock(k)`, `pg_advisory_lock(k)`, MySQL's
/// `GET_LOCK('name', timeout)`) as an update of row k of `ADVISORY_TABLE`: a lock that
/// every transaction taking the same k waits for, as a row lock is.
fn advisory(e: &Expr) -> Option<Access> {
    let Expr::Function(f) = e else { return None };
    let name = name_of(&f.name);
    let held = match name.as_str() {
        "pg_advisory_xact_lock" | "pg_try_advisory_xact_lock" => "held to commit",
        "pg_advisory_lock" | "pg_try_advisory_lock" => "held to pg_advisory_unlock, taken as held to commit",
        "get_lock" => "held to RELEASE_LOCK, taken as held to commit",
        _ => return None,
    };
    let FunctionArguments::List(list) = &f.args else { return None };
    let key = match list.args.first()? {
        sqlparser::ast::FunctionArg::Unnamed(sqlparser::ast::FunctionArgExpr::Expr(x)) => value(x),
        _ => return None,
    };
    let mut a = Access::new(Op::Update, ADVISORY_TABLE.into(), 1, key);
    a.notes.push(format!(
        "{name}(...): an advisory lock, {held}: an update of its key's row of {ADVISORY_TABLE} (one row per key), so transactions taking one key wait for each other as for a row lock"
    ));
    a.bound = vec![("key".into(), a.key.clone())];
    Some(a)
}

fn returning(a: &mut Access, returning: bool) {
    if returning {
        a.returning = true;
        a.notes.push(format!("RETURNING: the transaction uses the values of the {} row(s) it writes", a.table));
    }
}

/// A statement's first three words, for a message.
pub(crate) fn first_words(text: &str) -> String {
    text.split_whitespace().take(3).collect::<Vec<_>>().join(" ")
}

/// A statement's text on one line, cut after 60 characters for a message (the import's
/// and the digest table's).
pub(crate) fn clip(text: &str) -> String {
    let one_line = text.split_whitespace().collect::<Vec<_>>().join(" ");
    match one_line.char_indices().nth(60) {
        Some((i, _)) => format!("{}...", &one_line[..i]),
        None => one_line,
    }
}
