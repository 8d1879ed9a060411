""""Did you mean" through the indexed vocabulary (adrguard.core.nearest): the same answer as
difflib's get_close_matches on ordinary vocabularies, and a bounded search on huge ones."""

from __future__ import annotations

import difflib
import time

from hypothesis import given, settings
from hypothesis import strategies as st

from adrguard.core.nearest import MAX_LENGTH, Budget, Vocabulary

WORDS = st.text(alphabet="abcdeé-", min_size=1, max_size=12)


@given(st.lists(WORDS, max_size=40), WORDS, st.sampled_from([0.5, 0.6, 0.75, 0.8]))
@settings(max_examples=400, deadline=None)
def test_the_answer_is_difflibs_on_an_ordinary_vocabulary(
    words: list[str], word: str, cutoff: float
) -> None:
    expected = difflib.get_close_matches(word, words, n=1, cutoff=cutoff)
    assert Vocabulary(words).closest(word, cutoff) == (expected[0] if expected else None)


def test_ties_go_to_the_greater_word_as_in_difflib() -> None:
    words = ["abcx", "abcy", "abcw"]
    assert difflib.get_close_matches("abcz", words, n=1, cutoff=0.6) == ["abcy"]
    assert Vocabulary(words).closest("abcz", 0.6) == "abcy"


def test_words_too_long_are_never_compared() -> None:
    long = "a" * (MAX_LENGTH + 1)
    assert Vocabulary([long]).closest(long[:-1] + "b", 0.5) is None
    assert Vocabulary(["accepted"]).closest("acepted" + "x" * MAX_LENGTH, 0.1) is None


def test_a_huge_vocabulary_is_searched_by_prefix_and_suffix_in_bounded_time() -> None:
    words = [f"section-{k:06d}-alpha" for k in range(50_000)]
    index = Vocabulary(words)
    started = time.process_time()
    found = [index.closest(f"section-{k:06d}-alphx", 0.6) for k in range(0, 50_000, 50)]
    assert time.process_time() - started < 5.0
    assert found == [f"section-{k:06d}-alpha" for k in range(0, 50_000, 50)]
    assert index.closest(f"xection-{123:06d}-alpha", 0.6) == "section-000123-alpha"  # a typo first


def test_a_budget_stops_the_comparisons() -> None:
    index = Vocabulary(["accepted", "rejected", "proposed"])
    budget = Budget(2)
    assert index.closest("acepted", 0.75, budget) == "accepted"  # the first compared
    assert budget.left == 0
    assert index.closest("acepted", 0.75, budget) is None  # nothing compared any more


LETTERS = st.text(alphabet="abcdefgxyz中 ", min_size=1, max_size=10)


@given(st.lists(LETTERS, max_size=60), LETTERS, st.sampled_from([0.3, 0.6, 0.9]))
@settings(max_examples=300, deadline=None)
def test_words_passed_over_by_their_characters_are_those_difflib_rejects(
    words: list[str], word: str, cutoff: float
) -> None:
    """A word that shares too few characters with the one asked about is passed over before
    difflib's ratios run (issue 30): on words that share few characters, the answer is still
    difflib's, and a budget counts every word compared or passed over."""
    expected = difflib.get_close_matches(word, words, n=1, cutoff=cutoff)
    assert Vocabulary(words).closest(word, cutoff) == (expected[0] if expected else None)
    budget = Budget(10_000)
    Vocabulary(words).closest(word, cutoff, budget)
    lo = max(1, int(cutoff * len(word) / (2 - cutoff)))
    hi = int(len(word) * (2 - cutoff) / cutoff) + 1
    assert 10_000 - budget.left == len({w for w in words if lo <= len(w) <= hi})
