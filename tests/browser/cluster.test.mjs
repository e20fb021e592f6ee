// The cluster drawn: at slow speed every signal crossing the network is a dot; faster, or
// with prefers-reduced-motion, the same traffic as flows; the counter row's lock queue is
// shown; the allocator service is a host of its own; the frame rate with the view on is
// printed (a measurement, not asserted: these machines are shared).
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
  const inFlight = await pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => el.latest.sims[0].cluster.inFlight);
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

test("the central allocator is drawn as its own host, with its requests in flight; the frame rate is printed", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=central-allocator&clientsPerApiNode=8&speed=5`);
  const pg = page.locator("hotrow-playground");
  const d = await panelState(pg, (d) => Number(d.messagesInFlight) > 0);
  assert.match(d.label, /allocator service runs on a host of its own/);
  assert.doesNotMatch(d.label, /counter row/, "no counter row is in use");
  // The service's box is painted where the layout puts its host, and messages cross to it.
  const probe = async () => pg.evaluate(({ [Symbol.for("hotrow.playground.internals")]: el }) => {
    const c = el.shadowRoot.querySelector("canvas.cluster");
    const v = el.latest.sims[0].cluster;
    const p = el.cluster.layout(c.clientWidth || 600).pos.get(v.serviceHost);
    const dpr = devicePixelRatio || 1;
    const box = c.getContext("2d").getImageData(Math.round((p.x - 15) * dpr), Math.round((p.y - 8) * dpr), Math.round(30 * dpr), Math.round(16 * dpr));
    let ink = 0;
    for (let i = 3; i < box.data.length; i += 4) if (box.data[i] > 0) ink++;
    const { from, to } = v.messages;
    const toService = from.filter((f, i) => f === v.serviceHost || to[i] === v.serviceHost).length;
    return { ink, pixels: box.data.length / 4, toService, serviceHost: v.serviceHost, dataNodes: v.dataNodes, apiNodes: v.apiNodes };
  });
  let seen = await probe();
  for (let i = 0; i < 50 && seen.toService === 0; i++) {
    await page.waitForTimeout(100);
    seen = await probe();
  }
  assert.equal(seen.serviceHost, seen.dataNodes + seen.apiNodes, "the service is a host beyond the data and API nodes");
  assert.ok(seen.ink > seen.pixels / 4, `the service's box is drawn: ${JSON.stringify(seen)}`);
  assert.ok(seen.toService > 0, `requests and replies cross to the service: ${JSON.stringify(seen)}`);
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
