// SQL in, for JavaScript: `importSql` turns a schema and its transactions (or pgbench
// scripts) into a workload spec with every assumption said, through the SQL import's own
// WebAssembly module (crate/sql-wasm, built into dist/sql). The module is loaded the first
// time SQL is given, never before, so the main module every embed loads does not grow.
// Node instantiates it from disk; browsers and bundlers fetch it beside this file.
import { lazyModule } from "./lazy-module.js";
import sqlInit, * as sql from "../dist/sql/hotrow_sql.js";

const wasmModule = lazyModule(sqlInit, sql);

/** js/node.mjs's hook: instantiate the module with `f(glue)` (the glue's exports) instead. */
export const instantiateSqlWith = (f) => wasmModule.instantiateWith(f);

/** Loads the module once (a failed load is tried again next call). */
const load = () => wasmModule.load();

/** An import refused: where (file, 1-based line and column; 0 when no place is named) and why. */
export class SqlImportError extends Error {
  constructor({ file, line, column, message }) {
    super(line ? `${file}:${line}:${column}: ${message}` : message);
    this.name = "SqlImportError";
    this.file = file;
    this.line = line;
    this.column = column;
    this.reason = message;
  }
}

/**
 * Imports SQL as a workload spec: `input` is the text of one file (schema and
 * transactions together) or a list of `{ name, text, weight? }`; `options` are
 * `{ dialect?: "mysql" | "postgres", scale?, defaultRows?, name? }` (the dialect is
 * guessed when absent). Resolves with `{ spec, assumptions, statements }` (what each
 * statement became); rejects with a
 * SqlImportError naming the file, line and column.
 */
export async function importSql(input, options = {}) {
  const sources = typeof input === "string" ? [{ name: "workload.sql", text: input }] : input;
  const m = await load();
  const answer = JSON.parse(m.importSql(JSON.stringify(sources), JSON.stringify(options ?? {})));
  if (answer.error) throw new SqlImportError(answer.error);
  return answer;
}
