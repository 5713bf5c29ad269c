"""The data carried by mock-exam buttons (beside `bot.callback_data`): `x?:<exam id>[:…]`, short,
typed and validated. Every button names its exam, so a press is checked against the exam's user,
chat, message and state before anything is written."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.callback_data import MAX_CALLBACK_BYTES
from bot.core.exam_actions import (
    Choose,
    ExamAction,
    Finish,
    FinishNow,
    Flag,
    Go,
    Resume,
    ShowMiss,
    ShowResult,
)

EXAM_DATA = re.compile(r"x[a-z]:")  # what the exam handler takes (then validates)
_ID = r"([1-9][0-9]{0,17})"
_NUMBER = r"(0|[1-9][0-9]{0,2})"  # an index into an exam (at most 200 questions)
_FORMS = {
    "a": re.compile(rf"xa:{_ID}:{_NUMBER}:([0-7])"),
    "g": re.compile(rf"xg:{_ID}:{_NUMBER}"),
    "f": re.compile(rf"xf:{_ID}:{_NUMBER}"),
    "m": re.compile(rf"xm:{_ID}:{_NUMBER}"),
    "e": re.compile(rf"xe:{_ID}"),
    "n": re.compile(rf"xn:{_ID}"),
    "r": re.compile(rf"xr:{_ID}"),
    "o": re.compile(rf"xo:{_ID}"),
}


@dataclass(frozen=True)
class ExamButton:
    """A press on exam `exam_id` meaning `action`."""

    exam_id: int
    action: ExamAction

    def encode(self) -> str:
        match self.action:
            case Choose(index=index, position=position):
                data = f"xa:{self.exam_id}:{index}:{position}"
            case Go(page=page):
                data = f"xg:{self.exam_id}:{page}"
            case Flag(index=index):
                data = f"xf:{self.exam_id}:{index}"
            case ShowMiss(number=number):
                data = f"xm:{self.exam_id}:{number}"
            case Finish():
                data = f"xe:{self.exam_id}"
            case FinishNow():
                data = f"xn:{self.exam_id}"
            case Resume():
                data = f"xr:{self.exam_id}"
            case ShowResult():
                data = f"xo:{self.exam_id}"
        if len(data.encode()) > MAX_CALLBACK_BYTES or parse_exam_button(data) != self:
            raise ValueError(f"not valid exam button data: {data!r}")
        return data


def parse_exam_button(data: str | None) -> ExamButton | None:
    """The exam button a press refers to, or None when the data is not one of ours."""
    text = data or ""
    form = _FORMS.get(text[1:2]) if text.startswith("x") else None
    match = None if form is None else form.fullmatch(text)
    if match is None:
        return None
    exam_id, kind = int(match[1]), text[1]
    action: ExamAction
    if kind == "a":
        action = Choose(int(match[2]), int(match[3]))
    elif kind == "g":
        action = Go(int(match[2]))
    elif kind == "f":
        action = Flag(int(match[2]))
    elif kind == "m":
        action = ShowMiss(int(match[2]))
    elif kind == "e":
        action = Finish()
    elif kind == "n":
        action = FinishNow()
    elif kind == "r":
        action = Resume()
    else:
        action = ShowResult()
    return ExamButton(exam_id, action)
