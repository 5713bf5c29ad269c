"""Quiz diagrams drawn from data: one YAML file in `data/` per PNG, both named the same.

`python -m content.diagrams [--out DIR]` redraws every diagram (default: content/images/), so a
correction is an edit of a data file and a rerun. Each file names its `kind`, the module that
draws it: `fabric` (boxes in rows joined by links: NVLink/NVSwitch boards, racks), `pcie`
(PCIe trees with host bridges, GPUs and NICs), `collective` (ring and tree all-reduce) and
`pipeline` (pipeline-parallel schedules). A file may `extends:` another and change a few keys,
e.g. add the highlight that an explanation image shows.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

from matplotlib.axes import Axes

from content.diagrams import style
from content.diagrams.collective import draw as draw_collective
from content.diagrams.fabric import draw as draw_fabric
from content.diagrams.pcie import draw as draw_pcie
from content.diagrams.pipeline import draw as draw_pipeline
from content.diagrams.spec import DATA_SUFFIX, Spec, SpecError, load

DATA_DIR = Path(__file__).parent / "data"
DEFAULT_OUT = Path(__file__).parent.parent / "images"

KINDS: dict[str, Callable[[Axes, Spec], None]] = {
    "fabric": draw_fabric,
    "pcie": draw_pcie,
    "collective": draw_collective,
    "pipeline": draw_pipeline,
}

__all__ = ["DATA_DIR", "DEFAULT_OUT", "KINDS", "SpecError", "data_files", "draw", "draw_all"]


def data_files(data_dir: Path = DATA_DIR) -> list[Path]:
    """Every diagram data file, by name."""
    return sorted(data_dir.glob("*" + DATA_SUFFIX))


def draw(path: Path, out_dir: Path) -> Path:
    """Draw the data file `path` into `out_dir/<same name>.png`; return the PNG's path."""
    spec = Spec(load(path), path.name)
    kind = spec.text("kind")
    if kind not in KINDS:
        raise SpecError(f"{path.name}: unknown kind {kind!r} (kinds: {', '.join(KINDS)})")
    target = out_dir / (path.stem + ".png")
    with style.canvas(target) as axes:
        KINDS[kind](axes, spec)
    return target


def draw_all(out_dir: Path = DEFAULT_OUT, data_dir: Path = DATA_DIR) -> list[Path]:
    """Draw every data file of `data_dir` into `out_dir`; return the PNGs' paths."""
    return [draw(path, out_dir) for path in data_files(data_dir)]
