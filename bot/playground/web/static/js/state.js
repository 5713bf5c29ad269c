/* What the page knows between snapshots, shared by its modules. */

export const ui = {
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

/** The pane that shows the chat with this id, if any. */
export const paneOf = (chatId) => Object.values(ui.panes).find((p) => p.chatId === chatId);
