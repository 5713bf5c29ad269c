"""Mock exams: the use case (service), the pure drawing of an exam's questions (draw), what a
learner's buttons mean (actions) and what the edge shows of an exam (views)."""
