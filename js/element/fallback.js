// The static figure an element shows until its simulation runs: its children (a report's
// fragment, `hotrow report --fragment`), or the HTML its `static-src` attribute names,
// fetched. It shows until the worker's WebAssembly module is ready, and stays when that
// never happens (JavaScript on but WebAssembly refused, e.g. a Content-Security-Policy
// without 'wasm-unsafe-eval'); with JavaScript off the element never upgrades and the
// browser shows the children as plain HTML.

/** Shows the fallback while the module loads, if the element has one. */
export function showFallback(el) {
  const box = el.$(".fallback");
  const src = el.host.getAttribute("static-src");
  box.hidden = !(el.host.children.length > 0 || src);
  if (!src || el.host.children.length > 0) return;
  fetch(new URL(src, document.baseURI))
    .then((r) => (r.ok ? r.text() : Promise.reject(new Error(`${r.status} ${r.statusText}`))))
    .then((html) => {
      // Still loading: show the fetched figure (a report fragment of the page's own choosing).
      if (!el.ready) el.$(".fallback-fetched").innerHTML = html;
    })
    .catch(() => {}); // no static figure: the live one follows
}

/** The module is ready: the live playground replaces the static figure. */
export function hideFallback(el) {
  const box = el.$?.(".fallback");
  if (box) box.hidden = true;
}
