"""Texts for rounds: the Next button and the summaries."""

from __future__ import annotations

from datetime import datetime, timedelta
from html import escape

from telegram import InlineKeyboardButton

from bot.callback_data import NextButton
from bot.core.rounds import RoundSummary, ShowSummary
from bot.render.boards import MEDALS
from bot.render.calls import Calls, RenderContext, SendText, renders
from bot.render.text import MESSAGE_LIMIT, shorten, utf16_len

ROUND_RUNNING = "A round is already running here. Answer along, or /stop it first."
NO_ROUND = "No round is running here. Start one with /quiz 5."
STOP_REFUSED = "Only the member who started this round or an admin can stop it."
ROUND_OVER = "This round is over. Start a new one with /quiz 5."
REVIEW_TEXT_LIMIT = 160
REVIEW_ANSWER_LIMIT = 100


def next_button(button: NextButton) -> InlineKeyboardButton:
    """`Next ▶` under a private round's explanation (beside `⚑ Report`: see render_reports)."""
    return InlineKeyboardButton("Next ▶", callback_data=button.encode())


def _duration(span: timedelta) -> str:
    seconds = max(0, int(span.total_seconds()))
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def private_summary(summary: RoundSummary, limit: int = MESSAGE_LIMIT) -> str:
    """The starter's result and the missed questions, as many as fit in `limit` characters."""
    asked = len(summary.results)
    verb = "stopped" if summary.stopped else "over"
    what = "Review" if summary.round.is_review else "Round"
    head = (
        f"🏁 <b>{what} {verb}</b>: {summary.correct} of {asked} right "
        f"in {_duration(summary.duration)}."
    )
    if summary.round.is_review:
        head += "\n" + next_due_line(summary.next_due)
    missed = [question for question, ok in summary.results if not ok]
    if not missed:
        return head + ("\n\nA perfect round! 🎉" if asked else "")
    text = f"{head}\n\n<b>To review</b>"
    for shown, question in enumerate(missed):
        answer = shorten(" / ".join(question.right_options), REVIEW_ANSWER_LIMIT)
        item = (
            f"\n• {escape(shorten(question.text, REVIEW_TEXT_LIMIT))}\n"
            f"  <i>Answer: {escape(answer)}</i>"
        )
        more = f"\n…and {len(missed) - shown} more"
        if utf16_len(text + item) + len(more) + 8 > limit:
            return text + more
        text += item
    return text


def next_due_line(due: datetime | None) -> str:
    if due is None:
        return "🧠 No cards to review: every question you miss becomes one."
    return f"🧠 Next review due {due:%a %d %b, %H:%M} UTC."


def explanation_with_summary(explanation: str, summary: RoundSummary | None) -> str:
    """A round's last explanation, with the round's summary below it when there is one."""
    if summary is None:
        return explanation
    room = MESSAGE_LIMIT - utf16_len(explanation) - 2
    return f"{explanation}\n\n{private_summary(summary, room)}"


def group_summary(summary: RoundSummary) -> str:
    asked = len(summary.results)
    verb = "stopped" if summary.stopped else "over"
    head = f"🏁 <b>Round {verb}</b> ({asked} question{'s' if asked != 1 else ''})"
    if not summary.scores:
        return f"{head}\n\nNobody answered this round."
    lines = []
    rank = 0
    previous: tuple[int, int] | None = None
    for place, score in enumerate(summary.scores, start=1):
        key = (score.correct, score.total_ms)
        rank = rank if key == previous else place
        previous = key
        medal = MEDALS.get(rank, f"{rank}.")
        lines.append(
            f"{medal} {escape(score.player.display_name)} — <b>{score.correct}</b> of "
            f"{score.answered} right"
        )
    return f"{head}\n\n" + "\n".join(lines)


@renders(ShowSummary)
def summarised(shown: ShowSummary, context: RenderContext) -> Calls:
    summary = shown.summary
    return (SendText(group_summary(summary) if shown.group else private_summary(summary)),)
