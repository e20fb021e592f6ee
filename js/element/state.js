// Playground state <-> URL query / element attributes. One table of fields, so the URL,
// the iframe page and the custom element's attributes all name things the same way as
// the config (camelCase in URLs, kebab-case as attributes).
//
// Parsing never throws: unknown keys and unreadable values become `errors` (shown to the
// user) and are dropped. Range checks are the simulation's job: the worker's
// `new Simulation()` throws with the field's name, and the page falls back to defaults.

import { MAX_SPEC_BYTES, MAX_LINK_CHARS } from "./spec-link.js";
import { LINK_VERSION, migrate } from "./link-versions.js";

/** Config fields a URL or attribute may set, and how to read them. */
export const FIELDS = {
  preset: "string",
  seed: "int",
  workload: "string",
  dataNodes: "int",
  replicas: "int",
  ldmThreads: "int",
  tcThreads: "int",
  apiNodes: "int",
  apiCores: "int",
  clientsPerApiNode: "int",
  thinkTimeUs: "int",
  arrivalRatePerApiNode: "int",
  arrivalCv: "number",
  cacheSize: "int",
  cacheGrowth: "int",
  cacheSizeMax: "int",
  idCacheScope: "string",
  allocator: "string",
  timestampTickUs: "int",
  timestampSequenceBits: "int",
  hintedRefill: "bool",
  hintedTransactions: "bool",
  primaryKey: "bool",
  partitioning: "string",
  rangeRows: "int",
  keyLayout: "string",
  shardBits: "int",
  warehouses: "int",
  lockWaitTimeoutMs: "int",
  windowMs: "int",
  engine: "string",
  "server.cores": "int",
  "server.flushUs": "int",
  "server.recheckNs": "int",
  "server.wakeUs": "int",
  "server.grantNs": "int",
  "server.deadlockNs": "int",
  "server.deadlockSearch": "string",
  "server.lockGrant": "string",
  "server.autoincLockMode": "int",
  "server.pushDelayUs": "int",
  "server.pushNs": "int",
  "network.latencyUs": "int",
  "network.latencyCv": "number",
  "cpu.scale": "number",
  "cpu.insertScale": "number",
  "cpu.serviceCv": "number",
};

/** View settings, not config. */
const VIEW = {
  v: "int", // state version
  mode: "string", // live | compare | sweep | strategies | fit
  speed: "number", // simulated ms per wall second
  pauseAtMs: "number", // pause when the simulation reaches this time
  compareField: "string",
  compareA: "string",
  compareB: "string",
  tour: "int", // the guided tour's chapter, 1-based
  forkField: "string", // a fork shown: run A to forkAtMs, then run B with forkField = forkValue
  forkValue: "string",
  forkAtMs: "number",
  fitPoints: "csv", // Fit mode's measured points
  fitFields: "names", // Fit mode's fields to fit, comma-separated
  fitResult: "packed", // Fit mode's result, packed (spec-link.js): a link reopens it without refitting
  sql: "packed", // the SQL the running spec was imported from, packed (sql-editor.js): a link shows it again
};

/** The element's attributes: every URL field (kebab-cased), the view settings an
 * attribute may set, and `spec` (a workload spec: spec-link.js). Each is also a property
 * of the element (camelCase), except `paused` and `tour`, which name the element's own
 * state. */
export const ATTRIBUTE_VIEW = ["mode", "speed", "paused", "pause-at-ms", "tour", "spec"];
export const ATTRIBUTE_ONLY = ["paused", "tour"];

const MODES = ["live", "compare", "sweep", "strategies", "fit"];
export const DEFAULT_SPEED = 1000;
/** The preset a state without one runs (the core's defaults are its config). */
export const DEFAULT_PRESET = "bug39267";

/** The fields compare mode offers, each with run A's and B's values when the user gave
 * none: the one list (the URL check reads its keys, modes.js the values). */
export const COMPARE_DEFAULTS = {
  cacheSize: ["1", "1000"], hintedRefill: ["false", "true"], primaryKey: ["false", "true"],
  dataNodes: ["4", "8"], "network.latencyUs": ["90", "20"], clientsPerApiNode: ["4", "16"],
  allocator: ["counterRow", "timestamp"], idCacheScope: ["apiNode", "client"], cacheGrowth: ["1", "4"],
  partitioning: ["hash", "range"], keyLayout: ["sequential", "shardBits"], workload: ["sql-insert", "ndbapi-insert"],
  "cpu.serviceCv": ["0", "1"], "network.latencyCv": ["0", "0.75"], "cpu.scale": ["1", "0.5"],
};
export const COMPARE_FIELDS = Object.keys(COMPARE_DEFAULTS);

export const kebab = (name) => name.replace(/\./g, "-").replace(/[A-Z]/g, (c) => "-" + c.toLowerCase());
/** The field or view setting an attribute names (a dotted field is kebab-cased whole:
 * `network-latency-us` is `network.latencyUs`). */
const camel = (attr) =>
  Object.keys(FIELDS).find((name) => kebab(name) === attr) ?? attr.replace(/-([a-z])/g, (_, ch) => ch.toUpperCase());

const MAX_TEXT = 64;
/** Most characters of a `spec` setting: as much as a spec may expand to. */
const MAX_SPEC_PARAM = MAX_SPEC_BYTES;

/** Most characters of measured points in a link, and what they may hold (no quotes or
 * markup: field names, numbers, commas, comments). */
const MAX_CSV = 4000;
const CSV_TEXT = /^[A-Za-z0-9_.,:;+\-#%()\s]*$/;

function read(kind, raw, name) {
  const text = String(raw).trim();
  if (kind === "csv") {
    if (text.length > MAX_CSV) return { error: `${name}: ${text.length} characters, at most ${MAX_CSV} are read` };
    return CSV_TEXT.test(text) ? { value: `${text}\n` } : { error: `${name}: has characters that are not allowed (quotes, markup)` };
  }
  if (kind === "packed") {
    if (text.length > MAX_LINK_CHARS) return { error: `${name}: ${text.length} characters, at most ${MAX_LINK_CHARS} are read` };
    return /^[A-Za-z0-9_-]+$/.test(text) ? { value: text } : { error: `${name}: not base64url text` };
  }
  if (text.length > MAX_TEXT) return { error: `${name}: value too long` };
  if (kind === "names") {
    return /^[A-Za-z0-9_.,]*$/.test(text) ? { value: text } : { error: `${name}: "${text.slice(0, 20)}" is not a list of field names` };
  }
  if (kind === "string") {
    return /^[A-Za-z0-9_.\-]*$/.test(text) ? { value: text } : { error: `${name}: "${text.slice(0, 20)}" has characters that are not allowed` };
  }
  if (kind === "bool") {
    if (["", "true", "1", "on", "yes"].includes(text)) return { value: true };
    if (["false", "0", "off", "no"].includes(text)) return { value: false };
    return { error: `${name}: "${text.slice(0, 20)}" is not true or false` };
  }
  const n = Number(text);
  if (text === "" || !Number.isFinite(n)) return { error: `${name}: "${text.slice(0, 20)}" is not a number` };
  return { value: n };
}

/** Sets a dotted field in a config object. */
export function setField(config, name, value) {
  const parts = name.split(".");
  let o = config;
  for (const p of parts.slice(0, -1)) o = o[p] ??= {};
  o[parts.at(-1)] = value;
}

export function getField(config, name) {
  return name.split(".").reduce((o, p) => (o == null ? undefined : o[p]), config);
}

/** Reads a state from `[name, value]` pairs (URL query entries or attributes). */
export function parseEntries(entries, { kebabNames = false } = {}) {
  const state = { config: {}, view: {}, errors: [] };
  let count = 0;
  const migrated = migrate([...entries].slice(0, 65).map(([k, v]) => [kebabNames ? camel(k) : k, v]));
  if (migrated.error) state.errors.push(migrated.error);
  for (const [name, raw] of migrated.entries) {
    if (name === "v" && migrated.error) continue;
    if (++count > 64) {
      state.errors.push("too many settings; the rest were ignored");
      break;
    }
    if (name === "spec") {
      // A workload spec (compressed, or JSON in an attribute): read by spec-link.js.
      const text = String(raw).trim();
      if (text.length > MAX_SPEC_PARAM) state.errors.push(`spec: ${text.length} characters, at most ${MAX_SPEC_PARAM} are read`);
      else if (text) state.spec = text;
      continue;
    }
    const kind = FIELDS[name] ?? VIEW[name];
    if (!kind) {
      if (!kebabNames) state.errors.push(`unknown setting "${String(name).slice(0, 30)}"`);
      continue;
    }
    const r = read(kind, raw, name);
    if (r.error) {
      state.errors.push(r.error);
      continue;
    }
    if (FIELDS[name]) setField(state.config, name, r.value);
    else state.view[name] = r.value;
  }
  const v = state.view;
  if (v.mode !== undefined && !MODES.includes(v.mode)) {
    state.errors.push(`mode "${v.mode}" is not one of ${MODES.join(", ")}`);
    delete v.mode;
  }
  if (v.speed !== undefined && !(v.speed >= 1 && v.speed <= 1e6)) {
    state.errors.push("speed must be 1 to 1000000 simulated ms per second");
    delete v.speed;
  }
  if (v.tour !== undefined && !(v.tour >= 1 && v.tour <= 99)) {
    state.errors.push("tour must be a chapter number from 1");
    delete v.tour;
  }
  if (v.compareField !== undefined && !COMPARE_FIELDS.includes(v.compareField)) {
    state.errors.push(`compareField must be one of ${COMPARE_FIELDS.join(", ")}`);
    delete v.compareField;
  }
  return state;
}

export function parseQuery(search) {
  let params;
  try {
    params = new URLSearchParams(search);
  } catch {
    return { config: {}, view: {}, errors: ["the link could not be read"] };
  }
  return parseEntries(params.entries());
}

/** The query string for a state: the version, the view, and the config fields given; a
 * workload spec (an object) as `spec`, its link text (spec-link.js's `encodeSpec`). */
export function toQuery(config, view, specText) {
  const q = new URLSearchParams();
  q.set("v", String(LINK_VERSION));
  for (const [k, val] of Object.entries(view)) if (val !== undefined && val !== null) q.set(k, String(val));
  for (const name of Object.keys(FIELDS)) {
    const val = getField(config, name);
    if (val !== undefined && typeof val !== "object") q.set(name, String(val));
  }
  if (typeof config.workload === "object" && specText) q.set("spec", specText);
  return q.toString();
}

/** Parses a compare value for a field: booleans for boolean fields, else numbers. */
export function compareValue(field, text) {
  const kind = FIELDS[field];
  const r = read(kind, text, field);
  return r.error ? undefined : r.value;
}
