// Open arrivals in the playground, in Chromium: an offered rate in a link runs open, the
// throughput chart draws offered against achieved, the run's text says where requests come
// from, think time and an offered rate exclude each other, and a sweep over the offered load
// draws the saturation knee.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage, waitValue, until } from "./page.mjs";

const env = useSite();

test("an offered rate runs open: offered and achieved on one chart, the text says so, think time turns it off", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=ndbapi-pk&arrivalRatePerApiNode=20000`);
  const pg = page.locator("hotrow-playground");
  // One insert per transaction here: inserts/s is the achieved rate.
  const tps = await waitValue(pg, "insertsPerSecond", (v) => v > 15_000);
  assert.ok(Math.abs(tps / 20_000 - 1) < 0.05, `achieved ${tps} of 20000 offered`);
  const legend = await pg.locator(".chart-throughput .u-legend").textContent();
  assert.match(legend, /offered\/s/);
  assert.match(legend, /transactions\/s achieved/);
  assert.match(await pg.locator(".running-now").textContent(), /open arrivals: 20,000 requests\/s offered to each API node \(Poisson\)/);
  // Below saturation the offered load holds it (once the warm-up is over).
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => /Held by the offered load/.test(el.shadowRoot.querySelector(".why-panel").textContent), null, "the offered load named");
  // Turning think time on closes the arrivals (the two exclude each other), live.
  await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => {
    const think = el.shadowRoot.querySelector("#thinkTimeUs");
    think.value = "3";
    think.dispatchEvent(new Event("change"));
  });
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.effective[0].arrivalRatePerApiNode === 0 && el.effective[0].thinkTimeUs === 1000, null, "think time on, arrivals off");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => !el.shadowRoot.querySelector(".chart-throughput .u-legend").textContent.includes("offered"), null, "the chart drops the offered series");
  assert.match(await pg.locator(".running-now").textContent(), /closed loop, thinking 1\.0 ms between transactions/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("a sweep over the offered load draws the knee: achieved follows offered, then levels at the bottleneck", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=ndbapi-pk&mode=sweep`);
  const pg = page.locator("hotrow-playground");
  await pg.locator("#sweepField").selectOption("arrivalRatePerApiNode");
  const done = page.evaluate(() => new Promise((ok) => {
    const el = document.querySelector("hotrow-playground");
    let runs = [];
    el.addEventListener("hotrow-sweep", (e) => (runs = e.detail));
    el.addEventListener("hotrow-sweepdone", () => ok(runs.map((r) => ({ offered: r.value, tps: r.transactionsPerSecond, bottleneck: r.bottleneck?.kind }))));
  }));
  await pg.locator(".sweep-run").click();
  const points = await done;
  assert.deepEqual(points.map((p) => p.offered), [100, 300, 1000, 3000, 10000, 30000, 100000, 300000]);
  for (const p of points.filter((p) => p.offered <= 30000)) {
    // A second of Poisson arrivals: within 10%, or 4 standard deviations (sqrt(rate)).
    const slack = Math.max(0.1 * p.offered, 4 * Math.sqrt(p.offered));
    assert.ok(Math.abs(p.tps - p.offered) < slack, `below the knee achieved = offered: ${JSON.stringify(p)}`);
    assert.equal(p.bottleneck, "offered", JSON.stringify(p));
  }
  const [at100k, at300k] = points.slice(-2);
  assert.ok(at100k.tps < 70_000 && Math.abs(at300k.tps / at100k.tps - 1) < 0.1, `past the knee it levels: ${JSON.stringify(points)}`);
  assert.notEqual(at300k.bottleneck, "offered");
  assert.deepEqual(problems, []);
  await page.close();
});
