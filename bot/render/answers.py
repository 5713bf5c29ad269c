"""What answering a question shows, as owed messages: a private question marked, its
explanation (with `Next ▶` and `⚑ Report`), a used `Next ▶` taken off, and a busy group's
pointer to its open question."""

from __future__ import annotations

from bot.callback_data import NextButton
from bot.core.quiz import Explain, MarkAnswered, PointToOpen, ShowPicks
from bot.core.rounds import RemoveButton
from bot.render import media, questions, reports, rounds
from bot.render.calls import Calls, EditKeyboard, RenderContext, SendText, renders


@renders(MarkAnswered)
def marked(shown: MarkAnswered, context: RenderContext) -> Calls:
    if shown.ask.message_id is None:
        return ()
    text = questions.answered_message(shown.question, shown.ask, shown.positions, shown.deck_title)
    message_id = shown.ask.message_id
    return (media.edit(shown.question, shown.ask, shown.deck_title, message_id, text, None),)


@renders(Explain)
def explained(shown: Explain, context: RenderContext) -> Calls:
    effect = shown.effect
    next_button = None
    if effect.round_id is not None and effect.next_asked is not None:
        next_button = NextButton(effect.round_id, effect.next_asked)
    text = rounds.explanation_with_summary(
        questions.explanation_message(shown.question, shown.ask, shown.correct), shown.summary
    )
    keyboard = reports.explanation_keyboard(shown.ask.id, next_button)
    return media.explanation(shown.question, text, keyboard, shown.ask.message_id)


@renders(ShowPicks)
def ticked(shown: ShowPicks, context: RenderContext) -> Calls:
    # Cosmetic: the press's own answer says what is picked whatever the keyboard shows.
    ask = shown.ask
    if ask.message_id is None:
        return ()
    keyboard = questions.question_keyboard(ask, shown.picked)
    return (EditKeyboard(ask.message_id, keyboard, droppable=True),)


@renders(RemoveButton)
def unbuttoned(shown: RemoveButton, context: RenderContext) -> Calls:
    # Cosmetic: a private chat's burst is kept for the next question and answer.
    keyboard = reports.after_next_keyboard(shown.effect.ask_id)
    return (EditKeyboard(shown.message_id, keyboard, droppable=True),)


@renders(PointToOpen)
def pointed(shown: PointToOpen, context: RenderContext) -> Calls:
    reply_to = shown.ask.message_id or shown.effect.message_id
    return (SendText(questions.STILL_OPEN, reply_to=reply_to),)
