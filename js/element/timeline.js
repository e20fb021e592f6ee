// The worker's rewind memory: checkpoints of the running simulations, taken every
// `intervalEvents` events, kept within `budgetBytes`. When the budget fills, every other
// checkpoint is dropped and the interval doubles, so memory stays bounded however long the
// run, and a seek replays at most one interval of events from the checkpoint before it.
//
// A seek restores that checkpoint and runs forward to the time asked for: the simulation is
// deterministic, so the state shown is exactly the one a fresh run paused there shows.

const CHECKPOINT_BUDGET_BYTES = 64 * 1024 * 1024;
const CHECKPOINT_INTERVAL_EVENTS = 1_000_000;

/** The simulated time every one of `sims` has reached (in compare mode a light run may
 * wait for a heavy one: worker.js `advance`). */
export const nowOf = (sims) => Math.min(...sims.map((s) => s.nowMs));

export class Timeline {
  constructor({ budgetBytes = CHECKPOINT_BUDGET_BYTES, intervalEvents = CHECKPOINT_INTERVAL_EVENTS } = {}) {
    this.budgetBytes = budgetBytes;
    this.firstInterval = intervalEvents;
    this.entries = []; // { ms, cps: one Checkpoint per simulation, bytes }, by time
    this.bytes = 0;
    this.startMs = 0;
    this.frontierMs = 0;
  }

  /** Forgets everything and starts recording `sims` from where they are now. */
  reset(sims) {
    this.free();
    this.intervalEvents = this.firstInterval;
    this.startMs = nowOf(sims);
    this.frontierMs = this.startMs;
    this.sinceLast = 0;
    this.take(sims);
  }

  /** After the simulations advanced by `events` events: checkpoints them when an interval is due. */
  record(sims, events) {
    this.frontierMs = Math.max(this.frontierMs, nowOf(sims));
    this.sinceLast += events;
    if (this.sinceLast >= this.intervalEvents) this.take(sims);
  }

  take(sims) {
    const last = this.entries.at(-1);
    if (last && last.ms === nowOf(sims)) return;
    const cps = sims.map((s) => s.checkpoint());
    const bytes = cps.reduce((sum, cp) => sum + cp.memoryBytes, 0);
    this.entries.push({ ms: nowOf(sims), cps, bytes });
    this.bytes += bytes;
    this.sinceLast = 0;
    while (this.bytes > this.budgetBytes && this.entries.length > 2) this.thin();
  }

  /** Drops every other checkpoint (never the first) and doubles the interval. */
  thin() {
    const kept = [];
    this.entries.forEach((e, i) => {
      if (i === 0 || i % 2 === 0) kept.push(e);
      else this.drop(e);
    });
    this.entries = kept;
    this.intervalEvents *= 2;
  }

  drop(e) {
    for (const cp of e.cps) cp.free();
    this.bytes -= e.bytes;
  }

  /**
   * The recorded future after now is no longer the future (a knob changed, a fault was
   * injected): checkpoints from now on are dropped, the frontier moves back to now, and the
   * new present is checkpointed, so a seek never restores the old future.
   */
  truncate(sims) {
    const now = nowOf(sims);
    while (this.entries.length && this.entries.at(-1).ms >= now) this.drop(this.entries.pop());
    this.frontierMs = now;
    this.take(sims);
  }

  /** The times a seek may reach: from the start of the recording to the farthest time run. */
  clamp(ms) {
    return Math.min(Math.max(ms, this.startMs), this.frontierMs);
  }

  /**
   * Brings `sims` to simulated time `ms` (clamped to the recorded span): restores the
   * latest checkpoint at or before it (unless running on from now is shorter) and replays.
   * There is always one: the start is never dropped.
   */
  seek(sims, ms) {
    const target = this.clamp(ms);
    const now = nowOf(sims);
    const e = this.latestAtOrBefore(target);
    // Restore when any run is past the target (in compare mode one may be ahead of the
    // other), or when the checkpoint is nearer than now.
    if (sims.some((s) => s.nowMs > target) || e.ms > now) sims.forEach((s, i) => s.restore(e.cps[i]));
    for (const s of sims) s.runFor(Math.max(0, target - s.nowMs));
    this.sinceLast = 0;
  }

  latestAtOrBefore(ms) {
    let lo = 0;
    let hi = this.entries.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (this.entries[mid].ms <= ms) lo = mid;
      else hi = mid - 1;
    }
    return this.entries[lo];
  }

  get count() {
    return this.entries.length;
  }

  free() {
    for (const e of this.entries) this.drop(e);
    this.entries = [];
    this.bytes = 0;
  }
}

/**
 * A new simulation that goes on from where `sim` is now (a fork's run B). The checkpoint it
 * starts from is freed at once: the branch owns a copy, and a checkpoint kept would be a
 * whole state lost in wasm memory per fork.
 */
export function branch(sim, Simulation = sim.constructor) {
  const cp = sim.checkpoint();
  try {
    return Simulation.fromCheckpoint(cp);
  } finally {
    cp.free();
  }
}
