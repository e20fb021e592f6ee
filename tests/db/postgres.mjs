// A real PostgreSQL for a test: a fresh cluster in a temporary directory, its socket there
// and a free loopback port, started as the `postgres` user when the test runs as root (as
// Debian's packages have it), stopped and removed by `stop()`, which a test calls in its
// `after` hook, so nothing is left running even when the test fails. Never `pkill`.
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, chownSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./port.mjs";
import { quietDisk } from "./disk.mjs";

/** Debian's PostgreSQL 15 binaries (scripts/setup.sh installs the package). */
export const PG_BIN = "/usr/lib/postgresql/15/bin";

/** Runs `bin args` as the cluster's owner; throws with its output when it fails. */
function run(asPostgres, bin, args) {
  const r = asPostgres
    ? spawnSync("su", ["postgres", "-s", "/bin/sh", "-c", [bin, ...args].map((a) => `'${a}'`).join(" ")], { encoding: "utf8" })
    : spawnSync(bin, args, { encoding: "utf8" });
  if (r.status !== 0) throw new Error(`${bin} ${args.join(" ")} failed (${r.status}): ${r.stderr || r.stdout}`);
  return r.stdout;
}

/**
 * Starts a server: `{ dir, port, conninfo, psql(sql), pgbench(args), stop() }`. `conninfo`
 * is a libpq key=value string on the socket (what `hotrow measure --postgres` and pgbench take).
 */
export async function startPostgres() {
  if (!existsSync(join(PG_BIN, "initdb"))) throw new Error(`no PostgreSQL 15 at ${PG_BIN}: run scripts/setup.sh --browser (as root) to install Debian's postgresql`);
  quietDisk();
  const asPostgres = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "hotrow-pg-"));
  if (asPostgres) {
    const uid = Number(spawnSync("id", ["-u", "postgres"], { encoding: "utf8" }).stdout.trim());
    const gid = Number(spawnSync("id", ["-g", "postgres"], { encoding: "utf8" }).stdout.trim());
    chownSync(dir, uid, gid);
  }
  const port = await freePort();
  const user = asPostgres ? "postgres" : process.env.USER ?? "postgres";
  run(asPostgres, join(PG_BIN, "initdb"), ["-D", join(dir, "data"), "-A", "trust", "-U", user]);
  let started = false;
  const stop = () => {
    if (started) {
      try {
        run(asPostgres, join(PG_BIN, "pg_ctl"), ["-D", join(dir, "data"), "stop", "-m", "fast", "-w"]);
      } catch {
        // stopped already
      }
      started = false;
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    run(asPostgres, join(PG_BIN, "pg_ctl"), ["-D", join(dir, "data"), "-o", `-p ${port} -k ${dir} -c listen_addresses=''`, "-l", join(dir, "log"), "-w", "start"]);
    started = true;
  } catch (e) {
    stop();
    throw e;
  }
  const conninfo = `host=${dir} port=${port} user=${user} dbname=postgres`;
  const client = (bin, args) => {
    const r = spawnSync(join(PG_BIN, bin), ["-h", dir, "-p", String(port), "-U", user, ...args], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${bin} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  return {
    dir,
    port,
    conninfo,
    psql: (sql) => client("psql", ["-q", "-X", "-v", "ON_ERROR_STOP=1", "-d", "postgres", "-c", sql]),
    pgbench: (args) => client("pgbench", [...args, "postgres"]),
    stop,
  };
}
