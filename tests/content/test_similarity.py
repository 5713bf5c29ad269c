"""Text measures of the strict checker: sentences, stems, option keys and question likeness."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from content.checks.duplicates import NEAR_DUPLICATE, Stem, similarity
from content.checks.similarity import first_sentence, key_words, option_key, stem
from content.checks.tells import tail_probability
from content.models import Question


def stem_of(text: str, answer: str = "A") -> Stem:
    """The comparable form of a question with this text and answer."""
    question = Question(id="q", topic="t", text=text, answer=answer, wrong=["W"], explanation="E.")
    return Stem.of("deck.yaml", question)


@pytest.mark.parametrize(
    ("text", "first"),
    [
        ("One. Two.", "One."),
        ("NCCL 2.28 adds AllToAll. Then more.", "NCCL 2.28 adds AllToAll."),
        ("It is 1.5x faster. Then more.", "It is 1.5x faster."),
        ("Use a fabric, e.g. InfiniBand. Then.", "Use a fabric, e.g. InfiniBand."),
        ("NVLink vs. PCIe differs. Then.", "NVLink vs. PCIe differs."),
        ("One link, i.e. NVLink. Then.", "One link, i.e. NVLink."),
        ("Goyal et al. 2017 found it. Then.", "Goyal et al. 2017 found it."),
        ("Version 2.28.3 is out. 2.29 follows.", "Version 2.28.3 is out."),
        ("Is it? Yes.", "Is it?"),
        ('He said "go." Then left.', 'He said "go."'),
        ("First part\n\nsecond paragraph.", "First part"),
        (
            "lowercase after. a period does not end it.",
            "lowercase after. a period does not end it.",
        ),
        ("No end at all", "No end at all"),
    ],
)
def test_first_sentence(text: str, first: str) -> None:
    """A sentence ends at . ! ? before a capital or digit, not after e.g./vs./i.e. or in numbers."""
    assert first_sentence(text) == first


_WORD = st.sampled_from(
    [
        "NCCL",
        "GPU",
        "e.g.",
        "i.e.",
        "vs.",
        "1.5x",
        "2.28",
        "v2.18.3",
        "ring",
        "all-reduce",
        "(PCIe)",
    ]
)


@given(st.lists(_WORD, min_size=1, max_size=12), st.lists(_WORD, min_size=1, max_size=12))
def test_first_sentence_ends_only_at_the_real_end(first: list[str], second: list[str]) -> None:
    """Two sentences of words, abbreviations and version numbers split exactly between them."""
    one = " ".join(["Then", *first, "done."])
    two = " ".join(["Next", *second, "done."])

    assert first_sentence(f"{one} {two}") == one


def test_stem_merges_word_forms() -> None:
    """Plural, -ing and -ed forms share a stem; double consonants and -ss words survive."""
    assert {stem(word) for word in ("enable", "enables", "enabled", "enabling")} == {"enabl"}
    assert stem("splitting") == stem("split") == "split"
    assert stem("processes") == stem("process") == "process"
    assert stem("GPUs".lower()) == "gpu"


def test_key_words_drop_stop_words_and_merge_paraphrases() -> None:
    """Question words go, paraphrases ('lowers'/'reduces', 'several'/'multiple') become one."""
    assert key_words("Which of these lowers latency on several GPUs?") == key_words(
        "What reduces the latency across multiple GPUs"
    )


def test_option_key_ignores_case_and_punctuation_not_numbers() -> None:
    """Case, punctuation and spacing go; 1.5x stays apart from 15x and C++ from C."""
    assert option_key("  Tensor-Parallelism (TP)! ") == "tensor parallelism tp"
    assert option_key("1.5x") != option_key("15x")
    assert option_key("C++") != option_key("C")


REWORDINGS = [
    (
        "What does GPUDirect RDMA enable in a multi-node GPU cluster?",
        "In a multi-node GPU cluster, what does GPUDirect RDMA make possible?",
    ),
    (
        "What is 'ZeRO' (Zero Redundancy Optimizer) and which parallel training problem "
        "does it primarily address?",
        "Which problem of data-parallel training does the Zero Redundancy Optimizer (ZeRO) "
        "mainly solve?",
    ),
    (
        "When training on multiple nodes with InfiniBand networking, which software layer "
        "typically sits between NCCL and the physical network to provide RDMA-capable transport?",
        "Which software layer sits between NCCL and an InfiniBand network to provide RDMA "
        "transport when training across multiple nodes?",
    ),
    (
        "In a multi-GPU inference deployment, what technique reduces latency by splitting a "
        "single large request's tensor operations across multiple GPUs simultaneously?",
        "Which technique lowers per-request latency in multi-GPU inference by splitting one "
        "request's tensor operations across several GPUs at once?",
    ),
]

SAME_TOPIC = [
    (
        "What does GPUDirect RDMA enable in a multi-node GPU cluster?",
        "Which kernel module must be loaded to use GPUDirect RDMA in a multi-node GPU cluster?",
    ),
    (
        "What is 'ZeRO' (Zero Redundancy Optimizer) and which parallel training problem "
        "does it primarily address?",
        "Which ZeRO stage partitions the model parameters across data-parallel ranks?",
    ),
    (
        "What is the effect of increasing the number of GPUs in a data-parallel setup if the "
        "per-GPU batch size is kept constant?",
        "How should the learning rate change when the global batch size of data-parallel "
        "training grows eightfold?",
    ),
    (
        "When training on multiple nodes with InfiniBand networking, which software layer "
        "typically sits between NCCL and the physical network to provide RDMA-capable transport?",
        "Which NCCL environment variable selects the InfiniBand adapters used when training on "
        "multiple nodes?",
    ),
    (
        "In a multi-GPU inference deployment, what technique reduces latency by splitting a "
        "single large request's tensor operations across multiple GPUs simultaneously?",
        "In a multi-GPU inference deployment, what technique raises throughput by grouping many "
        "requests into one batch on the fly?",
    ),
]


@pytest.mark.parametrize(("first", "second"), REWORDINGS)
def test_rewording_is_a_near_duplicate(first: str, second: str) -> None:
    """A reworded stem scores at least NEAR_DUPLICATE even with different answers."""
    assert similarity(stem_of(first, "A"), stem_of(second, "B")) >= NEAR_DUPLICATE


@pytest.mark.parametrize(("first", "second"), SAME_TOPIC)
def test_different_questions_on_one_topic_are_not_duplicates(first: str, second: str) -> None:
    """Two questions on one topic that ask different things score 0 (under the bar)."""
    assert similarity(stem_of(first, "A"), stem_of(second, "B")) == 0.0


def test_looser_rewording_with_the_same_answer_is_a_near_duplicate() -> None:
    """A freer rewording (under NEAR_DUPLICATE) still counts when the right answers agree."""
    first = (
        "What is the effect of increasing the number of GPUs in a data-parallel setup if the "
        "per-GPU batch size is kept constant?"
    )
    second = "If the per-GPU batch size stays constant, what happens when you add GPUs?"
    answer = "Effective global batch size increases, which may require learning rate scaling"
    reworded = "The global batch size grows, so the learning rate may need scaling"

    score = similarity(stem_of(first, answer), stem_of(second, reworded))

    assert 0.4 <= score < NEAR_DUPLICATE
    assert similarity(stem_of(first, "A"), stem_of(second, "B")) == 0.0


def test_tail_probability_is_the_binomial_tail() -> None:
    """With equal chances it is the binomial tail: P(X >= 4 | n=10, p=1/4) = 0.2241."""
    assert tail_probability([0.25] * 10, 4) == pytest.approx(0.224124908447)
    assert tail_probability([0.25] * 10, 0) == pytest.approx(1.0)
    assert tail_probability([0.5, 0.25], 2) == pytest.approx(0.125)
