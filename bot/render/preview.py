"""`python -m bot preview-deck`: every question of a deck as the bot shows it, in one static
HTML page: the private question and its explanation after a right and a wrong answer, the group
question while it is open and after it closed, each with its image, and the `check-decks`
findings beside the question they concern.

The messages are the bot's own renderers' Telegram HTML (its few tags are HTML too, and every
text from the deck is escaped by them); the page adds only escaped text. No script, nothing
loaded from outside: images are embedded. A renderer: no I/O.
"""

from __future__ import annotations

import base64
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from html import escape
from zoneinfo import ZoneInfo

from bot.core.model import Ask, Tally, letter
from bot.render import group, questions
from bot.render.media import captioned
from content.models import Deck, Question

PREVIEW_ASK_ID = 1
# A fixed moment for the group question's deadline line.
SHOWN_AT = datetime(2026, 1, 5, 9, 0, tzinfo=UTC)

STYLE = """
body { font: 15px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 80rem;
       padding: 0 1rem; color: #212529; background: #f8f9fa; }
h1 { font-size: 1.6rem; } h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
section { background: #fff; border: 1px solid #dee2e6; border-radius: 8px; padding: 1rem;
          margin: 1.5rem 0; }
.cols { display: grid; grid-template-columns: repeat(auto-fit, minmax(22rem, 1fr)); gap: 1rem; }
.msg { background: #eef6ff; border-radius: 10px; padding: .6rem .8rem; white-space: pre-wrap;
       overflow-wrap: anywhere; }
.msg img { display: block; max-width: 100%; border-radius: 6px; margin-bottom: .5rem; }
.buttons span { display: inline-block; border: 1px solid #74c0fc; border-radius: 6px;
                padding: .1rem .6rem; margin: .3rem .3rem 0 0; color: #1c7ed6; }
.label { font-size: .8rem; color: #868e96; margin: .6rem 0 .2rem; }
.findings { background: #fff4e6; border-left: 4px solid #fd7e14; padding: .4rem .8rem; }
.ok { color: #2f9e44; } .meta { color: #495057; font-size: .85rem; }
blockquote { margin: .3rem 0; padding-left: .6rem; border-left: 3px solid #adb5bd; }
"""


def preview_ask(question: Question, *, group_chat: bool) -> Ask:
    """An ask of `question` with its options in deck order (the right ones first), as a
    preview shows them (the bot shuffles them for every ask)."""
    return Ask(
        id=PREVIEW_ASK_ID,
        chat_id=-1 if group_chat else 1,
        thread_id=None,
        message_id=1,
        deck_id="preview",
        question_id=question.id,
        pass_no=1,
        option_order=tuple(range(len(question.options))),
        asked_at=SHOWN_AT,
        closes_at=SHOWN_AT + timedelta(minutes=5) if group_chat else None,
        closed_at=None,
        picks=question.picks,
    )


def _image(images: Mapping[str, bytes], name: str | None) -> str:
    if name is None:
        return ""
    data = images.get(name)
    if data is None:
        return f'<p class="findings">image {escape(name)} not found</p>'
    encoded = base64.b64encode(data).decode("ascii")
    return f'<img alt="{escape(name)}" src="data:image/png;base64,{encoded}">'


def _message(text: str, image: str = "", buttons: Sequence[str] = ()) -> str:
    keys = "".join(f"<span>{escape(b)}</span>" for b in buttons)
    row = f'<div class="buttons">{keys}</div>' if keys else ""
    return f'<div class="msg">{image}{text}{row}</div>'


def _letters(ask: Ask) -> list[str]:
    shown = [letter(p) for p in range(len(ask.option_order))]
    return [*shown, questions.SUBMIT] if ask.is_multi else shown


def question_section(
    question: Question, deck_title: str, images: Mapping[str, bytes], findings: Sequence[str]
) -> str:
    private = preview_ask(question, group_chat=False)
    in_group = preview_ask(question, group_chat=True)
    image = _image(images, question.image)
    explanation_image = _image(images, question.explanation_image)
    right = private.right_positions
    wrong = frozenset({max(set(range(len(question.options))) - right)})
    parts = [
        f'<section id="{escape(question.id)}">',
        f"<h2>{escape(question.id)}</h2>",
        f'<p class="meta">topic {escape(question.topic)} · {question.picks} to pick'
        f"{' · scenario' if question.scenario else ''}"
        f"{' · one photo message' if captioned(question, private, deck_title) else ''}"
        f" · source {escape(question.source or 'none')}</p>",
    ]
    if findings:
        items = "".join(f"<li>{escape(f)}</li>" for f in findings)
        parts.append(f'<div class="findings"><b>check-decks --strict</b><ul>{items}</ul></div>')
    else:
        parts.append('<p class="ok">check-decks --strict: no findings</p>')
    tally = Tally(answered=5, correct=3, first_right=None)
    private_question = questions.question_message(question, private, deck_title)
    marked_wrong = questions.answered_message(question, private, wrong, deck_title)
    open_now = group.open_question_message(question, in_group, deck_title, 3, ZoneInfo("UTC"))
    closed = group.reveal_message(question, in_group, deck_title, tally)
    explained_right = questions.explanation_message(question, private, True)
    explained_wrong = questions.explanation_message(question, private, False)
    escape(group.answer_alert(question, in_group, False))
    shown = [
        ("Private: the question", _message(private_question, image, _letters(private))),
        ("Private: answered right", _message(explained_right, explanation_image)),
        (
            "Private: answered wrong",
            _message(marked_wrong) + _message(explained_wrong, explanation_image),
        ),
        ("Group: open", _message(open_now, image, _letters(in_group))),
        (
            "Group: a member's alert",
            _message(escape(group.answer_alert(question, in_group, False))),
        ),
        ("Group: closed", _message(closed, image)),
    ]
    cells = "".join(f'<div><p class="label">{label}</p>{html}</div>' for label, html in shown)
    parts.append(f'<div class="cols">{cells}</div></section>')
    return "\n".join(parts)


def preview_page(
    deck: Deck,
    file_name: str,
    images: Mapping[str, bytes],
    findings: Mapping[str, Sequence[str]],
    made_at: datetime,
) -> str:
    """The whole page; `findings` by question id (`-` for the deck's own)."""
    deck_findings = findings.get("-", ())
    head = [
        "<!doctype html>",
        '<html lang="en"><head><meta charset="utf-8">',
        '<meta name="viewport" content="width=device-width, initial-scale=1">',
        f"<title>{escape(deck.title)}: preview</title><style>{STYLE}</style></head><body>",
        f"<h1>{escape(deck.title)}</h1>",
        f'<p class="meta">{escape(file_name)} · deck id {escape(deck.id)} · '
        f"{len(deck.questions)} questions · previewed {made_at:%Y-%m-%d %H:%M} UTC. Options "
        "are shown in deck order (right ones first); the bot shuffles them for every ask.</p>",
    ]
    if deck_findings:
        items = "".join(f"<li>{escape(f)}</li>" for f in deck_findings)
        head.append(f'<div class="findings"><b>The deck</b><ul>{items}</ul></div>')
    body = [question_section(q, deck.title, images, findings.get(q.id, ())) for q in deck.questions]
    return "\n".join([*head, *body, "</body></html>"]) + "\n"
