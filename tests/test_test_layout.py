"""The test suite's own floor plan: no test module imports another test module."""

from __future__ import annotations

import ast
from pathlib import Path

TESTS = Path(__file__).resolve().parent


def _imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module:
            names.add(node.module)
            names.update(f"{node.module}.{alias.name}" for alias in node.names)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_no_test_module_imports_another_test_module() -> None:
    """Shared code lives in conftest.py or builder modules, never in a test_*.py."""
    offenders = [
        f"{path.relative_to(TESTS.parent)} imports {name}"
        for path in sorted(TESTS.rglob("*.py"))
        for name in sorted(_imported_modules(path))
        if name.startswith("tests.") and name.rsplit(".", 1)[-1].startswith("test_")
    ]
    assert not offenders, "\n".join(offenders)
