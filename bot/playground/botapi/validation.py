"""Parameter checks shared by the fake's methods, with Telegram's error texts."""

from __future__ import annotations

import json

from .html import HtmlParseError, ParsedText, parse_html, utf16_len
from .models import JsonDict
from .state import bad_request

__all__ = [
    "MAX_CAPTION",
    "MAX_TEXT",
    "bad_request",
    "caption_too_long",
    "int_param",
    "parse_caption",
    "parse_markup",
    "parse_text",
]

MAX_TEXT = 4096  # UTF-16 code units of visible text
MAX_CAPTION = 1024  # characters of visible caption
_BUTTON_ACTIONS = frozenset(
    (  # noqa: SIM905
        "callback_data url web_app login_url switch_inline_query switch_inline_query_current_chat "
        "switch_inline_query_chosen_chat copy_text callback_game pay"
    ).split()
)
_UNPARSED_MODES = frozenset({"", "none", "markdown", "markdownv2"})  # accepted, not parsed here


_bad = bad_request


def int_param(params: JsonDict, name: str) -> int:
    value = params.get(name)
    if value is None or value == "":
        raise _bad(f"{name} is empty")
    try:
        return int(value)
    except (TypeError, ValueError):
        raise _bad(f"invalid {name} specified") from None


def parse_text(params: JsonDict, *, too_long: str, strict_escaping: bool = False) -> ParsedText:
    """``text`` as Telegram reads it under ``parse_mode`` (case-insensitive): HTML is parsed
    strictly (see :mod:`bot.playground.botapi.html`); Markdown modes are accepted but not parsed.

    The limits apply to the visible text: empty (or only whitespace) -> "message text is
    empty", over 4096 UTF-16 code units -> ``too_long``."""
    raw = params.get("text")
    if raw is None:
        raise _bad("message text is empty")
    parsed = _parse(str(raw), params, strict_escaping)
    if not parsed.text.strip():
        raise _bad("message text is empty")
    if utf16_len(parsed.text) > MAX_TEXT:
        raise _bad(too_long)
    return parsed


def parse_caption(params: JsonDict, *, strict_escaping: bool = False) -> ParsedText:
    """``caption`` read like a text (see :func:`parse_text`), but it may be missing or empty:
    then, or when only whitespace is left, the message has no caption (an empty ParsedText).
    Its length is checked apart (:func:`caption_too_long`): Telegram checks it later."""
    raw = params.get("caption")
    if raw is None or raw == "":  # no caption: parse_mode is not even looked at
        return ParsedText("")
    parsed = _parse(str(raw), params, strict_escaping)
    return parsed if parsed.text.strip() else ParsedText("")


def caption_too_long(parsed: ParsedText) -> bool:
    """Over 1024 characters: TDLib counts a caption in code points (``utf8_length``), not in
    UTF-16 units as texts are counted."""
    return len(parsed.text) > MAX_CAPTION


def _parse(text: str, params: JsonDict, strict_escaping: bool) -> ParsedText:
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate, e.g. JSON "\ud800"
        raise _bad("strings must be encoded in UTF-8") from None
    mode = str(params.get("parse_mode") or "").lower()
    if mode == "html":
        try:
            return parse_html(text, strict_escaping=strict_escaping)
        except HtmlParseError as exc:
            raise _bad(f"can't parse entities: {exc}") from None
    if mode in _UNPARSED_MODES:
        return ParsedText(text)
    raise _bad("unsupported parse_mode")


def parse_markup(params: JsonDict) -> JsonDict | None:
    """reply_markup as a dict (an empty inline keyboard counts as none); validates buttons."""
    markup = params.get("reply_markup")
    if isinstance(markup, str):
        try:
            markup = json.loads(markup)
        except ValueError:
            markup = None
    if markup is None and "reply_markup" not in params:
        return None
    if not isinstance(markup, dict):
        raise _bad("can't parse reply keyboard markup JSON object")
    rows = markup.get("inline_keyboard")
    if rows is None:
        return markup
    if not isinstance(rows, list) or not all(isinstance(row, list) for row in rows):
        raise _bad('field "inline_keyboard" of the InlineKeyboardMarkup must be an Array')
    for button in (b for row in rows for b in row):
        if not isinstance(button, dict) or not button.get("text"):
            raise _bad("BUTTON_TEXT_INVALID")
        if not _BUTTON_ACTIONS & button.keys():
            raise _bad("text buttons are unallowed in the inline keyboard")
        data = button.get("callback_data")
        if data is not None and not 1 <= len(str(data).encode()) <= 64:
            raise _bad("BUTTON_DATA_INVALID")
    return markup if any(rows) else None
