// The element's side of the worker protocol (declared in protocol.d.ts): what each
// message from worker.js does to the element. Requests and their answers: requests.js.
import { bindFieldTable, syncControls, learnLabels, FIELD_LABELS } from "./controls.js";
import { syncSpecEditor } from "./spec-editor.js";
import * as rewind from "./rewind.js";
import { settle } from "./requests.js";
import { describeRun } from "./running.js";
import { hideFallback } from "./fallback.js";

/** @typedef {import("./protocol").FromWorker} FromWorker */

/** @param {FromWorker} m */
export function onWorkerMessage(el, m) {
  switch (m.type) {
    case "export":
      settle(el, m.replyTo, null, m.runs);
      break;
    case "checked":
      settle(el, m.replyTo, null, m);
      break;
    case "ready":
      learnLabels(m.fields); // before anything names a field
      el.update({ tables: { fields: m.fields, metrics: m.metrics, liveFields: m.liveFields, workloads: m.workloads } });
      hideFallback(el);
      rewind.fillForkFields(el);
      el.fillPresets(m.presets, m.version);
      el.fillSelects(); // the compare and sweep menus, labelled by the table
      // A sweep needs the tables and the menus: its buttons wait for them (the mode's
      // panel may show before the worker is ready).
      for (const b of el.$$(".sweep-run, .strategies-run, .fit-run")) b.disabled = false;
      bindFieldTable(el, m.fields);
      el.start();
      break;
    case "started":
      // A single run's config is what run A of a compare keeps (compare changes run B).
      el.update({
        run: {
          effective: m.configs, forked: m.forked, ...(m.configs.length === 1 ? { base: m.configs[0] } : {}),
          started: el.started + 1, hotRowNode: m.hotRowNode, facts: Object.freeze(m.facts), shape: Object.freeze({ dataNodes: m.dataNodes, partitions: m.partitions }),
        },
      });
      rewind.showFork(el);
      if (m.forked) el.emitState(); // the link now replays the fork
      el.setupCharts();
      syncControls(el);
      syncSpecEditor(el);
      break;
    case "tick":
      el.ingest(m);
      break;
    case "set": {
      el.note(`${FIELD_LABELS[m.field] ?? m.field} set to ${m.value} without restarting.`);
      // The texts follow the config running; the throughput chart changes its series when
      // requests turn from closed loops to an offered rate or back.
      const wasOpen = (el.effective[0]?.arrivalRatePerApiNode ?? 0) > 0;
      el.update({ run: { effective: m.configs, facts: Object.freeze(m.facts) } });
      if (wasOpen !== (m.configs[0]?.arrivalRatePerApiNode ?? 0) > 0) el.setupCharts({ keepSeries: true });
      describeRun(el);
      break;
    }
    case "error":
      onError(el, m);
      break;
  }
}

/** @param {Extract<FromWorker, { type: "error" }>} m */
function onError(el, m) {
  if (m.replyTo !== undefined) settle(el, m.replyTo, new Error(m.message));
  if (m.context === "start") {
    const text = `These settings cannot run: ${m.message}.`;
    if (Object.keys(el.overrides).length) {
      el.errors.push(`${text} Showing the defaults instead.`);
      el.update({ config: {} }, { restart: true });
    } else {
      el.showError(text);
    }
  } else if (m.context === "inject") {
    el.showError(`Fault not injected: ${m.message}`);
  } else if (m.context === "fork") {
    el.showError(`Not forked: ${m.message}`);
  } else if (m.context === "set") {
    el.showError(`Not changed: ${m.message}`);
    syncControls(el);
  } else if (/WebAssembly/.test(m.message) && /Content Security Policy/i.test(m.message)) {
    el.showError(`The live figure cannot run here: this page's Content-Security-Policy refuses WebAssembly (its script-src needs 'wasm-unsafe-eval'). ${m.message}`);
  } else {
    el.showError(`The simulation stopped: ${m.message}`);
  }
}
