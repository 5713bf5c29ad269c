"""Buttons of mock exams: `x?:<exam id>[:…]`. Every button names its exam, so a press is
checked against the exam's user, chat, message and state before anything is written."""

from __future__ import annotations

import re
from dataclasses import dataclass

from bot.callback_data.fields import ID, POSITION, SMALL, numbers
from bot.callback_data.prefixes import Prefix, encoded, family, fields_of
from bot.core.exams.actions import (
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

# The fields after the exam id each exam button carries.
_FIELDS: dict[Prefix, tuple[re.Pattern[str], ...]] = {
    Prefix.EXAM_CHOOSE: (SMALL, POSITION),
    Prefix.EXAM_GO: (SMALL,),
    Prefix.EXAM_FLAG: (SMALL,),
    Prefix.EXAM_MISS: (SMALL,),
    Prefix.EXAM_FINISH: (),
    Prefix.EXAM_FINISH_NOW: (),
    Prefix.EXAM_RESUME: (),
    Prefix.EXAM_RESULT: (),
}
EXAM_DATA = family("x")


@dataclass(frozen=True)
class ExamButton:
    """A press on exam `exam_id` meaning `action`."""

    exam_id: int
    action: ExamAction

    def encode(self) -> str:
        match self.action:
            case Choose(index=index, position=position):
                data = encoded(Prefix.EXAM_CHOOSE, self.exam_id, index, position)
            case Go(page=page):
                data = encoded(Prefix.EXAM_GO, self.exam_id, page)
            case Flag(index=index):
                data = encoded(Prefix.EXAM_FLAG, self.exam_id, index)
            case ShowMiss(number=number):
                data = encoded(Prefix.EXAM_MISS, self.exam_id, number)
            case Finish():
                data = encoded(Prefix.EXAM_FINISH, self.exam_id)
            case FinishNow():
                data = encoded(Prefix.EXAM_FINISH_NOW, self.exam_id)
            case Resume():
                data = encoded(Prefix.EXAM_RESUME, self.exam_id)
            case ShowResult():
                data = encoded(Prefix.EXAM_RESULT, self.exam_id)
        if parse_exam_button(data) != self:
            raise ValueError(f"not valid exam button data: {data!r}")
        return data


def _action(prefix: Prefix, values: list[int]) -> ExamAction:
    match prefix:
        case Prefix.EXAM_CHOOSE:
            return Choose(values[0], values[1])
        case Prefix.EXAM_GO:
            return Go(values[0])
        case Prefix.EXAM_FLAG:
            return Flag(values[0])
        case Prefix.EXAM_MISS:
            return ShowMiss(values[0])
        case Prefix.EXAM_FINISH:
            return Finish()
        case Prefix.EXAM_FINISH_NOW:
            return FinishNow()
        case Prefix.EXAM_RESUME:
            return Resume()
    return ShowResult()


def parse_exam_button(data: str | None) -> ExamButton | None:
    """The exam button a press refers to, or None when the data is not one of ours."""
    for prefix, rest in _FIELDS.items():
        values = numbers((ID, *rest), fields_of(prefix, data))
        if values is not None:
            return ExamButton(values[0], _action(prefix, values[1:]))
    return None
