// The npm package as its users get it, in Chromium: its files in a plain module page, the
// packed tarball installed, and the installed package bundled with Vite.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdirSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { execFileSync } from "node:child_process";
import { useSite, root, openPage, waitValue } from "./page.mjs";
import { packAndInstall } from "../pack/pack.mjs";
import { serve } from "./server.mjs";

const shots = `${root}test-results`;
mkdirSync(shots, { recursive: true });
const env = useSite({ repo: root });
const open = (url, size) => openPage(env.browser, url, size);

test("the npm package's files work in a plain module page without a bundler", async () => {
  const { page, problems } = await open(`${env.repo.origin}/tests/browser/plain.html`);
  await page.locator("#out[data-done]").waitFor({ timeout: 20_000 });
  const out = JSON.parse(await page.locator("#out").textContent());
  assert.ok(out.insertsPerSecond > 0);
  assert.match(out.digest, /^[0-9a-f]{16}$/);
  await waitValue(page.locator("hotrow-playground"), "insertsPerSecond", (v) => v > 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test("the custom element works from an npm install of the packed tarball", async (t) => {
  const { app, cleanup } = packAndInstall();
  t.after(cleanup);
  writeFileSync(`${app}/index.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <title>consumer</title></head><body>
    <hotrow-playground preset="bug39267" cache-size="1000" seed="2" compact theme="dark"></hotrow-playground>
    <script type="module" src="./node_modules/hotrow/js/element/hotrow-playground.js"></script></body></html>`);
  const server = await serve(app);
  t.after(() => server.close());
  const { page, problems } = await open(`${server.origin}/index.html`);
  const tpm = await waitValue(page.locator("hotrow-playground"), "tpm", (v) => v > 100_000, 30_000);
  assert.ok(tpm > 100_000, `cache 1000 TPM ${tpm}`);
  await page.screenshot({ path: `${shots}/npm-install-embed.png` });
  assert.deepEqual(problems, []);
  await page.close();
});

test("the installed package bundles with Vite: import from \"hotrow\" and \"hotrow/playground\"", async (t) => {
  const { app, cleanup } = packAndInstall();
  t.after(cleanup);
  mkdirSync(`${app}/src`);
  writeFileSync(`${app}/index.html`, `<!doctype html><html lang="en"><head><meta charset="utf-8"><link rel="icon" href="data:,">
    <title>bundled</title></head><body><pre id="out"></pre>
    <hotrow-playground preset="ndbapi-hidden-pk" compact></hotrow-playground>
    <script type="module" src="./src/main.js"></script></body></html>`);
  writeFileSync(`${app}/src/main.js`, `
    import { init, Simulation } from "hotrow";
    import "hotrow/playground";
    await init();
    const sim = new Simulation({ preset: "ndbapi-pk", durationMs: 100, warmupMs: 10 });
    while (!sim.runToEnd().reached);
    const out = document.querySelector("#out");
    out.textContent = String(sim.summary().insertsPerSecond);
    out.dataset.done = "1";`);
  const vite = fileURLToPath(new URL("../../node_modules/vite/bin/vite.js", import.meta.url));
  execFileSync("node", [vite, "build", "--logLevel", "warn", "--base", "./"], { cwd: app, stdio: "inherit" });
  const server = await serve(`${app}/dist`);
  t.after(() => server.close());
  const { page, problems } = await open(`${server.origin}/index.html`);
  await page.locator("#out[data-done]").waitFor({ timeout: 20_000 });
  assert.ok(Number(await page.locator("#out").textContent()) > 0);
  await waitValue(page.locator("hotrow-playground"), "insertsPerSecond", (v) => v > 0, 30_000);
  assert.deepEqual(problems, []);
  await page.close();
});
