"""First answers gathered batch by batch into the estimator's arrays (em.Responses)."""

from __future__ import annotations

from array import array
from collections.abc import Iterable

import numpy as np

from bot.core.calibration.em import Responses
from bot.core.ports import FirstResult


class ResponseTable:
    """Learners and questions numbered as they come: the deck's questions first, in file
    order (so that never-answered ones are calibrated too, on their priors), then questions
    answered but no longer in the deck file."""

    def __init__(self, question_ids: Iterable[str] = ()) -> None:
        self.question_ids: list[str] = []
        self._questions: dict[str, int] = {}
        self._learners: dict[int, int] = {}
        # Compact columns: a million answers take 17 MB, not a million tuples.
        self._learner_column = array("q")
        self._question_column = array("q")
        self._correct_column = array("b")
        for question_id in question_ids:
            self._question(question_id)

    def _question(self, question_id: str) -> int:
        index = self._questions.get(question_id)
        if index is None:
            index = self._questions[question_id] = len(self.question_ids)
            self.question_ids.append(question_id)
        return index

    def add(self, batch: Iterable[FirstResult]) -> None:
        """Take a batch of first answers (the estimator refuses a learner's second answer to
        a question)."""
        learners = self._learners
        for result in batch:
            self._learner_column.append(learners.setdefault(result.user_id, len(learners)))
            self._question_column.append(self._question(result.question_id))
            self._correct_column.append(1 if result.correct else 0)

    @property
    def learners(self) -> int:
        return len(self._learners)

    @property
    def answers(self) -> int:
        return len(self._learner_column)

    def responses(self) -> Responses:
        return Responses(
            learners=np.frombuffer(self._learner_column, dtype=np.int64).copy(),
            items=np.frombuffer(self._question_column, dtype=np.int64).copy(),
            correct=np.frombuffer(self._correct_column, dtype=np.int8).astype(np.bool_),
            n_learners=self.learners,
            n_items=len(self.question_ids),
        )
