"""Updates acted on: each Telegram update is acted on once, however often it is delivered."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime


@dataclass
class UpdateMark:
    """The update being handled. The first transaction its handling commits records it (so a
    redelivered update that changed anything is recognised); `recorded` says whether one did."""

    update_id: int
    at: datetime
    recorded: bool = False


class UpdateAlreadyHandledError(Exception):
    """Another handling of the same update (a redelivery, on this replica or another) recorded
    it first: this one must change nothing."""

    def __init__(self, update_id: int) -> None:
        super().__init__(f"update {update_id} was acted on already")
        self.update_id = update_id
