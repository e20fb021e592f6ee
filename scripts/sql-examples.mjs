// The playground's SQL examples (js/element/sql-examples.js), written from the shipped SQL in
// examples/sql/: each example is its schema and its transactions as one text, as the SQL tab
// imports it. `npm run docs` (scripts/docs.mjs) rewrites the module; its check (run by `npm
// test`) fails while the module differs from the files, as it does for the documents' tables.
import { readFileSync } from "node:fs";
import { join } from "node:path";

export const FILE = "js/element/sql-examples.js";

/** The menu: each example's label and the files it is made of, in order. */
export const EXAMPLES = [
  { label: "an online shop (MySQL): two AUTO_INCREMENT tables, a UNIQUE key, a day's counter", files: ["orders-schema.sql", "orders.sql"] },
  { label: "a PostgreSQL shop: one counter row updated first", files: ["shop-pg-schema.sql", "shop-pg.sql"] },
  { label: "the same shop, its counter updated last", files: ["shop-pg-schema.sql", "shop-pg-counter-last.sql"] },
  { label: "DBT2 (TPC-C), the bug report's workload", files: ["dbt2-schema.sql", "dbt2.sql"] },
  { label: "pgbench tpcb-like, verbatim", files: ["pgbench-schema.sql", "tpcb-like.sql"] },
  { label: "sysbench oltp_insert", files: ["sysbench-schema.sql", "sysbench-insert.sql"] },
];

/** The module's text, from the files under `root`. */
export function render(root) {
  const list = EXAMPLES.map(({ label, files }) => {
    const text = files.map((f) => readFileSync(join(root, "examples/sql", f), "utf8").trimEnd()).join("\n\n") + "\n";
    return `  {\n    label: ${JSON.stringify(label)},\n    files: ${JSON.stringify(files)},\n    text: ${JSON.stringify(text)},\n  },\n`;
  });
  return (
    "// Written by scripts/sql-examples.mjs from examples/sql/ (npm run docs): do not edit.\n" +
    "// The SQL tab's examples menu; loaded only when an example is chosen.\n\n" +
    "/** @type {{ label: string, files: string[], text: string }[]} */\n" +
    `export const SQL_EXAMPLES = [\n${list.join("")}];\n`
  );
}
