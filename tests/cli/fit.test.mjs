// `hotrow fit`: measured points in, fitted fields with intervals, residuals, the USL and
// predictions out; bad input exits 2 with the fix named.
import { test } from "node:test";
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { hotrowBin } from "../hotrow.mjs";

const bin = hotrowBin;
const short = ["--preset", "ndbapi-pk", "--set", "durationMs=200", "--set", "warmupMs=50"];

function hotrow(args, input) {
  const r = spawnSync(bin, args, { encoding: "utf8", input });
  if (r.error) throw r.error;
  return r;
}

test("fit --help explains the CSV, the fitted fields and the predictions", () => {
  const r = hotrow(["fit", "--help"]);
  assert.equal(r.status, 0, r.stderr);
  for (const word of ["--measured", "--fit", "cpu.scale,network.latencyUs", "--predict", "--seeds", "dataNodes,insertsPerSecond"]) {
    assert.ok(r.stdout.includes(word), `--help mentions ${word}`);
  }
  assert.ok(hotrow(["--help"]).stdout.includes("hotrow fit"), "the main help lists an example of fit");
});

test("fit from standard input recovers a CPU scale and gives JSON with the USL and predictions", () => {
  // Points made by hotrow itself with cpu.scale 1.5, then fitted from the preset's 1.
  const nodes = [2, 4, 6, 8];
  const rows = nodes.map((n) => {
    const r = hotrow(["run", "--json", ...short, "--set", `dataNodes=${n}`, "--set", "cpu.scale=1.5"]);
    assert.equal(r.status, 0, r.stderr);
    return `${n},${JSON.parse(r.stdout).insertsPerSecond}`;
  });
  const csv = ["# made by hotrow run with cpu.scale=1.5", "dataNodes,insertsPerSecond", ...rows].join("\n");
  const r = hotrow(["fit", ...short, "--measured", "-", "--fit", "cpu.scale", "--predict", "dataNodes=10,12", "--json"], csv);
  assert.equal(r.status, 0, r.stderr);
  const { fit, predictions } = JSON.parse(r.stdout);
  assert.equal(fit.metric, "insertsPerSecond");
  assert.equal(fit.fitted[0].field, "cpu.scale");
  assert.equal(fit.fitted[0].start, 1);
  const e = fit.fitted[0].estimate;
  assert.ok(Math.abs(e.value / 1.5 - 1) < 0.03, `cpu.scale ${e.value}`);
  assert.ok(e.low <= e.value && e.value <= e.high, JSON.stringify(e));
  assert.equal(fit.points.length, 4);
  for (const p of fit.points) {
    assert.deepEqual(Object.keys(p.values), ["dataNodes"]);
    assert.ok(Math.abs(p.residual) < 0.03 && typeof p.bottleneck === "string", JSON.stringify(p));
  }
  assert.equal(fit.usl.field, "dataNodes");
  for (const k of ["sigma", "kappa", "lambda"]) assert.equal(typeof fit.usl[k].value, "number");
  assert.equal(fit.uslNote, null);
  assert.deepEqual(predictions.map((p) => p.values.dataNodes), [10, 12]);
  assert.ok(predictions.every((p) => p.simulated > 0 && p.usl > 0));
  assert.match(r.stderr, /fit: iteration 1 of at most 60: cpu\.scale [0-9.]+, rms error/);

  // The same as a table.
  const t = hotrow(["fit", ...short, "--measured", "-", "--fit", "cpu.scale", "--max-iterations", "3"], csv);
  assert.equal(t.status, 0, t.stderr);
  for (const line of ["fitted to 4 measured points of insertsPerSecond", "95% interval", "what holds it (hotrow)", "Universal Scalability Law over dataNodes", "sigma (contention)"]) {
    assert.ok(t.stdout.includes(line), `the table has "${line}":\n${t.stdout}`);
  }
  assert.match(t.stdout, /stopped at the iteration limit after 3 iterations/);
});

test("bad input to fit exits 2 and says what to fix", () => {
  const cases = [
    [["--measured", "/nonexistent.csv"], "", /cannot read --measured \/nonexistent\.csv/],
    [["--measured", "-"], "dataNodes,speed\n2,1\n", /column `speed` is neither a config field/],
    [["--measured", "-"], "dataNodes,tpm\n2,-5\n", /line 2: `tpm` is -5; a measured value must be above 0/],
    [["--measured", "-", "--fit", "dataNodes"], "dataNodes,tpm\n2,5\n", /cannot be both measured and fitted/],
    [["--measured", "-", "--fit", "workload"], "dataNodes,tpm\n2,5\n", /only a numeric field can be fitted/],
    [["--measured", "-"], "dataNodes,tpm\n3,5\n", /measured point 1: .*multiple of `replicas`/],
    [["--measured", "-", "--seeds", "0"], "dataNodes,tpm\n2,5\n", /--seeds 0: must be from 1 to 100/],
    [["--measured", "-", "--predict", "dataNodes"], "dataNodes,tpm\n2,5\n", /--predict dataNodes: expected FIELD=V1,V2/],
  ];
  for (const [args, input, message] of cases) {
    const r = hotrow(["fit", ...short, ...args], input);
    assert.equal(r.status, 2, `${args.join(" ")}: ${r.stderr}`);
    assert.match(r.stderr, message);
    assert.ok(!r.stderr.includes("panicked"));
  }
});
