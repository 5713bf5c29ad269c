"""The playground page's JSON API (bot.playground.web.routes): what the person can do, and bad
input refused with a clear message and no change."""

from __future__ import annotations

import asyncio
import time
from collections.abc import AsyncIterator
from pathlib import Path

import aiohttp
import pytest
from aiohttp.test_utils import TestClient, TestServer
from telegram import Bot

from bot.playground.session import GROUP, YOU, Playground
from bot.playground.web import routes
from bot.playground.web.routes import build_app
from tests.bot.playground.botapi.pictures import png


@pytest.fixture
async def client(
    session: Playground,
) -> AsyncIterator[TestClient[aiohttp.web.Request, aiohttp.web.Application]]:
    async with TestClient(TestServer(build_app(session))) as started:
        yield started


Client = TestClient[aiohttp.web.Request, aiohttp.web.Application]


async def _error(answer: aiohttp.ClientResponse) -> str:
    body = await answer.json()
    return str(body["error"])


async def test_the_page_and_its_files_are_served_and_nothing_else(client: Client) -> None:
    """/ is the page; every file under static/ is listed and served with its content type;
    any other path (one going up with `..` too) is 404."""
    assert "<title>" in await (await client.get("/")).text()
    static = Path(routes.__file__).parent / "static"
    on_disk = {path.relative_to(static).as_posix() for path in static.rglob("*") if path.is_file()}
    assert on_disk == set(routes.STATIC)
    for name, content_type in routes.STATIC.items():
        answer = await client.get(f"/static/{name}")
        assert (answer.status, answer.content_type) == (200, content_type)
    for path in (
        "/static/..%2Fsession.py",
        "/static/js/..%2F..%2Fsession.py",
        "/static/js/%2E%2E/%2E%2E/routes.py",
        "/static/js",
        "/static/js/",
        "/static/secret.txt",
        "/static/js/secret.js",
    ):
        assert (await client.get(path)).status == 404, path


async def test_state_lists_both_chats_the_commands_and_the_decks(
    client: Client, session: Playground
) -> None:
    """The snapshot has the private chat and the group, the bot's command menu, the decks."""
    state = await (await client.get("/api/state")).json()
    assert [chat["id"] for chat in state["chats"]] == [YOU.id, GROUP.id]
    assert any(command["command"] == "quiz" for command in state["commands"])
    assert [deck["id"] for deck in state["decks"]["available"]] == ["tiny"]
    assert state["members"]["names"] == ["Ada", "Grace", "Alan", "Katherine"]


async def test_saying_quiz_shows_a_question_with_letter_buttons(client: Client) -> None:
    """POST /api/say /quiz in private; the long poll returns the question with its buttons."""
    version = (await (await client.get("/api/state")).json())["version"]
    answer = await client.post("/api/say", json={"chat_id": YOU.id, "text": "/quiz"})
    assert answer.status == 200
    for _ in range(20):
        state = await (await client.get(f"/api/state?after={version}")).json()
        version = state["version"]
        private = state["chats"][0]["messages"]
        if any(message["buttons"] for message in private):
            break
    question = next(m for m in private if m["buttons"])
    assert [b["text"] for b in question["buttons"][0]] == ["A", "B", "C", "D"]
    assert question["from"]["bot"] is True


async def test_the_long_poll_waits_for_a_change(client: Client, session: Playground) -> None:
    """A poll `after` the current version waits while the bot only polls Telegram, and
    returns once something the page shows changes."""
    version = (await (await client.get("/api/state")).json())["version"]
    poll = asyncio.ensure_future(client.get(f"/api/state?after={version}"))
    since = time.monotonic()
    # Two more of the bot's long polls (each a second) begin: one ended, changing nothing shown.
    await session.server.wait_until(
        lambda: sum(c.time > since for c in session.server.calls_to("getUpdates")) >= 2, 10
    )
    assert not poll.done()
    session.say(YOU.id, "hello")
    state = await (await asyncio.wait_for(poll, 5)).json()
    assert state["version"] > version
    assert state["chats"][0]["messages"][-1]["text"] == "hello"


async def test_a_photo_is_in_the_state_and_served_by_its_file_id(
    client: Client, session: Playground
) -> None:
    """A photo the bot sent shows as its caption (text and entities), size and address; the
    address serves its bytes as PNG; an id the server never gave out is 404."""
    server = session.server
    async with Bot(server.token, base_url=f"{server.url}/bot") as bot:
        sent = await bot.send_photo(
            YOU.id, png(48, 32), caption="<b>Which</b> curve?", parse_mode="HTML"
        )
    file_id = sent.photo[-1].file_id
    state = await (await client.get("/api/state")).json()
    (view,) = [m for m in state["chats"][0]["messages"] if m["id"] == sent.message_id]
    assert (view["text"], view["entities"]) == (
        "Which curve?",
        [{"type": "bold", "offset": 0, "length": 5}],
    )
    assert view["photo"] == {
        "url": f"/api/photo/{file_id}",
        "width": 48,
        "height": 32,
        "above": False,
    }
    answer = await client.get(view["photo"]["url"])
    assert (answer.status, answer.content_type) == (200, "image/png")
    assert await answer.read() == png(48, 32)
    for path in ("/api/photo/AgAAAAB4eHh4BA", "/api/photo/..%2Fstate", "/api/photo/"):
        assert (await client.get(path)).status == 404, path


@pytest.mark.parametrize(
    ("path", "body", "error"),
    [
        ("/api/say", {"chat_id": 42, "text": "/quiz"}, "no chat 42"),
        ("/api/say", {"chat_id": YOU.id, "text": ""}, "text: text of 1 to 4096"),
        ("/api/say", {"chat_id": "1001", "text": "/quiz"}, "chat_id: a whole number"),
        ("/api/say", [1, 2], "not a JSON object"),
        ("/api/press", {"chat_id": YOU.id, "message_id": 1, "data": "x" * 65}, "data: text of"),
        ("/api/link", {"url": "https://t.me/someone_else_bot?start=x"}, "only links to this bot"),
        ("/api/link", {"url": "https://evil.example/quizbot_playground_bot"}, "only links"),
        ("/api/clock", {"seconds": -60}, "seconds: from 1 to"),
        ("/api/clock", {"seconds": 10**9}, "seconds: from 1 to"),
        ("/api/deck/choose", {"deck_id": "nope"}, "no deck 'nope'"),
        ("/api/pace", {"accuracy": 2}, "accuracy is a share"),
        ("/api/pace", {"fastest": 30, "slowest": 1}, "fastest"),
    ],
)
async def test_bad_input_is_refused_with_a_reason_and_changes_nothing(
    client: Client, session: Playground, path: str, body: object, error: str
) -> None:
    """Each bad request gets 400 and a message naming what is wrong; the page's state is as
    it was."""
    before = await (await client.get("/api/state")).json()
    answer = await client.post(path, json=body)
    assert answer.status == 400
    assert error in await _error(answer)
    after = await (await client.get("/api/state")).json()
    assert after == before


async def test_a_body_that_is_not_json_is_refused(client: Client) -> None:
    """Garbage instead of JSON: 400, said plainly."""
    answer = await client.post(
        "/api/say", data=b"{not json", headers={"Content-Type": "text/plain"}
    )
    assert answer.status == 400
    assert "not JSON" in await _error(answer)


async def test_a_post_from_another_origin_is_forbidden(client: Client, session: Playground) -> None:
    """A page elsewhere in the person's browser cannot drive the playground."""
    answer = await client.post(
        "/api/say",
        json={"chat_id": YOU.id, "text": "/quiz"},
        headers={"Origin": "https://evil.example"},
    )
    assert answer.status == 403
    assert not session.server.chat_messages(YOU.id)


async def test_a_deck_upload_that_is_broken_lists_its_problems(client: Client) -> None:
    """A broken deck file: 200 with ok false and its `file: question: field: message` lines."""
    form = aiohttp.FormData()
    form.add_field("file", b"id: x\ntitle: X\nquestions: []\n", filename="x.yaml")
    answer = await client.post("/api/deck", data=form)
    body = await answer.json()
    assert body["ok"] is False
    assert all(problem.startswith("x.yaml: ") for problem in body["problems"])
    state = await (await client.get("/api/state")).json()
    assert state["decks"]["problems"] == body["problems"]
