"""The quiz core: selection, scoring and the quiz service. No Telegram imports here."""
