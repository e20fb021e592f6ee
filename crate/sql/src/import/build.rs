//! The spec's parts the import builds once every file is read: each table's key kind and
//! rows, and each statement's key choice (with the assumptions they need).

use hotrow::spec::{Distribution, KeyChoice, KeyKind, Table};

use super::{Reader, Said, Txn};
use crate::pgbench::Draw;
use crate::schema::TableDef;
use crate::statements::{Access, KeyFrom, Op};
use crate::{At, ImportError};

impl Reader<'_> {
    /// The tables, each with its key kind and rows (an annotation, else the range of the
    /// pgbench variables its key is chosen by, else 0 for a table only inserted into, else
    /// the default, said).
    pub(super) fn tables_of(&mut self) -> Result<Vec<Table>, ImportError> {
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
            let distribution_values = self.values_of(t, rows)?;
            let id_cache = self.id_cache_of(t);
            out.push(Table {
                name: t.name.clone(),
                rows,
                key,
                partitioning: None,
                key_layout: None,
                unique_indexes,
                distribution_values,
                id_cache,
            });
        }
        Ok(out)
    }

    /// The ids a fetch takes for table `t`: its identity column's CACHE, or its sequence's
    /// (said), else none (the cluster's `cacheSize`).
    fn id_cache_of(&mut self, t: &TableDef) -> Option<u64> {
        if !t.takes_ids() {
            return None;
        }
        if let Some(Ok(n)) = t.id_cache {
            let n = n.clamp(1, super::ddl::MAX_CACHE);
            self.say(
                &t.at,
                format!("{}: its identity column fetches {n} id{} at a time (CACHE {n})", t.name, if n == 1 { "" } else { "s" }),
            );
            return Some(n);
        }
        let seq = self.sequences.iter().find(|s| Some(&s.name) == t.sequence.as_ref())?.clone();
        let how = match seq.cache {
            Some(n) => format!("{n} at a time (CACHE {n})"),
            None => "the cluster's cacheSize at a time (no CACHE given)".into(),
        };
        self.say(&t.at, format!("{}: its keys come from sequence {}, {how}", t.name, seq.name));
        let shared: Vec<String> =
            self.tables.iter().filter(|o| o.name != t.name && o.sequence.as_ref() == Some(&seq.name)).map(|o| o.name.clone()).collect();
        if !shared.is_empty() {
            self.say(
                &t.at,
                format!(
                    "sequence {} also keys {}: each table has its own counter row here, so the one row's contention is split between them (the real row is hotter)",
                    seq.name,
                    shared.join(", ")
                ),
            );
        }
        seq.cache
    }

    /// How many values a table's partitioning column takes, when it is partitioned on one
    /// (`PARTITION BY KEY (col)`): its rows when the column is its whole key, else what
    /// `values=` says; else none, said.
    fn values_of(&mut self, t: &TableDef, rows: u64) -> Result<Option<u64>, ImportError> {
        let Some(c) = &t.partition_by else { return Ok(None) };
        let by = format!("{}: PARTITION BY KEY ({c})", t.name);
        if t.takes_ids() {
            self.say(&t.at, format!("{by}: a table taking ids is placed by its id here"));
            return Ok(None);
        }
        if !t.primary_key.contains(c) {
            self.say(&t.at, format!("{by}: not a column of its primary key, so placed by its key (NDB partitions on key columns)"));
            return Ok(None);
        }
        if t.primary_key.len() == 1 {
            return Ok((rows > 0).then_some(rows));
        }
        let Some((values, at)) = t.values.clone() else {
            self.say(&t.at, format!("{by}: how many values {c} takes is not said (`-- hotrow: values=N`), so placed by its key"));
            return Ok(None);
        };
        if values > rows || !rows.is_multiple_of(values) {
            return Err(ImportError {
                at,
                message: format!("values={values}: must divide {}'s rows ({rows}), each value as many rows", t.name),
            });
        }
        self.say(&t.at, format!("{by}: {values} values of {c}, {} rows each; rows of one value share a partition", rows / values));
        Ok(Some(values))
    }

    /// The value access `i` of transaction `t` takes from an earlier one: the same named
    /// parameter on the partitioning columns of two tables of as many values.
    pub(super) fn distribution(&mut self, t: &Txn, i: usize, tables: &[Table], said: &Said) -> Result<Option<Distribution>, ImportError> {
        let (a, here, _) = &t.accesses[i];
        let param = |a: &Access| -> Option<(String, Option<u64>)> {
            let def = self.tables.iter().find(|d| d.name == a.table)?;
            let values = tables.iter().find(|x| x.name == a.table)?.distribution_values;
            match a.bound.iter().find(|(c, _)| Some(c) == def.partition_by.as_ref()) {
                Some((_, KeyFrom::Param(p))) if p != "?" => Some((p.clone(), values)),
                _ => None,
            }
        };
        let mine = param(a);
        // The same row as an earlier statement: its key, and so its value, is that one's.
        let same_row = self.same_row(t, i).is_some();
        if let (Some((p, Some(values))), false) = (&mine, same_row) {
            if t.client.contains(p) {
                let share = said.remote.as_ref().map_or(0.0, |r| r.0);
                let elsewhere = if share > 0.0 { format!(", {}% of its rows another", share * 100.0) } else { String::new() };
                // Said in full at its first statement.
                let first = !t.accesses[..i].iter().any(|(b, _, _)| param(b).is_some_and(|(q, _)| q == *p));
                let whose = if first {
                    format!(":{p} is the client's own (client number mod {values}, as a DBT2 terminal keeps its warehouse)")
                } else {
                    format!("the client's :{p}")
                };
                self.say(here, format!("{}: {whose}{elsewhere}", a.table));
                return Ok(Some(Distribution { same_as: None, client: true, remote: share }));
            }
        }
        let link = match mine {
            _ if same_row => None,
            Some((p, Some(values))) => {
                t.accesses[..i].iter().position(|(b, _, _)| param(b).is_some_and(|(q, v)| q == p && v == Some(values))).map(|j| (j, p))
            }
            _ => None,
        };
        let remote = said.remote.as_ref();
        match (link, remote) {
            (None, Some((_, at))) => Err(ImportError {
                at: at.clone(),
                message: format!(
                    "remote=: {}'s partitioning column is not given a parameter an earlier statement gives its own (as `w_id = :w_id` twice)",
                    a.table
                ),
            }),
            (None, None) => Ok(None),
            (Some((j, p)), remote) => {
                let share = remote.map_or(0.0, |r| r.0);
                let elsewhere = if share > 0.0 { format!(", {}% of its rows another", share * 100.0) } else { String::new() };
                self.say(
                    here,
                    format!("{}: :{p}'s value, as statement {} of the transaction ({}){elsewhere}", a.table, j + 1, t.accesses[j].0.table),
                );
                Ok(Some(Distribution { same_as: Some(j), client: false, remote: share }))
            }
        }
    }

    /// The unique indexes an UPDATE sets a column of: each row rewrites their index rows.
    pub(super) fn sets_unique(&mut self, a: &Access, table: &Table, here: &At) -> Vec<String> {
        if a.op != Op::Update {
            return Vec::new();
        }
        let Some(def) = self.tables.iter().find(|d| d.name == a.table) else { return Vec::new() };
        let names: Vec<String> = def
            .unique
            .iter()
            .zip(&table.unique_indexes)
            .filter(|(cols, _)| cols.iter().any(|c| a.set.contains(c)))
            .map(|(_, n)| n.clone())
            .collect();
        for n in &names {
            self.say(
                here,
                format!(
                    "UPDATE of a UNIQUE column of {}: each row also rewrites `{}.{n}$unique` (the old value's row out, the new one's in)",
                    a.table, a.table
                ),
            );
        }
        names
    }

    /// The column table `name` is partitioned by, if any.
    fn partition_column(&self, name: &str) -> Option<&String> {
        self.tables.iter().find(|d| d.name == name)?.partition_by.as_ref()
    }

    /// The earlier access of `t` naming the same row as access `i`: the same table, every
    /// key column given the same named parameter.
    fn same_row(&self, t: &Txn, i: usize) -> Option<usize> {
        let a = &t.accesses[i].0;
        let def = self.tables.iter().find(|d| d.name == a.table)?;
        let key = |b: &Access| -> Option<Vec<String>> {
            def.primary_key
                .iter()
                .map(|c| match b.bound.iter().find(|(x, _)| x == c) {
                    Some((_, KeyFrom::Param(p))) if p != "?" => Some(p.clone()),
                    _ => None,
                })
                .collect()
        };
        let mine = key(a).filter(|k| !k.is_empty())?;
        t.accesses[..i].iter().position(|(b, _, _)| b.table == a.table && b.op != Op::Insert && key(b).as_ref() == Some(&mine))
    }

    /// The key choice of access `i` of transaction `t`.
    /// `linked`: its rows take another statement's (or the client's) value, so its key is
    /// drawn among that value's rows.
    pub(super) fn key(
        &mut self,
        t: &Txn,
        i: usize,
        a: &Access,
        here: &At,
        rows: u64,
        linked: bool,
    ) -> Result<Option<KeyChoice>, ImportError> {
        if let Some(k) = &a.dist {
            let k = k.clone();
            self.say(here, format!("{}'s key drawn as the annotation says: {}", a.table, crate::annotations::key_text(&k)));
            return Ok(Some(k));
        }
        Ok(match &a.key {
            KeyFrom::New => None,
            KeyFrom::Param(p) => {
                // The same parameters on the same table's key earlier: the same row.
                let same = self.same_row(t, i);
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
                            let which = if linked { "rows of that value" } else { "rows" };
                            // A part of the key given: the partial-key assumption says it.
                            let is_the_value = a.bound.iter().any(|(c, k)| *k == a.key && self.partition_column(&a.table) == Some(c));
                            if !(a.partial || linked && is_the_value) {
                                let name = if p == "?" || p.starts_with('$') { format!("`{p}`") } else { format!(":{p}") };
                                self.say(
                                    here,
                                    format!("{name}: not drawn by the script: any of {}'s {which}, uniformly, assumed", a.table),
                                );
                            }
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
