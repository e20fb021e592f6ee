// Fit mode's view: the user's measured points (CSV) fitted by `hotrow fit`'s session
// (fit-session.js) on the sweep pool, with progress and cancel; then the measured points,
// hotrow's fitted curve (the fitted model run over the varied field) and the USL's curve
// drawn together, each point's residual and bottleneck in a table, and the fitted values
// ready to go into the running config. The link keeps the points and the fields fitted.

import { withRunLength } from "./run-lengths.js";
import { openFit, drive, runResult } from "./fit-session.js";
import { poolOf, workersOf } from "./sweep.js";
import { makeChart, css } from "./charts.js";
import { FIELD_LABELS } from "./controls.js";
import { fmtInt, withCode, plainName } from "./format.js";
import { sweepValues, SWEEP_FIELDS } from "./modes.js";
import { setField } from "./state.js";
import { packResult, unpackResult } from "./fit-link.js";
import { REPORTED } from "./bug-report.js";

/** The points the Fit mode opens with: the bug report's two DBT2 measurements. */
const FIT_EXAMPLE = `# MySQL Bug #39267: DBT2 on 8 data nodes, as the bug report measured it
dataNodes,cacheSize,tpm
8,1,${REPORTED.cacheOneTpm}
8,1000,${REPORTED.cacheThousandTpm}
`;
/** The fields it fits by default: two points leave room for one. */
const FIT_FIELDS = "cpu.scale";

/** The base config of a fit: the running settings, each run as long as `RUN_LENGTHS.fit`. */
const fitBase = (overrides) => withRunLength(overrides, "fit");

/** Each element's fit or prediction under way: its cancel. A cancel while the fit's module
 * loads, or between two rounds of runs (when the pool has no workers), must stop it too. */
const underWay = new WeakMap();

/** Cancels the element's fit or prediction, whichever runs. */
export function cancelFit(el) {
  underWay.get(el)?.abort();
  el.pool?.cancel();
}

/** Starts one fit or prediction: the signal its cancel raises. */
function start(el) {
  const abort = new AbortController();
  underWay.set(el, abort);
  return abort.signal;
}

/** Runs `configs` on the element's pool for `signal`'s fit; null when cancelled. */
async function runOn(el, signal, configs, metric, used) {
  if (signal.aborted) return null;
  used.workers = workersOf(el, configs.length);
  const results = await poolOf(el).run({ values: configs.map((_, i) => i), configs, workers: used.workers }, () => {});
  return results && !signal.aborted ? results.map((r) => runResult(r, metric)) : null;
}

/** Fills the Fit panel's inputs from the view (a link's points) or the example. */
export function showFitInputs(el) {
  el.$("#fitPoints").value = el.view.fitPoints ?? FIT_EXAMPLE;
  el.$("#fitFields").value = el.view.fitFields ?? FIT_FIELDS;
  const text = el.view.fitResult;
  if (text && reopened.get(el) !== text) {
    reopened.set(el, text);
    reopenFit(el);
  }
}

/** The link result each element last reopened (so that it opens once). */
const reopened = new WeakMap();

const buttons = (el, running) => {
  el.$(".fit-run").disabled = running;
  el.$(".fit-cancel").disabled = !running;
  el.$(".fit-apply").disabled = running || !el.lastFit;
  // A prediction needs a fit over one varied field, and its session kept open.
  const predictable = !running && !!el.fitted?.grid.field;
  el.$(".fit-predict").disabled = !predictable;
  el.$("#fitPredict").disabled = !predictable;
};

/** Fits the points in the panel on the element's settings, on its pool. */
export async function runFit(el) {
  const csv = el.$("#fitPoints").value;
  const fields = el.$("#fitFields").value.split(",").map((s) => s.trim()).filter(Boolean);
  el.update({ view: { fitPoints: csv, fitFields: fields.join(","), fitResult: undefined } }); // the link keeps them
  el.showError("");
  el.lastFit = null;
  el.fitted?.session.free();
  el.fitted = null;
  el.$(".fit-prediction").textContent = "";
  buttons(el, true);
  el.$(".fit-progress").value = 0;
  el.$(".fit-status").textContent = "Loading the fit…";
  let session = null;
  const t0 = performance.now();
  const signal = start(el);
  try {
    session = await openFit(fitBase(el.overrides), csv, { fit: fields });
    const metric = session.metric;
    const used = { workers: 1 };
    const run = (configs) => runOn(el, signal, configs, metric, used);
    el.$(".fit-status").textContent = `Fitting ${fields.join(", ")}: the first runs…`;
    const fit = await drive(session, run, (p) => progress(el, fields, p));
    if (!fit) {
      el.$(".fit-status").textContent = "Fit cancelled.";
      return;
    }
    const fitted = { fit, predictions: [], seconds: 0, workers: used.workers };
    el.lastFit = fitted;
    showFit(el, fit);
    drawFit(el, fit, []);
    const grid = predictionGrid(el, fit);
    if (grid) {
      el.$(".fit-status").textContent = `Fitted; now hotrow's curve with the fitted values: ${grid.values.length} runs…`;
      const results = await run(session.predictionConfigs(grid.lists));
      if (!results) {
        el.$(".fit-status").textContent = "Curve cancelled (the fit stands).";
        return;
      }
      fitted.predictions = session.predictions(results);
      drawFit(el, fit, fitted.predictions);
    }
    if (grid) {
      // Kept open for "predict at" (freed by the next fit).
      el.fitted = { session, grid, metric };
      session = null;
      el.$(".fit-predict-field").textContent = grid.field;
      el.$("#fitPredict").value = String(2 * Math.max(...fit.points.map((p) => p.values[grid.field]))); // twice the last measured
    }
    fitted.seconds = (performance.now() - t0) / 1000;
    el.$(".fit-progress").value = 1;
    el.$(".fit-status").textContent = `Fitted in ${fitted.seconds.toFixed(1)} s on ${used.workers} worker${used.workers > 1 ? "s" : ""}: ${fit.iterations} iterations, ${fit.evaluations} parameter sets, ${fit.runs} runs; ${fit.stop}.`;
    packResult(el, fitted).catch(() => {}); // the link then refits
    el.host.dispatchEvent(new CustomEvent("hotrow-fitdone", { detail: fitted, bubbles: true, composed: true }));
  } catch (e) {
    el.$(".fit-status").textContent = "";
    el.showError(`The fit stopped: ${e?.message ?? e}`);
  } finally {
    session?.free();
    buttons(el, false);
  }
}

/**
 * Opens the fit a link carries (`view.fitResult`) without searching again: the fit's module
 * takes it back for the link's points and fields (refusing another's), the table, the chart
 * and "predict at" come back as they were. A result that cannot be read is said, and Fit
 * refits.
 */
async function reopenFit(el) {
  const text = el.view.fitResult;
  const fields = (el.view.fitFields ?? FIT_FIELDS).split(",").filter(Boolean);
  let session = null;
  try {
    const { fit, predictions } = await unpackResult(text);
    session = await openFit(fitBase(el.overrides), el.view.fitPoints ?? FIT_EXAMPLE, { fit: fields });
    session.reopen(fit);
    if (el.view.fitResult !== text) return; // refitted meanwhile
    el.lastFit = { fit, predictions, seconds: 0, workers: 0 };
    showFit(el, fit);
    drawFit(el, fit, predictions);
    const field = variedField(fit);
    el.fitted?.session.free();
    el.fitted = null;
    if (field && predictions.length) {
      const lists = { [field]: predictions.map((p) => p.values[field]) };
      for (const [k, v] of Object.entries(fit.points[0].values)) if (k !== field) lists[k] = [v];
      el.fitted = { session, grid: { field, lists }, metric: session.metric };
      session = null;
      el.$(".fit-predict-field").textContent = field;
      el.$("#fitPredict").value = String(2 * Math.max(...fit.points.map((p) => p.values[field])));
    }
    el.$(".fit-progress").value = 1;
    el.$(".fit-status").textContent = `Reopened from the link (not refitted): ${fit.iterations} iterations, ${fit.evaluations} parameter sets, ${fit.runs} runs; ${fit.stop}. Press Fit to fit again.`;
  } catch (e) {
    el.update({ view: { fitResult: undefined } });
    el.note(`The fit's result in the link was not reopened (${e?.message ?? e}); press Fit to fit the points again.`);
  } finally {
    session?.free();
    buttons(el, false);
  }
}

/** "Predict at": the fitted model run at one value of the varied field (the CLI's
 * `--predict`), its value said beside the USL's and what would hold it. */
export async function predictFit(el) {
  const f = el.fitted;
  const value = Number(el.$("#fitPredict").value);
  const kind = el.fieldTable.find((k) => k.name === f?.grid.field)?.kind;
  if (!f || !Number.isFinite(value) || (kind && (value < kind.min || value > kind.max))) {
    el.showError(`Predict at: ${f?.grid.field ?? "the field"} must be a number${kind ? ` from ${kind.min} to ${kind.max}` : ""}.`);
    return;
  }
  el.showError("");
  buttons(el, true);
  const out = el.$(".fit-prediction");
  out.textContent = `Running the fitted model at ${f.grid.field} = ${value}…`;
  try {
    const lists = { ...f.grid.lists, [f.grid.field]: [kind?.type === "int" ? Math.round(value) : value] };
    const results = await runOn(el, start(el), f.session.predictionConfigs(lists), f.metric, {});
    if (!results) {
      out.textContent = "Prediction cancelled.";
      return;
    }
    const [p] = f.session.predictions(results);
    const label = el.metricTable?.find((m) => m.name === f.metric)?.label ?? f.metric;
    out.dataset.value = String(p.simulated);
    out.textContent = `At ${f.grid.field} = ${p.values[f.grid.field]}: hotrow fitted ${fmtInt(p.simulated)} ${label}` +
      (p.usl ? `, the USL ${fmtInt(p.usl)}` : "") + (p.bottleneck ? `; held by ${plainName(p.bottleneck)}.` : ".");
  } catch (e) {
    out.textContent = "";
    el.showError(`The prediction stopped: ${e?.message ?? e}`);
  } finally {
    buttons(el, false);
  }
}

/** The search so far: its iteration, the best values and their error. */
function progress(el, fields, p) {
  if (!p) return;
  el.$(".fit-progress").value = Math.min(0.95, p.iteration / Math.max(1, Math.min(p.maxIterations, 25)));
  const values = fields.map((f, i) => `${f} ${+p.values[i].toPrecision(4)}`).join(", ");
  el.$(".fit-status").textContent = `Iteration ${p.iteration} (at most ${p.maxIterations}): ${values}; rms error ${(100 * p.rmsRelativeError).toFixed(2)}% (${p.runs} runs)`;
}

/** Puts the fitted values into the running config and runs it live. */
export function applyFit(el) {
  const fit = el.lastFit?.fit;
  if (!fit) return;
  const config = structuredClone(el.overrides);
  for (const f of fit.fitted) setField(config, f.field, f.estimate.value);
  const said = fit.fitted.map((f) => `${f.field} = ${+f.estimate.value.toPrecision(4)}`).join(", ");
  el.update({ config, view: { mode: "live" } }, { restart: true });
  el.note(`The fitted values are in the running config: ${said}. Running live from time 0 (Fit keeps the points).`);
}

/** The one field the points vary (the chart's x), or null when they vary none or several. */
function variedField(fit) {
  const names = Object.keys(fit.points[0]?.values ?? {});
  const varied = names.filter((n) => new Set(fit.points.map((p) => JSON.stringify(p.values[n]))).size > 1);
  return varied.length === 1 && fit.points.every((p) => typeof p.values[varied[0]] === "number") ? varied[0] : null;
}

/** A field drawn on a log axis: the sweep's log fields, or values spread over 20x or more. */
const logAxis = (field, xs) => field === "cacheSize" || field === "arrivalRatePerApiNode" || Math.max(...xs) / Math.max(1e-9, Math.min(...xs)) >= 20;

/**
 * The grid hotrow's curve runs over: the measured values of the varied field and the
 * sweep's values between them and up to twice the largest (or the midpoints between the
 * measured values), every other measured field at its one value. Null when the points vary
 * no numeric field, or several.
 */
function predictionGrid(el, fit) {
  const field = variedField(fit);
  if (!field) return null;
  const xs = fit.points.map((p) => p.values[field]);
  const [lo, hi] = [Math.min(...xs), Math.max(...xs)];
  const kind = el.fieldTable.find((f) => f.name === field)?.kind;
  let more;
  if (SWEEP_FIELDS.some(([f]) => f === field)) {
    const c = structuredClone(el.effective[0] ?? el.overrides);
    for (const [k, v] of Object.entries(fit.points[0].values)) if (k !== field) setField(c, k, v);
    more = sweepValues(field, { replicas: 2, ...c }, el.fieldTable).filter((v) => v >= lo && v <= 2 * hi);
  } else {
    const sorted = [...new Set(xs)].sort((a, b) => a - b);
    more = sorted.slice(1).map((b, i) => (logAxis(field, xs) ? Math.sqrt(sorted[i] * b) : (sorted[i] + b) / 2));
    if (kind?.type === "int") more = more.map(Math.round);
  }
  const values = [...new Set([...xs, ...more])].filter((v) => !kind || (v >= kind.min && v <= kind.max)).sort((a, b) => a - b);
  const lists = { [field]: values };
  for (const [k, v] of Object.entries(fit.points[0].values)) if (k !== field) lists[k] = [v];
  return { field, values, lists };
}

const pct2 = (v) => `${(100 * v).toFixed(2)}%`;

/** The fitted values and every point's residual and bottleneck. */
function showFit(el, fit) {
  const cell = (text, tag = "td") => {
    const c = document.createElement(tag);
    c.append(...withCode(String(text)));
    if (tag === "th") c.setAttribute("scope", "row");
    return c;
  };
  const num = (v) => (Math.abs(v) >= 1e4 ? fmtInt(v) : String(+v.toPrecision(4)));
  el.$(".fit-values tbody").replaceChildren(...fit.fitted.map((f) => {
    const tr = document.createElement("tr");
    const e = f.estimate;
    tr.append(cell(`${FIELD_LABELS[f.field] ?? f.field} (${f.field})`, "th"), cell(num(f.start)), cell(num(e.value)),
      cell(e.low != null ? `${num(e.low)} .. ${num(e.high)}` : "–"));
    return tr;
  }));
  const metric = el.metricTable?.find((m) => m.name === fit.metric)?.label ?? fit.metric;
  el.$(".fit-metric").textContent = metric;
  el.$(".fit-points tbody").replaceChildren(...fit.points.map((p) => {
    const tr = document.createElement("tr");
    tr.append(cell(Object.entries(p.values).map(([k, v]) => `${k} ${v}`).join(", "), "th"), cell(num(p.measured)), cell(num(p.simulated)),
      cell(`${p.residual >= 0 ? "+" : ""}${(100 * p.residual).toFixed(1)}%`), cell(p.bottleneck ?? "nothing committed"));
    return tr;
  }));
  const coef = (e, fmt) => `${fmt(e.value)}${e.low != null ? ` (${fmt(e.low)} .. ${fmt(e.high)})` : ""}`;
  const small = (v) => String(+v.toPrecision(3));
  const u = fit.usl;
  const usl = u
    ? `USL over ${u.field} (a curve with no mechanism, fitted to the same points): σ ${coef(u.sigma, small)}, κ ${coef(u.kappa, small)}, λ ${coef(u.lambda, num)}${u.peak ? `; peak ${num(u.peak.x)} at ${u.field} ${+u.peak.n.toFixed(1)}` : "; no peak within reach (κ ~ 0)"}; rms error ${pct2(u.rmsRelativeError)}.`
    : `No USL: ${fit.uslNote?.replace(/^USL: /, "") ?? "–"}.`;
  el.$(".fit-notes").textContent = [`rms relative error ${pct2(fit.rmsRelativeError)}.`, fit.intervalNote ? `${fit.intervalNote}.` : "", usl].filter(Boolean).join(" ");
}

/**
 * The chart: the measured points, hotrow's value at each of them and over the grid (a line),
 * and the USL's curve when there is one, over the varied field; by point number when the
 * points vary no single numeric field.
 */
function drawFit(el, fit, predictions) {
  const field = variedField(fit);
  const metric = el.metricTable?.find((m) => m.name === fit.metric)?.label ?? fit.metric;
  const byPoint = !field;
  const xOf = (values, i) => (byPoint ? i : values[field]);
  const rows = new Map();
  const at = (x) => rows.get(x) ?? rows.set(x, { measured: null, hotrow: null, usl: null }).get(x);
  fit.points.forEach((p, i) => Object.assign(at(xOf(p.values, i)), { measured: p.measured, hotrow: p.simulated }));
  for (const p of predictions) Object.assign(at(p.values[field]), { hotrow: p.simulated, usl: p.usl ?? null });
  const xs = [...rows.keys()].sort((a, b) => a - b);
  const col = (k) => xs.map((x) => rows.get(x)[k]);
  const hasUsl = xs.some((x) => rows.get(x).usl !== null);
  const label = byPoint ? "measured point" : (FIELD_LABELS[field] ?? field);
  el.$(".fit-axis").textContent = `${metric} against ${label}`;
  el.fitChart?.destroy();
  el.fitChart = makeChart(el.$(".fit-chart"), {
    series: [
      { label: `measured ${metric}`, color: css(el.host, "--hotrow-hot", "#c2410c"), line: false, fmt: fmtInt },
      { label: "hotrow, fitted", color: css(el.host, "--hotrow-accent", "#2563eb"), points: true, fmt: fmtInt },
      ...(hasUsl ? [{ label: "USL", color: css(el.host, "--hotrow-fg", "#222"), dash: [4, 4], width: 1.5, fmt: fmtInt }] : []),
    ],
    height: 240, hover: true, logX: !byPoint && logAxis(field, xs), xLabel: label, yLabel: metric,
    xNames: byPoint ? fit.points.map((_, i) => String(i + 1)) : null,
  });
  el.fitChart.setData([xs, col("measured"), col("hotrow"), ...(hasUsl ? [col("usl")] : [])]);
  el.$(".fit-chart-note").textContent = byPoint
    ? "The points vary more than one field (or none that is a number): each is drawn at its number in the table."
    : `hotrow's line: the fitted model run at every measured ${field} and between (${predictions.length ? "each a 1 s run" : "curve to come"}); its value at a measured point is the table's.`;
}


