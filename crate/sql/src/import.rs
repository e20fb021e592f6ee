//! Files to a spec: each file's pgbench meta-commands and MySQL `PARTITION BY` clauses are
//! taken out (blanked, so lines and columns stay), its SQL parsed; `CREATE TABLE` and
//! `ALTER TABLE` make the tables, `BEGIN` ... `COMMIT` (or `END`) blocks the transactions
//! (a row statement outside one is an autocommit transaction of its own). Then the spec is
//! built, and checked by the core as any spec is.

use hotrow::spec::Spec;
use sqlparser::ast::Statement;
use sqlparser::dialect::{MySqlDialect, PostgreSqlDialect};

use crate::annotations;
use crate::pgbench::{self, Variable};
use crate::schema::{Sequence, TableDef};
use crate::statements::Access;

mod assemble;
mod build;
mod ddl;
mod digests;
mod parse;
mod rows;
mod text;
use crate::{Assumption, At, Became, ImportError, Imported};
use text::{parser_at, take_partitions};

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

    /// PostgreSQL for a pgbench script (a line starting with `\`), a SERIAL column, an
    /// `ON CONFLICT`, `nextval(` or a `$1` parameter, else MySQL. A digest CSV is MySQL's
    /// whatever the others are: it is left out of the guess.
    pub fn guess(sources: &[Source]) -> Dialect {
        let postgres = |text: &str| {
            let lower = text.to_ascii_lowercase();
            let words: Vec<&str> = lower.split(|c: char| !c.is_ascii_alphanumeric() && c != '_').filter(|w| !w.is_empty()).collect();
            words.iter().any(|w| matches!(*w, "serial" | "bigserial" | "smallserial" | "nextval"))
                || words.windows(2).any(|p| p == ["on", "conflict"])
                || lower.as_bytes().windows(2).any(|p| p[0] == b'$' && p[1].is_ascii_digit())
        };
        let pg = sources
            .iter()
            .filter(|s| !digests::is_digest_csv(s))
            .any(|s| s.text.lines().any(|l| l.trim_start().starts_with('\\')) || postgres(&s.text));
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
    /// A `SELECT nextval('s')` whose value the transaction's next INSERT takes, and where.
    pending: Option<(String, At)>,
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
    sequences: Vec<Sequence>,
    txns: Vec<Txn>,
    vars: Vec<Vec<Variable>>,
    assumptions: Vec<Assumption>,
    /// Digests read so far (each a transaction `digest N`, numbered across files).
    digests: usize,
    /// What each statement read became, in order.
    became: Vec<Became>,
}

/// Imports `sources` (a schema and scripts, in any order of files) as one spec.
pub fn import(sources: &[Source], options: &Options) -> Result<Imported, ImportError> {
    let mut r = Reader {
        options,
        tables: Vec::new(),
        sequences: Vec::new(),
        txns: Vec::new(),
        vars: Vec::new(),
        assumptions: Vec::new(),
        digests: 0,
        became: Vec::new(),
    };
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
    Ok(Imported { spec: value, assumptions: r.assumptions, statements: r.became })
}

/// What a statement that was said and not modelled became (`Became::became`).
const LEFT_OUT: &str = "left out";

/// Whether `s` is a row statement (it may touch rows: INSERT, UPDATE, DELETE, SELECT, MERGE).
fn is_row(s: &Statement) -> bool {
    matches!(s, Statement::Insert(_) | Statement::Update(_) | Statement::Delete(_) | Statement::Query(_) | Statement::Merge(_))
}

/// A statement's first three words, for a message.
fn first_words(s: &Statement) -> String {
    crate::statements::first_words(&s.to_string())
}

/// A `SELECT nextval('s')` whose value no later INSERT of its transaction takes.
fn nextval_unused(seq: &str, at: At) -> ImportError {
    ImportError {
        at,
        message: format!(
            "nextval('{seq}'): no INSERT after it in this transaction takes its value; a sequence's value is modelled as a new row's key (INSERT ... VALUES (nextval('{seq}'), ...), or an INSERT after the SELECT)"
        ),
    }
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
        let refused = |message: String| ImportError {
            at: parser_at(file, &message),
            message: message.split(" at Line: ").next().unwrap_or(&message).replace("sql parser error: ", "").to_string(),
        };
        let (comments, parsed) = match self.options.dialect {
            Dialect::Mysql => (parse::comments(&MySqlDialect {}, &text), parse::statements(&MySqlDialect {}, &text)),
            Dialect::Postgres => (parse::comments(&PostgreSqlDialect {}, &text), parse::statements(&PostgreSqlDialect {}, &text)),
        };
        let comments = comments.map_err(|e| refused(e.to_string()))?;
        let notes = annotations::scan(file, &text, &comments)?;
        let parsed = parsed.map_err(|e| refused(e.to_string()))?;
        let mut claimed = vec![false; notes.len()];
        let mut open: Option<Txn> = None;
        for (n, p) in parsed.iter().enumerate() {
            // A PARTITION BY clause belongs to the statement it follows, before the next.
            let until = parsed.get(n + 1).map_or(u64::MAX, |x| x.start.0);
            let here = at(file, p.start.0, p.start.1);
            let pairs = annotations::for_statement(&notes, &mut claimed, p.after, p.start);
            let partition = partitions.iter().find(|(line, _)| *line >= here.line && *line < until).map(|(_, c)| c.clone());
            let became = self.statement(k, &p.statement, here.clone(), &pairs, partition, &mut open)?;
            self.became.push(Became { at: here, became });
        }
        if let Some((a, _)) = notes.iter().zip(&claimed).find(|(_, c)| !**c) {
            let inside = parsed.iter().any(|p| (a.line, a.column) > p.start && (a.line, a.column) < p.end);
            let later = parsed.iter().any(|p| (a.line, a.column) < p.start);
            let message = if inside {
                "`-- hotrow:` inside a statement: put the line before the statement it is about"
            } else if later {
                "`-- hotrow:` before the `;` of the statement it follows: put it after the `;`, before the statement it is about"
            } else {
                "`-- hotrow:` after the last statement: an annotation applies to the statement that follows it, and none does"
            };
            return Err(ImportError { at: at(file, a.line, a.column), message: message.into() });
        }
        if let Some(t) = open {
            if let Some((seq, at)) = t.pending {
                return Err(nextval_unused(&seq, at));
            }
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
    ) -> Result<String, ImportError> {
        let row = is_row(s);
        let allowed: Vec<&str> = match s {
            Statement::CreateTable(_) => annotations::TABLE_KEYS.to_vec(),
            Statement::StartTransaction { .. } => annotations::TRANSACTION_KEYS.to_vec(),
            _ if row && open.is_none() => [annotations::ROW_KEYS, annotations::TRANSACTION_KEYS].concat(),
            _ if row => annotations::ROW_KEYS.to_vec(),
            _ => Vec::new(),
        };
        if let Some((key, _, at)) = pairs.iter().find(|(key, _, _)| !allowed.contains(&key.as_str())) {
            let what = if row && open.is_some() {
                "a statement inside a transaction (BEGIN takes them)".to_string()
            } else {
                format!("`{}`", first_words(s))
            };
            return Err(ImportError {
                at: at.clone(),
                message: format!("`{key}=` goes before {}, but here it stands before {what}", annotations::goes_before(key)),
            });
        }
        let fail = |message: String| ImportError { at: here.clone(), message };
        let left_out = LEFT_OUT.to_string();
        Ok(match s {
            Statement::CreateTable(c) => self.create_table(c, here, pairs, partition)?,
            Statement::AlterTable(a) => self.alter_table(a, here)?,
            Statement::CreateIndex(ci) => self.create_index(ci, here)?,
            Statement::CreateSequence { name, sequence_options, .. } => self.create_sequence(name, sequence_options, here)?,
            Statement::StartTransaction { .. } => {
                if open.is_some() {
                    return Err(fail("BEGIN inside a transaction: COMMIT the one before".into()));
                }
                *open = Some(self.txn(k, here, pairs)?);
                "begin".into()
            }
            Statement::Commit { .. } | Statement::Rollback { .. } => {
                let t = open.take().ok_or_else(|| fail("COMMIT without BEGIN".into()))?;
                if let Some((seq, at)) = t.pending {
                    return Err(nextval_unused(&seq, at));
                }
                if matches!(s, Statement::Rollback { .. }) {
                    self.say(&here, "ROLLBACK: taken as the end of the transaction, its work as committed".into());
                }
                if t.accesses.is_empty() {
                    self.say(&t.at, "an empty transaction: left out".into());
                } else {
                    self.txns.push(t);
                }
                "commit".into()
            }
            _ if row => self.row_statement(k, s, here, pairs, open)?,
            Statement::Lock(_) | Statement::LockTables { .. } => {
                let text = format!(
                    "`{}`: a table lock; NDB's table locks hold only on the mysqld that takes them (the other API nodes go on): not modelled",
                    first_words(s)
                );
                self.say(&here, text);
                left_out
            }
            Statement::Set(_) => {
                self.say(&here, format!("`{}`: a session setting, it writes no row: not modelled", first_words(s)));
                left_out
            }
            other => {
                self.say(&here, format!("`{}`: ignored (not a table, a key or a row statement)", first_words(other)));
                left_out
            }
        })
    }

    fn txn(&self, k: usize, at: At, pairs: &[(String, String, At)]) -> Result<Txn, ImportError> {
        let mut t =
            Txn { name: None, weight: None, source: k, accesses: Vec::new(), at, pending: None, client: Vec::new(), sort_keys: false };
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
