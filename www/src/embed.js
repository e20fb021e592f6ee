// The iframe page takes the same settings as the config, as query parameters:
// embed.html?preset=bug39267&cacheSize=1000&dataNodes=8&seed=1 (add full=1 for every panel).
import { bindToUrl } from "./page.js";
const el = document.querySelector("hotrow-playground");
if (new URLSearchParams(location.search).get("full") === "1") el.removeAttribute("compact");
const params = new URLSearchParams(location.search);
params.delete("full");
history.replaceState(null, "", `${location.pathname}?${params}`);
bindToUrl(el, { keepUrl: false });
