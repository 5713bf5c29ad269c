"""Each update is acted on once: an update Telegram delivers again (a polling bot restarted
before it confirmed it, a webhook answer lost after the commit) is recognised by its
`update_id` and changes nothing, however it comes back."""

from __future__ import annotations

from bot.app import RunningBot
from bot.playground.botapi import BotApiServer, FakeChat
from tests.e2e.conftest import ALICE, StartBot, StartHooked, alice_private
from tests.e2e.helpers.group import MEMBERS
from tests.fakes.clock import FakeClock

GROUP = FakeChat.supergroup(-1009300000001, "Redelivered group")


def questions_in(fake: BotApiServer, chat_id: int) -> list[int]:
    """The ids of the question messages (those with answer buttons) the bot sent the chat."""
    return [
        m.message_id
        for m in fake.bot_messages(chat_id)
        if any(d.startswith("a:") for d in m.callback_data)
    ]


async def _quiet(fake: BotApiServer, running: RunningBot) -> None:
    await running.sender.idle()
    await fake.idle()


async def test_a_polled_quiz_delivered_again_after_a_restart_asks_one_question(
    fake: BotApiServer, start_bot: StartBot
) -> None:
    """`/quiz` handled, then the bot stopped before confirming it: the next bot gets the same
    update again and recognises it; the learner has one question, not two."""
    async with start_bot() as running:
        fake.send_message(alice_private(), ALICE, "/quiz")
        update_id = fake.last_update_id
        await fake.wait_until(lambda: len(questions_in(fake, ALICE.id)) == 1, what="a question")
        await _quiet(fake, running)
    fake.redeliver(update_id)
    async with start_bot() as running:
        await fake.wait_until(lambda: not fake.pending_updates, what="the update taken again")
        await _quiet(fake, running)
        assert await running.store.was_handled(update_id)
    assert len(questions_in(fake, ALICE.id)) == 1


async def test_a_polled_press_delivered_again_is_not_answered_or_scored_twice(
    fake: BotApiServer, start_bot: StartBot
) -> None:
    """A private answer delivered again after a restart: one toast, one explanation, one
    recorded answer."""
    async with start_bot() as running:
        fake.send_message(alice_private(), ALICE, "/quiz")
        await fake.wait_until(lambda: len(questions_in(fake, ALICE.id)) == 1, what="a question")
        (message_id,) = questions_in(fake, ALICE.id)
        question = fake.message(ALICE.id, message_id)
        fake.press_button(alice_private(), ALICE, message_id, question.callback_data[0])
        update_id = fake.last_update_id
        await fake.wait_until(lambda: len(fake.calls_to("answerCallbackQuery")) == 1)
        await _quiet(fake, running)
        sent = len(fake.calls_to("sendMessage"))
    fake.redeliver(update_id)
    async with start_bot() as running:
        await fake.wait_until(lambda: not fake.pending_updates, what="the press taken again")
        await _quiet(fake, running)
        assert (await running.store.user_stats(ALICE.id, ALICE.id)).answered == 1
    assert len(fake.calls_to("answerCallbackQuery")) == 1
    assert len(fake.calls_to("sendMessage")) == sent


async def test_a_group_press_delivered_again_is_scored_once(
    fake: BotApiServer, start_bot: StartBot
) -> None:
    """A member's answer in a group, delivered again after a restart (group presses skip the
    update log): still one answer, one point."""
    member = MEMBERS[0]
    async with start_bot() as running:
        fake.send_message(GROUP, member, "/quiz")
        await fake.wait_until(lambda: len(questions_in(fake, GROUP.id)) == 1, what="a question")
        (message_id,) = questions_in(fake, GROUP.id)
        data = fake.message(GROUP.id, message_id).callback_data[0]
        fake.press_button(GROUP, member, message_id, data)
        update_id = fake.last_update_id
        await fake.wait_until(lambda: len(fake.calls_to("answerCallbackQuery")) == 1)
        await _quiet(fake, running)
    fake.redeliver(update_id)
    async with start_bot() as running:
        await fake.wait_until(lambda: not fake.pending_updates, what="the press taken again")
        await _quiet(fake, running)
        assert (await running.store.user_stats(GROUP.id, member.id)).answered == 1
        assert await running.store.answer_count(running_ask(fake, message_id)) == 1


def running_ask(fake: BotApiServer, message_id: int) -> int:
    """The ask id behind a group question's buttons."""
    data = fake.message(GROUP.id, message_id).callback_data[0]
    return int(data.split(":")[1])


async def test_a_webhook_answer_lost_after_the_commit_posts_one_question(
    fake: BotApiServer, start_hooked: StartHooked
) -> None:
    """The bot handled `/quiz` and answered 200, but the answer was lost: the fake delivers the
    update again; the bot recognises it, answers 200, and the learner has one question."""
    async with start_hooked() as running:
        fake.webhook.lose_answers = 1
        fake.send_message(alice_private(), ALICE, "/quiz")
        update_id = fake.last_update_id
        await fake.wait_until(lambda: fake.webhook.pending == 0, what="the redelivery")
        await fake.wait_until(lambda: len(questions_in(fake, ALICE.id)) >= 1, what="a question")
        await _quiet(fake, running)
        attempts = [a for a in fake.webhook.attempts if a.update_id == update_id]
        assert [a.ok for a in attempts] == [False, True]
    assert len(questions_in(fake, ALICE.id)) == 1


async def test_a_group_quiz_delivered_again_gets_no_pointer_to_its_own_question(
    fake: BotApiServer, start_hooked: StartHooked
) -> None:
    """In a group a second /quiz would get "still open"; the same /quiz delivered again gets
    nothing more: one question, no pointer."""
    async with start_hooked() as running:
        fake.webhook.lose_answers = 1
        fake.send_message(GROUP, MEMBERS[0], "/quiz")
        await fake.wait_until(lambda: fake.webhook.pending == 0, what="the redelivery")
        await fake.wait_until(lambda: len(questions_in(fake, GROUP.id)) >= 1, what="a question")
        await _quiet(fake, running)
    assert len(questions_in(fake, GROUP.id)) == 1
    assert [m for m in fake.bot_messages(GROUP.id) if "still open" in (m.text or "")] == []


async def test_records_of_handled_updates_are_forgotten_after_a_day(
    fake: BotApiServer, bot: RunningBot, clock: FakeClock
) -> None:
    """Telegram keeps an undelivered update for 24 hours; the bot remembers handled ones that
    long, then forgets them (the ticker tidies once a minute)."""
    fake.send_message(alice_private(), ALICE, "/help")
    update_id = fake.last_update_id
    await fake.wait_for_call("sendMessage")
    await _quiet(fake, bot)
    assert await bot.store.was_handled(update_id)
    clock.advance(hours=23)
    await bot.services.updates.prune()
    assert await bot.store.was_handled(update_id)
    clock.advance(hours=2)
    assert await bot.services.updates.prune() >= 1
    assert not await bot.store.was_handled(update_id)
