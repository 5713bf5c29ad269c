"use strict";
/* The playground page: draws the snapshots of GET /api/state (a long poll) and posts what the
   person does. Every text goes in as a text node (textContent, or a string given to append):
   nothing a deck author or a user wrote ever becomes markup. */

const PHONE = window.matchMedia("(max-width: 999px)");
const MAX_BACKOFF_MS = 8000;

const ui = {
  snap: null,
  version: -1,
  panes: {}, // "private" | "group" -> the chat's elements and what is drawn in them
  seenAnswers: new Set(),
  pendingPresses: new Map(), // query id -> the pressed button (shown busy until answered)
  alerts: [],
  clockSkew: 0,
  commandsKey: "",
  deckDirty: false,
  paceDirty: false,
};

// ---- small helpers ------------------------------------------------------------------------

const $ = (selector, root = document) => root.querySelector(selector);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** An element with attributes (on* are listeners) and children (strings become text nodes). */
function h(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [name, value] of Object.entries(attrs)) {
    if (value === null || value === undefined || value === false) continue;
    if (name === "class") node.className = value;
    else if (name.startsWith("on")) node.addEventListener(name.slice(2), value);
    else node.setAttribute(name, value === true ? "" : String(value));
  }
  node.append(...children.filter((child) => child !== null && child !== undefined));
  return node;
}

function duration(total) {
  const days = Math.floor(total / 86400);
  const hours = Math.floor((total % 86400) / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  const parts = [];
  if (days) parts.push(`${days} d`);
  if (hours) parts.push(`${hours} h`);
  if (minutes) parts.push(`${minutes} min`);
  if (seconds && !days) parts.push(`${seconds} s`);
  return parts.join(" ") || "0 s";
}

/** A short note; `pane`: shown over that chat (when it is on screen), as Telegram does. */
function toast(text, kind = "info", pane = null) {
  const node = h("div", { class: `toast ${kind}` }, text);
  const shown = pane && pane.root.offsetParent !== null;
  (shown ? $(".toasts", pane.root) : $("#toasts")).append(node);
  setTimeout(() => {
    node.classList.add("leaving");
    setTimeout(() => node.remove(), 300);
  }, kind === "error" ? 6000 : 3500);
}

/** POST JSON (or a FormData); the answer's JSON, or null after showing what went wrong. */
async function post(url, body) {
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

// ---- links --------------------------------------------------------------------------------

/** An http(s) URL to open, or null: other schemes (javascript:, data:, …) never become links. */
function safeUrl(raw) {
  let url;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:/i.test(raw) ? raw : `http://${raw}`);
  } catch {
    return null;
  }
  return url.protocol === "http:" || url.protocol === "https:" ? url.href : null;
}

function isBotLink(href) {
  const url = new URL(href);
  const bot = (ui.snap?.bot.username || "").toLowerCase();
  const path = url.pathname.replace(/^\/+|\/+$/g, "").toLowerCase();
  return ["t.me", "telegram.me"].includes(url.hostname) && bot !== "" && path === bot;
}

/** A t.me link to the bot: Telegram opens the private chat and sends /start with its payload. */
async function openBotLink(href) {
  if (await post("/api/link", { url: href })) {
    const pane = ui.panes.private;
    pane.stick = true;
    showView("private");
    pane.root.classList.remove("flash");
    void pane.root.offsetWidth; // restart the animation
    pane.root.classList.add("flash");
  }
}

function link(raw) {
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

// ---- message text: Telegram's text + entities ---------------------------------------------

const BLOCKS = new Set(["pre", "blockquote", "expandable_blockquote"]);
// Inside these, a /word stays text (Telegram finds commands only in plain text).
const NO_COMMANDS = new Set([
  "code", "pre", "text_link", "url", "email", "bot_command", "mention", "text_mention",
  "hashtag", "cashtag",
]);
const COMMAND = /(^|[\s(])(\/[A-Za-z0-9_]{1,32}(?:@[A-Za-z0-9_]{3,32})?)(?![\w/@])/g;

const byPosition = (a, b) => a.start - b.start || b.end - a.end;

/** Entities as a properly nested list, sorted: one that crosses its parent's end is split
 * there (Telegram's do not cross, but nothing here trusts that). */
function nested(text, entities) {
  const queue = (entities || [])
    .filter((e) => e && Number.isInteger(e.offset) && Number.isInteger(e.length))
    .map((e) => ({ ...e, start: Math.max(0, e.offset), end: Math.min(text.length, e.offset + e.length) }))
    .filter((e) => e.start < e.end)
    .sort(byPosition);
  const out = [];
  const open = [];
  while (queue.length) {
    let entity = queue.shift();
    while (open.length && open[open.length - 1].end <= entity.start) open.pop();
    const parent = open[open.length - 1];
    if (parent && entity.end > parent.end) {
      const rest = { ...entity, start: parent.end };
      const at = queue.findIndex((other) => byPosition(rest, other) < 0);
      queue.splice(at < 0 ? queue.length : at, 0, rest);
      entity = { ...entity, end: parent.end };
    }
    out.push(entity);
    open.push(entity);
  }
  return out;
}

/** [outer element, element its content goes in] for one entity. */
function entityElement(entity, content, chatId) {
  const one = (node) => [node, node];
  switch (entity.type) {
    case "bold": return one(h("strong"));
    case "italic": return one(h("em"));
    case "underline": return one(h("u"));
    case "strikethrough": return one(h("s"));
    case "code": return one(h("code", { class: "code" }));
    case "pre": {
      const code = h("code");
      return [h("pre", { "data-language": entity.language || null }, code), code];
    }
    case "blockquote": return one(h("blockquote"));
    case "expandable_blockquote": return one(expandable());
    case "spoiler": return one(spoiler());
    case "text_link": return one(link(String(entity.url || "")));
    case "url": return one(link(content));
    case "email": return one(h("a", { href: `mailto:${content}` }));
    case "bot_command": return one(commandButton(content, chatId));
    case "mention": case "text_mention": case "hashtag": case "cashtag":
      return one(h("span", { class: "mention" }));
    default: return one(h("span"));
  }
}

function commandButton(command, chatId) {
  const send = () => {
    const pane = Object.values(ui.panes).find((p) => p.chatId === chatId);
    if (pane) say(pane, command.replace(/@\w+$/, ""));
  };
  return h("button", { type: "button", class: "cmd", title: `Send ${command}`, onclick: send });
}

function spoiler() {
  const node = h("span", { class: "spoiler", tabindex: "0", role: "button", title: "Show the spoiler" });
  const reveal = (event) => {
    if (node.classList.contains("shown")) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    node.classList.add("shown");
    node.removeAttribute("tabindex");
    node.removeAttribute("role");
    node.removeAttribute("title");
  };
  node.addEventListener("click", reveal);
  node.addEventListener("keydown", reveal);
  return node;
}

function expandable() {
  const node = h("blockquote", { class: "expandable", tabindex: "0", "aria-expanded": "false" });
  const toggle = (event) => {
    if (event.target.closest("a, button, .spoiler:not(.shown)")) return;
    if (event.type === "keydown" && event.key !== "Enter" && event.key !== " ") return;
    event.preventDefault();
    const open = node.classList.toggle("open");
    node.setAttribute("aria-expanded", String(open));
  };
  node.addEventListener("click", toggle);
  node.addEventListener("keydown", toggle);
  return node;
}

/** Plain text, with /commands made clickable where Telegram would find them. */
function appendPlain(node, chunk, commands, chatId) {
  if (!commands) {
    node.append(chunk);
    return;
  }
  let last = 0;
  for (const match of chunk.matchAll(COMMAND)) {
    const at = match.index + match[1].length;
    const button = commandButton(match[2], chatId);
    button.append(match[2]);
    node.append(chunk.slice(last, at), button);
    last = at + match[2].length;
  }
  node.append(chunk.slice(last));
}

/** The text as Telegram shows it: a fragment of text nodes and formatting elements. */
function renderText(text, entities, chatId) {
  const root = document.createDocumentFragment();
  const stack = [{ node: root, end: text.length, commands: true, block: false }];
  let pos = 0;
  let afterBlock = false;
  const top = () => stack[stack.length - 1];
  const put = (upto) => {
    if (upto <= pos) return;
    let chunk = text.slice(pos, upto);
    // The line break after a quote or a code block is the block's own edge, not an empty line.
    if (afterBlock && chunk.startsWith("\n")) chunk = chunk.slice(1);
    afterBlock = false;
    appendPlain(top().node, chunk, top().commands, chatId);
    pos = upto;
  };
  const close = () => {
    put(top().end);
    if (stack.pop().block) afterBlock = true;
  };
  for (const entity of nested(text, entities)) {
    while (stack.length > 1 && top().end <= entity.start) close();
    put(entity.start);
    afterBlock = false;
    const [outer, inner] = entityElement(entity, text.slice(entity.start, entity.end), chatId);
    top().node.append(outer);
    stack.push({
      node: inner,
      end: entity.end,
      commands: top().commands && !NO_COMMANDS.has(entity.type),
      block: BLOCKS.has(entity.type),
    });
  }
  while (stack.length > 1) close();
  put(text.length);
  return root;
}

// ---- messages -----------------------------------------------------------------------------

function sender(message) {
  if (message.from.bot) return "bot";
  return message.from.id === ui.snap.you.id ? "you" : "member";
}

function quote(chat, message, pane) {
  const target = chat.messages.find((m) => m.id === message.reply_to);
  const name = target ? target.from.name : "Deleted message";
  const snippet = target ? target.text.split("\n").find((line) => line.trim()) || "" : "";
  return h(
    "button",
    { type: "button", class: "quote", onclick: () => scrollToMessage(pane, message.reply_to) },
    h("span", { class: "quote-name" }, name),
    " ",
    h("span", { class: "quote-text" }, snippet),
  );
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
  const text = h("div", { class: "text" }, renderText(message.text, message.entities, chat.id));
  if (message.edited) text.append(h("span", { class: "meta" }, "edited"));
  bubble.append(text);
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

const atBottom = (list) => list.scrollHeight - list.scrollTop - list.clientHeight < 48;

function renderChat(pane, chat) {
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

// ---- what the person does in a chat -------------------------------------------------------

async function say(pane, text) {
  if (!text.trim() || pane.chatId === null) return false;
  pane.stick = true;
  return (await post("/api/say", { chat_id: pane.chatId, text })) !== null;
}

async function press(chatId, messageId, data, button) {
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

function showAnswers(snap, first) {
  for (const answer of snap.answers) {
    if (ui.seenAnswers.has(answer.query_id)) continue;
    ui.seenAnswers.add(answer.query_id);
    settle(answer.query_id);
    if (first || !answer.text) continue; // a reloaded page does not replay old answers
    if (answer.alert) showAlert(answer.text);
    else toast(answer.text, "info", Object.values(ui.panes).find((p) => p.chatId === answer.chat_id));
  }
}

function showAlert(text) {
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

// ---- the command menu ---------------------------------------------------------------------

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

function closeMenu(pane) {
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

document.addEventListener("click", (event) => {
  for (const pane of Object.values(ui.panes)) {
    if (!pane.menu.hidden && !pane.menu.contains(event.target) && !pane.menuButton.contains(event.target)
      && event.target !== pane.input) {
      closeMenu(pane);
    }
  }
});

// ---- views (one at a time on a narrow window) ---------------------------------------------

function showView(view) {
  $("#layout").dataset.view = view;
  for (const tab of document.querySelectorAll(".tab")) {
    const current = tab.dataset.view === view;
    tab.setAttribute("aria-pressed", String(current));
    if (current) tab.classList.remove("unread");
  }
  const pane = ui.panes[view];
  if (pane && (pane.atBottom || pane.stick)) pane.list.scrollTop = pane.list.scrollHeight;
}

// ---- the side panel -----------------------------------------------------------------------

const CLOCK = new Intl.DateTimeFormat("en-GB", {
  timeZone: "UTC", weekday: "short", day: "numeric", month: "short",
  hour: "2-digit", minute: "2-digit", second: "2-digit", hourCycle: "h23",
});

function tickClock() {
  if (ui.snap) $("#clock-now").textContent = `${CLOCK.format(new Date(Date.now() + ui.clockSkew))} UTC`;
}

function renderProblems(problems) {
  const box = $("#deck-problems");
  $("ul", box).replaceChildren(...problems.map((line) => {
    // file: question: field: message — the place in code style, the message as it is.
    const parts = line.split(": ");
    const place = parts.length > 3 ? `${parts.slice(0, 3).join(": ")}: ` : "";
    return h("li", {}, place ? h("code", {}, place) : null, place ? parts.slice(3).join(": ") : line);
  }));
  box.hidden = problems.length === 0;
}

function renderPanel(snap) {
  ui.clockSkew = Date.parse(snap.clock.now) - Date.now();
  tickClock();
  const moved = snap.clock.moved_seconds;
  $("#clock-moved").textContent = moved ? `Moved forward ${duration(moved)}` : "Real time: not moved yet";

  const select = $("#deck-select");
  const decksKey = JSON.stringify(snap.decks.available);
  if (select.dataset.key !== decksKey) {
    select.replaceChildren(...snap.decks.available.map((d) => h(
      "option", { value: d.id }, `${d.title} (${d.questions} question${d.questions === 1 ? "" : "s"})`,
    )));
    select.dataset.key = decksKey;
  }
  const privateChat = snap.chats.find((c) => c.kind === "private");
  if (!ui.deckDirty && document.activeElement !== select && privateChat?.deck) {
    select.value = privateChat.deck;
  }
  const problemsKey = JSON.stringify(snap.decks.problems);
  if ($("#deck-problems").dataset.key !== problemsKey) {
    renderProblems(snap.decks.problems);
    $("#deck-problems").dataset.key = problemsKey;
  }

  $("#members-names").textContent = `${snap.members.names.join(", ")} answer group questions by themselves.`;
  const form = $("#pace-form");
  if (!ui.paceDirty && !form.contains(document.activeElement)) {
    $("#pace-accuracy").value = String(Math.round(snap.members.accuracy * 100));
    $("#pace-fastest").value = String(snap.members.fastest);
    $("#pace-slowest").value = String(snap.members.slowest);
  }
}

async function moveClock(body) {
  const done = await post("/api/clock", body);
  if (!done) return;
  const moved = duration(done.moved_seconds);
  if (body.to === "daily") toast(`Moved the clock ${moved} to the group's daily question`);
  else if (!body.close) toast(`Moved the clock ${moved} forward`);
  else if (done.moved_seconds) toast(`Moved the clock ${moved} to close the open questions`);
  else toast("No group question is open.");
}

function setUpPanel() {
  $("#close-questions").addEventListener("click", () => moveClock({ close: true }));
  $("#to-daily").addEventListener("click", () => moveClock({ to: "daily" }));
  for (const button of document.querySelectorAll("[data-seconds]")) {
    button.addEventListener("click", () => moveClock({ seconds: Number(button.dataset.seconds) }));
  }
  const select = $("#deck-select");
  select.addEventListener("change", () => (ui.deckDirty = true));
  $("#deck-form").addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!select.value) return;
    if (await post("/api/deck/choose", { deck_id: select.value })) {
      ui.deckDirty = false;
      toast(`Both chats ask from ${select.selectedOptions[0]?.textContent || select.value} now`);
    }
  });
  const file = $("#deck-file");
  file.addEventListener("change", async () => {
    const chosen = file.files[0];
    if (!chosen) return;
    const form = new FormData();
    form.append("file", chosen, chosen.name);
    const done = await post("/api/deck", form);
    file.value = "";
    if (!done) return;
    renderProblems(done.problems || []);
    if (done.ok) toast(`Loaded the deck ${done.deck_id}: both chats ask from it now`);
    else toast(`${chosen.name} is not a valid deck: see its problems under Deck`, "error");
  });
  const pace = $("#pace-form");
  pace.addEventListener("input", () => (ui.paceDirty = true));
  pace.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = {
      accuracy: Number($("#pace-accuracy").value) / 100,
      fastest: Number($("#pace-fastest").value),
      slowest: Number($("#pace-slowest").value),
    };
    if (await post("/api/pace", body)) {
      ui.paceDirty = false;
      toast("The members answer at the new pace from the next question");
    }
  });
  for (const tab of document.querySelectorAll(".tab")) {
    tab.addEventListener("click", () => showView(tab.dataset.view));
  }
  $("#alert").addEventListener("close", nextAlert);
  setInterval(tickClock, 1000);
}

// ---- the long poll ------------------------------------------------------------------------

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

setUpPane("private");
setUpPane("group");
setUpPanel();
PHONE.addEventListener("change", () => showView($("#layout").dataset.view));
poll();
