/* Links in messages and keyboards: only http(s) ones open, and a t.me link to the bot opens
   its private chat here, as in Telegram. */

import { post } from "./api.js";
import { h } from "./dom.js";
import { ui } from "./state.js";
import { showView } from "./views.js";

/** An http(s) URL to open, or null: other schemes (javascript:, data:, …) never become links. */
export function safeUrl(raw) {
  let url;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

export function isBotLink(href) {
  const url = new URL(href);
  const bot = (ui.snap?.bot.username || "").toLowerCase();
  const path = url.pathname.replace(/^\/+|\/+$/g, "").toLowerCase();
  return ["t.me", "telegram.me"].includes(url.hostname) && bot !== "" && path === bot;
}

/** A t.me link to the bot: Telegram opens the private chat and sends /start with its payload. */
export async function openBotLink(href) {
  if (await post("/api/link", { url: href })) {
    const pane = ui.panes.private;
    pane.stick = true;
    showView("private");
    pane.root.classList.remove("flash");
    void pane.root.offsetWidth; // restart the animation
    pane.root.classList.add("flash");
  }
}

export function link(raw) {
  const href = safeUrl(raw);
  if (!href) return h("span", { class: "link-off" });
  const anchor = h("a", { href, target: "_blank", rel: "noopener noreferrer" });
  if (isBotLink(href)) {
    anchor.addEventListener("click", (event) => {
      event.preventDefault();
      openBotLink(href);
    });
  }
  return anchor;
}
