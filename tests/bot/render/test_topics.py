"""Topic texts (bot.render.topics): aligned bars, escaped names, within Telegram's limit."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.model import Card, Learned, UserStats
from bot.core.rules.mastery import Mastery, mastery_of, resolve_topic
from bot.core.topics import PrivateMe
from bot.playground.botapi.html import parse_html
from bot.render.text import utf16_len
from bot.render.topics import (
    MESSAGE_LIMIT,
    bar,
    mastery_block,
    no_such_topic,
    private_me_message,
    topics_message,
)
from tests.builders import topic_deck

NOW = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
DECK = topic_deck({"memory": 4, "nccl": 4, "storage": 2, "topology": 3})


def _mastery(presses: dict[str, tuple[int, int]], due: tuple[str, ...] = ()) -> Mastery:
    history = [
        Learned(f"{topic}-{n % 4}", n < right, NOW)
        for topic, (right, wrong) in presses.items()
        for n in range(right + wrong)
    ]
    cards = [Card(1, "topics", q, NOW, 1.0, 5.0, 2, NOW, 1, 1) for q in due]
    return mastery_of(DECK, history, cards)


def _pre(text: str) -> list[str]:
    return text.split("<pre>")[1].split("</pre>")[0].split("\n")


def test_bars_have_a_fixed_width() -> None:
    """Ten cells whatever the level, filled to the nearest tenth."""
    assert [bar(x) for x in (0.0, 0.34, 0.96, 1.0)] == [
        "░░░░░░░░░░",
        "███░░░░░░░",
        "██████████",
        "██████████",
    ]


def test_topics_lists_every_topic_weakest_first_with_reviews_due() -> None:
    """Rows line up in a <pre> block; due reviews per topic and in all; the weakest is named
    with the command to practise it."""
    text = topics_message(
        _mastery({"nccl": (2, 2), "memory": (17, 3)}, due=("nccl-3", "storage-1"))
    )
    rows = _pre(text)
    assert [row.split()[0] for row in rows] == ["nccl", "memory", "storage", "topology"]
    assert rows[0].startswith("nccl      ██░░░░░░░░  15%    (2/4)  1 due")
    assert rows[0].endswith("1 due")
    assert "(17/20)" in rows[1]
    assert rows[2].startswith("storage   ░░░░░░░░░░  not started")
    assert rows[2].endswith("1 due")
    assert rows[0].index("1 due") == rows[2].index("1 due")
    assert "🔁 <b>2</b> reviews due in all." in text
    assert "👉 Weakest: <b>nccl</b> — practise it with /quiz 5 nccl" in text
    parse_html(text, strict_escaping=True)


def test_topics_names_the_member_in_a_group_and_suggests_a_start() -> None:
    """Nothing answered: every topic not started, no reviews due, a topic to start with."""
    text = topics_message(_mastery({}), "Bob <admin>")
    assert text.startswith("📚 <b>Bob &lt;admin&gt;'s topics</b>")
    assert "🔁 No reviews due." in text
    assert "Start one with /quiz 5 memory." in text


def test_the_me_block_shows_started_topics_and_points_at_the_weakest() -> None:
    """Below the stats: a <pre> block of the topics started, and the weakest to practise."""
    me = PrivateMe(UserStats(5, 3), _mastery({"memory": (3, 0), "storage": (0, 2)}))
    text = private_me_message(me)
    assert text.startswith("📊 <b>Your score here</b>")
    assert [row.split()[0] for row in _pre(text)] == ["storage", "memory"]
    assert "…and 2 more in /topics" in text
    assert text.endswith("👉 Weakest: <b>storage</b> — practise it with /quiz 5 storage")
    parse_html(text, strict_escaping=True)


def test_the_me_block_without_answers_points_at_topics() -> None:
    """No topic started in the window: one line pointing at /topics, no empty <pre>."""
    block = mastery_block(_mastery({}))
    assert "<pre>" not in block
    assert "/topics" in block


def test_an_unknown_or_ambiguous_topic_gets_the_deck_topics() -> None:
    """The typed name is echoed safely; an ambiguous one names its candidates."""
    deck = topic_deck({"inference": 2, "interconnects": 3, "nccl": 1})
    ambiguous = resolve_topic(deck, "IN")
    assert not isinstance(ambiguous, str)
    text = no_such_topic(ambiguous)
    assert "<code>IN</code> could be <b>inference</b> or <b>interconnects</b>" in text
    assert "• interconnects (3)" in text
    assert "e.g. /quiz 5 inf" in text
    unknown = resolve_topic(deck, "<script>")
    assert not isinstance(unknown, str)
    text = no_such_topic(unknown)
    assert "I don't know the topic <code>&lt;script&gt;</code>." in text
    parse_html(text, strict_escaping=True)


NAMES = st.text(st.characters(codec="utf-8"), min_size=1, max_size=80).filter(str.strip)


@settings(max_examples=50, deadline=None)
@given(st.lists(NAMES, min_size=1, max_size=400, unique=True))
def test_any_deck_renders_within_the_message_limit(topics: list[str]) -> None:
    """Hundreds of topics with long, odd names: every text fits one message and parses."""
    deck = topic_deck(dict.fromkeys(topics, 1), numbered=True)
    history = [Learned(q.id, i % 3 == 0, NOW) for i, q in enumerate(deck.questions[::2])]
    mastery = mastery_of(deck, history, [])
    for text in (
        topics_message(mastery, "x" * 300),
        private_me_message(PrivateMe(UserStats(1, 1), mastery)),
    ):
        assert utf16_len(text) <= MESSAGE_LIMIT
        parse_html(text, strict_escaping=True)
    unknown = resolve_topic(deck, "\u0000zz")
    if not isinstance(unknown, str):
        text = no_such_topic(unknown)
        assert utf16_len(text) <= MESSAGE_LIMIT
        parse_html(text, strict_escaping=True)
