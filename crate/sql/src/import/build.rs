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
            // Named by their columns (at most 60 characters), a repeat numbered.
            let mut unique_indexes: Vec<String> = Vec::new();
            for u in &t.unique {
                let base: String = u.join("_").chars().take(60).collect();
                let name = (1..)
                    .map(|n| if n == 1 { base.clone() } else { format!("{base}_{n}") })
                    .find(|x| !unique_indexes.contains(x))
                    .expect("a free name");
                unique_indexes.push(name);
            }
            for (u, name) in t.unique.iter().zip(&unique_indexes) {
                self.say(
                    &t.at,
                    format!(
                        "{}: UNIQUE ({}): NDB's hidden index table `{}.{name}$unique`; each insert and delete also writes its row",
                        t.name,
                        u.join(", "),
                        t.name
                    ),
                );
            }
            let rewrites: Vec<(At, String)> = self
                .txns
                .iter()
                .flat_map(|x| &x.accesses)
                .filter(|(a, _, _)| a.table == t.name && a.op == Op::Update)
                .filter_map(|(a, at, _)| a.set.iter().find(|c| t.unique.iter().any(|u| u.contains(c))).map(|c| (at.clone(), c.clone())))
                .collect();
            for (at, column) in rewrites {
                self.say(&at, format!("UPDATE of {column}, a UNIQUE column of {}: its index row's rewrite is not modelled", t.name));
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
                    self.say(&t.at, format!("{}: {n} row{}, the range its key is drawn from", t.name, if n == 1 { "" } else { "s" }));
                    n
                }
                (None, None) if only_inserted => 0,
                (None, None) => {
                    let n = self.options.default_rows;
                    self.say(&t.at, format!("{}: {n} rows assumed (say `-- hotrow: rows=N` before its CREATE TABLE)", t.name));
                    n
                }
            };
            out.push(Table { name: t.name.clone(), rows, key, partitioning: None, key_layout: None, unique_indexes });
        }
        out
    }

    /// The key choice of access `i` of transaction `t`.
    pub(super) fn key(&mut self, t: &Txn, i: usize, a: &Access, here: &At, rows: u64) -> Result<Option<KeyChoice>, ImportError> {
        if let Some(k) = &a.dist {
            let k = k.clone();
            self.say(
                here,
                format!("{}'s key drawn as the annotation says: {}", a.table, serde_json::to_string(&k).expect("a key choice serializes")),
            );
            return Ok(Some(k));
        }
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
                        Some(Draw::Exponential(parameter)) => Some(KeyChoice::Exponential { parameter }),
                        Some(Draw::Gaussian(parameter)) => Some(KeyChoice::Gaussian { parameter }),
                        Some(Draw::Fixed) => {
                            let v = self.var(t.source, p).map_or(0, |v| v.lo);
                            let key = fixed_key(&v.to_string(), rows);
                            self.say(here, format!(":{p}: a constant ({v}), so one fixed row of {}: key {key}", a.table));
                            Some(KeyChoice::Fixed { key })
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
            KeyFrom::Constant(text) => {
                let key = fixed_key(text, rows);
                self.say(here, format!("a constant key ({text}): one fixed row of {}, key {key}", a.table));
                Some(KeyChoice::Fixed { key })
            }
            KeyFrom::Clock { bucket_ms, function } => {
                self.say(
                    here,
                    format!(
                        "a key from the clock ({function}): the current {}'s row of {}, one row while a run is shorter than that",
                        bucket_name(*bucket_ms),
                        a.table
                    ),
                );
                Some(KeyChoice::TimeBucket { bucket_ms: *bucket_ms })
            }
            KeyFrom::Unknown(why) => {
                self.say(here, format!("{why}: {} row(s) of {}, uniform, assumed", a.rows, a.table));
                Some(KeyChoice::Uniform)
            }
        })
    }
}

/// The row a constant key names: its value when it is a whole number below `rows`, else a
/// hash of its text (the same constant is the same row).
fn fixed_key(text: &str, rows: u64) -> u64 {
    match text.trim_matches('\'').parse::<u64>() {
        Ok(n) if n < rows => n,
        _ => text.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| (h ^ b as u64).wrapping_mul(0x100_0000_01b3)) % rows,
    }
}

/// A bucket's length in words.
fn bucket_name(ms: u64) -> String {
    match ms {
        1000 => "second".into(),
        60_000 => "minute".into(),
        3_600_000 => "hour".into(),
        86_400_000 => "day".into(),
        604_800_000 => "week".into(),
        2_592_000_000 => "month (30 days)".into(),
        7_862_400_000 => "quarter (91 days)".into(),
        31_536_000_000 => "year (365 days)".into(),
        _ => format!("{ms} ms bucket"),
    }
}
