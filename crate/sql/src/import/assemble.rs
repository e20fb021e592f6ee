//! The spec, once every file is read: the tables, and each transaction's statements with
//! their key choices, shared-column values, blocks and unique index rewrites (the
//! assumptions they need said), checked for what the annotations may not do.

use hotrow::spec::{Api, OpKind, Repeat, Spec, Statement as SpecStatement, Transaction};

use super::{at, stem, Reader, Said, Source};
use crate::annotations;
use crate::statements::{Access, KeyFrom, Op};
use crate::{At, ImportError};

impl Reader<'_> {
    pub(super) fn spec(&mut self, sources: &[Source]) -> Result<Spec, ImportError> {
        let first = sources.first().map_or(String::new(), |s| s.name.clone());
        if self.tables.is_empty() {
            return Err(ImportError {
                at: at(&first, 1, 1),
                message: "no CREATE TABLE: give the schema (a file of CREATE TABLE statements) with the transactions".into(),
            });
        }
        if self.txns.is_empty() {
            return Err(ImportError {
                at: at(&first, 1, 1),
                message: "no row statements: give the transactions (BEGIN ... COMMIT blocks, or statements that autocommit)".into(),
            });
        }
        let scaled = self.vars.iter().flatten().any(|v| v.scaled);
        let tables = self.tables_of()?;
        let mut transactions = Vec::new();
        let txns = std::mem::take(&mut self.txns);
        let mut per_source = vec![0usize; sources.len()];
        for t in &txns {
            per_source[t.source] += 1;
        }
        let mut seen = vec![0usize; sources.len()];
        for t in &txns {
            seen[t.source] += 1;
            let stem = stem(&sources[t.source].name);
            let name =
                t.name
                    .clone()
                    .unwrap_or_else(|| if per_source[t.source] > 1 { format!("{stem}-{}", seen[t.source]) } else { stem.clone() });
            let weight = t.weight.or(sources[t.source].weight).unwrap_or(1);
            let mut statements: Vec<SpecStatement> = Vec::new();
            // The end of the block a statement is in (blocks do not nest).
            let mut block_end = None;
            for (i, (a, here, said)) in t.accesses.iter().enumerate() {
                let table = tables.iter().find(|x| x.name == a.table).expect("the table was looked up");
                for n in &a.notes {
                    self.say(here, n.clone());
                }
                let distribution = self.distribution(t, i, &tables, said)?;
                let key = self.key(t, i, a, here, table.rows.max(1), distribution.is_some())?;
                let rows = self.rows(a, here, said);
                let repeat = self.repeat(said, i, t.accesses.len(), &mut block_end)?;
                let op = match a.op {
                    Op::Read => OpKind::Read,
                    Op::Update => OpKind::Update,
                    Op::Insert => OpKind::Insert,
                    Op::Delete => OpKind::Delete,
                    Op::NextVal => unreachable!("a sequence's next value becomes its insert's key (rows.rs)"),
                };
                let sets_unique = self.sets_unique(a, table, here);
                let returning = a.returning;
                statements.push(SpecStatement {
                    op,
                    table: a.table.clone(),
                    rows,
                    key,
                    slots: None,
                    distribution,
                    repeat,
                    sets_unique,
                    returning,
                });
            }
            transactions.push(Transaction { name, weight, statements, sort_keys: t.sort_keys });
        }
        let name = self.options.name.clone().unwrap_or_else(|| sources.iter().rev().map(|s| stem(&s.name)).next().unwrap_or_default());
        Ok(Spec {
            name,
            about: format!("imported from SQL ({})", sources.iter().map(|s| s.name.as_str()).collect::<Vec<_>>().join(", ")),
            api: Api::Mysqld,
            scale: if scaled { self.options.scale } else { 1 },
            tables,
            transactions,
        })
    }
}

impl Reader<'_> {
    /// The rows statement `a` touches: its own count, or what `rows=` says (needed when
    /// only a part of its key is given: 1 is assumed, and said, without it).
    fn rows(&mut self, a: &Access, here: &At, said: &Said) -> u64 {
        match (&a.key, said.rows) {
            (KeyFrom::Unknown(_), Some(r)) => r,
            (_, Some(r)) if a.partial => {
                self.say(here, format!("{r} rows of {} (rows=), a part of its key given", a.table));
                r
            }
            (_, None) if a.partial => {
                let given: Vec<&str> = a.bound.iter().map(|(c, _)| c.as_str()).collect();
                self.say(
                    here,
                    format!(
                        "a part of {}'s key given ({}): 1 row assumed (say `-- hotrow: rows=N` before it)",
                        a.table,
                        if given.is_empty() { "none".to_string() } else { given.join(", ") }
                    ),
                );
                1
            }
            _ => a.rows,
        }
    }

    /// The block statement `i` of `count` starts, if `repeat=` says one (said in words);
    /// `block_end` is the last statement of the block it is in, kept from statement to
    /// statement (blocks do not nest).
    fn repeat(&mut self, said: &Said, i: usize, count: usize, block_end: &mut Option<usize>) -> Result<Option<Repeat>, ImportError> {
        let Some((min, max, len, share, at)) = &said.repeat else { return Ok(None) };
        if block_end.is_some_and(|end| i <= end) {
            return Err(ImportError { at: at.clone(), message: "a block inside a block: blocks do not nest".into() });
        }
        if i + len > count {
            return Err(ImportError {
                at: at.clone(),
                message: format!("statements={len}: the transaction has {} statements from here", count - i),
            });
        }
        *block_end = Some(i + len - 1);
        let runs = match (min, max) {
            (1, 1) => String::new(),
            _ if min == max => format!(" {min} times"),
            _ => format!(" {min} to {max} times, uniformly"),
        };
        let share_text = if *share < 1.0 { format!(", in {}% of the transactions", share * 100.0) } else { String::new() };
        let what = if *len == 1 { "this statement runs".to_string() } else { format!("these {len} statements run") };
        self.say(at, format!("{what}{runs}{share_text}"));
        Ok(Some(Repeat { min: *min, max: (max != min).then_some(*max), statements: *len, share: *share }))
    }
}

/// A row statement's annotations: `rows=`, `remote=`, `repeat=` with `statements=` and
/// `share=` (a share alone is a block of one run).
pub(super) fn said(pairs: &[(String, String, At)]) -> Result<Said, ImportError> {
    let pair = |key: &str| pairs.iter().find(|(k, _, _)| k == key);
    let mut out = Said {
        rows: pair("rows").map(|(_, v, at)| annotations::number(v, at, "rows", 1, hotrow::spec::MAX_ROWS_PER_STATEMENT)).transpose()?,
        remote: pair("remote").map(|(_, v, at)| annotations::share(v, at, "remote").map(|x| (x, at.clone()))).transpose()?,
        repeat: None,
    };
    let runs = pair("repeat").map(|(_, v, at)| annotations::runs(v, at).map(|r| (r, at.clone()))).transpose()?;
    let statements =
        pair("statements").map(|(_, v, at)| annotations::number(v, at, "statements", 1, 256).map(|n| (n, at.clone()))).transpose()?;
    let share = pair("share").map(|(_, v, at)| annotations::share(v, at, "share").map(|x| (x, at.clone()))).transpose()?;
    if runs.is_none() && share.is_none() {
        if let Some((_, at)) = statements {
            return Err(ImportError { at, message: "statements=: the size of a block, with repeat=MIN..MAX or share=".into() });
        }
        return Ok(out);
    }
    let at = [runs.as_ref().map(|r| &r.1), share.as_ref().map(|s| &s.1)].into_iter().flatten().next().expect("one is said").clone();
    let ((lo, hi), _) = runs.unwrap_or(((1, 1), at.clone()));
    out.repeat = Some((lo, hi, statements.map_or(1, |s| s.0 as usize), share.map_or(1.0, |s| s.0), at));
    Ok(out)
}
