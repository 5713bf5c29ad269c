"""`kind: pipeline`: pipeline-parallel schedules, one row per stage (GPU), time to the right.

    forward: 1            # time of one micro-batch's forward pass through a whole stage
    backward: 1           # ... and of its backward pass
    schedules:            # stacked top to bottom on one time axis
      - {scheme: gpipe, stages: 4, microbatches: 8, caption: "…"}
      - {scheme: 1f1b, stages: 4, microbatches: 8}
      - {scheme: interleaved, stages: 4, microbatches: 8, chunks: 2}
    bubble: true          # hatch the idle time and state the bubble fraction (explanations)
    notes, legend         # as in `kind: fabric`

The boxes are not drawn from a list: `simulate` runs the schedule, each stage doing its passes
in the order of the scheme (Megatron-LM's schedules.py for 1F1B and the interleaved one) as
soon as the pass it depends on is done. The bubble that results is (p - 1) / m of the ideal
time for GPipe and 1F1B and (p - 1) / (v m) for the interleaved schedule, as in the PTD-P paper.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from matplotlib.axes import Axes
from matplotlib.patches import Rectangle

from content.diagrams import fabric, style
from content.diagrams.spec import Spec, SpecError

SCHEMES = ("gpipe", "1f1b", "interleaved")
LEFT = 150.0
RIGHT = 1165.0


@dataclass(frozen=True)
class Pass:
    """One forward (`backward` False) or backward pass of a micro-batch through one model
    chunk of one stage, with its start and end time."""

    stage: int
    chunk: int
    microbatch: int
    backward: bool
    start: Fraction
    end: Fraction


def _order(
    scheme: str, stage: int, stages: int, microbatches: int, chunks: int
) -> list[tuple[bool, int, int]]:
    """The passes `stage` runs, in order, as (backward, chunk, micro-batch)."""
    if scheme == "gpipe":
        return [(False, 0, j) for j in range(microbatches)] + [
            (True, 0, j) for j in range(microbatches)
        ]
    # Megatron's table: groups of `stages` micro-batches, all chunks of a group in turn.
    table = [
        (chunk, j)
        for first in range(0, microbatches, stages)
        for chunk in range(chunks)
        for j in range(first, min(first + stages, microbatches))
    ]
    total = len(table)
    if scheme == "1f1b":
        warmup = stages - stage - 1
    else:
        warmup = (stages - stage - 1) * 2 + (chunks - 1) * stages
    warmup = min(warmup, total)
    forwards = [(False, chunk, j) for chunk, j in table]
    backwards = [(True, chunks - 1 - chunk, j) for chunk, j in table]
    order = forwards[:warmup]
    for index in range(total - warmup):
        order += [forwards[warmup + index], backwards[index]]
    return order + backwards[total - warmup :]


def _depends(
    key: tuple[bool, int, int, int], stages: int, chunks: int
) -> list[tuple[bool, int, int, int]]:
    """The passes that must end before pass `key` = (backward, stage, chunk, micro-batch)."""
    backward, stage, chunk, j = key
    if not backward:
        if stage > 0:
            return [(False, stage - 1, chunk, j)]
        return [(False, stages - 1, chunk - 1, j)] if chunk > 0 else []
    needs = [(False, stage, chunk, j)]
    if stage < stages - 1:
        needs.append((True, stage + 1, chunk, j))
    elif chunk < chunks - 1:
        needs.append((True, 0, chunk + 1, j))
    return needs


def simulate(
    scheme: str,
    stages: int,
    microbatches: int,
    chunks: int = 1,
    forward: Fraction = Fraction(1),
    backward: Fraction = Fraction(1),
) -> list[Pass]:
    """Every pass of the schedule with its time; each starts when its stage is free and the
    passes it depends on are done (no communication time)."""
    if scheme not in SCHEMES:
        raise SpecError(f"unknown scheme {scheme!r} (schemes: {', '.join(SCHEMES)})")
    if scheme != "interleaved":
        chunks = 1
    orders = [_order(scheme, s, stages, microbatches, chunks) for s in range(stages)]
    done: dict[tuple[bool, int, int, int], Fraction] = {}
    free = [Fraction(0)] * stages
    position = [0] * stages
    passes: list[Pass] = []
    while any(position[s] < len(orders[s]) for s in range(stages)):
        progressed = False
        for s in range(stages):
            if position[s] == len(orders[s]):
                continue
            is_backward, chunk, j = orders[s][position[s]]
            key = (is_backward, s, chunk, j)
            needs = _depends(key, stages, chunks)
            if any(need not in done for need in needs):
                continue
            start = max([free[s], *(done[need] for need in needs)])
            end = start + (backward if is_backward else forward) / chunks
            done[key] = free[s] = end
            passes.append(Pass(s, chunk, j, is_backward, start, end))
            position[s] += 1
            progressed = True
        if not progressed:
            raise SpecError(f"{scheme} schedule deadlocks with p={stages}, m={microbatches}")
    return passes


def bubble_fraction(
    passes: list[Pass], microbatches: int, forward: Fraction, backward: Fraction
) -> Fraction:
    """Idle time of a stage over the ideal time m (t_f + t_b), as the PTD-P paper defines it."""
    makespan = max(p.end for p in passes)
    ideal = microbatches * (forward + backward)
    return (makespan - ideal) / ideal


def draw(axes: Axes, spec: Spec) -> None:
    """Draw a `kind: pipeline` diagram."""
    forward = Fraction(str(spec.number("forward", 1)))
    backward = Fraction(str(spec.number("backward", 1)))
    blocks = spec.items("schedules")
    runs = []
    for block in blocks:
        runs.append(
            simulate(
                block.text("scheme"),
                block.integer("stages"),
                block.integer("microbatches"),
                block.integer("chunks", 1),
                forward,
                backward,
            )
        )
    longest = max(max(p.end for p in run) for run in runs)
    scale = (RIGHT - LEFT) / float(longest)
    top = spec.number("top", 730)
    bottom = spec.number("bottom", 90)
    block_height = (top - bottom) / len(blocks)
    for block, run in zip(blocks, runs, strict=True):
        _block(axes, spec, block, run, top, block_height, scale, forward, backward)
        top -= block_height
    fabric.notes(axes, spec)
    if spec.has("legend"):
        style.legend(axes, spec.legend())


def _block(
    axes: Axes,
    spec: Spec,
    block: Spec,
    run: list[Pass],
    top: float,
    height: float,
    scale: float,
    forward: Fraction,
    backward: Fraction,
) -> None:
    stages = block.integer("stages")
    microbatches = block.integer("microbatches")
    caption = block.text("caption", "")
    makespan = max(p.end for p in run)
    if spec.flag("bubble"):
        share = bubble_fraction(run, microbatches, forward, backward)
        caption = (
            f"{caption}   bubble = {share.numerator}/{share.denominator} of ideal time".strip()
        )
    style.text(axes, LEFT, top - 16, caption, ha="left", weight="bold")
    row = (height - 52) / stages
    for stage in range(stages):
        y = top - 44 - row * (stage + 0.5)
        style.text(axes, LEFT - 16, y, f"GPU {stage + 1}", ha="right", size=style.SMALL_SIZE + 1)
        if spec.flag("bubble"):
            axes.add_patch(
                Rectangle(
                    (LEFT, y - row * 0.42),
                    float(makespan) * scale,
                    row * 0.84,
                    facecolor=style.MARKS["bubble"],
                    edgecolor="#bbbbbb",
                    hatch="//",
                    lw=0,
                    zorder=1,
                )
            )
    for p in run:
        y = top - 44 - row * (p.stage + 0.5)
        mark = ("backward" if p.backward else "forward") + ("2" if p.chunk % 2 else "")
        x = LEFT + float(p.start) * scale
        width = float(p.end - p.start) * scale
        axes.add_patch(
            Rectangle(
                (x, y - row * 0.42),
                width,
                row * 0.84,
                facecolor=style.MARKS[mark],
                edgecolor="white",
                lw=1.5,
                zorder=3,
            )
        )
        style.text(
            axes, x + width / 2, y, str(p.microbatch + 1), size=min(18.0, width * 0.55), zorder=4
        )
