"""Every setting is documented: its variable is in the configuration page and `.env.example`."""

from __future__ import annotations

from pathlib import Path

import pytest

from bot.config import Settings, env_name

ROOT = Path(__file__).resolve().parent.parent
PAGES = {
    "docs/operators/configuration.md": (ROOT / "docs/operators/configuration.md").read_text(),
    ".env.example": (ROOT / ".env.example").read_text(),
}


@pytest.mark.parametrize("field", sorted(Settings.model_fields))
def test_every_variable_is_documented_in_the_page_and_the_example(field: str) -> None:
    """A setting added without a line in both places fails here."""
    name = env_name(field)
    missing = [page for page, text in PAGES.items() if name not in text]
    assert not missing, f"{name} is not in {missing}"
