"""The item report's use case: each deck's item analysis from the stored first answers."""

from __future__ import annotations

from collections.abc import Mapping

from bot.core.items.analysis import DeckFigures, Item, analyse
from bot.core.ports import CalibrationStore, ItemStore
from content.models import Deck


def deck_items(deck: Deck) -> list[Item]:
    """The deck's questions as items, in file order."""
    return [Item(q.id, q.text, q.options, q.picks) for q in deck.questions]


class ItemReview:
    """Reads a deck's first answers and open reports and analyses them against its file,
    beside the item parameters of its last calibration."""

    def __init__(
        self, *, store: ItemStore, calibrations: CalibrationStore, decks: Mapping[str, Deck]
    ) -> None:
        self._store = store
        self._calibrations = calibrations
        self._decks = dict(decks)

    async def deck_ids(self) -> list[str]:
        """Every deck with a file or with answers, sorted."""
        return sorted(set(self._decks) | set(await self._store.answered_decks()))

    async def deck(self, deck_id: str) -> DeckFigures:
        """The deck's figures; a deck with no file is analysed from its answers alone."""
        deck = self._decks.get(deck_id)
        items = deck_items(deck) if deck is not None else []
        title = deck.title if deck is not None else deck_id
        answers = await self._store.first_answers(deck_id)
        reports = await self._store.open_reports(deck_id)
        parameters = await self._calibrations.item_parameters(deck_id)
        return analyse(deck_id, title, items, answers, reports, parameters)

    async def decks(self, deck_id: str | None = None) -> list[DeckFigures]:
        """The one deck asked for (none when it has neither a file nor answers), or all."""
        known = await self.deck_ids()
        chosen = known if deck_id is None else [d for d in known if d == deck_id]
        return [await self.deck(one) for one in chosen]
