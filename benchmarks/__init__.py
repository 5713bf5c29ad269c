"""Benchmarks: plain scripts printing the figures the issues ask for (see README.md here)."""
