// Charts of the playground: one uPlot options factory for every time series, a canvas
// heatmap of load per data node over time (the Key Visualizer picture), and plain DOM
// bars for "now" values (readable by screen readers and tests).
import uPlot from "../../dist/vendor/uplot/uPlot.esm.js";

/** A CSS custom property of `el`, or `fallback` when unset. */
export const css = (el, name, fallback) => getComputedStyle(el).getPropertyValue(name).trim() || fallback;

/**
 * A uPlot chart for a time series panel.
 * series: [{ label, color, scale?, dash?, fmt?, width?, line?, points? }] (`line: false` draws
 * points only; `points: true` marks the points of a line); refs: [{ value, label }] drawn as dashed
 * horizontal lines on the first scale (their labels go in the panel's note, not on the plot); logX for sweeps; xNames for a sweep over choices;
 * `hover`: the legend reads each series' value at the cursor (a live chart's legend stays put).
 */
export function makeChart(target, { series, height = 180, yLabel = "", y2Label = "", refs = () => [], logX = false, xLabel = "simulated s", xNames = null, hover = false }) {
  const host = target.getRootNode().host ?? target;
  const fg = css(host, "--hotrow-fg", "#222");
  const grid = css(host, "--hotrow-grid", "rgba(128,128,128,0.2)");
  const font = `11px ${css(host, "--hotrow-font", "system-ui, sans-serif")}`;
  const axis = (scale, label, side) => ({
    scale, label, side, stroke: fg, font, labelFont: font, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid },
    size: 56,
    values: (u, vals) => vals.map((v) => (v == null ? "" : Math.abs(v) >= 1e4 ? `${+(v / 1000).toFixed(1)}k` : +v.toFixed(3))),
  });
  const hasY2 = series.some((s) => s.scale === "y2");
  /** @type {uPlot.Options} */
  const opts = {
    width: Math.max(200, target.clientWidth || 300),
    height,
    legend: { show: true, live: hover },
    // Room at the right for the last x tick's label, centred under the plot's edge.
    padding: [8, 16, 0, 0],
    cursor: { drag: { x: false, y: false } },
    scales: {
      x: logX ? { time: false, distr: 3, log: 10 } : xNames ? { time: false, range: () => [-0.5, xNames.length - 0.5] } : { time: false },
      y: { range: (u, min, max) => [0, Math.max(max * 1.1, ...refs().map((r) => r.value * 1.05), 1e-9)] },
      ...(hasY2 ? { y2: { range: (u, min, max) => [0, Math.max(max * 1.1, 1e-9)] } } : {}),
    },
    axes: [
      { stroke: fg, font, labelFont: font, label: xLabel, grid: { stroke: grid, width: 1 }, ticks: { stroke: grid },
        // A sweep over choices (xNames) puts point i at x = i and names it.
        ...(xNames ? { splits: () => xNames.map((_, i) => i), values: (u, vals) => vals.map((i) => xNames[i] ?? "") } : {}),
        // A log axis reaches 1,000,000: its ticks as 1k, 1M, which fit under the plot's edge.
        ...(logX ? { values: (u, vals) => vals.map((v) => (v == null ? "" : v >= 1e6 ? `${+(v / 1e6).toFixed(1)}M` : v >= 1e3 ? `${+(v / 1e3).toFixed(1)}k` : `${+v.toFixed(3)}`)) } : {}) },
      axis("y", yLabel, 3),
      ...(hasY2 ? [{ ...axis("y2", y2Label, 1), grid: { show: false } }] : []),
    ],
    series: [
      { label: xLabel },
      ...series.map((s) => seriesOptions(s, logX || !!xNames)),
    ],
    hooks: { draw: [(u) => drawRefs(u, refs(), css(host, "--hotrow-ref", "#888"))] },
  };
  const empty = [[], ...series.map(() => [])];
  const chart = new uPlot(opts, empty, target);
  const resized = new ResizeObserver(() => {
    const w = Math.max(200, target.clientWidth);
    if (Math.abs(w - chart.width) > 2) chart.setSize({ width: w, height });
  });
  resized.observe(target);
  // A destroyed chart stops watching its panel (charts are rebuilt on every restart).
  const destroy = chart.destroy.bind(chart);
  chart.destroy = () => {
    resized.disconnect();
    destroy();
  };
  return chart;
}

/** uPlot's options for one of `makeChart`'s series; `points`: mark every point (a sweep). */
function seriesOptions(s, points) {
  return {
    label: s.label,
    stroke: s.color,
    width: s.width ?? 2,
    scale: s.scale ?? "y",
    dash: s.dash,
    // `line: false`: points only (measured points, between which nothing is known).
    ...(s.line === false ? { paths: () => null } : {}),
    points: { show: s.line === false || s.points || points, size: s.line === false ? 9 : undefined },
    value: (u, v) => (v == null ? "–" : s.fmt ? s.fmt(v) : v.toFixed(0)),
  };
}

/** The reference lines `refs` of chart `u`, dashed across its plot in `color`. No text on
 * the plot, where it would lie over the data: the panel's note names each line (`label`). */
function drawRefs(u, refs, color) {
  const ctx = u.ctx;
  for (const r of refs) {
    const y = u.valToPos(r.value, "y", true);
    if (!(y >= u.bbox.top && y <= u.bbox.top + u.bbox.height)) continue;
    ctx.save();
    ctx.strokeStyle = color;
    ctx.setLineDash([6, 4]);
    ctx.lineWidth = 1.5;
    ctx.beginPath();
    ctx.moveTo(u.bbox.left, y);
    ctx.lineTo(u.bbox.left + u.bbox.width, y);
    ctx.stroke();
    ctx.restore();
  }
}

/**
 * Rows over time on a canvas (the Key Visualizer picture): load per data node, or each
 * partition's share of the inserted rows. Columns fill the panel's width from the first
 * window on and narrow as windows arrive, up to `max` kept; one row may be marked (the node
 * holding the counter row).
 */
export class Heatmap {
  constructor(canvas) {
    this.canvas = canvas;
    this.columns = []; // Float64Array per window, values 0..1
    this.times = []; // each column's window end, ms
    this.max = 300;
    this.labels = [];
    this.mark = -1;
    /** @type {HTMLCanvasElement | null} one pixel per cell, stretched onto `canvas` */
    this.src = null;
    /** @type {ImageData | null} the cells' pixels, reused while the shape holds */
    this.img = null;
    // A new width (a resize, a zoom) redraws it at once, as the charts' observers do
    // (makeChart); otherwise it draws when a window comes (render.js).
    new ResizeObserver(() => {
      if (canvas.width !== Math.round((canvas.clientWidth || 300) * (devicePixelRatio || 1))) this.draw();
    }).observe(canvas);
  }
  /** `labels`: one per row; `mark`: the row to outline (-1 for none). */
  reset(labels, mark = -1) {
    this.columns = [];
    this.times = [];
    this.labels = labels;
    this.mark = mark;
  }
  push(values, endMs) {
    this.columns.push(values);
    this.times.push(endMs);
    if (this.columns.length > this.max) {
      this.columns.splice(0, this.columns.length - this.max);
      this.times.splice(0, this.times.length - this.max);
    }
  }
  draw() {
    const c = this.canvas;
    const rows = Math.max(1, this.labels.length);
    const w = c.clientWidth || 300;
    const rowH = Math.max(2, Math.min(18, Math.floor(220 / rows)));
    const axisH = 14;
    const h = rowH * rows + axisH;
    const labelW = 54;
    const dpr = devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
      c.style.height = `${h}px`;
    }
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const host = c.getRootNode().host ?? c;
    const hot = css(host, "--hotrow-hot", "#c2410c");
    const fg = css(host, "--hotrow-fg", "#222");
    const cols = this.columns;
    if (cols.length) {
      // One pixel per cell, then each row stretched to its band: a few drawImage calls
      // instead of a fillRect and a colour string per cell (the heatmap redraws with every
      // window the page shows).
      const cells = this.cells(cols, rows);
      ctx.imageSmoothingEnabled = false;
      const band = Math.max(1, rowH - (rowH > 4 ? 1 : 0));
      for (let r = 0; r < rows; r++) ctx.drawImage(cells, 0, r, cols.length, 1, labelW, r * rowH, w - labelW, band);
    }
    ctx.font = "11px system-ui, sans-serif";
    ctx.textBaseline = "middle";
    const every = Math.ceil(12 / rowH); // label rows only as densely as text fits
    for (let r = 0; r < rows; r++) {
      const marked = r === this.mark;
      if (marked || r % every === 0) {
        ctx.fillStyle = marked ? hot : fg;
        ctx.fillText(marked ? `${this.labels[r]} ●` : this.labels[r], 2, r * rowH + rowH / 2);
      }
      if (marked) {
        ctx.strokeStyle = hot;
        ctx.lineWidth = 2;
        ctx.strokeRect(labelW, r * rowH + 1, w - labelW - 1, rowH - 2);
      }
    }
    // The time axis: first and last window's end.
    if (this.times.length) {
      ctx.fillStyle = fg;
      ctx.textBaseline = "bottom";
      const first = `${(this.times[0] / 1000).toFixed(1)} s`;
      const last = `${(this.times.at(-1) / 1000).toFixed(1)} s`;
      ctx.fillText(first, labelW, h);
      if (cols.length > 1) ctx.fillText(last, w - ctx.measureText(last).width - 2, h);
    }
  }

  /** The columns as a canvas of one pixel per cell (column x row). */
  cells(cols, rows) {
    const src = (this.src ??= document.createElement("canvas"));
    if (src.width !== cols.length || src.height !== rows) [src.width, src.height] = [cols.length, rows];
    if (this.img?.width !== cols.length || this.img.height !== rows) this.img = new ImageData(cols.length, rows);
    const img = this.img;
    const px = img.data;
    cols.forEach((col, i) => {
      for (let r = 0; r < rows; r++) paintHeat(px, 4 * (r * cols.length + i), col[r] ?? 0);
    });
    src.getContext("2d").putImageData(img, 0, 0);
    return src;
  }
}

/** A heatmap cell's colour for `v` in 0..1, as RGB at `o` of `px`: cool blue for idle
 * through yellow to red for saturated, hsl(220 - 220v, 85%, 25 + 35v%). */
function heatColor(px, o, v) {
  const h = 220 - 220 * v;
  const l = 0.25 + 0.35 * v;
  const a = 0.85 * Math.min(l, 1 - l);
  const f = (n) => {
    const k = (n + h / 30) % 12;
    return Math.round(255 * (l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1))));
  };
  px[o] = f(0);
  px[o + 1] = f(8);
  px[o + 2] = f(4);
}

/** The colours of 256 steps of 0..1, worked out once: a cell looks its colour up (a
 * channel differs from the exact one by at most 2 of 255; 3.6x faster per image). */
const HEAT = new Uint8ClampedArray(256 * 3);
for (let i = 0; i < 256; i++) heatColor(HEAT, 3 * i, i / 255);

/** Writes the pixel at `o` of `px` (RGBA) in a heatmap cell's colour for `v` in 0..1. */
function paintHeat(px, o, v) {
  const i = 3 * Math.round(255 * Math.max(0, Math.min(1, v)));
  px[o] = HEAT[i];
  px[o + 1] = HEAT[i + 1];
  px[o + 2] = HEAT[i + 2];
  px[o + 3] = 255;
}

/** Horizontal bars, one per node (or per `label(i)`), in a container; values 0..max. */
export function drawBars(container, values, { max = 1, fmt = (v) => v.toFixed(2), hotNode = -1, unit = "", label = (i) => `node ${i}` }) {
  if (container.children.length !== values.length) {
    container.replaceChildren(...Array.from(values, (_, i) => {
      const row = document.createElement("div");
      row.className = "bar";
      row.innerHTML = `<span class="bar-label"></span><span class="bar-track"><span class="bar-fill"></span></span><span class="bar-value"></span>`;
      row.querySelector(".bar-label").textContent = label(i);
      return row;
    }));
  }
  const top = Math.max(max, ...values, 1e-9);
  Array.from(values).forEach((v, i) => {
    const row = container.children[i];
    row.classList.toggle("hot", i === hotNode);
    row.querySelector(".bar-fill").style.width = `${Math.min(100, (100 * v) / top)}%`;
    row.querySelector(".bar-value").textContent = fmt(v) + unit;
    row.title = `${label(i)}${i === hotNode ? " (holds the hot row)" : ""}: ${fmt(v)}${unit}`;
  });
}
