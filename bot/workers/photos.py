"""Sending a deck's image: uploaded the first time, then by the `file_id` Telegram gave it (a
question asked a thousand times is uploaded once per process), uploaded again if Telegram no
longer knows that id."""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from telegram import InlineKeyboardMarkup, InputFile, Message, ReplyParameters
from telegram.error import BadRequest
from telegram.ext import ExtBot

log = logging.getLogger(__name__)

_UNKNOWN_FILE = ("wrong file identifier", "file reference", "wrong remote file")


class Photos:
    def __init__(self, bot: ExtBot[Any], images: Path) -> None:
        """`images`: the folder the decks' image paths are relative to (the decks' folder)."""
        self._bot = bot
        self._images = images
        self._file_ids: dict[tuple[str, int, int], str] = {}  # (image, size, mtime) -> id

    async def send(
        self,
        chat_id: int,
        image: str,
        *,
        caption: str | None,
        keyboard: InlineKeyboardMarkup | None,
        thread_id: int | None,
        reply: ReplyParameters | None,
        rate_limit_args: dict[str, Any] | None,
    ) -> Message:
        path = self._images / image
        stat = path.stat()
        key = (image, stat.st_size, stat.st_mtime_ns)
        known = self._file_ids.get(key)
        if known is not None:
            try:
                return await self._send(
                    chat_id, known, caption, keyboard, thread_id, reply, rate_limit_args
                )
            except BadRequest as error:
                if not any(text in error.message.lower() for text in _UNKNOWN_FILE):
                    raise
                log.info("image %s: its file id is no longer known; uploading it again", image)
                del self._file_ids[key]
        upload = InputFile(path.read_bytes(), filename=path.name)
        sent = await self._send(
            chat_id, upload, caption, keyboard, thread_id, reply, rate_limit_args
        )
        if sent.photo:
            self._file_ids[key] = sent.photo[-1].file_id
        return sent

    async def _send(
        self,
        chat_id: int,
        photo: str | InputFile,
        caption: str | None,
        keyboard: InlineKeyboardMarkup | None,
        thread_id: int | None,
        reply: ReplyParameters | None,
        rate_limit_args: dict[str, Any] | None,
    ) -> Message:
        return await self._bot.send_photo(
            chat_id,
            photo,
            caption=caption,
            message_thread_id=thread_id,
            reply_parameters=reply,
            reply_markup=keyboard,
            rate_limit_args=rate_limit_args,
        )
