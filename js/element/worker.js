// The playground's Web Worker: it owns the simulations, so the page never blocks. It
// advances them by `speed` simulated ms per wall second, in bounded slices, and posts new
// metrics windows (typed arrays, transferred) to the page. A sweep pool (sweep.js) runs
// its sweeps in workers of its own, each running this file. A timeline of checkpoints lets the
// page seek back to any time already run, and fork a branch there (timeline.js).
import { init, Simulation, liveFields, presets, fields, metrics, workloads, version } from "../index.js";
import { getField, setField } from "./state.js";
import { Timeline, branch, nowOf } from "./timeline.js";

// The worker's own budget per tick (about 30 ms of work), so it stays responsive to
// messages; the package's runFor has no budget unless the caller passes one.
const MAX_EVENTS_PER_TICK = 400_000;
const TICK_MS = 16;
// When a tick ran out of budget before reaching the time the speed asks for (the engine is
// the limit), the next one starts at once: through a message to ourselves, which yields
// to the page's messages but, unlike a nested setTimeout(0), is not clamped to 4 ms.
const again = new MessageChannel();
again.port1.onmessage = () => tick();

let sims = []; // one, or two in compare mode
let since = []; // windows already posted, per simulation
let density = []; // events per simulated ms in each one's latest tick (the heaviest goes first)
let speed = 1000;
let paused = false;
// The worker paused itself (pauseAtMs reached): the page is told once, with the next tick.
let pausedItself = false;
let pauseAtMs = null;
let stepRequest = false;
let lastWall = 0;
let meter = { events: 0, simMs: 0, wallMs: 0 };
// Where the worker's time went, since it started (the tick message's engine.spent).
const spent = { engineMs: 0, timelineMs: 0, publishMs: 0, wallMs: 0, events: 0 };
// What holds the throughput (sim.explain()) is worked out at most this often while running.
const EXPLAIN_MS = 250;
let explainedAt = -Infinity;
const timeline = new Timeline();
// The branch's fork, once `fork` made one: { field, value, atMs }.
let forked = null;

const ready = init();

/** @typedef {import("./protocol").FromWorker} FromWorker @typedef {import("./protocol").ToWorker} ToWorker */

/** @param {FromWorker} msg @param {Transferable[]} [transfer] */
function post(msg, transfer = []) {
  postMessage(msg, { transfer });
}

/**
 * @param {any} e what was thrown
 * @param {Extract<FromWorker, { type: "error" }>["context"]} context
 * @param {number} [replyTo] the request refused
 */
function fail(e, context, replyTo) {
  post({ type: "error", context, message: String(e?.message ?? e), field: e?.field ?? null, replyTo });
}

/** @param {Extract<ToWorker, { type: "start" }>} m */
function start({ configs, speed: s, paused: p, pauseAtMs: at }) {
  for (const sim of sims) sim.free();
  sims = [];
  since = [];
  forked = null;
  timeline.free();
  try {
    for (const c of configs) sims.push(new Simulation(c));
  } catch (e) {
    for (const sim of sims) sim.free();
    sims = [];
    fail(e, "start");
    return;
  }
  since = sims.map(() => 0);
  density = [];
  speed = s ?? speed;
  paused = !!p;
  pauseAtMs = at ?? null;
  meter = { events: 0, simMs: 0, wallMs: 0 };
  explainedAt = -Infinity;
  timeline.reset(sims);
  postStarted();
}

function postStarted() {
  const first = sims[0].snapshot();
  post({ type: "started", configs: sims.map((sim) => sim.config), facts: sims.map((sim, i) => (i ? sim.snapshot() : first).facts), hotRowNode: first.hotRowNode, dataNodes: first.dataNodes, partitions: first.partitions, forked });
}

/** Shows `ms` again: restores the checkpoint before it and replays to it; stays paused. */
function seek({ ms, id }) {
  if (!sims.length) return;
  paused = true;
  pauseAtMs = null;
  timeline.seek(sims, ms);
  since = sims.map(() => 0); // the page rebuilds its series from the windows kept
  publish({ reset: true, replyTo: id });
}

/**
 * Forks at the current moment: run A goes on as it was, run B is a branch of it with
 * `field` set to `value`. Only live fields can differ in a branch (the past is shared).
 */
function fork({ field, value, id }) {
  const a = sims[0];
  const b = branch(a);
  try {
    b.set(field, value);
  } catch (e) {
    b.free();
    fail(e, "fork", id);
    return;
  }
  for (const sim of sims.slice(1)) sim.free();
  sims = [a, b];
  density = [];
  forked = { field, value, atMs: a.nowMs, was: getField(a.config, field) ?? null };
  paused = true;
  timeline.reset(sims);
  postStarted();
  since = sims.map(() => 0);
  publish({ reset: true, replyTo: id });
}

/**
 * Advances every simulation to one simulated time, `simMs` further, within the event
 * budget. In compare mode the run with the most events per simulated ms goes first and
 * the others follow it to where it got: when a heavy run cannot keep up, the light one
 * waits for it, so the two are always shown, and compared, at the same simulated time.
 */
function advance(simMs, stepping = false) {
  const from = nowOf(sims);
  if (pauseAtMs !== null) simMs = Math.min(simMs, Math.max(0, pauseAtMs - from));
  // Until every run's weight is known, a short step that every run makes in full.
  // (A step is one window whatever the weights: it asked for exactly that.)
  if (sims.length > 1 && !stepping && sims.some((_, i) => density[i] === undefined)) simMs = Math.min(simMs, 1);
  let reach = from + simMs;
  let events = 0;
  const order = sims.map((_, i) => i).sort((i, j) => (density[j] ?? 0) - (density[i] ?? 0));
  for (const i of order) {
    const sim = sims[i];
    const before = sim.nowMs;
    const r = sim.runFor(Math.max(0, reach - before), MAX_EVENTS_PER_TICK);
    events += r.events;
    if (r.nowMs > before) density[i] = r.events / (r.nowMs - before);
    reach = Math.min(reach, r.nowMs);
  }
  if (pauseAtMs !== null && nowOf(sims) >= pauseAtMs) {
    paused = true;
    pausedItself = true;
    pauseAtMs = null;
  }
  return events;
}

function publish(extra = {}) {
  const out = [];
  const transfer = [];
  const explain = extra.reset || paused || performance.now() - explainedAt >= EXPLAIN_MS;
  if (explain) explainedAt = performance.now();
  sims.forEach((sim, i) => {
    const w = sim.windows(since[i]);
    since[i] = w.first + w.count;
    // The cluster view draws the first run: its messages in flight, at most 2000 of them.
    const cluster = i === 0 ? sim.cluster(2000) : null;
    for (const v of [...Object.values(w), ...Object.values(cluster?.messages ?? {})]) {
      if (v instanceof Float64Array) transfer.push(v.buffer);
    }
    out.push({ windows: w, snapshot: sim.snapshot(), cluster, explain: explain ? sim.explain() : null });
  });
  const m = meter;
  post({
    type: "tick",
    sims: out,
    pausedItself,
    nowMs: nowOf(sims),
    timeline: { startMs: timeline.startMs, frontierMs: timeline.frontierMs, checkpoints: timeline.count, bytes: timeline.bytes },
    ...extra,
    engine: { eventsPerSecond: m.wallMs ? (m.events / m.wallMs) * 1000 : 0, simPerWall: m.wallMs ? m.simMs / m.wallMs : 0, spent: { ...spent } },
  }, transfer);
  pausedItself = false;
}

function tick() {
  const now = performance.now();
  const wall = Math.min(now - lastWall, 100);
  lastWall = now;
  let behind = false;
  if (sims.length && (!paused || stepRequest)) {
    try {
      const before = nowOf(sims);
      const stepping = stepRequest;
      const simMs = stepping ? sims[0].config.windowMs : (speed * wall) / 1000;
      stepRequest = false;
      const t = performance.now();
      const events = advance(simMs, stepping);
      const ran = performance.now();
      behind = !paused && nowOf(sims) < before + simMs;
      timeline.record(sims, events);
      const recorded = performance.now();
      // The meter decays so it shows the recent rate.
      meter.events = meter.events * 0.9 + events;
      meter.simMs = meter.simMs * 0.9 + (nowOf(sims) - before);
      meter.wallMs = meter.wallMs * 0.9 + Math.max(wall, performance.now() - t);
      publish();
      Object.assign(spent, {
        engineMs: spent.engineMs + ran - t,
        timelineMs: spent.timelineMs + recorded - ran,
        publishMs: spent.publishMs + performance.now() - recorded,
        wallMs: spent.wallMs + wall,
        events: spent.events + events,
      });
    } catch (e) {
      fail(e, "run");
      paused = true;
    }
  }
  if (behind) again.port2.postMessage(null);
  else setTimeout(tick, TICK_MS);
}

/** Every summary metric of the metric table, read from a summary at the table's path. */
function summaryMetrics(summary) {
  summaryTable ??= metrics().filter((m) => m.summary);
  // A part that is null (no bottleneck before anything commits) reads 0, as in the CLI.
  return Object.fromEntries(summaryTable.map((m) => [m.name, m.summary.split(".").reduce((o, k) => o?.[k] ?? 0, summary)]));
}
let summaryTable = null;

/** A sweep's config for value `v`: `field` set to it on `base` (which has the mode's run
 * length), or (field null) the set of fields it is, as the strategies run them. */
function sweepConfig(base, field, v) {
  const config = structuredClone(base);
  if (field === null) for (const [k, x] of Object.entries(v)) setField(config, k, x);
  else setField(config, field, v);
  return config;
}

/**
 * Runs one short simulation per value (a sweep pool's share: `indexes` are the values'
 * places in the whole sweep), or each of `configs` as it is (the fit's runs), and reports
 * after each. The pool cancels by terminating us.
 */
/** @param {Extract<ToWorker, { type: "sweep" }>} m */
function sweep({ base, field, values, configs, indexes }) {
  const results = [];
  for (let i = 0; i < values.length; i++) {
    const config = configs ? configs[i] : sweepConfig(base, field, values[i]);
    let sim;
    try {
      sim = new Simulation(config);
      sim.runToEnd();
      const s = sim.summary();
      results.push({
        index: indexes?.[i] ?? i, value: values[i], ...summaryMetrics(s), hotRow: s.facts.hotRow ?? null,
        bottleneck: s.bottleneck && { name: s.bottleneck.name, kind: s.bottleneck.kind }, intervals: s.intervals, precision: s.precision,
        simulatedSeconds: s.simulatedSeconds, digest: s.digest, config,
      });
    } catch (e) {
      fail(e, "sweep");
      return;
    } finally {
      sim?.free();
    }
    post({ type: "sweepProgress", done: i + 1, total: values.length, results });
  }
  post({ type: "sweepDone", results });
}

onmessage = async (event) => {
  await ready;
  /** @type {ToWorker} */
  const m = event.data;
  switch (m.type) {
    case "start":
      start(m);
      break;
    case "set":
      try {
        for (const sim of sims) sim.set(m.field, m.value);
        timeline.truncate(sims); // the recorded future is not this one's
        post({ type: "set", field: m.field, value: m.value, configs: sims.map((sim) => sim.config), facts: sims.map((sim) => sim.snapshot().facts) });
      } catch (e) {
        fail(e, "set");
      }
      break;
    case "inject":
      try {
        for (const sim of sims) sim.inject(m.fault);
        timeline.truncate(sims);
        post({ type: "injected", fault: m.fault });
      } catch (e) {
        fail(e, "inject");
      }
      break;
    case "check":
      // A workload spec from the editor: does a simulation take it? (Nothing else changes.)
      try {
        new Simulation(m.config).free();
        post({ type: "checked", replyTo: m.id, ok: true });
      } catch (e) {
        post({ type: "checked", replyTo: m.id, ok: false, message: String(e?.message ?? e), field: e?.field ?? null });
      }
      break;
    case "speed":
      speed = m.value;
      break;
    case "pause":
      paused = true;
      break;
    case "resume":
      paused = false;
      pauseAtMs = null;
      break;
    case "step":
      stepRequest = true;
      break;
    case "seek":
      try {
        seek(m);
      } catch (e) {
        fail(e, "seek", m.id);
      }
      break;
    case "fork":
      fork(m);
      break;
    case "sweep":
      sweep(m);
      break;
    case "export":
      // What a download takes away, per run: the windows kept as CSV, the summary so far.
      post({ type: "export", replyTo: m.id, runs: sims.map((s) => ({ csv: s.windowsCsv(), summary: s.summary() })) });
      break;
  }
};

ready.then(() => {
  lastWall = performance.now();
  const list = presets().map(({ name, description }) => ({ name, description }));
  const specs = workloads().map(({ name, spec }) => ({ name, spec }));
  post({ type: "ready", liveFields: liveFields(), presets: list, fields: fields(), metrics: metrics(), workloads: specs, version });
  tick();
}, (e) => fail(e, "init"));
