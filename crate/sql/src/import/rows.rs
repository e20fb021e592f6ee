//! A row statement (INSERT, UPDATE, DELETE, SELECT, MERGE, a data-modifying WITH): its row
//! operations join the open transaction, or make a transaction of their own (autocommit).
//! A sequence's next value is the key of the INSERT that takes it; an advisory lock is a
//! row of its own.

use sqlparser::ast::Statement;

use super::{assemble, Reader, Txn};
use crate::schema::TableDef;
use crate::statements::{self, KeyFrom, Op, Read};
use crate::{annotations, At, ImportError};

impl Reader<'_> {
    pub(super) fn row_statement(
        &mut self,
        k: usize,
        s: &Statement,
        here: At,
        pairs: &[(String, String, At)],
        open: &mut Option<Txn>,
    ) -> Result<String, ImportError> {
        let tables = &self.tables;
        let key_columns = |name: &str| {
            tables
                .iter()
                .find(|t| t.name == name)
                .map(|t| (t.primary_key.clone(), t.partition_by.clone(), t.unique.clone(), t.columns.clone()))
        };
        let read = statements::accesses(s, &key_columns).map_err(|message| ImportError { at: here.clone(), message })?;
        let mut list = match read {
            Read::Rows(list) => list,
            Read::Said(text) => {
                if let Some((key, _, at)) = pairs.first() {
                    return Err(ImportError {
                        at: at.clone(),
                        message: format!("`{key}=`: the statement after it touches no row ({text})"),
                    });
                }
                self.say(&here, text);
                return Ok(super::LEFT_OUT.into());
            }
        };
        if let Some((_, v, at)) = pairs.iter().find(|(k, _, _)| k == "key") {
            let Some(a) = list.iter_mut().find(|a| a.key != KeyFrom::New) else {
                return Err(ImportError {
                    at: at.clone(),
                    message: "key=: an INSERT's rows are new; a key choice is for the rows a statement finds".into(),
                });
            };
            a.dist = Some(annotations::key_choice(v, at)?);
        }
        let said = assemble::said(pairs)?;
        let autocommit = open.is_none();
        let t = match open {
            Some(t) => t,
            None => open.insert(self.txn(k, here.clone(), pairs)?),
        };
        let mut became = Vec::new();
        // A block (`repeat=`, `share=`) starts at the statement's first operation and takes
        // in all of its operations (a WITH makes several); the others start none.
        let extra = list.len().saturating_sub(1);
        for (k, a) in list.drain(..).enumerate() {
            let mut said = said.clone();
            said.repeat = match said.repeat.take() {
                Some((lo, hi, len, share, at)) if k == 0 => Some((lo, hi, len + extra, share, at)),
                _ => None,
            };
            became.push(self.join(t, a, &here, &said)?);
        }
        if autocommit {
            let t = open.take().expect("opened above");
            if let Some((seq, at)) = t.pending {
                return Err(super::nextval_unused(&seq, at));
            }
            self.txns.push(t);
        }
        Ok(became.join(", "))
    }

    /// Access `a` of a statement at `here` joins transaction `t`; what it became, in words.
    fn join(&mut self, t: &mut Txn, mut a: crate::statements::Access, here: &At, said: &super::Said) -> Result<String, ImportError> {
        let became = match a.op {
            Op::Read => format!("read {}", a.table),
            Op::Update => format!("update {}", a.table),
            Op::Insert => format!("insert {}", a.table),
            Op::Delete => format!("delete {}", a.table),
            Op::NextVal => format!("nextval {} (the key of the INSERT after it)", a.table),
        };
        match a.op {
            Op::NextVal => {
                self.sequence_of(&a.table, here)?;
                if let Some((seq, at)) = &t.pending {
                    return Err(ImportError {
                        at: here.clone(),
                        message: format!("a second nextval before an INSERT took the first's (nextval('{seq}') at {at})"),
                    });
                }
                t.pending = Some((a.table.clone(), here.clone()));
                return Ok(became);
            }
            Op::Insert => {
                if a.sequence.is_none() {
                    if let Some((seq, at)) = t.pending.take() {
                        a.notes.push(format!("its key is the value SELECT nextval('{seq}') took at {at}"));
                        a.sequence = Some(seq);
                    }
                }
                if let Some(seq) = a.sequence.clone() {
                    takes_from(&mut self.tables, &self.sequences, &a.table, &seq, here)?;
                }
            }
            _ => {}
        }
        if a.table == statements::ADVISORY_TABLE && !self.tables.iter().any(|t| t.name == a.table) {
            let mut def = TableDef::new(a.table.clone(), here.clone());
            def.primary_key = vec!["key".into()];
            def.rows = Some(statements::ADVISORY_KEYS);
            self.tables.push(def);
        }
        t.accesses.push((a, here.clone(), said.clone()));
        Ok(became)
    }
}

/// Table `table`'s keys come from sequence `seq` (an INSERT gives it `nextval('seq')`).
fn takes_from(
    tables: &mut [TableDef],
    sequences: &[crate::schema::Sequence],
    table: &str,
    seq: &str,
    here: &At,
) -> Result<(), ImportError> {
    if !sequences.iter().any(|s| s.name == seq) {
        return Err(ImportError { at: here.clone(), message: format!("nextval('{seq}'): no CREATE SEQUENCE {seq} above") });
    }
    let Some(t) = tables.iter_mut().find(|t| t.name == table) else {
        return Err(ImportError {
            at: here.clone(),
            message: format!("table `{table}` is not in the schema (give its CREATE TABLE first)"),
        });
    };
    match &t.sequence {
        Some(other) if other != seq => Err(ImportError {
            at: here.clone(),
            message: format!("{table} takes its keys from {other} already: one sequence per table here (each has its own counter row)"),
        }),
        _ => {
            t.sequence = Some(seq.to_string());
            Ok(())
        }
    }
}
