"""Texts and keyboards of learner reports, in Telegram HTML: the buttons that start a report,
the reason picker, the comment prompt, and the report's message in the reports chat."""

from __future__ import annotations

from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data import (
    NextButton,
    ReasonButton,
    ReportButton,
    ResolveButton,
    SkipCommentButton,
)
from bot.callback_data.links import ReportLink, link_url
from bot.core.model import Ask, Report, ReportReason, ReportStatus, letter
from bot.core.reports import Subject
from bot.core.reports.owed import ForwardReport, ReportView
from bot.render import rounds as render_rounds
from bot.render.calls import Calls, RenderContext, SendText, renders
from bot.render.text import ELLIPSIS, utf16_len

REPORT = "⚑ Report"
REASON_LABELS: dict[ReportReason, str] = {
    ReportReason.WRONG_KEY: "Wrong answer key",
    ReportReason.SEVERAL_RIGHT: "More than one right answer",
    ReportReason.UNCLEAR: "Unclear question",
    ReportReason.TYPO: "Typo",
    ReportReason.OUTDATED: "Outdated",
    ReportReason.EXPLANATION: "Explanation wrong",
    ReportReason.OTHER: "Other",
}
# Visible lengths (UTF-16 code units) of the parts of a report's message; with the fixed text
# they stay well under Telegram's 4096.
TITLE_UNITS = 100
ID_UNITS = 80
QUESTION_UNITS = 700
OPTION_UNITS = 180
COMMENT_UNITS = 1000
NAME_UNITS = 64
PICKER_QUESTION_UNITS = 300

NOT_REPORTABLE = "Sorry, this report button isn't valid here. Send /quiz for a question."
NOT_REPORTABLE_LINK = "Sorry, that report link isn't valid. Send /quiz for a question."
QUESTION_GONE = "That question is no longer in its deck, so there is nothing left to report."
ALREADY_REPORTED = "You already have an open report on this question — thank you, it's queued."
COMMENT_ADDED = "✅ Thanks — your comment is added to the report."
COMMENT_TOO_LATE = "⏳ Too late for a comment: your report was filed without one."
FILED = "✅ Thanks — your report is filed."
ALREADY_FILED = "This report is already filed."
RESOLVE_ADMINS_ONLY = "Only this chat's admins can mark reports."
RESOLVE_NOT_HERE = "Sorry, this button isn't valid here."
NO_SUCH_REPORT = "That report no longer exists."


def fit(text: str, units: int) -> str:
    """`text` within `units` UTF-16 code units (as Telegram counts), '…' ending a cut one."""
    if utf16_len(text) <= units:
        return text
    kept: list[str] = []
    used = 1  # the ellipsis
    for char in text:
        used += 2 if ord(char) > 0xFFFF else 1
        if used > units:
            break
        kept.append(char)
    return "".join(kept).rstrip() + ELLIPSIS


def report_button(ask_id: int) -> InlineKeyboardButton:
    return InlineKeyboardButton(REPORT, callback_data=ReportButton(ask_id).encode())


def explanation_keyboard(ask_id: int, next_button: NextButton | None) -> InlineKeyboardMarkup:
    """Under a private explanation: `Next ▶` in a round, and `⚑ Report` next to it."""
    row = [report_button(ask_id)]
    if next_button is not None:
        row.insert(0, render_rounds.next_button(next_button))
    return InlineKeyboardMarkup([row])


def after_next_keyboard(ask_id: int | None) -> InlineKeyboardMarkup | None:
    """An explanation whose `Next ▶` was used keeps its `⚑ Report`."""
    return None if ask_id is None else InlineKeyboardMarkup([[report_button(ask_id)]])


def reveal_keyboard(bot_username: str, ask: Ask) -> InlineKeyboardMarkup:
    """Under a closed group question: a link to report it in the private chat (an alert cannot
    carry buttons, and the group should not see the report being made)."""
    url = link_url(bot_username, ReportLink(ask.id))
    return InlineKeyboardMarkup([[InlineKeyboardButton("⚑ Report a problem", url=url)]])


def picker_message(subject: Subject) -> str:
    text = escape(fit(subject.question.text, PICKER_QUESTION_UNITS))
    return (
        f"⚑ <b>Report a problem</b> with this question ({escape(fit(subject.deck_title, 100))}):"
        f"\n\n<i>{text}</i>\n\nWhat's wrong with it?"
    )


def picker_keyboard(ask_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [InlineKeyboardButton(label, callback_data=ReasonButton(ask_id, reason).encode())]
            for reason, label in REASON_LABELS.items()
        ]
    )


def comment_prompt(report: Report, minutes: int) -> str:
    return (
        f"⚑ Thanks! Reported as <b>{escape(REASON_LABELS[report.reason])}</b>.\n\n"
        f"Want to add a comment? Send it as your next message within {minutes} minutes, "
        "or press the button."
    )


def comment_keyboard(report_id: int) -> InlineKeyboardMarkup:
    skip = SkipCommentButton(report_id).encode()
    return InlineKeyboardMarkup(
        [[InlineKeyboardButton("Send without comment", callback_data=skip)]]
    )


def filed_prompt(report: Report) -> str:
    return f"⚑ Thanks! Reported as <b>{escape(REASON_LABELS[report.reason])}</b>. {FILED}"


def daily_limit(limit: int) -> str:
    return (
        f"You've sent {limit} reports today — thank you! "
        "Please send more after 00:00 UTC, when the count starts again."
    )


def resolve_keyboard(report_id: int) -> InlineKeyboardMarkup:
    return InlineKeyboardMarkup(
        [
            [
                InlineKeyboardButton(
                    "✅ Fixed", callback_data=ResolveButton(report_id, ReportStatus.FIXED).encode()
                ),
                InlineKeyboardButton(
                    "🗑 Dismiss",
                    callback_data=ResolveButton(report_id, ReportStatus.DISMISSED).encode(),
                ),
            ]
        ]
    )


def _options(view: ReportView) -> list[str]:
    report, question = view.report, view.question
    order = report.option_order
    if question is None or any(index >= len(question.options) for index in order):
        shown = ", ".join(str(index) for index in order)
        lines = [f"Order shown (deck option numbers, 0 = the keyed answer): {shown}"]
        chosen = [p for p in sorted(report.chosen_positions) if p < len(order)]
        if chosen:
            lines.append(f"The learner chose {', '.join(letter(p) for p in chosen)}.")
        return lines
    lines = []
    for position, index in enumerate(order):
        line = f"<b>{letter(position)})</b> {escape(fit(question.options[index], OPTION_UNITS))}"
        if index < question.picks:
            line = f"✅ {line}"
        if position in report.chosen_positions:
            line += "  ← <i>learner's choice</i>"
        lines.append(line)
    return lines


def _status(report: Report, resolver: str | None) -> str:
    if report.status is ReportStatus.OPEN:
        return "Status: open"
    mark = "✅ Fixed" if report.status is ReportStatus.FIXED else "🗑 Dismissed"
    by = f" by {escape(fit(resolver, NAME_UNITS))}" if resolver else ""
    when = "" if report.resolved_at is None else f", {report.resolved_at:%Y-%m-%d %H:%M} UTC"
    return f"{mark}{by}{when}"


def report_message(view: ReportView, resolver: str | None = None) -> str:
    """The report in the reports chat: deck, question id and version, the question, the
    options in the order shown with the learner's choice, reason, comment and status."""
    report, question = view.report, view.question
    version = f"version <code>{escape(report.question_hash)}</code>"
    if question is not None and question.content_hash != report.question_hash:
        version += " (the deck has changed since)"
    head = [
        f"⚑ <b>Report #{report.id}</b> · {escape(REASON_LABELS[report.reason])}",
        f"📚 {escape(fit(view.deck_title, TITLE_UNITS))} · "
        f"<code>{escape(fit(report.deck_id, ID_UNITS))}</code>",
        f"❓ <code>{escape(fit(report.question_id, ID_UNITS))}</code> · {version}",
    ]
    if question is None:
        body = "<i>The question is no longer in its deck.</i>"
    else:
        body = f"<b>{escape(fit(question.text, QUESTION_UNITS))}</b>"
    choice = [] if report.chosen is not None else ["<i>The learner had not answered it.</i>"]
    comment = (
        f"💬 {escape(fit(report.comment, COMMENT_UNITS))}" if report.comment else "💬 No comment."
    )
    parts = [
        "\n".join(head),
        body,
        "\n".join(_options(view) + choice),
        comment,
        _status(report, resolver),
    ]
    return "\n\n".join(parts)


@renders(ForwardReport)
def forwarded(shown: ForwardReport, context: RenderContext) -> Calls:
    view = shown.view
    return (SendText(report_message(view), resolve_keyboard(view.report.id)),)
