"""The quiz diagrams (content/diagrams): every data file draws, each has its PNG in
content/images/ and each PNG there its data file, and the computed parts of the drawings (PCIe
path codes, NCCL's trees and ring steps, pipeline bubbles) agree with their sources."""

from __future__ import annotations

import struct
from fractions import Fraction
from pathlib import Path

import pytest

from content.diagrams import DATA_DIR, DEFAULT_OUT, SpecError, data_files, draw, draw_all
from content.diagrams.collective import btree, dtree_parent, ring_chunk
from content.diagrams.pcie import Device, path_code
from content.diagrams.pipeline import bubble_fraction, simulate
from content.diagrams.spec import Spec, load
from content.diagrams.style import HEIGHT, WIDTH
from content.loader import MAX_IMAGE_BYTES, PNG_SIGNATURE


def png_size(path: Path) -> tuple[int, int]:
    """Width and height from a PNG's IHDR chunk."""
    header = path.read_bytes()[:24]
    assert header[:8] == PNG_SIGNATURE, f"{path.name} is not a PNG"
    width, height = struct.unpack(">II", header[16:24])
    return width, height


def test_every_data_file_draws_a_png(tmp_path: Path) -> None:
    drawn = draw_all(tmp_path)
    assert drawn, "no diagram data files"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(p.name for p in drawn)
    for png in drawn:
        assert png_size(png) == (WIDTH, HEIGHT), png.name
        assert png.stat().st_size < MAX_IMAGE_BYTES, png.name


def test_images_and_data_files_pair_up() -> None:
    data = {path.stem for path in data_files()}
    images = {path.stem for path in DEFAULT_OUT.glob("*.png")}
    assert sorted(data - images) == [], "data files without a PNG: run python -m content.diagrams"
    assert sorted(images - data) == [], "PNGs in content/images/ without a data file"


def test_drawing_is_deterministic(tmp_path: Path) -> None:
    path = DATA_DIR / "pcie-dual-socket-nic0.yaml"
    first = draw(path, tmp_path / "a").read_bytes()
    second = draw(path, tmp_path / "b").read_bytes()
    assert first == second
    assert b"tIME" not in first
    assert b"Software" not in first


def test_an_unknown_kind_names_the_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.yaml"
    path.write_text("kind: sketch\n", encoding="utf-8")
    with pytest.raises(SpecError, match=r"broken\.yaml: unknown kind 'sketch'"):
        draw(path, tmp_path)


def test_extends_overrides_the_parent_key_by_key(tmp_path: Path) -> None:
    (tmp_path / "base.yaml").write_text("kind: fabric\nrows: []\nnotes: []\n", encoding="utf-8")
    (tmp_path / "child.yaml").write_text("extends: base\nnotes: [{x: 1, y: 2, text: hi}]\n")
    data = load(tmp_path / "child.yaml")
    assert data == {"kind": "fabric", "rows": [], "notes": [{"x": 1, "y": 2, "text": "hi"}]}


def _pcie_devices() -> dict[str, Device]:
    """The devices of the pcie-dual-socket tree, by id, without drawing."""
    spec = Spec(load(DATA_DIR / "pcie-dual-socket.yaml"), "pcie-dual-socket.yaml")
    devices: dict[str, Device] = {}

    def build(item: Spec, parent: Device | None) -> None:
        device = Device(item.text("id"), item.text("label"), item.text("type"), parent)
        devices[device.id] = device
        for child in item.items("children"):
            build(child, device)

    for socket in spec.items("sockets"):
        build(socket, None)
    return devices


@pytest.mark.parametrize(
    ("first", "second", "code"),
    [
        ("gpu0", "nic0", "PIX"),  # one switch
        ("gpu2", "nic0", "PXB"),  # three switches, no host bridge
        ("gpu3", "nic0", "NODE"),  # two host bridges of one CPU
        ("gpu3", "nic1", "PIX"),
        ("gpu4", "nic0", "SYS"),  # across the link between the sockets
        ("gpu4", "nic2", "PIX"),
    ],
)
def test_pcie_path_codes_follow_the_nvidia_smi_legend(first: str, second: str, code: str) -> None:
    devices = _pcie_devices()
    assert path_code(devices[first], devices[second]) == code
    assert path_code(devices[second], devices[first]) == code


def test_a_device_on_a_host_bridge_is_phb_from_a_switch_below_it() -> None:
    cpu = Device("cpu", "", "cpu", None)
    bridge = Device("hb", "", "hostbridge", cpu)
    switch = Device("sw", "", "switch", bridge)
    gpu = Device("gpu", "", "gpu", bridge)
    nic = Device("nic", "", "nic", switch)
    assert path_code(gpu, nic) == "PHB"


def test_nccl_tree_matches_the_illustration_in_trees_cc() -> None:
    # src/graph/trees.cc draws 0 -> 8 -> (4, 12 -> out of range: 10) ... for 12 ranks.
    parents = [btree(12, rank)[0] for rank in range(12)]
    assert parents == [-1, 2, 4, 2, 8, 6, 4, 6, 0, 10, 8, 10]
    mirrored = [dtree_parent(12, rank, 2) for rank in range(12)]
    assert mirrored == [1, 3, 1, 11, 5, 7, 5, 3, 9, 7, 9, -1]


@pytest.mark.parametrize("ranks", [4, 8, 12])
def test_every_rank_is_a_leaf_in_exactly_one_of_the_two_trees(ranks: int) -> None:
    def leaves(tree: int) -> set[int]:
        parents = {dtree_parent(ranks, rank, tree) for rank in range(ranks)}
        return set(range(ranks)) - parents

    assert leaves(1) | leaves(2) == set(range(ranks))
    assert not leaves(1) & leaves(2)


@pytest.mark.parametrize("ranks", [2, 4, 8])
def test_ring_all_reduce_sends_every_chunk_twice_but_one(ranks: int) -> None:
    steps = 2 * (ranks - 1)
    for step in range(steps):
        assert sorted(ring_chunk(ranks, rank, step) for rank in range(ranks)) == list(range(ranks))
    for rank in range(ranks):
        sent = [ring_chunk(ranks, rank, step) for step in range(steps)]
        assert sent.count(rank) == 1  # its own chunk, once reduced, in the all-gather
        others = set(range(ranks)) - {rank, (rank + 1) % ranks}
        assert all(sent.count(chunk) == 2 for chunk in others)


@pytest.mark.parametrize("scheme", ["gpipe", "1f1b", "interleaved"])
@pytest.mark.parametrize(("stages", "microbatches"), [(2, 4), (4, 4), (4, 8), (8, 16)])
@pytest.mark.parametrize("backward", [Fraction(1), Fraction(2)])
def test_pipeline_bubble_is_the_ptdp_fraction(
    scheme: str, stages: int, microbatches: int, backward: Fraction
) -> None:
    chunks = 2 if scheme == "interleaved" else 1
    passes = simulate(scheme, stages, microbatches, chunks, Fraction(1), backward)
    assert len(passes) == 2 * stages * microbatches * chunks
    share = bubble_fraction(passes, microbatches, Fraction(1), backward)
    assert share == Fraction(stages - 1, chunks * microbatches)
