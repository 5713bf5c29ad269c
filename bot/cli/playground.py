"""`python -m bot playground` (and `python -m bot` with no token): quizbot in the browser, against
a Bot API server inside the process; nothing reaches Telegram."""

from __future__ import annotations

import asyncio
import logging
import signal
import sys
from pathlib import Path

from pydantic import ValidationError

from bot.config import Settings, describe_settings_error
from content.loader import DeckError

FIRST_LINE = (
    "quizbot playground on http://127.0.0.1:{port} (no TELEGRAM_BOT_TOKEN: the real bot against "
    "a Telegram stand-in in this process; nothing is sent to Telegram). To run the real bot, "
    "put TELEGRAM_BOT_TOKEN=<token from @BotFather> in .env and run `make run` again."
)


async def _serve(settings: Settings, decks: list[Path]) -> list[str]:
    from bot.playground.serve import serve

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    return await serve(settings, stop, decks=decks)


def playground(decks: list[Path] | None = None) -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"quizbot: invalid configuration:\n{describe_settings_error(error)}", file=sys.stderr)
        return 2
    missing = [path for path in decks or [] if not path.is_file()]
    if missing:
        print(f"quizbot: no such deck file: {missing[0]}", file=sys.stderr)
        return 2
    print(FIRST_LINE.format(port=settings.playground_port), flush=True)
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    from bot.playground.serve import PortInUseError

    try:
        problems = asyncio.run(_serve(settings, decks or []))
    except DeckError as error:
        print(f"quizbot: the decks have problems:\n{error}", file=sys.stderr)
        return 2
    except PortInUseError as error:
        print(f"quizbot: {error}", file=sys.stderr)
        return 2
    if problems:
        print("quizbot: the deck file has problems:\n" + "\n".join(problems), file=sys.stderr)
        return 2
    return 0
