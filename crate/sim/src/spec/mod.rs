//! Workloads as data: a *spec* names tables and a weighted mix of transactions, each a
//! list of statements, each a batch of row operations with a key choice. The shipped
//! workloads (`shipped.rs`, JSON files in `crate/sim/workloads/`) are specs too; DBT2
//! stays built in (`workload.rs`).
//!
//! A spec is JSON, read and validated once (`Spec::from_json`); an error names the JSON
//! path (`workload.transactions[0].statements[2].rows`), the value and what is allowed.
//! After that, generating a transaction cannot fail (`program.rs`).
//!
//! How a spec runs:
//! - **API path.** `"mysqld"`: one round (NDB `execute()`) per statement, then a commit
//!   round, except that a one-statement transaction is an autocommit statement whose
//!   commit rides on it. `"ndbapi"`: every statement in one batch, committed with it.
//! - **Keys.** A row is (table, key); its partition is a hash of the key. The table that
//!   takes its keys from the id allocator (an `autoIncrement` or `hidden` key) is placed
//!   by the config's `partitioning` and `keyLayout` unless it names its own. The
//!   config's `primaryKey` gives `hidden` tables a primary key: an insert then takes a
//!   key unique to its client, and no id.
//! - **Placement per table.** A table may name its own `partitioning` and `keyLayout`
//!   (the allocator lab's, `keys.rs`); a range-partitioned table starts with its rows
//!   already cut into ranges (`RangeMap::presplit`).
//! - **Ids.** Every table that takes ids has its own SYSTAB_0 counter row and its own
//!   cached ranges (NDB keeps a tuple-id range per table). The first such table is the
//!   *principal*: the summary's `hotRow` figures and the id-cache mutexes are its; the
//!   others' counter rows are counted as tracked rows (`heat.rs`) and named as counter
//!   rows by the explanation.

use crate::error::ConfigError;
use crate::keys::{KeyLayout, Partitioning};
use crate::named::by_name;
use serde_json::Value;

mod keys;
mod program;
mod read;
mod shipped;
mod validate;
mod write;

pub(crate) use keys::KeyChooser;
pub(crate) use program::{ClientKeys, SpecState};
pub(crate) use shipped::shipped_ref;
pub use shipped::{describe, shipped, SHIPPED};

/// Most tables, transactions, statements per transaction, rows per statement and rows per
/// transaction a spec may have.
pub(crate) const MAX_TABLES: usize = 64;
pub(crate) const MAX_TRANSACTIONS: usize = crate::workload::MAX_SPEC_TRANSACTIONS;
pub(crate) const MAX_STATEMENTS: usize = 256;
pub const MAX_ROWS_PER_STATEMENT: u64 = 10_000;
pub(crate) const MAX_ROWS_PER_TRANSACTION: u64 = 60_000;
/// Most unique indexes a spec's tables have in all (each is a hidden table of its own).
pub(crate) const MAX_UNIQUE_INDEXES: usize = 64;
/// Rows of a table times the scale stay below this (keys are 56 bits).
pub const MAX_TABLE_ROWS: u64 = 1 << 48;
/// Most rows a slotted counter spreads over (`Statement::slots`): slot s of key k is the
/// row `k + s x MAX_TABLE_ROWS`, within 56 bits.
pub(crate) const MAX_SLOTS: u64 = 256;

/// Where a client's statements go through.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Api {
    /// SQL through mysqld: a round per statement.
    Mysqld,
    /// NDB API: one batched `execute(Commit)`.
    Ndbapi,
}

/// How a table's rows are keyed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum KeyKind {
    /// The application chooses the key.
    PrimaryKey,
    /// An AUTO_INCREMENT column: ids from the table's SYSTAB_0 row.
    AutoIncrement,
    /// No primary key: NDB adds a hidden key, also from SYSTAB_0.
    Hidden,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Table {
    pub name: String,
    /// Rows the table starts with (multiplied by the spec's `scale`).
    pub rows: u64,
    pub key: KeyKind,
    /// How its rows are placed: `hash` (NDB) or `range`. Absent: the config's
    /// `partitioning` for the tables taking ids, `hash` for the others.
    pub partitioning: Option<Partitioning>,
    /// How a key (an id, or a key the workload chooses) becomes the stored key. Absent:
    /// the config's `keyLayout` for the tables taking ids, `sequential` for the others.
    pub key_layout: Option<KeyLayout>,
    /// Its UNIQUE keys, by name: NDB keeps each in a hidden index table (`t.name$unique`),
    /// so an insert or a delete of a row also writes the index table's row, in the same
    /// round, on the partition a hash of the unique value picks.
    pub unique_indexes: Vec<String>,
    /// Partitioned on a column shared with other tables (`PARTITION BY KEY (w_id)`), which
    /// takes this many values (times `scale`): its rows come in that many equal runs of
    /// keys, one per value, and a row's partition is its value's, so rows of one value
    /// share a partition in every such table (as DBT2's rows of one warehouse do).
    pub distribution_values: Option<u64>,
    /// A table taking ids: how many ids each fetch takes from its counter row, its
    /// sequence's `CACHE` (1..=1000000). Absent: the config's `cacheSize` and `cacheGrowth`.
    pub id_cache: Option<u64>,
}

/// What a statement does to each of its rows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OpKind {
    Read,
    Update,
    Insert,
    Delete,
}

impl Api {
    const NAMES: &'static [&'static str] = &["mysqld", "ndbapi"];
}
impl KeyKind {
    const NAMES: &'static [&'static str] = &["primaryKey", "autoIncrement", "hidden"];
}
impl OpKind {
    const NAMES: &'static [&'static str] = &["read", "update", "insert", "delete"];
}
by_name!(Api, [Mysqld, Ndbapi]);
by_name!(KeyKind, [PrimaryKey, AutoIncrement, Hidden]);
by_name!(OpKind, [Read, Update, Insert, Delete]);

/// Which key each row of a statement gets. Read by hand (`keys.rs`) and written so
/// (`write.rs`): serde's internally
/// tagged enums buffer their input and cost the WebAssembly module 26 KiB.
#[derive(Clone, Debug, PartialEq)]
pub enum KeyChoice {
    /// Any key of the table, equally likely.
    Uniform,
    /// Key k with probability proportional to 1 / (k+1)^theta (YCSB's Zipfian).
    Zipfian { theta: f64 },
    /// `hotFraction` of the keys (the first ones) take `hotShare` of the accesses.
    Hotspot { hot_fraction: f64, hot_share: f64 },
    /// The table's next key (an insert: a new key after the last; else cycling through).
    Sequential,
    /// The key of row i of statement `statement` (an earlier one of this transaction).
    SameAs { statement: usize },
    /// pgbench's `random_exponential`: key k with probability falling as exp(-parameter k
    /// / rows), the first keys most often (parameter > 0).
    Exponential { parameter: f64 },
    /// pgbench's `random_gaussian`: a normal curve centred on the middle key, cut at
    /// `parameter` standard deviations either side (parameter >= 2).
    Gaussian { parameter: f64 },
    /// Always the row with this key (a constant in the `WHERE`): `0..rows`.
    Fixed { key: u64 },
    /// The row of the current time bucket (`WHERE day = CURDATE()`): key (simulated time /
    /// `bucketMs`) mod rows, so a run shorter than a bucket hits one row.
    TimeBucket { bucket_ms: u64 },
}

#[derive(Clone, Debug, PartialEq)]
pub struct Statement {
    pub op: OpKind,
    pub table: String,
    /// Rows in this statement (a multi-row INSERT, a batch).
    pub rows: u64,
    /// Absent: uniform for reads, updates and deletes, sequential for inserts; an insert
    /// into a table whose keys come from the allocator takes none.
    pub key: Option<KeyChoice>,
    /// A slotted counter (1..=256): each row is spread over this many rows; an update
    /// picks one of them at random, a read reads them all (and sums them). Absent: 1.
    pub slots: Option<u64>,
    /// On a table with `distributionValues`: its rows take the value of an earlier
    /// statement's rows (the same warehouse) or the client's own, each row another value a
    /// `remote` share of the time; its key is then drawn among that value's rows.
    pub distribution: Option<Distribution>,
    /// This statement and the `statements - 1` after it run as a block a drawn number of
    /// times (New-Order's 5 to 15 order lines), or only in a `share` of the transactions.
    pub repeat: Option<Repeat>,
    /// An update of UNIQUE columns: the table's unique indexes it sets. Each row also
    /// rewrites a row of each: the old value's index row deleted, the new one's inserted.
    pub sets_unique: Vec<String>,
    /// Hands the values of the rows it writes back to the transaction (SQL's `RETURNING`):
    /// the transaction uses them (a counter's number), which the remedies' warnings weigh.
    /// It costs nothing more: the values come back with the operation's reply.
    pub returning: bool,
}

/// Whose distribution value a statement's rows take: an earlier statement's rows' (`sameAs`),
/// or the client's own (`client`: client number mod values, as each DBT2 terminal keeps its
/// warehouse). One of the two.
#[derive(Clone, Debug, PartialEq)]
pub struct Distribution {
    /// An earlier statement of the transaction, on a table with as many values.
    pub same_as: Option<usize>,
    pub client: bool,
    /// The share of rows (0 to 1) that take another value instead, drawn uniformly (TPC-C's
    /// remote warehouse: 0.01 of New-Order's stock rows, 0.15 of Payment's customers).
    pub remote: f64,
}

/// How many times a block of statements runs in one transaction.
#[derive(Clone, Debug, PartialEq)]
pub struct Repeat {
    /// Fewest and most runs, drawn uniformly (0 to 1000; `max` absent: `min`).
    pub min: u64,
    pub max: Option<u64>,
    /// Statements in the block, this one first (default 1).
    pub statements: usize,
    /// The share of transactions (0 to 1] in which the block runs at all (default 1).
    pub share: f64,
}

/// Most times a block may repeat (`Repeat::max`).
pub const MAX_REPEAT: u64 = 1000;

#[derive(Clone, Debug, PartialEq)]
pub struct Transaction {
    pub name: String,
    /// Share of the mix, relative to the other transactions' weights (1..=1000000).
    pub weight: u64,
    pub statements: Vec<Statement>,
    /// Takes the rows it locks in key order: the keys drawn for a table's updates and
    /// deletes are handed to those statements sorted, as an application sorts the ids before
    /// it updates them. Two such transactions never wait for each other in a cycle on a
    /// table (the remedy for a lock-order deadlock). Default false: drawn order.
    pub sort_keys: bool,
}

/// A workload: tables and a weighted mix of transactions.
#[derive(Clone, Debug, PartialEq)]
pub struct Spec {
    pub name: String,
    pub about: String,
    pub api: Api,
    /// Multiplies every table's `rows` (TPC-B's scale factor: branches).
    pub scale: u64,
    pub tables: Vec<Table>,
    pub transactions: Vec<Transaction>,
}

/// Table id of table `i` of a spec (row keys are `table << 56 | key`): 11 and up, past
/// DBT2's tables, skipping 12, SYSTAB_0.
pub(crate) fn table_id(i: usize) -> u64 {
    if i == 0 {
        crate::workload::table::INSERT
    } else {
        crate::workload::table::SYSTAB + i as u64
    }
}

impl Spec {
    /// Reads and validates a spec; `at` is its JSON path (`workload`), which errors name.
    pub fn from_json(v: &Value, at: &str) -> Result<Spec, ConfigError> {
        let spec = <Spec as crate::read::Read>::read(v).map_err(|e| e.at(at, v))?;
        spec.validate(at)?;
        Ok(spec)
    }

    /// The table whose new rows the insert-skew report follows (and whose SYSTAB_0 row
    /// refills lock): the one taking ids, else the first one a transaction inserts into,
    /// else the first table.
    pub(crate) fn inserted_table(&self) -> usize {
        self.id_table().unwrap_or_else(|| {
            let first = self.transactions.iter().flat_map(|x| &x.statements).find(|s| s.op == OpKind::Insert);
            first.map_or(0, |s| self.table_index(&s.table))
        })
    }

    /// The index of the principal table taking ids from the allocator (the first), if any.
    pub(crate) fn id_table(&self) -> Option<usize> {
        self.tables.iter().position(|t| t.key != KeyKind::PrimaryKey)
    }

    /// The indices of every table taking ids from the allocator, the principal first.
    pub(crate) fn id_tables(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.tables.len()).filter(|&i| self.tables[i].key != KeyKind::PrimaryKey)
    }

    /// Table `i`'s partitioning: its own, or for the tables taking ids the config's, or hash.
    pub fn partitioning(&self, i: usize, config: Partitioning) -> Partitioning {
        let t = &self.tables[i];
        t.partitioning.unwrap_or(if t.key != KeyKind::PrimaryKey { config } else { Partitioning::Hash })
    }

    /// Table `i`'s key layout: its own, or for the tables taking ids the config's, or
    /// sequential.
    pub fn key_layout(&self, i: usize, config: KeyLayout) -> KeyLayout {
        let t = &self.tables[i];
        t.key_layout.unwrap_or(if t.key != KeyKind::PrimaryKey { config } else { KeyLayout::Sequential })
    }

    /// The table ids of table `i`'s unique index tables: after every table's own ids.
    pub(crate) fn index_table_ids(&self, i: usize) -> std::ops::Range<u64> {
        let first = self.tables.len() + self.first_index(i);
        table_id(first)..table_id(first + self.tables[i].unique_indexes.len())
    }

    /// The number among the spec's unique indexes of table `i`'s first (indexes are counted
    /// table by table, in the spec's order).
    pub(crate) fn first_index(&self, i: usize) -> usize {
        self.tables[..i].iter().map(|t| t.unique_indexes.len()).sum()
    }

    /// The name of the table (or unique index table) with id `id`, if the spec has it.
    pub fn table_name(&self, id: u64) -> Option<String> {
        if let Some(i) = (0..self.tables.len()).find(|&i| table_id(i) == id) {
            return Some(self.tables[i].name.clone());
        }
        (0..self.tables.len()).find_map(|i| {
            let ids = self.index_table_ids(i);
            ids.contains(&id)
                .then(|| format!("{}.{}$unique", self.tables[i].name, self.tables[i].unique_indexes[(id - ids.start) as usize]))
        })
    }

    /// The index of the table named `name` (validated specs name only their own tables).
    pub(crate) fn table_index(&self, name: &str) -> usize {
        self.tables.iter().position(|t| t.name == name).expect("a validated spec names its own tables")
    }
}
