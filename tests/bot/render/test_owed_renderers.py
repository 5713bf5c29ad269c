"""Every kind of owed message the core can owe has a renderer: the sender can show it."""

from __future__ import annotations

import typing
from pathlib import Path
from random import Random

import pytest

from bot.core.catalog import Catalog
from bot.core.delivery import OwedKind
from bot.core.services import build_services
from bot.render.calls import NoRendererError, calls_for, renderer_of
from storage.sqlite import SqliteStore
from tests.builders import simple_deck
from tests.fakes.clock import FakeClock


def _view_of(kind: OwedKind[typing.Any]) -> type:
    for base in type(kind).__orig_bases__:  # type: ignore[attr-defined]
        if typing.get_origin(base) is OwedKind:
            (view,) = typing.get_args(base)
            return view  # type: ignore[no-any-return]
    raise AssertionError(f"{type(kind).__name__} names no view")


async def test_every_registered_kind_has_a_renderer_for_its_view(tmp_path: Path) -> None:
    """The wired outbox's kinds each prepare a view that a render module renders."""
    store = await SqliteStore.open(tmp_path / "kinds.sqlite3")
    try:
        services = build_services(
            store, Catalog({"deck": simple_deck(2)}), FakeClock(), rng=Random(1)
        )
        missing = [k.name for k in services.outbox.kinds() if renderer_of(_view_of(k)) is None]
    finally:
        await store.close()
    assert missing == []


def test_a_view_without_a_renderer_is_a_clear_error() -> None:
    """An object no render module registered for is refused by name, not sent half-made."""
    with pytest.raises(NoRendererError, match="object"):
        calls_for(object(), None)  # type: ignore[arg-type]
