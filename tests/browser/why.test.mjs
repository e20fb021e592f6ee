// "Why this number" in a real browser: the panel names what holds the throughput in words,
// the throughput chart draws the bound as a dashed ceiling, a remedy forks the run, and
// the headline's hot row and the cluster drawing follow the row that binds.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage, waitValue } from "./page.mjs";

const env = useSite();
const open = (url) => openPage(env.browser, url);

/** The panel's text once it matches `pattern`. */
async function whyText(pg, pattern, timeout = 30_000) {
  const deadline = Date.now() + timeout;
  for (;;) {
    const text = await pg.locator(".why-body").innerText();
    if (pattern.test(text)) return text;
    if (Date.now() > deadline) throw new Error(`the panel never said ${pattern}: ${text}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

test("bug39267: the panel names the counter row, its bound is the dashed line, and a bigger cache forks past it", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=bug39267&speed=4000`);
  const pg = page.locator("hotrow-playground");
  const text = await whyText(pg, /Held by the counter row of history in SYSTAB_0, on data node 1: (9\d|100)% busy/);
  assert.match(text, /it sets the throughput/);
  assert.equal(await pg.locator(".why-verdict code").first().textContent(), "history", "a table's name is set as code, not in backticks");
  // The ceiling once refills are gone: the fix's 158k TPM, within the estimate's reach,
  // in transactions/s as the CLI says it, and in the headline's TPM beside it.
  await whyText(pg, /could reach about [\d.,]+k? transactions\/s \(1[4-9]\d\.\dk TPM\), held then by the 8 data-node threads/);
  // The dashed line: the bound per window in TPM, at the TPM line while the row is saturated.
  const line = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => {
    const u = el.throughputChart;
    const i = u.series.findIndex((s) => s.label === "bound (TPM)");
    const k = u.data[0].length - 1;
    return { dash: u.series[i]?.dash, bound: u.data[i]?.[k], tpm: u.data[1][k] };
  });
  assert.deepEqual(line.dash, [4, 4]);
  assert.ok(Math.abs(line.bound / line.tpm - 1) < 0.05, JSON.stringify(line));
  // The remedies come when asked (their module loads then); a remedy on a live field forks
  // at the moment shown: run B takes a cache of 1000 ids.
  await pg.locator(".why-ask").click();
  await pg.locator(".why-remedies button", { hasText: "a cache of 1000 ids per refill" }).click();
  await pg.locator(".fork-note").filter({ hasText: "→ 1000" }).waitFor();
  await pg.locator(".play").click();
  const ratio = await waitValue(pg, "compareRatio", (v) => v > 1.3, 40_000);
  assert.ok(ratio < 1.8, `ratio ${ratio}`);
  const both = await whyText(pg, /B \(.*\)\s+Held by the thread of data node/);
  assert.match(both, /A \(.*\)\s+Held by the counter row/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a row of one's own that binds leads the headline and the cluster drawing", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=modern&speed=1000`);
  const pg = page.locator("hotrow-playground");
  const spec = {
    name: "orders", api: "mysqld",
    tables: [{ name: "stock", rows: 100000, key: "primaryKey" }, { name: "daily", rows: 1, key: "primaryKey" },
      { name: "orders", rows: 0, key: "autoIncrement" }],
    transactions: [{ name: "order", statements: [{ op: "update", table: "stock", key: { dist: "zipfian", theta: 0.8 } },
      { op: "insert", table: "orders" }, { op: "update", table: "daily" }] }],
  };
  await pg.evaluate((el, s) => el.setAttribute("spec", JSON.stringify(s)), spec);
  await whyText(pg, /Held by row 0 of daily/);
  // What would lift it comes when asked: the remedies' module loads then.
  await pg.locator(".why-ask").click();
  const text = await whyText(pg, /daily spread over 32 slots/);
  assert.match(text, /Held by row 0 of daily/);
  // Two figures, two names: the row that binds (daily's, always busy) beside the SYSTAB_0
  // counter row's (hotRowLockUtilization, as the CLI and the JSON mean it: the orders'
  // ids come from it, one refill per 1000 at the default cache, far from busy).
  assert.ok((await waitValue(pg, "bindingRowLockUtilization", (v) => v > 0.9)) <= 1);
  assert.equal(await pg.locator(".figure.binding .label").textContent(), "hot row lock busy (daily 0)");
  // The hot row leads, the id counter row's card follows it.
  const cards = await pg.locator(".figures [data-card]:not([hidden])").evaluateAll((cs) => cs.sort((a, b) => a.style.order - b.style.order).map((c) => c.dataset.card));
  assert.deepEqual(cards.slice(0, 4), ["transactionsPerSecond", "insertsPerSecond", "hotRow", "hotRowLockUtilization"]);
  // Awaited rather than read once: read once, this failed one run in ten of the browser
  // phase (with no value said; the CLI's windows of this spec never pass 1%). If it stays
  // at 0.9 or more, waitValue's error names the value.
  assert.ok((await waitValue(pg, "hotRowLockUtilization", (v) => v < 0.9)) >= 0);
  const drawn = await pg.locator("canvas.cluster").getAttribute("aria-label");
  assert.match(drawn, /holds daily 0, the row that binds/);
  // The load bars mark the same node as the cluster drawing: daily's.
  const node = drawn.match(/Node (\d+) holds daily 0/)[1];
  assert.match(await pg.locator(".bars-load .bar.hot").getAttribute("title"), new RegExp(`^node ${node} \\(holds the hot row\\)`));
  // The stock rows are 100% busy only waiting for the daily row: their bars say so on hover.
  const stock = pg.locator(".why-bar", { hasText: "stock" }).first();
  assert.match(await stock.getAttribute("title"), /waited elsewhere (9\d|100)% for locks or ids/);
  // The run in words is the core's (facts.described, as `hotrow run`'s first line and the
  // report's header say it), not a sentence of the page's own.
  const [said, described] = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) =>
    [el.shadowRoot.querySelector(".running-now").textContent, el.latest.sims[0].snapshot.facts.described]);
  assert.match(described, /^the workload "orders" on /);
  assert.equal(said, `Running now: ${described}.`);
  assert.deepEqual(problems, []);
  await page.close();
});
