"""The playground's page and its small JSON API, on 127.0.0.1 only.

GET  /                  the page (static files: no build step, nothing from outside)
GET  /static/{path}     the page's files listed in STATIC (ES modules in js/, styles in css/);
                        any other path, `..` included, is 404
GET  /api/state?after=N the snapshot, once it is newer than version N (a long poll, ≤ 25 s)
GET  /api/photo/{id}    a photo the bot sent, by its file_id (the server's bytes, as PNG or
                        JPEG); an id the server did not give out is 404
POST /api/say           {"chat_id", "text"}: the person writes in a chat
POST /api/press         {"chat_id", "message_id", "data"}: the person presses a button
POST /api/link          {"url"}: a t.me link to the bot (`?start=…`) opens the private chat
POST /api/clock         {"seconds"} moves the clock forward; {"close": true} closes the group's
                        open questions (moves it to their deadline); {"to": "daily"} moves
                        it to the group's next daily question
POST /api/deck          multipart `file`: a deck file to check and, when valid, serve
POST /api/deck/choose   {"deck_id"}: both chats draw from that deck
POST /api/pace          {"accuracy", "fastest", "slowest"}: how the members answer

A POST from another origin (a page elsewhere in the person's browser) is refused.
"""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from importlib.resources import files
from typing import Any
from urllib.parse import parse_qs, urlsplit

from aiohttp import web

from bot.playground.decks import DeckRejected
from bot.playground.members import Pace
from bot.playground.session import Playground
from bot.playground.web.snapshot import Versions

SESSION: web.AppKey[Playground] = web.AppKey("session", Playground)
VERSIONS: web.AppKey[Versions] = web.AppKey("versions", Versions)
LONG_POLLS: web.AppKey[set[asyncio.Task[Any]]] = web.AppKey("long_polls")
# The files the page may load (a path under static/ → its content type): nothing else is served.
STATIC = {
    "index.html": "text/html",
    "css/base.css": "text/css",
    "css/chat.css": "text/css",
    "css/messages.css": "text/css",
    "css/panel.css": "text/css",
    "js/main.js": "text/javascript",
    "js/actions.js": "text/javascript",
    "js/api.js": "text/javascript",
    "js/chats.js": "text/javascript",
    "js/dom.js": "text/javascript",
    "js/links.js": "text/javascript",
    "js/messages.js": "text/javascript",
    "js/panel.js": "text/javascript",
    "js/state.js": "text/javascript",
    "js/text.js": "text/javascript",
    "js/views.js": "text/javascript",
}
LONG_POLL_SECONDS = 25.0
MAX_TEXT = 4096
MAX_MOVE = timedelta(days=60)


class BadInput(web.HTTPBadRequest):
    def __init__(self, reason: str) -> None:
        super().__init__(text=json.dumps({"error": reason}), content_type="application/json")


def build_app(session: Playground) -> web.Application:
    app = web.Application(middlewares=[_same_origin], client_max_size=4 * 1024 * 1024)
    app[SESSION] = session
    app[VERSIONS] = Versions()
    app.router.add_get("/", _page)
    app.router.add_get("/static/{path:.+}", _static)
    app.router.add_get("/api/state", _state)
    app.router.add_get("/api/photo/{file_id}", _photo)
    app.router.add_post("/api/say", _say)
    app.router.add_post("/api/press", _press)
    app.router.add_post("/api/link", _link)
    app.router.add_post("/api/clock", _clock)
    app.router.add_post("/api/deck", _deck)
    app.router.add_post("/api/deck/choose", _choose)
    app.router.add_post("/api/pace", _pace)
    app[LONG_POLLS] = set()
    app.on_shutdown.append(_end_long_polls)
    return app


async def _end_long_polls(app: web.Application) -> None:
    """Stopping waits for the requests being answered, and an open page always has a long poll
    waiting (up to LONG_POLL_SECONDS): those end now (the page shows it is reconnecting)."""
    for task in app[LONG_POLLS]:
        task.cancel()


@web.middleware
async def _same_origin(request: web.Request, handler: Any) -> web.StreamResponse:
    origin = request.headers.get("Origin")
    if request.method == "POST" and origin is not None and urlsplit(origin).netloc != request.host:
        raise web.HTTPForbidden(text="the playground takes commands from its own page only")
    response: web.StreamResponse = await handler(request)
    return response


def _asset(path: str) -> bytes:
    return files("bot.playground.web").joinpath("static", *path.split("/")).read_bytes()


async def _page(request: web.Request) -> web.Response:
    return web.Response(body=_asset("index.html"), content_type="text/html", charset="utf-8")


async def _static(request: web.Request) -> web.Response:
    path = request.match_info["path"]
    if path not in STATIC:
        raise web.HTTPNotFound()
    return web.Response(body=_asset(path), content_type=STATIC[path], charset="utf-8")


async def _state(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    try:
        after = int(request.query.get("after", "-1"))
    except ValueError as error:
        raise BadInput("after: a whole number") from error
    polls, task = request.app[LONG_POLLS], asyncio.current_task()
    assert task is not None
    polls.add(task)
    try:
        view = await request.app[VERSIONS].newer_than(session, after, LONG_POLL_SECONDS)
    finally:
        polls.discard(task)
    return web.json_response(view)


async def _photo(request: web.Request) -> web.Response:
    found = request.app[SESSION].server.photo_bytes(request.match_info["file_id"])
    if found is None:
        raise web.HTTPNotFound()
    data, content_type = found
    # A file_id always names the same bytes: the browser may keep them.
    headers = {"Cache-Control": "private, max-age=86400", "X-Content-Type-Options": "nosniff"}
    return web.Response(body=data, content_type=content_type, headers=headers)


async def _body(request: web.Request) -> dict[str, Any]:
    try:
        body = await request.json()
    except (json.JSONDecodeError, UnicodeDecodeError) as error:
        raise BadInput("the body is not JSON") from error
    if not isinstance(body, dict):
        raise BadInput("the body is not a JSON object")
    return body


def _int(body: dict[str, Any], name: str) -> int:
    value = body.get(name)
    if not isinstance(value, int) or isinstance(value, bool):
        raise BadInput(f"{name}: a whole number")
    return value


def _text(body: dict[str, Any], name: str, limit: int = MAX_TEXT) -> str:
    value = body.get(name)
    if not isinstance(value, str) or not value.strip() or len(value) > limit:
        raise BadInput(f"{name}: text of 1 to {limit} characters")
    return value


def _chat(session: Playground, body: dict[str, Any]) -> int:
    chat_id = _int(body, "chat_id")
    try:
        session.chat(chat_id)
    except LookupError as error:
        raise BadInput(str(error)) from error
    return chat_id


async def _say(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    body = await _body(request)
    session.say(_chat(session, body), _text(body, "text"))
    return web.json_response({"ok": True})


async def _press(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    body = await _body(request)
    chat_id = _chat(session, body)
    press = session.press(chat_id, _int(body, "message_id"), _text(body, "data", 64))
    return web.json_response({"ok": True, "query_id": press.query_id})


async def _link(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    url = urlsplit(_text(await _body(request), "url", 2048))
    bot = session.server.bot_user.username or ""
    if url.hostname not in {"t.me", "telegram.me"} or url.path.strip("/").lower() != bot.lower():
        raise BadInput("url: only links to this bot open here")
    payload = parse_qs(url.query).get("start", [""])[0]
    session.start_link(payload)
    return web.json_response({"ok": True, "chat_id": session.private.id})


async def _clock(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    body = await _body(request)
    if body.get("close") is True:
        moved = await session.close_open_questions()
    elif body.get("to") == "daily":
        found = await session.to_next_daily()
        if found is None:
            raise BadInput("no daily question is set in the group: send /daily 09:00 there")
        moved = found
    else:
        seconds = _int(body, "seconds")
        moved = timedelta(seconds=seconds)
        if not timedelta(0) < moved <= MAX_MOVE:
            raise BadInput(f"seconds: from 1 to {int(MAX_MOVE.total_seconds())}")
        await session.advance(moved)
    return web.json_response({"ok": True, "moved_seconds": int(moved.total_seconds())})


async def _deck(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    form = await request.post()
    upload = form.get("file")
    if not isinstance(upload, web.FileField):
        raise BadInput("file: a deck file (.yaml)")
    found = await session.load_deck(upload.filename, upload.file.read())
    if isinstance(found, DeckRejected):
        return web.json_response({"ok": False, "problems": found.problems})
    return web.json_response({"ok": True, "deck_id": found.id})


async def _choose(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    deck_id = _text(await _body(request), "deck_id", 200)
    if await session.choose_deck(deck_id) is None:
        raise BadInput(f"deck_id: no deck {deck_id!r}")
    return web.json_response({"ok": True})


async def _pace(request: web.Request) -> web.Response:
    session = request.app[SESSION]
    body = await _body(request)
    try:
        pace = Pace(
            accuracy=float(body.get("accuracy", session.members.pace.accuracy)),
            fastest=float(body.get("fastest", session.members.pace.fastest)),
            slowest=float(body.get("slowest", session.members.pace.slowest)),
        )
    except (TypeError, ValueError) as error:
        raise BadInput(str(error)) from error
    session.set_pace(pace)
    return web.json_response({"ok": True})
