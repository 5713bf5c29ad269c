/* The playground page: draws the snapshots of GET /api/state (a long poll) and posts what the
   person does. */

import { showAnswers } from "./actions.js";
import { setUpAlerts } from "./api.js";
import { closeMenu, setUpChats } from "./chats.js";
import { $ } from "./dom.js";
import { renderChat } from "./messages.js";
import { renderPanel, setUpPanel } from "./panel.js";
import { ui } from "./state.js";
import { setUpViews } from "./views.js";

const MAX_BACKOFF_MS = 8000;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function render(snap) {
  const first = ui.snap === null;
  ui.snap = snap;
  for (const chat of snap.chats) {
    renderChat(ui.panes[chat.kind === "private" ? "private" : "group"], chat);
  }
  const commandsKey = JSON.stringify(snap.commands);
  if (commandsKey !== ui.commandsKey) {
    ui.commandsKey = commandsKey;
    for (const pane of Object.values(ui.panes)) closeMenu(pane);
  }
  renderPanel(snap);
  showAnswers(snap, first);
  document.body.dataset.ready = "true";
}

function connected(ok) {
  $("#conn").hidden = ok;
  document.body.classList.toggle("offline", !ok);
}

async function poll() {
  let backoff = 500;
  for (;;) {
    let snap;
    try {
      const response = await fetch(`/api/state?after=${ui.version}`, { cache: "no-store" });
      if (!response.ok) throw new Error(`state: ${response.status}`);
      snap = await response.json();
    } catch {
      connected(false);
      await sleep(backoff);
      backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      continue;
    }
    connected(true);
    backoff = 500;
    if (snap.version !== ui.version || ui.snap === null) {
      try {
        render(snap);
      } catch (error) {
        console.error("could not draw the snapshot", error);
      }
      ui.version = snap.version;
    }
  }
}

setUpChats();
setUpPanel();
setUpViews();
setUpAlerts();
poll();
