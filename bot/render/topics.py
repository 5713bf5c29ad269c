"""Texts for topics: `/topics`, the mastery block of a private `/me`, and the topic list a
`/quiz TOPIC` that names no topic (or several) gets. Telegram HTML; no I/O."""

from __future__ import annotations

from datetime import datetime
from html import escape

from bot.core.model import MemoryModel
from bot.core.rules.mastery import (
    Mastery,
    NoSuchTopic,
    TopicMastery,
    deck_topics,
    shortest_prefix,
    wilson_lower,
)
from bot.core.topics import PrivateMe
from bot.render import commands as render
from bot.render.review import leech_lines
from bot.render.text import MESSAGE_LIMIT, echo, shorten, utf16_len

BAR_CELLS = 10
NAME_WIDTH = 16  # a longer topic name is shortened in the bar charts
ME_LINES = 8  # started topics shown in /me; /topics shows them all
PRACTICE_SIZE = 5
CANDIDATES_SHOWN = 10
FULL, EMPTY = "█", "░"
NOT_STARTED = "not started"
EXPLAINED = (
    "<i>The % is what your answers prove you know, with 95% confidence: 2 of 2 right shows "
    f"as {wilson_lower(2, 2):.0%}, 17 of 20 as {wilson_lower(17, 20):.0%}.</i>"
)


def bar(level: float, cells: int = BAR_CELLS) -> str:
    """A fixed-width bar: `level` (0–1) of `cells` filled, to the nearest cell."""
    filled = min(cells, max(0, round(level * cells)))
    return FULL * filled + EMPTY * (cells - filled)


def _name(topic: str, width: int) -> str:
    return shorten(" ".join(topic.split()), width).ljust(width)


def _width(items: tuple[TopicMastery, ...]) -> int:
    return min(NAME_WIDTH, max((len(" ".join(i.topic.split())) for i in items), default=1))


def _line(item: TopicMastery, width: int, count_width: int, *, due: bool) -> str:
    """One monospace row: name, bar, mastery %, (right/answered) and reviews due."""
    name = _name(item.topic, width)
    if item.started:
        counts = f"({item.correct}/{item.answered})".rjust(count_width)
        row = f"{name}  {bar(item.level)} {round(item.level * 100):>3}%  {counts}"
    else:
        row = f"{name}  {EMPTY * BAR_CELLS}  {NOT_STARTED}"
    if due and item.due:
        # The due column starts after the longest of the two kinds of row.
        row = row.ljust(width + BAR_CELLS + 4 + max(5 + count_width, len(NOT_STARTED)))
        row = f"{row}  {item.due} due"
    return escape(row.rstrip())


def _rows(items: tuple[TopicMastery, ...], room: int, *, due: bool) -> str:
    """The rows that fit in `room` UTF-16 units, and '…and N more' for the rest."""
    width = _width(items)
    count_width = max((len(f"({i.correct}/{i.answered})") for i in items if i.started), default=0)
    lines: list[str] = []
    used = 0
    for shown, item in enumerate(items):
        line = _line(item, width, count_width, due=due)
        more = f"…and {len(items) - shown} more"
        if used + utf16_len(line) + 1 + len(more) + 1 > room:
            lines.append(more)
            break
        lines.append(line)
        used += utf16_len(line) + 1
    return "\n".join(lines)


def practise(topic: str) -> str:
    """The command that practises `topic` (plain text)."""
    return f"/quiz {PRACTICE_SIZE} {' '.join(topic.split())}"


def _pointer(mastery: Mastery) -> str:
    weakest = mastery.weakest
    if weakest is None:
        return ""
    command = escape(practise(weakest.topic))
    return f"👉 Weakest: <b>{escape(weakest.topic)}</b> — practise it with {command}"


def _due_line(mastery: Mastery) -> str:
    total = mastery.due
    if not total:
        return "🔁 No reviews due."
    return f"🔁 <b>{total}</b> review{'s' if total != 1 else ''} due in all."


def topics_message(mastery: Mastery, learner: str | None = None) -> str:
    """`/topics`: every topic of the deck with the learner's mastery, weakest first, the not
    started ones last; reviews due per topic and in all; the weakest to practise."""
    whose = "Your topics" if learner is None else f"{escape(shorten(learner, 64))}'s topics"
    days = mastery.window.days
    head = (
        f"📚 <b>{whose}</b> · {escape(mastery.deck.title)}\n"
        f"Weakest first, from every answer of the last {days} days, in any chat."
    )
    tail = [_due_line(mastery)]
    pointer = _pointer(mastery)
    if pointer:
        tail.append(pointer)
    else:
        tail.append(f"Start one with {escape(practise(mastery.topics[0].topic))}.")
    tail.append(EXPLAINED)
    footer = "\n".join(tail)
    room = MESSAGE_LIMIT - utf16_len(head) - utf16_len(footer) - len("\n\n<pre></pre>\n\n")
    rows = _rows(mastery.topics, room, due=True)
    return f"{head}\n\n<pre>{rows}</pre>\n\n{footer}"


def mastery_block(mastery: Mastery) -> str:
    """The compact block under a private `/me`: the started topics, weakest first, and the
    weakest with the command to practise it."""
    started = mastery.started
    days = mastery.window.days
    if not started:
        return f"🎯 <b>Mastery</b>: no topic started in the last {days} days. /topics lists them."
    shown = started[:ME_LINES]
    width = _width(shown)
    count_width = max(len(f"({i.correct}/{i.answered})") for i in shown)
    rows = "\n".join(_line(item, width, count_width, due=False) for item in shown)
    rest = len(mastery.topics) - len(shown)
    more = f"\n…and {rest} more in /topics" if rest else ""
    return f"🎯 <b>Mastery</b> (last {days} days)\n<pre>{rows}</pre>{more}\n{_pointer(mastery)}"


def _day(when: datetime) -> str:
    return f"{when.day} {when:%b}"


def memory_line(model: MemoryModel) -> str:
    """One line: whether the learner's memory model (FSRS) is fitted to their reviews."""
    fit = model.fit
    if fit is not None and fit.personal:
        return f"🧠 Memory model: fitted to your {fit.reviews} reviews ({_day(fit.fitted_at)})"
    if fit is not None:
        return (
            f"🧠 Memory model: default (it predicted your reviews better than one fitted to your "
            f"{fit.reviews}, {_day(fit.fitted_at)})"
        )
    if model.reviews >= model.min_reviews:
        return f"🧠 Memory model: default (your {model.reviews} reviews are fitted soon)"
    return (
        f"🧠 Memory model: default (personalised after {model.min_reviews} reviews; "
        f"you have {model.reviews})"
    )


def private_me_message(me: PrivateMe) -> str:
    """A private `/me`: the chat's stats and the memory model's line, then the mastery block."""
    stats = render.stats_message(me.stats)
    if me.memory is not None:
        stats = f"{stats}\n{memory_line(me.memory)}"
    block = mastery_block(me.mastery)
    text = (
        stats if utf16_len(stats) + utf16_len(block) + 2 > MESSAGE_LIMIT else f"{stats}\n\n{block}"
    )
    leeches = leech_lines(list(me.leeches))
    return text if utf16_len(text) + utf16_len(leeches) > MESSAGE_LIMIT else text + leeches


def no_such_topic(outcome: NoSuchTopic) -> str:
    """A `/quiz TOPIC` that names no topic of the deck, or several: the deck's topics."""
    typed = f"<code>{echo(outcome.query)}</code>"
    if outcome.candidates:
        names = [f"<b>{escape(c)}</b>" for c in outcome.candidates[:CANDIDATES_SHOWN]]
        if len(outcome.candidates) > CANDIDATES_SHOWN:
            names.append("…")
        either = names[0] if len(names) == 1 else f"{', '.join(names[:-1])} or {names[-1]}"
        head = f"🤔 {typed} could be {either}. Type more of the name."
    else:
        head = f"🤔 I don't know the topic {typed}."
    topics = deck_topics(outcome.deck)
    first = next(iter(topics))
    example = escape(f"/quiz {PRACTICE_SIZE} {shortest_prefix(topics, first)}")
    footer = f"Send /quiz TOPIC or /quiz N TOPIC; the start of a name will do, e.g. {example}"
    lines = [f"Topics of <b>{escape(outcome.deck.title)}</b>:"]
    room = MESSAGE_LIMIT - utf16_len(head) - utf16_len(footer) - 200
    for shown, (topic, size) in enumerate(topics.items()):
        line = f"• {escape(topic)} ({size})"
        if sum(utf16_len(x) + 1 for x in lines) + utf16_len(line) > room:
            lines.append(f"…and {len(topics) - shown} more")
            break
        lines.append(line)
    return f"{head}\n\n" + "\n".join(lines) + f"\n\n{footer}"
