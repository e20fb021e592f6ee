//! Nothing: this package exists for its dependencies, the two tools `scripts/wasm-tools.sh`
//! builds (see Cargo.toml).
