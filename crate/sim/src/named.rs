//! Fieldless enums written and read as their names, by hand: `by_name!(Engine, [Ndb,
//! Postgres, Innodb, Raft])` gives the enum `Serialize`, `Deserialize` (for the crates that
//! read a summary back) and the config's reader (`read.rs`) through its `NAMES`
//! (variant `i` is `NAMES[i]`), where serde's derive would compile a visitor of its own for
//! each enum into the WebAssembly module. Errors are serde's: an unknown name is
//! `unknown variant `x`, expected one of ...`.

use serde::de::Error;
use serde::{Deserialize, Deserializer};

/// The position in `names` of the name `d` holds.
pub(crate) fn index<'de, D: Deserializer<'de>>(d: D, names: &'static [&'static str]) -> Result<usize, D::Error> {
    let name = std::borrow::Cow::<'de, str>::deserialize(d)?;
    names.iter().position(|n| *n == name).ok_or_else(|| D::Error::unknown_variant(&name, names))
}

/// `Serialize` and `Deserialize` for a fieldless enum through its `NAMES`, which list the
/// variants in their order (the field table's test reads every name back).
macro_rules! by_name {
    ($t:ident, [$($v:ident),+ $(,)?]) => {
        impl serde::Serialize for $t {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str($t::NAMES[*self as usize])
            }
        }

        impl crate::read::Read for $t {
            fn read(v: &serde_json::Value) -> Result<Self, crate::read::Bad> {
                const ALL: &[$t] = &[$($t::$v),+];
                crate::read::name_index(v, $t::NAMES).map(|i| ALL[i])
            }
        }

        impl<'de> serde::Deserialize<'de> for $t {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                const ALL: &[$t] = &[$($t::$v),+];
                const _: () = assert!(ALL.len() == $t::NAMES.len(), "a name for each variant");
                crate::named::index(d, $t::NAMES).map(|i| ALL[i])
            }
        }
    };
}
pub(crate) use by_name;
