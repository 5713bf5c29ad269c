"""A question's content hash: stable across runs, changed by what learners read, nothing else."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import pytest

from content.models import CONTENT_HASH_LENGTH, Question
from tests.content.builders import question


def _hash(**changes: Any) -> str:
    return Question.model_validate(question(**changes)).content_hash


def test_the_hash_is_a_short_sha256_of_what_learners_read() -> None:
    """The first 12 hex digits of SHA-256 over the JSON of text, options (key first),
    explanation and note: anyone can recompute it from the deck file."""
    raw = question(note="Accurate as of 2026.")
    seen = [raw["text"], [raw["answer"], *raw["wrong"]], raw["explanation"], raw["note"]]
    payload = json.dumps(seen, ensure_ascii=False, separators=(",", ":")).encode()
    digest = hashlib.sha256(payload).hexdigest()[:CONTENT_HASH_LENGTH]
    assert _hash(note="Accurate as of 2026.") == digest
    assert len(_hash()) == CONTENT_HASH_LENGTH == 12


@pytest.mark.parametrize(
    "changes",
    [
        {"text": "Which interconnect links GPUs within one node?"},
        {"answer": "NVLink 4"},
        {"wrong": ["Ethernet", "PCIe", "InfiniBand"]},
        {"wrong": ["PCIe", "Ethernet", "InfiniBand", "USB"]},
        {"explanation": "NVLink is NVIDIA's GPU-to-GPU interconnect."},
        {"note": "Accurate as of 2026."},
    ],
)
def test_what_learners_read_changes_the_hash(changes: dict[str, Any]) -> None:
    """Rewording the stem, the key, a distractor, their order, the explanation or adding a
    note is a new version."""
    assert _hash(**changes) != _hash()


@pytest.mark.parametrize(
    "changes",
    [
        {"id": "another-id"},
        {"topic": "hardware"},
        {"source": "https://example.org/other"},
        {"text": "  Which interconnect links GPUs inside one node?\n"},
    ],
)
def test_bookkeeping_and_surrounding_spaces_do_not(changes: dict[str, Any]) -> None:
    """Ids, topics, sources and whitespace the loader strips leave the version as is."""
    assert _hash(**changes) == _hash()
