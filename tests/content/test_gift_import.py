"""GIFT import: Moodle's multiple-choice questions become a draft deck; other kinds and mistakes
are named by line."""

from pathlib import Path

import pytest
from pydantic import ValidationError

from content.formats.drafts import DeckDraft, FormatImportError
from content.formats.gift import parse_gift, read_gift

SAMPLE = """\
// A comment line, dropped.
$CATEGORY: $course$/top/Default for NCA/Networking

::NVLink speed::[html]Which link joins GPUs
inside one node? {
  =NVLink#Right: it is the intra-node link.
  ~PCIe#Slower.
  // a comment inside a question does not end it
  ~Ethernet
  ####NVLink is NVIDIA's GPU-to-GPU link.
}

Which two are collectives? {
  ~%50%all-reduce#yes
  ~%50%broadcast
  ~%-100%malloc
}
"""


def parse(text: str) -> DeckDraft:
    """The draft imported from GIFT `text`, as file deck.gift."""
    return parse_gift(text, "deck.gift", deck=("deck", "Deck", "test"))


def problems(text: str) -> list[str]:
    """The problems importing GIFT `text` raises, as strings."""
    with pytest.raises(FormatImportError) as caught:
        parse(text)
    return [str(problem) for problem in caught.value.problems]


def test_one_answer_question_with_title_category_and_feedback() -> None:
    """`=right ~wrong`, the title as id, the category's last part as topic, `####` explaining."""
    first = parse(SAMPLE).deck().questions[0]

    assert first.id == "nvlink-speed"
    assert first.topic == "Networking"
    assert first.text == "Which link joins GPUs\ninside one node?"
    assert (first.answer, first.wrong) == ("NVLink", ["PCIe", "Ethernet"])
    assert first.explanation == "NVLink is NVIDIA's GPU-to-GPU link."


def test_weighted_options_make_a_choose_n_question() -> None:
    """Without `=`, every option of positive weight is right and the others are wrong."""
    second = parse(SAMPLE).deck().questions[1]

    assert second.answers == ["all-reduce", "broadcast"]
    assert second.wrong == ["malloc"]
    assert second.topic == "Networking"  # the category holds until the next one
    assert second.id == "two-collectives"  # no title: the text's first content words
    assert second.explanation == "yes"  # no general feedback: the right options' feedback


def test_option_feedback_left_out_is_a_notice() -> None:
    """Feedback on options has no place in a deck: each question that had some gets a notice."""
    notices = [str(notice) for notice in parse(SAMPLE).notices]

    assert notices == [
        "deck.gift: line 4: feedback on options left out: quizbot shows one explanation a "
        "question (####…)"
    ]  # the second question's only feedback, on a right option, is its explanation


def test_right_options_feedback_is_the_explanation_without_general_feedback() -> None:
    """With no `####`, the right option's feedback explains; wrong options' feedback is dropped."""
    draft = parse("Which? {=Yes#Because it is. ~No#It is not.}")

    (only,) = draft.deck().questions
    assert only.explanation == "Because it is."
    assert len(draft.notices) == 1


def test_escapes_stand_for_their_characters() -> None:
    """`\\~ \\= \\# \\{ \\} \\: \\\\ \\n` are text, not markup, in text, options and feedback."""
    text = r"::a\:b::Is 1\=1 \{really\} a\:b? \\ ok {=yes \~ sure ~no\#1 ####So\nsaid \# we.}"

    (only,) = parse(text).deck().questions

    assert only.id == "a-b"
    assert only.text == "Is 1=1 {really} a:b? \\ ok"
    assert (only.answer, only.wrong) == ("yes ~ sure", ["no#1"])
    assert only.explanation == "So\nsaid # we."


def test_missing_word_layout_and_format_markers() -> None:
    """Text after the answer block puts `_____` in its place; `[markdown]` markers are dropped."""
    text = "[markdown]Paris is the capital of {=[plain]France ~Spain ####[html]It is.} today."

    (only,) = parse(text).deck().questions

    assert only.text == "Paris is the capital of _____ today."
    assert (only.answer, only.explanation) == ("France", "It is.")


@pytest.mark.parametrize(
    ("category", "topic"),
    [
        ("$course$/top/Networking", "Networking"),
        ("nccl//collectives", "nccl/collectives"),
        ("Memory", "Memory"),
        ("$course$/top/", "top"),
        ("", "general"),
    ],
)
def test_the_category_last_part_is_the_topic(category: str, topic: str) -> None:
    """`$CATEGORY:`'s last part (`//` a slash inside a name) is the topic; none is "general"."""
    text = f"$CATEGORY: {category}\n\nWhich? {{=Yes ~No ####So.}}"

    assert parse(text).deck().questions[0].topic == topic


def test_titles_make_unique_ids_and_unusable_titles_fall_back_to_the_text() -> None:
    """A repeated title gets `-2`; a title with no letters or digits gives way to the text."""
    text = "::Q1::Why one? {=A ~B}\n\n::Q1::Why two? {=A ~B}\n\n::???::Why three? {=A ~B}"

    assert [q["id"] for q in parse(text).questions] == ["q1", "q1-2", "three"]


def test_a_question_without_feedback_is_left_to_fill_in() -> None:
    """No feedback at all: `explanation` is written empty, and the draft says which to fill."""
    draft = parse("::one::Which? {=Yes ~No}\n\n::two::Which? {=Yes ~No ####So.}")

    assert draft.questions[0]["explanation"] == ""
    assert draft.to_fill() == {"explanation": ["one"]}
    assert "explanation: ''" in draft.to_yaml()
    with pytest.raises(ValidationError):
        draft.deck()


@pytest.mark.parametrize(
    ("answers", "kind"),
    [
        ("{T}", "true/false"),
        ("{FALSE#It is true.}", "true/false"),
        ("{=Paris =paris}", "short answer"),
        ("{=cat -> food =dog -> bone}", "matching"),
        ("{#3:1}", "numerical"),
        ("{}", "essay"),
        ("{####Only feedback}", "essay"),
    ],
)
def test_other_question_kinds_are_not_supported_and_named_by_line(answers: str, kind: str) -> None:
    """True/false, short answer, matching, numerical and essay questions are refused by line."""
    text = f"Fine? {{=Yes ~No ####So.}}\n\n// the next question\nThe question {answers}\n"

    assert problems(text) == [
        f"deck.gift: line 4: a {kind} question is not supported: quizbot asks multiple-choice "
        "questions (=right ~wrong, or ~%50% weights)"
    ]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("Which?\n{=Yes\n~No", "line 2: the answer block's '{' is not closed"),
        ("::title\nWhich? {=Yes ~No}", "line 1: the title's '::' is not closed by '::'"),
        ("Just a description.", "line 1: no answer block {…}: a description is not supported"),
        ("Which? {=Yes ~No} and {=A ~B}", "line 1: a second answer block {…}"),
        ("Which? {\n=Yes\n~\n~No}", "line 3: an empty option after '~'"),
        ("{=Yes ~No}", "line 1: no question text before the answer block {…}"),
        ("Which? {\nmaybe =Yes ~No}", "line 2: text before the first option (= or ~)"),
        ("Which? {~%0%Yes ~%-50%No}", "line 1: no right option: mark it with =, or weigh"),
        ("Which? {~No ~Nope}", "line 1: no right option"),
        ("Which? {\n=Yes\n=Sure ~No}", "line 3: more than one option marked right (=)"),
        (
            "Which? {\n=Yes\n~%50%Half ~No}",
            "line 3: 'Half' gives part of the marks (50%): in a question with one right option",
        ),
        ("Which? {\n=Yes\n~No\n~yes}", "line 4: wrong #2: 'yes' repeats the answer"),
        ("Which? {=A ~B ~C ~D ~E ~F ~G ~H ~I}", "line 1: wrong: needs 1-7 wrong options"),
    ],
    ids=[
        "unclosed-brace",
        "unclosed-title",
        "description",
        "two-answer-blocks",
        "empty-option",
        "no-text",
        "text-before-options",
        "no-positive-weight",
        "no-right-option",
        "two-right-marks",
        "partial-credit",
        "duplicate-option",
        "too-many-options",
    ],
)
def test_mistakes_are_reported_at_their_line(text: str, expected: str) -> None:
    """Each mistake names the file and the line it is on (the option's own, where it has one)."""
    found = problems(text)

    assert len(found) == 1, found
    assert found[0].startswith(f"deck.gift: {expected}"), found


def test_every_mistake_is_reported_in_line_order() -> None:
    """All broken questions are reported in one go, ordered by line; good ones do not hide them."""
    text = "Good? {=Yes ~No ####So.}\n\nTrue? {T}\n\nWhich? {=Yes\n~yes}\n\nWhich? {~A ~B}\n"

    assert [problem.split(": ")[1] for problem in problems(text)] == [
        "line 3",
        "line 6",
        "line 8",
    ]


@pytest.mark.parametrize("text", ["", "// only a comment\n\n", "$CATEGORY: Networking\n"])
def test_a_file_without_questions_is_a_problem(text: str) -> None:
    """An empty file, or one of comments and categories only, yields no deck."""
    assert problems(text) == ["deck.gift: no questions in the file"]


def test_read_gift_takes_bom_crlf_and_the_file_name(tmp_path: Path) -> None:
    """A BOM and CRLF line ends are read; the deck id and title default to the file's name."""
    path = tmp_path / "My Quiz.gift"
    path.write_bytes("\ufeff::q::Which?\r\n{=Yes\r\n~No ####So.}\r\n".encode())

    draft = read_gift(path)

    assert (draft.id, draft.title) == ("my-quiz", "My Quiz")
    assert draft.source == "imported from My Quiz.gift"
    assert draft.deck().questions[0].wrong == ["No"]


def test_read_gift_refuses_text_that_is_not_utf8(tmp_path: Path) -> None:
    """A file in another encoding is one problem, named by the file."""
    path = tmp_path / "latin.gift"
    path.write_bytes("Où? {=Là ~Ici ####Voilà.}".encode("latin-1"))

    with pytest.raises(FormatImportError, match=r"^latin\.gift: not UTF-8 text$"):
        read_gift(path)


def test_a_deck_id_that_is_not_a_slug_is_a_problem() -> None:
    """The deck's own fields follow the deck rules too."""
    with pytest.raises(FormatImportError, match="deck id: must be a slug"):
        parse_gift("Which? {=Yes ~No ####So.}", "deck.gift", deck=("Not A Slug", "T", "s"))
