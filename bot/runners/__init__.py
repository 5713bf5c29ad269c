"""Runners: how updates reach the bot (long polling today)."""
