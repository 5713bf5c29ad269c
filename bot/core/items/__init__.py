"""How well each question works: the pure item statistics (analysis) and the use case that
reads the first answers for them (review)."""
