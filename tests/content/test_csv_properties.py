"""CSV import properties: any valid rows round-trip, and no input crashes the importer."""

import csv
import io

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content.formats.practice_test import dump_yaml, slugify
from content.formats.spreadsheet import CsvImportError, deck_data, parse_csv_deck
from content.models import Deck


def parse(text: str) -> Deck:
    """The deck imported from CSV `text`, as file deck.csv."""
    return parse_csv_deck(text, "deck.csv", deck_id="deck", title="Deck", source="test")


# Cell text: printable, no line breaks of any kind (multi-line text is added explicitly).
_CHARS = st.characters(
    exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="\x85\u2028\u2029"
)
_TEXT = st.text(_CHARS, min_size=1, max_size=40).map(str.strip).filter(bool)
_OPTION = _TEXT.filter(lambda option: "|" not in option)
_MULTILINE = st.lists(_TEXT, min_size=1, max_size=3).map("\n".join)


def _option_key(option: str) -> str:
    return " ".join(option.split()).casefold()


@st.composite
def rows(draw: st.DrawFn) -> dict[str, object]:
    """One valid question row: distinct options, optional topic and source."""
    options = draw(st.lists(_OPTION, min_size=2, max_size=5, unique_by=_option_key))
    return {
        "question": draw(_MULTILINE),
        "answer": options[0],
        "wrong": options[1:],
        "explanation": draw(_MULTILINE),
        "topic": draw(st.none() | _TEXT),
        "source": draw(st.none() | _TEXT),
    }


def write_csv(
    questions: list[dict[str, object]], delimiter: str, layout: str, newline: str, bom: bool
) -> str:
    """`questions` as a spreadsheet would export them."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, delimiter=delimiter, lineterminator=newline)
    most = max(len(q["wrong"]) for q in questions)  # type: ignore[arg-type]
    wrong_names = ["wrong"] if layout != "columns" else [f"wrong{n + 1}" for n in range(most)]
    writer.writerow(["question", "answer", *wrong_names, "explanation", "topic", "source"])
    for q in questions:
        wrong: list[str] = q["wrong"]  # type: ignore[assignment]
        if layout == "columns":
            cells = wrong + [""] * (most - len(wrong))
        else:
            cells = [("\n" if layout == "lines" else "|").join(wrong)]
        writer.writerow(
            [
                q["question"],
                q["answer"],
                *cells,
                q["explanation"],
                q["topic"] or "",
                q["source"] or "",
            ]
        )
    return ("\ufeff" if bom else "") + buffer.getvalue()


@settings(max_examples=60, suppress_health_check=[HealthCheck.too_slow])
@given(
    st.lists(rows(), min_size=1, max_size=5),
    st.sampled_from([",", ";", "\t"]),
    st.sampled_from(["lines", "pipes", "columns"]),
    st.sampled_from(["\n", "\r\n"]),
    st.booleans(),
)
def test_written_rows_round_trip_through_import(
    questions: list[dict[str, object]], delimiter: str, layout: str, newline: str, bom: bool
) -> None:
    """Any valid rows, written as CSV in any supported layout, import to the same questions."""
    text = write_csv(questions, delimiter, layout, newline, bom)

    deck = parse(text)

    assert len(deck.questions) == len(questions)
    for got, want in zip(deck.questions, questions, strict=True):
        assert got.text == want["question"]
        assert got.options == (want["answer"], *want["wrong"])  # type: ignore[misc]
        assert got.explanation == want["explanation"]
        assert got.topic == (want["topic"] or "general")
        assert got.source == want["source"]
        assert slugify(got.id) == got.id
    assert len({q.id for q in deck.questions}) == len(questions)
    assert Deck.model_validate(yaml.safe_load(dump_yaml(deck_data(deck)))) == deck


@settings(max_examples=200)
@given(st.text(max_size=200))
def test_any_text_imports_or_raises_csv_import_error(text: str) -> None:
    """Arbitrary input never crashes the importer: it yields a deck or a CsvImportError."""
    problems: list[object] = []
    try:
        deck = parse(text)
    except CsvImportError as error:
        problems = list(error.problems)
    assert problems or deck.questions
