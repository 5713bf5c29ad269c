"""Write a deck as CSV with the columns the CSV importer reads (content/formats/spreadsheet/).

One question a row: `id`, `topic`, `question`, the right option in `answer` (or, when a question
has several, in `answer1`, `answer2`…), one wrong option a column (`wrong1`, `wrong2`…), then
`explanation`, `source` and `note`. UTF-8 with a byte order mark and CRLF line ends, as
spreadsheets expect.
"""

from __future__ import annotations

import csv
import io

from content.formats.export.result import Exported, left_out
from content.models import Deck

HOLDS = ("id", "topic", "explanation", "source", "note")
_BOM = "\ufeff"


def write_csv(deck: Deck) -> Exported:
    """The deck as a spreadsheet's CSV export."""
    most_right = max(question.picks for question in deck.questions)
    most_wrong = max(len(question.wrong) for question in deck.questions)
    right_columns = ["answer"] if most_right == 1 else [f"answer{n + 1}" for n in range(most_right)]
    wrong_columns = [f"wrong{n + 1}" for n in range(most_wrong)]
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(
        ["id", "topic", "question", *right_columns, *wrong_columns, "explanation", "source", "note"]
    )
    for question in deck.questions:
        right = list(question.right_options)
        wrong = list(question.wrong)
        writer.writerow(
            [
                question.id,
                question.topic,
                question.text,
                *right,
                *[""] * (most_right - len(right)),
                *wrong,
                *[""] * (most_wrong - len(wrong)),
                question.explanation,
                question.source or "",
                question.note or "",
            ]
        )
    content = (_BOM + buffer.getvalue()).encode("utf-8")
    return Exported(content, len(deck.questions), left_out=left_out(deck.questions, HOLDS))
