// Launches Debian's Chromium through playwright-core (no browser download) with the flags
// this closed network needs.
import { chromium } from "playwright-core";
import { existsSync } from "node:fs";

export const CHROMIUM = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].find((p) => existsSync(p));

export function launch() {
  if (!CHROMIUM) throw new Error("Chromium not found: run scripts/setup.sh (it installs Debian's chromium)");
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
      "--disable-component-update", "--disable-sync"],
  });
}
