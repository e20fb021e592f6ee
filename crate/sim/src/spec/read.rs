//! A spec read from JSON by hand (`read.rs`): each struct's fields listed once, read in
//! the order declared; absent optional fields take the defaults the struct documents.

use super::{Api, Distribution, KeyKind, OpKind, Repeat, Spec, Statement, Table, Transaction};
use crate::read::{Bad, Fields, Read};
use serde_json::Value;

impl Read for Spec {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::of(v, "struct Spec", &["name", "about", "api", "scale", "tables", "transactions"])?;
        Ok(Spec {
            name: f.need("name")?,
            about: f.or("about", String::new())?,
            api: f.need::<Api>("api")?,
            scale: f.or("scale", 1)?,
            tables: f.need("tables")?,
            transactions: f.need("transactions")?,
        })
    }
}

impl Read for Table {
    fn read(v: &Value) -> Result<Self, Bad> {
        const FIELDS: &[&str] = &["name", "rows", "key", "partitioning", "keyLayout", "uniqueIndexes", "distributionValues", "idCache"];
        let f = Fields::of(v, "struct Table", FIELDS)?;
        Ok(Table {
            name: f.need("name")?,
            rows: f.need("rows")?,
            key: f.need::<KeyKind>("key")?,
            partitioning: f.opt("partitioning")?,
            key_layout: f.opt("keyLayout")?,
            unique_indexes: f.or("uniqueIndexes", Vec::new())?,
            distribution_values: f.opt("distributionValues")?,
            id_cache: f.opt("idCache")?,
        })
    }
}

impl Read for Transaction {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::of(v, "struct Transaction", &["name", "weight", "statements", "sortKeys"])?;
        Ok(Transaction {
            name: f.need("name")?,
            weight: f.or("weight", 1)?,
            statements: f.need("statements")?,
            sort_keys: f.or("sortKeys", false)?,
        })
    }
}

impl Read for Statement {
    fn read(v: &Value) -> Result<Self, Bad> {
        const FIELDS: &[&str] = &["op", "table", "rows", "key", "slots", "distribution", "repeat", "setsUnique", "returning"];
        let f = Fields::of(v, "struct Statement", FIELDS)?;
        Ok(Statement {
            op: f.need::<OpKind>("op")?,
            table: f.need("table")?,
            rows: f.or("rows", 1)?,
            key: f.opt("key")?,
            slots: f.opt("slots")?,
            distribution: f.opt("distribution")?,
            repeat: f.opt("repeat")?,
            sets_unique: f.or("setsUnique", Vec::new())?,
            returning: f.or("returning", false)?,
        })
    }
}

impl Read for Distribution {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::of(v, "struct Distribution", &["sameAs", "client", "remote"])?;
        Ok(Distribution { same_as: f.opt("sameAs")?, client: f.or("client", false)?, remote: f.or("remote", 0.0)? })
    }
}

impl Read for Repeat {
    fn read(v: &Value) -> Result<Self, Bad> {
        let f = Fields::of(v, "struct Repeat", &["min", "max", "statements", "share"])?;
        Ok(Repeat { min: f.or("min", 1)?, max: f.opt("max")?, statements: f.or("statements", 1)?, share: f.or("share", 1.0)? })
    }
}
