//! Files to a spec: each file's pgbench meta-commands and MySQL `PARTITION BY` clauses are
//! taken out (blanked, so lines and columns stay), its SQL parsed; `CREATE TABLE` and
//! `ALTER TABLE` make the tables, `BEGIN` ... `COMMIT` (or `END`) blocks the transactions
//! (a row statement outside one is an autocommit transaction of its own). Then the spec is
//! built, and checked by the core as any spec is.

use hotrow::spec::Spec;
use sqlparser::ast::{Spanned, Statement};
use sqlparser::dialect::{MySqlDialect, PostgreSqlDialect};
use sqlparser::parser::Parser;

use crate::annotations;
use crate::pgbench::{self, Variable};
use crate::schema::{self, TableDef};
use crate::statements::{self, Access, KeyFrom};

mod assemble;
mod build;
mod digests;
mod text;
use crate::{Assumption, At, ImportError, Imported};
use text::{code_line, column_of, parser_at, take_partitions};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Dialect {
    Mysql,
    Postgres,
}

impl Dialect {
    /// `mysql` or `postgres` (`postgresql` too); absent, guessed from the sources.
    pub fn named(name: Option<&str>, sources: &[Source]) -> Result<Dialect, String> {
        match name {
            None => Ok(Dialect::guess(sources)),
            Some("mysql") => Ok(Dialect::Mysql),
            Some("postgres" | "postgresql") => Ok(Dialect::Postgres),
            Some(other) => Err(format!("dialect {other}: must be mysql or postgres")),
        }
    }

    /// PostgreSQL for a pgbench script (a line starting with `\`) or a SERIAL column, else
    /// MySQL. A digest CSV is MySQL's whatever the others are: it is left out of the guess.
    pub fn guess(sources: &[Source]) -> Dialect {
        let serial = |text: &str| {
            text.to_ascii_lowercase()
                .split(|c: char| !c.is_ascii_alphanumeric() && c != '_')
                .any(|w| matches!(w, "serial" | "bigserial" | "smallserial"))
        };
        let pg = sources
            .iter()
            .filter(|s| !digests::is_digest_csv(s))
            .any(|s| s.text.lines().any(|l| l.trim_start().starts_with('\\')) || serial(&s.text));
        if pg {
            Dialect::Postgres
        } else {
            Dialect::Mysql
        }
    }
}

/// One input file: its name (errors and assumptions name it), its text, and the weight of
/// its transactions in the mix (pgbench's `-f file@weight`) unless an annotation says.
#[derive(Clone, Debug)]
pub struct Source {
    pub name: String,
    pub text: String,
    pub weight: Option<u64>,
}

#[derive(Clone, Debug)]
pub struct Options {
    pub dialect: Dialect,
    /// pgbench's `:scale` (the spec's `scale`).
    pub scale: u64,
    /// The rows of a table nothing else gives a count (assumed, and said).
    pub default_rows: u64,
    /// The spec's name; absent, the first script's file name.
    pub name: Option<String>,
}

impl Default for Options {
    fn default() -> Options {
        Options { dialect: Dialect::Mysql, scale: 1, default_rows: 1_000_000, name: None }
    }
}

/// A transaction as read: its statements and where it began.
struct Txn {
    name: Option<String>,
    weight: Option<u64>,
    source: usize,
    accesses: Vec<(Access, At, Said)>,
    at: At,
    /// Parameters each client keeps (`client=w_id`): a DBT2 terminal's warehouse.
    client: Vec<String>,
    /// `sort_keys=true`: it takes the rows it locks in key order.
    sort_keys: bool,
}

/// What a statement's annotations say: its rows, a remote share, the block it starts.
#[derive(Clone, Debug, Default)]
struct Said {
    rows: Option<u64>,
    remote: Option<(f64, At)>,
    /// Fewest and most runs, statements, share of transactions, where it was said.
    repeat: Option<(u64, u64, usize, f64, At)>,
}

struct Reader<'a> {
    options: &'a Options,
    tables: Vec<TableDef>,
    txns: Vec<Txn>,
    vars: Vec<Vec<Variable>>,
    assumptions: Vec<Assumption>,
    /// Digests read so far (each a transaction `digest N`, numbered across files).
    digests: usize,
}

/// Imports `sources` (a schema and scripts, in any order of files) as one spec.
pub fn import(sources: &[Source], options: &Options) -> Result<Imported, ImportError> {
    let mut r = Reader { options, tables: Vec::new(), txns: Vec::new(), vars: Vec::new(), assumptions: Vec::new(), digests: 0 };
    for (k, source) in sources.iter().enumerate() {
        if digests::is_digest_csv(source) {
            r.read_digests(k, source)?;
        } else {
            r.read(k, source)?;
        }
    }
    let spec = r.spec(sources)?;
    let value = serde_json::to_value(&spec).expect("a spec serializes");
    Spec::from_json(&value, "workload").map_err(|e| ImportError {
        at: At { file: sources.first().map_or(String::new(), |s| s.name.clone()), line: 1, column: 1 },
        message: format!("the imported workload is not one hotrow runs: {e}"),
    })?;
    Ok(Imported { spec: value, assumptions: r.assumptions })
}

fn at(file: &str, line: u64, column: u64) -> At {
    At { file: file.into(), line: line.max(1), column: column.max(1) }
}

impl Reader<'_> {
    fn read(&mut self, k: usize, source: &Source) -> Result<(), ImportError> {
        let file = source.name.as_str();
        let (vars, text) = pgbench::take_out(file, &source.text, &mut self.assumptions)?;
        self.vars.push(vars);
        let (text, partitions) = take_partitions(&text);
        let notes = annotations::scan(file, &text)?;
        let parsed = match self.options.dialect {
            Dialect::Mysql => Parser::parse_sql(&MySqlDialect {}, &text),
            Dialect::Postgres => Parser::parse_sql(&PostgreSqlDialect {}, &text),
        };
        let statements = parsed.map_err(|e| {
            let message = e.to_string();
            ImportError {
                at: parser_at(file, &message),
                message: message.split(" at Line: ").next().unwrap_or(&message).replace("sql parser error: ", "").to_string(),
            }
        })?;
        let mut open: Option<Txn> = None;
        let mut last_line = 0;
        for (n, s) in statements.iter().enumerate() {
            // A PARTITION BY clause belongs to the statement it follows, before the next.
            let until = statements[n + 1..].iter().map(|x| x.span().start.line).find(|&l| l > 0).unwrap_or(u64::MAX);
            let span = s.span();
            // Some statements carry no span (BEGIN, COMMIT): the first line of code after the
            // statement before.
            let here = if span.start.line == 0 {
                let line = code_line(&text, last_line + 1);
                at(file, line, column_of(&text, line))
            } else {
                at(file, span.start.line, span.start.column)
            };
            let pairs = annotations::for_statement(&notes, last_line, here.line);
            last_line = span.end.line.max(here.line);
            let partition = partitions.iter().find(|(line, _)| *line >= here.line && *line < until).map(|(_, c)| c.clone());
            self.statement(k, s, here, &pairs, partition, &mut open)?;
        }
        if let Some(t) = open {
            return Err(ImportError { at: t.at, message: "this transaction is never committed: end it with COMMIT or END".into() });
        }
        Ok(())
    }

    fn statement(
        &mut self,
        k: usize,
        s: &Statement,
        here: At,
        pairs: &[(String, String, At)],
        partition: Option<String>,
        open: &mut Option<Txn>,
    ) -> Result<(), ImportError> {
        let pair = |key: &str| pairs.iter().find(|(k, _, _)| k == key);
        let fail = |message: String| ImportError { at: here.clone(), message };
        match s {
            Statement::CreateTable(c) => {
                let mut t = schema::from_create(c, here.clone());
                if self.tables.iter().any(|x| x.name == t.name) {
                    return Err(fail(format!("table `{}` is created twice", t.name)));
                }
                if let Some((_, v, at)) = pair("rows") {
                    t.rows = Some(annotations::number(v, at, "rows", 0, hotrow::spec::MAX_TABLE_ROWS - 1)?);
                }
                if let Some((_, v, at)) = pair("values") {
                    t.values = Some((annotations::number(v, at, "values", 1, hotrow::spec::MAX_TABLE_ROWS - 1)?, at.clone()));
                }
                t.partition_by = partition;
                self.tables.push(t);
            }
            Statement::AlterTable(a) => {
                let name = schema::name_of(&a.name);
                let t = self
                    .tables
                    .iter_mut()
                    .find(|t| t.name == name)
                    .ok_or_else(|| fail(format!("ALTER TABLE `{name}`: not created above")))?;
                for ignored in schema::alter(t, &a.operations) {
                    self.assumptions.push(Assumption {
                        at: here.clone(),
                        text: format!("ALTER TABLE {name} {ignored}: ignored (only added keys matter here)"),
                    });
                }
            }
            Statement::CreateIndex(ci) => self.create_index(ci, here)?,
            Statement::StartTransaction { .. } => {
                if open.is_some() {
                    return Err(fail("BEGIN inside a transaction: COMMIT the one before".into()));
                }
                *open = Some(self.txn(k, here, pairs)?);
            }
            Statement::Commit { .. } | Statement::Rollback { .. } => {
                let t = open.take().ok_or_else(|| fail("COMMIT without BEGIN".into()))?;
                if matches!(s, Statement::Rollback { .. }) {
                    self.assumptions.push(Assumption {
                        at: here.clone(),
                        text: "ROLLBACK: taken as the end of the transaction, its work as committed".into(),
                    });
                }
                if t.accesses.is_empty() {
                    self.assumptions.push(Assumption { at: t.at.clone(), text: "an empty transaction: left out".into() });
                } else {
                    self.txns.push(t);
                }
            }
            Statement::Insert(_) | Statement::Update(_) | Statement::Delete(_) | Statement::Query(_) => {
                self.row_statement(k, s, here, pairs, open)?
            }
            other => {
                let text = other.to_string();
                let words: Vec<&str> = text.split_whitespace().take(3).collect();
                self.assumptions
                    .push(Assumption { at: here, text: format!("`{}`: ignored (not a table, a key or a row statement)", words.join(" ")) });
            }
        }
        Ok(())
    }

    /// CREATE INDEX: a UNIQUE one is a key of its table; another is said and left out.
    fn create_index(&mut self, ci: &sqlparser::ast::CreateIndex, here: At) -> Result<(), ImportError> {
        let name = schema::name_of(&ci.table_name);
        let t = self
            .tables
            .iter_mut()
            .find(|t| t.name == name)
            .ok_or_else(|| ImportError { at: here.clone(), message: format!("CREATE INDEX on `{name}`: not created above") })?;
        let columns = schema::index_columns(&ci.columns);
        let text = if ci.unique {
            t.unique.push(columns.clone());
            format!("CREATE UNIQUE INDEX on {name} ({}): a UNIQUE key of {name}", columns.join(", "))
        } else {
            format!(
                "CREATE INDEX on {name} ({}): an ordered index, kept beside each row in its own partition: no row of its own",
                columns.join(", ")
            )
        };
        self.assumptions.push(Assumption { at: here, text });
        Ok(())
    }

    /// A row statement (INSERT, UPDATE, DELETE, SELECT): an access of the open
    /// transaction, or a transaction of its own (autocommit).
    fn row_statement(
        &mut self,
        k: usize,
        s: &Statement,
        here: At,
        pairs: &[(String, String, At)],
        open: &mut Option<Txn>,
    ) -> Result<(), ImportError> {
        let tables = &self.tables;
        let key_columns = |name: &str| tables.iter().find(|t| t.name == name).map(|t| (t.primary_key.clone(), t.partition_by.clone()));
        let mut a = statements::access(s, &key_columns).map_err(|message| ImportError { at: here.clone(), message })?;
        if let Some((_, v, at)) = pairs.iter().find(|(k, _, _)| k == "key") {
            if a.key == KeyFrom::New {
                return Err(ImportError {
                    at: at.clone(),
                    message: "key=: an INSERT's rows are new; a key choice is for the rows a statement finds".into(),
                });
            }
            a.dist = Some(annotations::key_choice(v, at)?);
        }
        let said = assemble::said(pairs)?;
        match open {
            Some(t) => t.accesses.push((a, here, said)),
            None => {
                let mut t = self.txn(k, here.clone(), pairs)?;
                t.accesses.push((a, here, said));
                self.txns.push(t);
            }
        }
        Ok(())
    }

    fn txn(&self, k: usize, at: At, pairs: &[(String, String, At)]) -> Result<Txn, ImportError> {
        let mut t = Txn { name: None, weight: None, source: k, accesses: Vec::new(), at, client: Vec::new(), sort_keys: false };
        for (key, v, at) in pairs {
            match key.as_str() {
                "name" => t.name = Some(v.clone()),
                "weight" => t.weight = Some(annotations::number(v, at, "weight", 1, 1_000_000)?),
                "sort_keys" => {
                    t.sort_keys = match v.as_str() {
                        "true" => true,
                        "false" => false,
                        _ => return Err(ImportError { at: at.clone(), message: format!("sort_keys={v}: true or false") }),
                    }
                }
                "client" => t.client.extend(v.split_whitespace().map(|p| p.trim_start_matches([':', '@']).to_string())),
                _ => {}
            }
        }
        Ok(t)
    }

    fn var(&self, source: usize, name: &str) -> Option<&Variable> {
        self.vars[source].iter().rev().find(|v| v.name == name)
    }

    fn say(&mut self, at: &At, text: String) {
        self.assumptions.push(Assumption { at: at.clone(), text });
    }
}

/// A file's name without its folders and extensions (`scripts/tpcb-like.sql` gives `tpcb-like`).
fn stem(name: &str) -> String {
    let base = name.rsplit(['/', '\\']).next().unwrap_or(name);
    base.split('.').next().unwrap_or(base).to_string()
}
