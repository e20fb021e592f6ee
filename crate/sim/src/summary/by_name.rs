//! A small map from names to values, in name order, written as a JSON object: the summary's
//! per-transaction figures. A list rather than a `BTreeMap` (each map type's code costs the
//! main WebAssembly module kilobytes, as `Intervals::metrics` found); read it by name as a
//! map is read (`by["payment"]`, `get`, iteration in name order).

use serde::{Serialize, Serializer};

#[derive(Clone, Debug, PartialEq)]
pub struct ByName<T>(Vec<(String, T)>);

impl<T> Default for ByName<T> {
    fn default() -> Self {
        ByName(Vec::new())
    }
}

impl<T> ByName<T> {
    /// Puts `value` under `name`, keeping name order (a name given twice keeps the last).
    pub fn insert(&mut self, name: String, value: T) {
        match self.0.iter().position(|(n, _)| n.as_str() >= name.as_str()) {
            Some(i) if self.0[i].0 == name => self.0[i].1 = value,
            Some(i) => self.0.insert(i, (name, value)),
            None => self.0.push((name, value)),
        }
    }

    pub fn get(&self, name: &str) -> Option<&T> {
        self.0.iter().find(|(n, _)| n == name).map(|(_, v)| v)
    }

    pub fn iter(&self) -> impl Iterator<Item = (&String, &T)> {
        self.0.iter().map(|(n, v)| (n, v))
    }

    pub fn len(&self) -> usize {
        self.0.len()
    }

    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
}

impl<T> std::ops::Index<&str> for ByName<T> {
    type Output = T;
    fn index(&self, name: &str) -> &T {
        self.get(name).unwrap_or_else(|| panic!("no {name}"))
    }
}

impl<'a, T> IntoIterator for &'a ByName<T> {
    type Item = (&'a String, &'a T);
    type IntoIter = std::iter::Map<std::slice::Iter<'a, (String, T)>, fn(&'a (String, T)) -> (&'a String, &'a T)>;
    fn into_iter(self) -> Self::IntoIter {
        self.0.iter().map(|(n, v)| (n, v))
    }
}

impl<T: Serialize> Serialize for ByName<T> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.collect_map(self.0.iter().map(|(n, v)| (n, v)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_in_order_read_as_a_map() {
        let mut m = ByName::default();
        for (n, v) in [("payment", 2), ("delivery", 1), ("refill", 3), ("payment", 4)] {
            m.insert(n.to_string(), v);
        }
        assert_eq!(m.iter().map(|(n, _)| n.as_str()).collect::<Vec<_>>(), ["delivery", "payment", "refill"]);
        assert_eq!((m["payment"], m.get("x"), m.len()), (4, None, 3));
        assert_eq!(serde_json::to_string(&m).unwrap(), r#"{"delivery":1,"payment":4,"refill":3}"#);
    }
}
