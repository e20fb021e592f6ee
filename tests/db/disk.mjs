// A quiet disk for a database test's server, shared by the database helpers.
import { spawnSync } from "node:child_process";

/**
 * Writes back what earlier work left dirty in the page cache (the builds, the packed
 * tarball's install) before a server starts: its commits wait on fsync, and should not
 * queue behind that writeback. (One warm run measured MariaDB's one-row UPDATE at 687
 * transactions/s from 1 client where the same server gives about 4,000, and sysbench as
 * low: the disk was slow for everything then, whatever the cause; this removes the part
 * the test run itself could leave behind.)
 */
export function quietDisk() {
  spawnSync("sync");
}
