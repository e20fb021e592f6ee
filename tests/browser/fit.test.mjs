// Fit mode: measured points fitted in the page on its workers, by the fit's own
// WebAssembly module, give exactly what `hotrow fit` gives for the same settings; the
// chart draws the points, hotrow's curve and the USL's; the link keeps the points; the
// fitted values go into the running config; cancel and bad points lose nothing.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { useSite, openPage, until } from "./page.mjs";
import { RUN_LENGTHS } from "../../js/element/run-lengths.js";
import { hotrowBin } from "../hotrow.mjs";

const env = useSite();

/** `hotrow fit --json` on the settings the Fit mode runs (`RUN_LENGTHS.fit`). */
function cliFit(args, csv) {
  // The page's run length, from its one table.
  const length = Object.entries(RUN_LENGTHS.fit).flatMap(([k, v]) => ["--set", `${k}=${v}`]);
  const r = spawnSync(hotrowBin, ["fit", "--json", "--measured", "-", ...length, ...args], { input: csv, encoding: "utf8" });
  assert.equal(r.status, 0, r.stderr);
  return JSON.parse(r.stdout);
}

const nextFit = (page) =>
  page.evaluate(() => new Promise((ok) => document.querySelector("hotrow-playground").addEventListener("hotrow-fitdone", (e) => ok(e.detail), { once: true })));

test("Fit mode: the bug report's DBT2 points give the CLI's fit to the last digit; the curve, the link and the values go live", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?mode=fit`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".fit-run:not([disabled])").waitFor();
  // It opens with the bug report's two measurements, fitting cpu.scale.
  const csv = await pg.locator("#fitPoints").inputValue();
  assert.match(csv, /dataNodes,cacheSize,tpm\n8,1,106000\n8,1000,158000/);
  assert.equal(await pg.locator("#fitFields").inputValue(), "cpu.scale");
  const done = nextFit(page);
  await pg.locator(".fit-run").click();
  const detail = await done;
  const cli = cliFit(["--fit", "cpu.scale"], csv);
  // The same session, the same runs (native == wasm): the same fit, interval and residuals.
  assert.deepEqual(detail.fit, cli.fit);
  const scale = detail.fit.fitted[0].estimate;
  assert.ok(Math.abs(scale.value - 1) < 0.1, `cpu.scale ${scale.value} within 10% of 1`);
  console.log(`fit in Chromium: cpu.scale ${scale.value.toFixed(3)} (${scale.low.toFixed(3)} .. ${scale.high.toFixed(3)}), ${detail.fit.runs} runs + ${detail.predictions.length} for the curve on ${detail.workers} workers in ${detail.seconds.toFixed(1)} s`);
  // hotrow's curve over cache size runs past the measured values; its value at a measured
  // point is the fit's there.
  const chart = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => ({ data: el.fitChart.data, labels: el.fitChart.series.slice(1).map((s) => s.label) }));
  assert.deepEqual(chart.labels, ["measured TPM", "hotrow, fitted"]);
  assert.ok(chart.data[0].length > 2 && chart.data[0].includes(1) && chart.data[0].includes(1000), chart.data[0].join(","));
  assert.equal(chart.data[2][chart.data[0].indexOf(1)], detail.fit.points.find((p) => p.values.cacheSize === 1).simulated);
  assert.equal(chart.data[1].filter((v) => v !== null).length, 2);
  // Each point's residual and bottleneck, as the fit says.
  const rows = await pg.locator(".fit-points tbody tr").allTextContents();
  assert.equal(rows.length, 2);
  assert.match(rows[0], /counter row of history in SYSTAB_0/);
  assert.match(await pg.locator(".fit-values tbody").textContent(), /cpu\.scale/);
  // Hovering the chart reads the curves' values at the cursor.
  const box = await pg.locator(".fit-chart .u-over").boundingBox();
  await page.mouse.move(box.x + 2, box.y + box.height / 2);
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => /\d/.test(el.$(".fit-chart .u-legend .u-series:nth-child(3) .u-value")?.textContent ?? ""), undefined, "a value under the cursor");
  // The link keeps the points, the fields and the result; opening it shows the fit at once
  // (no refit: the fit's runs are not asked for again), and predicts from it.
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => !!el.view.fitResult, undefined, "the result packed into the link");
  const query = await pg.evaluate((el) => el.query);
  assert.match(query, /mode=fit/);
  assert.match(query, /fitResult=/);
  const again = await openPage(env.browser, `${env.site.origin}/index.html?${query}`);
  const pg2 = again.page.locator("hotrow-playground");
  assert.equal(await pg2.locator("#fitPoints").inputValue(), csv.trim() + "\n");
  assert.equal(await pg2.locator("#fitFields").inputValue(), "cpu.scale");
  await pg2.locator(".fit-status").filter({ hasText: "Reopened from the link (not refitted)" }).waitFor();
  assert.match(await pg2.locator(".fit-values tbody").textContent(), new RegExp(String(+scale.value.toPrecision(4)).replace(".", "\\.")));
  assert.equal((await pg2.locator(".fit-points tbody tr").allTextContents()).join("|"), rows.join("|"));
  const reopened = await pg2.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.fitChart.data);
  assert.deepEqual(reopened, chart.data, "the same curve, from the link");
  assert.equal(await pg2.locator(".fit-predict").isDisabled(), false, "predict at works from a reopened fit");
  // A link whose result is of other points is refused by name and fits afresh.
  const other = query.replace(/fitPoints=[^&]*/, `fitPoints=${encodeURIComponent("dataNodes,cacheSize,tpm\n8,1,100000\n8,1000,158000\n")}`);
  const third = await openPage(env.browser, `${env.site.origin}/index.html?${other}`);
  await third.page.locator("hotrow-playground .notice").filter({ hasText: "the fit is of other points than these" }).waitFor();
  assert.deepEqual(again.problems, []);
  assert.deepEqual(third.problems, []);
  await again.page.close();
  await third.page.close();
  // The fitted values go into the running config, which runs live.
  await pg.locator(".fit-apply").click();
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }, v) => el.view.mode === "live" && el.effective[0]?.cpu.scale === v, scale.value, "the fitted cpu.scale running live");
  assert.match(await pg.locator(".notice").textContent(), /cpu\.scale = 1\.0/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Fit mode over data nodes: cpu.scale recovered from hotrow's own points, with the USL beside; cancel and bad points lose nothing", async () => {
  // Points hotrow made with cpu.scale 1.6 (the preset's is 1), 1 s runs.
  const points = [2, 4, 6, 8].map((n) => {
    const r = spawnSync(hotrowBin, ["run", "--json", "--preset", "ndbapi-pk", "--set", `dataNodes=${n}`, "--set", "cpu.scale=1.6", "--set", "durationMs=1000", "--set", "warmupMs=500"], { encoding: "utf8" });
    return `${n},${JSON.parse(r.stdout).insertsPerSecond}`;
  });
  const csv = ["dataNodes,insertsPerSecond", ...points].join("\n");
  const q = new URLSearchParams({ preset: "ndbapi-pk", mode: "fit", fitPoints: csv, fitFields: "cpu.scale" });
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?${q}`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".fit-run:not([disabled])").waitFor();
  // Cancel stops it; the points stay.
  await pg.locator(".fit-run").click();
  await pg.locator(".fit-cancel:not([disabled])").click();
  await pg.locator(".fit-status").filter({ hasText: "Fit cancelled." }).waitFor();
  assert.equal(await pg.locator("#fitPoints").inputValue(), `${csv}\n`);
  // Bad points: the error names the column; nothing is lost.
  await pg.locator("#fitPoints").fill(csv.replace("insertsPerSecond", "insertsPerSec"));
  await pg.locator(".fit-run").click();
  await pg.locator(".error").filter({ hasText: "column `insertsPerSec`" }).waitFor();
  assert.match(await pg.locator("#fitPoints").inputValue(), /insertsPerSec\n/);
  assert.equal(await pg.locator(".fit-run").isDisabled(), false);
  // Fitted: cpu.scale comes back; the USL's curve is drawn beside hotrow's.
  await pg.locator("#fitPoints").fill(csv);
  const done = nextFit(page);
  await pg.locator(".fit-run").click();
  const detail = await done;
  assert.deepEqual(detail.fit, cliFit(["--preset", "ndbapi-pk", "--fit", "cpu.scale"], csv).fit);
  const scale = detail.fit.fitted[0].estimate.value;
  assert.ok(Math.abs(scale / 1.6 - 1) < 0.05, `cpu.scale ${scale} within 5% of 1.6`);
  assert.equal(detail.fit.usl.field, "dataNodes");
  const labels = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.fitChart.series.slice(1).map((s) => s.label));
  assert.deepEqual(labels, ["measured inserts/s", "hotrow, fitted", "USL"]);
  assert.ok(detail.predictions.every((p) => p.usl > 0) && detail.predictions.some((p) => p.values.dataNodes > 8), "the curve runs past the points");
  assert.match(await pg.locator(".fit-notes").textContent(), /USL over dataNodes/);
  // What the points did not measure: the fitted model at 16 data nodes, the CLI's --predict.
  await pg.locator("#fitPredict").fill("16");
  await pg.locator(".fit-predict").click();
  const said = pg.locator(".fit-prediction").filter({ hasText: "At dataNodes = 16: hotrow fitted" });
  await said.waitFor({ timeout: 60_000 });
  assert.match(await said.textContent(), /hotrow fitted [\d.,]+k? inserts\/s, the USL [\d.,]+k?; held by /);
  const predicted = +(await said.getAttribute("data-value"));
  const cli = cliFit(["--preset", "ndbapi-pk", "--fit", "cpu.scale", "--predict", "dataNodes=16"], csv);
  assert.equal(predicted, cli.predictions[0].simulated, "the page predicts what the CLI does");
  assert.deepEqual(problems, []);
  await page.close();
});
