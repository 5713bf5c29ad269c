"""What every command parser shares: the text after the command word, its words, and the
usage line a malformed command gets."""

from __future__ import annotations

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Usage:
    """Not a valid use of the command: `text` (Telegram HTML, user text escaped) says why."""

    text: str


def arguments_of(message_text: str) -> str:
    """The raw argument text of a command message: all after '/command' or '/command@bot'."""
    parts = message_text.split(maxsplit=1)
    return parts[1] if len(parts) == 2 else ""


def split_words(text: str, most: int) -> list[str] | None:
    """The whitespace-separated words of `text`, or None when there are more than `most`."""
    words = text.split(maxsplit=most)
    return None if len(words) > most else words


NUMBER = re.compile(r"[0-9]{1,3}", re.ASCII)
