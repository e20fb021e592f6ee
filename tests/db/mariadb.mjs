// A real MariaDB (InnoDB) for a test: a fresh data directory in a temporary directory, its
// socket there and a free loopback port, started as the `mysql` user when the test runs as
// root (as Debian's packages have it), stopped and removed by `stop()`, which a test calls
// in its `after` hook, so nothing is left running even when the test fails. Never `pkill`:
// it stops the server it started, its own child process.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, chownSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./port.mjs";
import { quietDisk } from "./disk.mjs";
import { setTimeout as sleep } from "node:timers/promises";

/** Debian's MariaDB 10.11 server (scripts/setup.sh installs the package). */
export const MARIADBD = "/usr/sbin/mariadbd";

/**
 * Starts a server: `{ dir, socket, url, sql(text), sysbench(args), stop() }`. `url` is a
 * `mysql://` URL on the socket (what `hotrow measure --mysql` takes); `stop()` resolves once the
 * server has exited and its directory is gone. `serverArgs` go to
 * mariadbd after the project's own (e.g. `--innodb-autoinc-lock-mode=0`).
 */
export async function startMariadb({ serverArgs = [] } = {}) {
  if (!existsSync(MARIADBD)) throw new Error(`no MariaDB at ${MARIADBD}: run scripts/setup.sh --browser (as root) to install Debian's mariadb-server`);
  quietDisk();
  const root = process.getuid?.() === 0;
  const dir = mkdtempSync(join(tmpdir(), "hotrow-maria-"));
  if (root) {
    const id = (flag) => Number(spawnSync("id", [flag, "mysql"], { encoding: "utf8" }).stdout.trim());
    chownSync(dir, id("-u"), id("-g"));
  }
  const user = root ? ["--user=mysql"] : [];
  const data = join(dir, "data");
  const install = spawnSync("mariadb-install-db", [...user, `--datadir=${data}`, "--auth-root-authentication-method=normal", "--skip-test-db"], { encoding: "utf8" });
  if (install.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`mariadb-install-db failed (${install.status}): ${install.stderr || install.stdout}`);
  }
  const socket = join(dir, "sock");
  const port = await freePort();
  const server = spawn(MARIADBD, [...user, `--datadir=${data}`, `--socket=${socket}`, `--port=${port}`, "--bind-address=127.0.0.1",
    `--log-error=${join(dir, "err.log")}`, `--pid-file=${join(dir, "pid")}`, "--skip-log-bin", "--max-connections=600", ...serverArgs], { stdio: "ignore", detached: false });
  const exited = new Promise((resolve) => server.once("exit", resolve));
  // SIGTERM, then waits for the server (this process's child) to exit: within a second here;
  // SIGKILL after 20 s.
  const stop = async () => {
    if (server.exitCode === null && server.signalCode === null) {
      server.kill("SIGTERM");
      let timer;
      const late = new Promise((resolve) => (timer = setTimeout(resolve, 20_000, "late")));
      if ((await Promise.race([exited, late])) === "late") {
        server.kill("SIGKILL");
        await exited;
      }
      clearTimeout(timer);
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 30_000;
  while (!existsSync(socket)) {
    if (server.exitCode !== null || Date.now() > until) {
      const log = existsSync(join(dir, "err.log")) ? readFileSync(join(dir, "err.log"), "utf8") : "";
      await stop();
      throw new Error(`mariadbd did not start: ${log.slice(-2000)}`);
    }
    await sleep(100);
  }
  const client = (bin, args) => {
    const r = spawnSync(bin, [`--socket=${socket}`, "-uroot", ...args], { encoding: "utf8" });
    if (r.status !== 0) throw new Error(`${bin} failed (${r.status}): ${r.stderr}`);
    return r.stdout;
  };
  return {
    dir,
    socket,
    url: `mysql://root@localhost/hotrow?socket=${encodeURIComponent(socket)}`,
    sql: (text, db = "hotrow") => client("mariadb", ["-D", db, "-e", text]),
    sysbench: (args) => {
      const r = spawnSync("sysbench", [...args, `--mysql-socket=${socket}`, "--mysql-user=root", "--mysql-db=hotrow", "run"], { encoding: "utf8" });
      if (r.status !== 0) throw new Error(`sysbench failed (${r.status}): ${r.stderr || r.stdout}`);
      return r.stdout;
    },
    stop,
  };
}
