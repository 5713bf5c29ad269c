"""The import-linter contracts hold the layers: a planted forbidden import makes them fail."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LINT_IMPORTS = Path(sys.executable).parent / "lint-imports"

# (file planted in a copy of the tree, what it imports, the contract that must break)
PLANTS = [
    ("bot/core/planted.py", "import telegram", "The quiz core imports no Telegram"),
    ("bot/core/planted.py", "import bot.render.questions", "bot/ in layers"),
    ("bot/core/rules/planted.py", "import bot.core.quiz", "The core's rules are pure"),
    ("storage/planted.py", "import bot.core.quiz.live", "Storage imports only the core's model"),
    ("storage/planted.py", "import telegram", "Storage imports only the core's model"),
    ("bot/handlers/planted.py", "import storage.sql.store", "Only the composition root"),
    ("bot/render/planted.py", "import bot.transport.request", "Renderers do no I/O"),
    ("bot/planted.py", "import bot.core", "bot/ in layers"),
    ("content/planted.py", "import bot.core.model", "Deck files know nothing of the bot"),
    ("bot/playground/botapi/planted.py", "import bot.core.model", "The in-process Bot API"),
    ("bot/playground/planted.py", "import bot.cli.main", "bot/ in layers"),
]


def _lint(tree: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(tree)}
    return subprocess.run(
        [str(LINT_IMPORTS), "--no-cache", "--config", str(tree / "pyproject.toml")],
        cwd=tree,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _copy(tmp_path: Path) -> Path:
    tree = tmp_path / "tree"
    for package in ("bot", "content", "storage"):
        shutil.copytree(
            ROOT / package, tree / package, ignore=shutil.ignore_patterns("__pycache__", "*.yaml")
        )
    shutil.copy(ROOT / "pyproject.toml", tree / "pyproject.toml")
    return tree


def test_the_contracts_hold_on_the_tree_as_it_is(tmp_path: Path) -> None:
    """The copy the other tests plant imports in passes every contract before planting."""
    result = _lint(_copy(tmp_path))
    assert result.returncode == 0, result.stdout + result.stderr


@pytest.mark.parametrize(("module", "line", "contract"), PLANTS)
def test_a_planted_forbidden_import_breaks_its_contract(
    tmp_path: Path, module: str, line: str, contract: str
) -> None:
    """Each kind of forbidden import, planted in a new module, fails `lint-imports` by name."""
    tree = _copy(tmp_path)
    (tree / module).write_text(f'"""Planted by a test."""\n\n{line}\n')
    result = _lint(tree)
    assert result.returncode != 0, result.stdout
    broken = [
        row for row in result.stdout.splitlines() if " BROKEN" in row or row.endswith("BROKEN")
    ]
    assert any(row.startswith(contract) for row in broken), result.stdout
