"""The data carried by inline buttons: short, typed, validated, at most Telegram's 64 bytes.

`prefixes` holds the one table of prefixes and the encoder every button type uses; each module
here is the buttons of one feature. Every name is handed on here.
"""

from __future__ import annotations

from bot.callback_data.answers import AnswerButton as AnswerButton
from bot.callback_data.answers import NextButton as NextButton
from bot.callback_data.answers import PickButton as PickButton
from bot.callback_data.answers import SubmitButton as SubmitButton
from bot.callback_data.answers import parse_answer_button as parse_answer_button
from bot.callback_data.answers import parse_next_button as parse_next_button
from bot.callback_data.answers import parse_pick_button as parse_pick_button
from bot.callback_data.answers import parse_submit_button as parse_submit_button
from bot.callback_data.exams import EXAM_DATA as EXAM_DATA
from bot.callback_data.exams import ExamButton as ExamButton
from bot.callback_data.exams import parse_exam_button as parse_exam_button
from bot.callback_data.prefixes import MAX_CALLBACK_BYTES as MAX_CALLBACK_BYTES
from bot.callback_data.prefixes import CallbackDataTooLongError as CallbackDataTooLongError
from bot.callback_data.prefixes import Prefix as Prefix
from bot.callback_data.reports import REASON_CODES as REASON_CODES
from bot.callback_data.reports import REPORT_DATA as REPORT_DATA
from bot.callback_data.reports import ReasonButton as ReasonButton
from bot.callback_data.reports import ReportButton as ReportButton
from bot.callback_data.reports import ReportData as ReportData
from bot.callback_data.reports import ResolveButton as ResolveButton
from bot.callback_data.reports import SkipCommentButton as SkipCommentButton
from bot.callback_data.reports import parse_report_data as parse_report_data
from bot.callback_data.simple import FORGET_DATA as FORGET_DATA
from bot.callback_data.simple import QUIZ_ME_DATA as QUIZ_ME_DATA
from bot.callback_data.simple import ForgetButton as ForgetButton
from bot.callback_data.simple import QuizMeButton as QuizMeButton
from bot.callback_data.simple import parse_forget_button as parse_forget_button
