"""core/authoring's pure parts: dates written like the log's, names in the log's scheme, the
next number and the collisions of claimed numbers."""

from __future__ import annotations

import datetime as dt

import pytest

from adrguard.core.authoring import wording
from adrguard.core.authoring.claims import Claimed, Claims, collisions, next_number
from adrguard.core.authoring.dating import write_like
from adrguard.core.authoring.names import NameStyle, record_path, slugify, stem
from adrguard.core.authoring.style import Style
from adrguard.core.model import Corpus, RelKind, SourceFile, Status
from adrguard.core.options import Options
from adrguard.core.parse.record import parse
from adrguard.core.vocabulary import LANGUAGES, STATUS_SYNONYMS

DAY = dt.date(2024, 6, 1)


@pytest.mark.parametrize(
    ("example", "written"),
    [
        ("2018-02-05", "2024-06-01"),
        ("2018-02", "2024-06"),
        ("20180205", "20240601"),
        ("22.11.2017", "01.06.2024"),
        ("5.1.2018", "1.6.2024"),
        ("2017/11/22", "2024/06/01"),
        ("February 5, 2018", "June 1, 2024"),
        ("Feb 5, 2018", "Jun 1, 2024"),
        ("5th February 2018", "1st June 2024"),
        ("FEBRUARY 05, 2018", "JUNE 01, 2024"),
        ("2018年2月5日", "2024年6月1日"),
        ("05/02/2018", "2024-06-01"),  # the order does not show: ISO
        ("5 de febrero de 2018", "2024-06-01"),  # month names of another language: ISO
    ],
)
def test_a_date_is_written_like_the_logs_example(example: str, written: str) -> None:
    assert write_like(example, DAY) == written


def test_a_numeric_date_follows_the_order_the_log_uses() -> None:
    assert write_like("05/02/2018", DAY, day_first=True) == "01/06/2024"
    assert write_like("05/02/2018", DAY, day_first=False) == "06/01/2024"


def test_slugs_and_names_follow_the_scheme() -> None:
    assert slugify("Use Kafka for événements! (v2)") == "use-kafka-for-evenements-v2"
    assert slugify("The log's own style") == "the-logs-own-style"
    assert slugify("!!!") == "record"
    assert len(slugify("word " * 100)) <= 80
    prefixed = NameStyle(prefix="ADR", prefix_sep="-", width=3)
    assert stem(prefixed, "Use Kafka", 7, DAY) == "ADR-007-use-kafka"
    underscored = NameStyle(prefix="adr", prefix_sep="_", padded=False, head_sep="_",
                            word_sep="_")
    assert stem(underscored, "Use Kafka", 7, DAY) == "adr_7_use_kafka"
    dated = NameStyle(kind="dated", compact_date=True)
    assert stem(dated, "Use Kafka", None, DAY) == "20240601-use-kafka"
    folder = NameStyle(kind="dated", folder_file="README.md")
    assert record_path("docs/dr", folder, stem(folder, "Use Kafka", None, DAY)) == \
        "docs/dr/2024-06-01-use-kafka/README.md"


def _corpus(*paths: str) -> Corpus:
    records = [parse(SourceFile(p, "docs/adr", f"# {i}. T\n".encode(), archived="archive" in p),
                     Options()) for i, p in enumerate(paths, 1)]
    return Corpus(tuple(records), roots=("docs/adr",))


def test_the_next_number_counts_archived_records_and_claims() -> None:
    corpus = _corpus("docs/adr/0001-a.md", "docs/adr/archive/0009-old.md")
    assert next_number(corpus, "docs/adr") == 10
    claims = Claims((Claimed("pr", "pr", "docs/adr/0012-x.md", "docs/adr", 12, "ADR-0012"),))
    assert next_number(corpus, "docs/adr", claims) == 13
    assert next_number(corpus, "docs/other", claims) == 1


def test_a_collision_needs_a_record_of_this_change_and_the_same_number() -> None:
    corpus = _corpus("docs/adr/0001-a.md", "docs/adr/0002-b.md")
    theirs = Claimed("pr", "pr", "docs/adr/0002-c.md", "docs/adr", 2, "ADR-0002", "C", "b" * 40)
    mine = Claims((theirs,), {"pr": frozenset({"docs/adr/0002-b.md"})})
    [hit] = collisions(corpus, mine)
    assert (hit.decision.path, hit.next_free) == ("docs/adr/0002-b.md", 3)
    old = Claims((theirs,), {"pr": frozenset()})  # 0002-b is not new here: theirs is the clash
    assert collisions(corpus, old) == []
    same = Claimed("pr", "pr", "docs/adr/0002-b.md", "docs/adr", 2, "ADR-0002", "B", "b" * 40)
    stacked = Claims((same,), {"pr": frozenset({"docs/adr/0002-b.md"})},
                     {"docs/adr/0002-b.md": "b" * 40})
    assert collisions(corpus, stacked) == []


def test_every_written_status_word_is_a_vocabulary_word_of_its_status() -> None:
    for code, lang in LANGUAGES.items():
        for status, word in lang.words.items():
            assert STATUS_SYNONYMS.get(word.casefold()) == status, (code, word)


@pytest.mark.parametrize("code", sorted(LANGUAGES))
@pytest.mark.parametrize("casing", ["title", "lower", "upper"])
def test_superseded_by_in_each_language_reads_back_with_its_successor(
    code: str, casing: str
) -> None:
    style = Style(language=code, casing=casing)
    value = style.superseded_by("[5. Use Kafka](0005-use-kafka.md)")
    assert value is not None
    for text in (f"# 3. Old\n\n## Status\n\n{value}\n\n## Context\n\nx\n",
                 f"# 3. Old\n\n* Status: {value}\n\n## Context\n\nx\n"):
        d = parse(SourceFile("docs/adr/0003-old.md", "docs/adr", text.encode()), Options())
        assert d.status is Status.SUPERSEDED, value
        assert [(r.kind, r.target_raw.casefold()) for r in d.relationships] == [
            (RelKind.SUPERSEDED_BY, "0005-use-kafka.md")], value


A, P, D = Status.ACCEPTED, Status.PROPOSED, Status.DRAFT


@pytest.mark.parametrize(
    ("found", "labels", "language"),
    [
        ([(A, "accepted")] * 5 + [(P, "proposé")], (), "en"),  # one French word is no habit
        ([(A, "approved"), (P, "proposé"), (D, "brouillon")], (), "fr"),
        ([(A, "approved")] * 2 + [(P, "proposé"), (D, "brouillon")], (), "en"),  # a tie
        ([(A, "acceptée"), (P, "proposée"), (D, "brouillon")], (), "fr-f"),
        ([(A, "完成"), (A, "通过"), (P, "提议")], (), "zh"),
        ([], ("* Statut : ",), "fr"),  # no status word: the label says
        ([], ("## Status",), "en"),
        ([], (), "en"),
    ],
)
def test_the_language_of_a_log_is_the_one_most_of_its_words_are_in(
    found: list[tuple[Status, str]], labels: tuple[str, ...], language: str
) -> None:
    assert wording.language(found, labels) == language
