"""Leaderboard latency on a big database: SQLite (`python -m benchmarks.leaderboard.sqlite`)
and PostgreSQL (`python -m benchmarks.leaderboard.postgres`)."""
