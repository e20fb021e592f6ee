// The cluster drawn: API nodes on top, data nodes below grouped by node group, the allocator
// service at the side when it is in use. The node holding the SYSTAB_0 counter row is
// outlined, with its lock and the refills queued on it as a line of squares; each data node
// shows its load (fill) and the transactions it coordinates (the TC bar). At slow speeds
// every signal crossing the network is a dot on its way; at fast speeds (or with
// prefers-reduced-motion) the same sample is drawn as flows whose width is the traffic.
import { css } from "./charts.js";

/** At or below this speed (simulated ms per wall second, 1/100 of real time) signals are drawn one by one. */
const SIGNAL_SPEED = 10;

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

/** The colour class of a signal: id allocation, API <-> TC, or TC <-> LQH (prepare, commit, complete). */
function kindOf(signal, allocator) {
  if (allocator) return "alloc";
  return signal.startsWith("TC") || signal.startsWith("API") ? "api" : "lqh";
}

/** The counter's lock as the engine holds it (its hot row's table: SYSTAB_0, sequence,
 * AUTO_INCREMENT) and who waits for it (refills, or InnoDB's INSERTs themselves), from a
 * snapshot. */
export function counterLock(snap) {
  return {
    name: `${snap.hottestRows?.find((r) => r.counterOf)?.table ?? "SYSTAB_0"} lock`,
    waiters: snap.facts?.cards.includes("refillsPerSecond") ? "refills" : "INSERTs",
  };
}

export class ClusterDrawing {
  constructor(canvas, panel) {
    this.canvas = canvas;
    this.panel = panel;
    this.view = null;
    this.flows = new Map(); // host pair -> decaying count of signals per kind
  }

  /** The latest view (`Simulation.cluster()`), the snapshot's per-node figures and the display settings. */
  /** `binding`: the hot row of the workload's own that binds now (outlined instead of the counter row's node), or null. */
  /** `traits`: what the first run's id strategy has (`traitsOf`): a counter row's lock or a service is drawn only for a strategy that has one. */
  /** `server`: a one-server engine's name ("PostgreSQL (one server)"), or null for NDB's cluster. */
  /** `lock`: the counter's lock in words, `{ name: "SYSTAB_0 lock", waiters: "refills" }`. */
  update(view, snapshot, { speed, traits, binding = null, server = null, lock = { name: "SYSTAB_0 lock", waiters: "refills" } }) {
    this.binding = binding;
    this.lock = lock;
    this.server = server;
    if (this.view && view.dataNodes !== this.view.dataNodes) this.reset();
    this.view = view;
    this.snapshot = snapshot;
    this.signals = speed <= SIGNAL_SPEED && !reducedMotion();
    this.counterRow = traits.counterRow;
    this.serviceShown = traits.service;
  }

  /** Forgets the flows' tally (a new run, or a seek to another moment). */
  reset() {
    this.flows.clear();
  }

  /**
   * The counter row's lock and the refills queued on it, under the node that holds the row:
   * a filled square when held, an open one per refill waiting, and as much of the label as
   * fits inside the node's group box (the full sentence, then shorter ones, then none).
   */
  drawLock(ctx, L, color, r) {
    const v = this.view;
    const p = L.pos.get(v.hotRowNode);
    const g = Math.floor(v.hotRowNode / v.replicas);
    const left = 20 + L.groupW * g + 9;
    const right = 20 + L.groupW * (g + 1) - 9;
    const y = p.y + r + 19;
    const size = 6;
    let x = left;
    ctx.textAlign = "left";
    ctx.fillStyle = color.alloc;
    ctx.strokeStyle = color.alloc;
    ctx.lineWidth = 1.5;
    if (v.lockHeld) {
      ctx.fillRect(x, y - size / 2, size + 2, size + 2);
      x += size + 6;
    }
    const room = Math.max(0, Math.floor((right - x - 40) / (size + 2)));
    const shown = Math.min(v.lockWaiting, 24, room);
    for (let i = 0; i < shown; i++) ctx.strokeRect(x + i * (size + 2), y - size / 2, size, size);
    x += shown * (size + 2) + 4;
    const state = v.lockHeld ? "held" : "free";
    const more = v.lockWaiting > shown && shown > 0 ? ` (+${v.lockWaiting - shown})` : "";
    const labels = [`${this.lock.name} ${state}, ${v.lockWaiting} ${this.lock.waiters} waiting${more}`, `lock ${state}, ${v.lockWaiting} waiting`, `${v.lockWaiting} waiting`];
    const label = labels.find((t) => x + ctx.measureText(t).width <= right);
    if (label) ctx.fillText(label, x, y + 1);
    ctx.textAlign = "center";
  }

  /** Host positions for a canvas `w` wide. */
  layout(w) {
    const v = this.view;
    const pos = new Map();
    const apiY = 26;
    const dataY = 150;
    const right = this.serviceShown ? w - 90 : w - 10;
    const apiStep = (right - 20) / Math.max(1, v.apiNodes);
    for (let a = 0; a < v.apiNodes; a++) pos.set(v.dataNodes + a, { x: 20 + apiStep * (a + 0.5), y: apiY });
    const groupW = (right - 20) / Math.max(1, v.nodeGroups);
    for (let n = 0; n < v.dataNodes; n++) {
      const g = Math.floor(n / v.replicas);
      const i = n % v.replicas;
      pos.set(n, { x: 20 + groupW * g + (groupW * (i + 0.5)) / v.replicas, y: dataY });
    }
    pos.set(v.serviceHost, { x: w - 45, y: (apiY + dataY) / 2 });
    return { pos, groupW, apiStep, dataY, apiY, right };
  }

  draw() {
    const v = this.view;
    const c = this.canvas;
    if (!v || !c.isConnected || c.closest("[hidden]")) return;
    const w = c.clientWidth || 600;
    const h = 250;
    const dpr = devicePixelRatio || 1;
    if (c.width !== Math.round(w * dpr) || c.height !== Math.round(h * dpr)) {
      c.width = Math.round(w * dpr);
      c.height = Math.round(h * dpr);
    }
    const ctx = c.getContext("2d");
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, w, h);
    const host = c.getRootNode().host ?? c;
    const color = {
      fg: css(host, "--hotrow-fg", "#222"), muted: css(host, "--hotrow-muted", "#666"), panel: css(host, "--hotrow-panel", "#eee"),
      border: css(host, "--hotrow-border", "#ccc"), api: css(host, "--hotrow-accent", "#2563eb"),
      lqh: css(host, "--hotrow-accent2", "#0b7a5c"), alloc: css(host, "--hotrow-hot", "#c2410c"),
    };
    const L = this.layout(w);
    ctx.font = "11px system-ui, sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    // Node groups.
    for (let g = 0; g < v.nodeGroups; g++) {
      ctx.strokeStyle = color.border;
      ctx.lineWidth = 1;
      ctx.strokeRect(20 + L.groupW * g + 3, L.dataY - 36, L.groupW - 6, 100);
      ctx.fillStyle = color.muted;
      ctx.fillText(this.server ?? `node group ${g}`, 20 + L.groupW * (g + 0.5), L.dataY + 56);
    }
    // Messages, under the hosts.
    const drawn = this.signals ? this.drawSignals(ctx, L, color) : this.drawFlows(ctx, L, color);
    this.drawApiNodes(ctx, L, color);
    const r = this.drawDataNodes(ctx, L, color);
    if (this.counterRow) this.drawLock(ctx, L, color, r);
    if (this.serviceShown) {
      const p = L.pos.get(v.serviceHost);
      ctx.fillStyle = color.panel;
      ctx.strokeStyle = color.alloc;
      ctx.lineWidth = 2;
      ctx.fillRect(p.x - 38, p.y - 14, 76, 28);
      ctx.strokeRect(p.x - 38, p.y - 14, 76, 28);
      ctx.fillStyle = color.fg;
      ctx.fillText("allocator", p.x, p.y);
    }
    this.panel.dataset.messagesInFlight = String(drawn);
    this.panel.dataset.drawing = this.signals ? "signals" : "flows";
    const label = this.describe();
    if (c.getAttribute("aria-label") !== label) c.setAttribute("aria-label", label);
  }

  /** Each message in flight as a dot between its hosts; returns how many were drawn. */
  drawSignals(ctx, L, color) {
    const m = this.view.messages;
    let drawn = 0;
    for (let i = 0; i < m.from.length; i++) {
      const a = L.pos.get(m.from[i]);
      const b = L.pos.get(m.to[i]);
      if (!a || !b) continue;
      const t = m.progress[i];
      ctx.fillStyle = color[kindOf(m.signal[i], m.allocator[i])];
      ctx.beginPath();
      ctx.arc(a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, m.allocator[i] ? 4 : 2.5, 0, 2 * Math.PI);
      ctx.fill();
      drawn++;
    }
    return drawn;
  }

  /** Flows: each tick's sample added to a decaying tally per pair of hosts, so a line's
   * width is the recent traffic between them and its colour the kind most of it is;
   * returns the messages sampled. */
  drawFlows(ctx, L, color) {
    const v = this.view;
    const m = v.messages;
    if (this.tallied !== v) {
      this.tallied = v;
      for (const f of this.flows.values()) for (const k of Object.keys(f.kinds)) f.kinds[k] *= 0.9;
      for (let i = 0; i < m.from.length; i++) {
        const a = Math.min(m.from[i], m.to[i]);
        const b = Math.max(m.from[i], m.to[i]);
        const key = a * 4096 + b;
        const f = this.flows.get(key) ?? { a, b, kinds: { api: 0, lqh: 0, alloc: 0 } };
        f.kinds[kindOf(m.signal[i], m.allocator[i])] += 1;
        this.flows.set(key, f);
      }
    }
    const total = (f) => f.kinds.api + f.kinds.lqh + f.kinds.alloc;
    const top = Math.max(1e-9, ...[...this.flows.values()].map(total));
    for (const f of this.flows.values()) {
      const a = L.pos.get(f.a);
      const b = L.pos.get(f.b);
      const n = total(f);
      if (!a || !b || n < top * 0.01) continue;
      const kind = Object.entries(f.kinds).sort((x, y) => y[1] - x[1])[0][0];
      ctx.strokeStyle = color[kind];
      ctx.globalAlpha = 0.6;
      ctx.lineWidth = 0.5 + (7 * n) / top;
      ctx.beginPath();
      ctx.moveTo(a.x, a.y);
      ctx.lineTo(b.x, b.y);
      ctx.stroke();
    }
    ctx.globalAlpha = 1;
    return m.from.length;
  }

  /** The API nodes, as boxes along the top. */
  drawApiNodes(ctx, L, color) {
    const v = this.view;
    const boxW = Math.max(10, Math.min(56, L.apiStep - 6));
    for (let a = 0; a < v.apiNodes; a++) {
      const p = L.pos.get(v.dataNodes + a);
      ctx.fillStyle = color.panel;
      ctx.strokeStyle = color.api;
      ctx.lineWidth = 1.5;
      ctx.fillRect(p.x - boxW / 2, p.y - 12, boxW, 24);
      ctx.strokeRect(p.x - boxW / 2, p.y - 12, boxW, 24);
      if (boxW >= 30) {
        ctx.fillStyle = color.fg;
        ctx.fillText(`API ${a}`, p.x, p.y);
      }
    }
  }

  /** Data nodes: load fills the circle from the bottom; the TC bar under it. Returns the
   * circles' radius. */
  drawDataNodes(ctx, L, color) {
    const v = this.view;
    const down = new Set(v.nodesDown);
    const load = this.snapshot?.nodeLoad ?? [];
    const tc = this.snapshot?.nodeTcPerSecond ?? [];
    const tcMax = Math.max(1, ...tc);
    const r = Math.max(8, Math.min(20, L.groupW / v.replicas / 2 - 6));
    for (let n = 0; n < v.dataNodes; n++) {
      const p = L.pos.get(n);
      const hot = this.binding ? n === this.binding.node : n === v.hotRowNode && this.counterRow;
      ctx.save();
      ctx.beginPath();
      ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
      ctx.fillStyle = color.panel;
      ctx.fill();
      ctx.clip();
      const f = Math.max(0, Math.min(1, load[n] ?? 0));
      ctx.fillStyle = `hsl(${220 - 220 * f} 85% ${30 + 30 * f}%)`;
      ctx.fillRect(p.x - r, p.y + r - 2 * r * f, 2 * r, 2 * r * f);
      ctx.restore();
      ctx.beginPath();
      ctx.arc(p.x, p.y, r, 0, 2 * Math.PI);
      ctx.strokeStyle = hot ? color.alloc : down.has(n) ? color.muted : color.fg;
      ctx.lineWidth = hot ? 3 : 1;
      ctx.setLineDash(down.has(n) ? [3, 3] : []);
      ctx.stroke();
      ctx.setLineDash([]);
      ctx.fillStyle = color.fg;
      ctx.fillText(down.has(n) ? `${n} down` : String(n), p.x, p.y - r - 7);
      const bar = ((tc[n] ?? 0) / tcMax) * (2 * r);
      ctx.fillStyle = color.api;
      ctx.fillRect(p.x - r, p.y + r + 4, bar, 4);
    }
    return r;
  }

  /** The drawing in words, for its aria-label. */
  describe() {
    const v = this.view;
    const held = v.lockHeld ? "held" : "free";
    const row = this.binding
      ? ` Node ${this.binding.node} holds ${this.binding.counterOf ? `the counter row of ${this.binding.counterOf}` : `${this.binding.table} ${this.binding.key}`}, the row that binds; its lock is busy ${Math.round(100 * this.binding.lockBusyFraction)}% of the time.`
      : this.counterRow ? ` Node ${v.hotRowNode} holds the counter row; its lock is ${held} with ${v.lockWaiting} ${this.lock.waiters} waiting.` : "";
    const service = this.serviceShown ? " The allocator service runs on a host of its own." : "";
    const hosts = this.server ? `One server, ${this.server},` : `${v.dataNodes} data nodes in ${v.nodeGroups} node groups,`;
    return `${hosts} ${v.apiNodes} API nodes.${row}${service} ${v.inFlight} messages in flight.`;
  }
}
