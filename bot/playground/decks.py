"""The playground's own deck folder: the shipped decks, and any deck file the person loads,
checked as the bot checks decks at start-up."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

from content.loader import DECK_SUFFIXES, DeckError, load_deck, load_decks
from content.models import Deck

MAX_DECK_BYTES = 2 * 1024 * 1024
IMAGES = "images"


@dataclass(frozen=True)
class DeckRejected:
    """A deck file that cannot be used: each problem as `file: question: field: message`."""

    problems: list[str]


class DeckFolder:
    """A folder the playground's bot reads its decks from (never the repository's)."""

    def __init__(self, folder: Path, shipped: Path) -> None:
        self.folder = folder
        if folder.exists():
            shutil.rmtree(folder)
        folder.mkdir(parents=True)
        for path in sorted(shipped.iterdir()):
            if path.suffix in DECK_SUFFIXES and path.is_file():
                shutil.copyfile(path, folder / path.name)
        if (shipped / IMAGES).is_dir():  # the diagrams the shipped decks show
            shutil.copytree(shipped / IMAGES, folder / IMAGES)
        self._decks: dict[str, Deck] | None = None  # loaded once, and again after a change

    def decks(self) -> dict[str, Deck]:
        """The folder's decks by id (parsing every file takes a while: kept until `add`)."""
        if self._decks is None:
            self._decks = load_decks(self.folder)
        return self._decks

    def add(self, name: str, content: bytes) -> Deck | DeckRejected:
        """Check the file `name` (its bytes `content`); when it is a valid deck, it joins the
        folder, replacing a deck of the same id. A rejected file changes nothing."""
        safe = Path(name).name
        if Path(safe).suffix not in DECK_SUFFIXES:
            return DeckRejected([f"{safe}: -: -: not a deck file (a .yaml or .yml file)"])
        if len(content) > MAX_DECK_BYTES:
            return DeckRejected([f"{safe}: -: -: larger than {MAX_DECK_BYTES // 1024} KiB"])
        # Checked beside the decks (its images are looked for there), under a name the bot
        # never loads (not *.yaml).
        candidate = self.folder / f"{safe}.checking"
        candidate.write_bytes(content)
        try:
            deck = load_deck(candidate)
        except DeckError as error:
            return DeckRejected(
                [_named(str(problem), candidate, safe) for problem in error.problems]
            )
        finally:
            candidate.unlink(missing_ok=True)
        for path in self.folder.iterdir():
            if path.suffix in DECK_SUFFIXES and _deck_id(path) == deck.id:
                path.unlink()
        (self.folder / f"{deck.id}{Path(safe).suffix}").write_bytes(content)
        self._decks = None
        return deck

    def add_file(self, path: Path) -> Deck | DeckRejected:
        """A deck file on disk: checked where it is (its images beside it), then added as
        :meth:`add` adds one, with the images it names copied along."""
        try:
            deck = load_deck(path)
        except DeckError as error:
            return DeckRejected([str(problem) for problem in error.problems])
        content = path.read_bytes()
        if len(content) <= MAX_DECK_BYTES:
            _copy_images(deck, path, self.folder)
        return self.add(path.name, content)


def _copy_images(deck: Deck, source: Path, folder: Path) -> None:
    """The images `deck` names, from beside its file `source` to the same places in `folder`
    (the loader has checked they are PNG files below the deck's folder)."""
    for question in deck.questions:
        for name in (question.image, question.explanation_image):
            if name is not None:
                target = folder / name
                target.parent.mkdir(parents=True, exist_ok=True)
                shutil.copyfile(source.parent / name, target)


def _named(problem: str, candidate: Path, name: str) -> str:
    """The problem with the file as the person named it, not the playground's copy."""
    return problem.replace(candidate.name, name)


def _deck_id(path: Path) -> str | None:
    try:
        return load_deck(path).id
    except DeckError:
        return None
