// Every surface formats the core's facts (the summary's `facts`, `deadlocks`, `boundIntervals`) and derives
// none: `hotrow run`'s first lines and node marks and `hotrow report`'s header and node
// table say, word for word, what `run --json` says of the same run. A surface that composed
// its own description, named another hot row or marked another node fails here. (The
// playground's side: tests/browser/why.test.mjs.)
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { hotrowBin } from "../hotrow.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = hotrowBin;

function hotrow(...args) {
  const r = spawnSync(bin, args, { encoding: "utf8", cwd: root });
  if (r.error) throw r.error;
  assert.equal(r.status, 0, r.stderr);
  return r.stdout;
}

const escape = (t) => t.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");

const RUNS = {
  bug39267: ["--preset", "bug39267"],
  // Her shop with the order counted last: no row binds, deadlocks do.
  "shop, counter last": ["--preset", "modern", "--workload", "examples/sql/shop-pg-schema.sql,examples/sql/shop-pg-counter-last.sql", "--set", "cacheSize=1000"],
};

for (const [name, args] of Object.entries(RUNS)) {
  test(`${name}: the CLI's table and the report print the core's facts`, () => {
    const run = [...args, "--set", "durationMs=3000", "--set", "warmupMs=1500"];
    const s = JSON.parse(hotrow("run", ...run, "--json"));
    const f = s.facts;
    const text = hotrow("run", ...run).split("\n");
    assert.equal(text[0], `hotrow: ${f.described}; seed ${s.config.seed}`);
    const hot = text.find((l) => l.startsWith("  hot row: "));
    assert.ok(hot.includes(f.hotRow.name) && hot.includes(`node ${f.hotRow.node}`), hot);
    assert.equal(hot.includes("it binds"), f.hotRow.binds, hot);
    const marked = text.filter((l) => /<- hot row/.test(l)).map((l) => Number(l.trim().split(/\s+/)[0]));
    assert.deepEqual(marked, [f.hotRow.node], "the node table marks the hot row's node alone");
    const said = text.find((l) => l.startsWith("  deadlocks: "));
    assert.equal(Boolean(said), s.deadlocks !== null, said);
    if (s.deadlocks) {
      assert.equal(said, `  deadlocks: ${s.deadlocks.text}`);
      for (const c of s.deadlocks.cycles) assert.ok(text.join(" ").replace(/\s+/g, " ").includes(c.text), c.text);
    }
    // The bound's and the next ceiling's intervals, and their method (or why there are none), as the core says them.
    const iv = s.boundIntervals;
    const bound = text.find((l) => l.includes(", bound "));
    assert.equal(bound.includes(" ± "), Boolean(iv?.bound), bound);
    if (iv) assert.ok(text.join(" ").replace(/\s+/g, " ").includes(iv.method), iv.method);
    const dir = mkdtempSync(join(tmpdir(), "hotrow-facts-"));
    const file = join(dir, "r.html");
    hotrow("report", ...run, "-o", file);
    const page = readFileSync(file, "utf8");
    const header = page.slice(page.indexOf("<header>"), page.indexOf("</header>"));
    assert.ok(header.includes(escape(f.described)), "the report's header describes the run as the facts do");
    assert.ok(header.includes(escape(f.hotRow.name)), "and names the hot row");
    assert.equal(header.includes("<dt>deadlocks</dt>"), s.deadlocks !== null);
    if (s.deadlocks) assert.ok(header.includes(escape(s.deadlocks.text)), "the report's header says the deadlocks as the facts do");
    for (const c of s.deadlocks?.cycles ?? []) assert.ok(page.includes(escape(c.text)), c.text);
    if (iv) assert.ok(page.includes(escape(iv.method)), "the report says the intervals' method as the core does");
  });
}
