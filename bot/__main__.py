"""`python -m bot` runs the bot; `import-deck` and `check-decks` help deck authors;
`item-report` shows how well each question works; `reports` lists learners' reports;
`copy-to-postgres` moves a SQLite database to PostgreSQL."""

from __future__ import annotations

import argparse
import asyncio
import dataclasses
import logging
import signal
import sys
from pathlib import Path

from pydantic import ValidationError
from telegram.error import InvalidToken, NetworkError

from bot.config import TOKEN_HELP, Settings, describe_settings_error
from content.checker import strict_problems
from content.csv_import import CsvImportError, deck_data, read_csv_deck
from content.importer import PracticeTestFormatError, dump_yaml, parse_practice_test, to_yaml
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
    from bot.app import DatabaseInUseError, SchemaTooNewError

    try:
        asyncio.run(_serve(settings))
    except DeckError as error:
        print(f"quizbot: the decks have problems:\n{error}", file=sys.stderr)
        return 2
    except (SchemaTooNewError, DatabaseInUseError) as error:
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


@dataclasses.dataclass(frozen=True)
class ImportOptions:
    """What `import-deck` was asked for beyond the input file."""

    output: Path | None = None
    deck_id: str | None = None
    title: str | None = None
    source: str | None = None
    delimiter: str | None = None


def _write(text: str, output: Path | None, summary: str) -> None:
    if output is None:
        sys.stdout.write(text)
    else:
        output.write_text(text, encoding="utf-8")
        print(f"wrote {output}: {summary}")


def _import_csv(source: Path, options: ImportOptions) -> int:
    try:
        deck = read_csv_deck(
            source,
            deck_id=options.deck_id,
            title=options.title,
            source=options.source,
            delimiter=options.delimiter,
        )
    except OSError as error:
        print(f"{source}: cannot read: {error.strerror}", file=sys.stderr)
        return 1
    except CsvImportError as error:
        for problem in error.problems:
            print(problem, file=sys.stderr)
        print(f"{len(error.problems)} problem(s) in {source}; nothing written", file=sys.stderr)
        return 1
    count = len(deck.questions)
    _write(dump_yaml(deck_data(deck)), options.output, f"{count} questions")
    return 0


def _import_practice_test(source: Path, options: ImportOptions) -> int:
    try:
        deck = parse_practice_test(source.read_text(encoding="utf-8"))
    except (OSError, PracticeTestFormatError) as error:
        print(f"{source}: {error}", file=sys.stderr)
        return 1
    deck = dataclasses.replace(
        deck,
        id=options.deck_id or deck.id,
        title=options.title or deck.title,
        source=options.source or deck.source,
    )
    summary = f"{len(deck.questions)} questions; fill in each `wrong:` list"
    _write(to_yaml(deck), options.output, summary)
    return 0


def import_deck(source: Path, options: ImportOptions | None = None) -> int:
    """A deck YAML from a spreadsheet's CSV export (`*.csv`) or a plain-text practice test."""
    options = options or ImportOptions()
    if source.suffix.lower() == ".csv":
        return _import_csv(source, options)
    return _import_practice_test(source, options)


def check(directory: Path, strict: bool = False) -> int:
    problems = strict_problems(directory) if strict else check_decks(directory)
    for problem in problems:
        print(problem)
    if problems:
        print(f"{len(problems)} problem(s) in {directory}", file=sys.stderr)
        return 1
    rules = " and pass the strict content rules" if strict else ""
    print(f"all decks in {directory} are valid{rules}")
    return 0


def _delimiter(value: str) -> str:
    named = {"comma": ",", "semicolon": ";", "tab": "\t", "\\t": "\t"}
    delimiter = named.get(value.lower(), value)
    if len(delimiter) != 1:
        raise argparse.ArgumentTypeError("one character, or comma, semicolon or tab")
    return delimiter


COPY_DESCRIPTION = """\
Copies every table of the quizbot SQLite database FILE into the PostgreSQL database URL, which
must be empty (a new database, or one holding only quizbot's empty schema), in one transaction;
then checks that every table has as many rows and every leaderboard ranks the same players in
the same order. A FILE written by an older quizbot is migrated first.

Stop the bot before copying: the copy is a consistent snapshot of FILE, but answers given after
it began would be missing from PostgreSQL. Then set QUIZBOT_DATABASE to URL and start the bot.

Exit status: 0 copied and verified; 2 refused, nothing changed; 1 failed or did not match.
"""


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m bot", description=__doc__)
    commands = parser.add_subparsers(dest="command")
    commands.add_parser("run", help="run the bot (the default)")
    importer = commands.add_parser(
        "import-deck", help="turn a CSV export (*.csv) or a plain-text practice test into a deck"
    )
    importer.add_argument("file", type=Path)
    importer.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    importer.add_argument("--id", dest="deck_id", help="the deck id (default: from the file)")
    importer.add_argument("--title", help="the deck title (default: from the file)")
    importer.add_argument("--source", help="the deck's source line (default: from the file)")
    importer.add_argument(
        "--delimiter", type=_delimiter, help="CSV cell separator (default: from the header row)"
    )
    checker = commands.add_parser("check-decks", help="validate every deck in a folder")
    checker.add_argument("directory", type=Path, nargs="?", default=DEFAULT_CONTENT_DIR)
    checker.add_argument(
        "--strict", action="store_true", help="also apply the content rules (content/checker.py)"
    )
    reporter = commands.add_parser(
        "item-report", help="how well each question works, from the stored answers"
    )
    reporter.add_argument("--deck", dest="deck_id", help="only this deck (default: every deck)")
    reporter.add_argument("--csv", type=Path, help="also write one CSV row per question here")
    reporter.add_argument("--html", type=Path, help="also write a static HTML report here")
    learner_reports = commands.add_parser("reports", help="list the learners' open reports")
    learner_reports.add_argument("--all", action="store_true", help="also fixed and dismissed")
    learner_reports.add_argument("--deck", dest="deck_id", help="only this deck's reports")
    copier = commands.add_parser(
        "copy-to-postgres",
        help="copy a SQLite database into an empty PostgreSQL one and verify the copy",
        description=COPY_DESCRIPTION,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    copier.add_argument("file", type=Path, help="the SQLite database file (stop the bot first)")
    copier.add_argument("url", help="an empty database: postgresql://user:password@host:port/db")
    args = parser.parse_args(argv)
    if args.command == "copy-to-postgres":
        from bot.copy_cli import copy_command

        return copy_command(args.file, args.url)
    if args.command == "reports":
        from bot.reports_cli import reports

        return reports(everything=args.all, deck_id=args.deck_id)
    if args.command == "item-report":
        from bot.item_report_cli import ReportOptions, item_report

        return item_report(ReportOptions(args.deck_id, args.csv, args.html))
    if args.command == "import-deck":
        options = ImportOptions(args.output, args.deck_id, args.title, args.source, args.delimiter)
        return import_deck(args.file, options)
    if args.command == "check-decks":
        return check(args.directory, args.strict)
    return run()


if __name__ == "__main__":
    sys.exit(main())
