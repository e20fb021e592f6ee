// A workload spec in a link (js/element/spec-link.js): every shipped spec goes into a link
// and comes back the same; anything else a link can hold is refused with a reason, within
// the bounds (no inflating past 64 KiB, no reading past 16,000 characters).
import { test } from "node:test";
import assert from "node:assert/strict";
import fc from "fast-check";
import { Simulation, workloads } from "hotrow";
import { encodeSpec, decodeSpec, MAX_LINK_CHARS, MAX_SPEC_BYTES } from "../../js/element/spec-link.js";
import { parseQuery, toQuery } from "../../js/element/state.js";

const deflate = async (bytes) =>
  new Uint8Array(await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("deflate-raw"))).arrayBuffer());
const base64url = (bytes) => Buffer.from(bytes).toString("base64url");

test("every shipped spec goes into a link and comes back equal, and runs with the same digest", async () => {
  for (const { name, spec } of workloads().filter((w) => w.spec)) {
    const { text, error } = await encodeSpec(spec);
    assert.equal(error, undefined, name);
    assert.ok(text.length < 1000, `${name}: ${text.length} characters`);
    const query = toQuery({ preset: "modern", workload: spec }, { mode: "live" }, text);
    const state = parseQuery(query);
    assert.deepEqual(state.errors, [], name);
    const back = await decodeSpec(state.spec);
    assert.deepEqual(back, spec, name);
    const run = (workload) => {
      const sim = new Simulation({ preset: "modern", workload, durationMs: 20, warmupMs: 10 });
      sim.runToEnd();
      return sim.summary().digest;
    };
    assert.equal(run(back), run(name), `${name} from the link runs as the shipped one`);
  }
});

test("a name stays a name; only a spec object is written as spec", () => {
  assert.doesNotMatch(toQuery({ workload: "tpcb" }, {}, "abc"), /spec=/);
  assert.match(toQuery({ workload: { name: "x" } }, {}, "abc"), /spec=abc/);
  assert.doesNotMatch(toQuery({ workload: { name: "x" } }, {}, undefined), /spec=/, "no text yet, or too big: left out");
});

test("what a link cannot hold, and what it must not hold, is refused with a reason", async () => {
  const refused = async (text, reason) => {
    await assert.rejects(decodeSpec(text), (e) => e instanceof Error && reason.test(e.message), String(text).slice(0, 40));
  };
  await refused("not base64!", /neither JSON nor base64url/);
  await refused("AAAA", /not a compressed spec/);
  await refused("x".repeat(MAX_LINK_CHARS + 1), /at most 16000/);
  await refused(base64url(await deflate(new TextEncoder().encode("\"a string\""))), /not hold a JSON object/);
  await refused(base64url(await deflate(new TextEncoder().encode("[1, 2]"))), /not hold a JSON object/);
  await refused(base64url(await deflate(new Uint8Array([0xff, 0xfe, 0x7b]))), /not hold JSON/);
  // A bomb: 1 MiB of JSON compresses to about 1 KiB; it is cut off at 64 KiB.
  const bomb = base64url(await deflate(new TextEncoder().encode("[" + "0,".repeat(512 * 1024) + "0]")));
  assert.ok(bomb.length < 4000, `${bomb.length}`);
  await refused(bomb, /expands to more than 64 KiB/);
  await refused("{ not json", /not hold JSON/);
  await refused("{" + " ".repeat(MAX_SPEC_BYTES) + "}", /at most 64 KiB/);
  // Too big to write: a link holds at most 64 KiB of JSON.
  assert.match((await encodeSpec({ name: "x", about: "y".repeat(MAX_SPEC_BYTES) })).error, /at most 64 KiB/);
  // JSON as it is (an attribute written by hand).
  assert.deepEqual(await decodeSpec('{ "name": "x" }'), { name: "x" });
  // The query parser bounds the parameter before anything reads it.
  const long = parseQuery(`spec=${"A".repeat(70_000)}`);
  assert.equal(long.spec, undefined);
  assert.match(long.errors[0], /at most 65536/);
});

test("any text as a link's spec: an object or an Error, never anything else", async () => {
  const text = fc.oneof(fc.string({ maxLength: 200 }), fc.base64String({ maxLength: 400 }).map((s) => s.replace(/=+$/, "")),
    fc.uint8Array({ maxLength: 300 }).map(base64url));
  await fc.assert(
    fc.asyncProperty(text, async (t) => {
      try {
        const spec = await decodeSpec(t);
        assert.ok(spec && typeof spec === "object" && !Array.isArray(spec));
      } catch (e) {
        assert.ok(e instanceof Error && e.message.length > 0, String(e));
      }
    }),
    { numRuns: 300 },
  );
});
