"""The server's HTML parser (bot.playground.botapi.html) against Telegram's behaviour (TDLib's
parse_html)."""

from __future__ import annotations

import html as stdlib_html

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.playground.botapi.html import HtmlParseError, ParsedText, parse_html, utf16_len


def spans(html: str) -> list[tuple[str, int, int]]:
    return [(e["type"], e["offset"], e["length"]) for e in parse_html(html).entities]


@pytest.mark.parametrize(
    ("html", "text", "entities"),
    [
        ("plain text", "plain text", []),
        ("<b>b</b><strong>s</strong>", "bs", [("bold", 0, 1), ("bold", 1, 1)]),
        ("<i>i</i><em>e</em>", "ie", [("italic", 0, 1), ("italic", 1, 1)]),
        ("<u>u</u><ins>n</ins>", "un", [("underline", 0, 1), ("underline", 1, 1)]),
        (
            "<s>s</s><strike>k</strike><del>d</del>",
            "skd",
            [("strikethrough", 0, 1), ("strikethrough", 1, 1), ("strikethrough", 2, 1)],
        ),
        (
            '<tg-spoiler>a</tg-spoiler><span class="tg-spoiler">b</span>',
            "ab",
            [("spoiler", 0, 1), ("spoiler", 1, 1)],
        ),
        ("<code>x()</code>", "x()", [("code", 0, 3)]),
        ("<pre>block</pre>", "block", [("pre", 0, 5)]),
        ("<blockquote>q</blockquote>", "q", [("blockquote", 0, 1)]),
        ("<blockquote expandable>q</blockquote>", "q", [("expandable_blockquote", 0, 1)]),
        ("<b>a<i>b</i></b>", "ab", [("bold", 0, 2), ("italic", 1, 1)]),
        ("<B>upper</B>", "upper", [("bold", 0, 5)]),
        ("<b>closed by </>", "closed by ", [("bold", 0, 10)]),
        ('<b class="ignored" data-x=1>x</b >', "x", [("bold", 0, 1)]),
        ("<b></b>empty", "empty", []),
        ("<b>😀</b>é", "😀é", [("bold", 0, 2)]),
        ("&lt;b&gt; &amp; &quot;q&quot;", '<b> & "q"', []),
        ("&lt&gt", "<>", []),
        ("&#65;&#x42;&#67", "ABC", []),
        ("&#128512;", "😀", []),
        ("Tom & Jerry, a > b, &nbsp; &copy", "Tom & Jerry, a > b, &nbsp; &copy", []),
        ("&#0; &#1114111;", "&#0; &#1114111;", []),
    ],
    ids=lambda value: value if isinstance(value, str) else "",
)
def test_well_formed_html_gives_visible_text_and_entities(
    html: str, text: str, entities: list[tuple[str, int, int]]
) -> None:
    """Supported tags become entities (UTF-16 offsets); entities decode; the rest is kept."""
    assert parse_html(html).text == text
    assert spans(html) == entities


@pytest.mark.parametrize(
    ("html", "error"),
    [
        ("Hello <foo>bar", 'Unsupported start tag "foo" at byte offset 6'),
        ("<br>", 'Unsupported start tag "br" at byte offset 0'),
        ("привет <br>", 'Unsupported start tag "br" at byte offset 13'),
        ("a < b", 'Unsupported start tag "" at byte offset 2'),
        ("I <3 quizzes", 'Unsupported start tag "3" at byte offset 2'),
        ("<b/>", 'Unsupported start tag "b/" at byte offset 0'),
        ("x <b", "Unclosed start tag at byte offset 2"),
        ("a <", "Unclosed start tag at byte offset 2"),
        ("<a href", 'Unclosed start tag "a" at byte offset 0'),
        ("<a href=", 'Unclosed start tag "a" at byte offset 0'),
        ('<a href="x"', "Unclosed start tag at byte offset 0"),
        ('<a ="x">y</a>', 'Empty attribute name in the tag "a" at byte offset 0'),
        ("<b />", 'Empty attribute name in the tag "b" at byte offset 0'),
        ("<a href=x/>y</a>", "Unexpected end of name token at byte offset 8"),
        ("<span>x</span>", 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ('<span class="bold">x</span>', 'Tag "span" must have class "tg-spoiler" at byte offset 0'),
        ("x</b>", "Unexpected end tag at byte offset 1"),
        ("<b>x</b", "Unclosed end tag at byte offset 4"),
        ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
        ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
        ("<b><i>x</i>", 'Can\'t find end tag corresponding to start tag "b"'),
        ('<tg-emoji emoji-id="x">y</tg-emoji>', "Invalid custom emoji identifier specified"),
        ("<tg-emoji>y</tg-emoji>", "Invalid custom emoji identifier specified"),
        (
            "&#xD800;",
            "Text contains invalid Unicode characters after decoding HTML entities, check for "
            "unmatched surrogate code units",
        ),
    ],
    ids=lambda value: value[:40],
)
def test_malformed_html_is_rejected_with_telegrams_message(html: str, error: str) -> None:
    """Each kind of malformed input fails with TDLib's message and byte offset."""
    with pytest.raises(HtmlParseError) as info:
        parse_html(html)
    assert str(info.value) == error


def test_links_keep_valid_urls_and_drop_others() -> None:
    """<a href> makes a text_link (or text_mention); a URL Telegram refuses makes no entity."""
    html = (
        "<a href=\"https://example.com/?a=1&amp;b=2\">one</a> <a href='tg://user?id=42'>two</a> "
        '<a href="javascript:alert(1)">three</a> <a>example.org</a>'
    )
    parsed = parse_html(html)
    assert parsed.text == "one two three example.org"
    assert list(parsed.entities) == [
        {"type": "text_link", "offset": 0, "length": 3, "url": "https://example.com/?a=1&b=2"},
        {"type": "text_mention", "offset": 4, "length": 3, "user": {"id": 42}},
        {"type": "text_link", "offset": 14, "length": 11, "url": "http://example.org"},
    ]


def test_pre_with_nested_code_language_is_one_pre_entity() -> None:
    """<pre><code class="language-x"> is a pre with language x; a bare code loses it."""
    parsed = parse_html(
        '<pre><code class="language-python">x = 1</code></pre>\n<code class="language-go">y</code>'
    )
    assert parsed.text == "x = 1\ny"
    assert list(parsed.entities) == [
        {"type": "pre", "offset": 0, "length": 5, "language": "python"},
        {"type": "code", "offset": 6, "length": 1},
    ]


def test_custom_emoji_carries_its_id() -> None:
    """<tg-emoji emoji-id="N"> becomes a custom_emoji entity with that id."""
    parsed = parse_html('<tg-emoji emoji-id="5368324170671202286">👍</tg-emoji>')
    assert list(parsed.entities) == [
        {"type": "custom_emoji", "offset": 0, "length": 2, "custom_emoji_id": "5368324170671202286"}
    ]


def test_strict_escaping_also_rejects_bare_ampersand_and_gt() -> None:
    """strict_escaping=True rejects what Telegram merely tolerates: a bare & or >."""
    with pytest.raises(HtmlParseError, match=r'^Unescaped "&" at byte offset 4'):
        parse_html("Tom & Jerry", strict_escaping=True)
    with pytest.raises(HtmlParseError, match=r'^Unescaped ">" at byte offset 2'):
        parse_html("a > b", strict_escaping=True)
    assert parse_html("Tom &amp; Jerry &gt; &#33;", strict_escaping=True).text == "Tom & Jerry > !"


def test_utf16_len_counts_astral_characters_twice() -> None:
    """Telegram's lengths are UTF-16 code units: an emoji outside the BMP counts 2."""
    assert utf16_len("abc") == 3
    assert utf16_len("é€") == 2
    assert utf16_len("😀") == 2


@given(st.text())
def test_escaped_text_is_shown_verbatim(text: str) -> None:
    """Any text escaped with html.escape parses back to itself, without entities."""
    assert parse_html(stdlib_html.escape(text), strict_escaping=True) == ParsedText(text)


@given(st.text(alphabet=st.sampled_from(list("<>/&;#x1aAbis =\"'-é😀")) | st.characters()))
def test_any_input_parses_or_fails_with_a_telegram_error(text: str) -> None:
    """Arbitrary input either parses or raises HtmlParseError; the parser never crashes."""
    try:
        parsed = parse_html(text)
    except HtmlParseError:
        return
    for entity in parsed.entities:
        assert 0 <= entity["offset"] < entity["offset"] + entity["length"] <= utf16_len(parsed.text)
