// The calibration runs behind docs/measured/: a real PostgreSQL 15 and a real MariaDB 10.11
// (started and stopped here, as the database tests start theirs), each measured by
// `hotrow measure` on the counter workloads (one row, four rows, forty rows) and on single-row
// INSERTs (again on a MariaDB in innodb_autoinc_lock_mode 0), at 1 to 64 clients. The curves are written to docs/measured/ (or --out DIR) as
// `hotrow fit --measured` reads them; docs/MODEL.md §11 says how they were fitted.
//
//   npm run calibrate                     8 s a point, every curve (about 9 minutes)
//   npm run calibrate -- --seconds 1 --clients 1,8 --out /tmp/curves   a quick look
import { spawnSync } from "node:child_process";
import { mkdtempSync, writeFileSync, rmSync, mkdirSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { startPostgres } from "../tests/db/postgres.mjs";
import { startMariadb } from "../tests/db/mariadb.mjs";

const root = new URL("..", import.meta.url).pathname;
const { values: opts } = parseArgs({
  options: {
    seconds: { type: "string", default: "8" },
    clients: { type: "string", default: "1,2,4,8,16,32,64" },
    out: { type: "string", default: join(root, "docs/measured") },
  },
});
const bin = join(root, "target/release/hotrow");
mkdirSync(opts.out, { recursive: true });
const work = mkdtempSync(join(tmpdir(), "hotrow-calibrate-"));

/** The workloads: a script each, over a setup that makes 40 counter rows and an insert table. */
const scripts = {
  "counter-1": "UPDATE counters SET n = n + 1 WHERE id = 1;\n",
  "counter-4": "\\set k random(1, 4)\nUPDATE counters SET n = n + 1 WHERE id = :k;\n",
  "counter-40": "\\set k random(1, 40)\nUPDATE counters SET n = n + 1 WHERE id = :k;\n",
  insert: "INSERT INTO items (v) VALUES (1);\n",
};
for (const [name, text] of Object.entries(scripts)) writeFileSync(join(work, `${name}.sql`), text);

/** Measures `names` (every script) on one server with `flag url`, writing `<prefix>-<name>.csv`. */
function measureAll(prefix, flag, url, setup, names = Object.keys(scripts)) {
  writeFileSync(join(work, "setup.sql"), setup);
  for (const name of names) {
    const out = join(opts.out, `${prefix}-${name}.csv`);
    const args = ["measure", flag, url, "--script", join(work, `${name}.sql`), "--own", "counters,items",
      "--clients", opts.clients, "--seconds", opts.seconds, "--warmup-seconds", "1", "--out", out];
    // The first script sets the tables up.
    if (name === names[0]) args.push("--setup", join(work, "setup.sql"));
    console.log(`calibrate: ${prefix} ${name}`);
    const r = spawnSync(bin, args, { stdio: ["ignore", "inherit", "inherit"] });
    if (r.status !== 0) throw new Error(`hotrow measure failed on ${prefix} ${name}`);
  }
}

let pg;
let maria;
try {
  pg = await startPostgres();
  measureAll("postgres15", "--postgres", pg.conninfo,
    "CREATE TABLE counters (id int PRIMARY KEY, n bigint NOT NULL);\nINSERT INTO counters SELECT g, 0 FROM generate_series(1, 40) g;\n" +
      "CREATE TABLE items (id bigserial PRIMARY KEY, v int);\n");
  pg.stop();
  pg = undefined;
  maria = await startMariadb();
  maria.sql("CREATE DATABASE hotrow", "mysql");
  const tables = "CREATE TABLE counters (id int PRIMARY KEY, n bigint NOT NULL) ENGINE=InnoDB;\nINSERT INTO counters SELECT seq, 0 FROM seq_1_to_40;\n" +
    "CREATE TABLE items (id bigint AUTO_INCREMENT PRIMARY KEY, v int) ENGINE=InnoDB;\n";
  measureAll("mariadb10", "--mysql", maria.url, tables);
  await maria.stop();
  maria = undefined;
  // The INSERTs again under innodb_autoinc_lock_mode 0: each holds the table's AUTO-INC
  // lock to the statement's end (a startup option, so a server of its own).
  maria = await startMariadb({ serverArgs: ["--innodb-autoinc-lock-mode=0"] });
  maria.sql("CREATE DATABASE hotrow", "mysql");
  measureAll("mariadb10-autoinc0", "--mysql", maria.url, tables, ["insert"]);
} finally {
  pg?.stop();
  await maria?.stop();
  rmSync(work, { recursive: true, force: true });
}
console.log(`calibrate: the curves are in ${opts.out}; fit them as docs/MODEL.md §11 does`);
