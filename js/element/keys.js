// Keyboard shortcuts, scoped to the element: they act only while focus is inside it, never
// on keys typed into a field of its own or of the host page, and not while touring (the
// tour has its own keys).
//
//   space  play / pause        .  step one window        r  reset        ?  list the keys

/** The shortcuts, as the help panel lists them: key, what it does, the button it presses. */
const KEYS = [
  { key: " ", name: "Space", does: "play or pause", button: ".play" },
  { key: ".", name: ".", does: "step one metrics window (pauses)", button: ".step" },
  { key: "r", name: "r", does: "reset: the same settings from time 0", button: ".reset" },
  { key: "?", name: "?", does: "show or hide this list", button: null },
];

/** Elements whose keys are the user's own text or choices. */
const TYPING = new Set(["INPUT", "SELECT", "TEXTAREA"]);

/** Binds the shortcuts to element `el` (its shadow root holds the buttons and the help panel). */
export function bindKeys(el) {
  const help = el.$(".keys-help");
  help.querySelector("dl").replaceChildren(...KEYS.flatMap(({ name, does }) => {
    const dt = document.createElement("dt");
    dt.append(Object.assign(document.createElement("kbd"), { textContent: name }));
    const dd = Object.assign(document.createElement("dd"), { textContent: does });
    return [dt, dd];
  }));
  const toggleHelp = (show = help.hidden) => {
    help.hidden = !show;
    el.$(".keys-toggle").setAttribute("aria-expanded", String(show));
  };
  el.$(".keys-toggle").onclick = () => toggleHelp();
  el.$(".keys-close").onclick = () => toggleHelp(false);
  el.host.addEventListener("keydown", (e) => {
    if (e.ctrlKey || e.metaKey || e.altKey || el.host.hasAttribute("touring")) return;
    const target = e.composedPath()[0];
    if (TYPING.has(target?.tagName) || target?.isContentEditable) return;
    if (e.key === "Escape" && !help.hidden) {
      toggleHelp(false);
      return;
    }
    const k = KEYS.find((x) => x.key === e.key);
    // Space on a focused button is that button's own click: leave it to the browser.
    if (!k || (k.key === " " && target?.tagName === "BUTTON")) return;
    e.preventDefault();
    if (k.button) el.$(k.button).click();
    else toggleHelp();
  });
}
