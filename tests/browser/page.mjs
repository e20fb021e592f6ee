// Helpers of the browser tests: the built site and Chromium for a test file, a page that
// records every problem, and waiting on figures.
import { before, after } from "node:test";
import { fileURLToPath } from "node:url";
import { serve } from "./server.mjs";
import { launch } from "./browser.mjs";

export const root = fileURLToPath(new URL("../..", import.meta.url));

/**
 * For the test file that calls it: serves the built site (www/dist) and every folder of
 * `more` on 127.0.0.1 and launches Chromium before its tests, closes them after. Returns
 * the object those hooks fill: `{ site, browser, ...more }` (servers have `origin`).
 */
export function useSite(more = {}) {
  const env = {};
  before(async () => {
    env.site = await serve(`${root}www/dist`);
    for (const [name, dir] of Object.entries(more)) env[name] = await serve(dir);
    env.browser = await launch();
  });
  after(async () => {
    await env.browser?.close();
    for (const name of ["site", ...Object.keys(more)]) await env[name]?.close();
  });
  return env;
}

/**
 * The browser tests' one way to the controller behind an element, run in a page before its
 * scripts: a registry the element hands its controller to (js/element/hotrow-playground.js),
 * read as `element[Symbol.for("hotrow.playground.internals")]`. Installed here, on
 * HTMLElement, so that the element itself has no such member (its surface test counts
 * symbols too); the package and the site carry nothing of it.
 */
export function testHooks() {
  const controllers = new WeakMap();
  globalThis[Symbol.for("hotrow.testing.controllers")] = controllers;
  Object.defineProperty(HTMLElement.prototype, Symbol.for("hotrow.playground.internals"), {
    get() {
      return controllers.get(this);
    },
    configurable: true,
  });
}

/** A page that records console errors, page errors and requests to other origins; `setup(page)` runs before it opens `url`. */
export async function openPage(browser, url, { width = 1280, height = 1000, setup } = {}) {
  const page = await browser.newPage({ viewport: { width, height } });
  const problems = [];
  page.on("console", (m) => m.type() === "error" && problems.push(`console: ${m.text()}`));
  page.on("pageerror", (e) => problems.push(`pageerror: ${e.message}`));
  const origin = new URL(url).origin;
  page.on("request", (r) => {
    const u = r.url();
    if (!u.startsWith(origin) && !u.startsWith("data:") && !u.startsWith("blob:")) problems.push(`request outside origin: ${u}`);
  });
  // Any CSP violation is a problem (Chromium also logs "Refused to ..." as a console error).
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (e) =>
      console.error(`CSP violation: ${e.violatedDirective} blocked ${e.blockedURI || "inline"} at ${e.sourceFile}:${e.lineNumber}`));
  });
  await page.addInitScript(testHooks);
  await setup?.(page);
  await page.goto(url);
  return { page, problems };
}

export const metric = (scope, name) => scope.locator(`[data-metric="${name}"]`).first();
/** Waits until a metric's raw value passes `ok`, and returns it. */
export async function waitValue(scope, name, ok = (v) => v > 0, timeout = 20_000) {
  const loc = metric(scope, name);
  const deadline = Date.now() + timeout;
  for (;;) {
    const v = Number(await loc.getAttribute("data-value"));
    if (ok(v)) return v;
    if (Date.now() > deadline) throw new Error(`${name} never passed the check (last ${v})`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** Waits until `check(element, arg)` holds in the page, for at most 10 s. */
export async function until(pg, check, arg, what) {
  const deadline = Date.now() + 10_000;
  while (!(await pg.evaluate(check, arg))) {
    if (Date.now() > deadline) throw new Error(`timed out: ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
