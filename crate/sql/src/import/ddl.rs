//! The schema's statements: `CREATE TABLE` (with its `rows=` and `values=` annotations and
//! its `PARTITION BY`), `ALTER TABLE`'s added keys, `CREATE INDEX`, `CREATE SEQUENCE`.

use sqlparser::ast::{AlterTable, CreateIndex, CreateTable, ObjectName, SequenceOptions};

use super::Reader;
use crate::schema::{self, Sequence, TableDef};
use crate::{annotations, At, ImportError};

impl Reader<'_> {
    pub(super) fn create_table(
        &mut self,
        c: &CreateTable,
        here: At,
        pairs: &[(String, String, At)],
        partition: Option<String>,
    ) -> Result<String, ImportError> {
        let pair = |key: &str| pairs.iter().find(|(k, _, _)| k == key);
        let mut t = schema::from_create(c, here.clone());
        if self.tables.iter().any(|x| x.name == t.name) {
            return Err(ImportError { at: here, message: format!("table `{}` is created twice", t.name) });
        }
        if let Some(Err(e)) = &t.id_cache {
            return Err(ImportError { at: here, message: format!("{}: {e}", t.name) });
        }
        if let Some(seq) = &t.sequence {
            self.sequence_of(seq, &here)?;
        }
        if let Some((_, v, at)) = pair("rows") {
            t.rows = Some(annotations::number(v, at, "rows", 0, hotrow::spec::MAX_TABLE_ROWS - 1)?);
        }
        if let Some((_, v, at)) = pair("values") {
            t.values = Some((annotations::number(v, at, "values", 1, hotrow::spec::MAX_TABLE_ROWS - 1)?, at.clone()));
        }
        t.partition_by = partition;
        let became = format!("table {}", t.name);
        self.tables.push(t);
        Ok(became)
    }

    pub(super) fn alter_table(&mut self, a: &AlterTable, here: At) -> Result<String, ImportError> {
        let name = schema::name_of(&a.name);
        let t = self.created(&name, &here, "ALTER TABLE")?;
        for ignored in schema::alter(t, &a.operations) {
            self.say(&here, format!("ALTER TABLE {name} {ignored}: ignored (only added keys matter here)"));
        }
        Ok(format!("keys of {name}"))
    }

    /// CREATE INDEX: a UNIQUE one is a key of its table; another is said and left out.
    pub(super) fn create_index(&mut self, ci: &CreateIndex, here: At) -> Result<String, ImportError> {
        let name = schema::name_of(&ci.table_name);
        let t = self.created(&name, &here, "CREATE INDEX on")?;
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
        self.say(&here, text);
        Ok(format!("index on {name}"))
    }

    /// CREATE SEQUENCE: an id source; its CACHE is how many values a fetch takes from its
    /// counter row (on NDB, per API node, as AUTO_INCREMENT's), absent the cluster's.
    pub(super) fn create_sequence(&mut self, name: &ObjectName, options: &[SequenceOptions], here: At) -> Result<String, ImportError> {
        let name = schema::name_of(name);
        if self.sequences.iter().any(|s| s.name == name) {
            return Err(ImportError { at: here, message: format!("sequence `{name}` is created twice") });
        }
        let cache = schema::cache_of(options)
            .transpose()
            .map_err(|e| ImportError { at: here.clone(), message: format!("CREATE SEQUENCE {name}: {e}") })?;
        let cache = cache.map(|n| n.clamp(1, MAX_CACHE));
        let how = match cache {
            Some(n) => format!("CACHE {n}: a fetch takes {n} value{} from its counter row", if n == 1 { "" } else { "s" }),
            None => {
                "no CACHE: a fetch takes the cluster's cacheSize values from its counter row (PostgreSQL's own default is CACHE 1)".into()
            }
        };
        self.say(
            &here,
            format!("CREATE SEQUENCE {name}: an id source, its counter row in SYSTAB_0 as AUTO_INCREMENT's is, cached per API node; {how}"),
        );
        // INCREMENT, START, MINVALUE, MAXVALUE, CYCLE, OWNED BY: which values, not how
        // they are fetched.
        let others: Vec<String> =
            options.iter().filter(|o| !matches!(o, SequenceOptions::Cache(_))).map(|o| o.to_string().trim().to_string()).collect();
        if !others.is_empty() {
            self.say(
                &here,
                format!("CREATE SEQUENCE {name} {}: these change which values it gives, not how they are fetched", others.join(" ")),
            );
        }
        let became = format!("sequence {name}");
        self.sequences.push(Sequence { name, cache });
        Ok(became)
    }

    /// The table named `name`, which `what` (`ALTER TABLE`) names, or why not.
    fn created(&mut self, name: &str, here: &At, what: &str) -> Result<&mut TableDef, ImportError> {
        let at = here.clone();
        self.tables
            .iter_mut()
            .find(|t| t.name == name)
            .ok_or_else(|| ImportError { at, message: format!("{what} `{name}`: not created above") })
    }

    /// The sequence named `name`, or why not.
    pub(super) fn sequence_of(&self, name: &str, here: &At) -> Result<&Sequence, ImportError> {
        self.sequences
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| ImportError { at: here.clone(), message: format!("nextval('{name}'): no CREATE SEQUENCE {name} above") })
    }
}

/// The largest cache a sequence may have here: the config's `cacheSize` limit.
pub(super) const MAX_CACHE: u64 = 1_000_000;
