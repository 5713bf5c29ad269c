"""The data carried by inline buttons: short, typed and validated (Telegram allows 1–64 bytes)."""

from __future__ import annotations

import re
from dataclasses import dataclass

MAX_CALLBACK_BYTES = 64
_ANSWER = re.compile(r"a:([1-9][0-9]{0,17}):([0-7])")
_NEXT = re.compile(r"n:([1-9][0-9]{0,17}):([0-9]{1,2})")


@dataclass(frozen=True)
class AnswerButton:
    """A press on option `position` (0 = A) of the question stored as ask `ask_id`."""

    ask_id: int
    position: int

    def encode(self) -> str:
        data = f"a:{self.ask_id}:{self.position}"
        if len(data.encode()) > MAX_CALLBACK_BYTES:
            raise ValueError("callback data longer than Telegram allows")
        return data


def parse_answer_button(data: str | None) -> AnswerButton | None:
    """The button a press refers to, or None when the data is not one of ours."""
    if data is None:
        return None
    match = _ANSWER.fullmatch(data)
    if match is None:
        return None
    return AnswerButton(ask_id=int(match[1]), position=int(match[2]))


@dataclass(frozen=True)
class NextButton:
    """`Next ▶` in a private round that had asked `asked` questions when it was shown."""

    round_id: int
    asked: int

    def encode(self) -> str:
        return f"n:{self.round_id}:{self.asked}"


def parse_next_button(data: str | None) -> NextButton | None:
    match = _NEXT.fullmatch(data or "")
    if match is None:
        return None
    return NextButton(round_id=int(match[1]), asked=int(match[2]))
