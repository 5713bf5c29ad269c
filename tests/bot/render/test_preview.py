"""The deck preview page (`preview-deck`): every question as the bot shows it, escaped, with
its images embedded and the check-decks findings beside it."""

from __future__ import annotations

from datetime import UTC, datetime
from html.parser import HTMLParser

from bot.render.preview import preview_page
from content.models import Deck, Question

PNG = b"\x89PNG\r\n\x1a\nfake"
NOW = datetime(2026, 12, 6, tzinfo=UTC)


class Tags(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []
        self.text: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)

    def handle_data(self, data: str) -> None:
        self.text.append(data)


def _deck() -> Deck:
    hostile = Question(
        id="hostile",
        topic="t",
        text="Which <script>alert(1)</script> is it?",
        answer="<img src=x onerror=alert(1)>",
        wrong=["plain", "also plain"],
        explanation="Because & so.",
        image="images/q.png",
    )
    pair = Question(
        id="pair",
        topic="t",
        text="Which two? Choose two.",
        answers=["one", "two"],
        wrong=["three", "four"],
        explanation="So.",
    )
    return Deck(id="d", title="A <b>deck</b>", source="s", questions=[hostile, pair])


def test_every_deck_text_is_escaped_and_no_script_gets_in() -> None:
    """Stems, options and titles with markup show as text: no script or img tag from them."""
    page = preview_page(_deck(), "d.yaml", {"images/q.png": PNG}, {}, NOW)
    parsed = Tags()
    parsed.feed(page)
    assert "script" not in parsed.tags
    assert parsed.tags.count("img") == 3  # only the embedded diagram: open, closed, question
    assert any("<script>alert(1)</script>" in text for text in parsed.text)
    assert "data:image/png;base64," in page


def test_findings_are_shown_beside_their_question_and_the_deck() -> None:
    """A question's findings in its section; the deck's own at the top; none said as such."""
    findings = {"hostile": ["source: missing"], "-": ["answer: the right answer is the longest"]}
    page = preview_page(_deck(), "d.yaml", {"images/q.png": PNG}, findings, NOW)
    hostile = page[page.index('id="hostile"') : page.index('id="pair"')]
    assert "source: missing" in hostile
    assert "no findings" in page[page.index('id="pair"') :]
    assert page.index("the right answer is the longest") < page.index('id="hostile"')


def test_a_choose_two_question_shows_its_submit_and_both_keyed_options() -> None:
    """The pick hint, the Submit button, and the wrong-answer view marking both right ones."""
    page = preview_page(_deck(), "d.yaml", {"images/q.png": PNG}, {}, NOW)
    pair = page[page.index('id="pair"') :]
    assert "Pick 2 letters" in pair
    assert "<span>Submit</span>" in pair
    assert "The answers are" in pair


def test_a_missing_image_is_said_not_broken() -> None:
    """An image the page cannot embed is named as not found."""
    page = preview_page(_deck(), "d.yaml", {}, {}, NOW)
    assert "image images/q.png not found" in page
