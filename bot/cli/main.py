"""`python -m bot`'s arguments: no command runs the bot (or, without a token, the playground:
the bot in the browser); `run` the bot, `playground` the playground; `import-deck`,
`export-deck` and `check-decks` help deck authors; `item-report` shows how well each question
works; `calibrate` fits each question's difficulty, discrimination and guessing floor now;
`reports` lists learners' reports; `copy-to-postgres` moves a SQLite database to PostgreSQL."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from bot.cli.decks import IMPORT_FORMATS, ImportOptions, check, import_deck, parse_delimiter
from bot.cli.export import FORMAT_NAMES, export
from bot.cli.run import run, token_given
from content.loader import DEFAULT_CONTENT_DIR

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
    commands.add_parser("run", help="run the bot with TELEGRAM_BOT_TOKEN (the default with one)")
    trying = commands.add_parser(
        "playground",
        help="the bot in your browser on 127.0.0.1 (the default without a token)",
    )
    trying.add_argument(
        "--deck", type=Path, action="append", default=[], help="a deck file to serve (repeatable)"
    )
    importer = commands.add_parser(
        "import-deck",
        help="turn a CSV export, a GIFT or Aiken file, or a plain-text practice test into a deck",
    )
    importer.add_argument("file", type=Path)
    importer.add_argument(
        "--format",
        dest="format_name",
        choices=tuple(IMPORT_FORMATS),
        help="the file's format (default: from its name: .csv, .gift, .aiken, else text)",
    )
    importer.add_argument("-o", "--output", type=Path, help="write here instead of stdout")
    importer.add_argument("--id", dest="deck_id", help="the deck id (default: from the file)")
    importer.add_argument("--title", help="the deck title (default: from the file)")
    importer.add_argument("--source", help="the deck's source line (default: from the file)")
    importer.add_argument(
        "--delimiter",
        type=parse_delimiter,
        help="CSV cell separator (default: from the header row)",
    )
    exporter = commands.add_parser(
        "export-deck", help="write a deck as CSV, GIFT, Aiken or an Anki package (.apkg)"
    )
    exporter.add_argument("deck", type=Path, help="the deck file (YAML)")
    exporter.add_argument("-o", "--output", type=Path, required=True, help="the file to write")
    exporter.add_argument(
        "--format",
        dest="format_name",
        choices=FORMAT_NAMES,
        help="the format (default: from the output's name: .csv, .gift, .aiken, .apkg)",
    )
    previewer = commands.add_parser(
        "preview-deck", help="one HTML page with every question as learners will see it"
    )
    previewer.add_argument("deck", type=Path, help="the deck file (YAML)")
    previewer.add_argument(
        "-o", "--output", type=Path, help="the page to write (default: DECK.preview.html)"
    )
    checker = commands.add_parser("check-decks", help="validate every deck in a folder")
    checker.add_argument("directory", type=Path, nargs="?", default=DEFAULT_CONTENT_DIR)
    checker.add_argument(
        "--strict", action="store_true", help="also apply the content rules (content/checks/)"
    )
    reporter = commands.add_parser(
        "item-report", help="how well each question works, from the stored answers"
    )
    reporter.add_argument("--deck", dest="deck_id", help="only this deck (default: every deck)")
    reporter.add_argument("--csv", type=Path, help="also write one CSV row per question here")
    reporter.add_argument("--html", type=Path, help="also write a static HTML report here")
    calibrator = commands.add_parser(
        "calibrate",
        help="fit every question's difficulty, discrimination and guessing floor now",
    )
    calibrator.add_argument("--deck", dest="deck_id", help="only this deck (default: every deck)")
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
        from bot.cli.copy import copy_command

        return copy_command(args.file, args.url)
    if args.command == "reports":
        from bot.cli.reports import reports

        return reports(everything=args.all, deck_id=args.deck_id)
    if args.command == "calibrate":
        from bot.cli.calibrate import calibrate

        return calibrate(args.deck_id)
    if args.command == "item-report":
        from bot.cli.item_report import ReportOptions, item_report

        return item_report(ReportOptions(args.deck_id, args.csv, args.html))
    if args.command == "import-deck":
        options = ImportOptions(
            args.output, args.deck_id, args.title, args.source, args.delimiter, args.format_name
        )
        return import_deck(args.file, options)
    if args.command == "export-deck":
        return export(args.deck, args.output, args.format_name)
    if args.command == "preview-deck":
        from bot.cli.preview import preview

        return preview(args.deck, args.output)
    if args.command == "check-decks":
        return check(args.directory, args.strict)
    if args.command == "playground" or (args.command is None and not token_given()):
        from bot.cli.playground import playground

        return playground(getattr(args, "deck", []))
    return run()


if __name__ == "__main__":
    sys.exit(main())
