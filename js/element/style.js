// The playground's CSS, scoped by its Shadow DOM. Themes through CSS variables
// (--hotrow-bg, --hotrow-fg, --hotrow-accent, --hotrow-hot, --hotrow-font, ...), light and
// dark, following prefers-color-scheme unless the `theme` attribute says otherwise.
export const STYLE = `
:host { --hotrow-bg: #ffffff; --hotrow-fg: #1d2230; --hotrow-muted: #5b6275; --hotrow-panel: #f4f6fa;
  --hotrow-border: #d5dae4; --hotrow-accent: #2563eb; --hotrow-accent2: #0b7a5c; --hotrow-hot: #c2410c; --hotrow-hot2: #9333ea; --hotrow-on-accent: #ffffff;
  --hotrow-ref: #8a6d00; --hotrow-grid: rgba(120,130,150,0.25); --hotrow-font: system-ui, -apple-system, "Segoe UI", sans-serif;
  display: block; color: var(--hotrow-fg); background: var(--hotrow-bg); font: 14px/1.45 var(--hotrow-font);
  border: 1px solid var(--hotrow-border); border-radius: 8px; padding: 12px; box-sizing: border-box; container-type: inline-size; }
:host([theme="dark"]) { --hotrow-bg: #141821; --hotrow-fg: #e6e9f0; --hotrow-muted: #9aa3b5; --hotrow-panel: #1d2330;
  --hotrow-border: #343c4d; --hotrow-accent: #6ea0ff; --hotrow-accent2: #34d3a2; --hotrow-hot: #ff7a50; --hotrow-hot2: #c084fc; --hotrow-ref: #e0c060; --hotrow-on-accent: #10131a;
  --hotrow-grid: rgba(160,170,190,0.18); }
@media (prefers-color-scheme: dark) { :host(:not([theme="light"])) { --hotrow-bg: #141821; --hotrow-fg: #e6e9f0;
  --hotrow-muted: #9aa3b5; --hotrow-panel: #1d2330; --hotrow-border: #343c4d; --hotrow-accent: #6ea0ff; --hotrow-accent2: #34d3a2;
  --hotrow-hot: #ff7a50; --hotrow-hot2: #c084fc; --hotrow-on-accent: #10131a; --hotrow-ref: #e0c060; --hotrow-grid: rgba(160,170,190,0.18); } }
* { box-sizing: border-box; }
h2, h3 { margin: 0 0 6px; font-size: 15px; }
h3 { font-size: 13px; color: var(--hotrow-muted); font-weight: 600; }
.panel h3 .dl-png { font-size: 0.75em; padding: 0 6px; margin-left: 6px; vertical-align: middle; }
.strategies-table, .sweep-table, .fit-values, .fit-points { border-collapse: collapse; width: 100%; margin: 8px 0; font-variant-numeric: tabular-nums; }
.strategies-table caption { text-align: left; color: var(--hotrow-muted); padding-bottom: 4px; }
.strategies-table th, .strategies-table td, .sweep-table th, .sweep-table td, .fit-values th, .fit-values td, .fit-points th, .fit-points td { border-bottom: 1px solid var(--hotrow-border); padding: 3px 6px; text-align: right; }
.strategies-table th[scope="row"], .strategies-table thead th:first-child, .sweep-table th[scope="row"], .sweep-table thead th:first-child,
.fit-values th[scope="row"], .fit-values thead th:first-child, .fit-points th[scope="row"], .fit-points thead th:first-child, .fit-points td:last-child { text-align: left; }
.strategies-table tr.best th, .strategies-table tr.best td { font-weight: 600; }
.strategies-table td.held-by, .strategies-table thead th:last-child { text-align: left; min-width: 14em; }
.strategies-table td.folded { text-align: left; color: var(--hotrow-muted); min-width: 12em; }
.scatter { width: 100%; height: auto; display: block; }
.scatter .axis { stroke: var(--hotrow-border); }
.scatter .tick, .scatter .axis-label, .scatter .point-label { fill: var(--hotrow-muted); font-size: 11px; }
.scatter .point circle { fill: var(--hotrow-accent); }
.scatter .point.best circle { fill: var(--hotrow-hot); }
.scatter .point.best .point-label { fill: var(--hotrow-fg); font-weight: 600; }
.keys-help { border: 1px solid var(--hotrow-border); border-radius: 6px; background: var(--hotrow-panel); padding: 8px 12px; margin: 6px 0; }
.keys-help h3 { margin: 0 0 4px; font-size: 1em; }
.keys-help dl { display: grid; grid-template-columns: max-content 1fr; gap: 2px 12px; margin: 6px 0; }
.keys-help dt, .keys-help dd { margin: 0; }
.keys-help kbd { font: inherit; border: 1px solid var(--hotrow-border); border-radius: 3px; padding: 0 5px; background: var(--hotrow-bg); }
:host(:focus-visible) { outline: 2px solid var(--hotrow-accent); outline-offset: 2px; }
.figures { display: grid; grid-template-columns: repeat(auto-fit, minmax(130px, 1fr)); gap: 8px; margin-bottom: 10px; }
.figure { background: var(--hotrow-panel); border-radius: 6px; padding: 6px 10px; min-width: 0; }
.figure .label { font-size: 12px; color: var(--hotrow-muted); }
.figure .value { font-size: 20px; font-weight: 650; font-variant-numeric: tabular-nums; white-space: nowrap; }
.figure.hot .value { color: var(--hotrow-hot); }
.row { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin: 6px 0; }
button, select, input { font: inherit; color: inherit; }
button { background: var(--hotrow-panel); border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 4px 10px; cursor: pointer; }
button[aria-pressed="true"], button.primary { background: var(--hotrow-accent); color: var(--hotrow-on-accent); border-color: var(--hotrow-accent); }
button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--hotrow-accent); outline-offset: 2px; }
select, input[type="number"] { background: var(--hotrow-bg); border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 3px 6px; max-width: 100%; }
input[type="number"] { width: 7em; }
.controls { display: grid; grid-template-columns: repeat(auto-fit, minmax(250px, 1fr)); gap: 8px 16px; background: var(--hotrow-panel);
  border-radius: 6px; padding: 10px; margin: 8px 0; }
.control { display: grid; gap: 2px; min-width: 0; align-content: start; }
.controls select { width: 100%; }
.control label { font-weight: 600; font-size: 13px; }
.control .hint { font-size: 12px; color: var(--hotrow-muted); }
.control .inline { display: flex; gap: 8px; align-items: center; }
.control input[type="range"] { flex: 1; min-width: 0; accent-color: var(--hotrow-accent); }
.control output { font-variant-numeric: tabular-nums; min-width: 5.5em; text-align: right; }
.live-tag { font-size: 11px; color: var(--hotrow-accent2); font-weight: 600; }
.restart-tag { font-size: 11px; color: var(--hotrow-muted); }
.panels { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 12px; }
.panel { min-width: 0; border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 8px; }
.chart { width: 100%; min-width: 0; overflow: hidden; }
canvas.heatmap { width: 100%; display: block; }
.cluster-panel { grid-column: 1 / -1; }
canvas.cluster { width: 100%; height: 250px; display: block; }
.key-api { color: var(--hotrow-accent); font-weight: 600; }
.key-lqh { color: var(--hotrow-accent2); font-weight: 600; }
.key-alloc { color: var(--hotrow-hot); font-weight: 600; }
.bars { display: grid; gap: 2px; font-size: 12px; }
.hottest-panel { min-width: 0; }
/* A table wider than its panel scrolls sideways in its box, never widening the page; a shadow
   at an edge says there is more that way (the shadows scroll, their covers stay with the content). */
.table-scroll { overflow-x: auto; max-width: 100%;
  background: linear-gradient(to right, var(--hotrow-bg) 30%, transparent) left / 24px 100% no-repeat local,
    linear-gradient(to left, var(--hotrow-bg) 30%, transparent) right / 24px 100% no-repeat local,
    radial-gradient(farthest-side at 0 50%, rgba(0, 0, 0, 0.28), transparent) left / 10px 100% no-repeat scroll,
    radial-gradient(farthest-side at 100% 50%, rgba(0, 0, 0, 0.28), transparent) right / 10px 100% no-repeat scroll; }
.why-panel { grid-column: 1 / -1; }
.why-body { display: grid; grid-template-columns: repeat(auto-fit, minmax(min(100%, 420px), 1fr)); gap: 12px; }
.why-body p { margin: 4px 0; }
.why-verdict { font-weight: 600; }
.why-deadlocks { font-weight: 600; color: var(--hotrow-hot); }
.why-method { font-size: 12px; color: var(--hotrow-muted); }
.why-warning { font-size: 0.9em; margin: 0.3em 0 0; flex-basis: 100%; }
.why-run h4 { margin: 0 0 4px; }
.why-bars .why-bar { grid-template-columns: minmax(10em, 1.6fr) 1fr 3.5em; }
.why-bar .bar-label { overflow-wrap: anywhere; } /* a long resource name wraps, never cut */
.why-bar.hot .bar-fill { background: var(--hotrow-hot); }
.why-remedies { display: flex; flex-wrap: wrap; gap: 6px; align-items: center; margin-top: 6px; }
.spec-tabs { display: flex; gap: 2px; margin: 4px 0; }
.spec-tab[aria-selected="true"] { background: var(--hotrow-accent); color: var(--hotrow-on-accent); border-color: var(--hotrow-accent); }
.sql-assumptions ol { margin: 4px 0; padding-left: 20px; font: 12px ui-monospace, monospace; max-height: 220px; overflow: auto; }
.sql-assumptions li { overflow-wrap: anywhere; }
.sql-options { flex-wrap: wrap; margin: 4px 0; }
.sql-options select { flex: 1 1 14em; min-width: 0; max-width: 100%; }
.sql-name { display: flex; gap: 8px; align-items: center; flex: 0 1 14em; }
.sql-name input { flex: 1 1 auto; min-width: 6em; }
.spec-editor textarea, #fitPoints { width: 100%; box-sizing: border-box; font: 12px ui-monospace, monospace; }
.fit-points-control { grid-column: span 2; }
#fitFields { width: 100%; box-sizing: border-box; }
.fit-status { display: block; min-height: 1.4em; }
.spec-editor .spec-status { display: block; font-size: 12px; white-space: pre-wrap; }
.spec-editor .error-text { color: var(--hotrow-hot, #c0392b); }
table.hottest { width: 100%; border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; }
table.hottest th, table.hottest td { text-align: right; padding: 1px 6px; border-bottom: 1px solid var(--hotrow-border); }
table.hottest th:first-child, table.hottest td:first-child { text-align: left; }
table.hottest td:last-child { min-width: 18em; text-align: left; }
.bar { display: grid; grid-template-columns: 4.5em 1fr 5em; gap: 6px; align-items: center; }
.bars-strategies .bar { grid-template-columns: minmax(8em, 18em) 1fr 5em; }
.bar-track { height: 10px; background: var(--hotrow-bg); border: 1px solid var(--hotrow-border); border-radius: 3px; overflow: hidden; }
.bar-fill { display: block; height: 100%; background: var(--hotrow-accent); }
.bar.hot .bar-fill { background: var(--hotrow-hot); }
.bar.hot .bar-label { color: var(--hotrow-hot); font-weight: 700; }
.bar-value { text-align: right; font-variant-numeric: tabular-nums; }
.notice { min-height: 1.4em; color: var(--hotrow-muted); font-size: 13px; }
.error { display: none; border: 1px solid var(--hotrow-hot); color: var(--hotrow-fg); background: color-mix(in srgb, var(--hotrow-hot) 12%, transparent);
  border-radius: 6px; padding: 6px 10px; margin: 6px 0; }
.error.shown { display: block; }
.tabs { display: flex; gap: 4px; flex-wrap: wrap; }
.explain { background: var(--hotrow-panel); border-radius: 6px; padding: 8px 12px; margin-top: 12px; }
.explain p { margin: 6px 0; }
.meter { font-size: 12px; color: var(--hotrow-muted); font-variant-numeric: tabular-nums; }
progress { width: 100%; }
.timeline-row #timeline { flex: 1 1 240px; min-width: 120px; accent-color: var(--hotrow-accent); }
.timeline-row output { font-variant-numeric: tabular-nums; min-width: 9em; }
.fork-form { display: inline-flex; gap: 6px; align-items: center; flex-wrap: wrap; }
.fork-form input { width: 6em; background: var(--hotrow-bg); border: 1px solid var(--hotrow-border); border-radius: 6px; padding: 3px 6px; }
.legend-note { font-size: 12px; color: var(--hotrow-muted); }
[hidden] { display: none !important; }
:host([touring]) .controls .control:not(.tour-show), :host([touring]) .faults, :host([touring]) .fork-form,
:host([touring]) .tabs, :host([touring]) .tour-start, :host([touring]) .compare-panel { display: none !important; }
:host([compact]:not([touring])) .full-only { display: none !important; }
.compact-only { display: none; }
:host([compact]) .compact-only { display: revert; }
/* a static figure stands in for the live parts until the module is ready (and for good when it never is) */
.fallback:not([hidden]) ~ :not(.error) { display: none !important; }
/* figure: the headline figures and the throughput chart alone, a few hundred pixels tall */
:host([figure]) .row, :host([figure]) .controls, :host([figure]) .notice, :host([figure]) .timeline-row, :host([figure]) .meter,
:host([figure]) .explain, :host([figure]) .keys-help, :host([figure]) .dl-png, :host([figure]) .full-only, :host([figure]) .compact-only,
:host([figure]) .panels:not(.live-first), :host([figure]) .live-first > .panel:not(:first-child) { display: none !important; }
:host([figure]) .live-first { display: block; }
:host([figure]) .live-first > .panel { border: 0; padding: 0; }
/* print: the figures as they are now, no control, no panel split across a page */
@media print {
  :host { border: 0; padding: 0; }
  .row[role="toolbar"], .controls, .faults, .timeline-row, .keys-help, .notice, .dl-png, .fork-form, .spec-editor,
  .strategies-panel > .row, .sweep-panel > .row, .fit-panel > .row, .fit-panel > .controls, progress, .why-remedies,
  .tour, .tour-start { display: none !important; }
  .panel, .figures, .figure, .explain p, .why-body > *, table tr { break-inside: avoid; }
  h2, h3 { break-after: avoid; }
  .panels { display: block; }
  .panel { margin: 0 0 10px; }
  .uplot, .u-wrap { width: 100% !important; height: auto !important; }
  canvas { width: 100% !important; height: auto !important; } /* the bitmap drawn on screen, scaled to the page */
  .u-wrap canvas { position: static; }
  .u-over, .u-under { display: none; }
}
@container (max-width: 480px) { .figure .value { font-size: 17px; } .controls { grid-template-columns: 1fr; } }
.controls .control.wide { grid-column: span 2; }
.controls .control:has(.spec-editor[open]) { grid-column: 1 / -1; } /* an open spec reads across the panel */
@container (max-width: 560px) { .controls .control.wide { grid-column: auto; } }
`;
