"""Test doubles that are not product parts: a clock the tests set (the fake Telegram Bot API
server is a product part, `bot.playground.botapi`)."""
