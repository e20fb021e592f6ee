// Sweeps on every core: one short run per value of a field, spread round robin over a pool
// of workers (one wasm instance each, `navigator.hardwareConcurrency` by default). Each
// worker runs its share and reports after every run; cancelling terminates them.

class SweepPool {
  /** Workers are made by `spawn()`; between runs they wait, idle, for the next (a fit's
   * rounds follow each other: each worker loads its WebAssembly once), and are let go after
   * `IDLE_MS` without one. */
  constructor(spawn) {
    this.spawn = spawn;
    this.workers = [];
    this.idle = [];
    this.idleTimer = null;
  }

  /**
   * Runs `values` of `field` on `base` (whose run length is the mode's), or each of
   * `configs` as it is (`values` then name them), on at most `workers` workers. Calls
   * `onProgress(results so far, in value order)`; resolves with all results in value
   * order, or null when cancelled; rejects with the first run's error.
   */
  run({ base, field, values, configs, workers }, onProgress) {
    this.cancel();
    clearTimeout(this.idleTimer);
    const size = Math.max(1, Math.min(workers, values.length));
    const done = Array.from({ length: size }, () => []);
    const finished = new Set();
    return new Promise((resolve, reject) => {
      this.settle = resolve;
      const merged = () => done.flat().sort((a, b) => a.index - b.index);
      for (let k = 0; k < size; k++) {
        const worker = this.idle.pop() ?? this.spawn();
        this.workers.push(worker);
        const indexes = values.map((_, i) => i).filter((i) => i % size === k);
        worker.onmessage = (/** @type {MessageEvent<import("./protocol").FromWorker>} */ { data: m }) => {
          if (m.type === "sweepProgress" || m.type === "sweepDone") {
            done[k] = m.results;
            onProgress(merged());
          }
          if (m.type === "sweepDone") {
            finished.add(k);
            if (finished.size === size) {
              this.rest();
              resolve(merged());
            }
          } else if (m.type === "error" && (m.context === "sweep" || m.context === "init")) {
            this.stop();
            reject(new Error(m.message));
          }
        };
        worker.onerror = (e) => {
          this.stop();
          reject(new Error(`a sweep worker failed: ${e.message ?? "unknown error"}`));
        };
        /** @type {import("./protocol").ToWorker} */
        const share = { type: "sweep", base, field, values: indexes.map((i) => values[i]), configs: configs && indexes.map((i) => configs[i]), indexes };
        worker.postMessage(share);
      }
    });
  }

  /** Stops a running sweep: its promise resolves with null. */
  cancel() {
    if (!this.workers.length) return;
    this.stop();
    this.settle?.(null);
  }

  /** The run finished: its workers wait for the next one, then go. */
  rest() {
    for (const w of this.workers) w.onmessage = w.onerror = null;
    this.idle.push(...this.workers);
    this.workers = [];
    this.idleTimer = setTimeout(() => this.stop(), IDLE_MS);
  }

  /** Terminates every worker, busy or idle. */
  stop() {
    clearTimeout(this.idleTimer);
    for (const w of [...this.workers, ...this.idle]) w.terminate();
    this.workers = [];
    this.idle = [];
  }
}

/** How long idle workers wait for the next run before they are let go. */
const IDLE_MS = 10_000;

/** The element's pool (made once): its workers run worker.js. */
export function poolOf(el) {
  el.pool ??= new SweepPool(() => new Worker(new URL("./worker.js", import.meta.url), { type: "module" }));
  return el.pool;
}

/** How many workers the element's runs use: one per core unless `sweepWorkers` says. */
export const workersOf = (el, runs) => Math.max(1, Math.min(runs, el.sweepWorkers ?? navigator.hardwareConcurrency ?? 2));

/**
 * Runs `job` (SweepPool.run's options without `workers`) on element `el`'s pool with the
 * controls named `prefix`-run, -cancel and -progress: disables and re-enables them, shows
 * progress, calls `draw(results so far)`, and resolves with `{ results, workers, seconds }`
 * (`results` null when cancelled); a failed run is shown as the element's error and
 * resolves with `failed` set.
 */
export function runOnPool(el, prefix, job, draw) {
  const count = job.values.length;
  el.$(`.${prefix}-progress`).value = 0;
  el.$(`.${prefix}-run`).disabled = true;
  el.$(`.${prefix}-cancel`).disabled = false;
  const workers = workersOf(el, count);
  el.note(`Running ${count} runs on ${workers} worker${workers > 1 ? "s" : ""}...`, el.view.mode);
  poolOf(el);
  const t0 = performance.now();
  const progress = (results) => {
    el.$(`.${prefix}-progress`).value = results.length / count;
    draw(results);
  };
  return el.pool.run({ ...job, workers }, progress).then(
    (results) => ({ results, workers, seconds: (performance.now() - t0) / 1000 }),
    (e) => {
      el.showError(`The runs stopped: ${e.message}`);
      return { results: null, failed: true, workers, seconds: (performance.now() - t0) / 1000 };
    },
  ).finally(() => {
    el.$(`.${prefix}-run`).disabled = false;
    el.$(`.${prefix}-cancel`).disabled = true;
  });
}
