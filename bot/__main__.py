"""`python -m bot` runs the bot; `import-deck` and `check-decks` help deck authors."""

from __future__ import annotations

import argparse
import asyncio
import logging
import signal
import sys
from pathlib import Path

from pydantic import ValidationError
from telegram.error import InvalidToken, NetworkError

from bot.config import TOKEN_HELP, Settings, describe_settings_error
from content.importer import PracticeTestFormatError, parse_practice_test, to_yaml
from content.loader import DEFAULT_CONTENT_DIR, DeckError, check_decks


class RedactSecret(logging.Filter):
    """Keeps the token out of every log line, whichever library writes it."""

    def __init__(self, secret: str) -> None:
        super().__init__()
        self.secret = secret

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self.secret in message:
            record.msg, record.args = message.replace(self.secret, "<token>"), None
        return True


def _configure_logging(level: str, token: str) -> None:
    logging.basicConfig(level=level, format="%(asctime)s %(levelname)s %(name)s: %(message)s")
    for handler in logging.getLogger().handlers:
        handler.addFilter(RedactSecret(token))
    # httpx logs every request URL at INFO, and Bot API URLs contain the token.
    logging.getLogger("httpx").setLevel(logging.WARNING)


async def _serve(settings: Settings) -> None:
    from bot.app import run_until

    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    await run_until(settings, stop)


def run() -> int:
    try:
        settings = Settings()
    except ValidationError as error:
        print(f"quizbot: invalid configuration:\n{describe_settings_error(error)}", file=sys.stderr)
        return 2
    if settings.telegram_bot_token is None:
        print(f"quizbot: {TOKEN_HELP}", file=sys.stderr)
        return 2
    _configure_logging(settings.log_level, settings.telegram_bot_token.get_secret_value())
    from bot.app import SchemaTooNewError

    try:
        asyncio.run(_serve(settings))
    except DeckError as error:
        print(f"quizbot: the decks have problems:\n{error}", file=sys.stderr)
        return 2
    except SchemaTooNewError as error:
        print(f"quizbot: {error}", file=sys.stderr)
        return 2
    except InvalidToken:
        print(
            "quizbot: Telegram rejected TELEGRAM_BOT_TOKEN; check it with @BotFather.",
            file=sys.stderr,
        )
        return 2
    except NetworkError as error:
        print(f"quizbot: cannot reach the Bot API: {error}", file=sys.stderr)
        return 1
    return 0


def import_deck(source: Path, output: Path | None) -> int:
    try:
        deck = parse_practice_test(source.read_text(encoding="utf-8"))
    except (OSError, PracticeTestFormatError) as error:
        print(f"{source}: {error}", file=sys.stderr)
        return 1
    text = to_yaml(deck)
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        print(f"wrote {output}: {len(deck.questions)} questions; fill in each `wrong:` list")
    return 0


def check(directory: Path) -> int:
    problems = check_decks(directory)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {directory}", file=sys.stderr)
        return 1
    print(f"all decks in {directory} are valid")
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the bot (the default)")
    importer = commands.add_parser("import-deck", help="turn a practice test into a deck YAML")
    importer.add_argument("file", type=Path)
    importer.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    checker = commands.add_parser("check-decks", help="validate every deck in a folder")
    checker.add_argument("directory", type=Path, nargs="?", default=DEFAULT_CONTENT_DIR)
    args = parser.parse_args(argv)
    if args.command == "import-deck":
        return import_deck(args.file, args.output)
    if args.command == "check-decks":
        return check(args.directory)
    return run()


if __name__ == "__main__":
    sys.exit(main())
