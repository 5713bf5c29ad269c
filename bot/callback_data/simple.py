"""Buttons that carry no id: "Ask me a question" (`quizme`) and /forgetme's answer
(`forget:yes` / `forget:no`)."""

from __future__ import annotations

from dataclasses import dataclass

from bot.callback_data.prefixes import Prefix, encoded, fields_of, route

QUIZ_ME_DATA = route(Prefix.QUIZ_ME)
FORGET_DATA = route(Prefix.FORGET)
_ANSWERS = {"yes": True, "no": False}


@dataclass(frozen=True)
class QuizMeButton:
    """A question now, offered when no review is due."""

    def encode(self) -> str:
        return encoded(Prefix.QUIZ_ME)


@dataclass(frozen=True)
class ForgetButton:
    """/forgetme's confirmation: delete (`confirm`) or keep everything."""

    confirm: bool

    def encode(self) -> str:
        return encoded(Prefix.FORGET, "yes" if self.confirm else "no")


def parse_forget_button(data: str | None) -> ForgetButton | None:
    fields = fields_of(Prefix.FORGET, data)
    if fields is None or len(fields) != 1 or fields[0] not in _ANSWERS:
        return None
    return ForgetButton(_ANSWERS[fields[0]])
