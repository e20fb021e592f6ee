// The browser suite's core in Firefox (Debian's firefox-esr, driven by puppeteer-core over
// WebDriver BiDi, no browser download): the playground loads and runs, a seek shows what a
// fresh run shows, a fork branches and its link reopens it, the tour opens, the CSV download
// is the CLI's, every strategy runs with the CLI's digests, the keys work, and nothing
// breaks the page's CSP; Fit mode loads its own module and gives the CLI's fit. A missing
// Firefox fails the run, never skips it.
import { test, before, after } from "node:test";
import assert from "node:assert/strict";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { tmpdir } from "node:os";
import { join } from "node:path";
import puppeteer from "puppeteer-core";
import { serve } from "../browser/server.mjs";
import { root, testHooks } from "../browser/page.mjs";
import { RUN_LENGTHS } from "../../js/element/run-lengths.js";
import { hotrowBin } from "../hotrow.mjs";

const FIREFOX = "/usr/bin/firefox-esr";
let site;
let browser;
let profile;

before(async () => {
  assert.ok(existsSync(FIREFOX), `Firefox ESR is missing at ${FIREFOX}: run scripts/setup.sh --browser (as root) to install Debian's firefox-esr`);
  site = await serve(join(root, "www/dist"));
  profile = mkdtempSync(join(tmpdir(), "hotrow-firefox-"));
  browser = await puppeteer.launch({ browser: "firefox", executablePath: FIREFOX, headless: true, userDataDir: profile });
});

after(async () => {
  await browser?.close();
  await site?.close();
  if (profile) rmSync(profile, { recursive: true, force: true });
});

/** A page that records console errors, page errors and CSP violations. */
async function open(query) {
  const page = await browser.newPage();
  await page.setViewport({ width: 1280, height: 1000 });
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.evaluateOnNewDocument(testHooks);
  await page.evaluateOnNewDocument(() => {
    document.addEventListener("securitypolicyviolation", (e) => console.error(`CSP violation: ${e.violatedDirective} ${e.blockedURI}`));
  });
  await page.goto(`${site.origin}/index.html?${query}`);
  return { page, problems };
}

/** Waits until `check(element, arg)` holds, polling in the page. */
async function until(page, check, arg) {
  const el = await page.$("hotrow-playground");
  await page.waitForFunction(check, { timeout: 30_000, polling: 50 }, el, arg);
}

/** ndbapi-hidden-pk run past `runMs` of simulated time, then shown again at `seekMs`. */
async function runThenSeek(runMs, seekMs) {
  const opened = await open("preset=ndbapi-hidden-pk&speed=3000");
  await until(opened.page, ({ [Symbol.for("hotrow.playground.internals")]: el }, ms) => (el.latest?.nowMs ?? 0) > ms, runMs);
  await opened.page.evaluate((ms) => document.querySelector("hotrow-playground").seek(ms), seekMs);
  return opened;
}

/** The CLI's output, and its summary for a config. */
const hotrow = (...args) => execFileSync(hotrowBin, args, { encoding: "utf8" });
const cliRun = (config) => JSON.parse(execFileSync(hotrowBin, ["run", "--json", "--config", "-"], { input: JSON.stringify(config), encoding: "utf8" }));

const shown = (page) =>
  page.evaluate(() => {
    const el = document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")];
    return { figures: el.figures, columns: el.series.map((s) => Object.fromEntries(Object.keys(s.cols).map((k) => [k, [...s.get(k)]]))) };
  });

test("Firefox: the playground loads and runs under its CSP", async () => {
  const { page, problems } = await open("preset=bug39267");
  await until(page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.figures?.insertsPerSecond > 0 && el.figures.nowMs > 300);
  const figures = await page.evaluate(() => document.querySelector("hotrow-playground").figures);
  assert.ok(figures.tpm > 0 && figures.hotRowLockUtilization > 0.5, JSON.stringify(figures));
  assert.deepEqual(problems, []);
  await page.close();
});

test("Firefox: a seek shows exactly what a fresh run shows at that time; a fork branches there", async () => {
  const { page, problems } = await runThenSeek(1500, 700);
  const back = await shown(page);
  const fresh = await open("preset=ndbapi-hidden-pk&speed=3000&pauseAtMs=700");
  await until(fresh.page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.paused && (el.latest?.nowMs ?? 0) >= 700);
  await fresh.page.evaluate(() => document.querySelector("hotrow-playground").seek(700));
  assert.deepEqual(await shown(fresh.page), back);
  await page.evaluate(() => document.querySelector("hotrow-playground").fork("cacheSize", 1000));
  const note = await page.evaluate(() => document.querySelector("hotrow-playground").shadowRoot.querySelector(".fork-note").textContent);
  assert.match(note, /forked at 0\.70 s: cache size 1 → 1000/);
  assert.deepEqual([...problems, ...fresh.problems], []);
  await page.close();
  await fresh.page.close();
});

test("Firefox: a workload spec in the link opens, and the link it writes back holds it", async () => {
  const { encodeSpec } = await import("../../js/element/spec-link.js");
  const spec = { name: "linked", api: "ndbapi", tables: [{ name: "hits", rows: 8, key: "primaryKey" }],
    transactions: [{ name: "hit", statements: [{ op: "update", table: "hits" }] }] };
  const { text } = await encodeSpec(spec);
  const { page, problems } = await open(`preset=modern&speed=200&spec=${text}`);
  await until(page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.effective?.[0]?.workload?.name === "linked" && (el.latest?.nowMs ?? 0) > 20);
  // Firefox compresses it again (its own DecompressionStream reads Node's, and back).
  const linked = await page.evaluate(async () => (await document.querySelector("hotrow-playground").link()).query);
  const { decodeSpec } = await import("../../js/element/spec-link.js");
  assert.deepEqual(await decodeSpec(new URLSearchParams(linked).get("spec")), spec);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Firefox: the tour opens at its chapter", async () => {
  const { page, problems } = await open("tour=3");
  await page.waitForSelector(".driver-popover", { timeout: 30_000 });
  const text = await page.$eval(".driver-popover", (p) => p.textContent);
  assert.match(text, /Chapter 3 of 9/);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Firefox: the windows download is the CLI's CSV; space pauses from the keyboard", async () => {
  const { page, problems } = await open("preset=ndbapi-hidden-pk&seed=3&pauseAtMs=300");
  await until(page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.paused && (el.latest?.nowMs ?? 0) >= 300);
  // What the download link saves: the blob the element hands to the browser.
  // (Its blob is read where it is made: the page's CSP lets no script fetch a blob: URL.)
  await page.evaluate(() => {
    const create = URL.createObjectURL;
    URL.createObjectURL = (blob) => {
      URL.createObjectURL = create;
      blob.text().then((text) => (window.hotrowSaved = { ...window.hotrowSaved, text }));
      return create(blob);
    };
    const click = HTMLAnchorElement.prototype.click;
    HTMLAnchorElement.prototype.click = function () {
      HTMLAnchorElement.prototype.click = click;
      window.hotrowSaved = { ...window.hotrowSaved, name: this.download };
    };
    document.querySelector("hotrow-playground").shadowRoot.querySelector(".dl-csv").click();
  });
  await page.waitForFunction(() => window.hotrowSaved?.name && window.hotrowSaved.text, { timeout: 30_000, polling: 50 });
  const csv = await page.evaluate(() => window.hotrowSaved);
  assert.match(csv.name, /^hotrow-ndbapi-hidden-pk-seed3-\d+ms\.csv$/);
  const cli = hotrow("run", "--csv", "--preset", "ndbapi-hidden-pk", "--set", "seed=3", "--set", "durationMs=300", "--set", "warmupMs=0");
  assert.equal(csv.text, cli);
  // Keys: play with space from the element, pause again with space.
  await page.evaluate(() => document.querySelector("hotrow-playground").focus());
  await page.keyboard.press(" ");
  await until(page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => !el.paused);
  await page.keyboard.press(" ");
  await until(page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.paused);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Firefox: a fork's link reopens it exactly; every strategy runs with the CLI's digests", async () => {
  const { page, problems } = await runThenSeek(1000, 600);
  await page.evaluate(() => document.querySelector("hotrow-playground").fork("cacheSize", 1000));
  const forked = await shown(page);
  const query = await page.evaluate(() => document.querySelector("hotrow-playground").query);
  const linked = await open(query);
  await until(linked.page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.forkInfo && el.series.length === 2 && el.paused);
  assert.deepEqual(await shown(linked.page), forked);
  const strategies = await open("preset=ndbapi-hidden-pk&mode=strategies");
  await until(strategies.page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.ready);
  await strategies.page.evaluate(() => document.querySelector("hotrow-playground").shadowRoot.querySelector(".strategies-run").click());
  await until(strategies.page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.lastStrategies);
  const results = await strategies.page.evaluate(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")].lastStrategies.results);
  assert.equal(results.length, 8);
  for (const r of results.slice(0, 3)) assert.equal(cliRun(r.config).digest, r.digest);
  assert.deepEqual([...problems, ...linked.problems, ...strategies.problems], []);
  for (const p of [page, linked.page, strategies.page]) await p.close();
});

test("Firefox: Fit mode loads the fit's module under the CSP and gives the CLI's fit", async () => {
  const csv = "dataNodes,insertsPerSecond\n2,15000\n4,28000\n6,39000\n";
  const q = new URLSearchParams({ preset: "ndbapi-pk", mode: "fit", fitPoints: csv, fitFields: "cpu.scale" });
  const { page, problems } = await open(q.toString());
  await until(page, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.ready);
  await page.evaluate(() => document.querySelector("hotrow-playground").shadowRoot.querySelector(".fit-run").click());
  await page.waitForFunction(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")].lastFit?.seconds > 0, { timeout: 120_000, polling: 100 });
  const { fit } = await page.evaluate(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")].lastFit);
  // The page's run length, from its one table.
  const length = Object.entries(RUN_LENGTHS.fit).flatMap(([k, v]) => ["--set", `${k}=${v}`]);
  const cli = JSON.parse(execFileSync(hotrowBin, ["fit", "--json", "--preset", "ndbapi-pk", "--measured", "-", "--fit", "cpu.scale",
    ...length], { input: csv, encoding: "utf8" }));
  assert.deepEqual(fit, cli.fit);
  const drawn = await page.evaluate(() => document.querySelector("hotrow-playground")[Symbol.for("hotrow.playground.internals")].fitChart.series.length);
  assert.equal(drawn, 4, "measured, hotrow and the USL over data nodes");
  assert.deepEqual(problems, []);
  await page.close();
});
