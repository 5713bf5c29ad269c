"""Owed messages as Bot API calls: what a prepared owed message (a view of the core) becomes.

Each render module registers the renderer of its views with `@renders`; the sender asks
`calls_for(shown)` and performs the calls. A renderer does no I/O: it returns the calls, in
order (e.g. close an exam's message, then send its result). Adding a kind of owed message
means a view in its use case and a renderer in its feature's render module; nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import cache, singledispatch
from typing import Any, TypeVar

from telegram import InlineKeyboardMarkup

import bot.render


@dataclass(frozen=True)
class SendText:
    """A new message in the effect's chat and forum topic (a reply to `reply_to`, if given)."""

    text: str
    keyboard: InlineKeyboardMarkup | None = None
    reply_to: int | None = None


@dataclass(frozen=True)
class EditText:
    """The bot's message `message_id` shows `text` (and `keyboard`; None: no buttons).
    `optional`: Telegram refusing it does not hold back the calls after it."""

    message_id: int
    text: str
    keyboard: InlineKeyboardMarkup | None = None
    optional: bool = False


@dataclass(frozen=True)
class EditKeyboard:
    """Only the buttons of message `message_id` change. `droppable`: cosmetic, skipped when
    the chat's send window is nearly full; `optional`: as for `EditText`."""

    message_id: int
    keyboard: InlineKeyboardMarkup | None
    droppable: bool = False
    optional: bool = False


@dataclass(frozen=True)
class SendPhoto:
    """A new photo message: the deck's image `image` (a path beside the decks) with `caption`
    (Telegram HTML, at most 1,024 characters) and `keyboard`, replying to `reply_to`."""

    image: str
    caption: str | None = None
    keyboard: InlineKeyboardMarkup | None = None
    reply_to: int | None = None


@dataclass(frozen=True)
class EditCaption:
    """The caption (and `keyboard`) of the bot's photo message `message_id`; `optional` as for
    `EditText`."""

    message_id: int
    caption: str
    keyboard: InlineKeyboardMarkup | None = None
    optional: bool = False


BotCall = SendText | EditText | EditKeyboard | SendPhoto | EditCaption
Calls = Sequence[BotCall]


@dataclass(frozen=True)
class RenderContext:
    """What renderers need of the bot itself."""

    bot_username: str


View = TypeVar("View")
Renderer = Callable[[Any, RenderContext], Calls]


@singledispatch
def _render(shown: object, context: RenderContext) -> Calls:
    raise NoRendererError(f"no renderer for owed messages shown as {type(shown).__name__}")


class NoRendererError(TypeError):
    """A view of an owed message no render module registered a renderer for (a bug)."""


def renders(view: type[View]) -> Callable[[Callable[[View, RenderContext], Calls]], Renderer]:
    """Register the decorated function as the renderer of `view`."""

    def register(renderer: Callable[[View, RenderContext], Calls]) -> Renderer:
        _render.register(view, renderer)
        return renderer

    return register


@cache
def _load_renderers() -> None:
    """Import every render module (once), so that each has registered its renderers."""
    for module in pkgutil.walk_packages(bot.render.__path__, prefix="bot.render."):
        importlib.import_module(module.name)


def calls_for(shown: object, context: RenderContext) -> Calls:
    """The Bot API calls that show `shown` (NoRendererError when no module renders it)."""
    _load_renderers()
    return _render(shown, context)


def renderer_of(view: type) -> Renderer | None:
    """The renderer registered for `view`, if any (for the test that every view has one)."""
    _load_renderers()
    found = _render.dispatch(view)
    return None if found is _render.dispatch(object) else found
