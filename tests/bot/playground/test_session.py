"""The playground's session: the real bot against the in-process server, members who answer,
a clock that closes questions and brings the daily one, decks an author loads."""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path

import yaml

from bot.config import Settings
from bot.playground.decks import DeckRejected
from bot.playground.members import Pace
from bot.playground.session import GROUP, YOU, Playground
from content.loader import DEFAULT_CONTENT_DIR
from tests.bot.playground.conftest import deck_yaml


def _members_answers(session: Playground) -> list[str]:
    """The alerts the members' presses got (the person's are not among them)."""
    mine = {press.query_id for press in session.state.presses}
    return [
        answer.text or ""
        for query_id, answer in session.server.callback_answers.items()
        if query_id not in mine
    ]


def _open_questions(session: Playground) -> list[int]:
    return [m.message_id for m in session.server.bot_messages(GROUP.id) if m.callback_data]


async def _group_question(session: Playground) -> int:
    session.say(GROUP.id, "/quiz")
    await session.server.wait_until(lambda: bool(_open_questions(session)), 10)
    return _open_questions(session)[0]


async def test_members_answer_a_group_question_once_each_at_their_accuracy(
    session: Playground,
) -> None:
    """Four members, accuracy 100%: four presses, each told it was right."""
    await _group_question(session)
    await session.server.wait_until(lambda: len(_members_answers(session)) == 4, 10)
    assert all(text.startswith("✅") for text in _members_answers(session))


async def test_members_at_zero_accuracy_are_all_wrong(session: Playground) -> None:
    """Accuracy 0%: every member's press is a wrong option."""
    session.set_pace(Pace(accuracy=0.0, fastest=0.0, slowest=0.05))
    await _group_question(session)
    await session.server.wait_until(lambda: len(_members_answers(session)) == 4, 10)
    assert not any(text.startswith("✅") for text in _members_answers(session))


async def test_closing_open_questions_moves_the_clock_and_reveals_them(
    session: Playground,
) -> None:
    """The clock jumps past the group question's deadline; the bot closes and reveals it."""
    question = await _group_question(session)
    moved = await session.close_open_questions()
    assert moved >= timedelta(seconds=session.settings.quiz_open_seconds - 5)
    await session.server.wait_until(lambda: not _open_questions(session), 10)
    revealed = session.server.message(GROUP.id, question)
    assert revealed.edit_count >= 1
    assert "💡" in revealed.shown_text


async def test_moving_to_the_next_daily_slot_brings_the_daily_question(
    session: Playground,
) -> None:
    """/daily set by the person (an admin there); the clock moved to its slot; the question."""
    session.say(GROUP.id, "/daily 09:00 UTC")
    await session.server.wait_until(
        lambda: any("09:00" in m.shown_text for m in session.server.bot_messages(GROUP.id)),
        10,
    )
    moved = await session.to_next_daily()
    assert moved is not None
    assert timedelta(0) < moved <= timedelta(days=1, seconds=1)
    await session.server.wait_until(lambda: bool(_open_questions(session)), 10)


async def test_a_day_forward_passes_through_the_daily_slot_in_time(session: Playground) -> None:
    """+1 day steps through the slot an hour at most at a time: the day's question is posted
    (not skipped as missed)."""
    session.say(GROUP.id, "/daily 09:00 UTC")
    await session.server.wait_until(lambda: bool(session.server.bot_messages(GROUP.id)), 10)
    await session.advance(timedelta(days=1))
    await session.server.wait_until(
        lambda: any(
            any(d.startswith("a:") for d in m.callback_data) or "💡" in m.shown_text
            for m in session.server.bot_messages(GROUP.id)
        ),
        10,
    )


async def test_a_loaded_deck_is_served_in_both_chats(session: Playground) -> None:
    """A valid deck file joins the folder, the bot restarts on it, and /quiz asks from it."""
    loaded = await session.load_deck("mine.yaml", deck_yaml("mine", "Mine").encode())
    assert not isinstance(loaded, DeckRejected)
    assert loaded.id == "mine"
    for chat in (session.private, session.group):
        assert (await session.bot.services.chats.deck_for(chat.id)).id == "mine"
    session.say(session.private.id, "/quiz")
    await session.server.wait_until(
        lambda: any("Mine" in m.shown_text for m in session.server.bot_messages(YOU.id)),
        10,
    )


async def test_a_broken_deck_is_refused_with_its_problems_and_changes_nothing(
    session: Playground,
) -> None:
    """A deck with a question of one option: its problem names the file as given, the
    question and the field; the folder and the bot are as they were."""
    before = sorted(path.name for path in session.decks.folder.iterdir())
    bot = session.bot
    found = await session.load_deck("broken.yaml", deck_yaml("broken", wrong=0).encode())
    assert isinstance(found, DeckRejected)
    assert any(problem.startswith("broken.yaml: q0: ") for problem in found.problems)
    assert session.state.deck_problems == found.problems
    assert sorted(path.name for path in session.decks.folder.iterdir()) == before
    assert session.bot is bot


async def test_a_file_that_is_not_yaml_is_refused_by_name(session: Playground) -> None:
    """Only .yaml/.yml files are decks."""
    found = await session.load_deck("notes.txt", b"hello")
    assert isinstance(found, DeckRejected)
    assert found.problems == ["notes.txt: -: -: not a deck file (a .yaml or .yml file)"]


async def test_a_start_link_opens_the_private_chat_with_its_payload(session: Playground) -> None:
    """A t.me link to the bot sends /start PAYLOAD in the private chat, as Telegram does."""
    session.start_link("review")
    await session.server.wait_until(lambda: bool(session.server.bot_messages(YOU.id)), 10)
    sent = [m.text for m in session.server.chat_messages(YOU.id) if not m.from_bot]
    assert sent == ["/start review"]


def test_the_bot_is_pointed_at_the_playground_only(
    session: Playground, settings: Settings, tmp_path: Path
) -> None:
    """Its database is the playground's own file, its Bot API the in-process server."""
    used = session.bot_settings()
    assert used.database == str(tmp_path / "playground" / "quizbot.sqlite3")
    assert used.database != settings.database
    assert str(used.api_base_url).startswith("http://127.0.0.1:")
    assert used.webhook_url is None
    assert not Path(settings.database).exists()


def _deck_with_image(folder: Path, image: bytes | None) -> Path:
    """mine.yaml in `folder`, its one question showing images/ring.png (written when given)."""
    deck = yaml.safe_load(deck_yaml("mine", "Mine", questions=1))
    deck["questions"][0]["image"] = "images/ring.png"
    folder.mkdir()
    if image is not None:
        (folder / "images").mkdir()
        (folder / "images" / "ring.png").write_bytes(image)
    path = folder / "mine.yaml"
    path.write_text(yaml.safe_dump(deck, sort_keys=False), encoding="utf-8")
    return path


async def test_a_deck_file_from_disk_brings_its_images(session: Playground, tmp_path: Path) -> None:
    """`--deck PATH`: the PNGs the deck names beside it come along, and /quiz shows them."""
    image = next((DEFAULT_CONTENT_DIR / "images").glob("*.png")).read_bytes()
    loaded = await session.load_deck_file(_deck_with_image(tmp_path / "mine", image))
    assert not isinstance(loaded, DeckRejected)
    session.say(session.private.id, "/quiz")
    await session.server.wait_until(
        lambda: any(m.photo_file_id for m in session.server.bot_messages(YOU.id)), 10
    )
    [photo] = [m for m in session.server.bot_messages(YOU.id) if m.photo_file_id]
    assert session.server.photo_bytes(photo.photo_file_id or "") == (image, "image/png")


async def test_a_deck_file_from_disk_without_its_image_is_refused(
    session: Playground, tmp_path: Path
) -> None:
    """A missing image is the deck's problem, named by file, question and field."""
    found = await session.load_deck_file(_deck_with_image(tmp_path / "mine", None))
    assert isinstance(found, DeckRejected)
    assert found.problems == ["mine.yaml: q0: image: no file images/ring.png beside the deck"]


def _choose_two_yaml() -> bytes:
    """A deck of one "choose two" question (right: Right 1 and Right 2)."""
    deck = yaml.safe_load(deck_yaml("two", "Two", questions=1))
    only = deck["questions"][0]
    del only["answer"]
    only["text"] = "Which two are right? Choose two."
    only["answers"] = ["Right 1", "Right 2"]
    return yaml.safe_dump(deck, sort_keys=False).encode()


def _verdicts(session: Playground) -> list[str]:
    """The members' results (their pick toasts left out)."""
    return [t for t in _members_answers(session) if t.startswith(("✅", "❌"))]


async def test_members_pick_and_submit_a_choose_two_question(session: Playground) -> None:
    """Accuracy 100%: each member picks both right letters, then Submit, and is right."""
    assert not isinstance(await session.load_deck("two.yaml", _choose_two_yaml()), DeckRejected)
    await _group_question(session)
    await session.server.wait_until(lambda: len(_verdicts(session)) == 4, 10)
    assert all(text.startswith("✅") for text in _verdicts(session))


async def test_members_at_zero_accuracy_submit_a_wrong_pair(session: Playground) -> None:
    """Accuracy 0%: every member submits two letters with a wrong one among them."""
    session.set_pace(Pace(accuracy=0.0, fastest=0.0, slowest=0.05))
    assert not isinstance(await session.load_deck("two.yaml", _choose_two_yaml()), DeckRejected)
    await _group_question(session)
    await session.server.wait_until(lambda: len(_verdicts(session)) == 4, 10)
    assert all(text.startswith("❌") for text in _verdicts(session))


async def test_closing_open_questions_closes_a_choose_two_question(session: Playground) -> None:
    """The clock's jump finds a "choose N" question's deadline too (its buttons are picks)."""
    session.set_pace(Pace(accuracy=1.0, fastest=500.0, slowest=600.0))
    assert not isinstance(await session.load_deck("two.yaml", _choose_two_yaml()), DeckRejected)
    question = await _group_question(session)
    assert await session.close_open_questions() > timedelta(0)
    await session.server.wait_until(lambda: not _open_questions(session), 10)
    assert "💡" in session.server.message(GROUP.id, question).shown_text
