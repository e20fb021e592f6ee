// Builds the playground site (www/dist): the full playground, the iframe embed page and
// a docs page showing both embeds. The element and the wasm package live outside www/
// (js/, dist/), as in the npm package.
import { defineConfig } from "vite";
import { fileURLToPath } from "node:url";
import { CSP } from "./csp.js";

const here = (p) => fileURLToPath(new URL(p, import.meta.url));

/** Puts the one policy (csp.js) into every built page, first thing in <head>. */
const csp = {
  name: "hotrow-csp",
  transformIndexHtml: {
    order: "post",
    handler: () => [{ tag: "meta", attrs: { "http-equiv": "Content-Security-Policy", content: CSP }, injectTo: "head-prepend" }],
  },
};

export default defineConfig({
  plugins: [csp],
  root: here("."),
  base: "./",
  publicDir: here("public"),
  build: {
    outDir: here("dist"),
    emptyOutDir: true,
    target: "es2022",
    rollupOptions: { input: { index: here("index.html"), embed: here("embed.html"), docs: here("docs.html") } },
  },
  worker: { format: "es" },
  server: { host: "127.0.0.1", port: 5173, strictPort: false, fs: { allow: [here("..")] } },
  preview: { host: "127.0.0.1", port: 5173 },
});
