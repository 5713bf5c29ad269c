"""Button data is user input too: parsing any string never fails, and ours round-trip."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from bot.callback_data import (
    MAX_CALLBACK_BYTES,
    AnswerButton,
    NextButton,
    parse_answer_button,
    parse_next_button,
)

ANY_TEXT = st.text(alphabet=st.characters(codec=None), max_size=200)


@given(ANY_TEXT)
def test_parsing_any_button_data_returns_a_button_or_none(data: str) -> None:
    """Forged data of any shape is either a well-formed button or None, never an error."""
    answer = parse_answer_button(data)
    assert answer is None or 0 <= answer.position <= 7
    step = parse_next_button(data)
    assert step is None or step.round_id >= 1


@given(st.integers(1, 10**18 - 1), st.integers(0, 7))
def test_answer_buttons_round_trip_within_telegrams_limit(ask_id: int, position: int) -> None:
    """Every answer button we make fits in 64 bytes and parses back to itself."""
    button = AnswerButton(ask_id, position)
    data = button.encode()
    assert len(data.encode()) <= MAX_CALLBACK_BYTES
    assert parse_answer_button(data) == button


@given(st.integers(1, 10**18 - 1), st.integers(0, 99))
def test_next_buttons_round_trip(round_id: int, asked: int) -> None:
    """Every `Next ▶` button we make parses back to itself."""
    button = NextButton(round_id, asked)
    assert parse_next_button(button.encode()) == button


def test_lookalike_digits_are_not_button_data() -> None:
    """Digits of other scripts never pass for an ask id or an option."""
    assert parse_answer_button("a:١٢:0") is None
    assert parse_answer_button("a:12:٠") is None
    assert parse_next_button("n:１:1") is None
