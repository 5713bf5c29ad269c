/* The two chat panes: writing in them, and the bot's command menu ("/" or typing a command). */

import { say } from "./actions.js";
import { $, h } from "./dom.js";
import { ui } from "./state.js";

function openMenu(pane, prefix, focusFirst) {
  const commands = (ui.snap?.commands || []).filter((c) => c.command.startsWith(prefix));
  pane.menu.replaceChildren(...commands.map((c) => h(
    "button",
    {
      type: "button",
      class: "menu-item",
      onclick: () => {
        closeMenu(pane);
        pane.input.value = "";
        say(pane, `/${c.command}`);
      },
    },
    h("span", { class: "menu-cmd" }, `/${c.command}`),
    " ",
    h("span", { class: "menu-desc" }, c.description),
  )));
  pane.menu.hidden = commands.length === 0;
  pane.menuButton.setAttribute("aria-expanded", String(!pane.menu.hidden));
  if (focusFirst && !pane.menu.hidden) pane.menu.firstElementChild.focus();
}

export function closeMenu(pane) {
  pane.menu.hidden = true;
  pane.menuButton.setAttribute("aria-expanded", "false");
}

function moveInMenu(pane, event) {
  const items = [...pane.menu.children];
  const at = items.indexOf(document.activeElement);
  if (event.key === "ArrowDown" || event.key === "ArrowUp") {
    event.preventDefault();
    const step = event.key === "ArrowDown" ? 1 : -1;
    items[(at + step + items.length) % items.length]?.focus();
  } else if (event.key === "Escape") {
    event.preventDefault();
    closeMenu(pane);
    pane.input.focus();
  }
}

const atBottom = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 48;

function setUpPane(kind) {
  const root = document.getElementById(`chat-${kind}`);
  const pane = {
    kind,
    root,
    list: $(".messages", root),
    input: $(".input", root),
    menu: $(".menu", root),
    menuButton: $(".menu-btn", root),
    chatId: null,
    nodes: new Map(), // message id -> {key, node}
    atBottom: true,
    stick: false,
    count: null,
  };
  pane.list.addEventListener("scroll", () => {
    pane.atBottom = atBottom(pane.list);
  });
  $("form", root).addEventListener("submit", async (event) => {
    event.preventDefault();
    const text = pane.input.value;
    if (!text.trim()) return;
    closeMenu(pane);
    pane.input.value = "";
    if (!(await say(pane, text)) && pane.input.value === "") pane.input.value = text;
  });
  pane.menuButton.addEventListener("click", () => {
    if (pane.menu.hidden) openMenu(pane, "", true);
    else closeMenu(pane);
  });
  pane.input.addEventListener("input", () => {
    const typed = /^\/(\w*)$/.exec(pane.input.value);
    if (typed) openMenu(pane, typed[1], false);
    else closeMenu(pane);
  });
  pane.input.addEventListener("keydown", (event) => {
    if (pane.menu.hidden) return;
    if (event.key === "ArrowDown") {
      event.preventDefault();
      pane.menu.firstElementChild?.focus();
    } else if (event.key === "Escape") {
      closeMenu(pane);
    }
  });
  pane.menu.addEventListener("keydown", (event) => moveInMenu(pane, event));
  ui.panes[kind] = pane;
}

/** Both panes; a click anywhere but the menu, its button or the input closes an open menu. */
export function setUpChats() {
  setUpPane("private");
  setUpPane("group");
  document.addEventListener("click", (event) => {
    const target = event.target;
    for (const pane of Object.values(ui.panes)) {
      if (!pane.menu.hidden && !pane.menu.contains(target) && !pane.menuButton.contains(target)
        && target !== pane.input) {
        closeMenu(pane);
      }
    }
  });
}
