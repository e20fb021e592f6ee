// hotrow's element in real docs tools, in Chromium: the VitePress site of examples/vitepress
// (built here with VitePress, the element registered on the client only) and the plain
// Markdown page of examples/markdown (rendered by markdown-it, HTML passed through, the
// package's files copied beside it). Each shows its static figure with JavaScript off, and
// the figure first, then the live element, with it on. Screenshots go to test-results/.
import { test } from "node:test";
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { cpSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import MarkdownIt from "markdown-it";
import { useSite, openPage, waitValue, root } from "./page.mjs";
import { serve } from "./server.mjs";

const shots = `${root}test-results`;
const env = useSite();

/** Builds the VitePress example into target/vitepress. */
function buildVitePress() {
  execFileSync(join(root, "node_modules/.bin/vitepress"), ["build", "examples/vitepress"], { cwd: root, stdio: "pipe" });
  return join(root, "target/vitepress");
}

/** Renders the Markdown example into target/markdown/index.html, the package's files beside it in hotrow/. */
function renderMarkdown() {
  const dir = join(root, "target/markdown");
  rmSync(dir, { recursive: true, force: true });
  for (const files of ["js", "dist/web", "dist/vendor", "dist/fit", "dist/sql", "dist/report"]) {
    cpSync(join(root, files), join(dir, "hotrow", files), { recursive: true });
  }
  const body = new MarkdownIt({ html: true }).render(readFileSync(join(root, "examples/markdown/hotrow.md"), "utf8"));
  writeFileSync(join(dir, "index.html"), `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
<title>hotrow in a Markdown page</title></head><body>${body}</body></html>`);
  return dir;
}

/** With JavaScript off the element's children show; with it on, the figure first (the wasm
 * held back a second), then the live element, the children no longer drawn. */
async function staticThenLive(t, dir, name) {
  const server = await serve(dir);
  t.after(() => server.close());
  mkdirSync(shots, { recursive: true });

  const off = await env.browser.newContext({ javaScriptEnabled: false, viewport: { width: 1000, height: 800 } });
  const still = await off.newPage();
  await still.goto(`${server.origin}/index.html`);
  const figure = still.locator("hotrow-playground > svg");
  const box = await figure.boundingBox();
  assert.ok(box && box.height > 150 && box.width > 400, `${name}: the static figure is drawn: ${JSON.stringify(box)}`);
  await still.screenshot({ path: join(shots, `${name}-no-javascript.png`), fullPage: true });
  await off.close();

  let release;
  const held = new Promise((ok) => (release = ok));
  const holdWasm = (p) => p.route(/\.wasm$/, async (route) => {
    await held;
    await route.continue();
  });
  const { page, problems } = await openPage(env.browser, `${server.origin}/index.html`, { width: 1000, height: 800, setup: holdWasm });
  const pg = page.locator("hotrow-playground");
  await pg.locator(".fallback").waitFor({ state: "visible", timeout: 20_000 });
  assert.ok(await pg.locator(":scope > svg").isVisible(), `${name}: the figure shows while the module loads`);
  release();
  await waitValue(pg, "tpm", (v) => v > 50_000, 30_000);
  await pg.locator(".fallback").waitFor({ state: "hidden" });
  assert.ok(await pg.locator(".chart-throughput canvas").first().isVisible(), `${name}: the live throughput chart shows`);
  await page.screenshot({ path: join(shots, `${name}-live.png`), fullPage: true });
  assert.deepEqual(problems, [], `${name}: no error, no request outside the site`);
  await page.close();
}

test("a VitePress site built with the element shows its static figure, then the live element", async (t) => {
  const dir = buildVitePress();
  const html = readFileSync(join(dir, "index.html"), "utf8");
  assert.match(html, /<hotrow-playground [^>]*figure[^>]*><svg /, "the element and its figure are in the built HTML");
  await staticThenLive(t, dir, "vitepress");
});

test("a plain Markdown page shows the element's static figure, then the live element", async (t) => {
  await staticThenLive(t, renderMarkdown(), "markdown");
});
