"""Texts for rounds: the Next button and the summaries."""

from __future__ import annotations

from datetime import timedelta
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import NextButton
from bot.core.rounds import RoundSummary
from bot.render_boards import MEDALS

ROUND_RUNNING = "A round is already running here. Answer along, or /stop it first."
NO_ROUND = "No round is running here. Start one with /quiz 5."
STOP_REFUSED = "Only the member who started this round or an admin can stop it."
ROUND_OVER = "This round is over. Start a new one with /quiz 5."


def next_keyboard(button: NextButton) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup([[InlineKeyboardButton("Next ▶", callback_data=button.encode())]])


def _duration(span: timedelta) -> str:
    seconds = max(0, int(span.total_seconds()))
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def private_summary(summary: RoundSummary) -> str:
    asked = len(summary.results)
    verb = "stopped" if summary.stopped else "over"
    head = (
        f"🏁 <b>Round {verb}</b>: {summary.correct} of {asked} right "
        f"in {_duration(summary.duration)}."
    )
    missed = [question for question, ok in summary.results if not ok]
    if not missed:
        return head + ("\n\nA perfect round! 🎉" if asked else "")
    review = "\n".join(f"• {escape(q.text)}\n  <i>Answer: {escape(q.answer)}</i>" for q in missed)
    return f"{head}\n\n<b>To review</b>\n{review}"


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
