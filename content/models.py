"""Pydantic models for quiz decks, with the content rules of PRODUCT.md enforced on load."""

from __future__ import annotations

import hashlib
import json
import re
from typing import Annotated, Self

from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    StringConstraints,
    field_validator,
    model_validator,
)
from pydantic_core import PydanticCustomError

TELEGRAM_MESSAGE_LIMIT = 4096
EXPLANATION_LIMIT = 3500
NOTE_LIMIT = 600
SOURCE_LIMIT = 500
MIN_OPTIONS = 2
MAX_OPTIONS = 8
RENDER_HEADROOM = 200
SLUG_PATTERN = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
CONTENT_HASH_LENGTH = 12
# A mock exam without an `exam:` block: 20 questions, 30 minutes, a 70% practice pass mark.
EXAM_QUESTIONS = 20
EXAM_MINUTES = 30
EXAM_PASS_PERCENT = 70
MAX_EXAM_QUESTIONS = 200
MAX_EXAM_MINUTES = 600


def _check_slug(value: str) -> str:
    # A custom error instead of pattern=, whose message would show the raw regex to authors.
    if not re.fullmatch(SLUG_PATTERN, value):
        raise PydanticCustomError(
            "slug", "must be a slug: lowercase letters, digits and single hyphens"
        )
    return value


Text = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1)]
Slug = Annotated[Text, AfterValidator(_check_slug)]
Explanation = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=EXPLANATION_LIMIT)
]
Note = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=NOTE_LIMIT)]
Source = Annotated[
    str, StringConstraints(strip_whitespace=True, min_length=1, max_length=SOURCE_LIMIT)
]


def _check_image(value: str) -> str:
    parts = value.split("/")
    if not value.endswith(".png") or value.startswith("/") or ".." in parts or "" in parts:
        raise PydanticCustomError(
            "image_path", "must be the path of a .png file beside the deck, e.g. images/ring.png"
        )
    return value


ImageFile = Annotated[Text, AfterValidator(_check_image)]


def located(kind: str, message: str, *at: str | int) -> PydanticCustomError:
    """An error to report at `at` below the validator's own location.

    Pydantic pins a validator's errors to the value it validates; the loader appends
    `ctx["at"]` so that e.g. a duplicate id is reported on that question's `id`.
    """
    return PydanticCustomError(kind, message, {"at": at})


def _option_key(option: str) -> str:
    return " ".join(option.split()).casefold()


def _utf16_len(text: str) -> int:
    # Telegram counts message length in UTF-16 code units: an emoji may count twice.
    return len(text.encode("utf-16-le")) // 2


def max_rendered_length(question: Question) -> int:
    """Upper bound of the question message's length: text, lettered options, headers, marks."""
    options = sum(_utf16_len(option) + 4 for option in question.options)
    return _utf16_len(question.text) + options + RENDER_HEADROOM


def max_explanation_length(question: Question) -> int:
    """Upper bound of the explanation reply's length: verdict, explanation, note, marks."""
    note = _utf16_len(question.note) + 2 if question.note else 0
    return _utf16_len(question.explanation) + note + RENDER_HEADROOM


class Question(BaseModel):
    """One multiple-choice question: `answer` is the right option (or `answers`, two or more,
    for a "choose N" question whose stem says how many to pick), `wrong` the distractors.

    `source` is the URL (and section) of the primary document the question rests on;
    `note` is shown after the explanation where review found the question or its
    explanation imprecise: what is accurate, with its source. `scenario` marks a question
    that sets a situation and asks what happens or what to do (not the recall of a fact).
    `image` and `explanation_image` are PNG files beside the deck file, drawn by a script from
    data (the loader checks they are there).
    """

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: Slug
    topic: Text
    text: Text
    answer: Text | None = None
    answers: list[Text] | None = None
    wrong: list[Text]
    explanation: Explanation
    source: Source | None = None
    note: Note | None = None
    scenario: bool = False
    image: ImageFile | None = None
    explanation_image: ImageFile | None = None

    @property
    def right_options(self) -> tuple[str, ...]:
        """The right option, or the right options of a "choose N" question."""
        if self.answers is not None:
            return tuple(self.answers)
        assert self.answer is not None  # the validator asks for one of the two
        return (self.answer,)

    @property
    def picks(self) -> int:
        """How many options a learner picks: 1, or N for "choose N"."""
        return len(self.right_options)

    @property
    def options(self) -> tuple[str, ...]:
        """All options, the right ones first (indexes 0 … picks - 1)."""
        return (*self.right_options, *self.wrong)

    @property
    def content_hash(self) -> str:
        """A short, stable fingerprint of what learners read: the text, the options (the right
        ones first), the explanation, the note and the images' names. Asks and learner
        reports store it, so an author can tell which wording a report was made against."""
        seen: list[object] = [self.text, list(self.options), self.explanation, self.note]
        if self.image is not None or self.explanation_image is not None:
            seen += [self.image, self.explanation_image]
        payload = json.dumps(seen, ensure_ascii=False, separators=(",", ":"))
        digest = hashlib.sha256(payload.encode("utf-8", "surrogatepass")).hexdigest()
        return digest[:CONTENT_HASH_LENGTH]

    @model_validator(mode="after")
    def _check_options(self) -> Self:
        if self.answer is None and self.answers is None:
            raise located(
                "answer_missing",
                "required field is missing (or `answers:` with two or more right options, "
                "for a question that asks to choose that many)",
                "answer",
            )
        if self.answer is not None and self.answers is not None:
            raise located(
                "answer_and_answers",
                "give either `answer` (one right option) or `answers` (several), not both",
                "answer",
            )
        if self.answers is not None and len(self.answers) < 2:
            raise located(
                "answers_count", "needs two or more right options (else use `answer`)", "answers"
            )
        count = len(self.options)
        if not MIN_OPTIONS <= count <= MAX_OPTIONS or not self.wrong:
            picks = self.picks
            raise located(
                "option_count",
                f"needs 1-{MAX_OPTIONS - picks} wrong options ({MIN_OPTIONS}-{MAX_OPTIONS} "
                f"options in total), found {len(self.wrong)}",
                "wrong",
            )
        seen: dict[str, str] = {}
        for index, option in enumerate(self.right_options):
            key = _option_key(option)
            if key in seen:
                raise located(
                    "duplicate_option",
                    f"{option!r} repeats {seen[key]} (ignoring case and spaces)",
                    "answers",
                    index,
                )
            seen[key] = "the answer" if self.answers is None else f"answer #{index + 1}"
        for index, option in enumerate(self.wrong):
            key = _option_key(option)
            if key in seen:
                raise located(
                    "duplicate_option",
                    f"{option!r} repeats {seen[key]} (ignoring case and spaces)",
                    "wrong",
                    index,
                )
            seen[key] = f"wrong #{index + 1}"
        length = max_rendered_length(self)
        if length > TELEGRAM_MESSAGE_LIMIT:
            raise located(
                "message_too_long",
                f"question and options render to about {length} characters, over "
                f"Telegram's {TELEGRAM_MESSAGE_LIMIT}-character message limit",
                "text",
            )
        length = max_explanation_length(self)
        if length > TELEGRAM_MESSAGE_LIMIT:
            raise located(
                "message_too_long",
                f"explanation and note render to about {length} characters, over "
                f"Telegram's {TELEGRAM_MESSAGE_LIMIT}-character message limit",
                "note",
            )
        return self


class ExamBlock(BaseModel):
    """A deck's mock exam (`exam:`): how many questions in how many minutes, the practice pass
    mark in percent, and each topic's weight (`weights`; absent: weighted by topic size, and a
    topic left out of `weights` is not asked)."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    questions: int = Field(default=EXAM_QUESTIONS, ge=1, le=MAX_EXAM_QUESTIONS)
    minutes: int = Field(default=EXAM_MINUTES, ge=1, le=MAX_EXAM_MINUTES)
    pass_percent: int = Field(default=EXAM_PASS_PERCENT, ge=1, le=100)
    weights: dict[Text, Annotated[float, Field(gt=0)]] | None = Field(default=None, min_length=1)


class Deck(BaseModel):
    """A titled list of questions loaded from one YAML file."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: Slug
    title: Text
    source: Text
    questions: list[Question] = Field(min_length=1)
    exam: ExamBlock | None = None

    @model_validator(mode="after")
    def _check_exam(self) -> Self:
        if self.exam is None:
            return self
        sizes: dict[str, int] = {}
        for question in self.questions:
            sizes[question.topic] = sizes.get(question.topic, 0) + 1
        weights = self.exam.weights
        if weights is not None:
            for topic in weights:
                if topic not in sizes:
                    known = ", ".join(sorted(sizes))
                    raise located(
                        "unknown_topic",
                        f"no question has the topic {topic!r} (topics: {known})",
                        "exam",
                        "weights",
                        topic,
                    )
        available = sum(n for t, n in sizes.items() if weights is None or t in weights)
        # Left out, `questions` defaults to 20 and a smaller deck gives all it has.
        if "questions" in self.exam.model_fields_set and self.exam.questions > available:
            where = "in its weighted topics" if weights is not None else "in all"
            raise located(
                "exam_too_long",
                f"asks for {self.exam.questions} questions, but the deck has {available} {where}",
                "exam",
                "questions",
            )
        return self

    @field_validator("questions")
    @classmethod
    def _check_unique_ids(cls, questions: list[Question]) -> list[Question]:
        first: dict[str, int] = {}
        for index, question in enumerate(questions):
            if question.id in first:
                raise located(
                    "duplicate_id",
                    f"duplicate question id, already used by question #{first[question.id] + 1}",
                    index,
                    "id",
                )
            first[question.id] = index
        return questions
