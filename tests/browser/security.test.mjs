// Locked down and accessible: every built page carries the one strict CSP (www/csp.js) and
// runs under it without a violation; what the policy forbids is really refused; axe-core
// finds no serious or critical violation on any page, in either theme.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { AxeBuilder } from "@axe-core/playwright";
import { useSite, root, openPage, waitValue } from "./page.mjs";
import { CSP } from "../../www/csp.js";

const env = useSite();

test("every built page carries the strict CSP as its first meta tag", () => {
  const pages = readdirSync(`${root}www/dist`).filter((f) => f.endsWith(".html"));
  assert.deepEqual(pages.sort(), ["docs.html", "embed.html", "index.html"]);
  for (const name of pages) {
    const html = readFileSync(`${root}www/dist/${name}`, "utf8");
    const metas = [...html.matchAll(/<meta http-equiv="Content-Security-Policy" content="([^"]*)">/g)];
    assert.equal(metas.length, 1, name);
    assert.equal(metas[0][1].replaceAll("&#39;", "'"), CSP, name);
    assert.ok(html.indexOf("Content-Security-Policy") < html.indexOf("<script"), `${name}: the policy comes before any script`);
    assert.doesNotMatch(html, /<script(?![^>]*\bsrc=)[^>]*>/, `${name}: an inline script`);
    assert.doesNotMatch(html, /<style|\sstyle="/, `${name}: inline style`);
  }
  for (const needed of ["script-src 'self' 'wasm-unsafe-eval'", "worker-src 'self'", "connect-src 'self'", "default-src 'none'"]) {
    assert.ok(CSP.includes(needed), needed);
  }
  assert.doesNotMatch(CSP, /'unsafe-inline'|'unsafe-eval'|\*|https?:/);
});

test("the playground runs under the policy, and what it forbids is refused", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?preset=bug39267&speed=2000`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "tpm");
  assert.deepEqual(problems, [], "no violation while the wasm, the worker and the styles load and run");
  const refused = await page.evaluate(async () => {
    const seen = [];
    document.addEventListener("securitypolicyviolation", (e) => seen.push(e.violatedDirective));
    const s = document.createElement("script");
    s.textContent = "window.inlineRan = true";
    document.head.append(s);
    const st = document.createElement("style");
    st.textContent = "body { outline: 7px solid red }";
    document.head.append(st);
    let fetched = true;
    try {
      await fetch("http://192.0.2.1/hotrow-should-not-go-here");
    } catch {
      fetched = false;
    }
    await new Promise((r) => setTimeout(r, 100));
    return { inlineRan: window.inlineRan === true, styled: getComputedStyle(document.body).outlineWidth === "7px", fetched, seen };
  });
  assert.equal(refused.inlineRan, false);
  assert.equal(refused.styled, false);
  assert.equal(refused.fetched, false);
  assert.deepEqual([...new Set(refused.seen)].sort(), ["connect-src", "script-src-elem", "style-src-elem"]);
  await page.close();
});

/** axe-core's serious and critical violations on a page, as readable lines. */
async function axe(page) {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => `${v.impact} ${v.id}: ${v.help} — ${v.nodes.slice(0, 3).map((n) => n.target.join(" ")).join(" | ")}`);
}

for (const [name, path, scheme] of [
  // Every page, and both themes: the main page in light and (in compare mode) dark, both
  // with the keyboard shortcuts listed, the docs page in dark, a tour step in both.
  ["the main page (light)", "/index.html?preset=bug39267", "light"],
  ["the main page in compare mode (dark)", "/index.html?mode=compare", "dark"],
  ["the embed page", "/embed.html?preset=bug39267", "light"],
  ["the strategies mode", "/index.html?preset=ndbapi-hidden-pk&mode=strategies", "light"],
  ["the docs page (dark)", "/docs.html", "dark"],
  ["a tour step", "/index.html?tour=3", "light"],
  ["a tour step (dark)", "/index.html?tour=7", "dark"],
]) {
  test(`axe: no serious or critical violation on ${name}`, async () => {
    const context = await env.browser.newContext({ viewport: { width: 1280, height: 1000 }, colorScheme: scheme });
    const page = await context.newPage();
    await page.goto(`${env.site.origin}${path}`);
    // The strategies mode runs nothing until asked: wait for its panel instead.
    if (path.includes("mode=strategies")) await page.locator("hotrow-playground .strategies-run").waitFor();
    else await waitValue(page.locator("hotrow-playground").first(), "insertsPerSecond");
    if (path.includes("tour=")) await page.locator(".driver-popover").waitFor();
    // The main pages are checked with the keyboard shortcuts' list open.
    if (path.startsWith("/index.html?preset") || path.includes("mode=compare")) {
      await page.locator("hotrow-playground .keys-toggle").click();
      await page.locator("hotrow-playground .keys-help").waitFor();
    }
    assert.deepEqual(await axe(page), []);
    await context.close();
  });
}
