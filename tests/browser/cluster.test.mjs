// The cluster drawn: at slow speed every signal crossing the network is a dot; faster, or
// with prefers-reduced-motion, the same traffic as flows; the counter row's lock queue is
// shown; the frame rate with the view on is reported.
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage } from "./page.mjs";

const env = useSite();

/** Waits until the cluster panel's data attributes pass `ok`, and returns them. */
async function panelState(pg, ok) {
  const panel = pg.locator('[data-view="cluster"]');
  const deadline = Date.now() + 20_000;
  for (;;) {
    const d = await panel.evaluate((p) => ({ ...p.dataset, label: p.querySelector("canvas").getAttribute("aria-label") }));
    if (ok(d)) return d;
    if (Date.now() > deadline) throw new Error(`cluster view never passed the check: ${JSON.stringify(d)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

test("at 1/200 of real time every signal between hosts is drawn, with the counter row's lock queue", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=bug39267&speed=5`);
  const pg = page.locator("hotrow-playground");
  const d = await panelState(pg, (d) => Number(d.messagesInFlight) > 0);
  assert.equal(d.drawing, "signals");
  // Every message in the sample is drawn (the sample holds all of them below 2000).
  const inFlight = await pg.evaluate((el) => el.latest.sims[0].cluster.inFlight);
  assert.ok(inFlight > 0 && inFlight < 2000);
  await panelState(pg, (d) => /its lock is held with \d+ refills waiting/.test(d.label));
  // Dots move: two frames apart, the canvas differs.
  const canvas = pg.locator("canvas.cluster");
  const a = await canvas.evaluate((c) => c.toDataURL());
  await page.waitForTimeout(300);
  assert.notEqual(await canvas.evaluate((c) => c.toDataURL()), a);
  assert.deepEqual(problems, []);
  await page.close();
});

test("faster than 1/100 of real time, or with reduced motion, traffic is drawn as flows", async () => {
  for (const [query, motion] of [["speed=1000", "no-preference"], ["speed=5", "reduce"]]) {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 }, reducedMotion: motion });
    const page = await context.newPage();
    await page.goto(`${env.site.origin}/index.html?preset=bug39267&${query}`);
    const d = await panelState(page.locator("hotrow-playground"), (d) => Number(d.messagesInFlight) > 0);
    assert.equal(d.drawing, "flows", `${query} ${motion}`);
    await context.close();
  }
});

test("the central allocator is drawn as its own host; frame rate with the view on is reported", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=central-allocator&clientsPerApiNode=8&speed=5`);
  const pg = page.locator("hotrow-playground");
  const d = await panelState(pg, (d) => Number(d.messagesInFlight) > 0);
  assert.match(d.label, /allocator service runs on a host of its own/);
  assert.doesNotMatch(d.label, /counter row/, "no counter row is in use");
  const fps = await page.evaluate(() => new Promise((ok) => {
    let frames = 0;
    const t0 = performance.now();
    const count = () => (performance.now() - t0 < 2000 ? (frames++, requestAnimationFrame(count)) : ok((frames * 1000) / (performance.now() - t0)));
    requestAnimationFrame(count);
  }));
  console.log(`frames per second with the cluster view drawing signals: ${fps.toFixed(0)}`);
  assert.deepEqual(problems, []);
  await page.close();
});
