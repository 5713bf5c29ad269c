"""`check-decks --strict`: the content rules of a deck worth studying beyond what loads
(strict.py), the near-duplicate search across decks (duplicates.py), the text similarity it
rests on (similarity.py) and the deck-level tells (tells.py)."""

from __future__ import annotations

from content.checks.strict import FIRST_SENTENCE_LIMIT as FIRST_SENTENCE_LIMIT
from content.checks.strict import option_problems as option_problems
from content.checks.strict import question_problems as question_problems
from content.checks.strict import source_problem as source_problem
from content.checks.strict import strict_problems as strict_problems
