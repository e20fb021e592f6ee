// `npm run screenshots`: the docs' pictures of the playground, taken from the built site
// in Chromium: the whole playground, the cluster view at slow speed, a tour chapter, and
// the timeline after a seek back, the "Why this number" panel, Fit mode after a fit. Writes docs/*.png.
import { fileURLToPath } from "node:url";
import { serve } from "../tests/browser/server.mjs";
import { launch } from "../tests/browser/browser.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
const site = await serve(`${root}www/dist`);
const browser = await launch();
const page = await browser.newPage({ viewport: { width: 1280, height: 1000 } });
const pg = page.locator("hotrow-playground");
const reach = (ms) => pg.evaluate((el, ms) => new Promise((ok) => { const c = () => (el.figures?.nowMs >= ms ? ok() : setTimeout(c, 50)); c(); }), ms);

await page.goto(`${site.origin}/index.html?preset=bug39267&seed=1`);
await reach(3000);
await page.screenshot({ path: `${root}docs/playground.png`, fullPage: true });

await page.goto(`${site.origin}/index.html?preset=bug39267&seed=1&speed=4000`);
await reach(8000);
await pg.locator(".why-panel").screenshot({ path: `${root}docs/why.png` });

await page.goto(`${site.origin}/index.html?preset=bug39267&seed=1&speed=5`);
await page.waitForTimeout(2500);
await pg.locator(".cluster-panel").screenshot({ path: `${root}docs/cluster.png` });

await page.goto(`${site.origin}/index.html?preset=bug39267&seed=1&speed=2000`);
await reach(4000);
await pg.evaluate((el) => el.seek(1500));
const chart = await pg.locator(".chart-throughput").boundingBox();
const row = await pg.locator(".timeline-row").boundingBox();
const top = chart.y - 40;
await page.screenshot({ path: `${root}docs/timeline.png`, fullPage: true, clip: { x: 0, y: top, width: 1280, height: row.y + row.height + 8 - top } });

await page.goto(`${site.origin}/index.html?tour=3`);
await page.waitForFunction(() => {
  const d = document.querySelector(".driver-popover-description");
  return d && !d.textContent.startsWith("Measuring");
}, null, { timeout: 60_000 });
await page.waitForTimeout(500);
await page.screenshot({ path: `${root}docs/tour.png` });

// Fit mode with the bug report's two points, fitted (its own module, on the workers).
await page.goto(`${site.origin}/index.html?mode=fit`);
await pg.locator(".fit-run:not([disabled])").waitFor();
const fitted = pg.evaluate((el) => new Promise((ok) => el.addEventListener("hotrow-fitdone", ok, { once: true })));
await pg.locator(".fit-run").click();
await fitted;
await page.waitForTimeout(300);
await pg.locator(".fit-panel").screenshot({ path: `${root}docs/fit.png` });

await browser.close();
await site.close();
console.log("wrote docs/playground.png, docs/why.png, docs/cluster.png, docs/timeline.png, docs/tour.png, docs/fit.png");
