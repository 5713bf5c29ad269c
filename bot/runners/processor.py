"""How each update is processed, in polling and webhook mode alike: at most a number at once,
and acted on once (`bot.core.inbox.updates`): an update delivered again changes nothing.

Presses of answer buttons in groups skip the update log: one answer per member per question is
a UNIQUE constraint, so a press delivered again is refused as "already answered" whatever the
log says, and the log's read and its record would be two of the few statements on the busiest
path there is (a crowd answering a group question). (Telegram refuses the second answer to the
same press, so the member sees nothing of it.)"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import Any

from telegram import Update
from telegram.constants import ChatType
from telegram.ext import SimpleUpdateProcessor

from bot.callback_data import parse_answer_button
from bot.core.inbox.updates import UpdateLog
from bot.core.model import UpdateAlreadyHandledError
from bot.handlers.errors import recording_failures

log = logging.getLogger(__name__)

StorageFailure = Callable[[BaseException], bool]


class OnceUpdateProcessor(SimpleUpdateProcessor):
    def __init__(
        self,
        max_concurrent_updates: int,
        updates: UpdateLog,
        is_storage_failure: StorageFailure,
    ) -> None:
        super().__init__(max_concurrent_updates)
        self._updates = updates
        self._is_storage_failure = is_storage_failure

    async def do_process_update(self, update: object, coroutine: Awaitable[Any]) -> None:
        if not isinstance(update, Update) or acts_once_by_itself(update):
            await coroutine
            return
        try:
            seen = await self._updates.seen(update.update_id)
        except Exception as error:
            if not self._is_storage_failure(error):
                raise
            seen = False  # the handling will meet the same failure and say so
        if seen:
            if hasattr(coroutine, "close"):
                coroutine.close()
            log.info("update %d delivered again: it was acted on before", update.update_id)
            return
        with recording_failures() as failures, self._updates.acting_on(update.update_id) as mark:
            await coroutine
        if any(
            self._is_storage_failure(error) or isinstance(error, UpdateAlreadyHandledError)
            for error in failures
        ):
            return  # delivered again (webhook), it will be handled then; or it was already
        try:
            await self._updates.handled(mark)
        except Exception as error:
            if not self._is_storage_failure(error):
                raise
            log.warning("update %d: could not record it as handled: %s", update.update_id, error)


def acts_once_by_itself(update: Update) -> bool:
    """An update whose handling is idempotent by the data's own rules: a press of an answer
    button in a group (see the module's docstring)."""
    query = update.callback_query
    if query is None or query.message is None or query.message.chat.type == ChatType.PRIVATE:
        return False
    return parse_answer_button(query.data) is not None
