// A WebAssembly module of its own (the SQL import's, the report's, the fit's), loaded the first time it
// is used and never before, so the main module every embed loads does not grow. Browsers
// and bundlers fetch it beside its glue; js/node.mjs instantiates it from disk instead.

/**
 * The loader of the module whose glue is `glue` and whose default export is `init`.
 * @template G
 * @param {() => unknown} init
 * @param {G} glue
 */
export function lazyModule(init, glue) {
  /** @type {Promise<G> | null} */
  let loading = null;
  let instantiate = () => init();
  return {
    /** js/node.mjs's hook: instantiate with `f(glue)` (e.g. `initSync` from disk) instead.
     * @param {(glue: G) => unknown} f */
    instantiateWith(f) {
      instantiate = () => f(glue);
    },
    /** The glue once its module is instantiated (a failed load, e.g. a network error, is
     * tried again next call).
     * @returns {Promise<G>} */
    load() {
      loading ??= Promise.resolve(instantiate())
        .then(() => glue)
        .catch((e) => {
          loading = null;
          throw e;
        });
      return loading;
    },
  };
}
