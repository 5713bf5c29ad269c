"""Text measures for the strict deck checker: key words, stem similarity, option keys, sentences.

Everything here is deliberately simple and explainable to an author: words are lowercase
ASCII runs of letters and digits, stop words are dropped, and a crude suffix stripper makes
"enables", "enabled" and "enable" one word. No language model, no dictionary.
"""

from __future__ import annotations

import re
import unicodedata

# Question words and function words: they say nothing about what a question asks.
_STOPWORD_TEXT = """
a about above after all also an and any are as at be because been being best both but by
can could describe describes did do does doing during each either following for from had
has have how i if in into is it its main may might more most must neither no nor not of
on one only or other over mainly primarily primary should so some such than that the their them
then there these they this those through to typical typically under used uses using very
via inside within onto upon among across was we were what when where whether which while
who whom why will with would you your
"""
STOPWORDS = frozenset(_STOPWORD_TEXT.split())

# Suffixes stripped, longest first, if at least three letters remain.
_SUFFIXES = ("ing", "ies", "es", "ed", "s", "e")
_MIN_STEM = 3
# Generic words that question writers swap when they reword; never domain terms, so
# that two questions on one topic do not grow alike. Keys and values are stemmed below.
_SYNONYMS = {
    "multiple": ("several", "many"),
    "reduce": ("lower", "decrease", "cut", "minimize", "minimise"),
    "increase": ("raise", "grow", "add", "boost"),
    "enable": ("allow", "permit", "let"),
    "solve": ("address", "tackle"),
    "constant": ("fixed", "unchanged"),
    "simultaneous": ("simultaneously", "concurrently", "concurrent", "once"),
    "effect": ("impact", "result", "happen", "consequence"),
    "technique": ("method", "approach", "strategy"),
    "split": ("divide",),
}

# A right answer or a distractor that points at the other options.
_ABOVE = re.compile(
    r"\b(all|none|both|neither)\s+(of\s+)?(the\s+)?(above|preceding|previous|options|answers)\b",
    re.IGNORECASE,
)

# Words whose trailing period never ends a sentence ("e.g. NCCL", "vs. PCIe", "et al. 2017").
_ABBREVIATION_TEXT = (
    "e.g eg i.e ie vs cf approx ca al fig figs no nos sec resp incl ref refs mr mrs ms dr st "
    "u.s jr sr vol eq eqs ver"
)
_ABBREVIATIONS = frozenset(_ABBREVIATION_TEXT.split())
# A candidate sentence end: ., ! or ? (possibly closed by quotes or brackets), then
# whitespace, then something that can start a sentence.
_SENTENCE_END = re.compile(r"[.!?]+[\"')\]’”]*(?=\s+[\"'(\[‘“]?[A-Z0-9])")
_PARAGRAPH = re.compile(r"\n\s*\n")


def _ascii_words(text: str) -> list[str]:
    ascii_text = unicodedata.normalize("NFKD", text).encode("ascii", "ignore").decode()
    return re.findall(r"[a-z0-9]+", ascii_text.lower())


def stem(word: str) -> str:
    """A crude stem: 'enables'/'enabled'/'enable' -> 'enabl', 'GPUs' -> 'gpu', 'process' kept."""
    if word.endswith("ss") or word.isdigit():
        return word
    for suffix in _SUFFIXES:
        if word.endswith(suffix) and len(word) - len(suffix) >= _MIN_STEM:
            base = word[: -len(suffix)]
            if suffix in ("ing", "ed") and base[-1] == base[-2] and base[-1] not in "aeioulsz":
                base = base[:-1]  # splitting -> split, stopped -> stop; install kept
            return base
    return word


_CANONICAL = {
    stem(synonym): stem(word) for word, synonyms in _SYNONYMS.items() for synonym in synonyms
}


def key_word_pairs(text: str) -> list[tuple[str, str]]:
    """(word as written, lowercased; its key) for each content word of `text`, in order."""
    pairs = []
    for word in _ascii_words(text):
        if len(word) > 1 and word not in STOPWORDS:
            key = stem(word)
            pairs.append((word, _CANONICAL.get(key, key)))
    return pairs


def key_words(text: str) -> list[str]:
    """Stemmed content words of `text` in order, paraphrases merged ('lowers' -> 'reduc').

    Stop words and one-letter words are dropped.
    """
    return [key for _, key in key_word_pairs(text)]


def jaccard(first: frozenset[str], second: frozenset[str]) -> float:
    """Shared words over all words of the two sets; 0.0 when both are empty."""
    union = len(first | second)
    return len(first & second) / union if union else 0.0


def option_key(option: str) -> str:
    """An option reduced to lowercase words: case, punctuation and spacing ignored.

    Punctuation becomes a space, so "1.5x" and "15x" stay different; + # % are kept, so
    "C++" and "C" do too.
    """
    text = unicodedata.normalize("NFKC", option).casefold()
    return " ".join(re.sub(r"[^\w+#%]+", " ", text).replace("_", " ").split())


def points_at_other_options(option: str) -> bool:
    """True for 'all of the above', 'none of the above', 'both of the options' and the like."""
    return _ABOVE.search(option) is not None


def _is_abbreviation(text: str, end: int) -> bool:
    """True if the period at `text[end]` closes an abbreviation or an initial."""
    start = end
    while start > 0 and not text[start - 1].isspace() and text[start - 1] not in "([\"'":
        start -= 1
    word = text[start:end].lower()
    if word in _ABBREVIATIONS:
        return True
    return len(word) == 1 and word.isalpha()  # an initial: "J. Smith"


def first_sentence(text: str) -> str:
    """The first sentence of `text`, stripped.

    A sentence ends at '.', '!' or '?' followed by a space and a capital letter, digit or
    opening quote, or at a blank line. A period inside a number ("1.5x", "2.28") is never
    followed by a space, and one after an abbreviation ("e.g.", "i.e.", "vs.") is skipped.
    """
    text = text.strip()
    paragraph = _PARAGRAPH.search(text)
    if paragraph is not None:
        text = text[: paragraph.start()]
    for match in _SENTENCE_END.finditer(text):
        period = match.start()
        if text[period] == "." and _is_abbreviation(text, period):
            continue
        return text[: match.end()].strip()
    return text
