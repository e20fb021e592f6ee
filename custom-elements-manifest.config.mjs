// @custom-elements-manifest/analyzer's config: it reads the element's JSDoc (events, parts)
// and this plugin adds its attributes from the element's own list (js/element/state.js),
// which the analyzer cannot evaluate. Run by build-package.sh; the result ships as
// custom-elements.json ("customElements" in package.json).
import { FIELDS, ATTRIBUTE_VIEW, ATTRIBUTE_ONLY, kebab } from "./js/element/state.js";

const camel = (attr) => attr.replace(/-([a-z])/g, (_, c) => c.toUpperCase());

function attributesFromState() {
  return {
    name: "hotrow-attributes-from-state",
    packageLinkPhase({ customElementsManifest }) {
      for (const mod of customElementsManifest.modules) {
        for (const decl of mod.declarations ?? []) {
          if (decl.tagName !== "hotrow-playground") continue;
          const attrs = [...Object.keys(FIELDS).map(kebab), ...ATTRIBUTE_VIEW];
          decl.attributes = attrs.map((name) => {
            const field = Object.keys(FIELDS).find((f) => kebab(f) === name);
            const description = field ? `config field \`${field}\` (see \`fields()\` for its range)` : `view setting \`${camel(name)}\``;
            const attr = { name, type: { text: "string" }, description };
            if (!ATTRIBUTE_ONLY.includes(name)) attr.fieldName = camel(name);
            return attr;
          });
          decl.members = (decl.members ?? []).filter((m) => m.privacy !== "private");
        }
      }
    },
  };
}

export default {
  globs: ["js/element/hotrow-playground.js"],
  outdir: ".",
  plugins: [attributesFromState()],
};
