"""Shared test set-up."""

import os

# Before python-telegram-bot is imported anywhere: durations as timedeltas, without a
# deprecation warning (warnings are errors here).
os.environ.setdefault("PTB_TIMEDELTA", "1")
