/* The views: both chats and the panel side by side, or one at a time (tabs) on a narrow window. */

import { $ } from "./dom.js";
import { ui } from "./state.js";

const PHONE = window.matchMedia("(max-width: 999px)");

export function showView(view) {
  $("#layout").dataset.view = view;
  for (const tab of document.querySelectorAll(".tab")) {
    const current = tab.dataset.view === view;
    tab.setAttribute("aria-pressed", String(current));
    if (current) tab.classList.remove("unread");
  }
  const pane = ui.panes[view];
  if (pane && (pane.atBottom || pane.stick)) pane.list.scrollTop = pane.list.scrollHeight;
}

export function setUpViews() {
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  PHONE.addEventListener("change", () => showView($("#layout").dataset.view));
}
