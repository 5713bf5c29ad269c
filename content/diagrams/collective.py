"""`kind: collective`: ring and tree all-reduce, as NCCL builds them, in side-by-side panels.

panels:
  - {type: ring, ranks: 4, prefix: "GPU ", chunks: true}   # ranks on a circle, arrows to the
                                                           # next; `chunks` draws each buffer
  - {type: steps, ranks: 4, prefix: "GPU "}   # which chunk each rank sends at each step of
                                              # NCCL's ring all-reduce (src/device/all_reduce.h)
  - {type: tree, ranks: 8, tree: 1, leaves: true}   # NCCL's binary tree 1 or 2
                                                    # (src/graph/trees.cc); `leaves` shades them
Each panel may give `span: [x0, x1]` and `caption`; `notes` and `legend` as in `kind: fabric`.
"""

from __future__ import annotations

import math

from matplotlib.axes import Axes
from matplotlib.patches import Circle, Rectangle

from content.diagrams import fabric, style
from content.diagrams.spec import Spec, SpecError

LETTERS = "ABCDEFGH"
NODE_RADIUS = 30.0


def btree(ranks: int, rank: int) -> tuple[int, int, int]:
    """(parent, child 0, child 1) of `rank` in NCCL's binary tree (ncclGetBtree), -1 for none."""
    bit = 1
    while bit < ranks and not bit & rank:
        bit <<= 1
    if rank == 0:
        return -1, -1, (bit >> 1) if ranks > 1 else -1
    up = (rank ^ bit) | (bit << 1)
    if up >= ranks:
        up = rank ^ bit
    low = bit >> 1
    down0 = rank - low if low else -1
    down1 = rank + low if low else -1
    while down1 >= ranks:
        down1 = rank + low if low else -1
        low >>= 1
    return up, down0, down1


def dtree_parent(ranks: int, rank: int, tree: int) -> int:
    """The parent of `rank` in tree 1 or 2 of NCCL's double binary tree (ncclGetDtree): tree 2
    mirrors tree 1 for an even number of ranks and shifts it by one for an odd number."""
    if tree == 1:
        return btree(ranks, rank)[0]
    if ranks % 2:
        up = btree(ranks, (rank - 1) % ranks)[0]
        return -1 if up == -1 else (up + 1) % ranks
    up = btree(ranks, ranks - 1 - rank)[0]
    return -1 if up == -1 else ranks - 1 - up


def ring_chunk(ranks: int, rank: int, step: int) -> int:
    """The chunk `rank` sends at `step` (0-based) of NCCL's ring all-reduce (runRing): the first
    ranks - 1 sends reduce (a reduce-scatter), the last ranks - 1 copy (an all-gather)."""
    if step == 0:
        return (rank - 1) % ranks
    if step < ranks - 1:
        return (rank - step - 1) % ranks
    if step == ranks - 1:
        return rank
    return (rank - (step - ranks + 1)) % ranks


def _circle_node(axes: Axes, x: float, y: float, label: str, fill: str = "#d6e6f7") -> None:
    axes.add_patch(
        Circle((x, y), NODE_RADIUS, facecolor=fill, edgecolor="#1f5fa8", lw=2.2, zorder=3)
    )
    style.text(axes, x, y, label, zorder=4)


def _ring(axes: Axes, panel: Spec, x0: float, x1: float) -> None:
    ranks = panel.integer("ranks")
    prefix = panel.text("prefix", "")
    chunks = panel.flag("chunks")
    cx, cy = (x0 + x1) / 2, panel.number("y", 430)
    radius = panel.number("radius", min(x1 - x0, 560) / 2 - 110)
    spots = []
    for rank in range(ranks):
        angle = math.pi / 2 - 2 * math.pi * rank / ranks
        spots.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle)))
    for rank, (x, y) in enumerate(spots):
        nx, ny = spots[(rank + 1) % ranks]
        gap = (95.0 if prefix else NODE_RADIUS + 8) / math.dist((x, y), (nx, ny))
        start = (x + (nx - x) * gap, y + (ny - y) * gap)
        end = (nx - (nx - x) * gap, ny - (ny - y) * gap)
        style.arrow(axes, start, end, "ring", bend=-0.25)
    for rank, (x, y) in enumerate(spots):
        if prefix:
            style.box(axes, x, y, 118, 54, f"{prefix}{rank}", "gpu")
        else:
            _circle_node(axes, x, y, str(rank))
        if chunks:
            # The buffer sits outside the ring, clear of the arrows.
            ux, uy = (x - cx) / radius, (y - cy) / radius
            reach = abs(ux) * (59 + 18 * ranks + 14) + abs(uy) * 58
            _buffer(axes, x + ux * reach, y + uy * reach, ranks)


def _buffer(axes: Axes, x: float, y: float, ranks: int) -> None:
    width = 36.0
    left = x - width * ranks / 2
    for chunk in range(ranks):
        colour = style.CHUNK_COLOURS[chunk % len(style.CHUNK_COLOURS)]
        axes.add_patch(
            Rectangle(
                (left + chunk * width, y - 15),
                width,
                30,
                facecolor=colour,
                edgecolor="white",
                lw=1.5,
                zorder=3,
            )
        )
        style.text(
            axes,
            left + (chunk + 0.5) * width,
            y,
            LETTERS[chunk],
            size=16,
            colour="white",
            weight="bold",
        )


def _steps(axes: Axes, panel: Spec, x0: float, x1: float) -> None:
    ranks = panel.integer("ranks")
    prefix = panel.text("prefix", "GPU ")
    steps = 2 * (ranks - 1)
    top, bottom = panel.number("top", 690), panel.number("bottom", 110)
    label_width = 230.0
    cell_w = (x1 - x0 - label_width) / ranks
    cell_h = (top - bottom) / (steps + 1)
    for rank in range(ranks):
        style.text(
            axes,
            x0 + label_width + (rank + 0.5) * cell_w,
            top - cell_h / 2,
            f"{prefix}{rank}",
            weight="bold",
        )
    for step in range(steps):
        y = top - (step + 1.5) * cell_h
        phase = "reduce-scatter" if step < ranks - 1 else "all-gather"
        style.text(axes, x0 + 8, y, f"step {step + 1}", ha="left")
        if step in (0, ranks - 1):
            style.text(
                axes,
                x0 + 8,
                y + cell_h * 0.5 - 4,
                phase,
                size=14,
                ha="left",
                va="top",
                colour=style.MUTED,
            )
        for rank in range(ranks):
            chunk = ring_chunk(ranks, rank, step)
            colour = style.CHUNK_COLOURS[chunk % len(style.CHUNK_COLOURS)]
            cx = x0 + label_width + rank * cell_w
            axes.add_patch(
                Rectangle(
                    (cx + 4, y - cell_h / 2 + 4),
                    cell_w - 8,
                    cell_h - 8,
                    facecolor=colour,
                    edgecolor="white",
                    zorder=3,
                )
            )
            style.text(axes, cx + cell_w / 2, y, LETTERS[chunk], colour="white", weight="bold")
        if step == ranks - 2:
            axes.plot([x0, x1], [y - cell_h / 2, y - cell_h / 2], color=style.TEXT, lw=2, zorder=4)


def _tree(axes: Axes, panel: Spec, x0: float, x1: float) -> None:
    ranks = panel.integer("ranks")
    tree = panel.integer("tree", 1)
    if tree not in (1, 2):
        raise SpecError(f"{panel.where}: `tree` must be 1 or 2")
    parents = [dtree_parent(ranks, rank, tree) for rank in range(ranks)]
    depth = [0] * ranks
    for rank in range(ranks):
        node = rank
        while parents[node] != -1:
            depth[rank] += 1
            node = parents[node]
    levels = max(depth)
    top, bottom = panel.number("top", 640), panel.number("bottom", 190)
    step_x = (x1 - x0) / ranks
    spots = [
        (x0 + step_x * (rank + 0.5), top - (top - bottom) * depth[rank] / max(levels, 1))
        for rank in range(ranks)
    ]
    for rank, parent in enumerate(parents):
        if parent != -1:
            (x, y), (px, py) = spots[rank], spots[parent]
            axes.plot([x, px], [y, py], color=style.LINES["tree"][0], lw=3, zorder=2)
    shade = panel.flag("leaves")
    has_child = {parent for parent in parents if parent != -1}
    for rank, (x, y) in enumerate(spots):
        leaf = rank not in has_child
        fill = "#ffffff" if shade and leaf else "#d6e6f7"
        _circle_node(axes, x, y, str(rank), fill)


PANELS = {"ring": _ring, "steps": _steps, "tree": _tree}


def draw(axes: Axes, spec: Spec) -> None:
    """Draw a `kind: collective` diagram."""
    panels = spec.items("panels")
    width = (style.WIDTH - 2 * 30) / max(len(panels), 1)
    for index, panel in enumerate(panels):
        kind = panel.text("type")
        if kind not in PANELS:
            raise SpecError(f"{panel.where}: `type` must be one of {', '.join(PANELS)}")
        x0, x1 = panel.pair("span", (30 + index * width, 30 + (index + 1) * width))
        PANELS[kind](axes, panel, x0, x1)
        if panel.has("caption"):
            style.text(
                axes,
                (x0 + x1) / 2,
                panel.number("caption_y", 745),
                panel.text("caption"),
                weight="bold",
            )
    fabric.notes(axes, spec)
    if spec.has("legend"):
        style.legend(axes, spec.legend())
