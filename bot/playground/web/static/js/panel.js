/* The side panel: the playground's clock, the decks both chats ask from, and the pace at which
   the group's members answer. */

import { post, toast } from "./api.js";
import { $, h } from "./dom.js";
import { ui } from "./state.js";

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

export function renderPanel(snap) {
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

export function setUpPanel() {
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
  setInterval(tickClock, 1000);
}
