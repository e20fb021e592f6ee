// The guided tour's story: one chapter per claim, each on a fixed seed, each with the
// settings it runs, what it points at, the controls it shows, and its claim written from the
// live numbers (never literals). tour.js walks them.
import { REPORTED, k } from "./bug-report.js";
import { fmtInt, plainName } from "./format.js";

const pct = (x) => `${Math.round(100 * x)}%`;
/** "rose 49%" / "fell 3%" for a ratio b / a, or "did not move beyond noise (0.98x)" when
 * `within` (the ratio card's rule: the two figures' intervals overlap). */
const change = (ratio, within) => {
  const p = Math.round(100 * (ratio - 1));
  if (within || p === 0) return `did not move beyond noise (${ratio.toFixed(2)}x)`;
  return p > 0 ? `rose ${p}%` : `fell ${-p}%`;
};
const times = (x) => `${x.toFixed(x < 10 ? 1 : 0)}x`;
/** The share of TC work on node `n` (transactions coordinated). */
const tcShare = (snap, n) => {
  const t = snap.nodeTcPerSecond;
  const total = t.reduce((a, b) => a + b, 0);
  return total > 0 ? t[n] / total : 0;
};

/** What holds a run, as the "Why this number" panel names it (empty before it knows). */
const held = (why, run = "") => (why?.bottleneck
  ? ` The panel "Why this number" names what holds ${run || "it"}: ${plainName(why.bottleneck.name)}, ${pct(why.bottleneck.utilization)} busy.`
  : "");

const SEED = 1;
const compare = (field, a, b) => ({ mode: "compare", compareField: field, compareA: a, compareB: b });

/**
 * Each chapter: `title`; `config` and `view` it runs (null: keep the sandbox's); `target`
 * (a selector inside the element) it points at, and the `side` of it the popover takes
 * (default below); `controls` (ids) it shows; `claim(f)` its text from the figures `f`
 * ({ a, b, snapA, snapB, whyA, whyB, noise }: runs A and B's headline figures over the
 * second before the tour's hold (tour.js), their latest snapshots, what holds each, from
 * `explain()`, and `noise(metric)`, whether A and B differ only by noise, as the ratio card
 * decides).
 */
export const CHAPTERS = [
  {
    title: "The 2008 bug: one row, every insert",
    config: { preset: "bug39267", seed: SEED },
    view: { mode: "live" },
    target: ".figure.lock:not(.binding)",
    controls: [],
    claim: ({ a, whyA }) =>
      `DBT2 on 8 data nodes, id cache size 1: every insert into a table without a primary key first updates one SYSTAB_0 ` +
      `counter row in its own committed transaction. That row's lock is busy ${pct(a.hotRowLockUtilization)} of the time and TPM is ` +
      `${fmtInt(a.tpm)} (the report measured ${k(REPORTED.cacheOneTpm)}): the whole cluster's inserts queue on one lock. This second ` +
      `is early in DBT2's transient (New-Orders start with empty tables and queues), so it reads above the steady figure that ` +
      "`hotrow run --preset bug39267` measures over 10 s after 2 s of warm-up." + held(whyA),
  },
  {
    title: "Three times the nodes, far from three times the TPM",
    config: { preset: "bug39267", seed: SEED },
    view: compare("dataNodes", "8", "24"),
    target: ".chart-throughput",
    side: "right", // beside the chart, not over run A's heatmap below it
    controls: [],
    claim: ({ a, b, whyB, noise }) =>
      `Run A has 8 data nodes, run B 24: three times the hardware, and TPM ${change(b.tpm / a.tpm, noise("tpm"))} ` +
      `(${fmtInt(a.tpm)} → ${fmtInt(b.tpm)}), where a cluster that scaled would triple it. The counter row's lock is ` +
      `busy ${pct(a.hotRowLockUtilization)} and ${pct(b.hotRowLockUtilization)}: it, not the nodes, sets the pace.${held(whyB, "run B")}`,
  },
  {
    title: "The cache frees the row",
    config: { preset: "bug39267", seed: SEED },
    view: compare("cacheSize", "1", "1000"),
    target: ".figures",
    controls: ["cacheSize"],
    claim: ({ a, b, whyB, noise }) =>
      `Run B fetches 1000 ids per refill instead of 1. TPM ${change(b.tpm / a.tpm, noise("tpm"))} (${fmtInt(a.tpm)} → ${fmtInt(b.tpm)}; ` +
      `the report: ${k(REPORTED.cacheOneTpm)} → ${k(REPORTED.cacheThousandTpm)}) and the row's lock went from busy ${pct(a.hotRowLockUtilization)} to ${pct(b.hotRowLockUtilization)}: ` +
      `one refill now serves a thousand inserts.${held(whyB, "run B")}`,
  },
  {
    title: "The hint: where coordinators land",
    config: { preset: "bug39267", seed: SEED },
    view: compare("hintedRefill", "false", "true"),
    target: ".bars-tc",
    side: "right", // beside run A's bars, not over run B's below them
    controls: ["hintedRefill"],
    claim: ({ a, b, snapA, snapB, noise }) =>
      `Without a hint a refill's transaction coordinator is picked round robin: node ${snapA.hotRowNode}, which holds the ` +
      `row, coordinates ${pct(tcShare(snapA, snapA.hotRowNode))} of transactions in run A. With the hint (run B) refills are ` +
      `coordinated on the row's own node: ${pct(tcShare(snapB, snapB.hotRowNode))} there. Throughput ${change(b.tpm / a.tpm, noise("tpm"))}: ` +
      `the hint saves messages, but every insert still waits for the one lock.`,
  },
  {
    title: "The NDB API: primary key or hidden key",
    config: { preset: "ndbapi-hidden-pk", seed: SEED },
    view: compare("primaryKey", "false", "true"),
    target: ".chart-throughput",
    controls: [],
    claim: ({ a, b }) =>
      `Single-row inserts through the NDB API: the table with a primary key (run B) inserts ${fmtInt(b.insertsPerSecond)} rows/s, the one ` +
      `with a hidden key ${fmtInt(a.insertsPerSecond)}: ${times(b.insertsPerSecond / Math.max(1, a.insertsPerSecond))} (the report: about 10x). Each hidden-key ` +
      `insert needs its own refill of the counter row first.`,
  },
  {
    title: "Other ways to hand out ids",
    config: { preset: "ndb-autoincrement", seed: SEED, cacheSize: 1, clientsPerApiNode: 16 },
    view: compare("allocator", "counterRow", "timestamp"),
    target: '[data-view="cluster"]',
    controls: ["allocator"],
    claim: ({ a, b }) =>
      `Run A takes each id from the counter row (cache 1); run B makes ids from the clock, the node and a sequence ` +
      `(Snowflake) and asks no one: ${times(b.insertsPerSecond / Math.max(1, a.insertsPerSecond))} the inserts (${fmtInt(a.insertsPerSecond)} → ${fmtInt(b.insertsPerSecond)}/s). ` +
      `The price is order: timestamp ids rise per node, not across the cluster.`,
  },
  {
    title: "A central allocator service",
    config: { preset: "ndb-autoincrement", seed: SEED, cacheSize: 1, clientsPerApiNode: 16 },
    view: compare("allocator", "counterRow", "centralService"),
    target: ".why-panel",
    controls: ["allocator"],
    claim: ({ a, b, whyB }) =>
      `Run B asks one allocator service for each range instead (TiDB's PD, Vitess sequences): no row lock, no two-phase ` +
      `commit, ${times(b.insertsPerSecond / Math.max(1, a.insertsPerSecond))} the counter row's inserts at cache 1 (${fmtInt(a.insertsPerSecond)} → ` +
      `${fmtInt(b.insertsPerSecond)}/s). But one service thread answers every request: it, in turn, is the ceiling, and a bigger ` +
      `cache is what lifts it.${held(whyB, "run B")}`,
  },
  {
    title: "Range partitioning's tail hotspot",
    // Ranges of 20,000 rows (the preset's are 100,000) so that they split within the chapter.
    config: { preset: "range-sequential", seed: SEED, clientsPerApiNode: 16, rangeRows: 20000 },
    view: compare("keyLayout", "sequential", "shardBits"),
    target: "canvas.heatmap",
    side: "right", // beside run A's heatmap, not over its bars below it
    controls: ["keyLayout"],
    claim: ({ a, b, snapA, snapB }) =>
      `With rows placed by key range, sequential ids all land at the end of the last range: ${pct(snapA.insertSkew)} of run A's ` +
      `rows go to one partition (the bright line). Shard bits on top of the key (TiDB's AUTO_RANDOM) spread them ` +
      `(${pct(snapB.insertSkew)} on the busiest) and insert ${times(b.insertsPerSecond / Math.max(1, a.insertsPerSecond))} as fast.`,
  },
  {
    title: "Your turn",
    config: null,
    view: null,
    target: ".controls",
    controls: null,
    claim: () =>
      `That is the story. Every knob is yours now: change the cache, the nodes, the allocator or the key layout, fork a ` +
      `past moment from the timeline, compare or sweep. Leave the tour to use the whole playground.`,
  },
];
