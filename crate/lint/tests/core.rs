//! The core's own invariants that a test can check by reading its source: its short
//! dependency list, no I/O or clocks in it, no model code that knows a preset, the summary
//! apart from the simulation. Here with the repository's other checks, so that the core's
//! own tests read nothing of its source.

mod common;

use common::{code, sources_in, ROOT};
use std::path::{Path, PathBuf};

/// The core crate (crate/sim).
fn core() -> PathBuf {
    Path::new(ROOT).join("crate/sim")
}

fn sources() -> Vec<PathBuf> {
    sources_in(&core().join("src"))
}

#[test]
fn the_core_depends_only_on_its_short_list() {
    let manifest = std::fs::read_to_string(core().join("Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    let mut names: Vec<&str> =
        deps.lines().filter_map(|l| l.split('=').next()).map(str::trim).filter(|n| !n.is_empty() && !n.starts_with('#')).collect();
    names.sort();
    // serde for JSON in and out; libm for a pow() that is the same natively and in wasm.
    assert_eq!(names, ["libm", "serde", "serde_json"]);
}

#[test]
fn the_core_does_no_io_and_reads_no_clock() {
    for path in sources() {
        let text = code(&path);
        for banned in [
            "std::fs",
            "std::io",
            "std::process",
            "std::time",
            "std::env",
            "std::thread",
            "std::net",
            "print!",
            "println!",
            "eprint!",
            "eprintln!",
            "dbg!",
            "Instant",
            "SystemTime",
            "thread_rng",
        ] {
            assert!(!text.contains(banned), "{} uses {banned}", path.display());
        }
    }
}

#[test]
fn the_model_never_branches_on_a_preset_name() {
    let model = core().join("src/sim");
    for path in sources().iter().filter(|p| p.starts_with(&model)) {
        let text = code(path);
        for (name, _) in hotrow::PRESETS {
            assert!(!text.contains(&format!("\"{name}\"")), "{} names preset {name}", path.display());
        }
    }
}

#[test]
fn the_summary_does_not_import_the_simulation() {
    for file in ["summary.rs", "rates.rs", "metrics.rs", "counts.rs"] {
        let text = code(&core().join("src").join(file));
        assert!(!text.contains("crate::sim") && !text.contains("Simulation"), "{file} imports the simulation");
    }
}

/// The glossary's rule (crate/ARCHITECTURE.md, **unit**): a name with a time in it ends in
/// its unit. A field that holds simulated time (`Ns`, an instant or a span) says `_ns`.
#[test]
fn every_time_field_names_its_unit() {
    let mut bare = Vec::new();
    for path in sources() {
        for (i, line) in code(&path).lines().enumerate() {
            let decl = line.trim_start().trim_start_matches("pub(crate) ").trim_start_matches("pub(super) ").trim_start_matches("pub ");
            let Some((name, ty)) = decl.split_once(": ") else { continue };
            let is_field = !name.is_empty() && name.chars().all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '_');
            let holds_time = ["Ns,", "Option<Ns>,", "Vec<Ns>,", "Vec<Option<Ns>>,"].contains(&ty.trim_end());
            if is_field && holds_time && !name.ends_with("_ns") {
                bare.push(format!("{}:{}: {name}", path.display(), i + 1));
            }
        }
    }
    assert!(bare.is_empty(), "time fields without their unit (`_ns`): {bare:#?}");
}
