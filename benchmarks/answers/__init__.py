"""Answers under a crowd (`python -m benchmarks.answers`): the sweep, its fake Bot API in a
process of its own, the configurations it drives and its report."""
