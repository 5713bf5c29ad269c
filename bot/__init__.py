"""quizbot's Telegram edge and, in bot.core, its Telegram-free quiz core."""

import os

# PTB 22 warns on every RetryAfter unless durations are timedeltas; opt in before it is imported.
os.environ.setdefault("PTB_TIMEDELTA", "1")
