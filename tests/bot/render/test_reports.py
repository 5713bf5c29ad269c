"""A report's message in the reports chat: within Telegram's limits, escaped, and honest about
a question that changed or left its deck."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given, settings
from hypothesis import strategies as st

from bot.core.model import Report, ReportReason, ReportStatus
from bot.core.reports.owed import ReportView
from bot.playground.botapi import parse_html, utf16_len
from bot.render.reports import fit, report_message
from content.models import Question

NOW = datetime(2026, 12, 3, 10, 30, tzinfo=UTC)
WIDE = "🧪"  # two UTF-16 code units, as Telegram counts


def _question(text: str = "Which <one>?", options: int = 4, length: int = 10) -> Question:
    def option(n: int) -> str:
        return f"{n} " + WIDE * length

    # Not validated: sizes beyond what a deck may hold are a harder case for the message.
    return Question.model_construct(
        id="q-1",
        topic="t",
        text=text,
        answer=option(0),
        wrong=[option(n) for n in range(1, options)],
        explanation="Because & so.",
        source=None,
        note=None,
    )


def _report(question: Question, **changes: object) -> Report:
    fields: dict[str, object] = {
        "id": 7,
        "user_id": 1001,
        "ask_id": 3,
        "deck_id": "deck-1",
        "question_id": question.id,
        "question_hash": question.content_hash,
        "option_order": tuple(reversed(range(len(question.options)))),
        "chosen": 1,
        "reason": ReportReason.SEVERAL_RIGHT,
        "comment": "B & <C> too",
        "status": ReportStatus.OPEN,
        "created_at": NOW,
        "comment_until": None,
        "prompt_message_id": None,
        "resolved_at": None,
        "resolved_by": None,
    }
    fields.update(changes)
    return Report(**fields)  # type: ignore[arg-type]


def test_the_message_lists_what_the_learner_saw_and_said() -> None:
    """Deck, question id and version, the options as shown with the right one and the
    learner's choice marked, the reason and the comment, all escaped."""
    question = _question()
    text = report_message(ReportView(_report(question), question, "Deck <One>"))
    parse_html(text)
    assert "⚑ <b>Report #7</b> · More than one right answer" in text
    assert "📚 Deck &lt;One&gt; · <code>deck-1</code>" in text
    assert f"❓ <code>q-1</code> · version <code>{question.content_hash}</code>\n" in text
    assert "<b>Which &lt;one&gt;?</b>" in text
    assert f"✅ <b>D)</b> 0 {WIDE * 10}" in text  # option 0 (the key) was shown last
    assert f"<b>B)</b> 2 {WIDE * 10}  ← <i>learner's choice</i>" in text
    assert "💬 B &amp; &lt;C&gt; too" in text
    assert text.endswith("Status: open")


def test_a_resolved_report_names_who_and_when() -> None:
    """Fixed or dismissed: the status line says by whom and when (UTC)."""
    question = _question()
    fixed = _report(question, status=ReportStatus.FIXED, resolved_at=NOW, resolved_by=5)
    text = report_message(ReportView(fixed, question, "Deck"), "Edith <E>")
    assert text.endswith("✅ Fixed by Edith &lt;E&gt;, 2026-12-03 10:30 UTC")


def test_a_changed_or_removed_question_is_flagged() -> None:
    """A report on an older wording says the deck changed; one on a removed question shows the
    order by option numbers."""
    question = _question()
    older = _report(question, question_hash="0123456789ab")
    assert "(the deck has changed since)" in report_message(ReportView(older, question, "D"))
    gone = report_message(ReportView(_report(question), None, "D"))
    parse_html(gone)
    assert "The question is no longer in its deck." in gone
    assert "Order shown (deck option numbers, 0 = the keyed answer): 3, 2, 1, 0" in gone
    assert "The learner chose B." in gone


@settings(max_examples=25, deadline=None)
@given(
    st.integers(1, 3500),
    st.integers(2, 8),
    st.integers(1, 400),
    st.integers(0, 3000),
)
def test_the_biggest_report_still_fits_one_message(
    text_length: int, options: int, option_length: int, comment_length: int
) -> None:
    """Long questions, eight long options, a long comment and wide characters: the visible
    text stays within Telegram's 4096 (UTF-16 code units) and the HTML parses."""
    question = _question(WIDE * text_length, options, option_length)
    comment = ("<&" + WIDE) * comment_length or None
    report = _report(question, comment=comment, chosen=options - 1)
    view = ReportView(report, question, WIDE * 300)
    parsed = parse_html(report_message(view, "N" * 300))
    assert utf16_len(parsed.text) <= 4096


def test_fit_counts_as_telegram_does() -> None:
    """`fit` cuts by UTF-16 code units and never splits a wide character."""
    assert fit("abc", 3) == "abc"
    assert fit(WIDE * 3, 4) == WIDE + "…"
    assert utf16_len(fit(WIDE * 100, 9)) <= 9
