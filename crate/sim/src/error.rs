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
    pub fn new(field: &str, value: impl Shown, allowed: impl Into<String>) -> ConfigError {
        ConfigError::made(field, &value, allowed.into())
    }

    /// `new`'s work, compiled once rather than for each type of value it is given (15 copies
    /// cost the WebAssembly module 6 KiB before wasm-opt).
    #[inline(never)]
    fn made(field: &str, value: &dyn Shown, allowed: String) -> ConfigError {
        // An empty name (`{"": 1}`) is named so a person can see what is wrong.
        let field = if field.is_empty() || field.ends_with('.') { format!("{field}(empty name)") } else { field.to_string() };
        ConfigError { field, value: value.text(), allowed }
    }
}

/// A value as an error shows it: as `Display` writes it, a number as `{}` writes it (an
/// `f64` through `decimal.rs`, so that the WebAssembly module carries no float formatter).
pub trait Shown {
    fn text(&self) -> String;
}

macro_rules! shown_by_display {
    ($($t:ty),+) => {
        $(impl Shown for $t {
            fn text(&self) -> String {
                self.to_string()
            }
        })+
    };
}
shown_by_display!(&str, String, &String, u64, &u64, u32, &u32, usize, i64, i32, serde_json::Value, &serde_json::Value);

impl Shown for &dyn Shown {
    fn text(&self) -> String {
        (**self).text()
    }
}

impl Shown for f64 {
    fn text(&self) -> String {
        crate::decimal::shortest(*self)
    }
}
