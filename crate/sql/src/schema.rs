//! The schema: `CREATE TABLE` and `ALTER TABLE ... ADD PRIMARY KEY` give each table its
//! columns, its primary key (composite too), whether a key column takes ids
//! (`AUTO_INCREMENT`, `SERIAL`, an identity column) and its `UNIQUE` keys. A table without
//! a primary key gets NDB's hidden key, which takes ids from SYSTAB_0 as AUTO_INCREMENT does.
//! `CREATE SEQUENCE` makes a sequence: an id source of its own, with its `CACHE`.

use crate::At;
use sqlparser::ast::{
    AlterTableOperation, ColumnOption, CreateTable, Expr, FunctionArguments, ObjectName, SequenceOptions, TableConstraint,
};

/// A sequence (`CREATE SEQUENCE`): its name and its `CACHE` when given.
#[derive(Clone, Debug)]
pub struct Sequence {
    pub name: String,
    pub cache: Option<u64>,
}

/// The sequence `e` takes the next value of (`nextval('s')`, `NEXT VALUE FOR s`), if any.
pub fn nextval(e: &Expr) -> Option<String> {
    let Expr::Function(f) = e else { return None };
    if name_of(&f.name) != "nextval" {
        return None;
    }
    let FunctionArguments::List(list) = &f.args else { return None };
    let arg = list.args.first()?.to_string();
    // `nextval('s')` or `nextval('s'::regclass)`: the quoted name.
    let quoted = arg.split('\'').nth(1).unwrap_or(&arg);
    Some(quoted.rsplit('.').next().unwrap_or(quoted).trim_matches('"').to_lowercase())
}

/// The `CACHE n` of a sequence's options, if given (a whole number).
pub fn cache_of(options: &[SequenceOptions]) -> Option<Result<u64, String>> {
    options.iter().find_map(|o| match o {
        SequenceOptions::Cache(e) => Some(match e {
            Expr::Value(v) => v.value.to_string().parse::<u64>().map_err(|_| format!("CACHE {e}: a whole number")),
            other => Err(format!("CACHE {other}: a whole number")),
        }),
        _ => None,
    })
}

/// One table as the schema declares it.
#[derive(Clone, Debug)]
pub struct TableDef {
    pub name: String,
    pub columns: Vec<String>,
    pub primary_key: Vec<String>,
    /// The column that takes ids (AUTO_INCREMENT, SERIAL, identity, a sequence's
    /// `DEFAULT nextval('s')`), if any.
    pub auto_column: Option<String>,
    /// The sequence its ids come from (`DEFAULT nextval('s')`, or an INSERT's
    /// `nextval('s')`), if one is named.
    pub sequence: Option<String>,
    /// Its identity column's `CACHE` (`GENERATED ... AS IDENTITY (CACHE n)`), where given.
    pub id_cache: Option<Result<u64, String>>,
    pub unique: Vec<Vec<String>>,
    /// `PARTITION BY KEY (col)` (MySQL's, taken out before parsing).
    pub partition_by: Option<String>,
    pub rows: Option<u64>,
    /// How many values the partitioning column takes (`-- hotrow: values=N`), where said.
    pub values: Option<(u64, At)>,
    pub at: At,
}

/// A name as the schema and the statements compare it: its last part, unquoted, lower case.
pub fn name_of(name: &ObjectName) -> String {
    name.0.last().map(|p| p.to_string()).unwrap_or_default().trim_matches(|c| c == '`' || c == '"').to_lowercase()
}

fn column_name(text: &str) -> String {
    text.trim_matches(|c| c == '`' || c == '"').to_lowercase()
}

pub fn from_create(c: &CreateTable, at: At) -> TableDef {
    let mut t = TableDef::new(name_of(&c.name), at);
    for col in &c.columns {
        let name = column_name(&col.name.value);
        let ty = col.data_type.to_string().to_lowercase();
        let mut auto = ty.contains("serial");
        for o in &col.options {
            match &o.option {
                ColumnOption::PrimaryKey(_) => t.primary_key = vec![name.clone()],
                ColumnOption::Unique(_) => t.unique.push(vec![name.clone()]),
                ColumnOption::Default(e) if nextval(e).is_some() => {
                    auto = true;
                    t.sequence = nextval(e);
                }
                ColumnOption::Generated { sequence_options: Some(options), .. } => {
                    auto = true;
                    t.id_cache = cache_of(options);
                }
                other => {
                    let text = other.to_string().to_uppercase();
                    auto |= text.contains("AUTO_INCREMENT") || text.contains("AUTOINCREMENT") || text.contains("IDENTITY");
                }
            }
        }
        if auto {
            t.auto_column = Some(name.clone());
        }
        t.columns.push(name);
    }
    for constraint in &c.constraints {
        add_constraint(&mut t, constraint);
    }
    t
}

/// The column names of an index's columns.
pub fn index_columns(columns: &[sqlparser::ast::IndexColumn]) -> Vec<String> {
    columns.iter().map(|c| column_name(&c.column.expr.to_string())).collect()
}

fn add_constraint(t: &mut TableDef, constraint: &TableConstraint) {
    match constraint {
        TableConstraint::PrimaryKey(pk) => t.primary_key = index_columns(&pk.columns),
        TableConstraint::Unique(u) => t.unique.push(index_columns(&u.columns)),
        _ => {}
    }
}

/// Applies `ALTER TABLE`'s added keys; says which operations were not read.
pub fn alter(t: &mut TableDef, operations: &[AlterTableOperation]) -> Vec<String> {
    let mut ignored = Vec::new();
    for op in operations {
        match op {
            AlterTableOperation::AddConstraint { constraint, .. } => add_constraint(t, constraint),
            other => ignored.push(other.to_string()),
        }
    }
    ignored
}

impl TableDef {
    /// A table of no columns yet.
    pub fn new(name: String, at: At) -> TableDef {
        TableDef {
            name,
            columns: Vec::new(),
            primary_key: Vec::new(),
            auto_column: None,
            sequence: None,
            id_cache: None,
            unique: Vec::new(),
            partition_by: None,
            rows: None,
            values: None,
            at,
        }
    }

    /// Whether its key comes from the id allocator: a key column that takes ids, no primary
    /// key (NDB's hidden key), or a sequence its inserts take their keys from.
    pub fn takes_ids(&self) -> bool {
        self.primary_key.is_empty() || self.auto_column.as_ref().is_some_and(|c| self.primary_key.contains(c)) || self.sequence.is_some()
    }
}
