// Answers that travel, in Chromium: with JavaScript off the docs page's embed shows its
// static figure (the element's children) and a report from `hotrow report` shows every
// figure; with JavaScript on, the static figure gives way to the live playground once its
// module is ready. Screenshots go to test-results/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { useSite, openPage, root } from "./page.mjs";
import { hotrowBin } from "../hotrow.mjs";

const env = useSite({ repo: root });
const shots = `${root}test-results`;

test("JavaScript off: the docs page's embed shows its static figure, a report shows all its figures", async () => {
  mkdirSync(shots, { recursive: true });
  const context = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1100, height: 900 } });
  const page = await context.newPage();
  await page.goto(`${env.site.origin}/docs.html`);
  const figure = page.locator("hotrow-playground#bug > svg");
  const box = await figure.boundingBox();
  assert.ok(box && box.height > 150 && box.width > 400, `the static figure is drawn: ${JSON.stringify(box)}`);
  await figure.scrollIntoViewIfNeeded();
  await page.screenshot({ path: join(shots, "docs-no-javascript.png") });
  const html = execFileSync(hotrowBin, ["report", "--preset", "bug39267", "--set", "durationMs=1000", "--set", "warmupMs=500"], {
    encoding: "utf8",
  });
  await page.setContent(html);
  const svgs = page.locator("svg");
  assert.equal(await svgs.count(), 3);
  for (let i = 0; i < 3; i++) {
    const b = await svgs.nth(i).boundingBox();
    assert.ok(b && b.height > 100, `figure ${i} is drawn: ${JSON.stringify(b)}`);
  }
  await page.screenshot({ path: join(shots, "report-no-javascript.png"), fullPage: true });
  await context.close();
});

test("JavaScript on: the static figure shows until the module is ready, then the live playground replaces it", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/docs.html`);
  const pg = page.locator("hotrow-playground#bug");
  await pg.locator('[data-metric="tpm"]').filter({ hasNotText: "–" }).first().waitFor({ timeout: 30_000 });
  await pg.locator(".fallback").waitFor({ state: "hidden" });
  assert.equal(await pg.locator(":scope > svg").isVisible(), false, "the children are not drawn once the shadow root holds the playground");
  assert.deepEqual(problems, []);
  await page.close();
});

test("the figure size: the headline figures and the throughput chart alone, a few hundred pixels tall", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/docs.html`, { width: 1100, height: 900 });
  const frame = page.frameLocator("#fixed-frame");
  const pg = frame.locator("hotrow-playground");
  await pg.locator('[data-metric="tpm"]').filter({ hasNotText: "–" }).first().waitFor({ timeout: 30_000 });
  const box = await pg.boundingBox();
  assert.ok(box.height > 200 && box.height < 450, `the figure embed is a few hundred pixels tall: ${box.height}`);
  assert.ok(await pg.locator(".chart-throughput canvas").first().isVisible(), "its throughput chart shows");
  for (const hidden of [".controls", ".row[role=toolbar]", ".why-panel", ".timeline-row", ".chart-hot"]) {
    assert.equal(await pg.locator(hidden).first().isVisible(), false, `${hidden} is not shown`);
  }
  await pg.screenshot({ path: join(shots, "embed-figure.png") });
  assert.deepEqual(problems, []);
  await page.close();
});

test("a page whose policy refuses WebAssembly keeps the static figure and says why", async () => {
  // The header on every response, the worker's script too (a worker keeps its own policy).
  const policy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:";
  const withPolicy = (p) => p.route("**/*", async (route) => {
    const response = await route.fetch();
    await route.fulfill({ response, headers: { ...response.headers(), "content-security-policy": policy } });
  });
  const { page, problems } = await openPage(env.browser, `${env.repo.origin}/tests/browser/no-wasm.html`, { width: 900, height: 700, setup: withPolicy });
  const pg = page.locator("hotrow-playground");
  const error = pg.locator(".error.shown");
  await error.waitFor({ timeout: 20_000 });
  assert.match(await error.textContent(), /Content-Security-Policy refuses WebAssembly .*'wasm-unsafe-eval'/, "the error says the policy refused the module and what it needs");
  assert.ok(await pg.locator(":scope > svg").isVisible(), "the static figure stays");
  assert.equal(await pg.locator(".figures").isVisible(), false, "no empty live figure beside it");
  assert.equal(await pg.locator(".chart-throughput").isVisible(), false, "no empty chart");
  await page.screenshot({ path: join(shots, "csp-no-wasm.png") });
  assert.deepEqual(problems, []);
  await page.close();
});
