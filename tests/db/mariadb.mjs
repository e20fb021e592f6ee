// A real MariaDB (InnoDB) for a test: a fresh data directory in a temporary directory, its
// socket there and a free loopback port, started as the `mysql` user when the test runs as
// root (as Debian's packages have it), stopped and removed by `stop()`, which a test calls
// in its `after` hook, so nothing is left running even when the test fails. Never `pkill`:
// it stops the server by the pid in its own pid file.
import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, chownSync, existsSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { freePort } from "./port.mjs";
import { quietDisk } from "./disk.mjs";
import { setTimeout as sleep } from "node:timers/promises";

/** Debian's MariaDB 10.11 server (scripts/setup.sh installs the package). */
export const MARIADBD = "/usr/sbin/mariadbd";

/** Whether process `pid` still runs. A zombie does not: the server exits within a second of
 * SIGTERM, but this process reaps its child only when its event loop turns, which `stop()`'s
 * wait blocks, and `kill(pid, 0)` succeeds on a zombie (that wait took its whole 20 s). */
function alive(pid) {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat[stat.lastIndexOf(")") + 2] !== "Z";
  } catch {
    return false;
  }
}

/**
 * Starts a server: `{ dir, socket, url, sql(text), sysbench(args), stop() }`. `url` is a
 * `mysql://` URL on the socket (what `hotrow measure --mysql` takes). `serverArgs` go to
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
  const pidFile = join(dir, "pid");
  const port = await freePort();
  const server = spawn(MARIADBD, [...user, `--datadir=${data}`, `--socket=${socket}`, `--port=${port}`, "--bind-address=127.0.0.1",
    `--log-error=${join(dir, "err.log")}`, `--pid-file=${pidFile}`, "--skip-log-bin", "--max-connections=600", ...serverArgs], { stdio: "ignore", detached: false });
  const stop = () => {
    const pid = existsSync(pidFile) ? Number(readFileSync(pidFile, "utf8").trim()) : server.pid;
    if (pid && alive(pid)) {
      process.kill(pid, "SIGTERM");
      const until = Date.now() + 20_000;
      while (alive(pid) && Date.now() < until) spawnSync("sleep", ["0.1"]);
      if (alive(pid)) process.kill(pid, "SIGKILL");
    }
    rmSync(dir, { recursive: true, force: true });
  };
  const until = Date.now() + 30_000;
  while (!existsSync(socket)) {
    if (server.exitCode !== null || Date.now() > until) {
      const log = existsSync(join(dir, "err.log")) ? readFileSync(join(dir, "err.log"), "utf8") : "";
      stop();
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
