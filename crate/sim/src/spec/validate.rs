//! A spec's checks: every table, transaction and statement against its allowed range, the
//! key choices' parameters, and what a statement may name (its table, an earlier
//! statement whose keys are known); an error names the JSON path.

use super::{keys, KeyChoice, KeyKind, OpKind, Spec, Transaction, MAX_ROWS_PER_STATEMENT, MAX_ROWS_PER_TRANSACTION, MAX_SLOTS};
use super::{Statement, Table, MAX_REPEAT, MAX_STATEMENTS, MAX_TABLES, MAX_TABLE_ROWS, MAX_TRANSACTIONS, MAX_UNIQUE_INDEXES};
use crate::error::{ConfigError, Shown};

impl Spec {
    pub(super) fn validate(&self, at: &str) -> Result<(), ConfigError> {
        let err = |path: String, value: &dyn Shown, allowed: String| Err(ConfigError::new(&path, value, allowed));
        if self.name.is_empty() || self.name.len() > 64 {
            return err(format!("{at}.name"), &format!("{:?}", self.name), "a name of 1 to 64 characters".into());
        }
        if !(1..=100_000).contains(&self.scale) {
            return err(format!("{at}.scale"), &self.scale, "must be an integer from 1 to 100000".into());
        }
        if self.tables.is_empty() || self.tables.len() > MAX_TABLES {
            return err(format!("{at}.tables"), &format!("{} tables", self.tables.len()), format!("1 to {MAX_TABLES} tables"));
        }
        for (i, t) in self.tables.iter().enumerate() {
            let here = format!("{at}.tables[{i}]");
            if t.name.is_empty() || t.name.len() > 64 {
                return err(format!("{here}.name"), &format!("{:?}", t.name), "a name of 1 to 64 characters".into());
            }
            if self.tables[..i].iter().any(|o| o.name == t.name) {
                return err(format!("{here}.name"), &format!("{:?}", t.name), "table names must differ".into());
            }
            if t.rows.saturating_mul(self.scale) > MAX_TABLE_ROWS {
                return err(format!("{here}.rows"), &t.rows, format!("rows x scale must be at most 2^48 (scale {})", self.scale));
            }
            for (j, u) in t.unique_indexes.iter().enumerate() {
                if u.is_empty() || u.len() > 64 || t.unique_indexes[..j].contains(u) {
                    return err(format!("{here}.uniqueIndexes[{j}]"), &format!("{u:?}"), "a name of 1 to 64 characters, each once".into());
                }
            }
            validate_values(t, &here)?;
            if let Some(n) = t.id_cache {
                if t.key == KeyKind::PrimaryKey || !(1..=1_000_000).contains(&n) {
                    let allowed = "a table taking ids (autoIncrement or hidden) fetches 1 to 1000000 ids at a time";
                    return err(format!("{here}.idCache"), &n, allowed.into());
                }
            }
        }
        let indexes: usize = self.tables.iter().map(|t| t.unique_indexes.len()).sum();
        if indexes > MAX_UNIQUE_INDEXES {
            return err(
                format!("{at}.tables"),
                &format!("{indexes} unique indexes"),
                format!("at most {MAX_UNIQUE_INDEXES} unique indexes in all"),
            );
        }
        if self.transactions.is_empty() || self.transactions.len() > MAX_TRANSACTIONS {
            let n = self.transactions.len();
            return err(format!("{at}.transactions"), &format!("{n} transactions"), format!("1 to {MAX_TRANSACTIONS} transactions"));
        }
        for (i, x) in self.transactions.iter().enumerate() {
            self.validate_transaction(x, &format!("{at}.transactions[{i}]"))?;
            if self.transactions[..i].iter().any(|o| o.name == x.name) {
                return err(format!("{at}.transactions[{i}].name"), &format!("{:?}", x.name), "transaction names must differ".into());
            }
        }
        Ok(())
    }

    fn validate_transaction(&self, x: &Transaction, at: &str) -> Result<(), ConfigError> {
        let reserved = ["refill", "newOrder", "payment", "orderStatus", "delivery", "stockLevel"];
        if x.name.is_empty() || x.name.len() > 64 || reserved.contains(&x.name.as_str()) {
            return Err(ConfigError::new(
                &format!("{at}.name"),
                format!("{:?}", x.name),
                "a name of 1 to 64 characters, not one of DBT2's or `refill`",
            ));
        }
        if !(1..=1_000_000).contains(&x.weight) {
            return Err(ConfigError::new(&format!("{at}.weight"), x.weight, "must be an integer from 1 to 1000000"));
        }
        if x.statements.is_empty() || x.statements.len() > MAX_STATEMENTS {
            let n = x.statements.len();
            return Err(ConfigError::new(
                &format!("{at}.statements"),
                format!("{n} statements"),
                format!("1 to {MAX_STATEMENTS} statements"),
            ));
        }
        let mut total = 0;
        // The block the statement is in, if any: its last statement and its most runs.
        let mut block: Option<(usize, u64)> = None;
        for (i, s) in x.statements.iter().enumerate() {
            let here = format!("{at}.statements[{i}]");
            let Some(table) = self.tables.iter().find(|t| t.name == s.table) else {
                let names: Vec<&str> = self.tables.iter().map(|t| t.name.as_str()).collect();
                return Err(ConfigError::new(
                    &format!("{here}.table"),
                    format!("{:?}", s.table),
                    format!("one of the spec's tables: {}", names.join(", ")),
                ));
            };
            let slots = validate_rows_and_slots(s, &here)?;
            block = block.filter(|&(end, _)| i <= end);
            if let Some(r) = &s.repeat {
                if block.is_some() {
                    return Err(ConfigError::new(&format!("{here}.repeat"), "a block", "starts inside another block: blocks do not nest"));
                }
                block = Some((i + validate_repeat(r, i, x.statements.len(), &here)? - 1, r.max.unwrap_or(r.min)));
            }
            self.validate_distribution(s, i, table, x, &here)?;
            validate_sets_unique(s, table, &here)?;
            let index_rows = match s.op {
                OpKind::Insert | OpKind::Delete => table.unique_indexes.len() as u64,
                OpKind::Update => 2 * s.sets_unique.len() as u64,
                OpKind::Read => 0,
            };
            total += block.map_or(1, |b| b.1) * s.rows * if s.op == OpKind::Read { slots } else { 1 + index_rows };
            if total > MAX_ROWS_PER_TRANSACTION {
                return Err(ConfigError::new(
                    &format!("{here}.rows"),
                    s.rows,
                    format!("a transaction may touch at most {MAX_ROWS_PER_TRANSACTION} rows in all"),
                ));
            }
            self.validate_key(s, i, table, x, &here)?;
        }
        Ok(())
    }

    /// Statement `i`'s key choice: none for an insert whose key the allocator gives; a
    /// fixed key within the table; `sameAs` never naming such an insert.
    fn validate_key(&self, s: &Statement, i: usize, table: &Table, x: &Transaction, here: &str) -> Result<(), ConfigError> {
        let allocated = s.op == OpKind::Insert && table.key != KeyKind::PrimaryKey;
        let k = match (&s.key, allocated) {
            (None, _) => return Ok(()),
            (Some(_), true) => {
                return Err(ConfigError::new(
                    &format!("{here}.key"),
                    "a key choice",
                    format!("an insert into `{}` ({:?} key) takes its key from the id allocator: remove `key`", table.name, table.key),
                ))
            }
            (Some(k), false) => k,
        };
        keys::validate(k, i, &format!("{here}.key"))?;
        let rows = table.rows.max(1) * self.scale;
        if let KeyChoice::Fixed { key } = *k {
            if key >= rows {
                return Err(ConfigError::new(
                    &format!("{here}.key.key"),
                    key,
                    format!("must be a key of `{}`: 0 to {} (rows x scale - 1)", table.name, rows - 1),
                ));
            }
        }
        if let KeyChoice::SameAs { statement } = *k {
            let theirs = &x.statements[statement];
            let their_table = self.tables.iter().find(|t| t.name == theirs.table);
            if theirs.op == OpKind::Insert && their_table.is_some_and(|t| t.key != KeyKind::PrimaryKey) {
                return Err(ConfigError::new(
                    &format!("{here}.key.statement"),
                    statement,
                    "names an insert whose key the id allocator gives, which is not known when the transaction is drawn",
                ));
            }
        }
        Ok(())
    }
}

/// A statement's rows and slots in range (slots only for an update or a read): its slots.
fn validate_rows_and_slots(s: &Statement, here: &str) -> Result<u64, ConfigError> {
    if !(1..=MAX_ROWS_PER_STATEMENT).contains(&s.rows) {
        return Err(ConfigError::new(&format!("{here}.rows"), s.rows, format!("must be an integer from 1 to {MAX_ROWS_PER_STATEMENT}")));
    }
    let slots = s.slots.unwrap_or(1);
    if !(1..=MAX_SLOTS).contains(&slots) {
        return Err(ConfigError::new(&format!("{here}.slots"), slots, format!("must be an integer from 1 to {MAX_SLOTS}")));
    }
    if slots > 1 && !matches!(s.op, OpKind::Update | OpKind::Read) {
        return Err(ConfigError::new(
            &format!("{here}.slots"),
            slots,
            "spreads the rows of an update or a read; an insert or a delete takes none",
        ));
    }
    Ok(slots)
}

/// An update's `setsUnique`: each once, each one of its table's unique indexes.
fn validate_sets_unique(s: &Statement, table: &Table, here: &str) -> Result<(), ConfigError> {
    for (j, u) in s.sets_unique.iter().enumerate() {
        if s.op != OpKind::Update || !table.unique_indexes.contains(u) || s.sets_unique[..j].contains(u) {
            return Err(ConfigError::new(
                &format!("{here}.setsUnique[{j}]"),
                format!("{u:?}"),
                format!("an update's, each once, of `{}`'s unique indexes: {:?}", table.name, table.unique_indexes),
            ));
        }
    }
    Ok(())
}

impl Spec {
    fn validate_distribution(&self, s: &Statement, i: usize, table: &Table, x: &Transaction, here: &str) -> Result<(), ConfigError> {
        let Some(d) = &s.distribution else { return Ok(()) };
        let at = format!("{here}.distribution");
        let Some(values) = table.distribution_values else {
            return Err(ConfigError::new(
                &at,
                "a distribution",
                format!("`{}` has no `distributionValues`: its rows have no shared value", table.name),
            ));
        };
        match (d.same_as, d.client) {
            (Some(j), false) => {
                let theirs = x.statements.get(j).filter(|_| j < i).and_then(|t| self.tables.iter().find(|o| o.name == t.table));
                if theirs.is_none_or(|t| t.distribution_values != Some(values)) {
                    return Err(ConfigError::new(
                        &format!("{at}.sameAs"),
                        j,
                        format!(
                            "an earlier statement (0 to {}) on a table with `distributionValues` {values}, as `{}` has",
                            i.max(1) - 1,
                            table.name
                        ),
                    ));
                }
            }
            (None, true) => {}
            _ => return Err(ConfigError::new(&at, "both or neither", "takes one of `sameAs` (an earlier statement) and `client: true`")),
        }
        if !(0.0..=1.0).contains(&d.remote) {
            return Err(ConfigError::new(&format!("{at}.remote"), d.remote, "a share from 0 to 1"));
        }
        Ok(())
    }
}

/// A table's `distributionValues`: a whole number of rows per value, on a table whose keys
/// the application chooses and which no other placement field moves.
fn validate_values(t: &Table, here: &str) -> Result<(), ConfigError> {
    let Some(v) = t.distribution_values else { return Ok(()) };
    let at = format!("{here}.distributionValues");
    if v == 0 || v > t.rows || !t.rows.is_multiple_of(v) {
        return Err(ConfigError::new(&at, v, format!("must divide the table's rows ({}): each value has as many rows", t.rows)));
    }
    if t.key != KeyKind::PrimaryKey || t.partitioning.is_some() || t.key_layout.is_some() {
        return Err(ConfigError::new(
            &at,
            v,
            "is for a `primaryKey` table without its own `partitioning` or `keyLayout` (a table taking ids is placed by its id)",
        ));
    }
    Ok(())
}

/// A block's `repeat`: its runs and share in range, its statements within the transaction.
/// Returns the block's statements.
fn validate_repeat(r: &super::Repeat, i: usize, len: usize, here: &str) -> Result<usize, ConfigError> {
    let max = r.max.unwrap_or(r.min);
    if r.min > MAX_REPEAT || max < r.min || max > MAX_REPEAT {
        return Err(ConfigError::new(
            &format!("{here}.repeat"),
            format!("min {} max {max}", r.min),
            format!("0 <= min <= max <= {MAX_REPEAT}"),
        ));
    }
    // `len - i`, not `i + statements`, which could wrap for a count near usize::MAX.
    if r.statements == 0 || r.statements > len - i {
        return Err(ConfigError::new(
            &format!("{here}.repeat.statements"),
            r.statements,
            format!("1 to {} (this statement and those after it)", len - i),
        ));
    }
    if !(r.share > 0.0 && r.share <= 1.0) {
        return Err(ConfigError::new(&format!("{here}.repeat.share"), r.share, "a share of transactions, more than 0 and at most 1"));
    }
    Ok(r.statements)
}
