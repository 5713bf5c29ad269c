"""The memory model's line of a private `/me` (bot.render.topics.memory_line), in each state."""

from __future__ import annotations

from datetime import UTC, datetime

import pytest

from bot.core.model import MemoryFit, MemoryModel
from bot.render.topics import memory_line

ON = datetime(2026, 12, 12, 4, tzinfo=UTC)
WEIGHTS = tuple(0.1 * (n + 1) for n in range(21))


@pytest.mark.parametrize(
    ("model", "line"),
    [
        (
            MemoryModel(None, 37, 400),
            "🧠 Memory model: default (personalised after 400 reviews; you have 37)",
        ),
        (
            MemoryModel(None, 412, 400),
            "🧠 Memory model: default (your 412 reviews are fitted soon)",
        ),
        (
            MemoryModel(MemoryFit(1, "d", WEIGHTS, 523, 0.4, 0.35, ON), 530, 400),
            "🧠 Memory model: fitted to your 523 reviews (12 Dec)",
        ),
        (
            MemoryModel(MemoryFit(1, "d", None, 450, 0.3, 0.32, ON), 460, 400),
            "🧠 Memory model: default (it predicted your reviews better than one fitted to "
            "your 450, 12 Dec)",
        ),
    ],
)
def test_the_line_says_whether_the_model_is_fitted(model: MemoryModel, line: str) -> None:
    """Too few reviews, due a fit, fitted and kept, fitted and lost to the defaults."""
    assert memory_line(model) == line
