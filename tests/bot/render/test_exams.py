"""Exam texts fit Telegram: every shipped question as an exam page and as a miss, the result."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from bot.core.exams.views import ExamResult, ExamView, MissView
from bot.core.model import Exam, ExamEnd, ExamItem
from bot.playground.botapi import parse_html, utf16_len
from bot.render.exams import exam_keyboard, exam_message, minutes_left, miss_message, result_message
from content.loader import DEFAULT_CONTENT_DIR, load_decks
from content.models import Deck, Question

START = datetime(2026, 12, 2, 9, 0, tzinfo=UTC)
DECKS = load_decks(DEFAULT_CONTENT_DIR)


def exam_of(deck: Deck, *, submitted: bool) -> Exam:
    return Exam(
        id=7,
        user_id=1,
        chat_id=1,
        deck_id=deck.id,
        size=len(deck.questions),
        pass_percent=70,
        started_at=START,
        deadline=START + timedelta(minutes=30),
        message_id=3,
        current=0,
        submitted_at=START + timedelta(minutes=12) if submitted else None,
        submitted_by=ExamEnd.USER if submitted else None,
    )


def item_of(index: int, question: Question, chosen: int | None) -> ExamItem:
    order = tuple(reversed(range(len(question.options))))
    return ExamItem(7, index, question.id, question.topic, order, None, chosen, None, True)


def fits(html: str) -> None:
    assert utf16_len(parse_html(html).text) <= 4096


@pytest.mark.parametrize("deck_id", sorted(DECKS))
def test_every_shipped_question_fits_as_an_exam_page_and_as_a_miss(deck_id: str) -> None:
    """The longest question and explanation still fit one message; the HTML is valid."""
    deck = DECKS[deck_id]
    items = tuple(item_of(i, q, 0) for i, q in enumerate(deck.questions))
    result = ExamResult(exam_of(deck, submitted=True), items, deck.title)
    fits(result_message(result))
    assert result.misses == list(range(len(items)))  # the reversed order puts the answer last
    for item, question in zip(items, deck.questions, strict=True):
        view = ExamView(
            exam_of(deck, submitted=False), items, item.index, START, deck.title, question
        )
        fits(exam_message(view))
        buttons = [button for row in exam_keyboard(view).inline_keyboard for button in row]
        assert all(len(str(button.callback_data).encode()) <= 64 for button in buttons)
        fits(miss_message(MissView(result, item.index, item, question)))


@pytest.mark.parametrize(
    ("left", "shown"),
    [
        (timedelta(minutes=23), "23 min left"),
        (timedelta(minutes=22, seconds=1), "23 min left"),
        (timedelta(seconds=30), "1 min left"),
        (timedelta(0), "0 min left"),
    ],
)
def test_minutes_left_round_up(left: timedelta, shown: str) -> None:
    """The last seconds of a minute still count as that minute."""
    assert minutes_left(left) == shown


def test_the_result_is_labelled_practice_with_the_pass_mark_and_topics() -> None:
    """Score, pass against the practice mark, the unpublished real mark, time, per topic."""
    deck = DECKS["nca-multi-gpu-5"]
    items = tuple(
        item_of(i, q, None if i == 4 else len(q.options) - 1) for i, q in enumerate(deck.questions)
    )
    text = result_message(ExamResult(exam_of(deck, submitted=True), items, deck.title))
    assert "Score: <b>4/5 (80%)</b>: ✅ <b>Pass</b> against a practice pass mark of 70%." in text
    assert "the real pass mark is not published" in text
    assert "Time used: 12 min 0 s of 30 min 0 s." in text
    assert "Unanswered: 1." in text
    assert text.index("▫️ communication-libraries: 0/1") < text.index("✅ inference: 1/1")
