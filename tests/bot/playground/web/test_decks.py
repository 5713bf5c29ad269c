"""Decks in the panel: a loaded file is asked from at once, a broken one lists its problems,
and nothing a deck says becomes markup on the page."""

from __future__ import annotations

from pathlib import Path

from playwright.async_api import expect

from tests.bot.playground.web.pages import BOT_MS, PlaygroundPage, letter
from tests.content.builders import deck, question, write

PLANET = "Which planet is closest to the Sun?"
HOSTILE = '<img src=x onerror="document.body.dataset.pwned=1"> Pick <b>one</b> &amp; go'


def planet_deck(path: Path) -> Path:
    planet = question(
        "planet", topic="space", text=PLANET, answer="Mercury", wrong=["Venus", "Mars"]
    )
    return write(path, deck(planet, deck_id="playground-sample", title="Playground sample"))


async def test_a_loaded_deck_file_is_asked_from_at_once(
    playground: PlaygroundPage, tmp_path: Path
) -> None:
    """A valid deck file loaded in the panel becomes both chats' deck; /quiz asks from it."""
    await playground.load_deck(planet_deck(tmp_path / "sample.yaml"))

    await expect(playground.toast("Loaded the deck playground-sample")).to_be_visible()
    for chat in ("private", "group"):
        deck_line = playground.chat(chat).locator(".chat-deck")
        await expect(deck_line).to_have_text("Deck: Playground sample", timeout=BOT_MS)
    await expect(playground.page.get_by_label("Both chats ask from")).to_have_value(
        "playground-sample"
    )
    asked = await playground.quiz("private")
    await expect(asked).to_contain_text(PLANET)
    await expect(asked).to_contain_text("Mercury")


async def test_a_broken_deck_file_lists_its_problems_and_changes_nothing(
    playground: PlaygroundPage, tmp_path: Path
) -> None:
    """A broken deck file shows each problem as `file: question: field: message`, and the chats
    keep their deck."""
    broken = deck(question("planet", answer=None), question("gold", wrong=[]), deck_id="broken")
    await playground.load_deck(write(tmp_path / "broken.yaml", broken))

    problems = playground.page.locator("#deck-problems li")
    await expect(problems).to_have_count(2)
    await expect(problems.nth(0)).to_contain_text(
        "broken.yaml: planet: answer: required field is missing"
    )
    await expect(problems.nth(1)).to_contain_text("broken.yaml: gold: wrong: needs")
    await expect(playground.toast("broken.yaml is not a valid deck")).to_be_visible()
    deck_line = playground.chat("private").locator(".chat-deck")
    await expect(deck_line).to_contain_text("NCA Multi-GPU")


async def test_the_page_shows_markup_in_a_deck_as_text(
    playground: PlaygroundPage, tmp_path: Path
) -> None:
    """Tags in a deck's question, options and explanation are shown as text: no element is
    made from them and no handler in them runs."""
    hostile = question(
        "hostile",
        text=HOSTILE,
        answer="<script>document.body.dataset.pwned=2</script>",
        wrong=['<a href="javascript:alert(1)">click</a>'],
        explanation="<i>not italic</i> <img src=y>",
    )
    await playground.load_deck(write(tmp_path / "hostile.yaml", deck(hostile, deck_id="hostile")))
    await expect(playground.chat("private").locator(".chat-deck")).to_contain_text(
        "Sample", timeout=BOT_MS
    )

    asked = await playground.quiz("private")
    await expect(asked).to_contain_text(HOSTILE)
    await expect(asked).to_contain_text("<script>document.body.dataset.pwned=2</script>")
    await letter(asked, "A").click()
    explanation = playground.bot_messages("private").filter(has_text="not italic").last
    await expect(explanation).to_contain_text("<i>not italic</i> <img src=y>", timeout=BOT_MS)

    page = playground.page
    await expect(page.locator("#layout img")).to_have_count(0)
    await expect(page.locator("#layout script")).to_have_count(0)
    await expect(page.locator("#layout [onerror], #layout [href^='javascript']")).to_have_count(0)
    await expect(asked.locator("a")).to_have_count(0)
    await expect(asked.locator("b")).to_have_count(0)
    assert await page.evaluate("document.body.dataset.pwned") is None


async def test_a_choose_two_question_is_picked_submitted_and_explained(
    playground: PlaygroundPage, tmp_path: Path
) -> None:
    """A "choose two" question in the page: letters tick as they are picked, Submit answers,
    and both right options are marked before the explanation."""
    two = question(
        "inner",
        topic="space",
        text="Which two planets orbit inside Earth's orbit? Choose two.",
        answer=None,
        answers=["Mercury", "Venus"],
        wrong=["Mars", "Jupiter"],
    )
    await playground.load_deck(write(tmp_path / "two.yaml", deck(two, deck_id="two")))
    await expect(playground.chat("private").locator(".chat-deck")).to_contain_text(
        "Sample", timeout=BOT_MS
    )
    asked = await playground.quiz("private")
    await expect(asked).to_contain_text("Pick 2 letters, then press Submit")
    await letter(asked, "A").click()
    await expect(letter(asked, "✓ A")).to_be_visible(timeout=BOT_MS)
    await letter(asked, "✓ A").click()  # a second press unpicks it
    await expect(letter(asked, "A")).to_be_visible(timeout=BOT_MS)
    await playground.answer(asked, "A")

    await expect(asked.get_by_role("button")).to_have_count(0, timeout=BOT_MS)
    assert (await asked.inner_text()).count("✅") == 2
    explanation = playground.bot_messages("private").filter(has_text="💡").last
    await expect(explanation).to_be_visible(timeout=BOT_MS)
