"""Files the fake keeps: every photo uploaded, under the ``file_id`` Telegram would give it.

A file_id is handed out once per upload and can be sent again (sendPhoto with the string), asked
about (getFile, which gives a ``file_path``) and downloaded (``GET /file/bot<token>/<file_path>``).
Identical bytes are kept once, however often they are uploaded.

A string that is not a file_id the fake gave out is refused the way Telegram refuses it (TDLib's
``FileManager::from_persistent_id``): one with a ``.`` is an HTTP URL, which Telegram would fetch
and the fake cannot ("wrong file identifier/HTTP URL specified"); anything else must be base64url
ending in a known version byte ("wrong remote file identifier specified: ..."); a well-formed one
the fake does not know is what another bot's file_id is here: "wrong file identifier/HTTP URL
specified".
"""

from __future__ import annotations

import base64
import hashlib
import re
from dataclasses import dataclass

from .images import ImageInfo
from .models import ApiError, JsonDict
from .state import bad_request

__all__ = ["WRONG_FILE", "FileStore", "StoredFile"]

WRONG_FILE = "wrong file identifier/HTTP URL specified"
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
_VERSIONS = frozenset({2, 3, 4})  # TDLib's PERSISTENT_ID_VERSION_OLD, _GENERATED and current
_PHOTO_TAG = b"\x02\x00\x00\x00"  # the fake's file_ids start like Telegram's photo ids ("AgAAA")


@dataclass(frozen=True, slots=True)
class StoredFile:
    file_id: str
    file_unique_id: str
    file_path: str
    image: ImageInfo
    digest: str  # sha256 of the bytes (the key they are kept under)
    size: int

    def photo_size(self) -> JsonDict:
        """The PhotoSize object of this photo."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": self.size,
            "width": self.image.width,
            "height": self.image.height,
        }

    def file_dict(self) -> JsonDict:
        """The File object getFile answers."""
        return {
            "file_id": self.file_id,
            "file_unique_id": self.file_unique_id,
            "file_size": self.size,
            "file_path": self.file_path,
        }


def _b64(raw: bytes) -> str:
    return base64.urlsafe_b64encode(raw).rstrip(b"=").decode()


def _base64url_problem(text: str) -> str | None:
    """Why TDLib's base64url_decode refuses ``text``, or None when it decodes."""
    stripped = text.rstrip("=")
    padding = len(text) - len(stripped)
    if padding >= 3:
        return "Wrong string padding"
    if padding and (len(stripped) + padding) % 4:
        return "Wrong padding length"
    if len(stripped) % 4 == 1:
        return "Wrong string length"
    if not _BASE64URL.fullmatch(stripped):
        return "Wrong character in the string"
    if _decode(stripped) is None:
        return "Wrong padding in the string"
    return None


def _decode(text: str) -> bytes | None:
    """The bytes of unpadded base64url ``text`` whose unused bits are zero, else None."""
    raw = base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
    return raw if _b64(raw) == text else None


class FileStore:
    """The uploaded files, by file_id and by file_path; their bytes, by digest."""

    def __init__(self) -> None:
        self._by_id: dict[str, StoredFile] = {}
        self._by_path: dict[str, StoredFile] = {}
        self._blobs: dict[str, bytes] = {}

    def __len__(self) -> int:
        return len(self._by_id)

    def add_photo(self, data: bytes, image: ImageInfo) -> StoredFile:
        """Keep an uploaded photo under a new file_id (and file_unique_id, and file_path)."""
        number = len(self._by_id)
        digest = hashlib.sha256(data).hexdigest()
        self._blobs.setdefault(digest, data)
        token = hashlib.sha256(f"{number}:{digest}".encode()).digest()
        stored = StoredFile(
            file_id=_b64(_PHOTO_TAG + number.to_bytes(4, "little") + token[:20] + b"\x04"),
            file_unique_id=_b64(b"\x01" + token[20:28]),
            file_path=f"photos/file_{number}.{image.extension}",
            image=image,
            digest=digest,
            size=len(data),
        )
        self._by_id[stored.file_id] = stored
        self._by_path[stored.file_path] = stored
        return stored

    def get(self, file_id: str) -> StoredFile | None:
        return self._by_id.get(file_id)

    def by_path(self, file_path: str) -> StoredFile | None:
        return self._by_path.get(file_path)

    def data(self, stored: StoredFile) -> bytes:
        return self._blobs[stored.digest]

    def resolve(self, file_id: str) -> StoredFile:
        """The file a sent string names, or the ApiError Telegram answers for it."""
        stored = self._by_id.get(file_id)
        if stored is not None:
            return stored
        if "." in file_id:  # an HTTP URL: Telegram would download it; the fake has no network
            raise bad_request(WRONG_FILE)
        problem = _base64url_problem(file_id)
        if problem is not None:
            raise bad_request(f"wrong remote file identifier specified: {problem}")
        raw = _decode(file_id.rstrip("=")) or b""
        if not raw:
            raise bad_request("remote file identifier must be non-empty")
        if raw[-1] not in _VERSIONS:
            raise bad_request(
                "wrong remote file identifier specified: can't unserialize it. Wrong last symbol"
            )
        raise bad_request(WRONG_FILE)

    def file_for_get_file(self, file_id: str) -> StoredFile:
        """getFile's lookup: an empty id and an unknown one have their own answers."""
        if not file_id:
            raise ApiError(400, "Bad Request: file_id not specified")
        stored = self._by_id.get(file_id)
        if stored is None:
            raise bad_request("invalid file_id")
        return stored
