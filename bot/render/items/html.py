"""The item report as one static HTML page: inline CSS and SVG, no script, nothing external.

Every text from a deck or the database goes through `html.escape`. A renderer: no I/O.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from html import escape

from bot.core.items.analysis import DeckFigures, ItemFigures
from bot.core.model import letter
from bot.render.items.text import (
    calibrated,
    duration,
    flag_text,
    legend_lines,
    percent,
    signed,
    summary_lines,
)

BAR_HEIGHT = 14
BAR_GAP = 4
LABEL_WIDTH = 18
BAR_WIDTH = 150
CHART_WIDTH = LABEL_WIDTH + BAR_WIDTH + 40
KEY_COLOUR = "#2f9e44"
WRONG_COLOUR = "#4c6ef5"
# A wrong option picked more than the answer (check the key) and a dead distractor.
RIVAL_COLOUR = "#e8590c"
DEAD_COLOUR = "#adb5bd"

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 72rem;
       padding: 0 1rem; color: #212529; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.25rem; margin-top: 2.5rem; }
table { border-collapse: collapse; width: 100%; }
th, td { border-bottom: 1px solid #dee2e6; padding: .4rem .5rem; vertical-align: top; }
th { text-align: left; background: #f1f3f5; position: sticky; top: 0; }
td.num { text-align: right; font-variant-numeric: tabular-nums; white-space: nowrap; }
tr.flagged td:first-child { border-left: 4px solid #e8590c; }
.qid { font-family: ui-monospace, monospace; font-size: .85em; color: #495057; }
.flags { color: #c92a2a; font-weight: 600; }
ol.options { margin: .3rem 0 0; padding-left: 1.6rem; font-size: .9em; color: #495057; }
ol.options li.key { color: #2b8a3e; font-weight: 600; }
.summary li, .legend li { margin: .2rem 0; }
.legend { color: #495057; font-size: .9em; }
"""


def chart(item: ItemFigures) -> str:
    """A horizontal bar per option: the share of first answers that picked it."""
    label = escape(f"Option picks for {item.item.question_id}", quote=True)
    rows = len(item.picks) if item.answers else 1
    height = rows * (BAR_HEIGHT + BAR_GAP)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{CHART_WIDTH}" height="{height}" '
        f'viewBox="0 0 {CHART_WIDTH} {height}" role="img" aria-label="{label}">',
        f"<title>{label}</title>",
    ]
    if not item.answers:
        parts.append(f'<text x="0" y="{BAR_HEIGHT - 3}" font-size="12" fill="#868e96">')
        parts.append("no answers</text></svg>")
        return "".join(parts)
    for i in range(len(item.picks)):
        share = item.pick_share(i) or 0.0
        y = i * (BAR_HEIGHT + BAR_GAP)
        keyed = item.item.keyed
        colour = KEY_COLOUR if i < keyed else WRONG_COLOUR
        if i in item.dead_options:
            colour = DEAD_COLOUR
        elif i >= keyed and item.picks[i] > min(item.picks[:keyed]):
            colour = RIVAL_COLOUR
        width = round(share * BAR_WIDTH, 1)
        text_y = y + BAR_HEIGHT - 3
        parts.append(
            f'<text x="0" y="{text_y}" font-size="12">{letter(i)}</text>'
            f'<rect x="{LABEL_WIDTH}" y="{y}" width="{width}" height="{BAR_HEIGHT}" '
            f'fill="{colour}"><title>{letter(i)}: {item.picks[i]} ({percent(share)})</title></rect>'
            f'<text x="{LABEL_WIDTH + width + 4}" y="{text_y}" font-size="11">'
            f"{percent(share)}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _question_cell(item: ItemFigures) -> str:
    qid = escape(item.item.question_id)
    gone = "" if item.in_deck else " <em>(no longer in the deck file)</em>"
    options = "".join(
        f'<li class="key">{escape(option)}</li>' if i == 0 else f"<li>{escape(option)}</li>"
        for i, option in enumerate(item.item.options)
    )
    listed = f'<ol class="options" type="A">{options}</ol>' if options else ""
    return f'<div class="qid">{qid}{gone}</div><div>{escape(item.item.text)}</div>{listed}'


def _row(item: ItemFigures) -> str:
    cells = [
        f"<td>{_question_cell(item)}</td>",
        f'<td class="num">{item.answers}</td>',
        f'<td class="num">{percent(item.share_right)}</td>',
        f'<td class="num">{signed(item.point_biserial)}</td>',
        f'<td class="num">{signed(item.upper_lower)}</td>',
        *(f'<td class="num">{value}</td>' for value in calibrated(item)),
        f"<td>{chart(item)}</td>",
        f'<td class="num">{duration(item.median_seconds)}</td>',
        f'<td class="num">{item.open_reports}</td>',
        f'<td class="flags">{escape(flag_text(item))}</td>',
    ]
    css = ' class="flagged"' if item.flags else ""
    return f"<tr{css}>{''.join(cells)}</tr>"


def _deck(deck: DeckFigures) -> str:
    summary = "".join(f"<li>{escape(line)}</li>" for line in summary_lines(deck))
    heads = ("question", "answers", "right", "r", "D", "b", "a", "c", "option picks", "median time")
    header = "".join(f"<th>{escape(head)}</th>" for head in (*heads, "open reports", "flags"))
    body = "".join(_row(item) for item in deck.review_order())
    return (
        f"<section><h2>{escape(deck.title)} <span class='qid'>{escape(deck.deck_id)}</span></h2>"
        f'<ul class="summary">{summary}</ul>'
        f"<table><thead><tr>{header}</tr></thead><tbody>{body}</tbody></table></section>"
    )


def render_html(decks: Sequence[DeckFigures], generated_at: datetime | None = None) -> str:
    """The whole page: a summary, a table and a bar chart of option picks per question."""
    when = ""
    if generated_at is not None:
        when = f"<p>Generated {escape(generated_at.isoformat(timespec='seconds'))}.</p>"
    sections = "".join(_deck(deck) for deck in decks) or "<p>No decks to analyse.</p>"
    bars = (
        "Bars: the share of first answers that picked each option; green the answer, blue a "
        "wrong option, orange a wrong option picked more than the answer, grey a dead distractor."
    )
    legend = "".join(f"<li>{escape(line)}</li>" for line in (*legend_lines(), bars))
    return (
        '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">'
        '<meta name="viewport" content="width=device-width, initial-scale=1">'
        f"<title>quizbot item analysis</title><style>{STYLE}</style></head><body>"
        f"<h1>Item analysis</h1>{when}{sections}"
        f'<h2>Reading the figures</h2><ul class="legend">{legend}</ul></body></html>\n'
    )
