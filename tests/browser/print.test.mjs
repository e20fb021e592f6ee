// Printed, in Chromium's page.pdf() read back through pdf.js: the docs page and the
// playground after a run print their figures as they are (each canvas an image with a
// drawing in it, not a blank), no control, no panel split across a page, code wrapped.
// The pages go to test-results/ as PNGs (print-docs-N.png, print-playground-N.png).
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { useSite, openPage, waitValue, root } from "./page.mjs";
import { readPdf, renderPages, squash } from "./pdf.mjs";

const env = useSite();
const shots = `${root}test-results`;

// Labels of controls: none may print.
const CONTROLS = ["Pause", "Reset", "Copy link", "Windows CSV", "Summary JSON", "ids per fetch of a cached range", "random seed", "fork here with", "Fail node"];

/** Each panel shown in print, in every playground of the page: its first and last line of text. */
async function panelsInPrint(page) {
  await page.emulateMedia({ media: "print" });
  const panels = await page.evaluate(() => {
    const out = [];
    for (const el of document.querySelectorAll("hotrow-playground")) {
      for (const panel of el.shadowRoot.querySelectorAll(".panel")) {
        if (!panel.checkVisibility()) continue;
        const lines = panel.innerText.split("\n").map((l) => l.trim()).filter(Boolean);
        if (lines.length > 1) out.push({ first: lines[0], last: lines.at(-1) });
      }
    }
    return out;
  });
  const clipped = await page.evaluate(() => [...document.querySelectorAll("pre")].filter((p) => p.scrollWidth > p.clientWidth + 1).length);
  await page.emulateMedia({ media: null });
  return { panels, clipped };
}

function assertPrinted(pages, panels, { minCharts }) {
  const all = pages.map((p) => p.text).join("");
  for (const label of CONTROLS) {
    const at = all.indexOf(squash(label));
    assert.ok(at < 0, `the control "${label}" is not printed: …${all.slice(at - 80, at + 40)}…`);
  }
  for (const { first, last } of panels) {
    const whole = pages.some((p) => p.text.includes(squash(first)) && p.text.includes(squash(last)));
    assert.ok(whole, `the panel "${first}" … "${last}" prints on one page`);
  }
  const charts = pages.flatMap((p) => p.images).filter((img) => img.colours > 8);
  assert.ok(charts.length >= minCharts, `at least ${minCharts} drawn canvases print: ${JSON.stringify(pages.map((p) => p.images))}`);
}

test("the docs page prints its live figures on whole pages, without controls, its code wrapped", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/docs.html`, { width: 1100, height: 900 });
  for (const id of ["bug", "likes"]) await waitValue(page.locator(`hotrow-playground#${id}`), "insertsPerSecond");
  await waitValue(page.frameLocator("#fixed-frame").locator("hotrow-playground"), "insertsPerSecond");
  await page.waitForTimeout(1500); // a few windows on every chart
  // Paused, so that what is read in print media is what prints.
  await page.evaluate(() => document.querySelectorAll("hotrow-playground").forEach((el) => el.setAttribute("paused", "")));
  await page.waitForTimeout(300);
  const { panels, clipped } = await panelsInPrint(page);
  // Compact: figures, the throughput chart and a few controls (docs/playground.md).
  assert.ok(panels.length >= 2, `the two embeds show their panels: ${panels.length}`);
  assert.equal(clipped, 0, "no code block is cut at the right edge in print");
  const pdf = await page.pdf({ format: "A4" });
  const pages = await readPdf(pdf);
  // The compact embeds' throughput charts, and the figure-size iframe's chart.
  assertPrinted(pages, panels, { minCharts: 3 });
  const iframe = pages.find((p) => p.text.includes(squash("at the figure size")));
  assert.ok(iframe, "the iframe's introduction prints");
  mkdirSync(shots, { recursive: true });
  await renderPages(pdf, join(shots, "print-docs"));
  assert.deepEqual(problems, []);
  await page.close();
});

test("the playground after a run prints its charts as drawn, no control", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=bug39267&speed=3000&pauseAtMs=2000`);
  const pg = page.locator("hotrow-playground");
  await pg.locator(".play", { hasText: "Play" }).waitFor({ timeout: 30_000 }); // paused at 2 s
  const { panels } = await panelsInPrint(page);
  const pdf = await page.pdf({ format: "A4" });
  const pages = await readPdf(pdf);
  // Throughput, hot row and latency charts, the heatmap and the cluster.
  assertPrinted(pages, panels, { minCharts: 5 });
  const tpm = await pg.locator('[data-metric="tpm"]').first().textContent();
  assert.ok(pages[0].text.includes(squash(tpm)), `the first page prints the TPM shown, ${tpm}`);
  mkdirSync(shots, { recursive: true });
  await renderPages(pdf, join(shots, "print-playground"));
  assert.deepEqual(problems, []);
  await page.close();
});
