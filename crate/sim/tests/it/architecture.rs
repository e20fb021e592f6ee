//! The architecture invariants that a test can check by reading the source: the core's
//! short dependency list, no I/O or clocks in it, no model code that knows a preset, small
//! files, and a code map in ARCHITECTURE.md that names every file.

use std::path::{Path, PathBuf};

const CRATE: &str = env!("CARGO_MANIFEST_DIR");

fn sources() -> Vec<PathBuf> {
    sources_in(&Path::new(CRATE).join("src"))
}

/// Every `.rs` file under `src`, in order.
fn sources_in(src: &Path) -> Vec<PathBuf> {
    fn walk(dir: &Path, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, out);
            } else if path.extension().is_some_and(|e| e == "rs") {
                out.push(path);
            }
        }
    }
    let mut out = Vec::new();
    walk(src, &mut out);
    out.sort();
    out
}

/// The code outside comments (doc and line comments dropped).
fn code(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap().lines().map(|l| l.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

#[test]
fn the_core_depends_only_on_its_short_list() {
    let manifest = std::fs::read_to_string(Path::new(CRATE).join("Cargo.toml")).unwrap();
    let deps = manifest.split("[dependencies]").nth(1).unwrap().split("\n[").next().unwrap();
    let mut names: Vec<&str> =
        deps.lines().filter_map(|l| l.split('=').next()).map(str::trim).filter(|n| !n.is_empty() && !n.starts_with('#')).collect();
    names.sort();
    // serde for JSON in and out; libm for a pow() that is the same natively and in wasm.
    assert_eq!(names, ["libm", "serde", "serde_json", "serde_path_to_error"]);
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
    let model = Path::new(CRATE).join("src/sim");
    for path in sources().iter().filter(|p| p.starts_with(&model)) {
        let text = code(path);
        for (name, _) in hotrow::PRESETS {
            assert!(!text.contains(&format!("\"{name}\"")), "{} names preset {name}", path.display());
        }
    }
}

#[test]
fn files_stay_small_and_the_code_map_names_each() {
    let map = std::fs::read_to_string(Path::new(CRATE).join("../ARCHITECTURE.md")).unwrap();
    for path in sources() {
        let lines = std::fs::read_to_string(&path).unwrap().lines().count();
        assert!(lines <= 400, "{} has {lines} lines", path.display());
        let rel = path.strip_prefix(Path::new(CRATE).join("src")).unwrap().to_string_lossy().replace('\\', "/");
        assert!(map.contains(&format!("`{rel}`")), "ARCHITECTURE.md's code map does not name `{rel}`");
    }
}

/// Every source file of the shells (the other crates, the package's entry points and the
/// playground's modules) is named in a code map of ARCHITECTURE.md: a crate's as
/// `NAME/src/FILE`, the package's as `js/FILE`, the playground's by its file name; and each is at
/// most 400 lines, as the core's are.
#[test]
fn the_code_map_names_every_file_of_every_crate_and_of_js() {
    let root = Path::new(CRATE).join("../..");
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
    for krate in ["cli", "fit", "sql", "report", "wasm", "fit-wasm", "sql-wasm", "report-wasm"] {
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
    let root = Path::new(CRATE).join("../..");
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

#[test]
fn the_summary_does_not_import_the_simulation() {
    for file in ["summary.rs", "rates.rs", "metrics.rs", "counts.rs"] {
        let text = code(&Path::new(CRATE).join("src").join(file));
        assert!(!text.contains("crate::sim") && !text.contains("Simulation"), "{file} imports the simulation");
    }
}

/// Top-level modules (a directory counts as one) never import each other both ways.
#[test]
fn no_two_modules_import_each_other() {
    let src = Path::new(CRATE).join("src");
    let module_of = |p: &Path| -> String {
        let rel = p.strip_prefix(&src).unwrap();
        let first = rel.components().next().unwrap().as_os_str().to_string_lossy().to_string();
        first.trim_end_matches(".rs").to_string()
    };
    let mut edges = std::collections::BTreeSet::new();
    for path in sources() {
        let from = module_of(&path);
        for to in crate_modules(&code(&path)) {
            if to != from {
                edges.insert((from.clone(), to));
            }
        }
    }
    for (a, b) in &edges {
        assert!(!edges.contains(&(b.clone(), a.clone())), "{a} and {b} import each other");
    }
    assert!(edges.contains(&("sim".to_string(), "summary".to_string())), "the scan found the imports: {edges:?}");
}

/// No import cycle of any length among the top-level modules (a directory counts as one)
/// of any crate (the core, the CLI, the SQL import, the fit, the report): every strongly
/// connected component of the import graph is one module, so the dependencies can be read
/// in one order. (The CLI's sweep command and its grid once imported each other.)
#[test]
fn the_module_graph_has_no_cycle() {
    for krate in ["sim", "cli", "sql", "fit", "report"] {
        let src = Path::new(CRATE).join("..").join(krate).join("src");
        let root = if src.join("lib.rs").exists() { src.join("lib.rs") } else { src.join("main.rs") };
        let reexported = reexports_of(&root);
        let module_of = |p: &Path| -> String {
            let rel = p.strip_prefix(&src).unwrap();
            rel.components().next().unwrap().as_os_str().to_string_lossy().trim_end_matches(".rs").to_string()
        };
        let mut edges: std::collections::BTreeMap<String, std::collections::BTreeSet<String>> = Default::default();
        for path in sources_in(&src) {
            let from = module_of(&path);
            for to in modules_named(&code(&path), &reexported) {
                let module = src.join(format!("{to}.rs")).exists() || src.join(&to).is_dir();
                if to != from && module {
                    edges.entry(from.clone()).or_default().insert(to);
                }
            }
        }
        assert!(!edges.is_empty(), "{krate}: the scan found no imports");
        // A module is on a cycle when it reaches itself.
        let reach = |start: &str| -> std::collections::BTreeSet<String> {
            let (mut seen, mut stack) = (std::collections::BTreeSet::new(), vec![start.to_string()]);
            while let Some(m) = stack.pop() {
                for n in edges.get(&m).into_iter().flatten() {
                    if seen.insert(n.clone()) {
                        stack.push(n.clone());
                    }
                }
            }
            seen
        };
        let cycles: Vec<String> = edges
            .keys()
            .filter(|m| reach(m).contains(*m))
            .map(|m| format!("{m} -> {}", reach(m).into_iter().filter(|n| reach(n).contains(m)).collect::<Vec<_>>().join(", ")))
            .collect();
        assert!(cycles.is_empty(), "crate/{krate}: modules on an import cycle (each with the modules of its cycle): {cycles:#?}");
    }
}

/// The items the crate root re-exports, each with the top-level module it comes from
/// (`pub use sim::{Simulation, ...}` in lib.rs: `Simulation` is `sim`'s), aliases by
/// their new names.
fn reexports() -> std::collections::BTreeMap<String, String> {
    reexports_of(&Path::new(CRATE).join("src/lib.rs"))
}

/// The items the crate root at `root` (its lib.rs or main.rs) re-exports, by module.
fn reexports_of(root: &Path) -> std::collections::BTreeMap<String, String> {
    let lib = code(root);
    let mut out = std::collections::BTreeMap::new();
    for line in lib.split(';') {
        let Some(rest) = line.trim().strip_prefix("pub use ") else { continue };
        let Some((module, items)) = rest.split_once("::") else { continue };
        let items = items.trim().trim_start_matches('{').trim_end_matches('}');
        for item in items.split(',') {
            let name = item.split(" as ").last().unwrap_or(item).trim();
            if !name.is_empty() {
                out.insert(name.to_string(), module.trim().to_string());
            }
        }
    }
    out
}

/// The top-level modules that `crate::` paths in `code` name: in `use` lines, grouped
/// (`use crate::{a, b::c}`, over several lines too) or inline (`crate::keys::key_of(..)`);
/// an item the crate root re-exports (`crate::Simulation`) counts as its module's.
/// A file's unit tests (`#[cfg(test)] mod tests`, last) are not the build's graph: the
/// catalog's run a simulation to read its summary.
fn crate_modules(code: &str) -> Vec<String> {
    modules_named(code, &reexports())
}

/// `crate_modules` with the root's re-exports given.
fn modules_named(code: &str, reexported: &std::collections::BTreeMap<String, String>) -> Vec<String> {
    let built = code.find("#[cfg(test)]\nmod tests").map_or(code, |i| &code[..i]);
    crate_paths(built).into_iter().map(|m| reexported.get(&m).cloned().unwrap_or(m)).collect()
}

/// The top-level names that `crate::` paths in `code` name: in `use` lines, grouped
/// (`use crate::{a, b::c}`, over several lines too) or inline (`crate::keys::key_of(..)`).
fn crate_paths(code: &str) -> Vec<String> {
    let ident = |s: &str| -> String { s.trim_start().chars().take_while(|c| c.is_alphanumeric() || *c == '_').collect() };
    let mut out = Vec::new();
    for rest in code.split("crate::").skip(1) {
        if let Some(group) = rest.strip_prefix('{') {
            // Top-level items of the group: split on commas outside nested braces.
            let (mut depth, mut item) = (0, String::new());
            for c in group.chars() {
                match c {
                    '{' => depth += 1,
                    '}' if depth == 0 => break,
                    '}' => depth -= 1,
                    ',' if depth == 0 => {
                        out.push(ident(&item));
                        item.clear();
                        continue;
                    }
                    _ => {}
                }
                item.push(c);
            }
            out.push(ident(&item));
        } else {
            out.push(ident(rest));
        }
    }
    out.retain(|m| !m.is_empty() && m != "self");
    out
}

/// `crate::Simulation` is `sim`'s: a module that names it imports the simulation (the
/// explanation's zero-load probe once did, through the root, and the scan missed the cycle
/// summary -> explain -> sim -> summary).
#[test]
fn the_import_scan_follows_the_roots_reexports() {
    assert_eq!(crate_modules("use crate::Simulation;\nlet s: crate::Summary;"), ["sim", "summary"]);
    assert_eq!(reexports().get("hot_rows_report").map(String::as_str), Some("row_report"), "an alias by its new name");
}

#[test]
fn the_import_scan_reads_grouped_and_inline_paths() {
    let got = crate_paths("use crate::{alpha, beta::{x, y},\n    gamma::Z};\nlet k = crate::delta::f();");
    assert_eq!(got, ["alpha", "beta", "gamma", "delta"]);
}

/// The functions of `text` (Rust or JavaScript, formatted: a body ends at the first line
/// back at the indent of its opening line that starts with `}`; a signature over several
/// lines opens its body at the first line back at its indent that ends with `{`), as
/// (name, first line, lines). A one-line function is one line.
fn functions(text: &str, js: bool) -> Vec<(String, usize, usize)> {
    let lines: Vec<&str> = text.lines().collect();
    let keywords = ["if", "for", "while", "switch", "catch", "match", "else", "return", "function", "new", "await"];
    let mut out = Vec::new();
    for (i, line) in lines.iter().enumerate() {
        let body = line.trim_start();
        let indent = line.len() - body.len();
        let words_of = |t: &str| -> Vec<String> {
            t.split(|c: char| !(c.is_alphanumeric() || c == '_' || c == '$')).filter(|w| !w.is_empty()).map(String::from).collect()
        };
        let name = if !js {
            // Any visibility (`pub`, `pub(crate)`, `pub(in crate::sim)`), then qualifiers.
            let rest = body.strip_prefix("pub").map_or(body, |r| if r.starts_with('(') { r.split_once(')').map_or(r, |x| x.1) } else { r });
            let words = words_of(rest);
            let mut w = words.iter().skip_while(|w| ["const", "async", "unsafe", "extern"].contains(&w.as_str()));
            (w.next().map(String::as_str) == Some("fn")).then(|| w.next().cloned()).flatten()
        } else if ["function ", "export function ", "async function ", "export async function ", "export default function "]
            .iter()
            .any(|p| body.starts_with(p))
        {
            words_of(body).into_iter().skip_while(|w| w != "function").nth(1)
        } else if body.ends_with("=> {") && (body.starts_with("const ") || body.starts_with("export const ")) {
            words_of(body).into_iter().skip_while(|w| w != "const").nth(1)
        } else if indent > 0 && body.ends_with(") {") && !body.starts_with('}') {
            // A class or object method: `name(args) {`, `async name(...) {`, `get name() {`.
            let rest = ["async ", "static ", "get ", "set "].iter().fold(body, |b, p| b.strip_prefix(p).unwrap_or(b));
            let name: String = rest.chars().take_while(|c| c.is_alphanumeric() || *c == '_' || *c == '$').collect();
            (!name.is_empty() && rest[name.len()..].starts_with('(') && !keywords.contains(&name.as_str())).then_some(name)
        } else {
            None
        };
        let Some(name) = name else { continue };
        // The line that opens the body: this one, or a later one back at its indent.
        let at_indent = |l: &&str| l.len() - l.trim_start().len() == indent;
        let open = (i..lines.len().min(i + 30)).find(|&j| {
            let l = lines[j].trim_end();
            (j == i || at_indent(&lines[j])) && (l.ends_with('{') || l.ends_with(';'))
        });
        let Some(open) = open.filter(|&j| lines[j].trim_end().ends_with('{')) else {
            continue; // a declaration without a body, or a body on one line
        };
        let end = lines[open + 1..].iter().position(|l| at_indent(l) && l.trim_start().starts_with('}'));
        let end = end.unwrap_or_else(|| panic!("no end found for {name} at line {}", i + 1));
        out.push((name, i + 1, open + end + 2 - i));
    }
    out
}

/// No function is longer than 80 lines in the source of any crate or of the package and
/// playground (the crates' integration tests, long lists of assertions, aside): one
/// that is longer is usually two.
#[test]
fn no_function_is_longer_than_80_lines() {
    let root = Path::new(CRATE).join("../..");
    fn walk(dir: &Path, ext: &str, out: &mut Vec<PathBuf>) {
        for entry in std::fs::read_dir(dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                walk(&path, ext, out);
            } else if path.to_string_lossy().ends_with(ext) {
                out.push(path);
            }
        }
    }
    let mut files = Vec::new();
    for krate in ["sim", "cli", "fit", "sql", "report", "wasm", "fit-wasm", "sql-wasm", "report-wasm"] {
        walk(&root.join("crate").join(krate).join("src"), ".rs", &mut files);
    }
    walk(&root.join("js"), ".js", &mut files);
    walk(&root.join("js"), ".mjs", &mut files);
    let (mut seen, mut long) = (0, Vec::new());
    for path in &files {
        let text = std::fs::read_to_string(path).unwrap();
        let js = !path.to_string_lossy().ends_with(".rs");
        for (name, at, lines) in functions(&text, js) {
            seen += 1;
            if lines > 80 {
                long.push(format!("{}:{at} {name}: {lines} lines", path.strip_prefix(&root).unwrap_or(path).display()));
            }
        }
    }
    assert!(seen > 1000, "only {seen} functions found: the scan is broken");
    assert!(long.is_empty(), "functions over 80 lines:\n{}", long.join("\n"));
}
