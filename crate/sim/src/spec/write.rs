//! A spec written as JSON by hand, as `read.rs` reads it: each struct's fields in the order
//! declared, an optional field left out when absent (or at its default: no `about`, no
//! `sortKeys`, a `share` of 1), a key choice tagged by its `dist`. By hand rather than by
//! serde's derives, which cost the WebAssembly module every embed loads about 3 KB gzipped
//! (a serializer per struct and field type); `Serialize` writes this value.

use super::{Distribution, KeyChoice, Repeat, Spec, Statement, Table, Transaction};
use serde::{Serialize, Serializer};
use serde_json::{Map, Value};

/// An object's fields as they are written, in order.
#[derive(Default)]
struct Object(Map<String, Value>);

impl Object {
    #[inline(never)]
    fn put(mut self, name: &str, v: Value) -> Object {
        self.0.insert(name.to_string(), v);
        self
    }

    /// `name` when it is there.
    fn opt(self, name: &str, v: Option<Value>) -> Object {
        match v {
            Some(v) => self.put(name, v),
            None => self,
        }
    }

    fn done(self) -> Value {
        Value::Object(self.0)
    }
}

fn list<T>(items: &[T], each: impl Fn(&T) -> Value) -> Value {
    Value::Array(items.iter().map(each).collect())
}

fn strings(items: &[String]) -> Option<Value> {
    (!items.is_empty()).then(|| list(items, |s| Value::from(s.as_str())))
}

impl Spec {
    /// The spec as JSON: what `Spec::from_json` reads back to an equal spec.
    pub fn to_json(&self) -> Value {
        Object::default()
            .put("name", Value::from(self.name.as_str()))
            .opt("about", (!self.about.is_empty()).then(|| Value::from(self.about.as_str())))
            .put("api", Value::from(super::Api::NAMES[self.api as usize]))
            .put("scale", Value::from(self.scale))
            .put("tables", list(&self.tables, Table::to_json))
            .put("transactions", list(&self.transactions, Transaction::to_json))
            .done()
    }
}

impl Table {
    fn to_json(&self) -> Value {
        Object::default()
            .put("name", Value::from(self.name.as_str()))
            .put("rows", Value::from(self.rows))
            .put("key", Value::from(super::KeyKind::NAMES[self.key as usize]))
            .opt("partitioning", self.partitioning.map(|p| Value::from(crate::keys::Partitioning::NAMES[p as usize])))
            .opt("keyLayout", self.key_layout.map(|k| Value::from(crate::keys::KeyLayout::NAMES[k as usize])))
            .opt("uniqueIndexes", strings(&self.unique_indexes))
            .opt("distributionValues", self.distribution_values.map(Value::from))
            .opt("idCache", self.id_cache.map(Value::from))
            .done()
    }
}

impl Transaction {
    fn to_json(&self) -> Value {
        Object::default()
            .put("name", Value::from(self.name.as_str()))
            .put("weight", Value::from(self.weight))
            .put("statements", list(&self.statements, Statement::to_json))
            .opt("sortKeys", self.sort_keys.then_some(Value::Bool(true)))
            .done()
    }
}

impl Statement {
    fn to_json(&self) -> Value {
        Object::default()
            .put("op", Value::from(super::OpKind::NAMES[self.op as usize]))
            .put("table", Value::from(self.table.as_str()))
            .put("rows", Value::from(self.rows))
            .opt("key", self.key.as_ref().map(KeyChoice::to_json))
            .opt("slots", self.slots.map(Value::from))
            .opt("distribution", self.distribution.as_ref().map(Distribution::to_json))
            .opt("repeat", self.repeat.as_ref().map(Repeat::to_json))
            .opt("setsUnique", strings(&self.sets_unique))
            .opt("returning", self.returning.then_some(Value::Bool(true)))
            .done()
    }
}

impl Distribution {
    fn to_json(&self) -> Value {
        Object::default()
            .opt("sameAs", self.same_as.map(Value::from))
            .opt("client", self.client.then_some(Value::Bool(true)))
            .opt("remote", (self.remote != 0.0).then(|| Value::from(self.remote)))
            .done()
    }
}

impl Repeat {
    fn to_json(&self) -> Value {
        Object::default()
            .put("min", Value::from(self.min))
            .opt("max", self.max.map(Value::from))
            .put("statements", Value::from(self.statements))
            .opt("share", (self.share != 1.0).then(|| Value::from(self.share)))
            .done()
    }
}

impl KeyChoice {
    /// The choice as JSON, its kind in `dist`: `{ "dist": "zipfian", "theta": 0.99 }`.
    pub fn to_json(&self) -> Value {
        let dist = |name: &str| Object::default().put("dist", Value::from(name));
        match *self {
            KeyChoice::Uniform => dist("uniform"),
            KeyChoice::Zipfian { theta } => dist("zipfian").put("theta", Value::from(theta)),
            KeyChoice::Hotspot { hot_fraction, hot_share } => {
                dist("hotspot").put("hotFraction", Value::from(hot_fraction)).put("hotShare", Value::from(hot_share))
            }
            KeyChoice::Sequential => dist("sequential"),
            KeyChoice::SameAs { statement } => dist("sameAs").put("statement", Value::from(statement)),
            KeyChoice::Exponential { parameter } => dist("exponential").put("parameter", Value::from(parameter)),
            KeyChoice::Gaussian { parameter } => dist("gaussian").put("parameter", Value::from(parameter)),
            KeyChoice::Fixed { key } => dist("fixed").put("key", Value::from(key)),
            KeyChoice::TimeBucket { bucket_ms } => dist("timeBucket").put("bucketMs", Value::from(bucket_ms)),
        }
        .done()
    }
}

impl Serialize for Spec {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

impl Serialize for KeyChoice {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        self.to_json().serialize(s)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::read::Read;
    use serde_json::json;

    /// Every field written, each optional one present and absent: what the reader reads
    /// back from the writer's JSON is that JSON again, field for field.
    #[test]
    fn the_writer_writes_what_the_reader_reads() {
        let every = json!({
            "name": "every", "about": "each field", "api": "ndbapi", "scale": 3,
            "tables": [
                { "name": "t", "rows": 10, "key": "autoIncrement", "partitioning": "range", "keyLayout": "shardBits",
                  "uniqueIndexes": ["email"], "distributionValues": 4, "idCache": 50 },
                { "name": "u", "rows": 0, "key": "hidden" }
            ],
            "transactions": [
                { "name": "a", "weight": 2, "sortKeys": true, "statements": [
                    { "op": "insert", "table": "t", "rows": 2, "setsUnique": ["email"], "returning": true,
                      "repeat": { "min": 1, "max": 3, "statements": 1, "share": 0.5 } },
                    { "op": "update", "table": "t", "rows": 1, "key": { "dist": "zipfian", "theta": 0.99 }, "slots": 8,
                      "distribution": { "sameAs": 0, "client": true, "remote": 0.1 } },
                    { "op": "read", "table": "t", "rows": 1, "key": { "dist": "hotspot", "hotFraction": 0.1, "hotShare": 0.9 },
                      "repeat": { "min": 2, "statements": 1 } }
                ] },
                { "name": "b", "weight": 1, "statements": [
                    { "op": "delete", "table": "u", "rows": 1, "key": { "dist": "uniform" }, "distribution": {} }
                ] }
            ]
        });
        let spec = <Spec as Read>::read(&every).unwrap();
        assert_eq!(spec.to_json(), every);
        assert_eq!(serde_json::to_value(&spec).unwrap(), every, "Serialize writes the same");
        for key in [
            json!({ "dist": "sequential" }),
            json!({ "dist": "sameAs", "statement": 1 }),
            json!({ "dist": "exponential", "parameter": 2.5 }),
            json!({ "dist": "gaussian", "parameter": 0.2 }),
            json!({ "dist": "fixed", "key": 7 }),
            json!({ "dist": "timeBucket", "bucketMs": 60000 }),
        ] {
            assert_eq!(KeyChoice::read(&key).unwrap().to_json(), key);
        }
    }
}
