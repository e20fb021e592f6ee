// Rewind and fork, the element's side: seek to a time already run, fork a branch there,
// and the timeline control that shows where the run is. The worker keeps the checkpoints
// (timeline.js); the element asks and resolves promises when the answer is shown.
import { FIELDS, compareValue } from "./state.js";
import { FIELD_LABELS } from "./controls.js";
import { request } from "./requests.js";

/**
 * Shows simulated time `ms` again (clamped to the time already run) and pauses there.
 * Resolves with the figures shown once the charts, heatmap and figures are at that time.
 */
export function seek(el, ms) {
  if (!el.worker || !el.ready) return Promise.reject(new Error("hotrow: the playground has not started yet"));
  if (!Number.isFinite(+ms)) return Promise.reject(new TypeError(`hotrow: seek needs a simulated time in ms, not ${ms}`));
  el.update({ run: { paused: true } });
  return request(el, { type: "seek", ms: Math.round(+ms) });
}

/**
 * Forks at the moment shown: run B branches from it with `field` = `value` (a live field:
 * cache size, hint, clients, think time, latency, ...), run A goes on unchanged, and both
 * are drawn in compare mode. Resolves with the figures once the branch is shown.
 */
export function fork(el, field, value) {
  if (!el.worker || !el.ready) return Promise.reject(new Error("hotrow: the playground has not started yet"));
  if (!el.liveFields.includes(String(field).split(".")[0])) {
    const text = `${FIELD_LABELS[field] ?? field} shapes the cluster, so a branch cannot differ in it from the same past; fork with one of: ${forkFields(el).join(", ")}`;
    el.showError(`Not forked: ${text}.`);
    return Promise.reject(new Error(text));
  }
  el.update({ run: { paused: true }, view: { mode: "compare" } });
  return request(el, { type: "fork", field, value });
}

/** Fields a fork can change: the live ones the URL knows. */
function forkFields(el) {
  return Object.keys(FIELDS).filter((f) => el.liveFields.includes(f.split(".")[0]));
}

export function fillForkFields(el) {
  el.$("#forkField").replaceChildren(...forkFields(el).map((f) => new Option(FIELD_LABELS[f] ?? f, f)));
  el.$("#forkField").value = "cacheSize";
}

export function showFork(el) {
  const f = el.forkInfo;
  const note = el.$(".fork-note");
  note.hidden = !f;
  if (f) note.textContent = `Run B forked at ${(f.atMs / 1000).toFixed(2)} s: ${FIELD_LABELS[f.field] ?? f.field} ${f.was} → ${f.value}. Same seed, same past.`;
  el.$(".compare-panel").hidden = el.view.mode !== "compare" || !!f;
}

export function updateTimeline(el, m) {
  const t = m.timeline;
  if (!t) return;
  const range = el.$("#timeline");
  // Nothing to rewind yet (a fork made while paused starts both runs here): the thumb at the
  // right end, where the run stands, not at the left of an empty range.
  const empty = t.frontierMs - t.startMs < 1;
  range.min = String(Math.floor(t.startMs));
  range.max = String(empty ? Math.floor(t.startMs) + 1 : Math.ceil(t.frontierMs));
  if (!el.dragging) range.value = empty ? range.max : String(Math.round(m.nowMs));
  const forkedHere = empty && el.forkInfo && Math.abs(el.forkInfo.atMs - m.nowMs) < 1;
  const text = empty
    ? `${(m.nowMs / 1000).toFixed(2)} s${forkedHere ? ", where run B forked" : ""}: nothing to rewind yet, Play runs on`
    : `${(m.nowMs / 1000).toFixed(2)} s of ${(t.frontierMs / 1000).toFixed(2)} s`;
  el.$("#timeline-out").textContent = text;
  range.setAttribute("aria-valuetext", text);
}

/**
 * A link's fork (`forkField`, `forkValue`, `forkAtMs` in `view`, a view being loaded):
 * taken out of the view, checked, and returned to replay once run A reaches its moment
 * (the view pauses there); one that cannot be replayed adds its reason to `errors`.
 */
export function forkFromView(view, errors) {
  const { forkField: field, forkValue: text, forkAtMs: atMs } = view;
  delete view.forkField;
  delete view.forkValue;
  delete view.forkAtMs;
  if (field === undefined && text === undefined && atMs === undefined) return null;
  const value = field in FIELDS ? compareValue(field, text ?? "") : undefined;
  if (value === undefined || !(atMs >= 0)) {
    errors.push(`The link's fork was ignored: ${field} = ${text} at ${atMs} ms cannot be replayed`);
    return null;
  }
  view.pauseAtMs = atMs;
  return { field, value, atMs };
}

/** Once run A has paused at a link's fork moment: shows that exact moment and forks there. */
export function replayFork(el) {
  const f = el.pendingFork;
  if (!f) return;
  el.pendingFork = null;
  seek(el, f.atMs).then(() => fork(el, f.field, f.value)).catch(() => {}); // the element shows errors
}
