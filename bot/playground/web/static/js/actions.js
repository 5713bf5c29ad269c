/* What the person does in a chat: writing, and pressing buttons (each shown busy until the
   bot answers its press, as Telegram does). */

import { post, showAlert, toast } from "./api.js";
import { paneOf, ui } from "./state.js";

export async function say(pane, text) {
  if (!text.trim() || pane.chatId === null) return false;
  pane.stick = true;
  return (await post("/api/say", { chat_id: pane.chatId, text })) !== null;
}

export async function press(chatId, messageId, data, button) {
  button.classList.add("pending");
  button.setAttribute("aria-busy", "true");
  const done = await post("/api/press", { chat_id: chatId, message_id: messageId, data });
  if (!done) {
    button.classList.remove("pending");
    button.removeAttribute("aria-busy");
    return;
  }
  ui.pendingPresses.set(done.query_id, button);
  setTimeout(() => settle(done.query_id), 10000);
}

function settle(queryId) {
  const button = ui.pendingPresses.get(queryId);
  if (!button) return;
  ui.pendingPresses.delete(queryId);
  button.classList.remove("pending");
  button.removeAttribute("aria-busy");
}

/** The bot's answers to presses: a toast over the chat or an alert, each once. */
export function showAnswers(snap, first) {
  for (const answer of snap.answers) {
    if (ui.seenAnswers.has(answer.query_id)) continue;
    ui.seenAnswers.add(answer.query_id);
    settle(answer.query_id);
    if (first || !answer.text) continue; // a reloaded page does not replay old answers
    if (answer.alert) showAlert(answer.text);
    else toast(answer.text, "info", paneOf(answer.chat_id));
  }
}
