"""The package tree on docs/developers/architecture.md matches the code."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "developers" / "architecture.md"
HEADING = "## The packages and modules"
# The roots the tree starts from, and the folders whose every package (at any depth) and every
# module directly inside must be listed.
ROOTS = ("bot", "content", "storage")
ALL_PACKAGES_UNDER = ("bot", "bot/core", "storage", "content")
ALL_MODULES_IN = ("bot", "bot/core")
# `  name/   what it is` or `  name.py   what it is`: two spaces a level, two or more before
# the description.
LINE = re.compile(r"(?P<indent>(?:  )*)(?P<name>[a-z_]+(?:/|\.py))(?: {2,}(?P<what>\S.*))?")


def tree_lines(page: str) -> list[str]:
    """The lines of the first fenced block after the tree's heading."""
    after = page.split(f"\n{HEADING}\n", 1)[1]
    block = re.search(r"^```[a-z]*\n(.*?)^```$", after, re.MULTILINE | re.DOTALL)
    assert block is not None, f"no fenced block after {HEADING!r}"
    return block.group(1).splitlines()


def listed_paths(page: str) -> dict[str, str]:
    """Each path the tree names (`bot/core/`, `bot/app.py`) with its description."""
    paths: dict[str, str] = {}
    parents: list[str] = []
    for line in tree_lines(page):
        match = LINE.fullmatch(line)
        assert match is not None, f"not a tree line: {line!r}"
        depth = len(match["indent"]) // 2
        assert depth <= len(parents), f"indented too far: {line!r}"
        assert match["what"], f"no description: {line!r}"
        del parents[depth:]
        if depth == 0:
            assert match["name"].rstrip("/") in ROOTS, f"not a root package: {line!r}"
        path = "".join(parents) + match["name"]
        assert path not in paths, f"listed twice: {path}"
        paths[path] = match["what"]
        if match["name"].endswith("/"):
            parents.append(match["name"])
    return paths


def is_package(folder: Path) -> bool:
    return folder.is_dir() and (folder / "__init__.py").is_file()


def packages_under(folder: str) -> set[str]:
    return {
        f"{path.parent.relative_to(ROOT).as_posix()}/"
        for path in (ROOT / folder).rglob("__init__.py")
        if "__pycache__" not in path.parts and path.parent != ROOT / folder
    }


def modules_in(folder: str) -> set[str]:
    return {
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / folder).glob("*.py")
        if path.name != "__init__.py"
    }


@pytest.fixture(scope="module")
def listed() -> dict[str, str]:
    return listed_paths(PAGE.read_text(encoding="utf-8"))


def test_every_package_and_module_in_the_architecture_tree_exists(listed: dict[str, str]) -> None:
    """Each line of the architecture page's tree names a package or module that is there."""
    missing = []
    for path in listed:
        target = ROOT / path
        found = is_package(target) if path.endswith("/") else target.is_file()
        if not found:
            missing.append(path)
    assert not missing, f"listed on {PAGE.name} but not in the code: {missing}"


def test_the_architecture_tree_lists_every_package_and_the_top_modules(
    listed: dict[str, str],
) -> None:
    """Every package, and every module directly in bot/ and bot/core/, has a line in the tree."""
    wanted = {f"{folder}/" for folder in ALL_PACKAGES_UNDER}
    for folder in ALL_PACKAGES_UNDER:
        wanted |= packages_under(folder)
    for folder in ALL_MODULES_IN:
        wanted |= modules_in(folder)
    unlisted = sorted(wanted - set(listed))
    assert not unlisted, f"in the code but not on {PAGE.name}: {unlisted}"
