"""Command arguments: one pure parser per command, from the raw argument text to a typed request.

Each `parse_*` takes everything after the command word (possibly empty, any Unicode) and returns
either the parsed request or a `Usage` whose text is ready to send as Telegram HTML. They never
raise. Arguments are separated by whitespace (as `str.split()` splits, like PTB's
`context.args`); keywords are case-insensitive; numbers are ASCII digits only, so '²', '٣' and
full-width '５' are not numbers. Zone names are only ever looked up in
`zoneinfo.available_timezones()`: user text never reaches `ZoneInfo()` or the filesystem.

/stop, /me, /topics, /help and /start take no arguments; anything after them is ignored, so they
have no parser here.
"""

from __future__ import annotations

from bot.parsing.common import NUMBER as NUMBER
from bot.parsing.common import Usage as Usage
from bot.parsing.common import arguments_of as arguments_of
from bot.parsing.common import split_words as split_words
from bot.parsing.exams import EXAM_USAGE as EXAM_USAGE
from bot.parsing.exams import TOO_BIG as TOO_BIG
from bot.parsing.exams import ExamRequest as ExamRequest
from bot.parsing.exams import parse_exam as parse_exam
from bot.parsing.quiz import LEADERBOARD_USAGE as LEADERBOARD_USAGE
from bot.parsing.quiz import MAX_ROUND as MAX_ROUND
from bot.parsing.quiz import ROUND_USAGE as ROUND_USAGE
from bot.parsing.quiz import TOPIC_LIMIT as TOPIC_LIMIT
from bot.parsing.quiz import QuizRequest as QuizRequest
from bot.parsing.quiz import parse_leaderboard as parse_leaderboard
from bot.parsing.quiz import parse_quiz as parse_quiz
from bot.parsing.reports import COMMENT_LIMIT as COMMENT_LIMIT
from bot.parsing.reports import clean_comment as clean_comment
from bot.parsing.settings import DAILY_USAGE as DAILY_USAGE
from bot.parsing.settings import DECK_USAGE as DECK_USAGE
from bot.parsing.settings import TIMEZONE_USAGE as TIMEZONE_USAGE
from bot.parsing.settings import ChooseDeck as ChooseDeck
from bot.parsing.settings import DailyAt as DailyAt
from bot.parsing.settings import DailyOff as DailyOff
from bot.parsing.settings import ListDecks as ListDecks
from bot.parsing.settings import SetTimezone as SetTimezone
from bot.parsing.settings import ShowDaily as ShowDaily
from bot.parsing.settings import ShowTimezone as ShowTimezone
from bot.parsing.settings import find_zone as find_zone
from bot.parsing.settings import parse_daily as parse_daily
from bot.parsing.settings import parse_deck as parse_deck
from bot.parsing.settings import parse_time_of_day as parse_time_of_day
from bot.parsing.settings import parse_timezone as parse_timezone
