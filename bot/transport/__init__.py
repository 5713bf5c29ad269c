"""How the bot talks to the Bot API: the HTTP requests (request.py) and Telegram's flood
limits (ratelimit/)."""
