"""The playground: quizbot in the browser, before any setup. The real bot (`bot.app`) runs
against a Telegram Bot API server inside the process (`botapi/`), with a private chat, a group
of simulated members (`members.py`), a clock the person moves and the decks they load
(`session.py`), behind a page on 127.0.0.1 (`web/`, served by `serve.py`)."""
