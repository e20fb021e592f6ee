// The iframe page takes the same settings as the config, as query parameters:
// embed.html?preset=bug39267&cacheSize=1000&dataNodes=8&seed=1 (add full=1 for every panel,
// figure=1 for the headline figures and the throughput chart alone).
import { bindToUrl } from "./page.js";
const el = document.querySelector("hotrow-playground");
const params = new URLSearchParams(location.search);
if (params.get("full") === "1") el.removeAttribute("compact");
if (params.get("figure") === "1") el.setAttribute("figure", "");
params.delete("full");
params.delete("figure");
history.replaceState(null, "", `${location.pathname}?${params}`);
bindToUrl(el, { keepUrl: false });
