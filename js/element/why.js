// "Why this number": what holds the throughput of each run now (the bottleneck, its
// utilization and the bound it sets), the next ceiling if it were relieved, the busiest
// resources as bars, and the bottleneck's standard remedies as buttons: a remedy on a live
// field forks the run at the moment shown (run A goes on unchanged); one that reshapes the
// cluster or the workload restarts the run with it. Everything comes from the package's
// `explain()` (the worker asks for it a few times a second) and its `remedies()` (in a
// module of their own, the fit's, loaded when the reader first asks what would lift it).
import { fmtInt, fmtPct, fmtPm, withCode, plainName } from "./format.js";
import { setField } from "./state.js";
import { remedies as remediesOf } from "../remedies.js";

/** Each element's remedies, asked once per config and bottleneck: `{ key, list }`, `list`
 * null while the answer is on its way. Written only here. */
const answers = new WeakMap();

/** The elements whose reader asked what would lift it: from then on each bottleneck's
 * remedies are shown as it comes. Written only here. */
const asked = new WeakSet();

/** The remedies of run A's explanation `e`, or null until they came (the panel is drawn
 * again then). A failed load shows none, and is tried again when the bottleneck changes. */
function remediesFor(el, e) {
  const config = el.effective[0];
  const key = JSON.stringify([config, e.bottleneck.name, e.bottleneck.kind, e.deadlocks?.text ?? null]);
  const known = answers.get(el);
  if (known?.key === key) return known.list;
  answers.set(el, { key, list: null });
  const settle = (list) => {
    const now = answers.get(el);
    if (now?.key !== key) return;
    now.list = list;
    el.whyShown = null;
    drawWhy(el);
  };
  remediesOf(config, e).then(settle, () => settle([]));
  return null;
}

/** The headline unit of a run and the factor from transactions/s to it (TPM for DBT2, as
 * the throughput chart leads), from the last second of windows: a bound is said in
 * transactions/s, as the CLI says it, with the headline unit beside it. */
function unitOf(el, i) {
  const name = el.primaryName ?? "transactionsPerSecond";
  const d = el.series[i];
  const tps = d?.mean("transactionsPerSecond", 10) ?? 0;
  const v = d?.mean(name, 10) ?? 0;
  const label = el.metricTable?.find((m) => m.name === name)?.label ?? name;
  return { label, factor: tps > 0 && v > 0 ? v / tps : 1, same: name === "transactionsPerSecond" };
}

const sentence = (text) => {
  const p = document.createElement("p");
  p.append(...withCode(text));
  return p;
};

/** A resource's name with its numbers taken out: resources alike in all but number. */
const shape = (name) => name.replace(/\d+/g, "#");

/** Resources alike but for their numbers, at the same utilization (within 1%) as one line: "the id-cache
 * mutex of API node 3 and 6 more like it". */
function grouped(resources) {
  const out = [];
  for (const r of resources) {
    const like = out.find((o) => o.shape === shape(r.name) && Math.abs(o.utilization - r.utilization) < 0.01);
    if (like) like.more += 1;
    else out.push({ ...r, more: 0, shape: shape(r.name) });
  }
  return out.map((r) => (r.more ? { ...r, name: `${r.name} and ${r.more} more like it` } : r));
}

/** One run's explanation as a section. */
function section(el, e, i, compare) {
  const box = document.createElement("section");
  box.className = "why-run";
  if (compare) {
    const h = document.createElement("h4");
    h.textContent = el.runNames?.[i] ?? (i ? "B" : "A");
    box.append(h);
  }
  const b = e.bottleneck;
  const warmup = el.effective[i]?.warmupMs ?? 0;
  if (e.warmUp) {
    box.append(sentence(`Warm-up (until ${(warmup / 1000).toFixed(1)} simulated s): what held its last window. ` +
      "The explanation of the measured period starts after it."));
  }
  if (!b) {
    box.append(sentence(e.warmUp ? "Nothing has committed yet: no bottleneck to name." : "Nothing has committed since the warm-up: no bottleneck to name."));
    return box;
  }
  const { label, factor, same } = unitOf(el, i);
  // A figure with its 95% interval's half-width `h` when the explanation has one.
  const at = (tps, h) => `${fmtPm(tps, h)} transactions/s` + (same ? "" : ` (${fmtPm(tps * factor, h == null ? h : h * factor)} ${label})`);
  const iv = e.boundIntervals;
  const saturated = b.utilization >= 0.9;
  const verdict = sentence(
    (b.kind === "offered"
      ? `Held by ${b.name}: ${fmtPct(b.utilization)} of it achieved${b.utilization >= 0.97 ? ": the cluster keeps up" : ""}.`
      : `Held by ${b.name}: ${fmtPct(b.utilization)} busy, a bound of ${iv?.bound ? "" : "about "}${at(b.boundTransactionsPerSecond, iv?.bound?.halfWidth)}` +
        (saturated ? ": it sets the throughput." : " (not saturated: nothing here is at its limit yet).")),
  );
  verdict.className = "why-verdict";
  box.append(verdict);
  if (b.grantsPerSecond !== null && b.ceilingGrantsPerSecond !== null) {
    // bound = throughput / utilization and ceiling = grants / utilization: their ratio is
    // the row's grants per transaction.
    const perTxn = b.boundTransactionsPerSecond > 0 ? b.ceilingGrantsPerSecond / b.boundTransactionsPerSecond : 1;
    const share = Math.abs(perTxn - 1) < 0.02 ? ""
      : perTxn < 1 ? ` ${fmtPct(perTxn)} of transactions lock it, so its ${fmtInt(b.ceilingGrantsPerSecond)} grants/s bound ${fmtInt(b.boundTransactionsPerSecond)} transactions/s.`
        : ` Each transaction locks it ${perTxn.toFixed(1)} times, so its ${fmtInt(b.ceilingGrantsPerSecond)} grants/s bound ${fmtInt(b.boundTransactionsPerSecond)} transactions/s.`;
    // A one-server engine counts the hand-off as the row's time: PostgreSQL wakes every
    // waiter, InnoDB passes over the queue and wakes the one granted.
    const engine = b.kind === "row" ? (el.effective[i] ?? el.effective[0])?.engine : undefined;
    const handOff = { postgres: " (with its hand-off: every waiter wakes, one takes it)",
      innodb: " (with its hand-over: a pass over the queue, then the waiter granted wakes)" }[engine] ?? "";
    box.append(sentence(`Its lock is held ${fmtInt(b.holdMeanUs)} us at a time${handOff}: one holder at once allows at most ` +
      `${fmtInt(b.ceilingGrantsPerSecond)} grants/s (1 / hold), and it grants ${fmtInt(b.grantsPerSecond)}/s.${share}`));
  }
  if (e.nextCeiling) {
    const n = e.nextCeiling;
    const next = sentence(`Relieve it — ${n.relieved} — and the cluster could reach ${iv?.nextCeiling ? "" : "about "}${at(n.transactionsPerSecond, iv?.nextCeiling?.halfWidth)}, held then by ${n.heldBy}.`);
    next.className = "why-next";
    box.append(next);
  }
  if (iv) {
    const method = sentence(`${iv.bound ? "±: " : ""}${iv.method}.`);
    method.className = "why-method";
    box.append(method);
  }
  if (e.deadlocks) box.append(...deadlocks(e.deadlocks));
  box.append(resourceBars(e.resources, b, at));
  if (!compare && !asked.has(el)) box.append(askButton(el));
  const remedies = compare || !asked.has(el) ? null : remediesFor(el, e);
  if (remedies?.length) box.append(remedyButtons(el, remedies));
  return box;
}

/** Lock-wait timeouts that cost the clients a material share of their time, and the
 * lock-order cycles they led to (the explanation's `deadlocks`), in the core's words. */
function deadlocks(d) {
  const head = sentence(`Deadlocks: ${d.text}.`);
  head.className = "why-deadlocks";
  return [head, ...d.cycles.map((c) => {
    const p = sentence(`Deadlock (${fmtPct(c.share)} of the timeouts): ${c.text}.`);
    p.className = "why-cycle";
    return p;
  })];
}

/** The busiest resources as bars (the bottleneck `b`'s marked), each titled with its
 * bound in the run's unit (`at`). */
function resourceBars(resources, b, at) {
  const bars = document.createElement("div");
  bars.className = "bars why-bars";
  bars.setAttribute("role", "list");
  bars.setAttribute("aria-label", "the busiest resources");
  for (const r of grouped(resources)) {
    const row = document.createElement("div");
    row.className = "bar why-bar";
    row.setAttribute("role", "listitem");
    row.classList.toggle("hot", r.name.startsWith(b.name));
    const waits = r.blockedFraction + r.queuedFraction > 0
      ? ` (its holders waited elsewhere ${fmtPct(r.blockedFraction)} for locks or ids, ${fmtPct(r.queuedFraction)} for threads)` : "";
    row.title = `${plainName(r.name)}: ${fmtPct(r.utilization)} busy, bound ${at(r.boundTransactionsPerSecond)}${waits}`;
    const name = document.createElement("span");
    name.className = "bar-label";
    name.append(...withCode(r.name));
    const track = document.createElement("span");
    track.className = "bar-track";
    const fill = document.createElement("span");
    fill.className = "bar-fill";
    fill.style.width = `${Math.min(100, 100 * r.utilization)}%`;
    track.append(fill);
    const value = document.createElement("span");
    value.className = "bar-value";
    value.textContent = fmtPct(r.utilization);
    row.append(name, track, value);
    bars.append(row);
  }
  return bars;
}

/** "What would lift it?": the remedies' module is loaded only when a reader asks. */
function askButton(el) {
  const row = document.createElement("div");
  row.className = "why-remedies";
  const button = document.createElement("button");
  button.className = "why-ask";
  button.textContent = "What would lift it?";
  button.title = "the bottleneck's standard remedies, each a fork or a restart to try (loads their module the first time)";
  button.addEventListener("click", () => {
    asked.add(el);
    el.whyShown = null;
    drawWhy(el);
  });
  row.append(button);
  return row;
}

/** The bottleneck's standard remedies as buttons: a fork for a live field, else a restart. */
function remedyButtons(el, remedies) {
  const tries = document.createElement("div");
  tries.className = "why-remedies";
  tries.append(Object.assign(document.createElement("span"), { className: "legend-note", textContent: "What would lift it: " }));
  remedies.forEach((r, k) => {
    const live = Object.keys(r.set).every((f) => el.liveFields.includes(f));
    const button = document.createElement("button");
    button.dataset.remedy = String(k);
    button.append(...withCode(r.warning ? `${r.label} ⚠` : r.label));
    button.title = (live ? "fork here: run B takes this remedy from the moment shown, run A goes on unchanged"
      : "restart the run with this remedy (it changes the cluster or the workload, which a running simulation cannot take)") +
      (r.warning ? `. Beware: ${r.warning}` : "");
    button.addEventListener("click", () => applyRemedy(el, r, live));
    tries.append(button);
  });
  // What a remedy costs that its number will not show, said beside the buttons.
  for (const r of remedies.filter((x) => x.warning)) {
    const p = sentence(`⚠ ${r.label}: ${r.warning}.`);
    p.className = "why-warning";
    tries.append(p);
  }
  return tries;
}

/** Takes remedy `r`: a fork at the moment shown for a live field, else a restart with it. */
function applyRemedy(el, r, live) {
  const [field, value] = Object.entries(r.set)[0];
  if (live && Object.keys(r.set).length === 1) {
    el.fork(field, value).catch(() => {}); // a refused fork shows its error
    return;
  }
  const config = structuredClone(el.overrides);
  for (const [f, v] of Object.entries(r.set)) setField(config, f, v);
  el.note(`Restarted with ${r.label}.` + (r.warning ? ` Beware: ${r.warning}.` : ""));
  el.update({ config }, { restart: true });
}

/** Redraws the panel when an explanation changed. */
export function drawWhy(el) {
  const panel = el.$(".why-body");
  const list = el.explained ?? [];
  if (!panel || !list.some(Boolean)) return;
  // Rebuilt only when the worker sent a new explanation (a few times a second), not every
  // frame: the explanations are new objects then, the same ones otherwise.
  const warming = (el.latest?.nowMs ?? 0) < (el.effective[0]?.warmupMs ?? 0);
  const shown = [...list, el.runNames, el.primaryName, warming];
  if (el.whyShown?.length === shown.length && el.whyShown.every((x, i) => x === shown[i])) return;
  el.whyShown = shown;
  const compare = list.length === 2;
  panel.replaceChildren(...list.map((e, i) => (e ? section(el, e, i, compare) : sentence("…"))));
}
