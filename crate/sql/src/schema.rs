//! The schema: `CREATE TABLE` and `ALTER TABLE ... ADD PRIMARY KEY` give each table its
//! columns, its primary key (composite too), whether a key column takes ids
//! (`AUTO_INCREMENT`, `SERIAL`, an identity column) and its `UNIQUE` keys. A table without
//! a primary key gets NDB's hidden key, which takes ids from SYSTAB_0 as AUTO_INCREMENT does.

use crate::At;
use sqlparser::ast::{AlterTableOperation, ColumnOption, CreateTable, ObjectName, TableConstraint};

/// One table as the schema declares it.
#[derive(Clone, Debug)]
pub struct TableDef {
    pub name: String,
    pub columns: Vec<String>,
    pub primary_key: Vec<String>,
    /// The column that takes ids (AUTO_INCREMENT, SERIAL, identity), if any.
    pub auto_column: Option<String>,
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
    let mut t = TableDef {
        name: name_of(&c.name),
        columns: Vec::new(),
        primary_key: Vec::new(),
        auto_column: None,
        unique: Vec::new(),
        partition_by: None,
        rows: None,
        values: None,
        at,
    };
    for col in &c.columns {
        let name = column_name(&col.name.value);
        let ty = col.data_type.to_string().to_lowercase();
        let mut auto = ty.contains("serial");
        for o in &col.options {
            match &o.option {
                ColumnOption::PrimaryKey(_) => t.primary_key = vec![name.clone()],
                ColumnOption::Unique(_) => t.unique.push(vec![name.clone()]),
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
    /// Whether its key comes from the id allocator: a key column that takes ids, or no
    /// primary key (NDB's hidden key).
    pub fn takes_ids(&self) -> bool {
        self.primary_key.is_empty() || self.auto_column.as_ref().is_some_and(|c| self.primary_key.contains(c))
    }
}
