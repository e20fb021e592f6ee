// A Fit in a link: the measured points and the fields fitted, and once a fit is done its
// result (the fit and hotrow's curve, packed as a link's spec is: spec-link.js), so that a
// link reopens the result without searching again. The fit's module checks, on reopening,
// that the result is of these points and fields (`FitSession.reopen`).

import { encodeJson, decodeJson } from "./spec-link.js";

/** The Fit mode's values for a link, when the user gave points (with the result once packed). */
export const fitLink = (view) =>
  view.fitPoints === undefined ? {} : { fitPoints: view.fitPoints, fitFields: view.fitFields, ...(view.fitResult ? { fitResult: view.fitResult } : {}) };

/** Packs a finished fit (`{ fit, predictions }`) into the view, for the link; a result too
 * big for a link is left out (the link then refits). */
export async function packResult(el, { fit, predictions }) {
  const r = await encodeJson({ fit, predictions }, "fit's result");
  if ("text" in r && el.lastFit?.fit === fit) el.update({ view: { fitResult: r.text } });
}

/** The `{ fit, predictions }` a link's result holds; throws saying what is wrong with it. */
export async function unpackResult(text) {
  const r = await decodeJson(text, "fit's result");
  if (typeof r.fit !== "object" || !Array.isArray(r.fit?.points) || !Array.isArray(r.fit?.fitted) || !Array.isArray(r.predictions)) {
    throw new Error("it does not hold a fit and its curve");
  }
  return r;
}
