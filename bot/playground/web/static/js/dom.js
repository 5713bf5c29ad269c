/* Building the page's elements. Every text goes in as a text node (textContent, or a string
   given to append): nothing a deck author or a user wrote ever becomes markup. */

export const $ = (selector, root = document) => root.querySelector(selector);

/** An element with attributes (on* are listeners) and children (strings become text nodes). */
export function h(tag, attrs = {}, ...children) {
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
