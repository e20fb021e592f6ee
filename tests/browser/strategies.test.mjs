// The allocator lab in the playground: every strategy runs from its controls, range
// partitioning shows partitions (the tail hotspot as one bright row), compare mode draws
// both runs on every chart, and the sweep fans out over workers and can sweep the strategy.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage, waitValue } from "./page.mjs";
import { execFileSync } from "node:child_process";
import { fields } from "hotrow";
import { hotrowBin } from "../hotrow.mjs";

const env = useSite();

/** Resolves with the detail of the element's next `name` event. */
const nextEvent = (page, name) =>
  page.evaluate((name) => new Promise((ok) => document.querySelector("hotrow-playground").addEventListener(name, (e) => ok(e.detail), { once: true })), name);

test("every id strategy runs from the playground's controls", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=ndb-autoincrement&clientsPerApiNode=8&speed=500`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "insertsPerSecond");
  // Choices and explanations come from the package's field table.
  const allocators = await pg.locator("#allocator option").evaluateAll((os) => os.map((o) => o.value));
  const strategies = fields().find((f) => f.name === "allocator").kind.values;
  assert.deepEqual(allocators, strategies);
  assert.match(await pg.locator('.hint[data-about="keyLayout"]').textContent(), /bit-reversed/);
  // Every strategy the table lists (a new one is tried without editing this test), then
  // the other choices of the lab.
  const tries = [...strategies.filter((s) => s !== "counterRow").map((s) => ["allocator", s]), ["idCacheScope", "client"],
    ["keyLayout", "bitReversed"], ["partitioning", "range"], ["allocator", "counterRow"]];
  for (const [field, value] of tries) {
    await pg.locator(`#${field}`).selectOption(value);
    await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }, [field, value]) => new Promise((ok) => {
      const check = () => (el.effective[0]?.[field] === value && el.figures?.insertsPerSecond > 0 && el.figures.nowMs > 150 ? ok() : setTimeout(check, 50));
      check();
    }), [field, value]);
  }
  await pg.locator("#cacheGrowth").fill("4");
  await pg.locator("#cacheGrowth").dispatchEvent("change");
  await pg.locator(".notice").filter({ hasText: "without restarting" }).waitFor();
  assert.deepEqual(problems, []);
  await page.close();
});

test("range partitioning with sequential keys draws the tail hotspot as one bright partition", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=range-sequential&speed=500`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "insertsPerSecond");
  await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => new Promise((ok) => { const c = () => (el.figures?.nowMs > 400 ? ok() : setTimeout(c, 50)); c(); }));
  assert.match(await pg.locator(".heatmap-title").textContent(), /partition/);
  const shares = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => {
    const p = el.latest.sims[0].snapshot.partitionInsertsPerSecond;
    const total = p.reduce((a, b) => a + b, 0);
    return [...p].map((v) => v / total);
  });
  assert.ok(Math.max(...shares) > 0.9, `largest share ${Math.max(...shares)}`);
  assert.match(await pg.locator(".bars-load .bar-label").first().textContent(), /^part 0$/);
  // The heatmap fills the panel from its first windows: the leftmost data column is painted.
  const leftLit = await pg.locator("canvas.heatmap").first().evaluate((c) => {
    const x = Math.round(60 * devicePixelRatio);
    const d = c.getContext("2d").getImageData(x, 0, 1, c.height - Math.round(16 * devicePixelRatio)).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  assert.ok(leftLit > 10, `left column pixels ${leftLit}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("compare mode draws both runs on every chart", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?mode=compare&compareField=keyLayout&preset=range-sequential&speed=500`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "compareRatio", (v) => v > 0);
  const shape = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => ({
    series: el.charts.map((c) => c.series.length - 1),
    labels: el.hotChart.series.slice(1).map((s) => s.label),
    heatmapB: el.heatmaps[1].columns.length,
  }));
  // Throughput: each run's figure and the bound its bottleneck sets (dashed); hot row and latency: two figures per run.
  assert.deepEqual(shape.series, [4, 4, 4]);
  // Each run is named by its value as the menu words it, not by its code.
  const layout = fields().find((f) => f.name === "keyLayout").kind;
  const words = layout.labels[layout.values.indexOf("shardBits")];
  assert.ok(shape.labels.some((l) => l.startsWith(`B (key layout: ${words})`)), shape.labels.join(", "));
  assert.ok(shape.heatmapB > 0);
  assert.ok(await pg.locator("canvas.heatmap").nth(1).isVisible());
  assert.deepEqual(problems, []);
  await page.close();
});

test("the sweep fans out over workers, sweeps the strategy, and reports its speed-up", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=ndbapi-hidden-pk&mode=sweep`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".sweep-run").waitFor();
  await pg.locator("#sweepField").selectOption("allocator");
  let done = nextEvent(page, "hotrow-sweepdone");
  await pg.locator(".sweep-run").click();
  const strategies = await done;
  const count = fields().find((f) => f.name === "allocator").kind.values.length;
  assert.equal(strategies.runs, count, "a run per strategy of the field table");
  const points = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.sweepChart.data[1].length);
  assert.equal(points, count);
  // The same 8-run sweep on one worker and on every core: the ratio is printed, not asserted.
  await pg.locator("#sweepField").selectOption("cacheSize");
  const timing = {};
  for (const workers of [1, await page.evaluate(() => navigator.hardwareConcurrency)]) {
    await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }, n) => (el.sweepWorkers = n), workers);
    done = nextEvent(page, "hotrow-sweepdone");
    await pg.locator(".sweep-run").click();
    timing[workers] = (await done).seconds;
  }
  const [one, all] = Object.entries(timing);
  console.log(`sweep of 8 runs: 1 worker ${one[1].toFixed(2)} s, ${all[0]} workers ${all[1].toFixed(2)} s, speed-up ${(one[1] / all[1]).toFixed(2)}x`);
  assert.deepEqual(problems, []);
  await page.close();
});

test("all strategies at once: every strategy of the field table, the CLI's digests, the best marked", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=ndbapi-hidden-pk&mode=strategies`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".strategies-run").waitFor();
  await page.waitForFunction(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")].ready);
  const done = nextEvent(page, "hotrow-strategiesdone");
  await pg.locator(".strategies-run").click();
  const detail = await done;
  const { values: allocators, traits } = fields().find((f) => f.name === "allocator").kind;
  const scopes = fields().find((f) => f.name === "idCacheScope").kind.values;
  const layouts = fields().find((f) => f.name === "keyLayout").kind.values;
  // A strategy without a cache (the core's traits) runs once, one with a cache per owner.
  const expected = allocators.reduce((n, a, i) => n + (traits[i].cache ? scopes.length : 1), 0) + layouts.length;
  assert.equal(detail.results.length, expected, "every allocator x cache owner, and every key layout on range partitioning");
  console.log(`all strategies (ndbapi-hidden-pk): ${detail.runs} runs on ${detail.workers} workers in ${detail.seconds.toFixed(1)} s`);
  // The same numbers as the CLI for the same config: the same digest, run by run.
  for (const r of detail.results) {
    const cli = JSON.parse(execFileSync(hotrowBin, ["run", "--json", "--config", "-"], { input: JSON.stringify(r.config), encoding: "utf8" }));
    assert.equal(cli.digest, r.digest, JSON.stringify(r.value));
    assert.equal(cli.insertsPerSecond, r.insertsPerSecond);
    // And the same answer to what holds it.
    assert.equal(r.bottleneck?.name, cli.bottleneck?.name, JSON.stringify(r.value));
  }
  // Range layouts too short to split read alike: two or more share one row that says so.
  const short = detail.results.filter((r) => r.value.partitioning === "range" && r.insertSkew >= 0.95).length;
  const folded = short > 1 ? short : 0;
  const rows = await pg.locator(".strategies-table tbody tr").count();
  assert.equal(rows, expected - (folded ? folded - 1 : 0), `one row per strategy, ${folded} too short to split in one`);
  if (folded) assert.match(await pg.locator(".strategies-table td.folded").textContent(), /too short to split/);
  // A column that reads the same on every row is folded into the note.
  const note = await pg.locator(".strategies-note").textContent();
  for (const th of await pg.locator(".strategies-table thead th[hidden]").allTextContents()) {
    assert.ok(note.includes(` ${th}: `) && note.includes(" for every strategy."), `${th} in: ${note}`);
  }
  const best = await pg.locator(".strategies-table tbody tr.best").count();
  assert.ok(best >= 1 && best < expected, `${best} best choices marked`);
  assert.match(await pg.locator(".strategies-table tbody tr.best th").first().textContent(), /^★ /);
  // No star for a strategy equal to another, or one the run was too short to show: the
  // cell says which.
  const names = await pg.locator(".strategies-table tbody th").allTextContents();
  for (const n of names.filter((t) => /too short to split|within noise/.test(t))) assert.ok(!n.startsWith("★"), n);
  // Each strategy says what holds it, busy how much (the CLI's answer, checked above: with
  // 32 clients the central service's runs sit at the knee, where the clients' bound N / R0
  // and the service's own come within a few percent of each other).
  const held = await pg.locator(".strategies-table td.held-by").allTextContents();
  assert.equal(held.length, expected - folded);
  assert.ok(held.every((t) => /\S.* \(\d+%\)$/.test(t)), held.join("; "));
  assert.ok(held.some((t) => /^the (allocator service|counter row|id-cache mutex)/.test(t)), held.join("; "));
  assert.match(await pg.locator(".strategies-note").textContent(), /95% intervals \(±\) overlap count as equal.* Each run went on until its inserts\/s was known within 2%, 1 s at most/);
  // Throughput against ids lost and against order: a point per strategy, the best ones marked.
  for (const chart of [".scatter-lost", ".scatter-order"]) {
    assert.equal(await pg.locator(`${chart} .point`).count(), expected, chart);
    assert.equal(await pg.locator(`${chart} .point.best`).count(), best, chart);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
