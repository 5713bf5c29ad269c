"""Message texts drawn from text + entities, as Telegram draws them (the page's renderText)."""

from __future__ import annotations

from typing import Any

from bot.playground.botapi.html import parse_html
from tests.bot.playground.web.pages import PlaygroundPage

SOURCE = (
    '😀 <b>Bold <i>both</i></b> <u>u</u> <s>s</s> <code>c</code> <a href="https://example.org/x">'
    "link</a> <a href='https://t.me/quizbot_playground_bot?start=x'>start</a>\n"
    "<blockquote>quoted</blockquote>\nafter /quiz <tg-spoiler>secret</tg-spoiler> &lt;b&gt;\n"
    '<pre><code class="language-python">x = 1 /quiz</code></pre>'
)
DRAW = """async ([text, entities]) => {
    const { renderText } = await import("/static/js/text.js");  // the instance the page runs
    const box = document.createElement("div");
    box.append(renderText(text, entities, 0));
    return box;
}"""


async def drawn(playground: PlaygroundPage, text: str, entities: Any, script: str) -> Any:
    """`script` (a function of the element drawn) run on the text drawn from the entities."""
    box = await playground.page.evaluate_handle(DRAW, [text, entities])
    return await box.evaluate(script)


async def test_entities_become_the_formatting_telegram_shows(playground: PlaygroundPage) -> None:
    """Bold, italic, underline, strike, code, pre, links, quotes, spoilers and /commands are
    drawn from the entities at their UTF-16 offsets; no tag in the text becomes an element."""
    parsed = parse_html(SOURCE)
    found = await drawn(
        playground,
        parsed.text,
        list(parsed.entities),
        """box => ({
            text: box.textContent,
            both: box.querySelector("strong > em")?.textContent,
            plain: [...box.querySelectorAll("u, s, code.code")].map(e => e.textContent),
            link: box.querySelector('a[href="https://example.org/x"]')?.rel,
            start: box.querySelectorAll("a")[1]?.textContent,
            quote: box.querySelector("blockquote")?.textContent,
            commands: [...box.querySelectorAll("button.cmd")].map(e => e.textContent),
            spoiler: box.querySelector(".spoiler")?.textContent,
            pre: box.querySelector('pre[data-language="python"] > code')?.textContent,
            tags: box.querySelectorAll("b").length,
        })""",
    )

    assert found == {
        "text": parsed.text.replace("quoted\nafter", "quotedafter"),  # the quote's edge
        "both": "both",
        "plain": ["u", "s", "c"],
        "link": "noopener noreferrer",
        "start": "start",
        "quote": "quoted",
        "commands": ["/quiz"],
        "spoiler": "secret",
        "pre": "x = 1 /quiz",
        "tags": 0,
    }


async def test_crossing_entities_are_split_not_lost(playground: PlaygroundPage) -> None:
    """An entity crossing its parent's end is split there: both keep all their text."""
    entities = [
        {"type": "bold", "offset": 0, "length": 6},
        {"type": "italic", "offset": 3, "length": 7},
    ]
    html = await drawn(playground, "abcdefghij", entities, "box => box.innerHTML")

    assert html == "<strong>abc<em>def</em></strong><em>ghij</em>"


async def test_only_web_links_become_links(playground: PlaygroundPage) -> None:
    """A text_link to javascript: or data: is drawn as text, never as a link."""
    entities = [
        {"type": "text_link", "offset": 0, "length": 3, "url": "javascript:alert(1)"},
        {"type": "text_link", "offset": 4, "length": 3, "url": "data:text/html,hi"},
    ]
    links = await drawn(playground, "one two", entities, 'box => box.querySelectorAll("a").length')

    assert links == 0
