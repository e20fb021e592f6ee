// Messages to the worker (declared in protocol.d.ts), and the one request-id scheme:
// `request` sends a message with a fresh `id` and resolves when the answer with `replyTo`
// = that id arrives (messages.js calls `settle`), or rejects with the worker's refusal.

/** @typedef {import("./protocol").ToWorker} ToWorker */
/** @typedef {ToWorker extends infer T ? T extends { id: number } ? Omit<T, "id"> : never : never} Request */

/** Sends `msg` (one that expects no answer) to the worker, if it runs. @param {ToWorker} msg */
export function send(el, msg) {
  el.worker?.postMessage(msg);
}

/**
 * Sends `msg` with a fresh id; resolves with the answer's payload (`checked`: the message,
 * `export`: its runs, a seek's or fork's tick: the figures shown), or rejects with the
 * worker's refusal. A seek or fork answered settles the older ones it superseded too.
 * @param {Request} msg
 * @returns {Promise<any>}
 */
export function request(el, msg) {
  const id = ++el.requests.last;
  return new Promise((resolve, reject) => {
    el.requests.pending.set(id, { type: msg.type, resolve, reject });
    el.worker.postMessage({ ...msg, id });
  });
}

const MOVES = ["seek", "fork"];

/** Settles request `id` (and, for a seek or fork, the older seeks and forks) with `error` or `value`. */
export function settle(el, id, error, value) {
  const own = el.requests.pending.get(id);
  if (!own) return;
  for (const [k, r] of el.requests.pending) {
    if (k === id || (k < id && MOVES.includes(own.type) && MOVES.includes(r.type))) {
      el.requests.pending.delete(k);
      if (error) r.reject(error);
      else r.resolve(value);
    }
  }
}

/** Rejects every request still waiting (the worker was replaced or stopped). */
export function settleAll(el, error) {
  for (const r of el.requests.pending.values()) r.reject(error);
  el.requests.pending.clear();
}
