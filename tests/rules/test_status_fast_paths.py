"""ADR103's cheap reading of a status (the vocabulary reads its words) answers as the full
guess does."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from adrguard.core.options import Options
from adrguard.core.options import Vocabulary as StatusWords
from adrguard.rules.statuses import (
    _guessed_key,
    _no_word_means_unknown,
    _read_plainly,
    _with_statuses,
)

_PIECES = [
    "Accepted", "accepted", "Superseded by [ADR-0007](0007-use-x.md)", "superseded by ADR 7",
    "Proposed | **Accepted** | Deprecated", "~~Proposed~~ Accepted", "experimental",
    "Placeholder", "merged", "The steps above have been implemented", "{proposed | accepted}",
    "2020-01-02 proposed; 2020-03-04 accepted", "Acepted", "parked", "on hold", "Draft",
    "proposed | partially superseded by [8](0008-x.md)", "✅ Accepted ⬜ Deprecated", "",
    "2021-05-01", "Rejected (see ADR 3)", "in-progress", "Deprecated.", "🟢 Accepted",
]


@given(
    st.lists(st.sampled_from(_PIECES), min_size=1, max_size=3),
    st.sampled_from([" ", "; ", ", "]),
)
def test_the_cheap_reading_answers_as_the_guess(pieces: list[str], joiner: str) -> None:
    raw = joiner.join(pieces)
    for synonyms in (
        _with_statuses(Options().status_synonyms),
        _with_statuses(StatusWords({"parked": "proposed", "on hold": "proposed"})),
    ):
        assert _no_word_means_unknown(synonyms)
        assert _guessed_key(raw, synonyms, True) == _guessed_key(raw, synonyms, False)


def test_a_vocabulary_with_a_word_for_unknown_is_read_the_full_way() -> None:
    synonyms = _with_statuses(StatusWords({"limbo": " Unknown "}))
    assert not _no_word_means_unknown(synonyms)
    assert _no_word_means_unknown(_with_statuses(Options().status_synonyms))


def test_a_plain_word_and_a_supersession_clause_take_the_cheap_reading() -> None:
    synonyms = _with_statuses(Options().status_synonyms)
    assert _read_plainly("Accepted", synonyms)
    assert _read_plainly("superseded by [ADR-0218](0218-use-kafka.md)", synonyms)
    assert not _read_plainly("experimental", synonyms)
    assert not _read_plainly("{proposed | accepted}", synonyms)
