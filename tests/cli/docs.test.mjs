// The documents agree with the code: generated tables equal what their command prints,
// sample outputs are still printed, links reach their files and headings, the README stays
// a first page that links every docs page, and the JavaScript API table names the API.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync, readdirSync } from "node:fs";
import { hotrowBin } from "../hotrow.mjs";
import { check, regenerate, excerptMisses, brokenLinks, words, slug, figureIn } from "../../scripts/docs.mjs";

process.env.HOTROW_BIN ||= hotrowBin; // check() quotes the build under test
const read = (f) => readFileSync(new URL(`../../${f}`, import.meta.url), "utf8");

test("every generated table, sample output and link of the documents is true", () => {
  const problems = check();
  assert.deepEqual(problems, [], `the documents disagree with the code:\n${problems.join("\n")}`);
});

test("the check finds a table that no longer matches its command", () => {
  const text = read("docs/cli.md");
  assert.ok(text.includes("| `bug39267` |"), "the presets table is in cli.md");
  const stale = text.replace("| `bug39267` |", "| `bug39267-old` |");
  assert.notEqual(regenerate(stale), stale);
  assert.equal(regenerate(text), text);
});

test("an excerpt is read line by line, in order, with ... for lines left out", () => {
  const output = "a\nb 1\nc\nd\n";
  assert.deepEqual(excerptMisses("$ hotrow x\na\n...\nd", output), []);
  assert.deepEqual(excerptMisses("b 2", output), ["b 2"]);
  assert.deepEqual(excerptMisses("d\na", output), ["a"], "order counts");
});

test("broken links and anchors are found", () => {
  assert.deepEqual(brokenLinks("README.md", "[ok](docs/cli.md#sweeps) [web](https://example.org/x)"), []);
  assert.equal(brokenLinks("README.md", "[gone](docs/nothing.md)").length, 1);
  assert.equal(brokenLinks("README.md", "[anchor](docs/cli.md#no-such-heading)").length, 1);
  assert.equal(slug("10. Explaining a number: what holds the throughput"), "10-explaining-a-number-what-holds-the-throughput");
  assert.deepEqual(words(`hotrow sweep --set 'faults=[{"a": 1}]' --json`), ["hotrow", "sweep", "--set", 'faults=[{"a": 1}]', "--json"]);
});

test("the README is a first page: at most 200 lines, linking every docs page", () => {
  const readme = read("README.md");
  const lines = readme.split("\n").length;
  assert.ok(lines <= 200, `README.md has ${lines} lines`);
  const pages = readdirSync(new URL("../../docs/", import.meta.url)).filter((f) => f.endsWith(".md"));
  for (const page of pages) assert.ok(readme.includes(`](docs/${page})`), `README.md does not link docs/${page}`);
});

test("the JavaScript API table names every member the package's types declare", () => {
  const dts = read("js/index.d.ts");
  const doc = read("docs/javascript.md");
  const body = dts.slice(dts.indexOf("export class Simulation {"), dts.indexOf("\n}\n", dts.indexOf("export class Simulation {")));
  const members = [...body.matchAll(/^  (?:static |readonly )?([a-zA-Z]+)[(:?]/gm)].map((m) => m[1]).filter((m) => m !== "constructor");
  const exported = [...dts.matchAll(/^export (?:function|const) ([a-zA-Z]+)/gm)].map((m) => m[1]);
  assert.ok(members.includes("runFor") && exported.includes("init"), "the scan reads the types");
  for (const name of [...members, ...exported]) {
    assert.ok(new RegExp("`(Simulation\\.)?" + name + "[(`]").test(doc), `docs/javascript.md's API table does not name \`${name}\``);
  }
});

test("a figure in prose holds while its command prints that number at its precision", () => {
  const out = "  DBT2 8 nodes, cache 1000: TPM   158k TPM   157698   -0.2%  pass\n  NDB API  10.890\n";
  for (const f of ["157.7k", "158k", "-0.2%", "10.9x", "157,698"]) assert.ok(figureIn(f, out), f);
  for (const f of ["157.6k", "157.8k", "-0.3%", "10.8x", "157,699"]) assert.ok(!figureIn(f, out), f);
  // The documents mark their figures (README's 157.7k among them), so check() reads some.
  const readme = readFileSync(new URL("../../README.md", import.meta.url), "utf8");
  assert.match(readme, /157\.7k<!-- `hotrow validate` -->/);
});
