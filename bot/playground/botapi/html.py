"""Telegram's ``parse_mode=HTML``: visible text + entities, or the error Telegram answers.

A port of TDLib's ``parse_html`` (what the Bot API server runs), byte for byte where it matters:
it walks the UTF-8 bytes, so error offsets are *byte* offsets, and entity offsets/lengths are
UTF-16 code units. Error messages are TDLib's; the Bot API prefixes them with
``"Bad Request: can't parse entities: "`` (see :func:`bot.playground.botapi.validation.parse_text`).

Like Telegram, a ``&`` that starts no known entity and a bare ``>`` are kept as text (the docs
say to escape them, the server does not insist); ``strict_escaping=True`` rejects them too, with
messages that are the fake's own. Link URLs are checked only roughly: an ``<a>`` whose URL is not
http(s)/tg/ton/tonsite (or a bare domain) makes no entity, as Telegram drops such links silently.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .models import JsonDict

__all__ = ["HtmlParseError", "ParsedText", "parse_html", "utf16_len"]

_SPACE = frozenset(b" \t\r\n\v\0")  # TDLib's is_space; NUL also ends its C string
_TAGS = frozenset(
    (  # noqa: SIM905
        "a b strong i em u ins s strike del span tg-spoiler code pre blockquote tg-emoji"
    ).split()
)
_SIMPLE = {  # tag -> entity type; span only with class="tg-spoiler" (checked at the start tag)
    **dict.fromkeys(("b", "strong"), "bold"),
    **dict.fromkeys(("i", "em"), "italic"),
    **dict.fromkeys(("u", "ins"), "underline"),
    **dict.fromkeys(("s", "strike", "del"), "strikethrough"),
    **dict.fromkeys(("tg-spoiler", "span"), "spoiler"),
}
_SPECIAL, _STRICT_SPECIAL = re.compile(rb"[&<]"), re.compile(rb"[&<>]")
_NAMED = {b"lt": "<", b"gt": ">", b"amp": "&", b"quot": '"'}
# TDLib sorts entities by offset, then longer first, then by these type priorities.
_PRIORITY = {"blockquote": 0, "expandable_blockquote": 0, "pre": 11, "code": 20, "text_link": 49}
_PRIORITY |= {"text_mention": 49, "bold": 90, "italic": 91, "underline": 92, "strikethrough": 93}
_PRIORITY |= {"spoiler": 94, "custom_emoji": 99}
_USER_LINK = re.compile(r"(?i)tg://user\?id=(\d{1,19})")
_LINK = re.compile(r"(?i)(?:(https?|tg|ton|tonsite)://)?([^\s/?#:@]+(?::\d+)?)([/?#]\S*)?")
_HOST = re.compile(r"(?:[^\W_](?:[\w-]*[^\W_])?\.)+[^\W\d_]{2,}|\d{1,3}(?:\.\d{1,3}){3}")
_INT64 = re.compile(r"-?\d{1,19}")


class HtmlParseError(ValueError):
    """Telegram would reject the text; ``str(error)`` is TDLib's message (without prefix)."""


@dataclass(frozen=True, slots=True)
class ParsedText:
    text: str  # the visible text
    entities: tuple[JsonDict, ...] = ()  # Bot API MessageEntity dicts (UTF-16 offsets)


def utf16_len(text: str) -> int:
    """Length in UTF-16 code units, as Telegram counts (an emoji outside the BMP counts 2)."""
    return len(text.encode("utf-16-le", "surrogatepass")) // 2


def parse_html(html: str, *, strict_escaping: bool = False) -> ParsedText:
    """The visible text and entities of ``html``, or :class:`HtmlParseError` as Telegram."""
    return _Parser(html, strict_escaping).run()


@dataclass(slots=True)
class _Open:
    tag: str
    argument: str
    offset: int  # UTF-16 offset in the visible text
    position: int  # byte position in the output


def _link_entity(url: str) -> JsonDict | None:
    """A text_link/text_mention entity body for ``url``, or None when Telegram drops it."""
    if user := _USER_LINK.fullmatch(url):
        return {"type": "text_mention", "user": {"id": int(user[1])}}
    match = _LINK.fullmatch(url.strip())
    if match is None:
        return None
    scheme, host = match[1], match[2].rsplit(":", 1)[0]
    if (scheme is None or scheme.lower().startswith("http")) and not _HOST.fullmatch(host):
        return None
    return {"type": "text_link", "url": url.strip() if scheme else f"http://{url.strip()}"}


class _Parser:
    def __init__(self, html: str, strict_escaping: bool) -> None:
        self.src = html.encode("utf-8", "surrogatepass")
        self.strict = strict_escaping
        self.out = bytearray()
        self.utf16 = 0
        self.open: list[_Open] = []
        self.entities: list[JsonDict] = []

    def copy(self, chunk: bytes) -> None:
        self.out += chunk
        self.utf16 += utf16_len(chunk.decode("utf-8", "surrogatepass"))

    def at(self, i: int) -> int:
        return self.src[i] if i < len(self.src) else 0

    def run(self) -> ParsedText:
        special, i = _STRICT_SPECIAL if self.strict else _SPECIAL, 0
        while i < len(self.src):
            match = special.search(self.src, i)
            end = match.start() if match else len(self.src)
            if end > i:  # plain text up to the next & or <: copied as is
                self.copy(self.src[i:end])
                i = end
                continue
            c = self.src[i]
            if c == ord("&") and (decoded := self.decode_entity(i)) is not None:
                code, i = decoded
                self.utf16 += 2 if code > 0xFFFF else 1
                self.out += chr(code).encode("utf-8", "surrogatepass")
            elif c == ord("<"):
                i = self.tag(i) + 1
            elif self.strict:
                raise HtmlParseError(f'Unescaped "{chr(c)}" at byte offset {i} (strict_escaping)')
            else:  # an & that starts no entity stays text
                self.copy(b"&")
                i += 1
        if self.open:
            tag = self.open[-1].tag
            raise HtmlParseError(f'Can\'t find end tag corresponding to start tag "{tag}"')
        for entity in self.entities:
            if entity["type"] == "code":
                entity.pop("language", None)
        try:
            text = self.out.decode("utf-8")
        except UnicodeDecodeError:
            raise HtmlParseError(
                "Text contains invalid Unicode characters after decoding HTML entities, check for "
                "unmatched surrogate code units"
            ) from None
        ordered = sorted(
            self.entities, key=lambda e: (e["offset"], -e["length"], _PRIORITY[e["type"]])
        )
        return ParsedText(text, tuple(ordered))

    def decode_entity(self, pos: int) -> tuple[int, int] | None:
        """(code point, index after it) of the reference at ``pos``, or None: not decoded."""
        end, code = pos + 1, 0
        if self.at(pos + 1) == ord("#"):
            end += 1
            hexadecimal = self.at(pos + 2) == ord("x")
            end += hexadecimal
            digits = b"0123456789abcdefABCDEF" if hexadecimal else b"0123456789"
            while self.at(end) and self.at(end) in digits:
                code = code * (16 if hexadecimal else 10) + int(chr(self.at(end)), 16)
                end += 1
            if code == 0 or code >= 0x10FFFF or end - pos >= 10:
                return None
        else:
            while chr(self.at(end)).isascii() and chr(self.at(end)).isalpha():
                end += 1
            named = _NAMED.get(self.src[pos + 1 : end])
            if named is None:
                return None
            code = ord(named)
        return code, end + 1 if self.at(end) == ord(";") else end

    def skip_spaces(self, i: int) -> int:
        while self.at(i) != 0 and self.at(i) in _SPACE:
            i += 1
        return i

    def name(self, begin: int, end: int) -> str:
        return self.src[begin:end].lower().decode("utf-8", "replace")

    def tag(self, begin: int) -> int:
        """Parse the tag at ``begin`` (a ``<``); returns the index of its ``>``."""
        if self.at(begin + 1) != ord("/"):
            return self.start_tag(begin)
        if not self.open:
            raise HtmlParseError(f"Unexpected end tag at byte offset {begin}")
        i = begin + 2
        while self.at(i) not in _SPACE and self.at(i) != ord(">"):
            i += 1
        end_name = self.name(begin + 2, i)
        i = self.skip_spaces(i)
        if self.at(i) != ord(">"):
            raise HtmlParseError(f"Unclosed end tag at byte offset {begin}")
        top = self.open.pop()
        if end_name and end_name != top.tag:
            raise HtmlParseError(
                f'Unmatched end tag at byte offset {begin}, expected "</{top.tag}>", '
                f'found "</{end_name}>"'
            )
        if self.utf16 > top.offset:
            self.add_entity(top, self.utf16 - top.offset)
        return i

    def start_tag(self, begin: int) -> int:
        i = begin + 1
        while self.at(i) not in _SPACE and self.at(i) != ord(">"):
            i += 1
        if self.at(i) == 0:
            raise HtmlParseError(f"Unclosed start tag at byte offset {begin}")
        tag = self.name(begin + 1, i)
        if tag not in _TAGS:
            raise HtmlParseError(f'Unsupported start tag "{tag}" at byte offset {begin}')
        argument = ""
        while self.at(i) != ord(">"):
            i = self.skip_spaces(i)
            if self.at(i) == ord(">"):
                break
            name_begin = i
            while self.at(i) not in _SPACE and self.at(i) not in b"=>/\"'":
                i += 1
            attribute = self.src[name_begin:i].decode("utf-8", "replace")
            if not attribute:
                raise HtmlParseError(
                    f'Empty attribute name in the tag "{tag}" at byte offset {begin}'
                )
            i = self.skip_spaces(i)
            if self.at(i) != ord("="):  # an attribute without a value
                if self.at(i) == 0:
                    raise HtmlParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
                if (tag, attribute) == ("blockquote", "expandable"):
                    argument = "1"
                continue
            i = self.skip_spaces(i + 1)
            if self.at(i) == 0:
                raise HtmlParseError(f'Unclosed start tag "{tag}" at byte offset {begin}')
            value, i = self.attribute_value(i)
            if self.at(i) == 0:
                raise HtmlParseError(f"Unclosed start tag at byte offset {begin}")
            argument = _argument(tag, attribute, value, argument)
        if tag == "span" and argument != "spoiler":
            raise HtmlParseError(f'Tag "span" must have class "tg-spoiler" at byte offset {begin}')
        self.open.append(_Open(tag, argument, self.utf16, len(self.out)))
        return i

    def attribute_value(self, i: int) -> tuple[str, int]:
        """A name token (lower-cased) or a quoted string (references decoded); and where it ends."""
        quote = self.at(i)
        if quote not in b"'\"":
            begin = i
            while chr(self.at(i)).isascii() and (chr(self.at(i)).isalnum() or self.at(i) in b".-"):
                i += 1
            if self.at(i) not in _SPACE and self.at(i) != ord(">"):
                raise HtmlParseError(f"Unexpected end of name token at byte offset {begin}")
            return self.name(begin, i), i
        value = bytearray()
        i += 1
        while self.at(i) != quote and self.at(i) != 0:
            if self.at(i) == ord("&") and (decoded := self.decode_entity(i)) is not None:
                code, i = decoded
                value += chr(code).encode("utf-8", "surrogatepass")
                continue
            value.append(self.at(i))
            i += 1
        if self.at(i) == quote:
            i += 1
        return value.decode("utf-8", "replace"), i

    def add_entity(self, top: _Open, length: int) -> None:
        entity: JsonDict = {"type": top.tag, "offset": top.offset, "length": length}
        last = self.entities[-1] if self.entities else {}
        same_span = (last.get("offset"), last.get("length")) == (top.offset, length)
        if top.tag in _SIMPLE:
            entity["type"] = _SIMPLE[top.tag]
        elif top.tag == "blockquote":
            entity["type"] = "expandable_blockquote" if top.argument else "blockquote"
        elif top.tag == "tg-emoji":
            if not _INT64.fullmatch(top.argument) or not 0 < abs(int(top.argument)) < 2**63:
                raise HtmlParseError("Invalid custom emoji identifier specified")
            entity |= {"type": "custom_emoji", "custom_emoji_id": top.argument}
        elif top.tag == "a":
            url = top.argument or self.out[top.position :].decode("utf-8", "replace")
            if (link := _link_entity(url)) is None:
                return
            entity |= link
        elif same_span and top.tag == "pre" and last["type"] == "code" and "language" in last:
            last["type"] = "pre"  # <pre><code class="language-x">: one pre entity
            return
        elif same_span and top.tag == "code" and last["type"] == "pre" and top.argument:
            last["language"] = top.argument  # <code class="language-x"> around a <pre>
            return
        elif top.tag == "code" and top.argument:  # dropped at the end unless a pre takes it
            entity["language"] = top.argument
        self.entities.append(entity)


def _argument(tag: str, attribute: str, value: str, current: str) -> str:
    """The tag's argument after reading ``attribute=value`` (other attributes are ignored)."""
    if (tag, attribute) in (("a", "href"), ("tg-emoji", "emoji-id")):
        return value
    if (tag, attribute) == ("code", "class") and value.startswith("language-"):
        return value.removeprefix("language-")
    if (tag, attribute) == ("span", "class") and value.startswith("tg-"):
        return value.removeprefix("tg-")
    if (tag, attribute) == ("blockquote", "expandable"):
        return "1"
    return current
