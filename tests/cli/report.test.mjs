// `hotrow report`: one HTML file that needs no JavaScript (no script, nothing fetched from
// elsewhere, every figure an inline SVG beside its table), saying what `run --json` says
// for the same config; `--fragment` and `--svg NAME`; a bad figure name is refused before
// anything runs.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const short = ["--preset", "bug39267", "--set", "durationMs=1000", "--set", "warmupMs=500"];

function hotrow(...args) {
  const r = spawnSync(bin, args, { encoding: "utf8" });
  if (r.error) throw r.error;
  return r;
}

const grouped = (v) => Math.round(v).toLocaleString("en-US");

test("report -o FILE: a page with no script and no outside resource, the run's figures in it", () => {
  const dir = mkdtempSync(join(tmpdir(), "hotrow-report-"));
  const file = join(dir, "r.html");
  const r = hotrow("report", ...short, "-o", file);
  assert.equal(r.status, 0, r.stderr);
  const page = readFileSync(file, "utf8");
  assert.doesNotMatch(page, /<script/i);
  assert.doesNotMatch(page, /https?:\/\//);
  assert.equal((page.match(/<svg /g) || []).length, 3);
  const run = JSON.parse(hotrow("run", "--json", ...short).stdout);
  const tpm = `${grouped(run.tpm)} ± ${grouped(run.intervals.metrics.tpm.halfWidth)}`;
  assert.ok(page.includes(`<dt>TPM</dt><dd>${tpm}</dd>`), `TPM ${tpm}, with its 95% interval`);
  assert.ok(page.includes(run.bottleneck.name), run.bottleneck.name);
  // The bound with its 95% interval (`boundIntervals`), as the CLI writes it.
  const bound = `${grouped(run.bottleneck.boundTransactionsPerSecond)} ± ${grouped(run.boundIntervals.bound.halfWidth)}`;
  assert.ok(page.includes(`(${bound} transactions/s)`), bound);
  assert.ok(page.includes(run.digest), "the digest names the run");
  // The same config gives the same bytes.
  assert.equal(hotrow("report", ...short).stdout, page);
});

test("report --fragment and --svg NAME; an unknown figure is refused before the run", () => {
  const fragment = hotrow("report", ...short, "--fragment");
  assert.equal(fragment.status, 0, fragment.stderr);
  assert.match(fragment.stdout, /^<style>/);
  assert.doesNotMatch(fragment.stdout, /<html|<body/);
  const svg = hotrow("report", ...short, "--svg", "heatmap");
  assert.equal(svg.status, 0, svg.stderr);
  assert.match(svg.stdout, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" /);
  const bad = hotrow("report", ...short, "--svg", "pie");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /--svg pie: the figures are throughput, nodes, heatmap/);
  assert.doesNotMatch(bad.stderr, /simulating/);
});

test("report --vary: a sweep's page, the bottleneck's change marked", () => {
  const r = hotrow("report", "--preset", "bug39267", "--set", "durationMs=500", "--set", "warmupMs=200", "--vary", "cacheSize=1,1000", "--jobs", "2");
  assert.equal(r.status, 0, r.stderr);
  assert.doesNotMatch(r.stdout, /<script/i);
  assert.match(r.stdout, /varying cacheSize/);
  assert.match(r.stdout, /\(changes here\)/);
  const bad = hotrow("report", "--preset", "bug39267", "--vary", "cacheSize=0");
  assert.equal(bad.status, 2);
  assert.match(bad.stderr, /cacheSize/);
});

test("report --remedies: what each standard remedy lifts it to, beside the run", () => {
  const r = hotrow("report", ...short, "--remedies");
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /<h2>What would lift it<\/h2>/);
  const row = r.stdout.match(/<tr><td>a cache of 1000 ids per refill<\/td><td>[\d,]+<\/td><td>([\d.]+)<\/td>/);
  assert.ok(row, "the bigger cache's row");
  assert.ok(Number(row[1]) > 1.3, `a bigger cache lifts DBT2 on the bug's cluster: x${row[1]}`);
});
