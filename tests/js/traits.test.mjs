// The playground decides by the core's strategy traits (the allocator field's
// `kind.traits`), never by a strategy's name: a strategy the playground has never heard
// of is listed, described and drawn from its traits alone.
import { test } from "node:test";
import assert from "node:assert/strict";
import { fields } from "hotrow";
import { traitsOf, labelOf } from "../../js/element/traits.js";
import { idsOf, usesCounterRow } from "../../js/element/running.js";

const table = fields();

test("the field table gives every allocator its traits, one per value", () => {
  const { values, traits } = table.find((f) => f.name === "allocator").kind;
  assert.equal(traits.length, values.length);
  for (const t of traits) assert.deepEqual(Object.keys(t).sort(), ["cache", "counterRow", "service", "tick"]);
  assert.deepEqual(traitsOf(table, "counterRow"), { counterRow: true, cache: true, service: false, tick: false });
  assert.equal(traitsOf(table, "no-such-strategy").counterRow, false);
});

test("a strategy unknown to the playground is described by its traits and label", () => {
  // The table as the core would give it with one more strategy: random ids, no cache.
  const more = structuredClone(table);
  const kind = more.find((f) => f.name === "allocator").kind;
  kind.values.push("uuid");
  kind.labels.push("random 64-bit ids (UUIDv4-like)");
  kind.traits.push({ counterRow: false, cache: false, service: false, tick: false });
  const c = { allocator: "uuid", primaryKey: false, cacheSize: 1, cacheGrowth: 1, idCacheScope: "apiNode" };
  assert.equal(labelOf(more, "uuid"), "random 64-bit ids (UUIDv4-like)");
  assert.match(idsOf(c, more), /random 64-bit ids/);
  assert.doesNotMatch(idsOf(c, more), /SYSTAB_0/);
  assert.equal(usesCounterRow(c, more), false);
  // Without a cache it takes no ranges, whatever cacheSize says.
  assert.equal(idsOf({ ...c, cacheSize: 1000 }, more), "ids come from random 64-bit ids (UUIDv4-like)");
  // The strategies the core has keep their words.
  assert.match(idsOf({ ...c, allocator: "counterRow", hintedRefill: false }, table), /SYSTAB_0 counter row, unhinted/);
  assert.match(idsOf({ ...c, allocator: "centralService" }, table), /one allocator service/);
  assert.match(idsOf({ ...c, allocator: "timestamp" }, table), /clock/);
  assert.equal(usesCounterRow({ ...c, allocator: "counterRow" }, table), true);
  assert.equal(usesCounterRow({ ...c, allocator: "counterRow", primaryKey: true }, table), false);
});

test("a growing cache is described as growing, even from one id", () => {
  const c = { allocator: "counterRow", primaryKey: false, cacheSize: 1, cacheGrowth: 10, cacheSizeMax: 10000, idCacheScope: "apiNode", hintedRefill: true };
  assert.match(idsOf(c, table), /ranges that start at 1 id and grow 10x per range up to 10.0k ids/);
  assert.match(idsOf({ ...c, cacheGrowth: 1 }, table), /one id at a time/);
  assert.match(idsOf({ ...c, cacheGrowth: 1, cacheSize: 512 }, table), /ranges of 512 ids /);
});
