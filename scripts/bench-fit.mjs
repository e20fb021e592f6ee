// `npm run bench:fit`: how long a 5-point, 2-parameter `hotrow fit` takes on this machine,
// against the 60 s budget, with the preset's own run lengths. The points are hotrow's own
// output made with cpu.scale 1.7 and network.latencyUs 45 (seed 7); the fit starts from
// the preset's 1 and 70 (seed 1) and should find them again.
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";

const bin = fileURLToPath(new URL("../target/release/hotrow", import.meta.url));
const preset = process.argv[2] ?? "ndbapi-pk";
const truth = { "cpu.scale": 1.7, "network.latencyUs": 45 };
const nodes = [2, 4, 6, 8, 10];
const BUDGET_S = 60;

function hotrow(args, input) {
  const r = spawnSync(bin, args, { encoding: "utf8", input, maxBuffer: 1 << 26 });
  if (r.status !== 0) throw new Error(`hotrow ${args.join(" ")}: ${r.stderr}`);
  return r.stdout;
}

const sets = Object.entries(truth).flatMap(([k, v]) => ["--set", `${k}=${v}`]);
const rows = nodes.map((n) => {
  const s = JSON.parse(hotrow(["run", "--json", "--preset", preset, "--set", `dataNodes=${n}`, "--set", "seed=7", ...sets]));
  return `${n},${s.insertsPerSecond}`;
});
const csv = ["dataNodes,insertsPerSecond", ...rows].join("\n");
const started = process.hrtime.bigint();
const { fit } = JSON.parse(hotrow(["fit", "--preset", preset, "--measured", "-", "--json"], csv));
const seconds = Number(process.hrtime.bigint() - started) / 1e9;

console.log(`preset ${preset}, ${nodes.length} points (dataNodes ${nodes.join(", ")}), fitting ${fit.fitted.map((f) => f.field).join(" and ")}`);
for (const f of fit.fitted) {
  const t = truth[f.field];
  console.log(`  ${f.field.padEnd(18)} ${String(+f.estimate.value.toPrecision(4)).padStart(8)}  made with ${t}  (${(100 * (f.estimate.value / t - 1)).toFixed(1)}%)`);
}
console.log(`  ${fit.iterations} iterations, ${fit.evaluations} parameter sets, ${fit.runs} runs; rms error ${(100 * fit.rmsRelativeError).toFixed(2)}%; ${fit.stop}`);
console.log(`fit took ${seconds.toFixed(1)} s: ${(seconds / BUDGET_S).toFixed(2)} of the ${BUDGET_S} s budget`);
