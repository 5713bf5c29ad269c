"""`python -m content.diagrams [--out DIR] [NAME ...]`: redraw the diagrams (all, or the named
data files) into DIR, by default content/images/."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from content.diagrams import DATA_DIR, DEFAULT_OUT, SpecError, data_files, draw


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m content.diagrams", description=__doc__)
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder")
    parser.add_argument("names", nargs="*", help="data file names to draw (default: all)")
    args = parser.parse_args(argv)
    paths = [DATA_DIR / f"{name.removesuffix('.yaml')}.yaml" for name in args.names]
    try:
        for path in paths or data_files():
            print(draw(path, args.out))
    except (SpecError, OSError) as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
