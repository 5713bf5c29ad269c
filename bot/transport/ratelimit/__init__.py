"""Telegram's flood limits kept on our side: the limiter PTB calls for every request
(limiter.py) and the sliding windows and per-chat queues it keeps (windows.py)."""

from __future__ import annotations

from bot.transport.ratelimit.limiter import RateLimitArgs as RateLimitArgs
from bot.transport.ratelimit.limiter import SlidingWindowRateLimiter as SlidingWindowRateLimiter
from bot.transport.ratelimit.windows import RequestDropped as RequestDropped
from bot.transport.ratelimit.windows import SendingStopped as SendingStopped
from bot.transport.ratelimit.windows import counts_against_limits as counts_against_limits
