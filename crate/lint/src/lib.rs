//! The repository's own checks live in this crate's tests (`tests/code_map.rs`,
//! `tests/structure.rs`): they read the tree (crate/ARCHITECTURE.md's code map and every
//! crate's and the package's sources), so that no crate's tests read another's files.
//! Nothing here is built into anything.
