"""Writing a command's output file: whole or not at all."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path


def write_file(path: Path, content: bytes) -> None:
    """Write `content` to `path` through a temporary file beside it, so that a failure leaves
    no file, or the one that was there, rather than part of the new one."""
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_bytes(content)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            temporary.unlink()
        raise
