// The playground under each engine: the controls, compare's and sweep's fields are the
// engine's own, read through the page as a user meets them (no internals).
import { test } from "node:test";
import assert from "node:assert/strict";
import { useSite, openPage, waitValue } from "./page.mjs";

const env = useSite();

/** Waits until `read()` gives `want` (10 s at most), and returns what it gave last. */
async function settles(read, want) {
  for (const deadline = Date.now() + 10_000; ; await new Promise((r) => setTimeout(r, 100))) {
    const got = await read();
    if (got === want || Date.now() > deadline) return got;
  }
}

/** The values of `select`'s options a user can pick. */
const offered = (pg, select) => pg.locator(`${select} option`).evaluateAll((os) => os.filter((o) => !o.hidden && !o.disabled).map((o) => o.value));

test("one server offers no data nodes: controls, compare and sweep; switching the engine leaves a field it lacks", async () => {
  const { page, problems } = await openPage(env.browser, `${env.site.origin}/index.html?mode=compare&compareField=dataNodes&compareA=4&compareB=8`);
  const pg = page.locator("hotrow-playground");
  await waitValue(pg, "tpm", (v) => v > 0);
  assert.ok((await offered(pg, "#compareField")).includes("dataNodes"));
  assert.ok((await offered(pg, "#compareField")).includes("hintedRefill"));
  await pg.locator("#engine").selectOption("postgres");
  await pg.locator("#server\\.cores").waitFor({ state: "visible" });
  assert.equal(await settles(() => pg.locator("#compareField").inputValue(), "cacheSize"), "cacheSize", "a compared field the engine lacks goes back to the default");
  const compare = await offered(pg, "#compareField");
  for (const lacking of ["dataNodes", "hintedRefill", "partitioning", "keyLayout"]) assert.ok(!compare.includes(lacking), `${lacking} in ${compare}`);
  for (const kept of ["cacheSize", "clientsPerApiNode", "allocator", "workload"]) assert.ok(compare.includes(kept), `${kept} not in ${compare}`);
  const sweep = await offered(pg, "#sweepField");
  assert.ok(!sweep.includes("dataNodes") && !sweep.includes("keyLayout") && sweep.includes("cacheSize"), sweep.join());
  assert.equal(await pg.locator("#dataNodes").isVisible(), false);
  assert.equal(await pg.locator("#server\\.cores").isVisible(), true);
  // The id strategy's words hold under every engine (no "cluster" on one server).
  assert.doesNotMatch(await pg.locator("#allocator option[value=counterRow]").textContent(), /in the cluster/);
  // Raft has data nodes again, and ranges, but not NDB's hint.
  await pg.locator("#engine").selectOption("raft");
  await pg.locator("#server\\.pushDelayUs").waitFor({ state: "visible" });
  const raft = await offered(pg, "#compareField");
  assert.ok(raft.includes("dataNodes") && raft.includes("partitioning") && !raft.includes("hintedRefill"), raft.join());
  assert.deepEqual(problems, []);
  await page.close();
});
