// Taking results away: the windows as CSV (the columns of `hotrow run --csv`, written by the
// core), the summary as JSON (the object of `hotrow run --json`), the report as one HTML
// file with no script (js/report.js: `hotrow report`'s bytes for a finished run), each chart
// as PNG. The worker hands over the data; the page saves it as a file.
import { request } from "./requests.js";
import { DEFAULT_PRESET } from "./state.js";

/** Saves `blob` as a download named `name` (an object URL on a link, freed after). */
function save(el, blob, name) {
  const a = document.createElement("a");
  a.href = URL.createObjectURL(blob);
  a.download = name;
  a.hidden = true;
  el.shadowRoot.append(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(a.href), 10_000);
}

/** A file name for run `i` of the element's runs: preset, seed, time, and A/B in compare mode. */
function fileName(el, i, ext) {
  const c = el.effective[i] ?? {};
  const preset = el.overrides.preset ?? DEFAULT_PRESET;
  const run = el.effective.length === 2 ? `-${"AB"[i]}` : "";
  const ms = Math.round(el.latest?.nowMs ?? 0);
  return `hotrow-${preset}-seed${c.seed ?? 1}-${ms}ms${run}.${ext}`;
}

/** Asks the worker for the runs' data and saves each run's CSV or JSON. */
export function downloadData(el, kind) {
  if (!el.worker) return;
  request(el, { type: "export" }).then((runs) => {
    runs.forEach((r, i) => {
      const blob = kind === "csv"
        ? new Blob([r.csv], { type: "text/csv" })
        : new Blob([JSON.stringify(r.summary, null, 2) + "\n"], { type: "application/json" });
      save(el, blob, fileName(el, i, kind));
    });
    el.note(`Downloaded ${runs.length === 2 ? "both runs'" : "the"} ${kind === "csv" ? "windows as CSV" : "summary as JSON"}.`);
  }, () => {}); // a worker gone before answering: nothing to save
}

/** Asks the worker for the runs' data and saves each run's report, written by the report's
 * own WebAssembly module (loaded at the first report). */
export function downloadReport(el) {
  if (!el.worker) return;
  request(el, { type: "export" }).then(async (runs) => {
    const { reportOf } = await import("../report.js");
    for (const [i, r] of runs.entries()) {
      const html = await reportOf(r.summary, r.csv);
      save(el, new Blob([html], { type: "text/html" }), fileName(el, i, "html"));
    }
    el.note(`Downloaded ${runs.length === 2 ? "both runs' reports" : "the run's report"}: one HTML file each, no script, its figures inline.`);
  }, () => {}).catch((e) => el.note(`The report could not be written: ${e.message}`));
}

/** Saves chart `name` (an uPlot on the element) as a PNG. */
export function downloadChart(el, name) {
  const chart = el[name];
  if (!chart) return;
  const what = name.replace(/Chart$/, "");
  chart.ctx.canvas.toBlob((blob) => blob && save(el, blob, fileName(el, 0, "png").replace(/\.png$/, `-${what}.png`)), "image/png");
}
