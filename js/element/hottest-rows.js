// The live view's hottest-rows table: the latest window's hottest rows, each with its lock's
// busy share, its waits and who waits for whom.
import { fmtInt, fmtPct, fmtUs } from "./format.js";

/** The hottest rows of the latest window as table rows (rebuilt only when they change). */
export function drawHottestRows(body, rows) {
  if (!body) return;
  const whom = (r) => r.waits.slice(0, 2).map((w) => `${w.waiter} waits for ${w.holder} (${fmtPct(w.share)})`).join("; ");
  const cells = rows.map((r) => [r.table, r.counterOf ? `counter of ${r.counterOf}` : String(r.key), fmtPct(r.lockBusyFraction), fmtInt(r.waitsPerSecond),
    r.meanWaiters.toFixed(r.meanWaiters < 10 ? 2 : 0), fmtUs(r.meanWaitUs), whom(r)]);
  const text = JSON.stringify(cells);
  if (body.dataset.rows === text) return;
  body.dataset.rows = text;
  if (!cells.length) {
    const tr = document.createElement("tr");
    const td = document.createElement("td");
    td.colSpan = 7;
    td.className = "legend-note";
    td.textContent = "no row locked twice in the last window";
    tr.append(td);
    body.replaceChildren(tr);
    return;
  }
  body.replaceChildren(...cells.map((c) => {
    const tr = document.createElement("tr");
    for (const v of c) {
      const td = document.createElement("td");
      td.textContent = v;
      tr.append(td);
    }
    return tr;
  }));
}
