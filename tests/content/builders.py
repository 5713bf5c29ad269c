"""Raw decks for the strict-checker tests: a clean ten-question deck and ways to break it."""

from pathlib import Path
from typing import Any

import yaml

SOURCE = "https://example.org/reference (section 1)"

# (id, text, answer, wrong options): ten different questions on ten different topics,
# the answer the longest option in two of them (fair share 2.5), echoing no stem words.
CLEAN = [
    ("planet", "Which planet is closest to the Sun?", "Mercury", ["Venus", "Mars", "Jupiter"]),
    ("gold", "What is the chemical symbol for gold?", "Au", ["Ag", "Gd", "Go"]),
    ("byte", "How many bits are in one byte?", "8", ["4", "16", "32"]),
    ("ocean", "Which ocean covers the largest area?", "Pacific", ["Atlantic", "Indian", "Arctic"]),
    ("hamlet", "Who wrote the play Hamlet?", "Shakespeare", ["Marlowe", "Jonson", "Webster"]),
    ("boiling", "At what Celsius temperature does water boil?", "100", ["90", "110", "120"]),
    ("browser", "Which language runs in browsers?", "JavaScript", ["Python", "Haskell", "COBOL"]),
    ("capital", "What is the capital city of Japan?", "Tokyo", ["Kyoto", "Osaka", "Nagoya"]),
    ("element", "Which element is lightest?", "Hydrogen", ["Helium", "Lithium", "Nitrogen"]),
    ("continent", "On which continent is Kenya?", "Africa", ["Asia", "Europe", "Oceania"]),
]  # fmt: skip


def question(qid: str = "q1", **changes: Any) -> dict[str, Any]:
    """A raw question that passes every strict rule, with `changes` (None removes a key)."""
    raw: dict[str, Any] = {
        "id": qid,
        "topic": "networking",
        "text": "Which interconnect links GPUs inside one node?",
        "answer": "NVLink",
        "wrong": ["PCIe", "Ethernet", "InfiniBand"],
        "explanation": "NVLink is NVIDIA's intra-node GPU interconnect.",
        "source": SOURCE,
    }
    raw.update(changes)
    return {key: value for key, value in raw.items() if value is not None}


def clean_questions() -> list[dict[str, Any]]:
    """The ten CLEAN questions as raw questions."""
    return [
        question(qid, topic="general", text=text, answer=answer, wrong=wrong, explanation="So.")
        for qid, text, answer, wrong in CLEAN
    ]


def deck(*questions: object, deck_id: str = "sample", **changes: Any) -> dict[str, Any]:
    """A raw deck holding `questions` (one default question if none given), with `changes`
    (a None value removes the key)."""
    raw: dict[str, Any] = {
        "id": deck_id,
        "title": "Sample",
        "source": "Hand-written",
        "questions": list(questions) or [question()],
    }
    raw.update(changes)
    return {key: value for key, value in raw.items() if value is not None}


def write(path: Path, data: object) -> Path:
    """Write `data` as YAML (or a str verbatim) to `path`."""
    text = data if isinstance(data, str) else yaml.safe_dump(data, sort_keys=False)
    path.write_text(text, encoding="utf-8")
    return path


def mixed_questions() -> list[dict[str, Any]]:
    """Raw questions for the exporters: two topics (one with a `/`), a one-answer question whose
    texts hold GIFT's markup characters, a "choose two" question with line breaks, sources and
    a note."""
    return [
        question(
            "nvlink-escapes",
            text="Which link {inside} a node: A=B ~ C #1, or \\ D?",
            answer="NVLink: 900 GB/s",
            wrong=["PCIe = slower", "~Ethernet", "#InfiniBand"],
            explanation="NVLink {is} the intra-node link; see #3.",
            note="Bandwidth per GPU: 900 GB/s on H100.",
        ),
        question(
            "choose-two-collectives",
            topic="nccl/collectives",
            text="Which two are NCCL collectives?\nChoose two.",
            answer=None,
            answers=["all-reduce", "broadcast"],
            wrong=["malloc", "fork"],
            explanation="NCCL runs collectives on GPUs.\nmalloc and fork are not.",
        ),
        question(
            "plain",
            text="What does NCCL stand for?",
            answer="NVIDIA Collective Communications Library",
            wrong=["NVIDIA CUDA Compiler Library"],
            explanation="NCCL is the NVIDIA Collective Communications Library.",
            source=None,
        ),
    ]
