"""The item report as text (a table for the terminal) and CSV; the HTML is html.py's render_html.

Renderers only: strings in, strings out, no I/O.
"""

from __future__ import annotations

import csv
import io
import textwrap
from collections.abc import Sequence

from bot.core.items.analysis import (
    DEAD_BELOW,
    GROUP_SHARE,
    MIN_ANSWERS_FOR_FLAGS,
    TOO_EASY_ABOVE,
    TOO_HARD_BELOW,
    WEAK_BELOW,
    DeckFigures,
    Flag,
    ItemFigures,
)
from bot.core.model import letter

ID_WIDTH = 32
# Notes and the legend are wrapped to this many characters.
TEXT_WIDTH = 100
NONE = "—"


def percent(share: float | None) -> str:
    return NONE if share is None else f"{share:.0%}"


def signed(value: float | None) -> str:
    return NONE if value is None else f"{value:+.2f}"


def duration(seconds: float | None) -> str:
    """A median answer time: 8.4s, 4m05s, 2h03m."""
    if seconds is None:
        return NONE
    if seconds < 60:
        return f"{seconds:.1f}s"
    whole = round(seconds)
    if whole < 3600:
        return f"{whole // 60}m{whole % 60:02d}s"
    return f"{whole // 3600}h{whole % 3600 // 60:02d}m"


def flag_text(item: ItemFigures) -> str:
    """The item's flags, dead distractors with their letters: `too easy; dead distractors (C)`."""
    parts = []
    for flag in item.flags:
        if flag is Flag.DEAD_DISTRACTORS:
            parts.append(f"{flag} ({', '.join(letter(i) for i in item.dead_options)})")
        else:
            parts.append(str(flag))
    return "; ".join(parts)


def summary_lines(deck: DeckFigures) -> list[str]:
    """What the figures are based on, for the header of every format."""
    unanswered = sum(1 for item in deck.items if item.answers == 0)
    lines = [
        f"{deck.learners} learners, {deck.answers} first answers, {len(deck.items)} questions "
        f"({len(deck.flagged)} flagged, {unanswered} never answered). Only each learner's first "
        "answer to a question counts, over all chats and asks.",
        _time_note(deck),
        fit_note(deck),
    ]
    return lines


def fit_note(deck: DeckFigures) -> str:
    """When the item parameters (b, a, c) were fitted, and how many are the priors'."""
    if deck.fitted_at is None:
        return "Not calibrated yet: b, a and c come with `python -m bot calibrate`."
    calibrated = [item.parameters for item in deck.items if item.parameters is not None]
    prior = sum(1 for p in calibrated if p.prior_only)
    return (
        f"b, a and c fitted {deck.fitted_at:%Y-%m-%d %H:%M} UTC from first answers in every "
        f"mode, exams included: {len(calibrated) - prior} fitted, {prior} on priors (few answers)."
    )


def calibrated(item: ItemFigures) -> tuple[str, str, str]:
    """The item's difficulty, discrimination and guessing floor as shown: "prior" for a
    question left on the priors, — for one the last fit did not see."""
    p = item.parameters
    if p is None:
        return NONE, NONE, NONE
    if p.prior_only:
        return "prior", NONE, NONE
    return f"{p.difficulty:+.2f}", f"{p.discrimination:.2f}", f"{p.guessing:.2f}"


def _time_note(deck: DeckFigures) -> str:
    """Where answer times run from: asks keep no posting time, the outbox's send time is used."""
    if deck.answers and deck.timed_from_asked == deck.answers:
        return (
            "Answer time runs from asked_at, when the question was asked: asks keep no posting "
            "time and the outbox recorded no sending for these questions."
        )
    note = (
        "Answer time runs from when the question was posted, as the outbox recorded its sending "
        "(asks keep no posting time of their own)"
    )
    if deck.timed_from_asked:
        note += (
            f"; {deck.timed_from_asked} answers to questions with no recorded sending are timed "
            "from asked_at, when the question was asked"
        )
    return note + "."


def legend_lines() -> list[str]:
    return [
        "Options: A is the deck's answer, B, C, … its wrong options in file order.",
        "r: item–rest point-biserial correlation (item score vs the score on the deck's other "
        f"items). D: share right in the top {GROUP_SHARE:.0%} by rest score minus the bottom "
        f"{GROUP_SHARE:.0%}.",
        f"Flags, only past {MIN_ANSWERS_FOR_FLAGS} first answers: too easy (> "
        f"{TOO_EASY_ABOVE:.0%} right), too hard (< {TOO_HARD_BELOW:.0%}), weak discrimination "
        f"(r < {WEAK_BELOW:.2f}), check the key (r < 0, or a wrong option picked more than the "
        f"answer), dead distractors (a wrong option picked by < {DEAD_BELOW:.0%}).",
        "b, a, c: the item response model's difficulty (the ability, in learners' standard "
        "deviations from the average, at which a learner is halfway between the floor and "
        "sure), discrimination (how sharply the chance rises there) and guessing floor (the "
        "chance of the weakest learners; 0: none). prior: too few answers to fit.",
    ]


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def _picks(item: ItemFigures) -> str:
    if not item.answers:
        return NONE
    return "/".join(f"{item.pick_share(i):.0%}".removesuffix("%") for i in range(len(item.picks)))


def _deck_text(deck: DeckFigures) -> list[str]:
    notes = (textwrap.fill(line, TEXT_WIDTH) for line in summary_lines(deck))
    lines = [f"Item analysis: {deck.title} ({deck.deck_id})", *notes, ""]
    header = (
        "question", "answers", "right", "r", "D", "b", "a", "c", "picks % A/B/C…", "time",
        "reports",
    )  # fmt: skip
    rows = [
        (
            _short(item.item.question_id + ("" if item.in_deck else " †"), ID_WIDTH),
            str(item.answers),
            percent(item.share_right),
            signed(item.point_biserial),
            signed(item.upper_lower),
            *calibrated(item),
            _picks(item),
            duration(item.median_seconds),
            str(item.open_reports),
        )
        for item in deck.review_order()
    ]
    widths = [max(len(row[i]) for row in (header, *rows)) for i in range(len(header))]

    def line(cells: Sequence[str], flags: str) -> str:
        first = cells[0].ljust(widths[0])
        rest = (cell.rjust(width) for cell, width in zip(cells[1:], widths[1:], strict=True))
        return "  ".join((first, *rest, flags)).rstrip()

    lines.append(line(header, "flags"))
    for row, item in zip(rows, deck.review_order(), strict=True):
        lines.append(line(row, flag_text(item)))
    if any(not item.in_deck for item in deck.items):
        lines.append("† no longer in the deck file")
    return lines


def render_text(decks: Sequence[DeckFigures]) -> str:
    """A readable table per deck, flagged questions first, then the legend."""
    if not decks:
        return "No decks to analyse: no deck files and no stored answers.\n"
    lines: list[str] = []
    for deck in decks:
        lines += [*_deck_text(deck), ""]
    lines += (textwrap.fill(line, TEXT_WIDTH, subsequent_indent="  ") for line in legend_lines())
    return "\n".join(lines) + "\n"


def _number(value: float | None) -> str:
    return "" if value is None else f"{value:.4f}"


def render_csv(decks: Sequence[DeckFigures]) -> str:
    """One row per question with every figure; option columns up to the widest question."""
    width = max((len(item.picks) for deck in decks for item in deck.items), default=0)
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    options = [f"{kind}_{letter(i)}" for i in range(width) for kind in ("picks", "share")]
    writer.writerow(
        [
            "deck_id",
            "question_id",
            "in_deck",
            "question",
            "answers",
            "right",
            "share_right",
            "point_biserial",
            "upper_lower_27",
            "difficulty",
            "discrimination",
            "guessing",
            "prior_only",
            "fitted_at",
            "median_seconds",
            "open_reports",
            "flags",
            "dead_options",
            *options,
        ]
    )
    for deck in decks:
        for item in deck.review_order():
            cells: list[str] = []
            p = item.parameters
            fit_cells = (
                ["", "", "", "", ""]
                if p is None
                else [
                    _number(p.difficulty),
                    _number(p.discrimination),
                    _number(p.guessing),
                    "yes" if p.prior_only else "no",
                    p.fitted_at.isoformat(timespec="seconds"),
                ]
            )
            for i in range(width):
                known = i < len(item.picks)
                cells.append(str(item.picks[i]) if known else "")
                cells.append(_number(item.pick_share(i)) if known else "")
            writer.writerow(
                [
                    deck.deck_id,
                    item.item.question_id,
                    "yes" if item.in_deck else "no",
                    item.item.text,
                    item.answers,
                    item.right,
                    _number(item.share_right),
                    _number(item.point_biserial),
                    _number(item.upper_lower),
                    *fit_cells,
                    _number(item.median_seconds),
                    item.open_reports,
                    "; ".join(str(flag) for flag in item.flags),
                    " ".join(letter(i) for i in item.dead_options),
                    *cells,
                ]
            )
    return out.getvalue()
