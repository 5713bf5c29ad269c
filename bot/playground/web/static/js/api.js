/* Talking to the playground, and telling the person what happened: toasts and alerts. */

import { $, h } from "./dom.js";
import { ui } from "./state.js";

/** A short note; `pane`: shown over that chat (when it is on screen), as Telegram does. */
export function toast(text, kind = "info", pane = null) {
  const node = h("div", { class: `toast ${kind}` }, text);
  const shown = pane && pane.root.offsetParent !== null;
  (shown ? $(".toasts", pane.root) : $("#toasts")).append(node);
  setTimeout(() => {
    node.classList.add("leaving");
    setTimeout(() => node.remove(), 300);
  }, kind === "error" ? 6000 : 3500);
}

/** POST JSON (or a FormData); the answer's JSON, or null after showing what went wrong. */
export async function post(url, body) {
  const init = body instanceof FormData
    ? { method: "POST", body }
    : { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  let response;
  try {
    response = await fetch(url, init);
  } catch {
    toast("The playground is not answering.", "error");
    return null;
  }
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) {
    toast(answer.error || `The playground answered ${response.status}.`, "error");
    return null;
  }
  return answer;
}

/** A modal alert, as Telegram shows an answer with show_alert; several wait their turn. */
export function showAlert(text) {
  ui.alerts.push(text);
  const dialog = $("#alert");
  if (!dialog.open) nextAlert();
}

function nextAlert() {
  const text = ui.alerts.shift();
  if (text === undefined) return;
  $("#alert-title").textContent = ui.snap?.bot.name || "Bot";
  $("#alert-text").textContent = text;
  $("#alert").showModal();
}

export function setUpAlerts() {
  $("#alert").addEventListener("close", nextAlert);
}
