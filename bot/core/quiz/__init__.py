"""Asking questions and taking answers: choosing and posting a chat's next question (asking),
`/quiz` and answers (service), what answers and closes owe (reveals), closing group questions at
their deadlines (closing), and the live count of answers on open ones (live). The names of
asking, reveals and service are handed on here."""

from __future__ import annotations

from bot.core.quiz.answers import PICKS as PICKS
from bot.core.quiz.answers import Picked as Picked
from bot.core.quiz.answers import ShowPicks as ShowPicks
from bot.core.quiz.answers import WrongCount as WrongCount
from bot.core.quiz.asking import QUESTION as QUESTION
from bot.core.quiz.asking import Asking as Asking
from bot.core.quiz.asking import PostQuestion as PostQuestion
from bot.core.quiz.asking import QuizConfig as QuizConfig
from bot.core.quiz.reveals import ANSWERED as ANSWERED
from bot.core.quiz.reveals import EXPLANATION as EXPLANATION
from bot.core.quiz.reveals import REVEAL as REVEAL
from bot.core.quiz.reveals import STILL_OPEN as STILL_OPEN
from bot.core.quiz.reveals import Explain as Explain
from bot.core.quiz.reveals import MarkAnswered as MarkAnswered
from bot.core.quiz.reveals import PointToOpen as PointToOpen
from bot.core.quiz.reveals import ShowReveal as ShowReveal
from bot.core.quiz.service import Queued as Queued
from bot.core.quiz.service import QuizService as QuizService
from bot.core.quiz.service import StillOpen as StillOpen
