//! Reading a tagged JSON object flat, by hand: every variant's fields read into one struct
//! of optional fields, then the tag's variant takes its own and refuses the others' (as
//! serde's derive for an internally tagged enum would, without buffering its input, which
//! made that derive the WebAssembly module's largest code). Key choices (`spec/keys.rs`) and
//! faults (`config/fault.rs`) are read so.

use serde::de::Error;

/// Field `name`'s value, or serde's "missing field" error.
pub(crate) fn need<T, E: Error>(v: Option<T>, name: &'static str) -> Result<T, E> {
    v.ok_or_else(|| E::missing_field(name))
}

/// Refuses a field `given` (name, present) that is not among the variant's `own`: serde's
/// "unknown field" error, naming the variant's fields as those expected.
pub(crate) fn only_own<E: Error>(given: &[(&'static str, bool)], own: &'static [&'static str]) -> Result<(), E> {
    match given.iter().find(|(name, present)| *present && !own.contains(name)) {
        Some((name, _)) => Err(E::unknown_field(name, own)),
        None => Ok(()),
    }
}

/// A field given or not (with `#[serde(default)]`). Unlike `Option`, a JSON null is
/// refused, as the derive refused it, not taken for "not given".
pub(crate) struct Given<T>(pub(crate) Option<T>);

impl<T> Default for Given<T> {
    fn default() -> Self {
        Given(None)
    }
}

impl<'de, T: serde::Deserialize<'de>> serde::Deserialize<'de> for Given<T> {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        T::deserialize(d).map(|v| Given(Some(v)))
    }
}
