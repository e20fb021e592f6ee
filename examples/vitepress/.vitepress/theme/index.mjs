// The default theme, and hotrow's element registered in the browser only: VitePress renders
// every page in Node first (where there is no customElements), so the import waits for the
// client. Until it runs, and without JavaScript, the page shows the element's children.
import DefaultTheme from "vitepress/theme";

export default {
  extends: DefaultTheme,
  enhanceApp() {
    if (!import.meta.env.SSR) import("hotrow/playground");
  },
};
