"""`kind: fabric`: boxes in rows joined by links, e.g. GPUs and NVSwitch chips on an HGX board,
the PCIe side of a server, or the trays of an NVL72 rack.

    rows:        # top to bottom; boxes spread evenly over `span` unless a node gives `x`
      - y: 640
        height: 70
        width: 190
        span: [80, 1120]
        nodes: [{id: sw1, label: NVSwitch 1, style: switch}]
    links:       # every `from` joined to every `to`, in a style.LINES style
      - {from: [g0, g1], to: [sw1, sw2], style: nvlink}
    groups:      # a dashed frame around some boxes
      - {members: [g0, sw1], label: HGX H100 baseboard}   # `below: true` puts the label under it
    highlight:   # links drawn over the others (the explanation's path), same form as `links`
    emphasise: [g0, g4]   # boxes drawn with a heavy orange edge
    notes:       # free text: {x, y, text, size, colour, ha}
    legend:      # [[style, label], ...] along the bottom

A node's `style` is a style.BOXES kind, or `gap` for an ellipsis between boxes.
"""

from __future__ import annotations

from dataclasses import dataclass

from matplotlib.axes import Axes

from content.diagrams import style
from content.diagrams.spec import Spec, SpecError

MARGIN = 60.0
EMPHASIS = "#d55e00"


@dataclass(frozen=True)
class Node:
    """A placed box."""

    id: str
    label: str
    kind: str
    x: float
    y: float
    width: float
    height: float
    size: float


def _nodes(spec: Spec) -> dict[str, Node]:
    nodes: dict[str, Node] = {}
    for row in spec.items("rows"):
        entries = row.items("nodes")
        x0, x1 = row.pair("span", (MARGIN, style.WIDTH - MARGIN))
        step = (x1 - x0) / len(entries) if entries else 0.0
        for index, entry in enumerate(entries):
            node_id = entry.text("id")
            if node_id in nodes:
                raise SpecError(f"{entry.where}: node id {node_id!r} is used twice")
            kind = entry.text("style", row.text("style", "plain"))
            if kind != "gap" and kind not in style.BOXES:
                raise SpecError(f"{entry.where}: unknown style {kind!r}")
            nodes[node_id] = Node(
                node_id,
                entry.text("label", ""),
                kind,
                entry.number("x", x0 + step * (index + 0.5)),
                row.number("y"),
                entry.number("width", row.number("width", step * 0.8)),
                row.number("height", 64),
                row.number("size", style.LABEL_SIZE),
            )
    return nodes


def _anchor(node: Node, other: Node) -> tuple[float, float]:
    """Where a link to `other` leaves `node`: its top or bottom edge, shifted towards `other`,
    or its side when both are in one row."""
    if abs(other.y - node.y) < 1:
        side = node.width / 2 if other.x > node.x else -node.width / 2
        return node.x + side, node.y
    reach = node.width / 2 - 10
    shift = max(-reach, min(reach, (other.x - node.x) * node.width / style.WIDTH))
    edge = node.height / 2 if other.y > node.y else -node.height / 2
    return node.x + shift, node.y + edge


def _links(axes: Axes, spec: Spec, key: str, nodes: dict[str, Node], zorder: float) -> None:
    for link in spec.items(key):
        link_style = link.text("style")
        if link_style not in style.LINES:
            raise SpecError(f"{link.where}: unknown style {link_style!r}")
        for start_id in link.texts("from"):
            for end_id in link.texts("to"):
                start, end = _node(nodes, start_id, link), _node(nodes, end_id, link)
                points = [_anchor(start, end), _anchor(end, start)]
                style.line(axes, points, link_style, zorder=zorder)
        if link.has("label"):
            x, y = link.pair("at")
            style.text(axes, x, y, link.text("label"), size=link.number("size", style.SMALL_SIZE))


def _node(nodes: dict[str, Node], node_id: str, where: Spec) -> Node:
    if node_id not in nodes:
        raise SpecError(f"{where.where}: no node with id {node_id!r}")
    return nodes[node_id]


def _groups(axes: Axes, spec: Spec, nodes: dict[str, Node]) -> None:
    for group in spec.items("groups"):
        members = [_node(nodes, member, group) for member in group.texts("members")]
        pad = group.number("pad", 18)
        top_pad = group.number("top", 46)
        style.frame(
            axes,
            min(n.x - n.width / 2 for n in members) - pad,
            min(n.y - n.height / 2 for n in members) - pad,
            max(n.x + n.width / 2 for n in members) + pad,
            max(n.y + n.height / 2 for n in members) + top_pad,
            group.text("label", ""),
            below=group.flag("below"),
        )


def notes(axes: Axes, spec: Spec) -> None:
    """Free text placed by the data: `notes: [{x, y, text, size, colour, ha, weight}]`."""
    for note in spec.items("notes"):
        style.text(
            axes,
            note.number("x"),
            note.number("y"),
            note.text("text"),
            size=note.number("size", style.SMALL_SIZE),
            ha=note.text("ha", "center"),
            colour=note.text("colour", style.TEXT),
            weight=note.text("weight", "normal"),
        )


def draw(axes: Axes, spec: Spec) -> None:
    """Draw a `kind: fabric` diagram."""
    nodes = _nodes(spec)
    _groups(axes, spec, nodes)
    _links(axes, spec, "links", nodes, zorder=2)
    _links(axes, spec, "highlight", nodes, zorder=2.5)
    emphasised = set(spec.texts("emphasise"))
    for node in nodes.values():
        if node.kind == "gap":
            style.text(axes, node.x, node.y, node.label or "…", size=node.size + 6)
            continue
        heavy = node.id in emphasised
        style.box(
            axes,
            node.x,
            node.y,
            node.width,
            node.height,
            node.label,
            node.kind,
            size=node.size,
            edge=EMPHASIS if heavy else None,
            linewidth=5.0 if heavy else 2.0,
        )
    unknown = emphasised - nodes.keys()
    if unknown:
        raise SpecError(f"{spec.where}: `emphasise` names unknown nodes {sorted(unknown)}")
    notes(axes, spec)
    if spec.has("legend"):
        style.legend(axes, spec.legend())
