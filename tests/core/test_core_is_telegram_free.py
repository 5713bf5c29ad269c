"""The quiz core must not depend on Telegram."""

from __future__ import annotations

import ast
from pathlib import Path

CORE = Path(__file__).resolve().parents[2] / "bot" / "core"


def test_core_modules_import_nothing_from_telegram() -> None:
    """No module under bot/core imports `telegram` (or bot modules that do)."""
    offenders = []
    for path in sorted(CORE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            names: list[str] = []
            if isinstance(node, ast.Import):
                names = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                edge = name.startswith("bot.") and not name.startswith("bot.core")
                if top == "telegram" or edge:
                    offenders.append(f"{path.name}: {name}")
    assert offenders == []
    assert list(CORE.rglob("*.py")), "the core package was not found"
