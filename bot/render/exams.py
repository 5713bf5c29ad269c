"""Texts and keyboards of mock exams, in Telegram HTML: the exam's one message (a question, the
overview, the confirmation), the result and the misses. No I/O."""

from __future__ import annotations

import math
from datetime import timedelta
from html import escape

from telegram import InlineKeyboardButton, InlineKeyboardMarkup

from bot.callback_data.exams import ExamButton
from bot.core.exams.actions import (
    Choose,
    ExamAction,
    Finish,
    FinishNow,
    Flag,
    Go,
    Refusal,
    Resume,
    ShowMiss,
    ShowResult,
)
from bot.core.exams.draw import SizeOutOfRange
from bot.core.exams.owed import PostExamPage, ShowExamResult
from bot.core.exams.views import ExamResult, ExamView, MissView
from bot.core.model import letter
from bot.core.model.exams import ExamEnd, ExamItem
from bot.render.calls import (
    BotCall,
    Calls,
    EditKeyboard,
    EditText,
    RenderContext,
    SendText,
    renders,
)
from bot.render.questions import explanation_block
from bot.render.text import MESSAGE_LIMIT, shorten, utf16_len
from content.models import Question

TOPIC_LIMIT = 60
JUMPS_PER_ROW = 6
MOST_JUMPS = 24
FLAG, FLAGGED = "⚑", "🚩"

PRIVATE_ONLY = "📝 /exam runs in a private chat with me: open {bot} and send /exam there."
REFUSALS = {
    Refusal.UNKNOWN: "Sorry, this button doesn't belong to an exam I know. Send /exam for one.",
    Refusal.NOT_YOURS: "This is someone else's exam. Send /exam in private to take your own.",
    Refusal.MOVED: "This exam has moved to a newer message: carry on there.",
    Refusal.SUBMITTED: "This exam is over and submitted. Send /exam for a new one.",
    Refusal.OPEN: "The result comes once the exam is submitted.",
}
SUBMITTED_TOAST = "📝 Submitted: your result follows."
TIME_UP_TOAST = "⏰ Time's up: your exam was submitted. The result follows."
PRACTICE_NOTE = "<i>A practice pass mark: the real pass mark is not published.</i>"


def _button(text: str, exam_id: int, action: ExamAction) -> InlineKeyboardButton:
    return InlineKeyboardButton(text, callback_data=ExamButton(exam_id, action).encode())


def minutes_left(left: timedelta) -> str:
    """`23 min left`, rounded up (the last seconds still show as 1 min)."""
    return f"{math.ceil(max(left.total_seconds(), 0) / 60)} min left"


def duration(span: timedelta) -> str:
    seconds = max(0, int(span.total_seconds()))
    minutes, seconds = divmod(seconds, 60)
    return f"{minutes} min {seconds} s" if minutes else f"{seconds} s"


def out_of_range(problem: SizeOutOfRange) -> str:
    most = problem.most
    return (
        f"An exam on this deck has 1–{most} questions. Send /exam for the standard exam, "
        f"or /exam N with N from 1 to {most}."
    )


def _options(question: Question, item: ExamItem) -> list[str]:
    return [
        f"<b>{letter(p)})</b> {escape(question.options[index])}"
        for p, index in enumerate(item.option_order)
    ]


def exam_message(view: ExamView) -> str:
    """A question of the open exam (no right or wrong until the end), or the overview."""
    item = view.item
    if item is None:
        return overview_message(view)
    flag = f" · {FLAGGED}" if item.flagged else ""
    topic = escape(shorten(item.topic, TOPIC_LIMIT))
    head = (
        f"📝 <b>{item.index + 1}/{len(view.items)}</b> · {minutes_left(view.time_left)}"
        f" · <i>{topic}</i>{flag}"
    )
    if view.question is None:
        body = "<i>This question was removed from the deck; it counts as unanswered.</i>"
    else:
        body = f"<b>{escape(view.question.text)}</b>\n\n" + "\n".join(_options(view.question, item))
        if item.picks > 1:
            body += f"\n\n☑️ <i>Pick {item.picks} letters (press one again to unpick it).</i>"
    foot = f"Answered {view.answered}/{len(view.items)}"
    return f"{head}\n\n{body}\n\n<i>{foot}</i>"


def overview_message(view: ExamView) -> str:
    lines = [
        f"📝 <b>Overview</b> · {minutes_left(view.time_left)}",
        "",
        f"Answered {view.answered} of {len(view.items)}.",
    ]
    if view.unanswered:
        lines.append("Unanswered: " + ", ".join(str(i + 1) for i in view.unanswered))
    if view.flagged:
        lines.append(f"{FLAGGED} Flagged: " + ", ".join(str(i + 1) for i in view.flagged))
    else:
        lines.append(f"No flagged questions (flag one with {FLAG} to find it here).")
    lines += ["", "Press a number to go back to it, or Finish."]
    return "\n".join(lines)


def exam_keyboard(view: ExamView) -> InlineKeyboardMarkup:
    exam_id, size = view.exam.id, len(view.items)
    rows: list[list[InlineKeyboardButton]] = []
    item = view.item
    if item is None:
        jumps = [(f"{FLAGGED} {i + 1}", i) for i in view.flagged]
        jumps += [(str(i + 1), i) for i in view.unanswered if i not in view.flagged]
        buttons = [_button(text, exam_id, Go(i)) for text, i in jumps[:MOST_JUMPS]]
        rows += [buttons[i : i + JUMPS_PER_ROW] for i in range(0, len(buttons), JUMPS_PER_ROW)]
    elif view.question is not None:
        rows.append(
            [
                _button(
                    ("✓ " if item.picks > 1 else "● ") + letter(p)
                    if p in item.chosen_positions
                    else letter(p),
                    exam_id,
                    Choose(item.index, p),
                )
                for p in range(len(item.option_order))
            ]
        )
    back, forward = (view.page - 1) % (size + 1), (view.page + 1) % (size + 1)
    middle = []
    if item is not None:
        middle = [_button(FLAGGED if item.flagged else FLAG, exam_id, Flag(item.index))]
    rows.append([_button("◀", exam_id, Go(back)), *middle, _button("▶", exam_id, Go(forward))])
    rows.append([_button("Finish", exam_id, Finish())])
    return InlineKeyboardMarkup(rows)


def confirm_message(view: ExamView) -> str:
    missing = view.unanswered
    numbers = ", ".join(str(i + 1) for i in missing)
    noun = "question is" if len(missing) == 1 else "questions are"
    return (
        f"📝 <b>Finish the exam?</b> · {minutes_left(view.time_left)}\n\n"
        f"{len(missing)} {noun} unanswered ({numbers}); unanswered questions count as wrong."
    )


def confirm_keyboard(view: ExamView) -> InlineKeyboardMarkup:
    exam_id = view.exam.id
    return InlineKeyboardMarkup(
        [[_button("◀ Back", exam_id, Go(view.page)), _button("Finish now", exam_id, FinishNow())]]
    )


def in_progress_message(view: ExamView) -> str:
    return (
        f"📝 You have an exam in progress: {view.answered}/{len(view.items)} answered, "
        f"{minutes_left(view.time_left)}. Resume it, or finish it now?"
    )


def in_progress_keyboard(view: ExamView) -> InlineKeyboardMarkup:
    exam_id = view.exam.id
    return InlineKeyboardMarkup(
        [[_button("Resume ▶", exam_id, Resume()), _button("Finish now", exam_id, FinishNow())]]
    )


def submitted_message(by: ExamEnd | None) -> str:
    """What the exam's message says once the exam is submitted (its buttons are gone)."""
    if by is ExamEnd.DEADLINE:
        return "⏰ <b>Time's up.</b> The exam was submitted; the result is below."
    return "📝 <b>Exam submitted.</b> The result is below."


def result_message(result: ExamResult) -> str:
    exam = result.exam
    verdict = "✅ <b>Pass</b>" if result.passed else "❌ <b>Not yet a pass</b>"
    lines = [
        f"📝 <b>Practice exam result</b> · {escape(result.deck_title)}",
        "",
        f"Score: <b>{result.correct}/{result.total} ({result.percent}%)</b>: {verdict} "
        f"against a practice pass mark of {exam.pass_percent}%.",
        PRACTICE_NOTE,
        f"Time used: {duration(result.time_used)} of {duration(exam.deadline - exam.started_at)}"
        + (" (submitted at the deadline)" if exam.submitted_by is ExamEnd.DEADLINE else "."),
    ]
    if result.unanswered:
        lines.append(f"Unanswered: {result.unanswered}.")
    lines += ["", "<b>By topic</b>"]
    lines += [
        f"{'✅' if s.correct == s.total else '▫️'} {escape(shorten(s.topic, TOPIC_LIMIT))}: "
        f"{s.correct}/{s.total}"
        for s in result.topics
    ]
    return "\n".join(lines)


def result_keyboard(result: ExamResult) -> InlineKeyboardMarkup | None:
    misses = len(result.misses)
    if not misses:
        return None
    label = f"🔍 Go through the {misses} miss{'es' if misses != 1 else ''}"
    return InlineKeyboardMarkup([[_button(label, result.exam.id, ShowMiss(0))]])


def miss_message(view: MissView) -> str:
    item, question = view.item, view.question
    total = len(view.result.misses)
    head = (
        f"🔍 <b>Miss {view.number + 1}/{total}</b> · question {item.index + 1} · "
        f"<i>{escape(shorten(item.topic, TOPIC_LIMIT))}</i>"
    )
    if question is None:
        return f"{head}\n\n<i>This question was removed from the deck since.</i>"
    lines = []
    for position, line in enumerate(_options(question, item)):
        if position in item.right_positions:
            line = f"✅ {line}"
        elif position in item.chosen_positions:
            line = f"❌ {line}"
        if position in item.chosen_positions:
            line += "  ← <i>your answer</i>"
        lines.append(line)
    if item.chosen is None:
        lines.append("\n<i>You did not answer this one.</i>")
    body = f"{head}\n\n<b>{escape(question.text)}</b>\n\n" + "\n".join(lines)
    room = MESSAGE_LIMIT - utf16_len(body) - 2
    block = explanation_block(question, room)
    if utf16_len(block) > room:
        block = f"💡 {escape(shorten(question.explanation, max(room - 40, 0)))}"
    return f"{body}\n\n{block}"


def miss_keyboard(view: MissView) -> InlineKeyboardMarkup:
    exam_id, total = view.result.exam.id, len(view.result.misses)
    back, forward = (view.number - 1) % total, (view.number + 1) % total
    return InlineKeyboardMarkup(
        [
            [
                _button("◀", exam_id, ShowMiss(back)),
                _button("↩ Result", exam_id, ShowResult()),
                _button("▶", exam_id, ShowMiss(forward)),
            ]
        ]
    )


@renders(ShowExamResult)
def result_shown(shown: ShowExamResult, context: RenderContext) -> Calls:
    """The exam's message says it was submitted (buttons gone), then the result follows as a
    reply. A message that cannot be edited any more (deleted, too old) does not hold the
    result back; a retry finds the edit done ('not modified')."""
    exam_message = shown.effect.message_id
    result = shown.result
    calls: list[BotCall] = []
    if exam_message is not None:
        calls.append(
            EditText(exam_message, submitted_message(result.exam.submitted_by), optional=True)
        )
    calls.append(SendText(result_message(result), result_keyboard(result), reply_to=exam_message))
    return calls


@renders(PostExamPage)
def page_posted(shown: PostExamPage, context: RenderContext) -> Calls:
    """The exam's page as a new message; a resumed exam's old message loses its buttons (its
    presses are refused anyway, so a failure there holds nothing back)."""
    calls: list[BotCall] = []
    old = shown.effect.message_id
    if old is not None:
        calls.append(EditKeyboard(old, None, optional=True))
    calls.append(SendText(exam_message(shown.view), exam_keyboard(shown.view)))
    return calls
