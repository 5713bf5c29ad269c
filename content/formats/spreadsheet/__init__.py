"""Import a deck from a spreadsheet's CSV export: one question per row, under a header row.

Columns, in any order (names ignore case, spaces, `_` and `-`):
  question, explanation           required
  answer                          the right option; or
  answer1 … answerN               one right option a column, for a question with several
  wrong                           all wrong options in one cell, one a line or split by "|"
  wrong1 … wrongN                 or one wrong option a column (empty cells are skipped)
  id                              optional; made from the question's first words when empty
  topic                           optional; "general" when absent or empty
  source, note                    optional
The file may start with a UTF-8 BOM, end lines with CRLF, quote cells that span lines,
and separate cells with `,`, `;` or tabs (the one found most often in the header row,
unless given). Every mistake is reported as `file: row N: column: message`, the rows
numbered as a spreadsheet numbers them (the header is row 1), and a file with any
mistake yields no deck. `content/formats/export/spreadsheet.py` writes the same columns.
"""

from content.formats.spreadsheet.columns import DELIMITERS, detect_delimiter
from content.formats.spreadsheet.reader import (
    CsvImportError,
    deck_data,
    parse_csv_deck,
    read_csv_deck,
)

__all__ = [
    "DELIMITERS",
    "CsvImportError",
    "deck_data",
    "detect_delimiter",
    "parse_csv_deck",
    "read_csv_deck",
]
