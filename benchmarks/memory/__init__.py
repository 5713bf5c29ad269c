"""Learner memory at scale (`python -m benchmarks.memory`) and the group answer path with
and without the memory update that it compares."""
