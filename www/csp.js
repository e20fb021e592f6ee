// The Content Security Policy of every page of the site, put into each built page as a
// <meta http-equiv> tag (vite.config.js). Nothing inline: scripts, the worker, styles and
// the .wasm come from the page's own origin; WebAssembly compiles under 'wasm-unsafe-eval';
// no other origin is ever contacted. The element itself needs only the script, worker and
// connect lines (docs/playground.md: "Content Security Policy").
export const CSP = [
  "default-src 'none'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self'",
  "connect-src 'self'",
  "style-src 'self'",
  "img-src 'self'",
  "frame-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "object-src 'none'",
].join("; ");
