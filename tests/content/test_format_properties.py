"""Properties of the GIFT and Aiken readers and of every text writer: no input crashes a reader,
and any deck written as CSV, GIFT or Aiken reads back as the same questions."""

from collections.abc import Callable
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from content.formats.aiken import parse_aiken
from content.formats.drafts import DeckDraft, FormatImportError, LineMessage
from content.formats.export.aiken import write_aiken
from content.formats.export.gift import write_gift
from content.formats.export.result import one_line
from content.formats.export.spreadsheet import write_csv
from content.formats.gift import parse_gift
from content.formats.spreadsheet import parse_csv_deck
from content.models import Deck

NAMES = ("deck", "Deck", "test")
# Text: printable, no line breaks of any kind (multi-line text is made by joining lines).
_CHARS = st.characters(
    exclude_categories=("Cs", "Cc", "Zl", "Zp"), exclude_characters="\x85\u2028\u2029"
)
# Markup characters of both formats often, so that random text reaches past the first check.
_MARKUP = st.sampled_from([*"~=#{}:\\%-/$[]>.) \nTFAB", "ANSWER:", "::", "####", "\n\n"])
_TEXT = st.text(_CHARS, min_size=1, max_size=30).map(str.strip).filter(bool)
_MULTILINE = st.lists(_TEXT, min_size=1, max_size=3).map("\n".join)
_SLUG = st.from_regex(r"[a-z0-9]{1,6}(?:-[a-z0-9]{1,6}){0,2}", fullmatch=True)
_PICKS = st.integers(1, 3)
_ANY_TEXT = st.text(max_size=300) | st.lists(_MARKUP | _TEXT, max_size=60).map("".join)


def _option_key(option: str) -> str:
    return " ".join(option.split()).casefold()


@st.composite
def questions(draw: st.DrawFn, qid: str, picks: st.SearchStrategy[int]) -> dict[str, Any]:
    """One valid raw question with id `qid`: distinct options, 1 (or more) right ones."""
    options = draw(st.lists(_MULTILINE, min_size=2, max_size=6, unique_by=_option_key))
    right = min(draw(picks), len(options) - 1)
    raw: dict[str, Any] = {"id": qid, "topic": draw(_TEXT), "text": draw(_MULTILINE)}
    if right == 1:
        raw["answer"] = options[0]
    else:
        raw["answers"] = options[:right]
    raw["wrong"] = options[right:]
    raw["explanation"] = draw(_MULTILINE)
    raw.update({key: draw(_TEXT) for key in ("source", "note") if draw(st.booleans())})
    return raw


@st.composite
def decks(draw: st.DrawFn, picks: st.SearchStrategy[int] = _PICKS) -> Deck:
    """A valid deck of one to five questions, each with 1 to 3 right options (or `picks`)."""
    ids = draw(st.lists(_SLUG, min_size=1, max_size=5, unique=True))
    raw = [draw(questions(qid, picks)) for qid in ids]
    return Deck.model_validate({"id": "deck", "title": "Deck", "source": "test", "questions": raw})


def _held(deck: Deck, fields: tuple[str, ...]) -> list[dict[str, Any]]:
    return [question.model_dump(include=set(fields)) for question in deck.questions]


def _outcome(reader: Callable[[], DeckDraft]) -> list[LineMessage]:
    """The problems `reader` raised, none when it gave a draft with questions."""
    try:
        draft = reader()
    except FormatImportError as error:
        return error.problems
    assert draft.questions
    return []


@settings(max_examples=300)
@given(_ANY_TEXT)
def test_any_text_reads_as_gift_or_raises_format_import_error(text: str) -> None:
    """Arbitrary input never crashes the GIFT reader: a draft, or problems at lines it has."""
    problems = _outcome(lambda: parse_gift(text, "deck.gift", deck=NAMES))

    lines = text.count("\n") + text.count("\r") + 1
    assert all(p.line is None or 1 <= p.line <= lines for p in problems)


@settings(max_examples=300)
@given(_ANY_TEXT)
def test_any_text_reads_as_aiken_or_raises_format_import_error(text: str) -> None:
    """Arbitrary input never crashes the Aiken reader: a draft, or problems at lines it has."""
    problems = _outcome(lambda: parse_aiken(text, "deck.aiken", deck=NAMES))

    lines = text.count("\n") + text.count("\r") + 1
    assert all(p.line is None or 1 <= p.line <= lines for p in problems)


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(decks())
def test_any_deck_written_as_csv_reads_back_the_same(deck: Deck) -> None:
    """CSV holds every field but images and scenario marks: the questions come back equal."""
    text = write_csv(deck).content.decode("utf-8")

    back = parse_csv_deck(text, "deck.csv", deck_id="deck", title="Deck", source="test")

    assert back.questions == deck.questions


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(decks())
def test_any_deck_written_as_gift_reads_back_the_same(deck: Deck) -> None:
    """GIFT holds ids, topics, texts, options with the right ones and explanations."""
    back = parse_gift(write_gift(deck).content.decode(), "deck.gift", deck=NAMES)

    held = ("id", "topic", "text", "answer", "answers", "wrong", "explanation")
    assert _held(back.deck(), held) == _held(deck, held)
    assert not back.notices


@settings(max_examples=80, suppress_health_check=[HealthCheck.too_slow])
@given(decks(picks=st.just(1)))
def test_any_deck_written_as_aiken_reads_back_what_aiken_holds(deck: Deck) -> None:
    """Aiken holds one-line texts and options and the right one, for each question it keeps."""
    exported = write_aiken(deck)
    kept = [q for q in deck.questions if q.id not in dict(exported.skipped)]
    if not kept:
        return

    back = parse_aiken(exported.content.decode(), "deck.aiken", deck=NAMES)

    assert [(q["text"], q["answer"], q["wrong"]) for q in back.questions] == [
        (one_line(q.text), one_line(q.right_options[0]), [one_line(w) for w in q.wrong])
        for q in kept
    ]
