"""Fixtures for the fake's self-tests: a running fake and a PTB ``Bot`` pointed at it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from telegram import Bot

from bot.playground.botapi import BotApiServer


@pytest.fixture
async def fake() -> AsyncIterator[BotApiServer]:
    async with BotApiServer() as api:
        yield api


@pytest.fixture
async def bot(fake: BotApiServer) -> AsyncIterator[Bot]:
    bot = Bot(fake.token, base_url=f"{fake.url}/bot", base_file_url=f"{fake.url}/file/bot")
    async with bot as ptb_bot:
        yield ptb_bot
