""" "Choose N" questions end to end: letters picked and unpicked, Submit, all-or-nothing
scoring, in a private chat (the keyboard ticks the picks) and in a group (each member's picks
are theirs; the reveal marks every right option); forged, stale and repeated presses."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from random import Random

import pytest
import yaml

from bot.app import RunningBot, running_bot
from bot.config import Settings
from bot.core.model import Ask
from bot.playground.botapi import BotApiServer, StoredMessage
from tests.e2e.conftest import ALICE, alice_private, wait_for_polling
from tests.e2e.helpers.group import GROUP, MEMBERS, TOPIC, close_open_questions, group_quiz
from tests.fakes.clock import FakeClock

RIGHT = ("NVLink", "NVSwitch")


def _deck() -> dict[str, object]:
    question = {
        "topic": "interconnects",
        "text": "Which carry GPU-to-GPU traffic inside an HGX H100 board? Choose two.",
        "answers": list(RIGHT),
        "wrong": ["InfiniBand NDR", "RoCE v2"],
        "explanation": "NVLink links each GPU to the NVSwitch chips on the board.",
    }
    return {
        "id": "pairs",
        "title": "Pairs",
        "source": "tests",
        "questions": [question | {"id": f"q{i}"} for i in range(3)],
    }


@pytest.fixture
async def pairs(
    settings: Settings, clock: FakeClock, fake: BotApiServer, tmp_path: Path
) -> AsyncIterator[RunningBot]:
    """The bot on a deck of "choose two" questions only."""
    folder = tmp_path / "decks"
    folder.mkdir()
    (folder / "pairs.yaml").write_text(yaml.safe_dump(_deck()), encoding="utf-8")
    only = settings.model_copy(update={"content_dir": folder, "default_deck": "pairs"})
    async with running_bot(only, clock=clock, poll_timeout=1, rng=Random(5)) as running:
        await wait_for_polling(fake)
        yield running


async def _ask(bot: RunningBot, question: StoredMessage) -> Ask:
    ask = await bot.store.get_ask(int(question.callback_data[0].split(":")[1]))
    assert ask is not None
    return ask


def _letter_data(question: StoredMessage, letter: str) -> str:
    return next(
        str(b["callback_data"])
        for b in question.buttons
        if b.get("text", "").removeprefix("✓ ") == letter
    )


def _letters(ask: Ask, right: bool) -> list[str]:
    chosen = ask.right_positions if right else frozenset(range(4)) - ask.right_positions
    return ["ABCD"[p] for p in sorted(chosen)]


async def _press(fake: BotApiServer, chat: object, user: object, message: int, data: str) -> str:
    query = fake.press_button(chat, user, message, data)  # type: ignore[arg-type]
    return (await fake.callback_answer(query)).text or ""


async def _private_question(fake: BotApiServer) -> StoredMessage:
    since = len(fake.calls)
    fake.send_message(alice_private(), ALICE, "/quiz")
    call = await fake.wait_for_call("sendMessage", since=since)
    return fake.message(ALICE.id, call.result["message_id"])


async def test_private_picks_are_ticked_and_a_right_submit_scores(
    fake: BotApiServer, pairs: RunningBot
) -> None:
    """Two right letters picked (the keyboard ticks them), Submit: correct, both marked ✅,
    the explanation names both."""
    question = await _private_question(fake)
    assert [b["text"] for b in question.keyboard[1]] == ["Submit"]
    assert "Pick 2 letters" in (question.text or "")
    ask = await _ask(pairs, question)
    first, second = _letters(ask, right=True)
    assert await _press(
        fake, alice_private(), ALICE, question.message_id, _letter_data(question, first)
    ) == (f"Picked {first}: pick 1 more.")
    toast = await _press(
        fake, alice_private(), ALICE, question.message_id, _letter_data(question, second)
    )
    assert toast == f"Picked {first}, {second}: press Submit."
    await fake.idle()
    ticked = [b["text"] for b in fake.message(ALICE.id, question.message_id).keyboard[0]]
    assert f"✓ {first}" in ticked
    assert f"✓ {second}" in ticked
    submit = fake.message(ALICE.id, question.message_id).button("Submit")
    assert await _press(fake, alice_private(), ALICE, question.message_id, submit) == "✅ Correct"
    await fake.idle()
    marked = fake.message(ALICE.id, question.message_id).text or ""
    assert marked.count("✅") == 2
    assert not fake.message(ALICE.id, question.message_id).callback_data
    explanation = fake.bot_messages(ALICE.id)[-1].text or ""
    assert "Correct" in explanation
    stored = await pairs.store.get_answer(ask.id, ALICE.id)
    assert stored is not None
    assert stored.correct
    assert stored.positions == ask.right_positions


async def test_private_half_right_is_wrong_and_submit_needs_exactly_n(
    fake: BotApiServer, pairs: RunningBot
) -> None:
    """Submit with one pick is refused (nothing recorded); one right and one wrong is wrong,
    and the toast names both right letters; a second Submit says it was answered."""
    question = await _private_question(fake)
    ask = await _ask(pairs, question)
    right, wrong = _letters(ask, right=True)[0], _letters(ask, right=False)[0]
    chat, message = alice_private(), question.message_id
    await _press(fake, chat, ALICE, message, _letter_data(question, right))
    submit = question.button("Submit")
    assert "Pick exactly 2" in await _press(fake, chat, ALICE, message, submit)
    assert await pairs.store.get_answer(ask.id, ALICE.id) is None
    await _press(fake, chat, ALICE, message, _letter_data(question, wrong))
    both = ", ".join(_letters(ask, right=True))
    assert await _press(fake, chat, ALICE, message, submit) == f"❌ Not quite — it was {both}"
    again = await _press(fake, chat, ALICE, message, submit)
    assert again.startswith("You already answered")
    stored = await pairs.store.get_answer(ask.id, ALICE.id)
    assert stored is not None
    assert not stored.correct


async def test_unpicking_a_letter_takes_it_back(fake: BotApiServer, pairs: RunningBot) -> None:
    """A letter pressed twice is picked, then unpicked."""
    question = await _private_question(fake)
    data = _letter_data(question, "A")
    chat, message = alice_private(), question.message_id
    assert await _press(fake, chat, ALICE, message, data) == "Picked A: pick 1 more."
    assert await _press(fake, chat, ALICE, message, data) == "Nothing picked. Pick 2, then Submit."


async def test_forged_and_foreign_picks_are_refused_and_write_nothing(
    fake: BotApiServer, pairs: RunningBot
) -> None:
    """A pick for another chat's question, a position past the options, a Submit on an unknown
    ask: a polite alert each, and no picks stored."""
    question = await _private_question(fake)
    ask = await _ask(pairs, question)
    chat, message = alice_private(), question.message_id
    for data in (f"p:{ask.id}:7", f"s:{ask.id + 1000}", f"p:{ask.id}:x", "s:"):
        assert "doesn't belong" in await _press(fake, chat, ALICE, message, data)
    bob = MEMBERS[1]
    assert "doesn't belong" in await _press(fake, GROUP, bob, message, _letter_data(question, "A"))
    assert await pairs.store.picks_of(ask.id, ALICE.id) == frozenset()
    assert await pairs.store.picks_of(ask.id, bob.id) == frozenset()


async def test_group_members_pick_their_own_and_the_reveal_marks_both(
    fake: BotApiServer, pairs: RunningBot, clock: FakeClock
) -> None:
    """In a group the question says how to answer it; each member's picks are theirs (toasts,
    the shared keyboard unchanged): one right, one wrong; the reveal marks both right options
    and counts one right."""
    question = await group_quiz(fake, MEMBERS[0], thread=TOPIC)
    assert "☑️ <i>Pick 2 letters, then press Submit.</i>\n\n👥 0 answered" in (question.text or "")
    ask = await _ask(pairs, question)
    right, wrong = _letters(ask, right=True), _letters(ask, right=False)
    submit = question.button("Submit")
    for member, letters in ((MEMBERS[0], right), (MEMBERS[1], [right[0], wrong[0]])):
        for letter in letters:
            await _press(fake, GROUP, member, question.message_id, _letter_data(question, letter))
    assert "Correct" in await _press(fake, GROUP, MEMBERS[0], question.message_id, submit)
    assert "Not quite" in await _press(fake, GROUP, MEMBERS[1], question.message_id, submit)
    assert [b["text"] for b in fake.message(GROUP.id, question.message_id).keyboard[0]] == list(
        "ABCD"
    )
    await close_open_questions(fake, pairs, clock)
    revealed = fake.message(GROUP.id, question.message_id).text or ""
    assert revealed.count("✅") == 2
    assert "2 answered · 1 right" in revealed
    late = await _press(fake, GROUP, MEMBERS[2], question.message_id, submit)
    assert late.startswith("This question has closed — the answer was")
