// Workloads and sweeps in the playground, in Chromium: the workload picker, the spec
// editor, a spec in a link, and sweeps over cache size and over workloads (shipped and
// one's own), whose runs carry the CLI's digests.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { useSite, root, openPage, waitValue, until } from "./page.mjs";
import { hotrowBin } from "../hotrow.mjs";

const shots = `${root}test-results`;
mkdirSync(shots, { recursive: true });
const env = useSite();
const open = (url, size) => openPage(env.browser, url, size);

test("the workload picker offers every shipped workload; TPC-B shows its branch row as the hottest", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=modern&speed=200`);
  const pg = page.locator("hotrow-playground");
  const select = pg.locator("#workload");
  await pg.locator("#workload option").first().waitFor({ state: "attached" });
  const offered = await select.locator("option").evaluateAll((os) => os.map((o) => [o.value, o.textContent]));
  for (const w of ["dbt2", "ndbapi-insert", "sql-insert", "tpcb", "sysbench-insert", "bulk-insert", "event-log", "ycsb-a"]) {
    assert.ok(offered.some(([v]) => v === w), `${w} offered: ${offered}`);
  }
  // Each reads as the core's field table labels it.
  const kind = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.fieldTable.find((f) => f.name === "workload").kind);
  assert.deepEqual(offered, kind.values.map((v, i) => [v, kind.labels[i]]));
  await select.selectOption("tpcb");
  const first = pg.locator(".hottest tbody tr").first();
  await first.filter({ hasText: "branches" }).waitFor({ timeout: 30_000 });
  const cells = await first.locator("td").allTextContents();
  assert.equal(cells[0], "branches");
  assert.match(cells[2], /^(9\d|100)(\.\d)?%$/, `lock busy ${cells[2]}`);
  assert.match(page.url(), /workload=tpcb/, "the URL follows the workload");
  // A workload without inserts (YCSB A) leads its throughput chart with transactions/s.
  await select.selectOption("ycsb-a");
  await pg.locator(".chart-throughput .u-legend").filter({ hasText: "transactions/s" }).waitFor({ timeout: 20_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

test("the spec editor shows the workload's spec, names an error's path and keeps the text, runs a spec of one's own", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=modern&workload=tpcb&speed=200`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".spec-editor summary").click();
  const text = pg.locator("#specText");
  await page.waitForFunction(() => document.querySelector("hotrow-playground").shadowRoot.querySelector("#specText").value.includes("branches"));
  const bad = JSON.stringify({ name: "mine", api: "mysqld", tables: [{ name: "counters", rows: 4, key: "primaryKey" }],
    transactions: [{ name: "bump", statements: [{ op: "update", table: "counters", rows: 0 }] }] });
  await text.fill(bad);
  await pg.locator(".spec-apply").click();
  await pg.locator(".spec-status").filter({ hasText: "workload.transactions[0].statements[0].rows" }).waitFor();
  assert.equal(await text.inputValue(), bad, "the text stays as typed");
  await text.fill(bad.replace('"rows":0', '"rows":1'));
  await pg.locator(".spec-apply").click();
  await pg.locator("#workload option:checked").filter({ hasText: "your spec: mine" }).waitFor({ state: "attached" });
  await pg.locator(".hottest tbody tr").first().filter({ hasText: "counters" }).waitFor({ timeout: 30_000 });
  assert.doesNotMatch(page.url(), /workload=%5Bobject/, "no object in the link");
  // The spec travels in the link: reopened, it runs again.
  await page.waitForFunction(() => location.search.includes("spec="));
  const shared = page.url();
  assert.deepEqual(problems, []);
  await page.close();
  const again = await open(shared);
  const pg2 = again.page.locator("hotrow-playground");
  await pg2.locator("#workload option:checked").filter({ hasText: "your spec: mine" }).waitFor({ state: "attached" });
  await pg2.locator(".hottest tbody tr").first().filter({ hasText: "counters" }).waitFor({ timeout: 30_000 });
  assert.deepEqual(again.problems, []);
  await again.page.close();
});

test("a spec in the link runs; a hostile one shows what is wrong and runs the defaults", async () => {
  const { encodeSpec } = await import("../../js/element/spec-link.js");
  const spec = { name: "linked", api: "ndbapi", tables: [{ name: "hits", rows: 8, key: "primaryKey" }],
    transactions: [{ name: "hit", statements: [{ op: "update", table: "hits", key: { dist: "zipfian", theta: 0.9 } }] }] };
  const good = (await encodeSpec(spec)).text;
  {
    const { page, problems } = await open(`${env.site.origin}/index.html?preset=modern&speed=200&spec=${good}`);
    const pg = page.locator("hotrow-playground");
    await pg.locator("#workload option:checked").filter({ hasText: "your spec: linked" }).waitFor({ state: "attached" });
    await pg.locator(".hottest tbody tr").first().filter({ hasText: "hits" }).waitFor({ timeout: 30_000 });
    assert.deepEqual(problems, []);
    await page.close();
  }
  const invalid = (await encodeSpec({ ...spec, tables: [{ name: "hits", rows: 8, key: "serial" }] })).text;
  const cases = [
    [invalid, /workload\.tables\[0\]\.key/],
    ["AAAA", /spec in the link was ignored: it is not a compressed spec/],
    [encodeURIComponent("<img src=x onerror=alert(1)>"), /spec in the link was ignored/],
  ];
  for (const [text, reason] of cases) {
    const { page, problems } = await open(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk&speed=200&spec=${text}`);
    const pg = page.locator("hotrow-playground");
    const error = pg.locator(".error.shown");
    await error.filter({ hasText: reason }).waitFor({ timeout: 10_000 });
    assert.equal(await pg.locator(".error img").count(), 0, "no markup from the URL is rendered");
    await waitValue(pg, "insertsPerSecond", (v) => v > 0);
    assert.deepEqual(problems, [], text);
    await page.close();
  }
});

test("sweep over cache size runs in the worker and can be cancelled", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk&mode=sweep`);
  const pg = page.locator("hotrow-playground");
  const results = page.evaluate(() => new Promise((ok) => {
    document.querySelector("hotrow-playground").addEventListener("hotrow-sweep", (e) => e.detail.length >= 8 && ok(e.detail));
  }));
  await pg.locator(".sweep-run").click();
  const points = await results;
  assert.equal(points.length, 8);
  assert.ok(points.at(-1).insertsPerSecond > points[0].insertsPerSecond * 5, JSON.stringify(points.map((p) => p.insertsPerSecond)));
  // Run again and cancel once the first of its runs has reported, with the other seven still
  // on the workers: from the page, in the task of that report (a sweep of these short runs
  // can end before a round trip from here reaches its Cancel button; it did, under load).
  await pg.locator(".sweep-run:not([disabled])").waitFor();
  const pending = await pg.evaluate((el, runs) => new Promise((ok) => {
    el.addEventListener("hotrow-sweep", (e) => {
      el.shadowRoot.querySelector(".sweep-cancel").click();
      ok(runs - e.detail.length);
    }, { once: true });
    el.shadowRoot.querySelector(".sweep-run").click();
  }), points.length);
  assert.ok(pending > 0, "cancelled with runs still going");
  await pg.locator(".notice").filter({ hasText: "cancelled" }).waitFor();
  assert.equal(await pg.locator(".sweep-run").isDisabled(), false, "a cancelled sweep gives the Run button back");
  assert.deepEqual(problems, []);
  await page.close();
});

test("sweep and compare work over workloads: every shipped one and one's own, each with its hottest row", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk&mode=sweep`);
  const pg = page.locator("hotrow-playground");
  // A spec of one's own joins the sweep.
  const mine = { name: "mine", api: "ndbapi", tables: [{ name: "counters", rows: 2, key: "primaryKey" }],
    transactions: [{ name: "bump", statements: [{ op: "update", table: "counters" }] }] };
  await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }, spec) => el.change("workload", spec), mine);
  await pg.locator("#sweepField").selectOption("workload");
  const done = page.evaluate(() => new Promise((ok) => {
    const el = document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")];
    let runs = [];
    el.host.addEventListener("hotrow-sweep", (e) => (runs = e.detail));
    el.host.addEventListener("hotrow-sweepdone", () => ok({
      runs: runs.map((r) => ({ config: r.config, digest: r.digest })),
      rows: [...el.shadowRoot.querySelectorAll(".sweep-table tbody tr")].map((tr) => [...tr.children].map((c) => c.textContent)),
    }));
  }));
  await pg.locator(".sweep-run").click();
  const { rows, runs } = await done;
  // Every workload, shipped or one's own, runs in the playground with the CLI's digest.
  for (const { config, digest } of runs) {
    const cli = JSON.parse(execFileSync(hotrowBin, ["run", "--json", "--config", "-"], { input: JSON.stringify(config), encoding: "utf8" }));
    assert.equal(digest, cli.digest, JSON.stringify(config.workload).slice(0, 60));
  }
  const names = rows.map((r) => r[0]);
  assert.equal(rows.length, 10, names.join(", "));
  assert.equal(names.at(-1), "your spec: mine");
  const row = (start) => rows.find((r) => r[0].startsWith(start));
  assert.notEqual(row("YCSB")[1], "0", "YCSB A commits transactions");
  assert.equal(row("YCSB")[2], "0", "and inserts nothing");
  assert.match(row("TPC-B")[4], /^row 0 of branches: \d+% busy$/, "named as the core's facts name it");
  assert.match(row("TPC-B")[5], /row 0 of branches, on data node \d+ \(\d+% busy\)$/, "the sweep names who holds each run");
  assert.match(row("YCSB")[1], /^[\d.]+k? ±[\d.]+%$/, "each run's figure carries its 95% interval");
  assert.match(rows.at(-1)[4], /^row [01] of counters: \d+% busy$/);
  assert.match(await pg.locator(".sweep-table thead th").first().textContent(), /^workload/, "the first column is headed by the swept field");
  assert.match(await pg.locator(".sweep-axis").textContent(), /workload/);
  await pg.locator(".sweep-panel").screenshot({ path: `${shots}/sweep-workloads.png` });
  // Compare two workloads: both run, compared on transactions/s when one has no inserts.
  await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => {
    el.update({ view: { mode: "compare", compareField: "workload", compareA: "ndbapi-insert", compareB: "ycsb-a" } }, { restart: true });
  });
  await pg.locator(".chart-throughput .u-legend").filter({ hasText: "transactions/s" }).waitFor({ timeout: 20_000 });
  const ratio = await waitValue(pg, "compareRatio", (v) => v > 0, 30_000);
  assert.ok(Number.isFinite(ratio), `${ratio}`);
  assert.match(await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.query), /compareField=workload/);
  // One's own spec is a choice of compare's: picked from the list, and run A by default.
  await pg.locator("#compareField").selectOption("dataNodes");
  await pg.locator("#compareField").selectOption("workload");
  await pg.locator("#compareA-choice").waitFor({ state: "visible" });
  assert.equal(await pg.locator("#compareA").isVisible(), false, "a choice is picked, not typed");
  await pg.locator("#compareB-choice").selectOption("tpcb");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.effective.length === 2 && el.effective[1].workload === "tpcb", null, "B runs TPC-B");
  assert.equal(await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.effective[0].workload.name), "mine", "A runs the spec of one's own");
  assert.match(await pg.locator("#compareA-choice option:checked").textContent(), /your spec: mine/);
  assert.match(await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.query), /compareA=yourSpec&compareB=tpcb/);
  await waitValue(pg, "compareRatio", (v) => v > 0, 30_000);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the SQL tab: the orders example pasted, its assumptions listed, an error at its line in view, the run uses it, the link reopens the SQL, an example named", async () => {
  const { readFileSync } = await import("node:fs");
  const sql = ["examples/sql/orders-schema.sql", "examples/sql/orders.sql"].map((f) => readFileSync(new URL(`../../${f}`, import.meta.url), "utf8")).join("\n");
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=bug39267&speed=1000`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".spec-editor summary").click();
  await pg.locator('.spec-tab[data-tab="sql"]').click();
  const text = pg.locator("#sqlText");
  // A refusal names its line and column and selects the line.
  await text.fill(sql.replace("UPDATE stock", "UPDATE stock SET WHERE"));
  await pg.locator(".spec-apply").click();
  const refused = await pg.locator(".spec-status.error-text").filter({ hasText: /^line \d+, column \d+: / }).textContent();
  const line = Number(refused.match(/^line (\d+)/)[1]);
  assert.ok(sql.split("\n")[line - 1].includes("UPDATE stock"), `${refused} names the line of UPDATE stock`);
  const selected = await pg.evaluate((el) => { const t = el.shadowRoot.querySelector("#sqlText"); return t.value.slice(t.selectionStart, t.selectionEnd); });
  assert.match(selected, /UPDATE stock SET WHERE/);
  // ... and scrolls it into view: where the line falls, in proportion to the text's height,
  // is in the visible part. Near the end of the text (the line above) and near its start,
  // the text box having been left at its bottom (the bug: the line out of sight above).
  const inView = (line) =>
    pg.evaluate((el, line) => {
      const t = el.shadowRoot.querySelector("#sqlText");
      const y = ((line - 0.5) / t.value.split("\n").length) * t.scrollHeight;
      return { y, top: t.scrollTop, height: t.clientHeight, bottom: t.scrollHeight - t.clientHeight };
    }, line);
  const shown = (v) => v.y >= v.top && v.y <= v.top + v.height;
  let view = await inView(line);
  assert.ok(shown(view), `line ${line} at ${view.y.toFixed(0)} px is in view (${view.top}..${view.top + view.height})`);
  await text.fill(sql.replace("customer_id BIGINT NOT NULL,", "customer_id BIGINT NOT NULL,,"));
  await pg.evaluate((el) => (el.shadowRoot.querySelector("#sqlText").scrollTop = 1e6));
  await pg.locator(".spec-apply").click();
  const early = await pg.locator(".spec-status.error-text").filter({ hasText: /^line 9, column \d+: / }).textContent();
  view = await inView(9);
  assert.ok(view.top < view.bottom && shown(view), `${early}: line 9 at ${view.y.toFixed(0)} px is in view (${view.top}..${view.top + view.height} of ${view.bottom})`);
  // The example as it is: assumptions listed by line, the spec runs.
  await text.fill(sql);
  await pg.locator(".spec-apply").click();
  await pg.locator(".spec-status").filter({ hasText: 'Running "workload", imported from SQL with 4 assumptions' }).waitFor({ timeout: 30_000 });
  const assumptions = await pg.locator(".sql-assumptions li").allTextContents();
  assert.ok(assumptions.some((a) => /^\d+:\d+: orders: UNIQUE \(order_ref\)/.test(a)), assumptions.join("\n"));
  assert.ok(assumptions.some((a) => a.includes("the current day's row of daily_counters")), assumptions.join("\n"));
  await pg.locator("#workload option:checked").filter({ hasText: "your spec: workload" }).waitFor({ state: "attached" });
  // The day's counter row is the hottest (both tables' counter rows, half as busy, are listed
  // by the run's summary: crate/sql/tests/import.rs; a window's ten are mostly stock rows
  // that the day's row keeps waiting).
  await pg.locator(".hottest tbody tr").first().filter({ hasText: "daily_counters" }).waitFor({ timeout: 30_000 });
  // The link keeps the SQL: reopened, the SQL tab shows it with its assumptions, and it runs.
  await page.waitForFunction(() => location.search.includes("sql=") && location.search.includes("spec="));
  const shared = page.url();
  assert.deepEqual(problems, []);
  await page.close();
  const again = await open(shared);
  const pg2 = again.page.locator("hotrow-playground");
  await pg2.locator("#workload option:checked").filter({ hasText: "your spec: workload" }).waitFor({ state: "attached" });
  await pg2.locator(".sql-assumptions li").first().waitFor({ timeout: 30_000 });
  assert.equal(await pg2.locator("#sqlText").inputValue(), sql);
  assert.equal(await pg2.locator('.spec-tab[data-tab="sql"]').getAttribute("aria-selected"), "true");
  // The examples menu holds the shipped SQL; a name given names the workload.
  await pg2.locator("#sqlExample option", { hasText: "pgbench tpcb-like" }).waitFor({ state: "attached" });
  await pg2.locator("#sqlExample").selectOption({ label: "pgbench tpcb-like, verbatim (pgbench-schema.sql, tpcb-like.sql)" });
  await pg2.locator(".spec-status").filter({ hasText: "The example pgbench-schema.sql and tpcb-like.sql: Apply runs it." }).waitFor();
  assert.match(await pg2.locator("#sqlText").inputValue(), /UPDATE pgbench_branches SET bbalance/);
  assert.equal(await pg2.locator("#sqlName").inputValue(), "tpcb-like");
  await pg2.locator("#sqlName").fill("my bank");
  await pg2.locator(".spec-apply").click();
  await pg2.locator(".spec-status").filter({ hasText: 'Running "my bank", imported from SQL' }).waitFor({ timeout: 30_000 });
  await pg2.locator("#workload option:checked").filter({ hasText: "your spec: my bank" }).waitFor({ state: "attached" });
  assert.deepEqual(again.problems, []);
  await again.page.close();
});
