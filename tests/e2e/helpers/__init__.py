"""Shared pieces of the end-to-end tests: scripted groups, daily pushes, exams, faults,
reports, webhooks and `python -m bot` as a process."""
