//! Reading JSON by hand: a config and a workload spec are read from a `serde_json::Value`
//! field by field, with serde's wording for what is wrong and the path of where.
//!
//! serde's derived `Deserialize` compiled a visitor per struct, per enum and per
//! deserializer, and `serde_path_to_error` wrapped each again: reading by hand took the
//! WebAssembly module, which every page embedding the playground loads, from 299 to 277 KB
//! gzipped. Here each type's reader is one plain function over a `Value`, and a path is
//! only built on the way out of an error.
//!
//! A struct is read with [`Fields`]: its field names are listed once; an unknown field is
//! refused, a missing one named. An error is a [`Bad`]: serde's message (`invalid type:
//! string "x", expected a non-negative integer`, `missing field `name``, `unknown field
//! `x`, expected one of ...`) and the path inside the value read (`tables[0].rows`; for a
//! missing or an unknown field, its own), which [`Bad::at`] turns into a [`ConfigError`]
//! naming the whole path and the value found there. A tagged object (a fault, a key choice)
//! reads every variant's fields flat, then the tag's variant takes its own and refuses the
//! others' ([`Fields::only`]).

use crate::error::ConfigError;
use serde_json::{Map, Value};

/// What is wrong with a value, and where inside it.
#[derive(Debug)]
pub(crate) struct Bad {
    /// The path from the value read to the part that is wrong (`tables[0].rows`, or empty).
    path: String,
    msg: String,
}

impl Bad {
    pub(crate) fn new(msg: impl Into<String>) -> Bad {
        Bad { path: String::new(), msg: msg.into() }
    }

    /// serde's "invalid type: string \"x\", expected ...".
    #[inline(never)]
    pub(crate) fn invalid_type(v: &Value, expected: &str) -> Bad {
        Bad::new(format!("invalid type: {}, expected {expected}", unexpected(v)))
    }

    /// The same error, one field further in: inside field `name`.
    #[inline(never)]
    fn in_field(mut self, name: &str) -> Bad {
        self.path = match self.path.as_bytes().first() {
            None => name.to_string(),
            Some(b'[') => format!("{name}{}", self.path),
            Some(_) => format!("{name}.{}", self.path),
        };
        self
    }

    /// The same error, inside item `i` of an array.
    #[inline(never)]
    fn in_item(mut self, i: usize) -> Bad {
        self.path =
            if self.path.is_empty() || self.path.starts_with('[') { format!("[{i}]{}", self.path) } else { format!("[{i}].{}", self.path) };
        self
    }

    /// The error as a user meets it: the value read sits at `at` (`workload`, or empty for
    /// a whole config) in `root`; the field named is `at` and the path, the value the one
    /// found there.
    pub(crate) fn at(self, at: &str, root: &Value) -> ConfigError {
        let field = match (at.is_empty(), self.path.is_empty()) {
            (_, true) => at.to_string(),
            (true, false) => self.path.clone(),
            (false, false) if self.path.starts_with('[') => format!("{at}{}", self.path),
            (false, false) => format!("{at}.{}", self.path),
        };
        let value = lookup(root, &self.path).map_or("null".to_string(), |v| v.to_string());
        ConfigError::new(&field, value, self.msg)
    }
}

/// The value at a dotted camelCase path (`cpu.lqhWriteNs`, `faults[0].dataNode`) of a config as JSON.
pub fn lookup<'a>(v: &'a Value, dotted: &str) -> Option<&'a Value> {
    // A part may index an array (`faults[0].dataNode`, as an error's path names it).
    dotted.split('.').try_fold(v, |v, part| {
        let mut pieces = part.split('[');
        let v = match pieces.next() {
            Some("") | None => v,
            Some(k) => v.get(k)?,
        };
        pieces.try_fold(v, |v, i| v.get(i.strip_suffix(']')?.parse::<usize>().ok()?))
    })
}

/// serde's words for what a value is (`integer `5``, `string "x"`, `map`).
fn unexpected(v: &Value) -> String {
    match v {
        Value::Null => "null".to_string(),
        Value::Bool(b) => format!("boolean `{b}`"),
        Value::Number(n) => match (n.as_u64(), n.as_i64()) {
            (Some(u), _) => format!("integer `{u}`"),
            (None, Some(i)) => format!("integer `{i}`"),
            // As serde_json prints a float: `1.5`, `2.0`, `1e300`.
            _ => format!("floating point `{n}`"),
        },
        Value::String(s) => format!("string {s:?}"),
        Value::Array(_) => "sequence".to_string(),
        Value::Object(_) => "map".to_string(),
    }
}

/// serde's list of what was expected: `` `a` ``, `` `a` or `b` ``, `` one of `a`, `b`, `c` ``,
/// or that there are no `what` (fields, variants).
fn expected_one_of(names: &[&str], what: &str) -> String {
    let quoted: Vec<String> = names.iter().map(|n| format!("`{n}`")).collect();
    match quoted.len() {
        0 => format!("there are no {what}"),
        1 => format!("expected {}", quoted[0]),
        2 => format!("expected {} or {}", quoted[0], quoted[1]),
        _ => format!("expected one of {}", quoted.join(", ")),
    }
}

/// A type read from JSON.
pub(crate) trait Read: Sized {
    fn read(v: &Value) -> Result<Self, Bad>;
}

/// A non-negative integer at most `max` (serde says `u64` as "a non-negative integer").
#[inline(never)]
fn integer(v: &Value, max: u64) -> Result<u64, Bad> {
    const WHAT: &str = "a non-negative integer";
    let Value::Number(n) = v else { return Err(Bad::invalid_type(v, WHAT)) };
    match (n.as_u64(), n.as_i64()) {
        (Some(u), _) if u <= max => Ok(u),
        (Some(_), _) | (None, Some(_)) => Err(Bad::new(format!("invalid value: {}, expected {WHAT}", unexpected(v)))),
        (None, None) => Err(Bad::invalid_type(v, WHAT)),
    }
}

impl Read for u64 {
    fn read(v: &Value) -> Result<Self, Bad> {
        integer(v, u64::MAX)
    }
}

impl Read for u32 {
    fn read(v: &Value) -> Result<Self, Bad> {
        integer(v, u32::MAX as u64).map(|u| u as u32)
    }
}

/// An index or a count, read as a `u32` on every target, so that a value too large is
/// refused alike natively and in WebAssembly (where `usize` is 32 bits).
impl Read for usize {
    fn read(v: &Value) -> Result<Self, Bad> {
        integer(v, u32::MAX as u64).map(|u| u as usize)
    }
}

impl Read for f64 {
    fn read(v: &Value) -> Result<Self, Bad> {
        match v {
            Value::Number(n) => Ok(n.as_f64().expect("a JSON number is an f64")),
            _ => Err(Bad::invalid_type(v, "f64")),
        }
    }
}

impl Read for bool {
    fn read(v: &Value) -> Result<Self, Bad> {
        v.as_bool().ok_or_else(|| Bad::invalid_type(v, "a boolean"))
    }
}

impl Read for String {
    fn read(v: &Value) -> Result<Self, Bad> {
        v.as_str().map(str::to_string).ok_or_else(|| Bad::invalid_type(v, "a string"))
    }
}

impl<T: Read> Read for Vec<T> {
    fn read(v: &Value) -> Result<Self, Bad> {
        let Value::Array(items) = v else { return Err(Bad::invalid_type(v, "a sequence")) };
        items.iter().enumerate().map(|(i, x)| T::read(x).map_err(|e| e.in_item(i))).collect()
    }
}

/// The position in `names` of the name `v` holds: a fieldless enum read by its name.
pub(crate) fn name_index(v: &Value, names: &[&str]) -> Result<usize, Bad> {
    let Value::String(s) = v else { return Err(Bad::invalid_type(v, "a string")) };
    let found = names.iter().position(|n| n == s);
    found.ok_or_else(|| Bad::new(format!("unknown variant `{s}`, {}", expected_one_of(names, "variants"))))
}

/// An object's fields, read by name. Every field given is one of `names`, checked when
/// made; each is then read at most once by its struct's reader.
pub(crate) struct Fields<'a> {
    map: &'a Map<String, Value>,
    names: &'static [&'static str],
    /// A field whose value is null counts as not given ([`Fields::nulls_absent`]).
    nulls_absent: bool,
}

impl<'a> Fields<'a> {
    /// `v`'s fields, if `v` is an object whose fields are all among `names`; `expecting`
    /// names what it should be (serde's `struct Table`, or a phrase).
    #[inline(never)]
    pub(crate) fn of(v: &'a Value, expecting: &str, names: &'static [&'static str]) -> Result<Fields<'a>, Bad> {
        let f = Fields::merged(v, expecting)?;
        if let Some(k) = f.map.keys().find(|k| !names.contains(&k.as_str())) {
            return Err(Bad::new(format!("unknown field `{k}`, {}", expected_one_of(names, "fields"))).in_field(k));
        }
        Ok(Fields { names, ..f })
    }

    /// The fields of an object whose fields were checked already: a config merged over its
    /// defaults (`config/json.rs`), which names an unknown field with the fields around it.
    #[inline(never)]
    pub(crate) fn merged(v: &'a Value, expecting: &str) -> Result<Fields<'a>, Bad> {
        let Value::Object(map) = v else { return Err(Bad::invalid_type(v, expecting)) };
        Ok(Fields { map, names: &[], nulls_absent: false })
    }

    /// The same fields, a null among them taken for a field not given (a key choice's, whose
    /// fields are all optional until its `dist` picks them).
    pub(crate) fn nulls_absent(self) -> Fields<'a> {
        Fields { nulls_absent: true, ..self }
    }

    #[inline(never)]
    fn get(&self, name: &'static str) -> Option<&'a Value> {
        // Checked in every build the tests run (the `ci` profile has no debug assertions).
        assert!(self.names.is_empty() || self.names.contains(&name), "`{name}` is not among the fields listed");
        self.map.get(name).filter(|v| !(self.nulls_absent && v.is_null()))
    }

    /// A field that must be given.
    #[inline(never)]
    pub(crate) fn need<T: Read>(&self, name: &'static str) -> Result<T, Bad> {
        match self.get(name) {
            Some(v) => T::read(v).map_err(|e| e.in_field(name)),
            // Named by its own path (its value: null), not its parent's.
            None => Err(Bad::new(format!("missing field `{name}`")).in_field(name)),
        }
    }

    /// A field with a default when it is not given (a null is read, and refused).
    #[inline(never)]
    pub(crate) fn or<T: Read>(&self, name: &'static str, default: T) -> Result<T, Bad> {
        match self.get(name) {
            Some(v) => T::read(v).map_err(|e| e.in_field(name)),
            None => Ok(default),
        }
    }

    /// An optional field: not given, or null, is `None`.
    #[inline(never)]
    pub(crate) fn opt<T: Read>(&self, name: &'static str) -> Result<Option<T>, Bad> {
        match self.get(name) {
            None | Some(Value::Null) => Ok(None),
            Some(v) => T::read(v).map(Some).map_err(|e| e.in_field(name)),
        }
    }

    /// Refuses every field given beyond `own` (a tagged object's variant's) and `tag`:
    /// serde's "unknown field", naming the variant's fields as those expected.
    #[inline(never)]
    pub(crate) fn only(&self, tag: &str, own: &[&str]) -> Result<(), Bad> {
        let given = |(k, v): &(&String, &Value)| !(self.nulls_absent && v.is_null()) && *k != tag && !own.contains(&k.as_str());
        match self.map.iter().find(given).map(|(k, _)| k) {
            Some(k) => Err(Bad::new(format!("unknown field `{k}`, {}", expected_one_of(own, "fields"))).in_field(k)),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    const NAMES: &[&str] = &["a", "b"];

    fn read_ab(v: &Value) -> Result<(u32, Option<f64>), Bad> {
        let f = Fields::of(v, "struct AB", NAMES)?;
        Ok((f.need("a")?, f.opt("b")?))
    }

    fn err<T: std::fmt::Debug>(r: Result<T, Bad>) -> (String, String) {
        let e = r.unwrap_err();
        (e.path, e.msg)
    }

    #[test]
    fn messages_are_serdes() {
        assert_eq!(err(u64::read(&json!("x"))).1, r#"invalid type: string "x", expected a non-negative integer"#);
        assert_eq!(err(u64::read(&json!(-1))).1, "invalid value: integer `-1`, expected a non-negative integer");
        assert_eq!(err(u32::read(&json!(5_000_000_000u64))).1, "invalid value: integer `5000000000`, expected a non-negative integer");
        assert_eq!(err(u64::read(&json!(2.0))).1, "invalid type: floating point `2.0`, expected a non-negative integer");
        assert_eq!(err(u64::read(&json!(1.5))).1, "invalid type: floating point `1.5`, expected a non-negative integer");
        assert_eq!(err(u64::read(&json!(1e300))).1, "invalid type: floating point `1e300`, expected a non-negative integer");
        assert_eq!(err(f64::read(&Value::Null)).1, "invalid type: null, expected f64");
        assert_eq!(err(bool::read(&json!(1))).1, "invalid type: integer `1`, expected a boolean");
        assert_eq!(err(String::read(&json!([]))).1, "invalid type: sequence, expected a string");
        assert_eq!(err(Vec::<u64>::read(&json!({}))).1, "invalid type: map, expected a sequence");
        assert_eq!(err(name_index(&json!("c"), NAMES)).1, "unknown variant `c`, expected `a` or `b`");
        assert_eq!(f64::read(&json!(3)).unwrap(), 3.0);
    }

    #[test]
    fn paths_name_where() {
        assert_eq!(err(Vec::<Vec<u64>>::read(&json!([[1], [2, "x"]]))).0, "[1][1]");
        assert_eq!(err(read_ab(&json!({"a": 1, "c": 2}))), ("c".into(), "unknown field `c`, expected `a` or `b`".into()));
        assert_eq!(err(read_ab(&json!({"b": 1}))), ("a".into(), "missing field `a`".into()));
        assert_eq!(err(read_ab(&json!({"a": 1, "b": "x"}))).0, "b");
        assert_eq!(read_ab(&json!({"a": 1, "b": null})).unwrap(), (1, None));
        let nested = err(Vec::<(u32, Option<f64>)>::read(&json!([{"a": 1}, {"a": true}])));
        assert_eq!(nested.0, "[1].a");
        let root = json!({"w": [{"a": 1}, {"a": true}]});
        let e = Bad::new("m").in_field("a").in_item(1).at("w", &root["w"]);
        assert_eq!((e.field.as_str(), e.value.as_str()), ("w[1].a", "true"));
    }

    impl Read for (u32, Option<f64>) {
        fn read(v: &Value) -> Result<Self, Bad> {
            read_ab(v)
        }
    }
}
