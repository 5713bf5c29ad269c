"""What `python -m bot calibrate` prints: per deck, how many questions were fitted and how
many fall back on the priors. A renderer: strings out, no I/O."""

from __future__ import annotations

from collections.abc import Sequence

from bot.core.calibration import DeckCalibration


def _plural(count: int, word: str) -> str:
    return f"{count} {word}{'' if count == 1 else 's'}"


def calibration_line(deck: DeckCalibration) -> str:
    """One deck: `deck: 240 fitted, 13 on priors (few answers); …`."""
    floors = sum(1 for item in deck.items if not item.prior_only and item.guessing > 0)
    model = f"guessing floors on {floors}" if floors else "no guessing floors (2PL)"
    cycles = _plural(deck.iterations, "EM cycle")
    state = f"converged in {cycles}" if deck.converged else f"NOT converged after {cycles}"
    line = (
        f"{deck.deck_id}: {deck.fitted} fitted, {deck.prior_only} on priors (few answers); "
        f"{_plural(deck.learners, 'learner')}, {_plural(deck.answers, 'first answer')}"
    )
    return f"{line}; {model}; {state}" if deck.fitted else f"{line}; nothing to fit yet"


def render_calibration(decks: Sequence[DeckCalibration]) -> str:
    """Every deck's line, then when the fit was stored."""
    if not decks:
        return "No decks to calibrate: no deck files and no logged answers.\n"
    lines = [calibration_line(deck) for deck in decks]
    when = decks[0].fitted_at.strftime("%Y-%m-%d %H:%M UTC")
    lines.append(f"Stored with the fit date {when}; `python -m bot item-report` shows them.")
    return "\n".join(lines) + "\n"
