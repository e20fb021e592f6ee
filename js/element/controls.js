// The playground's controls, each bound to its config field. A live field (the package's
// liveFields()) goes to the running simulation; any other restarts it from time 0.
import { downloadData, downloadChart, downloadReport } from "./downloads.js";
import { getField, setField, compareValue, DEFAULT_PRESET } from "./state.js";
import { YOUR_SPEC, SWEEP_FIELDS } from "./modes.js";
import { send } from "./requests.js";
import { fmtInt, fmtUs, fmtSpeed, logSlider } from "./format.js";

/** Controls that are their field's own select (a choice) or number box (a whole number):
 * bound and shown alike, named once. */
const CHOICE_CONTROLS = ["allocator", "idCacheScope", "partitioning", "keyLayout", "server.lockGrant", "server.deadlockSearch"];
const WHOLE_CONTROLS = ["cacheGrowth", "shardBits", "server.cores", "server.flushUs", "server.recheckNs", "server.wakeUs", "server.grantNs",
  "server.deadlockNs", "server.autoincLockMode", "server.pushDelayUs", "server.pushNs"];

/** The preset each engine starts from: the default for NDB, else the engine's own. */
const enginePreset = (engine) => (engine === "ndb" ? DEFAULT_PRESET : engine);

/** How config fields are named in the UI: the field table's labels (`learnLabels`). */
export const FIELD_LABELS = {};

/** How the choices of a field read in a menu: the field table's labels (`learnLabels`). */
const CHOICE_LABELS = {};

/** Fills FIELD_LABELS and CHOICE_LABELS from the package's field table: each field's label,
 * with its unit when it is one of time ("network latency (us)"), and each choice's. Every
 * element on a page shares them. */
export function learnLabels(table) {
  for (const f of table) {
    FIELD_LABELS[f.name] = ["ns", "us", "ms"].includes(f.unit) ? `${f.label} (${f.unit})` : f.label;
    if (f.kind.type === "choice") CHOICE_LABELS[f.name] = Object.fromEntries(f.kind.values.map((v, i) => [v, f.kind.labels[i]]));
  }
}

/** The largest value the field table allows for integer field `name`. */
const maxOf = (el, name) => el.fieldTable.find((f) => f.name === name).kind.max;

/** Fills the data-node choices: multiples of `replicas` up to the field table's maximum. */
function fillDataNodes(el, replicas) {
  const sel = el.$("#dataNodes");
  const options = [];
  for (let n = replicas; n <= maxOf(el, "dataNodes"); n += replicas) options.push(new Option(String(n), String(n)));
  sel.replaceChildren(...options);
}

/** Binds every control of the element `el` to its field or action. */
export function wireControls(el, labels) {
  wireRun(el);
  wireFields(el, labels);
  wireModes(el, labels);
  wireFaults(el);
  wireTimeline(el);
  wireActions(el, labels);
}

/** Play, step, reset and speed. */
function wireRun(el) {
  const $ = el.$;
  $(".play").onclick = () => el.update({ run: { paused: !el.paused } });
  $(".step").onclick = () => {
    el.update({ run: { paused: true } });
    send(el, { type: "step" });
  };
  $(".reset").onclick = () => {
    el.note("Reset: the same settings from simulated time 0.");
    el.start();
  };
  $("#speed").oninput = (e) => {
    el.update({ view: { speed: Math.round(10 ** +e.target.value) } });
    $("#speed-out").textContent = fmtSpeed(el.view.speed);
  };
}

/** The config controls: each changes its field (a cluster's shape restarts the run). */
function wireFields(el, labels) {
  const $ = el.$;
  $("#seed").onchange = (e) => el.change("seed", Math.max(0, Math.floor(+e.target.value || 0)));
  $("#preset").onchange = (e) => {
    el.note(`Preset ${e.target.value}: restarted.`);
    el.update({ config: { preset: e.target.value, ...(el.overrides.seed !== undefined ? { seed: el.overrides.seed } : {}) } }, { restart: true });
  };
  $("#engine").onchange = (e) => {
    const engine = e.target.value;
    const preset = enginePreset(engine);
    el.note(`Engine ${choiceLabel("engine", engine)}: its preset ${preset}, restarted.`);
    // A compared or swept field the new engine lacks goes back to the default (cache size).
    const view = {};
    if (!offeredUnder(el, el.compareSpec().compareField, engine)) Object.assign(view, { compareField: undefined, compareA: undefined, compareB: undefined });
    if (!offeredUnder(el, $("#sweepField").value, engine)) $("#sweepField").value = SWEEP_FIELDS[0][0];
    el.update({ config: { preset, ...(el.overrides.seed !== undefined ? { seed: el.overrides.seed } : {}) }, view }, { restart: true });
  };
  $("#workload").onchange = (e) => e.target.value !== "__custom" && el.change("workload", e.target.value);
  $("#cacheSize").oninput = (e) => ($("output[for=cacheSize]").textContent = fmtInt(Math.round(10 ** +e.target.value)));
  $("#cacheSize").onchange = (e) => el.change("cacheSize", Math.round(10 ** +e.target.value));
  $("#hintedRefill").onchange = (e) => el.change("hintedRefill", e.target.checked);
  $("#primaryKey").onchange = (e) => el.change("primaryKey", e.target.checked);
  $("#dataNodes").onchange = (e) => el.change("dataNodes", +e.target.value);
  $("#replicas").onchange = (e) => {
    const r = +e.target.value;
    const nodes = Math.max(r, Math.round((getField(el.effective[0] ?? {}, "dataNodes") ?? 8) / r) * r);
    const most = maxOf(el, "dataNodes");
    const config = structuredClone(el.overrides);
    setField(config, "dataNodes", Math.min(most - (most % r), nodes));
    setField(config, "replicas", r);
    el.note(`${labels.replicas ?? "replicas"} changes the cluster: restarted from time 0.`);
    el.update({ config }, { restart: true });
  };
  $("#apiNodes").onchange = (e) => el.change("apiNodes", Math.floor(+e.target.value));
  $("#clientsPerApiNode").oninput = (e) => ($("output[for=clientsPerApiNode]").textContent = e.target.value);
  $("#clientsPerApiNode").onchange = (e) => el.change("clientsPerApiNode", +e.target.value);
  const think = (x) => (+x === 0 ? 0 : Math.round(10 ** +x));
  $("#thinkTimeUs").oninput = (e) => ($("output[for=thinkTimeUs]").textContent = fmtUs(think(e.target.value)));
  // Think time and open arrivals exclude each other: turning one on turns the other off.
  const exclusive = (field, other, note) => (e) => {
    const v = think(e.target.value);
    if (v > 0 && getField(el.effective[0] ?? {}, other) > 0) {
      el.change(other, 0);
      el.note(note);
    }
    el.change(field, v);
  };
  $("#thinkTimeUs").onchange = exclusive("thinkTimeUs", "arrivalRatePerApiNode", "Think time set: open arrivals off (a closed loop again).");
  $("#arrivalRatePerApiNode").oninput = (e) => ($("output[for=arrivalRatePerApiNode]").textContent = fmtRate(think(e.target.value)));
  $("#arrivalRatePerApiNode").onchange = exclusive("arrivalRatePerApiNode", "thinkTimeUs", "Open arrivals take no think time: think time set to 0.");
  $("#arrivalCv").oninput = (e) => ($("output[for=arrivalCv]").textContent = fmtArrivalCv(+e.target.value));
  $("#arrivalCv").onchange = (e) => el.change("arrivalCv", +e.target.value);
  $("#latency").oninput = (e) => ($("output[for=latency]").textContent = `${e.target.value} us`);
  $("#latency").onchange = (e) => el.change("network.latencyUs", +e.target.value);
  $("#latencyCv").oninput = (e) => ($("output[for=latencyCv]").textContent = fmtCv(+e.target.value));
  $("#latencyCv").onchange = (e) => el.change("network.latencyCv", +e.target.value);
  $("#cpuScale").onchange = (e) => el.change("cpu.scale", +e.target.value);
  $("#serviceCv").oninput = (e) => ($("output[for=serviceCv]").textContent = fmtCv(+e.target.value));
  $("#serviceCv").onchange = (e) => el.change("cpu.serviceCv", +e.target.value);
  for (const id of CHOICE_CONTROLS) $(`#${CSS.escape(id)}`).onchange = (e) => el.change(id, e.target.value);
  for (const id of WHOLE_CONTROLS) $(`#${CSS.escape(id)}`).onchange = (e) => el.change(id, Math.floor(+e.target.value));
}

/** The mode tabs and compare's knob and values. */
function wireModes(el, labels) {
  const $ = el.$;
  for (const tab of el.$$("[data-mode]")) {
    tab.onclick = () => {
      el.update({ view: { mode: tab.dataset.mode } }, { restart: true });
    };
  }
  $("#compareField").onchange = (e) => {
    el.update({ view: { compareField: e.target.value, compareA: undefined, compareB: undefined } }, { restart: true });
  };
  for (const id of ["compareA", "compareB"]) {
    // A number is typed; a choice (a workload, a strategy, on or off) is picked.
    $(`#${id}`).onchange = $(`#${id}-choice`).onchange = (e) => {
      const field = el.compareSpec().compareField;
      if (compareValue(field, e.target.value) === undefined) {
        el.showError(`Run ${id.slice(-1)}: "${e.target.value}" is not a value for ${labels[field] ?? field}.`);
        return;
      }
      el.update({ view: { [id]: e.target.value } }, { restart: true });
    };
  }
}

/** The fault buttons: each injects into the running simulation. */
function wireFaults(el) {
  const $ = el.$;
  const inject = (fault, text) => {
    send(el, { type: "inject", fault });
    el.note(text);
  };
  $(".fail-node").onclick = () => {
    const n = +$("#faultNode").value;
    inject({ kind: "dataNodeFailure", dataNode: n, restartAfterMs: 3000 },
      `Data node ${n} failed: its transactions abort and retry, its partner becomes primary; it rejoins in 3 simulated s.`);
  };
  $(".slow-node").onclick = () => {
    const n = +$("#faultNode").value;
    inject({ kind: "networkDelay", dataNode: n, extraUs: 2000, durationMs: 2000 }, `Messages to and from node ${n} take 2 ms longer for 2 s.`);
  };
  $(".restart-api").onclick = () => inject({ kind: "apiNodeRestart", apiNode: 0, downMs: 1000 },
    "API node 0 restarted: its cached id range is lost (a gap, never a duplicate); its clients return in 1 s.");
}

/** The timeline: dragging seeks (one seek in flight; the latest position wins). */
function wireTimeline(el) {
  const $ = el.$;
  const range = $("#timeline");
  let pending = null;
  let seeking = false;
  const seekLatest = async () => {
    if (seeking || pending === null) return;
    seeking = true;
    const ms = pending;
    pending = null;
    try {
      await el.seek(ms);
    } finally {
      seeking = false;
      seekLatest();
    }
  };
  range.oninput = () => {
    el.dragging = true;
    pending = +range.value;
    seekLatest();
  };
  range.onchange = () => {
    el.dragging = false;
    pending = +range.value;
    seekLatest();
  };
}

/** Fork, tour, downloads, the sweep, strategies and fit buttons, share and theme. */
function wireActions(el, labels) {
  const $ = el.$;
  $(".fork").onclick = () => {
    const field = $("#forkField").value;
    const value = compareValue(field, $("#forkValue").value);
    if (value === undefined) {
      el.showError(`Fork: "${$("#forkValue").value}" is not a value for ${labels[field] ?? field}.`);
      return;
    }
    el.fork(field, value).catch(() => {}); // the element shows the error
  };
  $(".tour-start").onclick = () => el.tour.start(1);
  $(".dl-csv").onclick = () => downloadData(el, "csv");
  $(".dl-json").onclick = () => downloadData(el, "json");
  $(".dl-report").onclick = () => downloadReport(el);
  for (const b of el.$$(".dl-png")) b.onclick = () => downloadChart(el, b.dataset.chart);
  $(".sweep-run").onclick = () => el.runSweep();
  $(".sweep-cancel").onclick = () => el.cancelSweep();
  $(".strategies-run").onclick = () => el.runStrategies();
  $(".strategies-cancel").onclick = () => el.cancelSweep();
  $(".fit-run").onclick = () => el.runFit();
  $(".fit-cancel").onclick = () => el.cancelFit();
  $(".fit-apply").onclick = () => el.applyFit();
  $(".fit-predict").onclick = () => el.predictFit();
  $(".share").onclick = async () => {
    const { query, error } = await el.link();
    const url = `${location.origin}${location.pathname}?${query}`;
    const left = error ? ` It leaves out your workload spec (${error}): download the spec from the editor instead.` : "";
    try {
      await navigator.clipboard.writeText(url);
      el.note(`Link copied: it reopens this exact run (same seed, same settings).${left}`);
    } catch {
      el.note(`Link: ${url}${left}`);
    }
  };
  $(".theme").onclick = () => {
    const dark = el.host.getAttribute("theme") === "dark" || (!el.host.hasAttribute("theme") && matchMedia("(prefers-color-scheme: dark)").matches);
    el.host.setAttribute("theme", dark ? "light" : "dark");
    el.setupCharts({ keepSeries: true }); // the same run: its history redrawn in the new colours
  };
}

/** Shows the effective config in the controls. */
export function syncControls(el) {
  const c = el.effective[0];
  if (!c) return;
  const $ = el.$;
  $("#preset").value = el.overrides.preset ?? DEFAULT_PRESET;
  $("#preset-about").textContent = $("#preset").selectedOptions[0]?.title ?? "";
  const workload = $("#workload");
  if (typeof c.workload === "object") {
    // A spec of the user's own: shown as such (its name), and kept selected.
    let custom = workload.querySelector('option[value="__custom"]');
    if (!custom) workload.append((custom = new Option("", "__custom")));
    custom.textContent = valueName("workload", c.workload);
    workload.value = "__custom";
  } else {
    workload.querySelector('option[value="__custom"]')?.remove();
    workload.value = c.workload;
  }
  $("#cacheSize").value = logSlider(c.cacheSize, 1, 1e6);
  $("output[for=cacheSize]").textContent = fmtInt(c.cacheSize);
  $("#hintedRefill").checked = c.hintedRefill;
  $("#primaryKey").checked = c.primaryKey;
  fillDataNodes(el, c.replicas);
  $("#dataNodes").value = String(c.dataNodes);
  $("#faultNode").replaceChildren(...Array.from({ length: c.dataNodes }, (_, i) => new Option(`node ${i}`, String(i))));
  $("#replicas").value = String(c.replicas);
  $("#apiNodes").value = String(c.apiNodes);
  $("#clientsPerApiNode").value = String(Math.min(256, c.clientsPerApiNode));
  $("output[for=clientsPerApiNode]").textContent = String(c.clientsPerApiNode);
  $("#thinkTimeUs").value = c.thinkTimeUs ? logSlider(c.thinkTimeUs, 1, 1e6) : 0;
  $("output[for=thinkTimeUs]").textContent = fmtUs(c.thinkTimeUs);
  $("#arrivalRatePerApiNode").value = c.arrivalRatePerApiNode ? logSlider(c.arrivalRatePerApiNode, 1, 1e6) : 0;
  $("output[for=arrivalRatePerApiNode]").textContent = fmtRate(c.arrivalRatePerApiNode);
  $("#arrivalCv").value = String(c.arrivalCv);
  $("output[for=arrivalCv]").textContent = fmtArrivalCv(c.arrivalCv);
  $("#latency").value = String(c.network.latencyUs);
  $("output[for=latency]").textContent = `${c.network.latencyUs} us`;
  $("#latencyCv").value = String(c.network.latencyCv);
  $("output[for=latencyCv]").textContent = fmtCv(c.network.latencyCv);
  $("#cpuScale").value = String(c.cpu.scale);
  $("#serviceCv").value = String(c.cpu.serviceCv);
  $("output[for=serviceCv]").textContent = fmtCv(c.cpu.serviceCv);
  $("#seed").value = String(c.seed);
  for (const id of [...CHOICE_CONTROLS, ...WHOLE_CONTROLS]) $(`#${CSS.escape(id)}`).value = String(getField(c, id));
  $("#engine").value = c.engine;
  for (const n of el.$$(ENGINE_MARKED)) n.hidden = !shownUnder(n, c.engine);
  // Compare and sweep offer only what the engine has (no data nodes on one server).
  for (const o of [...$("#compareField").options, ...$("#sweepField").options]) o.hidden = o.disabled = !offeredUnder(el, o.value, c.engine);
  $("#speed").value = logSlider(el.view.speed, 1, 1e5);
  $("#speed-out").textContent = fmtSpeed(el.view.speed);
  const spec = el.compareSpec();
  $("#compareField").value = spec.compareField;
  const choices = compareChoices(el, spec.compareField);
  for (const id of ["compareA", "compareB"]) {
    const [text, pick] = [$(`#${id}`), $(`#${id}-choice`)];
    text.hidden = !!choices;
    pick.hidden = !choices;
    if (choices) {
      pick.replaceChildren(...choices.map(([v, label]) => new Option(label, v)));
      pick.value = spec[id];
    } else {
      text.value = spec[id];
    }
  }
}

/**
 * The values compare offers for a choice or on/off field as [value, label] (the field
 * table's, and for the workload the spec of one's own when one runs); null for a number.
 */
function compareChoices(el, field) {
  const kind = el.fieldTable?.find((f) => f.name === field)?.kind;
  if (kind?.type === "bool") return ["false", "true"].map((v) => [v, valueName(field, v)]);
  if (kind?.type !== "choice") return null;
  const list = kind.values.map((v) => [v, valueName(field, v)]);
  if (field === "workload" && typeof el.overrides.workload === "object") list.push([YOUR_SPEC, valueName(field, el.overrides.workload)]);
  return list;
}

/** The id of the control bound to a config field (most use the field's name). */
/** What marks a control or note as one engine's or some engines' (see shownUnder). */
const ENGINE_MARKED = ".ndb-only, .server-only, .one-server-only, [data-engine]";

/**
 * Whether a control or note marked for engines shows under `engine`: `.ndb-only` not on
 * one server (NDB's and Raft's data nodes and replicas), `.server-only` not on NDB (a
 * server's cores and log flush), `.one-server-only` only on one server, and
 * `data-engine="x"` only on engine x (NDB's faults and hint, PostgreSQL's re-check,
 * InnoDB's hand-over and deadlock search, Raft's push).
 */
function shownUnder(node, engine) {
  const oneServer = engine === "postgres" || engine === "innodb";
  const c = node.classList;
  return !(c.contains("ndb-only") && oneServer) && !(c.contains("server-only") && engine === "ndb") &&
    !(c.contains("one-server-only") && !oneServer) && !(node.dataset.engine && node.dataset.engine !== engine);
}

/** Whether compare or sweep offers `field` under `engine`: when the engine shows its control. */
function offeredUnder(el, field, engine) {
  const box = el.$(`#${CSS.escape(CONTROL_ID[field] ?? field)}`)?.closest(".control");
  return !box || shownUnder(box, engine);
}

const CONTROL_ID = { "network.latencyUs": "latency", "network.latencyCv": "latencyCv", "cpu.scale": "cpuScale", "cpu.serviceCv": "serviceCv" };

/** An offered rate per API node in words (0: closed loops). */
const fmtRate = (r) => (r === 0 ? "off (closed loops)" : `${fmtInt(r)}/s`);
/** An arrival spread in words. */
const fmtArrivalCv = (cv) => (cv === 0 ? "0 (even)" : cv === 1 ? "1 (Poisson)" : `CV ${cv}`);

/** A service-time spread in words: its coefficient of variation and what it means. */
const fmtCv = (cv) => (cv === 0 ? "0 (fixed)" : cv === 1 ? "1 (exponential)" : `CV ${cv}`);

export const choiceLabel = (field, value) => CHOICE_LABELS[field]?.[value] ?? value;

/** A value of `field` in words, as menus, legends and tables name it: a choice by its label,
 * a switch as on or off, a spec of one's own by its name, a number as it is. */
export function valueName(field, v) {
  if (v && typeof v === "object") return `your spec: ${v.name}`;
  if (v === true || v === "true") return "on";
  if (v === false || v === "false") return "off";
  return typeof v === "string" ? choiceLabel(field, v) : String(v);
}

/**
 * Takes each control's range, choices and explanation from the package's field table
 * (fields()), so the table, not this markup, says what a field allows and means.
 */
export function bindFieldTable(el, table) {
  for (const f of table) {
    const control = el.$(`#${CSS.escape(CONTROL_ID[f.name] ?? f.name)}`);
    if (!control) continue;
    const unit = f.unit ? ` (${f.unit})` : "";
    control.title = `${f.name}${unit}: ${f.about}`;
    if ((f.kind.type === "int" || f.kind.type === "number") && control.type === "number") {
      control.min = String(f.kind.min);
      control.max = String(f.kind.max);
    }
    if (f.kind.type === "choice" && control.tagName === "SELECT" && !control.options.length) {
      control.replaceChildren(...f.kind.values.map((v) => new Option(choiceLabel(f.name, v), v)));
    }
    const about = el.$(`.hint[data-about="${CSS.escape(f.name)}"]`);
    if (about) about.textContent = f.about;
  }
}
