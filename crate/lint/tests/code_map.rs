//! The code map: every source file of every crate and of the package is named in
//! crate/ARCHITECTURE.md and at most 400 lines, and every path the map names exists.

mod common;
use common::{sources_in, ROOT};
use std::path::Path;

/// Every file of the core (`crate/sim/src`, subfolders too) is named by its path under it,
/// and is at most 400 lines: one idea per file.
#[test]
fn the_cores_files_stay_small_and_the_code_map_names_each() {
    let src = Path::new(ROOT).join("crate/sim/src");
    let map = std::fs::read_to_string(Path::new(ROOT).join("crate/ARCHITECTURE.md")).unwrap();
    let all = sources_in(&src);
    assert!(all.len() > 50, "only {} files found: the scan is broken", all.len());
    for path in all {
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines <= 400, "{} has {lines} lines", path.display());
        let rel = path.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/");
        assert!(map.contains(&format!("`{rel}`")), "ARCHITECTURE.md's code map does not name `{rel}`");
    }
}

/// Every source file of the shells (the other crates, the package's entry points and the
/// playground's modules) is named in a code map of ARCHITECTURE.md: a crate's as
/// `NAME/src/FILE`, the package's as `js/FILE`, the playground's by its file name; and each is at
/// most 400 lines, as the core's are.
#[test]
fn the_code_map_names_every_file_of_every_crate_and_of_js() {
    let root = Path::new(ROOT);
    let map = std::fs::read_to_string(root.join("crate/ARCHITECTURE.md")).unwrap();
    let files = |dir: &Path, exts: &[&str]| -> Vec<String> {
        let mut out: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().path())
            .filter(|p| p.is_file() && exts.iter().any(|x| p.to_string_lossy().ends_with(x)))
            .map(|p| p.file_name().unwrap().to_string_lossy().to_string())
            .collect();
        out.sort();
        out
    };
    let mut named = 0;
    // One idea per file: a file past 400 lines is usually two.
    let small = |path: &Path| {
        let lines = std::fs::read_to_string(path).unwrap().lines().count();
        assert!(lines <= 400, "{} has {lines} lines", path.display());
    };
    for krate in ["cli", "fit", "sql", "report", "wasm", "fit-wasm", "sql-wasm", "report-wasm", "lint"] {
        let src = root.join("crate").join(krate).join("src");
        for f in files(&src, &[".rs"]) {
            assert!(map.contains(&format!("`{krate}/src/{f}`")), "ARCHITECTURE.md's code map does not name `{krate}/src/{f}`");
            small(&src.join(&f));
            named += 1;
        }
    }
    for f in files(&root.join("js"), &[".js", ".mjs", ".d.ts"]) {
        assert!(map.contains(&format!("`js/{f}`")), "ARCHITECTURE.md's code map does not name `js/{f}`");
        small(&root.join("js").join(&f));
        named += 1;
    }
    for f in files(&root.join("js/element"), &[".js", ".d.ts"]) {
        assert!(map.contains(&format!("`{f}`")), "ARCHITECTURE.md's playground map does not name `{f}`");
        small(&root.join("js/element").join(&f));
        named += 1;
    }
    assert!(named > 40, "only {named} files found: the scan is broken");
}

/// Every path ARCHITECTURE.md names in backticks exists: a file or folder of the
/// repository, or of the section's own folder (`crate/sim/src`, `js/element`).
#[test]
fn every_path_the_architecture_names_exists() {
    let root = Path::new(ROOT);
    let map = std::fs::read_to_string(root.join("crate/ARCHITECTURE.md")).unwrap();
    let bases = ["", "crate/sim/src", "crate", "crate/sim", "js", "js/element"];
    let mut checked = 0;
    for quoted in map.split('`').skip(1).step_by(2) {
        let path = quoted.split("::").next().unwrap();
        let looks_like_a_path = !path.contains(' ')
            && !path.contains('*')
            && (path.contains('/')
                || [".rs", ".js", ".mjs", ".md", ".json", ".sh", ".html", ".ts", ".txt"].iter().any(|e| path.ends_with(e)));
        if !looks_like_a_path {
            continue;
        }
        assert!(bases.iter().any(|b| root.join(b).join(path).exists()), "ARCHITECTURE.md names `{path}`, which does not exist");
        // A build's output exists here but not in a fresh clone, where this test runs first.
        let generated = ["dist/", "www/dist", "target/", "node_modules/", "custom-elements.json"];
        assert!(!generated.iter().any(|g| path.starts_with(g)), "ARCHITECTURE.md names `{path}`, which only a build makes");
        checked += 1;
    }
    assert!(checked > 60, "only {checked} paths found: the scan is broken");
}

/// Every source file a comment names in backticks (`heat.rs`, `explain/resources.rs`,
/// `crate/sql/src/import.rs`) exists: under its own crate's `src` (a bare name anywhere in
/// it), or from the repository's root. A file that moves leaves no comment pointing at it.
#[test]
fn every_file_a_comment_names_exists() {
    let root = Path::new(ROOT);
    let (mut checked, mut missing) = (0, Vec::new());
    for krate in ["sim", "cli", "fit", "sql", "report", "wasm", "fit-wasm", "sql-wasm", "report-wasm"] {
        let src = root.join("crate").join(krate).join("src");
        let files = sources_in(&src);
        let names: Vec<String> = files.iter().map(|p| p.strip_prefix(&src).unwrap().to_string_lossy().replace('\\', "/")).collect();
        for path in &files {
            for (n, line) in std::fs::read_to_string(path).unwrap().lines().enumerate() {
                let Some((_, comment)) = line.split_once("//") else { continue };
                for quoted in comment.split('`').skip(1).step_by(2) {
                    if quoted.contains(' ') || !quoted.ends_with(".rs") {
                        continue;
                    }
                    checked += 1;
                    let found = if quoted.contains('/') {
                        names.iter().any(|x| x == quoted || x.ends_with(&format!("/{quoted}"))) || root.join(quoted).exists()
                    } else {
                        names.iter().any(|x| x == quoted || x.ends_with(&format!("/{quoted}")))
                    };
                    if !found {
                        missing.push(format!("{}:{}: `{quoted}`", path.strip_prefix(root).unwrap_or(path).display(), n + 1));
                    }
                }
            }
        }
    }
    assert!(checked > 100, "only {checked} names found: the scan is broken");
    assert!(missing.is_empty(), "comments naming files that do not exist:\n{}", missing.join("\n"));
}
