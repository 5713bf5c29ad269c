"""What each learner remembers: FSRS scheduling of their cards (scheduling), `/review` sessions
(review) and which due card a session asks next (plan)."""
