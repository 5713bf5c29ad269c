"""quizbot's Telegram edge and, in bot.core, its Telegram-free quiz core."""
