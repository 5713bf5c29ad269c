"""What the fake can tell of an uploaded photo without decoding it: PNG or JPEG, and its size.

Telegram decodes every photo it is sent and answers ``IMAGE_PROCESS_FAILED`` when it cannot; the
fake has no image decoder, so it accepts what starts as a PNG (signature and IHDR chunk) or a
JPEG (SOI, then segments up to a start-of-frame marker, which holds the size) and refuses the
rest the same way. Telegram's other limits on a photo's size are in :func:`dimensions_valid`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["ImageInfo", "dimensions_valid", "sniff_image"]

ImageKind = Literal["png", "jpeg"]
_PNG = b"\x89PNG\r\n\x1a\n"
_JPEG = b"\xff\xd8"
# Start-of-frame markers (C0-CF) except DHT (C4), JPG (C8) and DAC (CC), which share the range.
_SOF = frozenset(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}
_STANDALONE = frozenset({0x01, *range(0xD0, 0xD8)})  # TEM and RST0-7 carry no length
_MAX_SUM = 10_000  # sendPhoto: "width and height must not exceed 10000 in total"
_MAX_RATIO = 20  # sendPhoto: "width and height ratio must be at most 20"


@dataclass(frozen=True, slots=True)
class ImageInfo:
    kind: ImageKind
    width: int
    height: int

    @property
    def mime_type(self) -> str:
        return f"image/{self.kind}"

    @property
    def extension(self) -> str:
        return "jpg" if self.kind == "jpeg" else "png"


def sniff_image(data: bytes) -> ImageInfo | None:
    """The kind and size of a PNG or JPEG image, or None when ``data`` is neither."""
    if data.startswith(_PNG):
        return _png(data)
    if data.startswith(_JPEG):
        return _jpeg(data)
    return None


def dimensions_valid(info: ImageInfo) -> bool:
    """Telegram's limits on a photo's dimensions (else ``PHOTO_INVALID_DIMENSIONS``)."""
    small, large = sorted((info.width, info.height))
    return info.width + info.height <= _MAX_SUM and large <= small * _MAX_RATIO


def _png(data: bytes) -> ImageInfo | None:
    # The first chunk must be IHDR: length (4), type (4), width (4), height (4), ...
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    width, height = int.from_bytes(data[16:20]), int.from_bytes(data[20:24])
    return ImageInfo("png", width, height) if width > 0 and height > 0 else None


def _jpeg(data: bytes) -> ImageInfo | None:
    i = 2
    while i + 4 <= len(data):
        if data[i] != 0xFF:
            return None
        marker = data[i + 1]
        if marker == 0xFF:  # a fill byte before the marker
            i += 1
            continue
        if marker in _STANDALONE:
            i += 2
            continue
        if marker in (0xD8, 0xD9, 0xDA):  # SOI again, EOI or scan data before any frame
            return None
        length = int.from_bytes(data[i + 2 : i + 4])
        if marker in _SOF:
            if length < 7 or i + 9 > len(data):
                return None
            height, width = int.from_bytes(data[i + 5 : i + 7]), int.from_bytes(data[i + 7 : i + 9])
            return ImageInfo("jpeg", width, height) if width > 0 and height > 0 else None
        if length < 2:
            return None
        i += 2 + length
    return None
