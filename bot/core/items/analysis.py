"""Item analysis: how well each question of a deck works, from each learner's first answer.

Pure statistics, no I/O. A learner's score on an item is 1 if their first answer to it was right,
else 0; their *rest score* for an item is their score on the deck's other items (those they
answered). Discrimination is measured twice: the item–rest point-biserial correlation, and the
upper-minus-lower index (share right among the 27% of the item's learners with the highest rest
scores, minus that among the 27% with the lowest). Options are counted by deck index: 0 is the
right answer, 1… the wrong options in file order.
"""

from __future__ import annotations

import math
import statistics
from collections import defaultdict
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from enum import StrEnum

from bot.core.model import ItemParameters
from bot.core.ports import FirstAnswer

# Flags are raised only for items with more than this many first answers.
MIN_ANSWERS_FOR_FLAGS = 30
TOO_EASY_ABOVE = 0.90
TOO_HARD_BELOW = 0.30
WEAK_BELOW = 0.20
DEAD_BELOW = 0.05
# Kelley's upper and lower groups: this share of the item's learners each.
GROUP_SHARE = 0.27


class Flag(StrEnum):
    TOO_EASY = "too easy"
    TOO_HARD = "too hard"
    WEAK = "weak discrimination"
    CHECK_KEY = "check the key"
    DEAD_DISTRACTORS = "dead distractors"


@dataclass(frozen=True)
class Item:
    """A question as the deck has it: id, text and options (the right ones first: `keyed` of
    them, more than one for a "choose N" question)."""

    question_id: str
    text: str
    options: tuple[str, ...]
    keyed: int = 1


@dataclass(frozen=True)
class ItemFigures:
    item: Item
    # False for a question that has answers but is no longer in the deck file.
    in_deck: bool
    answers: int
    right: int
    point_biserial: float | None
    upper_lower: float | None
    # First answers per option index (0: the right answer).
    picks: tuple[int, ...]
    median_seconds: float | None
    open_reports: int
    flags: tuple[Flag, ...]
    # Wrong options picked by fewer than DEAD_BELOW of the answers (only when flagged).
    dead_options: tuple[int, ...]
    # The item response model's parameters from the last calibration; None: not calibrated.
    parameters: ItemParameters | None = None

    @property
    def share_right(self) -> float | None:
        return self.right / self.answers if self.answers else None

    def pick_share(self, option: int) -> float | None:
        return self.picks[option] / self.answers if self.answers else None


@dataclass(frozen=True)
class DeckFigures:
    deck_id: str
    title: str
    # In deck order, then questions no longer in the deck, by id.
    items: tuple[ItemFigures, ...]
    learners: int
    answers: int
    # First answers to asks with no recorded posting time: timed from when they were asked.
    timed_from_asked: int
    # When the deck's item parameters were last fitted; None: never calibrated.
    fitted_at: datetime | None = None

    @property
    def flagged(self) -> tuple[ItemFigures, ...]:
        return tuple(item for item in self.items if item.flags)

    def review_order(self) -> tuple[ItemFigures, ...]:
        """Flagged items first, each group in deck order."""
        return self.flagged + tuple(item for item in self.items if not item.flags)


def chosen_option(option_order: Sequence[int], position: int) -> int | None:
    """The deck option index shown at `position`; None when the order has no such position."""
    return option_order[position] if 0 <= position < len(option_order) else None


def point_biserial(scores: Sequence[int], rests: Sequence[float]) -> float | None:
    """Pearson's correlation of 0/1 item scores with rest scores; None when either is constant."""
    if len(scores) != len(rests):
        raise ValueError("scores and rests differ in length")
    n = len(scores)
    if n < 2:
        return None
    mean_x, mean_y = sum(scores) / n, sum(rests) / n
    sxy = math.fsum((x - mean_x) * (y - mean_y) for x, y in zip(scores, rests, strict=True))
    sxx = math.fsum((x - mean_x) ** 2 for x in scores)
    syy = math.fsum((y - mean_y) ** 2 for y in rests)
    if sxx == 0 or syy == 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def _group_share(pairs: Sequence[tuple[float, int]], size: int) -> float:
    """Share right among the first `size` of `pairs` (rest, score) ranked by rest; learners
    tied with the last place share the remaining places pro rata."""
    total, taken, start = 0.0, 0, 0
    while taken < size:
        end = start
        while end < len(pairs) and pairs[end][0] == pairs[start][0]:
            end += 1
        block = [score for _, score in pairs[start:end]]
        places = min(size - taken, len(block))
        total += places * sum(block) / len(block)
        taken, start = taken + places, end
    return total / size


def upper_lower_index(
    scores: Sequence[int], rests: Sequence[float], share: float = GROUP_SHARE
) -> float | None:
    """Share right in the upper group minus the lower group, by rest score; None under two."""
    pairs = sorted(zip(rests, scores, strict=True))
    size = math.floor(share * len(pairs) + 0.5)
    if size < 1:
        return None
    lower = _group_share(pairs, size)
    upper = _group_share(pairs[::-1], size)
    return upper - lower


def item_flags(
    answers: int, right: int, picks: Sequence[int], point_biserial: float | None, keyed: int = 1
) -> tuple[tuple[Flag, ...], tuple[int, ...]]:
    """The item's flags and its dead distractors; none at MIN_ANSWERS_FOR_FLAGS or fewer.
    Options `0 … keyed - 1` are the right ones."""
    if answers <= MIN_ANSWERS_FOR_FLAGS:
        return (), ()
    share_right = right / answers
    flags = []
    if share_right > TOO_EASY_ABOVE:
        flags.append(Flag.TOO_EASY)
    if share_right < TOO_HARD_BELOW:
        flags.append(Flag.TOO_HARD)
    if point_biserial is not None and point_biserial < WEAK_BELOW:
        flags.append(Flag.WEAK)
    negative = point_biserial is not None and point_biserial < 0
    least_keyed = min(picks[:keyed], default=0)
    if negative or any(count > least_keyed for count in picks[keyed:]):
        flags.append(Flag.CHECK_KEY)
    dead = tuple(i for i in range(keyed, len(picks)) if picks[i] / answers < DEAD_BELOW)
    if dead:
        flags.append(Flag.DEAD_DISTRACTORS)
    return tuple(flags), dead


def _seconds(answer: FirstAnswer) -> float:
    shown = answer.posted_at or answer.asked_at
    return max(0.0, (answer.answered_at - shown).total_seconds())


def _figures(
    item: Item,
    in_deck: bool,
    answers: Sequence[FirstAnswer],
    totals: Mapping[int, int],
    open_reports: int,
) -> ItemFigures:
    scores = [int(answer.correct) for answer in answers]
    rests = [float(totals[a.user_id] - s) for a, s in zip(answers, scores, strict=True)]
    width = max([len(item.options), *(len(answer.option_order) for answer in answers)])
    picks = [0] * width
    for answer in answers:
        for position in answer.picked or (answer.position,):
            option = chosen_option(answer.option_order, position)
            if option is not None and option < width:
                picks[option] += 1
    pb = point_biserial(scores, rests)
    flags, dead = item_flags(len(answers), sum(scores), picks, pb, item.keyed)
    return ItemFigures(
        item=item,
        in_deck=in_deck,
        answers=len(answers),
        right=sum(scores),
        point_biserial=pb,
        upper_lower=upper_lower_index(scores, rests),
        picks=tuple(picks),
        median_seconds=statistics.median(map(_seconds, answers)) if answers else None,
        open_reports=open_reports,
        flags=flags,
        dead_options=dead,
    )


def analyse(
    deck_id: str,
    title: str,
    items: Sequence[Item],
    answers: Sequence[FirstAnswer],
    open_reports: Mapping[str, int],
    parameters: Sequence[ItemParameters] = (),
) -> DeckFigures:
    """Figures and flags for every item of the deck (never answered ones with 0 answers) and
    for every answered or reported question no longer in it, with its calibrated
    `parameters` where the last fit has them. `answers` must hold at most one answer per user
    and question: their first."""
    by_item: dict[str, list[FirstAnswer]] = defaultdict(list)
    totals: dict[int, int] = defaultdict(int)
    seen: set[tuple[int, str]] = set()
    for answer in answers:
        key = (answer.user_id, answer.question_id)
        if key in seen:
            raise ValueError(f"user {key[0]} has more than one first answer to {key[1]!r}")
        seen.add(key)
        by_item[answer.question_id].append(answer)
        totals[answer.user_id] += int(answer.correct)
    known = {item.question_id for item in items}
    gone = sorted((set(by_item) | set(open_reports)) - known)
    listed = [(item, True) for item in items] + [(Item(qid, "", ()), False) for qid in gone]
    figures = tuple(
        _figures(
            item, in_deck, by_item[item.question_id], totals, open_reports.get(item.question_id, 0)
        )
        for item, in_deck in listed
    )
    fitted = {p.question_id: p for p in parameters}
    return DeckFigures(
        deck_id=deck_id,
        title=title,
        items=tuple(replace(f, parameters=fitted.get(f.item.question_id)) for f in figures),
        learners=len(totals),
        answers=len(answers),
        timed_from_asked=sum(1 for answer in answers if answer.posted_at is None),
        fitted_at=max((p.fitted_at for p in parameters), default=None),
    )
