// The playground decides by the core's strategy traits (the allocator field's
// `kind.traits`), never by a strategy's name: a strategy the playground has never heard
// of is listed, described and drawn from its traits alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fields } from "hotrow";
import { traitsOf, labelOf } from "../../js/element/traits.js";
import { usesCounterRow } from "../../js/element/running.js";

const table = fields();

test("the field table gives every allocator its traits, one per value", () => {
  const { values, traits } = table.find((f) => f.name === "allocator").kind;
  assert.equal(traits.length, values.length);
  for (const t of traits) assert.deepEqual(Object.keys(t).sort(), ["cache", "counterRow", "service", "tick"]);
  assert.deepEqual(traitsOf(table, "counterRow"), { counterRow: true, cache: true, service: false, tick: false });
  assert.equal(traitsOf(table, "no-such-strategy").counterRow, false);
});

test("a strategy unknown to the playground is drawn by its traits: no counter row unless its traits say", () => {
  // The table as the core would give it with one more strategy: random ids, no cache. (The
  // run's description in words is the core's, facts.described: crate/sim/src/facts/described.rs.)
  const more = structuredClone(table);
  const kind = more.find((f) => f.name === "allocator").kind;
  kind.values.push("uuid");
  kind.labels.push("random 64-bit ids (UUIDv4-like)");
  kind.traits.push({ counterRow: false, cache: false, service: false, tick: false });
  const c = { allocator: "uuid", primaryKey: false, cacheSize: 1, cacheGrowth: 1, idCacheScope: "apiNode" };
  assert.equal(labelOf(more, "uuid"), "random 64-bit ids (UUIDv4-like)");
  assert.equal(usesCounterRow(c, more), false);
  assert.equal(usesCounterRow({ ...c, allocator: "counterRow" }, table), true);
  assert.equal(usesCounterRow({ ...c, allocator: "counterRow", primaryKey: true }, table), false);
});
