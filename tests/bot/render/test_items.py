"""The item report's renderers: the text table, the CSV and the static HTML page."""

from __future__ import annotations

import csv
import io
from datetime import UTC, datetime, timedelta

import pytest

from bot.core.items.analysis import DeckFigures, Item, analyse
from bot.core.model import ItemParameters
from bot.core.ports import FirstAnswer
from bot.render.items.html import render_html
from bot.render.items.text import duration, render_csv, render_text
from tests.bot.render.html_page import Page

T0 = datetime(2026, 3, 2, 9, 0, tzinfo=UTC)
SCRIPT = '<script>alert("x")</script> & which one?'
ITEMS = [
    Item("ok", SCRIPT, ("right <b>", "w & 1", "w2", "w3")),
    Item("mis", "Miskeyed?", ("keyed", "really right", "w2", "w3")),
    Item("third", "Third?", ("r", "w1", "w2", "w3")),
    Item("never", "Never asked?", ("r", "w1")),
]


def answer(user: int, question: str, option: int, posted: bool) -> FirstAnswer:
    order = (1, 3, 0, 2)
    return FirstAnswer(
        user_id=user,
        question_id=question,
        option_order=order,
        position=order.index(option),
        correct=option == 0,
        asked_at=T0,
        posted_at=T0 + timedelta(seconds=2) if posted else None,
        answered_at=T0 + timedelta(seconds=10 + user),
    )


def figures(posted: bool = True) -> DeckFigures:
    """Forty learners, the higher the id the abler: `ok` and `third` discriminate, `mis` is
    right only for the ten weakest (the rest pick option 1), `never` has no answers."""
    answers = []
    for user in range(1, 41):
        wrong = 1 + user % 3
        answers.append(answer(user, "ok", 0 if user > 15 else wrong, posted))
        answers.append(answer(user, "mis", 0 if user <= 10 else 1, posted))
        answers.append(answer(user, "third", 0 if user > 20 else wrong, posted))
    return analyse("deck", "A <deck> & co", ITEMS, answers, {"third": 2})


def test_text_lists_flagged_questions_first_with_their_flags() -> None:
    """The flagged questions come first with their flags (`ok` discriminates weakly against a
    rest score that holds the miskeyed item), then the others in deck order, the
    never-answered one with 0 answers and dashes."""
    text = render_text([figures()])
    rows = [line for line in text.splitlines() if line.split(" ")[0] in {"ok", "mis", "third"}]
    rows += [line for line in text.splitlines() if line.startswith("never ")]
    assert [row.split()[0] for row in rows] == ["ok", "mis", "third", "never"]
    assert rows[0].endswith("weak discrimination")
    assert "check the key" in rows[1]
    assert "dead distractors (C, D)" in rows[1]
    assert rows[2].endswith(" 2")
    assert rows[3].split()[1:5] == ["0", "—", "—", "—"]
    assert "Item analysis: A <deck> & co (deck)" in text


def test_text_header_says_which_times_run_from_asked_at() -> None:
    """With no posting time recorded the header says times run from asked_at; with posting
    times it says they run from the posting."""
    unposted = render_text([figures(posted=False)])
    assert "Answer time runs from asked_at" in unposted
    posted = render_text([figures(posted=True)])
    assert "Answer time runs from when the question was posted" in posted
    assert "timed from asked_at" not in posted


def test_csv_has_one_row_per_question_with_every_figure() -> None:
    """Every question is a row (flagged first) with answers, share right, both
    discrimination indices, picks and shares per option, time, open reports and flags."""
    deck = figures()
    rows = list(csv.DictReader(io.StringIO(render_csv([deck]))))
    assert [row["question_id"] for row in rows] == ["ok", "mis", "third", "never"]
    by_id = {item.item.question_id: item for item in deck.items}
    ok = rows[0]
    assert ok["question"] == SCRIPT
    assert int(ok["answers"]) == 40
    assert int(ok["right"]) == 25
    assert float(ok["share_right"]) == pytest.approx(25 / 40)
    assert float(ok["point_biserial"]) == pytest.approx(by_id["ok"].point_biserial, abs=1e-4)
    assert float(ok["upper_lower_27"]) == pytest.approx(by_id["ok"].upper_lower, abs=1e-4)
    assert [int(ok[f"picks_{x}"]) for x in "ABCD"] == list(by_id["ok"].picks)
    assert float(ok["median_seconds"]) == pytest.approx(28.5)
    assert ok["flags"] == "weak discrimination"
    assert rows[1]["flags"].split("; ")[-2:] == ["check the key", "dead distractors"]
    assert rows[1]["dead_options"] == "C D"
    assert (rows[2]["open_reports"], rows[3]["answers"], rows[3]["share_right"]) == ("2", "0", "")
    assert (rows[3]["picks_B"], rows[3]["picks_C"]) == ("0", "")


def test_html_parses_with_one_svg_per_question_and_nothing_external() -> None:
    """The page parses, has exactly one svg chart per question and no script, link, image,
    style sheet or any src/href attribute."""
    page = Page()
    page.feed(render_html([figures()], generated_at=T0))
    page.close()
    assert page.tags.count("svg") == len(ITEMS)
    assert page.tags.count("table") == 1
    assert {"script", "link", "img", "iframe", "object"}.isdisjoint(page.tags)
    assert {"src", "href"}.isdisjoint(page.attrs)


def test_html_escapes_question_texts_options_and_titles() -> None:
    """A question text with <script>, options and a title with < & > appear as text."""
    html = render_html([figures()])
    assert "<script" not in html
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; which one?" in html
    assert "right &lt;b&gt;" in html
    assert "A &lt;deck&gt; &amp; co" in html
    page = Page()
    page.feed(html)
    assert SCRIPT in "".join(page.text)


@pytest.mark.parametrize(
    ("seconds", "shown"),
    [(None, "—"), (8.44, "8.4s"), (59.9, "59.9s"), (245, "4m05s"), (7380, "2h03m")],
)
def test_duration_is_short_and_readable(seconds: float | None, shown: str) -> None:
    """Median times read as seconds, minutes and seconds, or hours and minutes."""
    assert duration(seconds) == shown


def calibrated_figures() -> DeckFigures:
    """The figures with a fit: `ok` and `third` fitted, `never` on priors, `mis` not seen."""
    fitted = T0 + timedelta(days=1)
    parameters = (
        ItemParameters("deck", "ok", -0.42, 1.31, 0.22, 40, False, fitted),
        ItemParameters("deck", "third", 0.8, 0.95, 0.0, 40, False, fitted),
        ItemParameters("deck", "never", 0.0, 1.0, 0.5, 0, True, fitted),
    )
    plain = figures()
    return analyse(
        "deck",
        plain.title,
        ITEMS,
        [answer(u, "ok", 0, True) for u in range(1, 3)],
        {},
        parameters,
    )


def test_text_shows_the_fitted_parameters_beside_the_classical_figures() -> None:
    """b, a and c per question with the fit's date; "prior" for a question left on the
    priors, — for one the fit did not see; the legend explains them."""
    text = render_text([calibrated_figures()])
    words = " ".join(text.split())
    assert "b, a and c fitted 2026-03-03 09:00 UTC" in words
    assert "2 fitted, 1 on priors (few answers)" in words
    rows = {line.split()[0]: line.split() for line in text.splitlines() if line}
    assert rows["ok"][5:8] == ["-0.42", "1.31", "0.22"]
    assert rows["third"][5:8] == ["+0.80", "0.95", "0.00"]
    assert rows["never"][5:8] == ["prior", "—", "—"]
    assert rows["mis"][5:8] == ["—", "—", "—"]
    assert "b, a, c: the item response model's difficulty" in words


def test_text_says_when_a_deck_was_never_calibrated() -> None:
    """Without a stored fit the header says how to get one."""
    words = " ".join(render_text([figures()]).split())
    assert "Not calibrated yet: b, a and c come with `python -m bot calibrate`." in words


def test_csv_and_html_carry_the_fitted_parameters() -> None:
    """The CSV has difficulty, discrimination, guessing, prior_only and fitted_at; the HTML
    has the b, a and c columns."""
    deck = calibrated_figures()
    rows = {row["question_id"]: row for row in csv.DictReader(io.StringIO(render_csv([deck])))}
    assert float(rows["ok"]["difficulty"]) == pytest.approx(-0.42)
    assert (rows["never"]["prior_only"], rows["ok"]["prior_only"], rows["mis"]["guessing"]) == (
        "yes",
        "no",
        "",
    )
    assert rows["ok"]["fitted_at"] == "2026-03-03T09:00:00+00:00"
    page = render_html([deck])
    assert "<th>b</th><th>a</th><th>c</th>" in page
    assert '<td class="num">prior</td>' in page
