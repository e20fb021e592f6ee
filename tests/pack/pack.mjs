// Packs the npm package (running its prepack build) and installs the tarball into a new,
// empty project. Used by the Node and the browser tests of the published package.
import { execFileSync } from "node:child_process";
import { mkdtempSync, mkdirSync, writeFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("../..", import.meta.url));

export function packAndInstall() {
  const dir = mkdtempSync(join(tmpdir(), "hotrow-pack-"));
  const packed = JSON.parse(execFileSync("npm", ["pack", "--json", "--pack-destination", dir],
    { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "inherit"] }))[0];
  const app = join(dir, "app");
  mkdirSync(app);
  writeFileSync(join(app, "package.json"), JSON.stringify({ name: "consumer", private: true, type: "module" }));
  execFileSync("npm", ["install", "--offline", "--no-audit", "--no-fund", join(dir, packed.filename)], { cwd: app, stdio: "inherit" });
  return { dir, app, files: packed.files.map((f) => f.path), cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
