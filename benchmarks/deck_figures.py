"""The shipped deck against its blueprint: `python -m benchmarks.deck_figures`.

Prints each topic's number of questions beside the number the blueprint's weights (the deck's
`exam:` block holds them) ask for at the deck's size (and the floor of 12 a topic), the share
of scenario questions (target ≥ 30%), of "choose N" and diagram questions, the share of
questions whose right answer is the longest option (target ≤ 25%; chance is about
1/options), and the review logs' totals (`content/reviews/*.md`: one `id | verdict | …` line
a question).
"""

from __future__ import annotations

import argparse
import re
import sys
from collections import Counter
from pathlib import Path

from benchmarks.harness import ROOT, table
from content.loader import load_deck
from content.models import Deck, Question

DECK = ROOT / "content" / "nca-multi-gpu.yaml"
REVIEWS = ROOT / "content" / "reviews"
TOPIC_FLOOR = 12
VERDICT = re.compile(r"^\s*[a-z0-9-]+\s*\|\s*(ok|fixed|dropped)\b", re.IGNORECASE)


def longest_is_right(question: Question) -> bool:
    longest = max(len(option) for option in question.right_options)
    return longest > max(len(option) for option in question.wrong)


def topic_rows(deck: Deck) -> list[list[str]]:
    counts = Counter(question.topic for question in deck.questions)
    total = len(deck.questions)
    rows = []
    # The deck's exam block holds the blueprint's weights (BLUEPRINT.md, section 2), in percent.
    weights = deck.exam.weights if deck.exam is not None and deck.exam.weights else {}
    for topic, weight in weights.items():
        # In proportion: within one question of the topic's exact share of the deck (a whole
        # number of questions cannot hit every share), and never under the floor.
        wanted = max(TOPIC_FLOOR, total * weight / 100)
        have = counts.get(topic, 0)
        verdict = "ok" if abs(have - wanted) < 1 else ("LOW" if have < wanted else "HIGH")
        rows.append([topic, f"{weight:g}%", f"{wanted:.1f}", str(have), verdict])
    for topic in sorted(set(counts) - set(weights)):
        rows.append([topic, "-", "-", str(counts[topic]), "not in the blueprint"])
    return rows


def review_totals(folder: Path) -> Counter[str]:
    totals: Counter[str] = Counter()
    for log in sorted(folder.glob("*.md")):
        for line in log.read_text(encoding="utf-8").splitlines():
            if found := VERDICT.match(line):
                totals[found[1].lower()] += 1
    return totals


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m benchmarks.deck_figures",
        description=__doc__.splitlines()[0] if __doc__ else "",
    )
    parser.add_argument("--deck", type=Path, default=DECK)
    parser.add_argument("--reviews", type=Path, default=REVIEWS)
    args = parser.parse_args(argv)
    deck = load_deck(args.deck)
    questions = deck.questions
    total = len(questions)
    print(f"{deck.title}: {total} questions")
    print("\n".join(table(["topic", "weight", "wanted", "have", ""], topic_rows(deck))))
    scenario = sum(q.scenario for q in questions)
    multi = sum(q.picks > 1 for q in questions)
    diagrams = sum(q.image is not None or q.explanation_image is not None for q in questions)
    longest = sum(longest_is_right(q) for q in questions)
    chance = sum(q.picks / len(q.options) for q in questions)
    print(f"scenarios: {scenario} ({scenario / total:.0%}; target ≥ 30%)")
    print(f'"choose N": {multi}; with a diagram: {diagrams}')
    print(
        f"right answer the longest option: {longest} ({longest / total:.0%}; target ≤ 25%; "
        f"chance {chance / total:.0%})"
    )
    totals = review_totals(args.reviews)
    reviewed = sum(totals.values())
    print(
        f"review logs: {reviewed} lines: {totals['ok']} ok, {totals['fixed']} fixed, "
        f"{totals['dropped']} dropped"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
