// A workload spec in a link: its JSON compressed with raw DEFLATE (the platform's
// CompressionStream, in every browser this element supports and in Node) and written in
// base64url, as the `spec` query parameter (the `spec` attribute also takes plain JSON). Bounded both ways: a link's spec is at most
// MAX_LINK_CHARS characters, and it may expand to at most MAX_SPEC_BYTES of JSON (a
// crafted link cannot make the page inflate more). What the link holds is only read here;
// whether it is a valid spec is the simulation's to say (an error names its JSON path).

/** Most characters of the `spec` parameter (a spec of 30 tables and 10 transactions of 8
 * statements each, 8.5 KB of JSON, takes 907). */
export const MAX_LINK_CHARS = 16_000;
/** Most bytes of JSON a link's spec may expand to. */
export const MAX_SPEC_BYTES = 64 * 1024;

const BASE64URL = /^[A-Za-z0-9_-]+$/;

async function collect(stream, limit) {
  const reader = stream.getReader();
  const parts = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.length;
    if (total > limit) {
      await reader.cancel();
      throw new Error(`it expands to more than ${limit / 1024} KiB`);
    }
    parts.push(value);
  }
  const out = new Uint8Array(total);
  let at = 0;
  for (const p of parts) {
    out.set(p, at);
    at += p.length;
  }
  return out;
}

const toBase64url = (bytes) => {
  let bin = "";
  for (let i = 0; i < bytes.length; i += 0x8000) bin += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(bin).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
};

const fromBase64url = (text) => {
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=".repeat((4 - (text.length % 4)) % 4));
  return Uint8Array.from(bin, (c) => c.charCodeAt(0));
};

/**
 * The `spec` parameter for a spec object, or `{ error }` when it does not fit in a link.
 * @returns {Promise<{ text: string } | { error: string }>}
 */
export const encodeSpec = (spec) => encodeJson(spec, "spec");

/** Any JSON object packed as a link's spec is (the Fit mode's result too); `what` names it
 * in the error. */
export async function encodeJson(object, what) {
  const json = new TextEncoder().encode(JSON.stringify(object));
  if (json.length > MAX_SPEC_BYTES) return { error: `the ${what} is ${Math.ceil(json.length / 1024)} KiB of JSON; a link holds at most ${MAX_SPEC_BYTES / 1024} KiB` };
  const packed = await collect(new Blob([json]).stream().pipeThrough(new CompressionStream("deflate-raw")), Infinity);
  const text = toBase64url(packed);
  if (text.length > MAX_LINK_CHARS) return { error: `the ${what} takes ${text.length} characters compressed; a link holds at most ${MAX_LINK_CHARS}` };
  return { text };
}

/**
 * The spec object a `spec` parameter holds. Throws an Error saying what is wrong (not
 * base64url, too long, not DEFLATE, expands too far, not JSON, not an object).
 */
export const decodeSpec = (text) => decodeJson(text, "spec");

/** The JSON object `encodeJson` packed (or plain JSON text); throws as `decodeSpec` does. */
export async function decodeJson(text, what) {
  if (typeof text === "string" && text.startsWith("{")) {
    // JSON as it is (an attribute written by hand in a docs page).
    if (text.length > MAX_SPEC_BYTES) throw new Error(`it is ${Math.ceil(text.length / 1024)} KiB of JSON; at most ${MAX_SPEC_BYTES / 1024} KiB are read`);
    return asObject(() => JSON.parse(text));
  }
  if (typeof text !== "string" || !BASE64URL.test(text)) throw new Error("it is neither JSON nor base64url text");
  if (text.length > MAX_LINK_CHARS) throw new Error(`it is ${text.length} characters long; at most ${MAX_LINK_CHARS} are read`);
  let bytes;
  try {
    bytes = fromBase64url(text);
  } catch {
    throw new Error("it is not base64url text");
  }
  let json;
  try {
    json = await collect(new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw")), MAX_SPEC_BYTES);
  } catch (e) {
    throw new Error(e.message.startsWith("it expands") ? e.message : `it is not a compressed ${what}`);
  }
  return asObject(() => JSON.parse(new TextDecoder("utf-8", { fatal: true }).decode(json)));
}

function asObject(parse) {
  let spec;
  try {
    spec = parse();
  } catch {
    throw new Error("it does not hold JSON");
  }
  if (spec === null || typeof spec !== "object" || Array.isArray(spec)) throw new Error("it does not hold a JSON object");
  return spec;
}

// ---- the element's side -------------------------------------------------------------

/**
 * Reads a spec from a link or attribute into `el` (async), then starts its run. One that
 * cannot be read is left out with the reason shown; one that is not a valid spec fails to
 * start in the worker, which names its JSON path and runs the defaults.
 */
export function readLinkedSpec(el, text) {
  const decoding = (el.decoding = decodeSpec(text).then(
    (spec) => {
      el.update({ config: { ...el.overrides, workload: spec } });
      if (!text.startsWith("{")) el.specLink = { key: JSON.stringify(spec), text };
    },
    (e) => el.errors.push(`The workload spec in the link was ignored: ${e.message}.`),
  ));
  decoding.finally(() => {
    if (el.decoding !== decoding) return; // loaded again meanwhile
    el.decoding = null;
    if (el.worker && el.ready) el.start();
  });
}

/** The running spec's link text, if compressed already; else starts compressing it (into
 * `el.specLink`, awaited by `el.encoding`) and announces the state again when done. */
export function linkedSpecText(el) {
  const spec = el.overrides?.workload;
  if (!spec || typeof spec !== "object") return undefined;
  // By content: every change of the state copies the config (store.js), spec and all.
  const key = JSON.stringify(spec);
  if (el.specLink?.key === key) return el.specLink.text;
  if (el.encodingKey !== key) {
    el.encodingKey = key;
    el.encoding = encodeSpec(spec).then((r) => {
      if (JSON.stringify(el.overrides.workload) !== key) return;
      el.specLink = { key, text: "text" in r ? r.text : undefined, error: "error" in r ? r.error : undefined };
      el.emitState();
    });
  }
  return undefined;
}
