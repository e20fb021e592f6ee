// The browser tests' file server serves its folder and nothing outside it, not even a
// sibling folder whose name starts with the served one's.
import { test } from "node:test";
import assert from "node:assert/strict";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serve } from "./server.mjs";

test("the test server serves its folder and refuses paths outside it", async () => {
  const base = mkdtempSync(join(tmpdir(), "hotrow-serve-"));
  mkdirSync(join(base, "site"));
  mkdirSync(join(base, "site2"));
  writeFileSync(join(base, "site", "index.html"), "<p>in</p>");
  writeFileSync(join(base, "site2", "secret.txt"), "out");
  writeFileSync(join(base, "secret.txt"), "out");
  const site = await serve(join(base, "site"));
  try {
    const get = async (path) => {
      const r = await fetch(site.origin + path);
      return [r.status, await r.text()];
    };
    assert.deepEqual(await get("/"), [200, "<p>in</p>"]);
    for (const path of ["/..%2Fsite2/secret.txt", "/..%2Fsecret.txt", "/%2E%2E/secret.txt", "/../site2/secret.txt"]) {
      assert.deepEqual(await get(path), [404, "not found"], path);
    }
  } finally {
    await site.close();
    rmSync(base, { recursive: true, force: true });
  }
});
