"""The ports that let several replicas share one database: who is alive, who leads, and
claims that keep two replicas from doing the same work.

Correctness never rests on leadership alone: a chat's owed messages are sent by the replica
holding its claim, daily pushes are claimed row by row, and closes stay conditional; a claim
is a lease, so a dead claimer's work is taken over when it runs out.
"""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class ReplicaStore(Protocol):
    async def heartbeat(self, replica: str, now: datetime, alive_after: datetime) -> int:
        """Note `replica` alive at `now`; how many replicas were seen after `alive_after`
        (this one included). Replicas gone long ago are forgotten."""
        ...

    async def retire(self, replica: str) -> None:
        """`replica` stops: the others may take its share of the sending budget now."""
        ...

    async def claim_chat(self, chat_id: int, replica: str, now: datetime, until: datetime) -> bool:
        """Take (or renew) the right to send the chat's owed messages until `until`; False
        while another replica holds an unexpired claim."""
        ...

    async def release_chat(self, chat_id: int, replica: str) -> None: ...

    async def release_dead_claims(self, alive_after: datetime) -> int:
        """Drop the chat claims of replicas not seen after `alive_after`; how many."""
        ...


class Leadership(Protocol):
    async def hold(self) -> bool:
        """Become or stay the leader; False while another replica is (or the database is
        unreachable). Called about once a second."""
        ...

    async def resign(self) -> None: ...
