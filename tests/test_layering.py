"""The import-linter contracts name every edge module, so a new one cannot slip past them."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _contract(name: str) -> dict[str, list[str]]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    contracts = config["tool"]["importlinter"]["contracts"]
    return next(c for c in contracts if c["name"].startswith(name))


def _edge_modules() -> set[str]:
    bot = ROOT / "bot"
    modules = {f"bot.{path.stem}" for path in bot.glob("*.py")}
    packages = {f"bot.{path.name}" for path in bot.iterdir() if (path / "__init__.py").exists()}
    return (modules | packages) - {"bot.__init__", "bot.__main__", "bot.core"}


def test_the_core_contract_forbids_every_edge_module() -> None:
    """Every module of bot/ outside bot/core is in the core's forbidden list."""
    forbidden = set(_contract("The quiz core")["forbidden_modules"])
    assert _edge_modules() - forbidden == set()


def test_the_storage_contract_forbids_every_edge_module() -> None:
    """Storage may not import any edge module either."""
    forbidden = set(_contract("Storage imports only")["forbidden_modules"])
    assert _edge_modules() - forbidden == set()


def test_every_renderer_is_held_to_no_io() -> None:
    """Each bot/render*.py module is a source of the renderers' contract."""
    sources = set(_contract("Renderers do no I/O")["source_modules"])
    renderers = {m for m in _edge_modules() if m.startswith("bot.render")}
    assert renderers - sources == set()
