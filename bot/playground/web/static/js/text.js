/* A message's text as Telegram shows it: its text + entities (bold, code, links, spoilers,
   quotes, /commands, …) turned into text nodes and formatting elements. */

import { say } from "./actions.js";
import { h } from "./dom.js";
import { link } from "./links.js";
import { paneOf } from "./state.js";

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
    const pane = paneOf(chatId);
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
export function renderText(text, entities, chatId) {
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
