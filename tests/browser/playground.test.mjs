// The playground in a real browser (Debian's Chromium via playwright-core) against the
// built site served on 127.0.0.1. Screenshots go to test-results/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { readFileSync } from "node:fs";
import { execFileSync } from "node:child_process";
import { useSite, root, openPage, metric, waitValue, until, testHooks } from "./page.mjs";
import { ATTRIBUTE_ONLY } from "../../js/element/state.js";
import { hotrowBin } from "../hotrow.mjs";

const shots = `${root}test-results`;
mkdirSync(shots, { recursive: true });
const env = useSite();

const open = (url, size) => openPage(env.browser, url, size);

test("the playground loads without errors, charts draw, figures move", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=bug39267`);
  const pg = page.locator("hotrow-playground");
  const tpm = await waitValue(pg, "tpm", (v) => v > 50_000);
  assert.ok(tpm < 140_000, `cache 1 TPM ${tpm}`);
  assert.ok((await waitValue(pg, "hotRowLockUtilization", (v) => v > 0.9)) <= 1);
  // uPlot drew its canvases, and the heatmap has pixels.
  assert.ok((await pg.locator(".uplot canvas").count()) >= 3);
  const lit = await pg.locator("canvas.heatmap").first().evaluate((c) => {
    const d = c.getContext("2d").getImageData(0, 0, c.width, c.height).data;
    let n = 0;
    for (let i = 3; i < d.length; i += 4) if (d[i] > 0) n++;
    return n;
  });
  assert.ok(lit > 1000, `heatmap pixels ${lit}`);
  assert.match(await pg.locator(".bars-load .bar.hot").textContent(), /node \d/);
  // Presets, the version and control ranges come from the package, not from the markup.
  const fromPackage = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => ({
    presets: [...el.shadowRoot.querySelectorAll("#preset option")].map((o) => o.value),
    version: el.shadowRoot.querySelector(".version").textContent,
    apiNodes: [el.shadowRoot.querySelector("#apiNodes").max, el.shadowRoot.querySelector("#apiNodes").title],
    reported: el.shadowRoot.querySelector(".reported-note").hidden,
  }));
  // The menu lists the core's presets, in its order (the CLI reads the same table).
  const presets = JSON.parse(execFileSync(hotrowBin, ["presets", "--json"], { encoding: "utf8" })).map((p) => p.name);
  assert.deepEqual(fromPackage.presets, presets);
  assert.equal(presets[0], "bug39267");
  assert.match(fromPackage.version, /^hotrow \d+\.\d+\.\d+$/);
  assert.equal(fromPackage.apiNodes[0], "256");
  assert.match(fromPackage.apiNodes[1], /^apiNodes: API nodes/);
  assert.equal(fromPackage.reported, false, "the reported figures are explained at 8 data nodes");
  await page.screenshot({ path: `${shots}/playground.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test("raising cache size from 1 to 1000 on bug39267 raises the displayed throughput", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=bug39267&speed=4000`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "tpm", (v) => v > 50_000);
  await page.waitForTimeout(1500);
  const before = await waitValue(pg, "tpm");
  const slider = pg.locator("#cacheSize");
  await slider.fill("3"); // log scale: 10^3 = 1000
  await slider.dispatchEvent("change");
  await pg.locator(".notice").filter({ hasText: "without restarting" }).waitFor();
  const after = await waitValue(pg, "tpm", (v) => v > before * 1.25, 30_000);
  assert.ok(after > before * 1.25, `${before} -> ${after}`);
  await waitValue(pg, "hotRowLockUtilization", (v) => v < 0.2, 30_000);
  assert.match(page.url(), /cacheSize=1000/, "the URL follows the state");
  assert.deepEqual(problems, []);
  await page.close();
});

test("the element's public surface is exactly the documented one", async () => {
  // A page as a user's: without the tests' registry (page.mjs testHooks).
  const page = await env.browser.newPage();
  const problems = [];
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  await page.goto(`${env.site.origin}/index.html`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "tpm");
  const surface = await pg.evaluate((el) => {
    const proto = Object.getPrototypeOf(el);
    const chain = [];
    for (let p = el; p; p = Object.getPrototypeOf(p)) chain.push(...Object.getOwnPropertySymbols(p).map(String));
    return {
      own: Object.keys(el),
      ownSymbols: Object.getOwnPropertySymbols(el).map(String),
      members: Object.getOwnPropertyNames(proto).filter((n) => n !== "constructor"),
      symbols: Object.getOwnPropertySymbols(proto).map(String),
      hotrowSymbols: chain.filter((s) => s.includes("hotrow")),
      observed: proto.constructor.observedAttributes,
    };
  });
  assert.deepEqual(surface.own, [], "nothing of its state is on the element");
  assert.deepEqual(surface.ownSymbols, [], "no symbol-keyed member on the element");
  assert.deepEqual(surface.symbols, [], "no symbol-keyed member on its class");
  assert.deepEqual(surface.hotrowSymbols, [], "nothing of hotrow's keyed by a symbol anywhere up its prototype chain");
  const camel = (a) => a.replace(/-([a-z])/g, (_, c) => c.toUpperCase());
  const attributeProps = surface.observed.filter((a) => !ATTRIBUTE_ONLY.includes(a)).map(camel);
  const methods = ["connectedCallback", "disconnectedCallback", "attributeChangedCallback", "load", "query", "link", "seek", "fork", "figures", "effective"];
  assert.deepEqual(surface.members.sort(), [...methods, ...attributeProps].sort());
  assert.deepEqual(problems, []);
  await page.close();
});

test("compare mode shows a ratio above 1 for cache 1 vs 1000", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?mode=compare&speed=3000`);
  const pg = page.locator("hotrow-playground");
  await pg.locator('[data-metric="compareRatio"]').waitFor({ state: "visible" });
  const ratio = await waitValue(pg, "compareRatio", (v) => v > 1.2, 40_000);
  assert.ok(ratio > 1.2 && ratio < 3, `ratio ${ratio}`);
  await page.screenshot({ path: `${shots}/compare.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test("compare reads a heavy run B and a light run A at one simulated time", async () => {
  // B has 64 times A's clients: it costs many more events per simulated ms, and at the top
  // speed the engine is the limit. A waits for B; the ratio compares the same windows.
  const q = "preset=bug39267-fixed&mode=compare&compareField=clientsPerApiNode&compareA=1&compareB=64&speed=100000";
  const { page, problems } = await open(`${env.site.origin}/index.html?${q}`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "compareRatio", (v) => v > 0, 40_000);
  const seen = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => new Promise((done) => {
    const out = [];
    const on = () => {
      const [a, b] = el.latest.sims.map((s) => s.snapshot.nowMs);
      out.push({ a, b, lastA: el.series[0].lastX, lastB: el.series[1].lastX, at: el.figures.compareAtMs });
      if (out.length === 15) {
        el.host.removeEventListener("hotrow-snapshot", on);
        done(out);
      }
    };
    el.host.addEventListener("hotrow-snapshot", on);
  }));
  for (const s of seen) {
    assert.equal(s.a, s.b, `both runs at one simulated time: ${JSON.stringify(s)}`);
    assert.equal(s.lastA, s.lastB, "the same windows closed in both");
    assert.equal(s.at, Math.round(s.lastA * 1000), "the ratio is read where both are");
  }
  assert.ok(seen.at(-1).a > seen[0].a, "and they advance");
  assert.deepEqual(problems, []);
  await page.close();
});

test("a shared URL reproduces the same numbers", async () => {
  const url = `${env.site.origin}/index.html?v=1&preset=ndbapi-hidden-pk&seed=3&cacheSize=7&speed=2000&pauseAtMs=1200`;
  const read = async () => {
    const { page, problems } = await open(url);
    const pg = page.locator("hotrow-playground");
    await pg.locator(".play", { hasText: "Play" }).waitFor({ timeout: 30_000 }); // paused at 1200 ms
    await page.waitForTimeout(300);
    const values = {};
    for (const m of ["insertsPerSecond", "hotRowLockUtilization", "tpm"]) values[m] = await metric(pg, m).getAttribute("data-value");
    values.time = await metric(pg, "simulatedSeconds").textContent();
    assert.deepEqual(problems, []);
    await page.close();
    return values;
  };
  const a = await read();
  const b = await read();
  assert.ok(Number(a.insertsPerSecond) > 0);
  assert.equal(a.time, "1.2");
  assert.deepEqual(a, b);
});

test("the custom element and the iframe page render on the docs page", async () => {
  const { page, problems } = await open(`${env.site.origin}/docs.html`);
  const element = page.locator("hotrow-playground#bug");
  const cacheOne = await waitValue(element, "tpm", (v) => v > 50_000);
  const frame = page.frameLocator("#fixed-frame");
  await waitValue(frame.locator("hotrow-playground"), "insertsPerSecond", (v) => v > 0);
  await page.waitForTimeout(2000);
  const fixed = await waitValue(frame.locator("hotrow-playground"), "tpm", (v) => v > 0);
  assert.ok(fixed > cacheOne, `iframe with cache 1000 ${fixed} vs element with cache 1 ${cacheOne}`);
  // The iframe's documented height for the figure size (400 px, docs/playground.md) shows its throughput chart whole.
  const frameBox = await page.locator("#fixed-frame").boundingBox();
  const chartBox = await frame.locator("hotrow-playground .chart-throughput").boundingBox();
  assert.equal(frameBox.height, 400);
  assert.ok(chartBox.y + chartBox.height <= frameBox.y + frameBox.height, `the iframe's chart ends at ${chartBox.y + chartBox.height - frameBox.y} px of 400`);
  // A spec in an attribute, as JSON: its Zipfian head is the hot row, named on its card
  // (compact: figures, the throughput chart and a few controls, 700 px tall at most).
  const likes = page.locator("hotrow-playground#likes");
  await likes.locator(".figure.binding .label").filter({ hasText: "(posts 0" }).waitFor({ timeout: 30_000 });
  for (const compact of [element, likes]) {
    const box = await compact.boundingBox();
    assert.ok(box.height <= 700, `a compact element is ${box.height} px tall`);
    assert.equal(await compact.locator(".why-panel").isVisible(), false, "compact shows no Why panel");
  }
  await page.screenshot({ path: `${shots}/docs.png`, fullPage: true });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a hostile or broken URL shows a readable error and runs the defaults", async () => {
  const evil = encodeURIComponent("<img src=x onerror=alert(1)>");
  for (const query of [`?cacheSize=-5&dataNodes=abc&preset=${evil}&mode=${evil}`, "?dataNodes=7", `?v=99&${"x".repeat(5000)}=1`, "?cacheSize=1e400"]) {
    const { page, problems } = await open(`${env.site.origin}/index.html${query}`);
    const pg = page.locator("hotrow-playground");
    const error = pg.locator(".error.shown");
    await error.waitFor({ timeout: 10_000 });
    const text = await error.textContent();
    assert.ok(text.length > 10 && !/undefined|\[object/.test(text), text);
    assert.equal(await pg.locator(".error img").count(), 0, "no markup from the URL is rendered");
    await waitValue(pg, "insertsPerSecond", (v) => v > 0);
    assert.deepEqual(problems, [], query);
    await page.close();
  }
});

test("works at 320 px wide and is keyboard-usable", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html`, { width: 320, height: 800 });
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "insertsPerSecond", (v) => v > 0);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  assert.ok(overflow <= 1, `page scrolls sideways by ${overflow}px`);
  await page.screenshot({ path: `${shots}/narrow.png`, fullPage: true });
  // Every control has a label.
  const unlabeled = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => [...el.shadowRoot.querySelectorAll("input, select")]
    .filter((i) => !(i.labels?.length || i.getAttribute("aria-label"))).map((i) => i.id));
  assert.deepEqual(unlabeled, []);
  // Keyboard: focus the play button and press Enter to pause.
  await pg.locator(".play").focus();
  await page.keyboard.press("Enter");
  assert.equal(await pg.locator(".play").getAttribute("aria-pressed"), "true");
  assert.deepEqual(problems, []);
  await page.close();
});

test("keyboard shortcuts act inside the element, never on typed keys or outside it; the mode is reflected", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "insertsPerSecond", (v) => v > 0);
  const state = () => pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => ({ paused: el.paused, pressed: el.$(".play").getAttribute("aria-pressed"), nowMs: el.latest?.nowMs ?? 0 }));
  // Keys pressed on the host page go nowhere.
  await page.evaluate(() => document.body.focus());
  await page.keyboard.press(" ");
  assert.equal((await state()).paused, false, "space outside the element does not pause it");
  // A click on a chart gives the element the keyboard.
  await pg.locator(".chart-throughput").click();
  await page.keyboard.press(" ");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.paused, null, "space pauses it");
  assert.equal((await state()).pressed, "true", "space paused it");
  const before = (await state()).nowMs;
  await page.keyboard.press(".");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }, t0) => (el.latest?.nowMs ?? 0) > t0, before, "period steps");
  assert.ok((await state()).paused, "a step leaves it paused");
  await page.keyboard.press(" ");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => !el.paused, null, "space plays again");
  // ? lists the keys; Escape closes the list.
  await page.keyboard.press("?");
  const help = pg.locator(".keys-help");
  assert.equal(await help.isVisible(), true);
  assert.deepEqual(await help.locator("kbd").allTextContents(), ["Space", ".", "r", "?"]);
  assert.equal(await pg.locator(".keys-toggle").getAttribute("aria-expanded"), "true");
  await page.keyboard.press("Escape");
  assert.equal(await help.isVisible(), false);
  // Typing into the element's own field is typing, not a shortcut.
  await pg.locator("#seed").fill("");
  await pg.locator("#seed").type("3r ");
  assert.equal((await state()).paused, false, "space in a field does not pause");
  assert.equal(await pg.locator(".notice").textContent().then((t) => t.includes("Reset")), false, "r in a field does not reset");
  // r resets.
  await pg.locator(".chart-throughput").click();
  await page.keyboard.press("r");
  await pg.locator(".notice", { hasText: "Reset" }).waitFor();
  // The mode shown is reflected in the `mode` attribute and property, without a restart loop.
  await pg.locator('[data-mode="compare"]').click();
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.host.getAttribute("mode") === "compare" && el.host.mode === "compare" && el.effective.length === 2, null, "mode reflected");
  const starts = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => new Promise((ok) => setTimeout(() => ok(el.effective.length), 300)));
  assert.equal(starts, 2, "compare mode runs two simulations");
  assert.deepEqual(problems, []);
  await page.close();
});

test("rebuilt charts stop watching their panels: restarts leave no ResizeObserver behind", async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.addInitScript(testHooks);
  // Count observers that watch something and were not disconnected.
  await page.addInitScript(() => {
    const Native = window.ResizeObserver;
    window.liveObservers = 0;
    window.ResizeObserver = class extends Native {
      observe(...args) {
        if (!this.counted) window.liveObservers += 1;
        this.counted = true;
        return super.observe(...args);
      }
      disconnect() {
        if (this.counted) window.liveObservers -= 1;
        this.counted = false;
        return super.disconnect();
      }
    };
  });
  await page.goto(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "insertsPerSecond", (v) => v > 0);
  const first = await page.evaluate(() => window.liveObservers);
  for (let i = 0; i < 5; i++) {
    await pg.locator(".reset").click();
    await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => new Promise((ok) => { const t = () => (el.charts?.length && el.latest ? ok() : setTimeout(t, 20)); t(); }));
    await page.waitForTimeout(100);
  }
  assert.equal(await page.evaluate(() => window.liveObservers), first, "five restarts, the same observers");
  await page.close();
});

test("downloads: the windows as the CLI's CSV, the summary as its JSON, the report as HTML, a chart as PNG", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk&seed=3&pauseAtMs=300`);
  const pg = page.locator("hotrow-playground");
  await until(pg, ({ [Symbol.for("hotrow.playground.internals")]: el }) => el.paused && (el.latest?.nowMs ?? 0) >= 300, null, "paused at 300 ms");
  const fetchDownload = async (button) => {
    const [download] = await Promise.all([page.waitForEvent("download"), pg.locator(button).first().click()]);
    return { name: download.suggestedFilename(), body: readFileSync(await download.path()) };
  };
  const csv = await fetchDownload(".dl-csv");
  assert.match(csv.name, /^hotrow-ndbapi-hidden-pk-seed3-\d+ms\.csv$/);
  const cli = execFileSync(hotrowBin, ["run", "--csv", "--preset", "ndbapi-hidden-pk", "--set", "seed=3",
    "--set", "durationMs=300", "--set", "warmupMs=0"], { encoding: "utf8" });
  assert.equal(csv.body.toString("utf8"), cli, "the same columns and numbers as hotrow run --csv");
  const json = await fetchDownload(".dl-json");
  const summary = JSON.parse(json.body.toString("utf8"));
  const cliSummary = JSON.parse(execFileSync(hotrowBin, ["run", "--json", "--preset", "ndbapi-hidden-pk",
    "--set", "durationMs=10", "--set", "warmupMs=0"], { encoding: "utf8" }));
  assert.deepEqual(Object.keys(summary).sort(), Object.keys(cliSummary).sort(), "the object hotrow run --json prints");
  assert.equal(summary.config.seed, 3);
  // The report of the run so far (paused: the summary's moment): no script, its figures inline.
  const report = await fetchDownload(".dl-report");
  assert.match(report.name, /^hotrow-ndbapi-hidden-pk-seed3-\d+ms\.html$/);
  const html = report.body.toString("utf8");
  assert.doesNotMatch(html, /<script/i);
  assert.equal((html.match(/<svg /g) || []).length, 3);
  assert.ok(html.includes(`<code>${summary.digest}</code>`), "the report is of the summary's moment");
  const png = await fetchDownload('.dl-png[data-chart="throughputChart"]');
  assert.match(png.name, /-throughput\.png$/);
  assert.deepEqual([...png.body.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "a PNG file");
  assert.deepEqual(problems, []);
  await page.close();
});

test("the reported reference lines are named in the chart's note, never written over the data", async () => {
  const page = await env.browser.newPage({ viewport: { width: 1280, height: 1000 } });
  await page.addInitScript(() => {
    const fill = CanvasRenderingContext2D.prototype.fillText;
    window.refLabels = [];
    CanvasRenderingContext2D.prototype.fillText = function (text, ...rest) {
      if (/reported|TPM \(cache/.test(String(text))) window.refLabels.push(String(text));
      return fill.call(this, text, ...rest);
    };
  });
  await page.goto(`${env.site.origin}/index.html?preset=bug39267`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "tpm", (v) => v > 0);
  const note = pg.locator(".reported-note");
  await note.waitFor({ state: "visible" });
  assert.match(await note.textContent(), /106k TPM at cache 1 .* 158k TPM at cache 1000/);
  assert.deepEqual(await page.evaluate(() => window.refLabels), []);
  await page.close();
});

/** Every visible element of the playground whose text does not fit its box: text wider than
 * its element, or a menu's chosen option wider than the menu (which cuts it). */
const overflowing = (page) => page.evaluate(() => {
  const root = document.querySelector("hotrow-playground").shadowRoot;
  const ctx = document.createElement("canvas").getContext("2d");
  const bad = [];
  for (const el of root.querySelectorAll("*")) {
    if (el.closest("[hidden]") || !el.getClientRects().length || ["CANVAS", "svg", "PRE"].includes(el.tagName) || el.closest("svg")) continue;
    const cs = getComputedStyle(el);
    if (el.tagName === "SELECT") {
      ctx.font = `${cs.fontSize} ${cs.fontFamily}`;
      const text = el.selectedOptions[0]?.textContent ?? "";
      const need = ctx.measureText(text).width + 24; // the arrow and the padding
      if (need > el.clientWidth) bad.push(`menu #${el.id}: "${text}" needs ${Math.ceil(need)} px of ${el.clientWidth}`);
    } else if (el.clientWidth > 0 && el.scrollWidth > el.clientWidth + 1 && !["auto", "scroll"].includes(cs.overflowX)) {
      bad.push(`${el.tagName.toLowerCase()}.${el.className}: ${el.scrollWidth} px of text in ${el.clientWidth} ("${el.textContent.trim().slice(0, 40)}")`);
    }
  }
  return bad;
});

test("no label or menu is cut on the main screens at 1280 and 1440 px, and the first chart is on the first screen", async () => {
  for (const width of [1280, 1440]) {
    const page = await env.browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(`${env.site.origin}/index.html?preset=bug39267`);
    const pg = page.locator("hotrow-playground");
    await waitValue(pg, "tpm", (v) => v > 0);
    const chart = await pg.locator(".chart-throughput").boundingBox();
    assert.ok(chart.y < 900, `at ${width} px the throughput chart starts at ${chart.y} px`);
    assert.deepEqual(await overflowing(page), [], `live, ${width} px`);
    // Each mode's panel (its settings, its run button, then its results) lands in view.
    for (const [mode, result] of [["compare", ".compare-panel"], ["sweep", ".sweep-panel"], ["strategies", ".strategies-panel"], ["fit", ".fit-panel"]]) {
      await pg.locator(`[data-mode="${mode}"]`).click();
      await pg.locator(result).first().waitFor({ state: "visible" });
      const box = await pg.locator(result).first().boundingBox();
      assert.ok(box.y >= 0 && box.y < 900, `${mode}: its results at ${box.y} px, out of view`);
      assert.deepEqual(await overflowing(page), [], `${mode}, ${width} px`);
    }
    await page.close();
  }
});

test("a fault in the playground shows its effect and breaks nothing", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=bug39267-fixed&speed=2000`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "tpm", (v) => v > 100_000);
  await pg.locator("#faultNode").selectOption("2");
  await pg.locator(".fail-node").click();
  await pg.locator('[data-metric="nodesDown"]', { hasText: "node 2" }).waitFor();
  await pg.locator('[data-metric="aborts"]').filter({ hasNotText: /^0$/ }).waitFor();
  await pg.locator(".restart-api").click();
  await pg.locator('[data-metric="idsLost"]').filter({ hasNotText: /^0$/ }).waitFor();
  await pg.locator('[data-metric="nodesDown"]', { hasText: "none" }).waitFor({ timeout: 20_000 }); // rejoined after 3 s
  await waitValue(pg, "tpm", (v) => v > 100_000);
  await page.screenshot({ path: `${shots}/fault.png`, fullPage: true });
  assert.equal(await pg.locator(".error.shown").count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});


test("the speed slider changes the running simulation's speed, through the state", async () => {
  const { page, problems } = await open(`${env.site.origin}/index.html?preset=ndbapi-hidden-pk&speed=20`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "insertsPerSecond", (v) => v > 0);
  const internals = () => pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => ({ nowMs: el.latest?.nowMs ?? 0, speed: el.view.speed }));
  /** Simulated ms per wall second over two wall seconds. */
  const rate = async () => {
    const a = (await internals()).nowMs;
    await page.waitForTimeout(2000);
    return ((await internals()).nowMs - a) / 2;
  };
  const slow = await rate();
  await pg.locator("#speed").fill("3.3"); // log scale, in steps of 0.05: 10^3.3 ms/s
  await pg.locator("#speed").dispatchEvent("input");
  assert.equal((await internals()).speed, Math.round(10 ** 3.3), "the state holds the new speed");
  await page.waitForTimeout(500);
  const fast = await rate();
  assert.ok(slow < 60, `at 20 ms/s: ${slow} ms/s`);
  assert.ok(fast > 10 * slow && fast > 500, `after 1995 ms/s was set: ${fast} ms/s (was ${slow})`);
  assert.deepEqual(problems, []);
  await page.close();
});
