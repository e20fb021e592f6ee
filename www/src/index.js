import { bindToUrl } from "./page.js";
bindToUrl(document.querySelector("hotrow-playground"));
