// A VitePress site with hotrow's element in a page: the one setting it needs is that Vue
// leaves <hotrow-playground> to the browser (a custom element, not a Vue component).
import { defineConfig } from "vitepress";

export default defineConfig({
  title: "hotrow in VitePress",
  description: "hotrow's live figure in a VitePress page, with its static figure for readers without JavaScript",
  // Built where the repository keeps build output (npm test builds it: tests/browser/docs-tools.test.mjs).
  outDir: "../../target/vitepress",
  cacheDir: "../../target/vitepress-cache",
  vue: { template: { compilerOptions: { isCustomElement: (tag) => tag.startsWith("hotrow-") } } },
});
