"""The canvas every diagram is drawn on: a fixed 1200 x 800 px figure whose data coordinates are
pixels (x right, y up), the palette, and helpers for boxes, lines, text and legends.

No pyplot: each diagram is a plain `Figure` on an Agg canvas, so nothing global is touched and
no other backend is ever loaded. `save` strips the PNG metadata that would change from run to run.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

import matplotlib
from matplotlib.axes import Axes
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import FancyArrowPatch, FancyBboxPatch, Patch

WIDTH = 1200
HEIGHT = 800
DPI = 100
FONT = "DejaVu Sans"
LABEL_SIZE = 20  # points; at 100 DPI a 20 pt label is about 28 px high
SMALL_SIZE = 17
TEXT = "#1a1a1a"
MUTED = "#777777"

# Fill and edge of each kind of box (Okabe-Ito based, distinguishable with colour blindness).
BOXES: dict[str, tuple[str, str]] = {
    "gpu": ("#dff0d0", "#4d7c0f"),
    "switch": ("#d6e6f7", "#1f5fa8"),
    "cpu": ("#fde3c4", "#b15f00"),
    "hostbridge": ("#fff3bf", "#8a6d00"),
    "pcie": ("#ececec", "#555555"),
    "nic": ("#eadcf5", "#6a3d9a"),
    "storage": ("#f3e0e0", "#8c2d2d"),
    "network": ("#e8e8e8", "#444444"),
    "tray": ("#f4f9ef", "#4d7c0f"),
    "plain": ("#ffffff", "#444444"),
}
Dash = Literal["-", "--", ":"]
# Colour, width (points) and dash style of each kind of line.
LINES: dict[str, tuple[str, float, Dash]] = {
    "nvlink": ("#5a9e2f", 2.2, "-"),
    "pcie": ("#8a8a8a", 2.2, "-"),
    "smp": ("#b15f00", 3.0, "--"),
    "network": ("#444444", 2.0, ":"),
    "tree": ("#1f5fa8", 3.0, "-"),
    "ring": ("#1f5fa8", 3.0, "-"),
    "hot": ("#d55e00", 5.5, "-"),
    "hot2": ("#0072b2", 5.5, "-"),
    "hot3": ("#cc79a7", 5.5, "-"),
    "hot4": ("#009e73", 5.5, "-"),
    "good": ("#009e73", 5.5, "-"),
    "bad": ("#444444", 4.5, "--"),
}
# Colours of what a diagram marks in the data: pipeline passes, ring chunks, verdicts.
MARKS: dict[str, str] = {
    "forward": "#5b8fd4",
    "forward2": "#a9c6ee",
    "backward": "#e69a4a",
    "backward2": "#f5cd9c",
    "bubble": "#f2f2f2",
    "good": "#009e73",
    "bad": "#d55e00",
}
CHUNK_COLOURS = ("#5b8fd4", "#e69a4a", "#5aae61", "#c27ba0", "#d8b13c", "#7fc4c4", "#b0a080")


@contextmanager
def canvas(path: Path) -> Iterator[Axes]:
    """An axes spanning a WIDTH x HEIGHT px figure in pixel coordinates; saved to `path`."""
    with matplotlib.rc_context({"font.family": FONT, "text.color": TEXT, "hatch.linewidth": 1.2}):
        figure = Figure(figsize=(WIDTH / DPI, HEIGHT / DPI), dpi=DPI, facecolor="white")
        FigureCanvasAgg(figure)
        axes = figure.add_axes((0.0, 0.0, 1.0, 1.0))
        axes.set_xlim(0, WIDTH)
        axes.set_ylim(0, HEIGHT)
        axes.set_axis_off()
        yield axes
        save(figure, path)


def save(figure: Figure, path: Path) -> None:
    """Write `figure` as a PNG with no metadata that varies between runs or versions."""
    path.parent.mkdir(parents=True, exist_ok=True)
    figure.savefig(path, format="png", dpi=DPI, metadata={"Software": None})


def box(
    axes: Axes,
    x: float,
    y: float,
    width: float,
    height: float,
    label: str,
    kind: str = "plain",
    size: float = LABEL_SIZE,
    edge: str | None = None,
    linewidth: float = 2.0,
) -> None:
    """A rounded box centred on (x, y) with a centred label."""
    fill, default_edge = BOXES[kind]
    axes.add_patch(
        FancyBboxPatch(
            (x - width / 2, y - height / 2),
            width,
            height,
            boxstyle="round,pad=0,rounding_size=8",
            facecolor=fill,
            edgecolor=edge or default_edge,
            linewidth=linewidth,
            zorder=3,
        )
    )
    if label:
        text(axes, x, y, label, size=size, zorder=4)


def frame(
    axes: Axes,
    x0: float,
    y0: float,
    x1: float,
    y1: float,
    label: str,
    colour: str = MUTED,
    below: bool = False,
) -> None:
    """A dashed frame around a group of boxes, labelled inside its top left corner (or under
    its bottom left corner)."""
    axes.add_patch(
        FancyBboxPatch(
            (x0, y0),
            x1 - x0,
            y1 - y0,
            boxstyle="round,pad=0,rounding_size=14",
            facecolor="none",
            edgecolor=colour,
            linewidth=1.8,
            linestyle=(0, (6, 4)),
            zorder=1,
        )
    )
    if label and below:
        text(axes, x0 + 14, y0 - 8, label, size=SMALL_SIZE, ha="left", va="top", colour=colour)
    elif label:
        text(axes, x0 + 14, y1 - 8, label, size=SMALL_SIZE, ha="left", va="top", colour=colour)


def line(axes: Axes, points: Sequence[tuple[float, float]], style: str, zorder: float = 2) -> None:
    """A polyline in one of the LINES styles."""
    colour, width, dash = LINES[style]
    xs = [point[0] for point in points]
    ys = [point[1] for point in points]
    axes.add_line(Line2D(xs, ys, color=colour, linewidth=width, linestyle=dash, zorder=zorder))


def arrow(
    axes: Axes,
    start: tuple[float, float],
    end: tuple[float, float],
    style: str,
    bend: float = 0.0,
) -> None:
    """An arrow in one of the LINES styles, optionally bent (a signed arc radius)."""
    colour, width, _ = LINES[style]
    axes.add_patch(
        FancyArrowPatch(
            start,
            end,
            connectionstyle=f"arc3,rad={bend}",
            arrowstyle="-|>,head_length=10,head_width=6",
            color=colour,
            linewidth=width,
            shrinkA=0,
            shrinkB=0,
            zorder=5,
        )
    )


def text(
    axes: Axes,
    x: float,
    y: float,
    words: str,
    size: float = LABEL_SIZE,
    ha: str = "center",
    va: str = "center",
    colour: str = TEXT,
    weight: str = "normal",
    zorder: float = 6,
) -> None:
    """Text at (x, y)."""
    axes.text(
        x,
        y,
        words,
        fontsize=size,
        ha=ha,
        va=va,
        color=colour,
        fontweight=weight,
        zorder=zorder,
        linespacing=1.15,
    )


def legend(axes: Axes, entries: Sequence[tuple[str, str]], y: float = 22) -> None:
    """A one-row legend along the bottom: (LINES or MARKS style, label) pairs."""
    handles: list[Line2D | Patch] = []
    for style, label in entries:
        if style in LINES:
            colour, width, dash = LINES[style]
            handles.append(
                Line2D([], [], color=colour, linewidth=width, linestyle=dash, label=label)
            )
        else:
            handles.append(Patch(facecolor=MARKS[style], edgecolor=MUTED, label=label))
    axes.legend(
        handles=handles,
        loc="lower center",
        bbox_to_anchor=(0.5, y / HEIGHT - 0.02),
        ncols=len(handles),
        frameon=False,
        fontsize=SMALL_SIZE,
        handlelength=2.2,
        columnspacing=1.6,
    )
