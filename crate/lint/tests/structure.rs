//! The repository's structure as its source shows it: no import cycle among the top-level
//! modules of any crate, and no function longer than 80 lines in any crate or in the
//! package and playground.

mod common;
use common::{code, sources_in, ROOT};
use std::path::{Path, PathBuf};

/// No import cycle of any length among the top-level modules (a directory counts as one)
/// of any crate (the core, the CLI, the SQL import, the fit, the report): every strongly
/// connected component of the import graph is one module, so the dependencies can be read
/// in one order. (The CLI's sweep command and its grid once imported each other.)
#[test]
fn the_module_graph_has_no_cycle() {
    for krate in ["sim", "cli", "sql", "fit", "report"] {
        let src = Path::new(ROOT).join("crate").join(krate).join("src");
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
    reexports_of(&Path::new(ROOT).join("crate/sim/src/lib.rs"))
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
    let root = Path::new(ROOT);
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
                long.push(format!("{}:{at} {name}: {lines} lines", path.strip_prefix(root).unwrap_or(path).display()));
            }
        }
    }
    assert!(seen > 1000, "only {seen} functions found: the scan is broken");
    assert!(long.is_empty(), "functions over 80 lines:\n{}", long.join("\n"));
}
