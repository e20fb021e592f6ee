// The playground's controller (js/element/playground.js) has one owner of state: `state`,
// changed through `update` (store.js). Its other fields are caches, handles and work in
// progress, each declared once in its constructor with what it is; what follows from the
// state is a getter (state-reads.js). A module that writes a field the constructor does
// not declare, or writes over a getter, fails here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const dir = resolve(dirname(fileURLToPath(import.meta.url)), "../../js/element");
const source = readFileSync(join(dir, "playground.js"), "utf8");
const klass = source.slice(source.indexOf("export class Playground"));
const ctor = klass.slice(klass.indexOf("constructor(host) {"), klass.indexOf("\n  }\n", klass.indexOf("constructor(host) {")));
const declarations = [...ctor.matchAll(/this\.([\w$]+) = /g)].map((m) => m[1]);
const declared = new Set(declarations);
// The getters: the controller's own and those of the class it extends (state-reads.js).
const reads = readFileSync(join(dir, "state-reads.js"), "utf8");
const getters = new Set([...(klass + reads).matchAll(/^ {2}get ([\w$]+)\(\)/gm)].map((m) => m[1]));
// A write to a field of the controller: `el.x = `, `el.x ??= `, `el.x += `, `el.x++`, `++el.x`
// (`this.#pg` is how the element holds it).
const WRITE = /(?:\b(?:el|this|this\.#pg)\.([\w$]+)\s*(?:[-+*/?|&]{0,2}=(?!=)|\+\+|--))|(?:(?:\+\+|--)(?:el|this)\.([\w$]+))/g;
// Writes the scan cannot name: to a computed key, or several at once.
const UNNAMED = /\b(?:el|this\.#pg)\[[^\]]+\]\s*=(?!=)|Object\.assign\((?:el|this\.#pg|this)\b|\[(?:el|this)\.[\w$]+\s*,[^\]]*\]\s*=(?!=)/;

/** Each module's writes to the controller: `this.x` in the class, `el.x` in the modules it calls. */
function writes() {
  const out = [];
  for (const name of readdirSync(dir).filter((n) => n.endsWith(".js"))) {
    let text = readFileSync(join(dir, name), "utf8");
    // Other classes' own fields (Tour, ClusterDrawing, ...) are theirs: only the controller's class counts.
    if (name === "playground.js") text = klass.replace(ctor, "");
    else text = text.replace(/\bthis\.[\w$]+/g, "");
    for (const m of text.matchAll(WRITE)) out.push({ file: name, field: m[1] ?? m[2] });
    const unnamed = text.match(UNNAMED);
    assert.equal(unnamed, null, `${name} writes to the controller in a way this test cannot read: ${unnamed?.[0]}`);
  }
  return out;
}

test("the constructor declares the state, the caches, the handles and the work in progress", () => {
  assert.ok(declared.has("state"));
  for (const f of ["series", "latest", "figures", "worker", "pool", "errors", "dragging"]) assert.ok(declared.has(f), f);
  assert.ok(declared.size > 30, `found ${declared.size} fields: the constructor was not read`);
  assert.equal(declarations.length, declared.size, `declared twice: ${declarations.filter((f, i) => declarations.indexOf(f) !== i)}`);
});

test("every field a module writes on the controller is declared in its constructor", () => {
  const found = writes();
  assert.ok(found.length > 40, `found ${found.length} writes: the modules were not read`);
  const undeclared = found.filter((w) => !declared.has(w.field)).map((w) => `${w.file}: ${w.field}`);
  assert.deepEqual([...new Set(undeclared)], [], "declare these in Playground's constructor, saying what they are (or derive them in a getter)");
});

test("what follows from the state is read through getters that nothing writes", () => {
  for (const g of ["effective", "ready", "fieldTable", "metricTable", "liveFields", "workloadSpecs", "shape", "hotNode", "started", "open", "byPartition", "primaryName", "runNames"]) {
    assert.ok(getters.has(g), `get ${g}()`);
    assert.ok(!declared.has(g), `${g} is a getter, not a field`);
  }
  const overGetters = writes().filter((w) => getters.has(w.field)).map((w) => `${w.file}: ${w.field}`);
  assert.deepEqual(overGetters, [], "a getter derives its value from the state: change the state through update()");
});
