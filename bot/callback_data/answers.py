"""Buttons of questions: a letter (`a:<ask>:<position>`), a letter of a "choose N" question
(`p:<ask>:<position>`) and its `Submit` (`s:<ask>`), and `Next ▶` (`n:<round>:<asked>`)."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.callback_data.fields import ID, POSITION, numbers
from bot.callback_data.prefixes import Prefix, encoded, fields_of

_ASKED = re.compile(r"[0-9]{1,2}")


@dataclass(frozen=True)
class AnswerButton:
    """A press on option `position` (0 = A) of the question stored as ask `ask_id`."""

    ask_id: int
    position: int

    def encode(self) -> str:
        return encoded(Prefix.ANSWER, self.ask_id, self.position)


def parse_answer_button(data: str | None) -> AnswerButton | None:
    """The button a press refers to, or None when the data is not one of ours."""
    found = numbers((ID, POSITION), fields_of(Prefix.ANSWER, data))
    return None if found is None else AnswerButton(ask_id=found[0], position=found[1])


@dataclass(frozen=True)
class PickButton:
    """A press on letter `position` of the "choose N" question stored as ask `ask_id`."""

    ask_id: int
    position: int

    def encode(self) -> str:
        return encoded(Prefix.PICK, self.ask_id, self.position)


def parse_pick_button(data: str | None) -> PickButton | None:
    found = numbers((ID, POSITION), fields_of(Prefix.PICK, data))
    return None if found is None else PickButton(ask_id=found[0], position=found[1])


@dataclass(frozen=True)
class SubmitButton:
    """`Submit` under the "choose N" question stored as ask `ask_id`."""

    ask_id: int

    def encode(self) -> str:
        return encoded(Prefix.SUBMIT, self.ask_id)


def parse_submit_button(data: str | None) -> SubmitButton | None:
    found = numbers((ID,), fields_of(Prefix.SUBMIT, data))
    return None if found is None else SubmitButton(ask_id=found[0])


@dataclass(frozen=True)
class NextButton:
    """`Next ▶` in a private round that had asked `asked` questions when it was shown."""

    round_id: int
    asked: int

    def encode(self) -> str:
        return encoded(Prefix.NEXT, self.round_id, self.asked)


def parse_next_button(data: str | None) -> NextButton | None:
    found = numbers((ID, _ASKED), fields_of(Prefix.NEXT, data))
    return None if found is None else NextButton(round_id=found[0], asked=found[1])
