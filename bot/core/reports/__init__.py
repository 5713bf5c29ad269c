"""Learner reports on questions: the use case (service)."""
