/* A chat's messages: bubbles (a photo's with its picture), reply quotes and inline keyboards. Only a message that changed is
   drawn again, so what the person did to the others (a spoiler shown, a quote opened) stays. */

import { press } from "./actions.js";
import { $, h } from "./dom.js";
import { isBotLink, openBotLink, safeUrl } from "./links.js";
import { ui } from "./state.js";
import { renderText } from "./text.js";

function sender(message) {
  if (message.from.bot) return "bot";
  return message.from.id === ui.snap.you.id ? "you" : "member";
}

function quote(chat, message, pane) {
  const target = chat.messages.find((m) => m.id === message.reply_to);
  const name = target ? target.from.name : "Deleted message";
  const line = target ? target.text.split("\n").find((part) => part.trim()) || "" : "";
  const snippet = line || (target?.photo ? "Photo" : "");
  return h(
    "button",
    { type: "button", class: "quote", onclick: () => scrollToMessage(pane, message.reply_to) },
    h("span", { class: "quote-name" }, name),
    " ",
    h("span", { class: "quote-text" }, snippet),
  );
}

/** The photo, from the page's own server; its size is known before it loads. */
function picture(photo) {
  const { url, width, height } = photo;
  return h("img", { class: "photo", src: url, width, height, alt: "Photo", decoding: "async" });
}

function keyButton(chatId, message, button, key) {
  if (button.url !== undefined) {
    const href = safeUrl(button.url);
    if (href && isBotLink(href)) {
      const open = () => openBotLink(href);
      return h("button", { type: "button", class: "kb-btn link", "data-key": key, onclick: open }, button.text);
    }
    if (href) {
      const attrs = { class: "kb-btn link", href, target: "_blank", rel: "noopener noreferrer" };
      return h("a", { ...attrs, "data-key": key }, button.text);
    }
  } else if (button.data !== undefined) {
    const onclick = (event) => press(chatId, message.id, button.data, event.currentTarget);
    return h("button", { type: "button", class: "kb-btn", "data-key": key, onclick }, button.text);
  }
  return h("button", { type: "button", class: "kb-btn", disabled: true }, button.text);
}

function renderMessage(chat, message, pane) {
  const who = sender(message);
  const bubble = h("div", { class: "bubble" });
  if (chat.kind !== "private" && who !== "you") {
    const color = `c${Math.abs(message.from.id) % 7}`;
    bubble.append(h("p", { class: `sender ${color}` }, message.from.name));
  }
  if (message.reply_to !== undefined) bubble.append(quote(chat, message, pane));
  // A photo's caption is its text: drawn below the picture (above it when the bot asked so).
  const text = message.text || message.edited || !message.photo
    ? h("div", { class: "text" }, renderText(message.text, message.entities, chat.id))
    : null;
  if (message.edited) text.append(h("span", { class: "meta" }, "edited"));
  const parts = message.photo ? [picture(message.photo), text] : [text];
  if (message.photo?.above) parts.reverse();
  bubble.append(...parts.filter(Boolean));
  const node = h("div", { class: `msg ${who}`, "data-id": message.id, "data-from": who }, bubble);
  if (message.buttons.length) {
    const keyboard = h("div", { class: "keyboard" });
    message.buttons.forEach((row, r) => {
      const buttons = row.map((button, c) => keyButton(chat.id, message, button, `${r}-${c}`));
      keyboard.append(h("div", { class: "kb-row" }, ...buttons));
    });
    node.append(keyboard);
  }
  return node;
}

function scrollToMessage(pane, messageId) {
  const node = pane.nodes.get(messageId)?.node;
  if (!node) return;
  node.scrollIntoView({ block: "center", behavior: "smooth" });
  node.classList.remove("highlight");
  void node.offsetWidth;
  node.classList.add("highlight");
}

export function renderChat(pane, chat) {
  const snap = ui.snap;
  pane.chatId = chat.id;
  $(".chat-title", pane.root).textContent = chat.title;
  $(".avatar", pane.root).textContent = [...chat.title][0] || "?";
  if (chat.kind === "private") {
    $(".chat-sub", pane.root).textContent = `bot · @${snap.bot.username}`;
  } else {
    const people = [snap.you.name, ...snap.members.names];
    $(".chat-sub", pane.root).textContent = `${people.length + 1} members: ${people.join(", ")} and the bot`;
  }
  if (chat.deck !== null) { // null while the bot restarts with a newly loaded deck
    const deck = snap.decks.available.find((d) => d.id === chat.deck);
    const deckLine = $(".chat-deck", pane.root);
    deckLine.replaceChildren(h("span", { class: "muted" }, "Deck: "), deck ? deck.title : chat.deck);
    deckLine.title = chat.deck;
  }

  const list = pane.list;
  const stick = pane.atBottom || pane.stick || pane.count === null;
  const focused = document.activeElement;
  const nodes = chat.messages.map((message) => {
    const target = chat.messages.find((m) => m.id === message.reply_to);
    const key = JSON.stringify([message, target?.from.name, target?.text]);
    const drawn = pane.nodes.get(message.id);
    if (drawn && drawn.key === key) return drawn.node;
    const node = renderMessage(chat, message, pane);
    if (drawn && drawn.node.contains(focused)) {
      // An edit replaces the message: keep the keyboard focus on the same button if it stays.
      const again = focused.dataset.key && $(`[data-key="${focused.dataset.key}"]`, node);
      queueMicrotask(() => (again || list).focus({ preventScroll: true }));
    }
    pane.nodes.set(message.id, { key, node });
    return node;
  });
  nodes.forEach((node, i) => {
    if (list.children[i] !== node) list.insertBefore(node, list.children[i] || null);
  });
  while (list.children.length > nodes.length) list.lastElementChild.remove();
  const ids = new Set(chat.messages.map((m) => m.id));
  for (const id of pane.nodes.keys()) if (!ids.has(id)) pane.nodes.delete(id);
  $(".empty", pane.root).hidden = chat.messages.length > 0;

  if (pane.count !== null && chat.messages.length > pane.count && pane.root.offsetParent === null) {
    $(`.tab[data-view="${pane.kind}"]`).classList.add("unread");
  }
  pane.count = chat.messages.length;
  if (stick) {
    list.scrollTop = list.scrollHeight;
    pane.atBottom = true;
    pane.stick = false;
  }
}
