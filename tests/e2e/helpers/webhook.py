"""Webhook mode in the end-to-end tests: the bot's settings and a free port on 127.0.0.1."""

from __future__ import annotations

import socket
from pathlib import Path
from typing import Any

from pydantic import SecretStr

from bot.config import Settings
from bot.playground.botapi import BotApiServer
from bot.runners.webhook import SECRET_HEADER

SECRET = "e2e_webhook-SECRET_0123456789"
HOOK_PATH = "/telegram/hook"
SECRET_ONLY = {SECRET_HEADER: SECRET}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def plain_settings(fake: BotApiServer, tmp_path: Path, **extra: Any) -> Settings:
    """The end-to-end settings on a SQLite file in `tmp_path`, with `extra`."""
    return Settings(
        telegram_bot_token=SecretStr(fake.token),
        database=str(tmp_path / "data" / "quizbot.sqlite3"),
        api_base_url=fake.url,  # type: ignore[arg-type]
        rate_limit_scale=1000,
        default_deck="nca-multi-gpu-5",
        _env_file=None,
        **extra,
    )


def webhook_settings(fake: BotApiServer, tmp_path: Path, port: int) -> Settings:
    """Webhook mode on 127.0.0.1:`port` with the test secret."""
    return plain_settings(
        fake,
        tmp_path,
        webhook_url=f"http://127.0.0.1:{port}{HOOK_PATH}",
        webhook_secret=SecretStr(SECRET),
        webhook_listen="127.0.0.1",
        webhook_port=port,
        webhook_max_connections=7,
    )
