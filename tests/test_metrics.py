"""bot.metrics: names, labels and what each recording function counts.

The registry is process-wide, so every test compares a value before and after what it does.
"""

from __future__ import annotations

from datetime import UTC, datetime

import prometheus_client
import pytest
from prometheus_client.parser import text_string_to_metric_families
from telegram import (
    CallbackQuery,
    Chat,
    ChatMemberLeft,
    ChatMemberMember,
    ChatMemberUpdated,
    Message,
    Update,
    User,
)

from bot import metrics

USER = User(1001, "Alice", is_bot=False)
CHAT = Chat(1001, Chat.PRIVATE)
NOW = datetime(2025, 1, 1, tzinfo=UTC)
API = "https://api.telegram.org/bot123:ABC"


def value(name: str, **labels: str) -> float:
    found = metrics.REGISTRY.get_sample_value(name, labels)
    return 0.0 if found is None else found


def _families() -> dict[str, set[tuple[tuple[str, str], ...]]]:
    body, _ = metrics.render_latest()
    return {
        family.name: {tuple(sorted(s.labels.items())) for s in family.samples}
        for family in text_string_to_metric_families(body.decode())
    }


def test_render_latest_is_the_prometheus_text_format_with_every_quizbot_metric() -> None:
    """/metrics' body parses as Prometheus text, with its content type, naming every metric."""
    body, content_type = metrics.render_latest()
    assert content_type == prometheus_client.CONTENT_TYPE_LATEST
    assert content_type.startswith("text/plain")
    families = _families()
    assert {
        "quizbot_updates_handled",
        "quizbot_answers_recorded",
        "quizbot_messages_sent",
        "quizbot_telegram_429",
        "quizbot_pending_sends",
        "quizbot_owed_messages_sent",
        "quizbot_pending_bulk_chats",
        "quizbot_leader",
    } <= families.keys()
    assert b"# TYPE quizbot_updates_handled_total counter" in body
    assert b"# TYPE quizbot_leader gauge" in body


def test_label_values_known_in_advance_are_exported_at_zero_from_the_start() -> None:
    """Every update kind and chat type is a series before anything happens."""
    families = _families()
    kinds = {dict(labels).get("kind") for labels in families["quizbot_updates_handled"]}
    assert kinds >= {"message", "callback_query", "my_chat_member", "other"}
    chat_types = {dict(labels).get("chat_type") for labels in families["quizbot_answers_recorded"]}
    assert chat_types >= {"private", "group"}


def test_registry_is_quizbots_own_with_the_process_collectors() -> None:
    """quizbot's metrics are not in prometheus_client's global registry; process_* metrics are
    in quizbot's."""
    global_names = {
        family.name
        for family in text_string_to_metric_families(
            prometheus_client.generate_latest(prometheus_client.REGISTRY).decode()
        )
    }
    assert not {name for name in global_names if name.startswith("quizbot_")}
    assert "process_cpu_seconds" in _families()


def _message_update() -> Update:
    return Update(1, message=Message(1, NOW, CHAT, from_user=USER, text="/quiz"))


def _callback_update() -> Update:
    return Update(2, callback_query=CallbackQuery("q1", USER, "instance", data="a:1:0"))


def _member_update() -> Update:
    change = ChatMemberUpdated(
        Chat(-5, Chat.GROUP), USER, NOW, ChatMemberLeft(USER), ChatMemberMember(USER)
    )
    return Update(3, my_chat_member=change)


def _edited_update() -> Update:
    return Update(4, edited_message=Message(1, NOW, CHAT, from_user=USER, text="/quiz"))


@pytest.mark.parametrize(
    ("make", "kind"),
    [
        (_message_update, "message"),
        (_callback_update, "callback_query"),
        (_member_update, "my_chat_member"),
        (_edited_update, "other"),
    ],
)
async def test_update_handled_counts_each_update_once_under_its_kind(make, kind) -> None:
    """A message, a button press, a membership change and anything else each count by kind."""
    before = {k: value("quizbot_updates_handled_total", kind=k) for k in metrics.UPDATE_KINDS}
    await metrics.update_handled(make(), None)
    after = {k: value("quizbot_updates_handled_total", kind=k) for k in metrics.UPDATE_KINDS}
    assert {k: after[k] - before[k] for k in after} == {
        k: 1.0 if k == kind else 0.0 for k in metrics.UPDATE_KINDS
    }


@pytest.mark.parametrize(
    ("telegram_type", "chat_type"),
    [("private", "private"), ("group", "group"), ("supergroup", "group")],
)
def test_answer_recorded_counts_supergroups_as_groups(telegram_type, chat_type) -> None:
    """An answer counts under private, or under group for groups and supergroups alike."""
    before = value("quizbot_answers_recorded_total", chat_type=chat_type)
    metrics.answer_recorded(telegram_type)
    assert value("quizbot_answers_recorded_total", chat_type=chat_type) == before + 1


def test_a_2xx_answer_counts_as_sent_under_its_api_method() -> None:
    """A successful Bot API call counts under the method named at the end of its URL."""
    before = value("quizbot_messages_sent_total", method="editMessageText")
    floods = value("quizbot_telegram_429_total", method="editMessageText")
    metrics.request_done(f"{API}/editMessageText", 200)
    assert value("quizbot_messages_sent_total", method="editMessageText") == before + 1
    assert value("quizbot_telegram_429_total", method="editMessageText") == floods


def test_a_429_counts_as_flood_control_not_as_sent() -> None:
    """429 Too Many Requests counts in quizbot_telegram_429_total only."""
    sent = value("quizbot_messages_sent_total", method="answerCallbackQuery")
    refused = value("quizbot_telegram_429_total", method="answerCallbackQuery")
    metrics.request_done(f"{API}/answerCallbackQuery", 429)
    assert value("quizbot_messages_sent_total", method="answerCallbackQuery") == sent
    assert value("quizbot_telegram_429_total", method="answerCallbackQuery") == refused + 1


@pytest.mark.parametrize("status", [400, 403, 500, 502])
def test_other_failures_count_nowhere(status: int) -> None:
    """Errors other than 429 are neither sent nor flood control."""
    sent = value("quizbot_messages_sent_total", method="sendPhoto")
    refused = value("quizbot_telegram_429_total", method="sendPhoto")
    metrics.request_done(f"{API}/sendPhoto", status)
    assert value("quizbot_messages_sent_total", method="sendPhoto") == sent
    assert value("quizbot_telegram_429_total", method="sendPhoto") == refused


def test_file_downloads_share_one_label_instead_of_one_per_file() -> None:
    """A file URL counts as method "file", so file paths never become label values."""
    before = value("quizbot_messages_sent_total", method="file")
    metrics.request_done("https://api.telegram.org/file/bot123:ABC/photos/file_0.jpg", 200)
    assert value("quizbot_messages_sent_total", method="file") == before + 1
    assert value("quizbot_messages_sent_total", method="file_0.jpg") == 0


def test_pending_sends_is_the_last_scans_figure() -> None:
    """Each scan replaces the gauge's value."""
    metrics.set_pending_sends(7)
    metrics.set_pending_sends(3)
    assert value("quizbot_pending_sends") == 3


def test_leader_gauge_follows_set_leader() -> None:
    """set_leader(True) exports 1, set_leader(False) 0."""
    metrics.set_leader(True)
    assert value("quizbot_leader") == 1
    metrics.set_leader(False)
    assert value("quizbot_leader") == 0


def test_owed_messages_are_counted_by_kind_and_the_bulk_backlog_is_a_gauge() -> None:
    """Each owed message Telegram took counts under its kind (a fan-out's pushes as `daily`);
    the chats still owed bulk messages are set, not added up."""
    daily = value("quizbot_owed_messages_sent_total", kind="daily")
    reply = value("quizbot_owed_messages_sent_total", kind="reply")
    for _ in range(3):
        metrics.owed_sent("daily")
    metrics.owed_sent("reply")
    assert value("quizbot_owed_messages_sent_total", kind="daily") == daily + 3
    assert value("quizbot_owed_messages_sent_total", kind="reply") == reply + 1
    metrics.set_pending_bulk(500)
    metrics.set_pending_bulk(12)
    assert value("quizbot_pending_bulk_chats") == 12
    metrics.set_pending_bulk(0)
    assert value("quizbot_pending_bulk_chats") == 0
