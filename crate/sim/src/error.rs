//! The one error of the crate's input: a configuration (or workload spec) value that
//! cannot be used, with its path, the value and what is allowed.

use std::fmt;

/// A configuration that cannot be used, naming the field, the value and what is allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Dotted camelCase path of the field (`cacheSize`, `cpu.lqhWriteNs`, `preset`).
    pub field: String,
    /// The value given, as JSON text (`null` when missing).
    pub value: String,
    /// What the field accepts.
    pub allowed: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid config: `{}` = {}: {}", self.field, self.value, self.allowed)
    }
}

impl std::error::Error for ConfigError {}

impl ConfigError {
    pub fn new(field: &str, value: impl fmt::Display, allowed: impl Into<String>) -> ConfigError {
        ConfigError::made(field, &value, allowed.into())
    }

    /// `new`'s work, compiled once rather than for each type of value it is given (15 copies
    /// cost the WebAssembly module 6 KiB before wasm-opt).
    #[inline(never)]
    fn made(field: &str, value: &dyn fmt::Display, allowed: String) -> ConfigError {
        // An empty name (`{"": 1}`) is named so a person can see what is wrong.
        let field = if field.is_empty() || field.ends_with('.') { format!("{field}(empty name)") } else { field.to_string() };
        ConfigError { field, value: value.to_string(), allowed }
    }
}
