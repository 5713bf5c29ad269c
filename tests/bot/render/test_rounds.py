"""The round summary always fits one Telegram message, alone or below the last explanation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from bot.core.model import Round
from bot.core.rounds import RoundSummary
from bot.render.rounds import MESSAGE_LIMIT, explanation_with_summary, private_summary
from bot.render.text import utf16_len
from content.models import Question

START = datetime(2026, 12, 3, 12, 0, tzinfo=UTC)


def _question(number: int, text: str) -> Question:
    return Question(
        id=f"q-{number}",
        topic="t",
        text=text,
        answer=f"answer {number} " + "x" * 200,
        wrong=["w1", "w2", "w3"],
        explanation="Because.",
    )


def _summary(results: list[tuple[Question, bool | None]]) -> RoundSummary:
    round_ = Round(1, 5, None, 5, len(results), START, START + timedelta(minutes=3))
    return RoundSummary(round_, False, results, [], timedelta(minutes=3))


@given(
    st.lists(st.text(min_size=1, max_size=3000).filter(str.strip), min_size=1, max_size=20),
    st.integers(min_value=0, max_value=3600),
)
def test_a_summary_below_any_explanation_stays_within_the_message_limit(
    texts: list[str], explanation_length: int
) -> None:
    """However long the missed questions and the explanation, the message fits 4096 units."""
    results: list[tuple[Question, bool | None]] = [
        (_question(number, text), False) for number, text in enumerate(texts)
    ]
    text = explanation_with_summary("💡" + "é" * explanation_length, _summary(results))
    assert utf16_len(text) <= MESSAGE_LIMIT
    assert "🏁 <b>Round over</b>: 0 of" in text


def test_missed_questions_that_do_not_fit_are_counted_not_cut() -> None:
    """Twenty long misses: those that fit are listed, the rest summed up as '…and N more'."""
    results: list[tuple[Question, bool | None]] = [
        (_question(number, "why " * 500), False) for number in range(20)
    ]
    text = private_summary(_summary(results))
    listed = text.count("\n• ")
    assert 0 < listed < 20
    assert text.endswith(f"…and {20 - listed} more")


def test_a_perfect_round_needs_no_review_list() -> None:
    """All right: the summary congratulates and lists nothing."""
    text = private_summary(_summary([(_question(1, "q?"), True)]))
    assert text.endswith("A perfect round! 🎉")
    assert "To review" not in text
