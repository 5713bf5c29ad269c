"""What the bot shows: Telegram HTML texts and inline keyboards, one module per feature.

Renderers are pure: objects of the core in, strings and keyboards out, no I/O.
"""
