// The guided tour: walks the chapters (chapters.js), each running its own settings on a
// fixed seed, pointing at what to watch with driver.js, and writing its claim from the
// numbers measured when the chapter's runs pause at HOLD_MS (then held). Back and next (buttons or arrow keys),
// Escape leaves; the chapter is in the URL (`?tour=3`) and the element's `tour` attribute.
import { driver } from "../../dist/vendor/driver/driver.js.mjs";
import { css as driverCss } from "../../dist/vendor/driver/driver-css.js";
import { CHAPTERS } from "./chapters.js";
import { headline, withinNoise } from "./render.js";

/** Each chapter warms up for `WARMUP_MS`, runs to `HOLD_MS` and pauses there; its claim
 * quotes the figures of that last simulated second (render.js `headline`: the cards show
 * the same numbers, and "Why this number" counts the same span), and is held: read twice,
 * it says the same, even if the run goes on. */
const WARMUP_MS = 1000;
const HOLD_MS = WARMUP_MS + 1000;

/** Ours on top of driver.js's: readable contrast for its close button, themed by the page. */
const OVERRIDES = `
.driver-popover.hotrow-tour { max-width: 380px; color: #1d2230; }
.driver-popover.hotrow-tour .driver-popover-close-btn { color: #4b5263; }
.driver-popover.hotrow-tour .driver-popover-progress-text { color: #4b5263; }
.driver-popover.hotrow-tour .driver-popover-footer-btn:focus-visible { outline: 2px solid #2563eb; outline-offset: 2px; }
`;

let adopted = false;
/** driver.js's popover lives in the document: its CSS goes there once, as constructed sheets (no inline style). */
function adoptCss() {
  if (adopted) return;
  adopted = true;
  const sheets = [driverCss, OVERRIDES].map((text) => {
    const s = new CSSStyleSheet();
    s.replaceSync(text);
    return s;
  });
  document.adoptedStyleSheets = [...document.adoptedStyleSheets, ...sheets];
}

const reducedMotion = () => matchMedia("(prefers-reduced-motion: reduce)").matches;

export class Tour {
  constructor(el) {
    this.el = el;
    this.index = -1;
    this.driver = null;
    this.description = null;
    this.onSnapshot = () => this.updateClaim();
  }

  get active() {
    return this.index >= 0;
  }

  /** Starts (or moves) the tour at chapter `n`, 1-based; out-of-range numbers are clamped. */
  start(n = 1) {
    adoptCss();
    const i = Math.min(Math.max(1, Math.floor(+n) || 1), CHAPTERS.length) - 1;
    if (!this.driver) {
      this.driver = driver({
        animate: !reducedMotion(),
        allowClose: true,
        allowKeyboardControl: true,
        overlayOpacity: 0.25,
        stagePadding: 6,
        popoverClass: "hotrow-tour",
        showProgress: true,
        progressText: "Chapter {{current}} of {{total}}",
        nextBtnText: "Next →",
        prevBtnText: "← Back",
        doneBtnText: "Leave the tour",
        steps: CHAPTERS.map((c) => ({
          element: () => this.el.$(c.target) ?? this.el.host,
          popover: { title: c.title, description: "Measuring…", side: /** @type {import("driver.js").Side} */ (c.side ?? "bottom"), align: "start" },
        })),
        onPopoverRender: (popover) => {
          this.description = popover.description;
          this.description.setAttribute("aria-live", "polite");
          this.updateClaim();
        },
        // driver.js marks the highlighted element as a popup trigger; ours are figures and
        // charts, not buttons, so those attributes would be wrong there (axe says so).
        onHighlighted: (element) => {
          for (const a of ["aria-haspopup", "aria-expanded", "aria-controls"]) element?.removeAttribute(a);
        },
        onNextClick: () => (this.index + 1 < CHAPTERS.length ? this.go(this.index + 1) : this.end()),
        onPrevClick: () => this.index > 0 && this.go(this.index - 1),
        onCloseClick: () => this.end(),
        onDestroyStarted: () => this.end(),
      });
      this.el.host.addEventListener("hotrow-snapshot", this.onSnapshot);
    }
    this.go(i);
  }

  /** Shows chapter `i` (0-based): runs its settings, shows its controls, points at its target. */
  go(i) {
    const c = CHAPTERS[i];
    this.index = i;
    this.el.host.setAttribute("touring", "");
    for (const control of this.el.$$(".controls .control")) {
      const id = control.querySelector("input, select")?.id;
      control.classList.toggle("tour-show", c.controls === null || c.controls.includes(id));
    }
    // The claim waits for this chapter's own runs: the next `started` from the worker.
    this.startedBefore = this.el.started ?? 0;
    this.held = null;
    if (c.config) {
      const config = { ...c.config, warmupMs: WARMUP_MS };
      this.el.load({ config, view: { ...c.view, speed: this.el.view.speed, tour: i + 1, pauseAtMs: HOLD_MS } });
    } else {
      this.el.update({ view: { tour: i + 1 } });
    }
    this.centerTarget();
    if (this.driver.isActive()) this.driver.moveTo(i);
    else this.driver.drive(i);
    this.updateClaim();
  }

  /** Writes the chapter's claim once its runs reached `HOLD_MS` (then holds it), or says
   * it is still measuring. */
  updateClaim() {
    if (!this.active || !this.description) return;
    const c = CHAPTERS[this.index];
    const el = this.el;
    const runs = el.series ?? [];
    const expected = c.view?.mode === "compare" ? 2 : 1;
    const nowMs = el.latest?.nowMs ?? 0;
    const measured = (el.started ?? 0) > this.startedBefore && runs.length === expected && el.latest?.sims.length === expected &&
      nowMs >= HOLD_MS;
    let text;
    if (!c.config) {
      text = c.claim(/** @type {any} */ ({}));
    } else if (this.held) {
      text = this.held;
    } else if (!measured) {
      text = `Measuring… (${(nowMs / 1000).toFixed(1)} of ${HOLD_MS / 1000} simulated s)`;
    } else {
      const at = HOLD_MS / 1000;
      const [a, b] = runs.map((_, i) => headline(el, i, at));
      const [snapA, snapB] = el.latest.sims.map((s) => s.snapshot);
      const [whyA, whyB] = el.explained ?? [];
      const span = `${WARMUP_MS / 1000}–${at} s`;
      // The noise rule of the ratio card: within noise, a claim says so rather than a change.
      const noise = (k) => runs.length === 2 && withinNoise(el, k, at);
      text = `${c.claim({ a, b, snapA, snapB, whyA, whyB, noise })} (Measured over simulated ${span}, after a warm-up, as the figures show.)`;
      this.held = text;
    }
    if (this.description.textContent !== text) {
      this.description.textContent = text;
      // The claim's length and the chapter's new charts move things: center the target
      // again and place the popover again, so both stay on screen.
      this.centerTarget();
      this.driver?.refresh();
    }
  }

  /** Scrolls the chapter's target to the middle of the window (the popover goes under it). */
  centerTarget() {
    const target = this.el.$(CHAPTERS[this.index].target);
    target?.scrollIntoView({ block: "center", behavior: "instant" });
  }

  /** Leaves the tour: every control shows again; the run stays where it is (Play goes on). */
  end() {
    if (!this.active) return;
    this.index = -1;
    this.description = null;
    const d = this.driver;
    this.driver = null;
    d?.destroy();
    this.el.host.removeEventListener("hotrow-snapshot", this.onSnapshot);
    this.el.host.removeAttribute("touring");
    for (const control of this.el.$$(".control.tour-show")) control.classList.remove("tour-show");
    this.el.update({ view: { tour: undefined } });
  }
}
