// Every export of the playground's modules (js/element) is imported somewhere: by another
// module, a page, a script or a test. An export nobody imports is surface without a user;
// what a module only uses itself stays unexported.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync, statSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = resolve(dirname(fileURLToPath(import.meta.url)), "../..");
const skip = new Set(["node_modules", "dist", ".git", "target"]);

function files(dir, out = []) {
  for (const name of readdirSync(dir)) {
    if (skip.has(name)) continue;
    const path = join(dir, name);
    if (statSync(path).isDirectory()) files(path, out);
    else if (/\.(m?js|html)$/.test(name)) out.push(path);
  }
  return out;
}

/** The names module `text` exports (declarations and `export { ... }` lists). */
function exportsOf(text) {
  const names = [...text.matchAll(/^export\s+(?:async\s+)?(?:function\*?|const|let|class)\s+([\w$]+)/gm)].map((m) => m[1]);
  for (const m of text.matchAll(/^export\s*\{([^}]*)\}/gm)) {
    names.push(...m[1].split(",").map((n) => n.trim().split(/\s+as\s+/).pop()).filter(Boolean));
  }
  return names;
}

/** Per module path, the names `file`'s text imports from it (named, namespace members used, dynamic:
 * `const { a, b } = await import(...)`). */
function importsOf(file, text) {
  const out = [];
  const at = (spec) => (spec.startsWith(".") ? resolve(dirname(file), spec) : null);
  const names = (list) => list.split(",").map((n) => n.trim().split(/\s+as\s+/)[0].trim()).filter(Boolean);
  for (const m of text.matchAll(/(?:import|export)\s*\{([^}]*)\}\s*from\s*["']([^"']+)["']/g)) out.push([at(m[2]), names(m[1])]);
  for (const m of text.matchAll(/import\s*\*\s*as\s+([\w$]+)\s+from\s*["']([^"']+)["']/g)) {
    out.push([at(m[2]), [...text.matchAll(new RegExp(`\\b${m[1]}\\.([\\w$]+)`, "g"))].map((u) => u[1])]);
  }
  for (const m of text.matchAll(/(?:const|let|var)\s*\{([^}]*)\}\s*=\s*await\s+import\(\s*["']([^"']+)["']\s*\)/g)) out.push([at(m[2]), names(m[1])]);
  return out.filter(([path]) => path);
}

test("every export of js/element is imported by another file", () => {
  const all = ["js", "www", "tests", "scripts"].flatMap((d) => files(join(root, d)));
  const imported = new Map();
  for (const file of all) {
    for (const [path, names] of importsOf(file, readFileSync(file, "utf8"))) {
      const set = imported.get(path) ?? new Set();
      names.forEach((n) => set.add(n));
      imported.set(path, set);
    }
  }
  // The package's entry points are imported by its users: their exports are its surface.
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const entries = new Set(Object.values(pkg.exports).flatMap((e) => (typeof e === "string" ? [e] : Object.values(e))).map((e) => resolve(root, e)));
  const dir = join(root, "js/element");
  const unused = [];
  let checked = 0;
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
    const path = join(dir, name);
    if (entries.has(path)) continue;
    for (const e of exportsOf(readFileSync(path, "utf8"))) {
      checked++;
      if (!imported.get(path)?.has(e)) unused.push(`${name}: ${e}`);
    }
  }
  assert.ok(checked > 100, `only ${checked} exports found: the scan is broken`);
  assert.deepEqual(unused, [], "exports nobody imports (unexport them, or delete them if unused)");
});
