"""`make bench`: run every benchmark script in turn with its default settings.

A benchmark is a module with a ``main(argv)``; the helper modules (harness, crowd*, fanout_*)
have none and are skipped."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path


def main() -> int:
    names = sorted(
        info.name
        for info in pkgutil.iter_modules([str(Path(__file__).parent)])
        if not info.name.startswith("_")
    )
    for name in names:
        module = importlib.import_module(f"benchmarks.{name}")
        runner = getattr(module, "main", None)
        if runner is None:
            continue
        print(f"== benchmarks.{name} ==", flush=True)
        runner([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
