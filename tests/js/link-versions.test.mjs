// Links that outlive versions: a link as an earlier version wrote it opens in this one with
// its renamed names (js/element/link-versions.js), and a later version's is refused.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { parseQuery, toQuery } from "../../js/element/state.js";
import { LINK_VERSION, METRIC_NAMES_0_2, migrate } from "../../js/element/link-versions.js";

test("0.2.0's metric renames are the core's (catalog::RENAMED), while the core still lists them", () => {
  const source = readFileSync(new URL("../../crate/sim/src/catalog.rs", import.meta.url), "utf8");
  const block = source.slice(source.indexOf("pub const RENAMED"), source.indexOf("];", source.indexOf("pub const RENAMED")));
  const pairs = Object.fromEntries([...block.matchAll(/\("([^"]+)", "([^"]+)"\)/g)].map((m) => [m[1], m[2]]));
  assert.ok(Object.keys(pairs).length >= 8);
  assert.deepEqual(METRIC_NAMES_0_2, pairs);
});

test("links written by 0.1 and 0.2 (version 1) open with the same config and view", () => {
  // As the playground of 0.1.0 and 0.2.0 wrote them (toQuery: v, the view, the config).
  const links = [
    "v=1&mode=live&speed=1000&preset=bug39267&cacheSize=1",
    "v=1&mode=compare&speed=1000&compareField=cacheSize&compareA=1&compareB=1000&preset=bug39267",
    "v=1&mode=sweep&speed=4000&preset=modern&dataNodes=16&network.latencyUs=20",
    "v=1&mode=live&speed=2000&pauseAtMs=1200&preset=ndbapi-hidden-pk&seed=3&cacheSize=7",
  ];
  for (const link of links) {
    const s = parseQuery(link);
    assert.deepEqual(s.errors, [], link);
    const now = parseQuery(toQuery(s.config, s.view));
    assert.deepEqual({ config: now.config, view: { ...now.view, v: 1 } }, { config: s.config, view: { ...s.view, v: 1 } }, link);
  }
  assert.match(toQuery({ preset: "modern" }, {}), new RegExp(`^v=${LINK_VERSION}&`));
});

test("a version-1 link's measured points name 0.2's metrics by their new names", () => {
  const csv = "# measured on our cluster\nclientsPerApiNode, hotRowLockHoldUsMean ,tpm\n4,120,50000\n";
  const s = parseQuery(new URLSearchParams({ v: "1", mode: "fit", fitPoints: csv, fitFields: "cpu.scale" }).toString());
  assert.deepEqual(s.errors, []);
  assert.equal(s.view.fitPoints.split("\n")[1], "clientsPerApiNode,hotRowLockHoldMeanUs,tpm");
  assert.equal(s.view.v, LINK_VERSION);
  // This version's links are read as they are, and so are links without a version.
  for (const v of [String(LINK_VERSION), undefined]) {
    const entries = [["fitPoints", csv], ...(v ? [["v", v]] : [])];
    assert.deepEqual(migrate(entries).entries, entries);
  }
});

test("a link of a later or unknown version says so and runs what it can", () => {
  for (const v of [String(LINK_VERSION + 1), "0", "x"]) {
    const s = parseQuery(`v=${v}&preset=modern`);
    assert.equal(s.errors.length, 1, v);
    assert.match(s.errors[0], /link version .* is not known \(this page reads versions 1 to \d+\)/);
    assert.equal(s.config.preset, "modern");
    assert.equal(s.view.v, undefined);
  }
});
