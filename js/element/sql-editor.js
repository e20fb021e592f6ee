// The workload editor's SQL tab: a schema and its transactions as SQL become the running
// workload through `importSql` (js/sql.js), whose WebAssembly module (dist/sql) loads only
// when SQL is applied or a link carries SQL. The assumptions are listed with their
// file:line:column; an error selects its line in the text, scrolls it into view and says
// its place; the link keeps the SQL (packed as a spec is: view.sql) beside the spec it
// made, which runs without loading the SQL module. The examples menu holds the shipped SQL
// (js/element/sql-examples.js, loaded when the tab is first shown); the name field names
// the workload (else "workload").
import { encodeJson, decodeJson } from "./spec-link.js";
import { request } from "./requests.js";

/** The name the SQL text is imported under (errors and assumptions name it). */
const FILE = "workload.sql";

/** Wires the tabs of element `el`'s workload editor; `applyJson` applies the JSON tab. */
export function wireSqlTabs(el, applyJson) {
  for (const tab of el.$$(".spec-tab")) tab.onclick = () => showTab(el, tab.dataset.tab);
  const text = el.$("#sqlText");
  text.addEventListener("keydown", (e) => e.stopPropagation()); // typed keys are text, not shortcuts
  el.$("#sqlName").addEventListener("keydown", (e) => e.stopPropagation());
  el.$(".spec-apply").onclick = () => (sqlTab(el) ? applySql(el) : applyJson(el));
  el.$("#sqlExample").onchange = () => chooseExample(el);
  text.addEventListener("input", () => (el.$("#sqlExample").value = ""));
}

/** The examples, loaded once (the module holds their text). */
let examples = null;
const loadExamples = () => (examples ??= examplesModule());
async function examplesModule() {
  const { SQL_EXAMPLES } = await import("./sql-examples.js");
  return SQL_EXAMPLES;
}

/** Fills the examples menu (once). */
async function fillExamples(el) {
  const menu = el.$("#sqlExample");
  if (menu.options.length > 1) return;
  const list = await loadExamples();
  if (menu.options.length > 1) return;
  for (const [i, x] of list.entries()) menu.add(new Option(`${x.label} (${x.files.join(", ")})`, String(i)));
}

/** Puts the chosen example's SQL in the text; Apply runs it. */
async function chooseExample(el) {
  const i = el.$("#sqlExample").value;
  if (i === "") return;
  const x = (await loadExamples())[Number(i)];
  el.$("#sqlText").value = x.text;
  el.$("#sqlText").scrollTop = 0;
  el.$("#sqlName").value = x.files[x.files.length - 1].replace(/\.sql$/, "");
  status(el, `The example ${x.files.join(" and ")}: Apply runs it.`, false);
}

const sqlTab = (el) => el.$('.spec-tab[data-tab="sql"]').getAttribute("aria-selected") === "true";

/** Shows tab `name` ("json" or "sql") of the editor. */
function showTab(el, name) {
  for (const tab of el.$$(".spec-tab")) tab.setAttribute("aria-selected", String(tab.dataset.tab === name));
  el.$("#specJson").hidden = name !== "json";
  el.$("#specSql").hidden = name !== "sql";
  el.$(".sql-assumptions").hidden = name !== "sql" || !el.$(".sql-assumptions li");
  if (name === "sql") fillExamples(el).catch((e) => status(el, `The examples could not be loaded: ${e.message}`, true));
}

function status(el, message, isError) {
  const out = el.$(".spec-status");
  out.textContent = message;
  out.classList.toggle("error-text", isError);
}

/** Lists the import's assumptions under the editor. */
function showAssumptions(el, assumptions) {
  const list = el.$(".sql-assumptions ol");
  list.replaceChildren(
    ...assumptions.map((a) => {
      const li = document.createElement("li");
      li.textContent = `${a.line}:${a.column}: ${a.text}`;
      return li;
    }),
  );
  el.$(".sql-assumptions").hidden = !assumptions.length;
}

/** Selects line `line` (1-based) of the SQL text, where an error is, and scrolls it into
 * view: a textarea does not scroll to its selection, so the line's offset is measured on a
 * hidden copy of the text box holding the lines before it (wrapped as they are). */
function selectLine(text, line) {
  const lines = text.value.split("\n");
  const start = lines.slice(0, line - 1).reduce((n, l) => n + l.length + 1, 0);
  text.focus();
  text.setSelectionRange(start, start + (lines[line - 1]?.length ?? 0));
  const probe = /** @type {HTMLTextAreaElement} */ (text.cloneNode(false));
  probe.removeAttribute("id");
  probe.style.cssText = `position: absolute; visibility: hidden; height: 0; min-height: 0; width: ${text.offsetWidth}px`;
  probe.value = lines.slice(0, line - 1).join("\n");
  text.after(probe);
  const top = line > 1 ? probe.scrollHeight : 0;
  probe.remove();
  text.scrollTop = Math.max(0, top - text.clientHeight / 3);
}

/** Imports the SQL tab's text; the spec it gives restarts the run, the link keeps the SQL. */
async function applySql(el) {
  const text = el.$("#sqlText");
  if (!text.value.trim()) {
    status(el, "Paste a schema (CREATE TABLE ...) and its transactions (BEGIN ... COMMIT), then Apply.", true);
    return;
  }
  status(el, "importing… (the SQL module loads once)", false);
  let got;
  try {
    const { importSql } = await import("../sql.js");
    const name = el.$("#sqlName").value.trim();
    got = await importSql([{ name: FILE, text: text.value }], name ? { name } : {});
  } catch (e) {
    showAssumptions(el, []);
    if (e?.line) {
      status(el, `line ${e.line}, column ${e.column}: ${e.reason}`, true);
      selectLine(text, e.line);
    } else {
      status(el, e?.message ?? String(e), true);
    }
    return;
  }
  showAssumptions(el, got.assumptions);
  const answer = await request(el, { type: "check", config: { ...el.overrides, workload: got.spec } });
  if (!answer.ok) {
    status(el, answer.message, true);
    return;
  }
  const packed = await encodeJson({ sql: text.value }, "SQL");
  const said = got.assumptions.length ? ` with ${got.assumptions.length} assumption${got.assumptions.length === 1 ? "" : "s"} (below)` : "";
  status(el, `Running "${got.spec.name}", imported from SQL${said}. ${"text" in packed ? 'The link holds the SQL: "Copy link" shares it.' : `The link holds the spec only: ${packed.error}.`}`, false);
  el.$("#specText").value = JSON.stringify(got.spec, null, 2);
  el.$("#specText").dataset.edited = "false";
  if ("text" in packed) text.dataset.packed = packed.text;
  el.update({ view: { sql: "text" in packed ? packed.text : undefined } });
  el.change("workload", got.spec);
}

/** A link's SQL (view.sql): shown in the SQL tab, imported again for its assumptions (the
 * run is the link's spec's, already started). */
export async function showLinkedSql(el) {
  const packed = el.view.sql;
  // Shown already (a load that kept it): the text, and any edit of it, stay.
  if (!packed || !el.$ || el.$("#sqlText").dataset.packed === packed) return;
  el.$("#sqlText").dataset.packed = packed;
  let sql;
  try {
    ({ sql } = await decodeJson(packed, "SQL"));
    if (typeof sql !== "string") throw new Error("it holds no SQL text");
  } catch (e) {
    status(el, `The link's SQL could not be read (${e.message}); its spec runs.`, true);
    return;
  }
  el.$("#sqlText").value = sql;
  el.$(".spec-editor").open = true;
  showTab(el, "sql");
  try {
    const { importSql } = await import("../sql.js");
    showAssumptions(el, (await importSql([{ name: FILE, text: sql }])).assumptions);
    showTab(el, "sql");
    status(el, "The link's SQL: its workload is running.", false);
  } catch (e) {
    status(el, e?.message ?? String(e), true);
  }
}
