//! The spec's parts the import builds once every file is read: each table's key kind and
//! rows, and each statement's key choice (with the assumptions they need).

use hotrow::spec::{KeyChoice, KeyKind, Table};

use super::{Reader, Txn};
use crate::pgbench::Draw;
use crate::statements::{Access, KeyFrom, Op};
use crate::{At, ImportError};

impl Reader<'_> {
    /// The tables, each with its key kind and rows (an annotation, else the range of the
    /// pgbench variables its key is chosen by, else 0 for a table only inserted into, else
    /// the default, said).
    pub(super) fn tables_of(&mut self) -> Vec<Table> {
        let defs = self.tables.clone();
        let mut out = Vec::new();
        for t in &defs {
            let key = if !t.takes_ids() {
                KeyKind::PrimaryKey
            } else if t.primary_key.is_empty() {
                self.say(
                    &t.at,
                    format!("{}: no primary key, so NDB gives it a hidden one, its values from the table's SYSTAB_0 counter row", t.name),
                );
                KeyKind::Hidden
            } else {
                KeyKind::AutoIncrement
            };
            for u in &t.unique {
                self.say(
                    &t.at,
                    format!(
                        "{}: UNIQUE ({}): NDB's hidden index table for it is not modelled yet; its writes are not counted",
                        t.name,
                        u.join(", ")
                    ),
                );
            }
            if let Some(c) = &t.partition_by {
                self.say(&t.at, format!("{}: PARTITION BY KEY ({c}): rows are placed by a hash of their own key (partitioning on a shared column is not modelled yet)", t.name));
            }
            let ranges: Vec<u64> = self
                .txns
                .iter()
                .flat_map(|x| x.accesses.iter().map(move |(a, _, _)| (x.source, a)))
                .filter(|(_, a)| a.table == t.name)
                .filter_map(|(s, a)| match &a.key {
                    KeyFrom::Param(p) => self.var(s, p).filter(|v| v.draw != Draw::Fixed).map(|v| (v.hi - v.lo + 1).max(1) as u64),
                    _ => None,
                })
                .collect();
            let only_inserted =
                self.txns.iter().flat_map(|x| &x.accesses).filter(|(a, _, _)| a.table == t.name).all(|(a, _, _)| a.op == Op::Insert);
            let rows = match (t.rows, ranges.iter().max()) {
                (Some(n), _) => n,
                (None, Some(&n)) => {
                    self.say(&t.at, format!("{}: {n} rows, the range its key is drawn from", t.name));
                    n
                }
                (None, None) if only_inserted => 0,
                (None, None) => {
                    let n = self.options.default_rows;
                    self.say(&t.at, format!("{}: {n} rows assumed (say `-- hotrow: rows=N` before its CREATE TABLE)", t.name));
                    n
                }
            };
            out.push(Table { name: t.name.clone(), rows, key, partitioning: None, key_layout: None });
        }
        out
    }

    /// The key choice of access `i` of transaction `t`.
    pub(super) fn key(&mut self, t: &Txn, i: usize, a: &Access, here: &At, rows: u64) -> Result<Option<KeyChoice>, ImportError> {
        let fixed = KeyChoice::Hotspot { hot_fraction: 0.5 / rows as f64, hot_share: 1.0 };
        Ok(match &a.key {
            KeyFrom::New => None,
            KeyFrom::Param(p) => {
                // The same parameter on the same table's key earlier: the same row.
                let same = (p != "?").then(|| t.accesses[..i].iter().position(|(b, _, _)| b.table == a.table && b.key == a.key)).flatten();
                if let Some(j) = same {
                    Some(KeyChoice::SameAs { statement: j })
                } else {
                    match self.var(t.source, p).map(|v| v.draw.clone()) {
                        Some(Draw::Uniform) => Some(KeyChoice::Uniform),
                        Some(Draw::Zipfian(s)) => {
                            let theta = s.clamp(0.01, 0.99);
                            if theta != s {
                                self.say(here, format!(":{p}: random_zipfian's parameter {s} taken as theta {theta} (hotrow's Zipfian takes 0 < theta < 1)"));
                            }
                            Some(KeyChoice::Zipfian { theta })
                        }
                        Some(Draw::Exponential(_) | Draw::Gaussian(_)) => {
                            self.say(
                                here,
                                format!(":{p}: random_exponential and random_gaussian are taken as uniform (not in the spec language yet)"),
                            );
                            Some(KeyChoice::Uniform)
                        }
                        Some(Draw::Fixed) => {
                            self.say(here, format!(":{p}: a constant, so one fixed row"));
                            Some(fixed)
                        }
                        None => {
                            self.say(
                                here,
                                format!(
                                    "{}: the key's value is not drawn by the script: any row of {}, uniformly, assumed",
                                    if p == "?" { "`?`".to_string() } else { format!(":{p}") },
                                    a.table
                                ),
                            );
                            Some(KeyChoice::Uniform)
                        }
                    }
                }
            }
            KeyFrom::Constant => {
                self.say(here, format!("a constant key: one fixed row of {}", a.table));
                Some(fixed)
            }
            KeyFrom::Clock => {
                self.say(
                    here,
                    format!(
                        "a key from the clock: the current bucket's row of {}, one row for the run (a run is shorter than a bucket)",
                        a.table
                    ),
                );
                Some(fixed)
            }
            KeyFrom::Unknown(why) => {
                self.say(here, format!("{why}: {} row(s) of {}, uniform, assumed", a.rows, a.table));
                Some(KeyChoice::Uniform)
            }
        })
    }
}
