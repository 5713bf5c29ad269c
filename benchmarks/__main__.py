"""`make bench`: run every benchmark in turn with its default settings.

A benchmark is a module with a ``main(argv)``: a plain module (``private_latency``), a
package's ``__main__`` (``fanout``, run as ``python -m benchmarks.fanout``) or a module inside a
package (``replicas.answers``). The harness and the parts of a benchmark have none and are
skipped."""

from __future__ import annotations

import importlib
import pkgutil
import sys
from pathlib import Path

HERE = Path(__file__).parent


def benchmark_modules() -> list[str]:
    """The dotted names of every module under benchmarks/ that has a `main`, in order."""
    names = []
    for info in pkgutil.walk_packages([str(HERE)], prefix="benchmarks."):
        if info.name.rsplit(".", 1)[-1].startswith("_") or info.name.startswith(
            "benchmarks.harness"
        ):
            continue
        candidate = f"{info.name}.__main__" if info.ispkg else info.name
        if info.ispkg and not (HERE.joinpath(*info.name.split(".")[1:]) / "__main__.py").exists():
            continue
        if getattr(importlib.import_module(candidate), "main", None) is not None:
            names.append(candidate)
    return sorted(names)


def main() -> int:
    for name in benchmark_modules():
        runner = importlib.import_module(name).main
        print(f"== {name.removesuffix('.__main__')} ==", flush=True)
        runner([])
    return 0


if __name__ == "__main__":
    sys.exit(main())
