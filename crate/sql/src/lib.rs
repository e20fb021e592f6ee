//! Your SQL in: a schema and its transactions as SQL, or a pgbench script, become a hotrow
//! workload spec (`hotrow::spec::Spec`), with every assumption made on the way said with
//! its file, line and column, and everything refused named the same way.
//!
//! The parts: `annotations.rs` (the `-- hotrow:` comments that say what SQL cannot),
//! `pgbench.rs` (pgbench's `\set` meta-commands, taken out before parsing), `schema.rs`
//! (`CREATE TABLE` / `ALTER TABLE` to tables and their key kinds), `statements/` (DML to
//! row operations and key choices), `import.rs` (files to transactions, the spec, checked
//! by the core). The SQL parser is `sqlparser` (MySQL and PostgreSQL dialects).

mod annotations;
mod import;
pub mod pgbench;
mod schema;
mod statements;

pub use import::{import, Dialect, Options, Source};

/// Most rows a table may be assumed to have when nothing says (`Options::default_rows`).
pub const MAX_DEFAULT_ROWS: u64 = hotrow::spec::MAX_TABLE_ROWS - 1;

use serde::Serialize;

/// Where in the input something is: a file's name, a line and a column (1-based).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct At {
    pub file: String,
    pub line: u64,
    pub column: u64,
}

impl std::fmt::Display for At {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}:{}:{}", self.file, self.line, self.column)
    }
}

/// Something the importer assumed, where it did.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Assumption {
    #[serde(flatten)]
    pub at: At,
    pub text: String,
}

/// What was imported: the spec (as JSON, valid for `hotrow::Config`'s `workload`), the
/// assumptions behind it, and what each statement of the input became.
#[derive(Clone, Debug, Serialize)]
pub struct Imported {
    pub spec: serde_json::Value,
    pub assumptions: Vec<Assumption>,
    pub statements: Vec<Became>,
}

/// What one statement of the input became, where it stands: its row operations (`update
/// counters, insert orders`), `table t`, `sequence s`, `begin`, `commit`, or `left out`
/// (an assumption at the same place says why). Nothing is dropped without a word.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Became {
    #[serde(flatten)]
    pub at: At,
    pub became: String,
}

/// Why the input cannot be imported, where.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct ImportError {
    #[serde(flatten)]
    pub at: At,
    pub message: String,
}

impl std::fmt::Display for ImportError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}: {}", self.at, self.message)
    }
}

impl std::error::Error for ImportError {}
