// The bug report's figures the playground quotes (js/element/bug-report.js: the tour, the
// charts' reference lines, the Fit mode's example points) are the ones `hotrow validate`
// checks the model against (crate/sim/src/validate.rs): one list, pinned here.
import { test } from "node:test";
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { REPORTED } from "../../js/element/bug-report.js";

test("the playground's reported TPM are validate.rs's", () => {
  const rust = readFileSync(new URL("../../crate/sim/src/validate.rs", import.meta.url), "utf8");
  const table = rust.match(/pub const REPORTED_TPM: \[\(&str, f64\); 2\] = \[([^\]]+)\];/);
  assert.ok(table, "validate.rs's REPORTED_TPM is where this test reads it");
  const values = [...table[1].matchAll(/\("[^"]*cache (\d+)", ([\d_.]+)\)/g)].map((m) => [Number(m[1]), Number(m[2].replace(/_/g, ""))]);
  assert.deepEqual(values, [[1, REPORTED.cacheOneTpm], [1000, REPORTED.cacheThousandTpm]]);
});
