// Glue between a page's URL and the <hotrow-playground> element: the URL holds the whole
// state (config, seed, mode, speed; versioned), so a copied link reopens the same run.
import "../../js/element/hotrow-playground.js";
import { parseQuery } from "../../js/element/state.js";

export function bindToUrl(element, { keepUrl = true } = {}) {
  const state = parseQuery(location.search);
  element.load(state);
  if (keepUrl) {
    element.addEventListener("hotrow-statechange", (e) => {
      history.replaceState(null, "", `${location.pathname}?${e.detail.query}`);
    });
  }
}
