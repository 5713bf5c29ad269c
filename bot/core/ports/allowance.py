"""The member's command allowance in a group, counted where every replica sees it."""

from __future__ import annotations

from datetime import datetime
from typing import Protocol


class AllowanceStore(Protocol):
    async def count_command(self, chat_id: int, user_id: int, now: datetime, window_ms: int) -> int:
        """Count one command of the member in the chat, atomically; how many they sent in
        the window running (this one included). A window starts with the first command after
        the previous one ended and lasts `window_ms`."""
        ...
