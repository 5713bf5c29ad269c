"""Photos: sendPhoto, editMessageCaption, getFile and the file download route, with Telegram's
checks in Telegram's order and its error texts.

sendPhoto takes ``photo`` as an uploaded file (multipart/form-data, also through
``attach://<part>``) or as the file_id of a photo the fake stored before; an HTTP URL is refused,
as the fake cannot download it (see :mod:`bot.playground.botapi.files`). An upload must be
non-empty, at most 10 MB, a PNG or a JPEG (Telegram decodes it; the fake reads the signature and
the size, see :mod:`bot.playground.botapi.images`) within Telegram's dimensions. The caption is
parsed like a text (HTML strictly) and may have at most 1024 characters once parsed. The photo
is kept as uploaded, in one size: the Message has one PhotoSize (Telegram adds smaller copies
and re-encodes the photo as JPEG; the fake keeps the bytes, so they can be checked).
"""

from __future__ import annotations

import time
from typing import Any
from urllib.parse import unquote

from .files import FileStore, StoredFile
from .html import ParsedText
from .http import HttpRequest, HttpResponse
from .images import dimensions_valid, sniff_image
from .methods import NOT_MODIFIED, SEND_FIELDS, BotApiMethods
from .models import ApiError, JsonDict
from .state import bad_request
from .validation import caption_too_long, parse_caption
from .validation import parse_markup as _markup

__all__ = ["MAX_PHOTO_BYTES", "BotApiPhotos"]

MAX_PHOTO_BYTES = 10 * 1024 * 1024  # TDLib's MAX_PHOTO_SIZE: "at most 10 MB"
_bad = bad_request
_NOT_FOUND = ApiError(404, "Not Found")


def _flag(value: Any) -> bool:
    """A boolean parameter as the Bot API reads it (Client::to_bool: true, yes or 1, in any
    case, around spaces)."""
    return value == 1 or (isinstance(value, str) and value.strip().lower() in ("true", "yes", "1"))


class BotApiPhotos(BotApiMethods):
    """Adds the photo methods and :attr:`files`, the photos uploaded so far."""

    def __init__(self, *, token: str, bot_id: int, bot_username: str) -> None:
        super().__init__(token=token, bot_id=bot_id, bot_username=bot_username)
        self.files = FileStore()
        self._methods |= {
            "sendPhoto": self._send_photo,
            "editMessageCaption": self._edit_message_caption,
            "getFile": self._get_file,
        }
        self._method_names = {name.lower(): name for name in self._methods}

    def _parse_caption(self, params: JsonDict) -> ParsedText:
        return parse_caption(params, strict_escaping=self.strict_html_escaping)

    # -- reading files (test and playground side) ----------------------------------------------

    def photo_bytes(self, file_id: str) -> tuple[bytes, str] | None:
        """The bytes and MIME type of the photo stored under ``file_id`` (None: no such photo)."""
        stored = self.files.get(file_id)
        return None if stored is None else (self.files.data(stored), stored.image.mime_type)

    def _download(self, request: HttpRequest) -> HttpResponse:
        """``GET /file/bot<token>/<file_path>``: the file's bytes. Telegram's file server answers
        404 for a path (or token) it does not know."""
        token, _, file_path = unquote(request.path).removeprefix("/file/bot").partition("/")
        stored = self.files.by_path(file_path) if token == self.token else None
        if stored is None or request.method not in ("GET", "HEAD"):
            return HttpResponse.json(404, _NOT_FOUND.payload())
        return HttpResponse(200, self.files.data(stored), "application/octet-stream")

    # -- methods -------------------------------------------------------------------------------

    def _photo_param(self, params: JsonDict) -> bytes | str:
        """The uploaded bytes, or the string naming a stored file (Bot API's get_input_file)."""
        photo = params.get("photo")
        if isinstance(photo, str) and photo.startswith("attach://"):
            photo = params.get(photo.removeprefix("attach://"))
            photo = photo if isinstance(photo, bytes) else None  # attach:// names an upload
        if isinstance(photo, bytes) or (photo is not None and photo != ""):
            return photo if isinstance(photo, bytes) else str(photo)
        raise _bad("there is no photo in the request")

    @staticmethod
    def _check_upload(data: bytes) -> None:
        """TDLib's checks of a local file, before it is uploaded."""
        if not data:
            raise _bad("file must be non-empty")
        if len(data) > MAX_PHOTO_BYTES:
            raise _bad(
                f"file of size {len(data)} bytes is too big for a photo; "
                f"the maximum size is {MAX_PHOTO_BYTES} bytes"
            )

    def _store_upload(self, data: bytes) -> StoredFile:
        """Telegram's servers decode the uploaded photo: not an image, or one of impossible
        dimensions, is refused."""
        image = sniff_image(data)
        if image is None:
            raise _bad("IMAGE_PROCESS_FAILED")
        if not dimensions_valid(image):
            raise _bad("PHOTO_INVALID_DIMENSIONS")
        return self.files.add_photo(data, image)

    async def _send_photo(self, params: JsonDict) -> JsonDict:
        photo = self._photo_param(params)
        parsed = self._parse_caption(params)
        chat = self._usable_chat(params)
        markup = _markup(params)
        reply_to = self._reply_to(chat, params)
        if isinstance(photo, bytes):
            self._check_upload(photo)
        else:
            self.files.resolve(photo)  # an unknown file is refused before a long caption
        if caption_too_long(parsed):
            raise _bad("message caption is too long")
        stored = (
            self._store_upload(photo) if isinstance(photo, bytes) else self.files.resolve(photo)
        )
        thread = params.get("message_thread_id")
        above = bool(parsed.text) and _flag(params.get("show_caption_above_media"))
        known = {"chat_id", "photo", "caption", "parse_mode", "show_caption_above_media"}
        msg = self._store(
            chat,
            self.bot_user,
            None,
            photo_file_id=stored.file_id,
            photo=[stored.photo_size()],
            caption=str(params["caption"]) if parsed.text else None,
            visible_caption=parsed.text or None,
            caption_entities=list(parsed.entities),
            show_caption_above_media=above,
            reply_markup=markup,
            parse_mode=params.get("parse_mode"),
            thread_id=int(thread) if thread is not None else None,
            reply_to=reply_to,
            sent_params={k: v for k, v in params.items() if k not in known | SEND_FIELDS},
        )
        return self.message_dict(msg)

    async def _edit_message_caption(self, params: JsonDict) -> JsonDict:
        msg = self._editable(params)
        parsed = self._parse_caption(params)
        markup = _markup(params)
        if not msg.is_photo:
            raise _bad("there is no caption in the message to edit")
        if caption_too_long(parsed):  # TDLib leaves this edit to the server, which names it so
            raise _bad("MEDIA_CAPTION_TOO_LONG")
        above = bool(parsed.text) and _flag(params.get("show_caption_above_media"))
        # Telegram compares what it would show: caption + entities, its place, and the markup.
        shown = (parsed.text or None, list(parsed.entities), above, markup)
        if (
            msg.visible_caption or None,
            msg.caption_entities,
            msg.show_caption_above_media,
            msg.reply_markup,
        ) == shown:
            raise _bad(NOT_MODIFIED.removeprefix("Bad Request: "))
        msg.caption = str(params["caption"]) if parsed.text else None
        msg.parse_mode = params.get("parse_mode")
        (
            msg.visible_caption,
            msg.caption_entities,
            msg.show_caption_above_media,
            msg.reply_markup,
        ) = shown
        msg.edit_count += 1
        msg.edit_date = int(time.time())
        return self.message_dict(msg)

    async def _get_file(self, params: JsonDict) -> JsonDict:
        return self.files.file_for_get_file(str(params.get("file_id") or "")).file_dict()
