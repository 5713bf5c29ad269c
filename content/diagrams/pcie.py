"""`kind: pcie`: the PCIe tree of a server, CPU sockets at the top, devices along the bottom.

    sockets:       # one tree per CPU socket; `type` is cpu, hostbridge, switch, gpu, nic or storage
      - id: cpu0
        label: CPU 0
        type: cpu
        children:
          - {id: hb0, label: HB 0, type: hostbridge, children: [{id: gpu0, label: GPU0, type: gpu}]}
    smp: UPI       # the label of the link between the sockets
    paths:         # routes drawn over the tree: {between: [gpu2, nic0], style: hot}
    codes:         # the nvidia-smi topo -m code of each pair, written under the `to` devices:
      {from: nic0, to: [gpu0, gpu1], cutoff: PXB}   # codes past `cutoff` are marked as refused
    notes, legend  # as in `kind: fabric`

The codes are computed from the tree as nvidia-smi's legend defines them (`path_code`), so a
picture and its explanation cannot disagree.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field

from matplotlib.axes import Axes

from content.diagrams import fabric, style
from content.diagrams.spec import Spec, SpecError

TYPES = {"cpu", "hostbridge", "switch", "gpu", "nic", "storage"}
BOX_KIND = {"switch": "pcie"}
# nvidia-smi topo -m codes from the closest to the farthest.
CODES = ("PIX", "PXB", "PHB", "NODE", "SYS")
TOP = 700.0
LEAF_Y = 150.0
GROUP_GAP = 0.25  # extra space, in leaf widths, between devices of different parents
SOCKET_GAP = 0.6  # ... and between sockets


@dataclass
class Device:
    """A node of the PCIe tree, placed."""

    id: str
    label: str
    type: str
    parent: Device | None
    children: list[Device] = field(default_factory=list)
    x: float = 0.0
    y: float = 0.0
    width: float = 110.0
    height: float = 60.0

    def ancestors(self) -> list[Device]:
        """This device, its parent, and so on up to its CPU."""
        chain: list[Device] = []
        node: Device | None = self
        while node is not None:
            chain.append(node)
            node = node.parent
        return chain


def _build(spec: Spec, parent: Device | None, devices: dict[str, Device]) -> Device:
    device_type = spec.text("type")
    if device_type not in TYPES:
        raise SpecError(f"{spec.where}: `type` must be one of {sorted(TYPES)}")
    device = Device(spec.text("id"), spec.text("label", ""), device_type, parent)
    if device.id in devices:
        raise SpecError(f"{spec.where}: device id {device.id!r} is used twice")
    devices[device.id] = device
    device.width = spec.number("width", 230 if device_type == "cpu" else 96)
    device.children = [_build(child, device, devices) for child in spec.items("children")]
    return device


def _leaves(device: Device) -> list[Device]:
    if not device.children:
        return [device]
    return [leaf for child in device.children for leaf in _leaves(child)]


def _depth(device: Device) -> int:
    return 1 + max((_depth(child) for child in device.children), default=0)


def _place(sockets: list[Device]) -> None:
    """Leaves along the bottom, a little apart where their parent changes and further apart
    between sockets; each parent centred over its children."""
    leaves = [leaf for socket in sockets for leaf in _leaves(socket)]
    units = [0.0]
    for before, leaf in itertools.pairwise(leaves):
        apart = 1.0 if before.parent is leaf.parent else 1.0 + GROUP_GAP
        if before.ancestors()[-1] is not leaf.ancestors()[-1]:
            apart += SOCKET_GAP
        units.append(units[-1] + apart)
    step = (style.WIDTH - 2 * fabric.MARGIN) / (units[-1] + 1)
    for leaf, unit in zip(leaves, units, strict=True):
        leaf.x = fabric.MARGIN + step * (unit + 0.5)
    levels = max(_depth(socket) for socket in sockets)
    gap = (TOP - LEAF_Y) / (levels - 1)

    def settle(device: Device, depth: int) -> None:
        device.y = LEAF_Y if not device.children else TOP - depth * gap
        for child in device.children:
            settle(child, depth + 1)
        if device.children:
            device.x = sum(child.x for child in device.children) / len(device.children)

    for socket in sockets:
        settle(socket, 0)


def _elbow(parent: Device, child: Device) -> list[tuple[float, float]]:
    top = parent.y - parent.height / 2
    bottom = child.y + child.height / 2
    middle = top - 28
    return [(parent.x, top), (parent.x, middle), (child.x, middle), (child.x, bottom)]


def path_code(first: Device, second: Device) -> str:
    """The nvidia-smi topo -m code for the PCIe path between two devices (legend: PIX at most
    one bridge, PXB several bridges and no host bridge, PHB through a host bridge, NODE
    between host bridges of one NUMA node, SYS across the link between NUMA nodes)."""
    up = first.ancestors()
    down = second.ancestors()
    common = next((node for node in up if node in down), None)
    if common is None:
        return "SYS"
    if common.type == "cpu":
        return "NODE"
    if common.type == "hostbridge":
        return "PHB"
    between = up[1 : up.index(common) + 1] + down[1 : down.index(common)]
    switches = [node for node in between if node.type == "switch"]
    return "PIX" if len(switches) <= 1 else "PXB"


def _route(first: Device, second: Device) -> list[list[tuple[float, float]]]:
    """The polylines of the tree path between two devices (through the SMP link if needed)."""
    up = first.ancestors()
    down = second.ancestors()
    common = next((node for node in up if node in down), None)
    climb = up if common is None else up[: up.index(common) + 1]
    descend = down if common is None else down[: down.index(common) + 1]
    pieces = [_elbow(parent, child) for child, parent in itertools.pairwise(climb)]
    pieces += [_elbow(parent, child) for child, parent in itertools.pairwise(descend)]
    if common is None:
        left, right = sorted((up[-1], down[-1]), key=lambda cpu: cpu.x)
        pieces.append([(left.x + left.width / 2, left.y), (right.x - right.width / 2, right.y)])
    return pieces


def draw(axes: Axes, spec: Spec) -> None:
    """Draw a `kind: pcie` diagram."""
    devices: dict[str, Device] = {}
    sockets = [_build(item, None, devices) for item in spec.items("sockets")]
    if not sockets:
        raise SpecError(f"{spec.where}: `sockets` needs at least one CPU")
    _place(sockets)
    for device in devices.values():
        for child in device.children:
            style.line(axes, _elbow(device, child), "pcie")
    for left, right in itertools.pairwise(sockets):
        style.line(
            axes, [(left.x + left.width / 2, left.y), (right.x - right.width / 2, right.y)], "smp"
        )
        style.text(
            axes,
            (left.x + right.x) / 2,
            left.y + 26,
            spec.text("smp", "UPI"),
            size=style.SMALL_SIZE,
        )
    for path in spec.items("paths"):
        ends = [_device(devices, name, path) for name in path.texts("between")]
        if len(ends) != 2:
            raise SpecError(f"{path.where}: `between` needs two device ids")
        for piece in _route(ends[0], ends[1]):
            style.line(axes, piece, path.text("style", "hot"), zorder=2.5)
    for device in devices.values():
        kind = BOX_KIND.get(device.type, device.type)
        style.box(axes, device.x, device.y, device.width, device.height, device.label, kind)
    if spec.has("codes"):
        _codes(axes, Spec(spec.data["codes"], f"{spec.where} codes"), devices)
    fabric.notes(axes, spec)
    if spec.has("legend"):
        style.legend(axes, spec.legend())


def _device(devices: dict[str, Device], name: str, where: Spec) -> Device:
    if name not in devices:
        raise SpecError(f"{where.where}: no device with id {name!r}")
    return devices[name]


def _codes(axes: Axes, spec: Spec, devices: dict[str, Device]) -> None:
    """Each `to` device's code to the `from` device, under the device; with a `cutoff`, codes
    within it are marked ✓ (green) and codes past it ✗ (orange)."""
    origin = _device(devices, spec.text("from"), spec)
    cutoff = spec.text("cutoff") if spec.has("cutoff") else None
    if cutoff is not None and cutoff not in CODES:
        raise SpecError(f"{spec.where}: `cutoff` must be one of {', '.join(CODES)}")
    for name in spec.texts("to"):
        device = _device(devices, name, spec)
        code = path_code(origin, device)
        words, colour = code, style.TEXT
        if cutoff is not None:
            allowed = CODES.index(code) <= CODES.index(cutoff)
            words = f"{code} {'✓' if allowed else '✗'}"
            colour = style.MARKS["good" if allowed else "bad"]
        style.text(axes, device.x, device.y - 58, words, colour=colour, weight="bold")
