// The workload spec editor: the current workload's spec as JSON in a textarea, checked by
// the worker (a `new Simulation` there) before the run restarts with it. An error names
// the JSON path and the text stays as typed; DBT2 is built in and has no spec.
import { request } from "./requests.js";
import { wireSqlTabs } from "./sql-editor.js";

/** Wires the editor of element `el` (its `#specText`, `.spec-apply`, `.spec-status`). */
export function wireSpecEditor(el) {
  const text = el.$("#specText");
  wireSqlTabs(el, applySpec); // Apply applies the tab shown: this JSON, or the SQL (sql-editor.js)
  el.$(".spec-reset").onclick = () => {
    text.value = specText(el, el.$("#workload").value);
    status(el, "", false);
  };
  text.addEventListener("keydown", (e) => e.stopPropagation()); // typed keys are text, not shortcuts
  text.addEventListener("input", () => {
    text.dataset.edited = "true"; // the user's text: a restart does not replace it
  });
}

/** The spec of workload `name` (a shipped one, or the running custom spec) as JSON text. */
function specText(el, name) {
  const running = el.effective?.[0]?.workload;
  if (running && typeof running === "object" && (name === undefined || name === running.name)) return JSON.stringify(running, null, 2);
  const shipped = (el.workloadSpecs ?? []).find((w) => w.name === name);
  return shipped?.spec ? JSON.stringify(shipped.spec, null, 2) : "";
}

/** Shows the running workload's spec, unless the user is editing text of their own. */
export function syncSpecEditor(el) {
  const text = el.$("#specText");
  if (!text || text.dataset.edited === "true") return;
  const running = el.effective?.[0]?.workload;
  const name = typeof running === "object" ? running?.name : running;
  const spec = specText(el, name);
  text.value = spec;
  // What Apply said of the run it started stays; an error or the DBT2 hint goes.
  const out = el.$(".spec-status");
  if (!spec) status(el, "DBT2 is built in and has no spec: pick a spec workload to edit it, or paste a spec and apply.", false);
  else if (out.classList.contains("error-text") || out.textContent.startsWith("DBT2")) status(el, "", false);
}

function status(el, message, isError) {
  const out = el.$(".spec-status");
  out.textContent = message;
  out.classList.toggle("error-text", isError);
}

async function applySpec(el) {
  const text = el.$("#specText");
  let spec;
  try {
    spec = JSON.parse(text.value);
  } catch (e) {
    status(el, `Not JSON: ${e.message}`, true);
    return;
  }
  status(el, "checking…", false);
  const config = { ...el.overrides, workload: spec };
  const answer = await request(el, { type: "check", config });
  if (!answer.ok) {
    status(el, answer.message, true);
    return;
  }
  text.dataset.edited = "false";
  status(el, `Running "${spec.name}". The page's link holds it (compressed): "Copy link" shares it.`, false);
  el.update({ view: { sql: undefined } }); // the link's SQL, if any, no longer made this spec
  el.change("workload", spec);
}
