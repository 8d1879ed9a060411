"""ADR103: the status vocabulary (registered through :mod:`adrguard.rules.structure`)."""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping

from adrguard.core.findings import Finding, Severity
from adrguard.core.model import Decision, Location, Status
from adrguard.core.nearest import Budget, Vocabulary
from adrguard.core.options import Vocabulary as StatusWords
from adrguard.core.parse import status as st
from adrguard.core.wording import plural
from adrguard.rules.base import BaseRule, RuleContext, RuleMeta


class UnknownStatus(BaseRule):
    """The status is not a word of the status vocabulary.

    **Why**: tools and readers sort records by status; a status adrguard cannot map to proposed,
    accepted, rejected, deprecated, superseded or draft is treated as unknown everywhere
    (supersession checks, indexes). The built-in vocabulary covers the ADR templates and tools
    and the lifecycles of RFC/PEP-style processes in a dozen languages (see
    `docs/statuses.md`); add your own words with the `statuses` config key
    (`statuses = { "on hold" = "proposed" }`).

    What is reported:

    - a template's text left as the status (`{proposed | accepted}`, `Accepted or Rejected`, a
      legend listing the vocabulary): replace it with the record's status;
    - a likely misspelling, with the closest word (`Acepted`: did you mean accepted?);
    - a log whose records consistently use words adrguard does not know (two or more records
      with the same word; for a word close to a vocabulary word, such as `predraft` or
      `Stale`, three records: a misspelling is not repeated that often): one note for the
      whole log, proposing the `statuses` mapping;
    - a log that writes its statuses in its own free words (three records or more, and a
      quarter or more of the records that state a status, say something outside the
      vocabulary in more than two words or far from any status word: `Working on the
      implementation`, `Prototyped in 1.4`): the same one note, while a likely misspelling
      there is still reported;
    - any other unknown status, once per record;
    - a status adrguard had to guess: a word that is not a status but says one plainly
      (`experimental`, `Placeholder`, a pull request's `merged`), a compound value
      (`proposed | partially superseded by [8](0008-x.md)`), a sentence (`The steps above have
      been implemented`). The guess is used (the record lists as proposed, draft ...), and the
      record is reported so that the log says it in its own words; a guessed word that three
      records of a log share, or two that are a quarter of it, is that log's habit: one note
      for the log, proposing the `statuses` mapping. A word mapped with `statuses` is never a
      guess.

    **Bad**: `Status: Acepted`, or `Status: Parked` in one record.

    **Good**: `Status: Accepted`, or `Parked` mapped with `statuses = { parked = "proposed" }`.
    """

    meta = RuleMeta(
        "ADR103",
        "unknown-status",
        "status not in the vocabulary (configurable); suggests the closest word",
        Severity.WARNING,
    )

    def check(self, ctx: RuleContext) -> Iterator[Finding]:
        synonyms = _with_statuses(ctx.options.status_synonyms)
        # root -> unknown word -> (record, hint: the closest vocabulary word, or "")
        house: dict[str, dict[str, list[tuple[Decision, str]]]] = {}
        guesses: dict[str, dict[str, list[tuple[Decision, str]]]] = {}  # root -> word -> ...
        vocabulary: list[Vocabulary] = []  # indexed once per run, when a hint is wanted
        memo: dict[str, str | None] = {}  # word -> closest vocabulary word, once per run
        budget = Budget(HINT_BUDGET)  # comparisons for every hint of the run
        # status as written -> (the guess, its key): a log writes a handful of statuses over
        # its records, each read once per run (ADR 44)
        read: dict[str, tuple[tuple[Status, str, str] | None, str]] = {}
        plain = _no_word_means_unknown(synonyms)  # whether _read_plainly may answer
        for d in ctx.corpus.decisions:
            if d.is_readable and d.status not in (None, Status.UNKNOWN) and d.status_raw:
                reading = read.get(d.status_raw)
                if reading is None:
                    reading = read[d.status_raw] = _guessed_key(d.status_raw, synonyms, plain)
                guessed, key = reading
                if guessed is not None:
                    guesses.setdefault(d.root, {}).setdefault(key, []).append((d, guessed[1]))
            if not d.is_readable or d.status is not Status.UNKNOWN:
                continue
            raw = (d.status_raw or "").strip()
            folded = st.fold(raw)
            template = st.is_template_text(folded, synonyms, st.is_braced(raw))
            if template or st.is_help_text(folded, synonyms):
                yield self.finding(
                    f"the status is still the template's text {st.quote(raw)}: replace it with "
                    "the record's status (proposed, accepted, rejected, deprecated, superseded "
                    "or draft)",
                    Location(d.path, d.status_line),
                    d,
                )
                continue
            if not vocabulary:
                vocabulary.append(Vocabulary(synonyms))
            hint = suggest_status(raw, synonyms, vocabulary[0], memo, budget)
            found = house.setdefault(d.root, {}).setdefault(_status_key(folded), [])
            found.append((d, hint))
        for root, words in sorted(house.items()):
            stating = sum(1 for d in ctx.log(root).records if d.status is not None)
            prose = {w for w, found in words.items() if not _misspelt(w, found)}
            unknown = sum(len(words[w]) for w in prose)
            free_text = unknown >= _HABIT_RECORDS and unknown * _HABIT >= stating
            shared: dict[str, list[Decision]] = {}
            for w, found in sorted(words.items()):
                if (free_text and w in prose) or _is_house_word(found):
                    shared[w] = [d for d, _ in found]
                    continue
                for d, hint in found:
                    yield self._unknown(d, (d.status_raw or "").strip(), hint)
            if shared:
                yield self._log_note(root, shared)
        yield from self._guessed(ctx, guesses)

    def _guessed(
        self, ctx: RuleContext, guesses: dict[str, dict[str, list[tuple[Decision, str]]]]
    ) -> Iterator[Finding]:
        """Statuses read by a guess: a warning per record, or one note for a log's habit."""
        for root, words in sorted(guesses.items()):
            stating = sum(1 for d in ctx.log(root).records if d.status is not None)
            habit: dict[str, list[Decision]] = {}
            for word, found in sorted(words.items()):
                shared = len(found) >= 2 and len(found) * _HABIT >= stating
                if shared or len(found) >= _HABIT_RECORDS:
                    habit[word] = [d for d, _ in found]
                    continue
                for d, why in found:
                    yield self.finding(
                        f"status {st.quote(d.status_raw or '')} is {why}: adrguard reads it as "
                        f"{d.status}; write {d.status} (or the log's own word for it), or map "
                        "the word with `statuses` in the config",
                        Location(d.path, d.status_line),
                        d,
                    )
            if habit:
                yield self._log_note(root, habit)

    def _unknown(self, d: Decision, raw: str, hint: str) -> Finding:
        return self.finding(
            f"status {st.quote(raw)} is not in the status vocabulary{hint}: use proposed, "
            "accepted, rejected, deprecated, superseded or draft, or map the word with "
            "`statuses` in the config",
            Location(d.path, d.status_line),
            d,
        )

    def _log_note(self, root: str, shared: dict[str, list[Decision]]) -> Finding:
        records = sorted((d for ds in shared.values() for d in ds), key=lambda d: d.path)
        words = sorted(shared, key=lambda w: (-len(shared[w]), w))
        listed = ", ".join(f"{st.quote(w, 40)} ({len(shared[w])})" for w in words[:6])
        mapping = ", ".join(f'{json.dumps(w, ensure_ascii=False)} = "<status>"' for w in words[:3])
        first = records[0]
        where = "the repository root" if root in ("", ".") else root
        return self.finding(
            f"{plural(len(records), 'record')} in {where} state statuses adrguard does not know: "
            f"{listed}."
            f" If they are this log's own words, map each to proposed, accepted, rejected, "
            f"deprecated, superseded or draft in the config: statuses = {{ {mapping} }}",
            Location(first.path, first.status_line),
            first,
            related=[d.id for d in records[1:]],
        ).with_severity(Severity.NOTE)


def _misspelt(key: str, found: list[tuple[Decision, str]]) -> bool:
    """Whether an unknown status reads like a misspelling: a word or two close to a
    vocabulary word (a sentence that happens to be close to one is prose)."""
    return any(hint for _, hint in found) and len(key.split()) <= 2


def _is_house_word(found: list[tuple[Decision, str]]) -> bool:
    """Whether an unknown word is the log's own: two records share it, or, when it is close
    to a vocabulary word (a misspelling would be), three records do."""
    if not any(hint for _, hint in found):
        return len(found) >= 2
    return len(found) >= _HABIT_RECORDS


_HABIT = 4  # a guessed word a quarter of a log's records share is the log's habit
_HABIT_RECORDS = 3  # ... and so is one that three records share
_KEY_CHARS = "_'’-"  # besides letters, digits and blanks, what a status's words may hold


def _status_key(folded: str) -> str:
    """The words that name an unknown status (``parked (since May)`` -> ``parked``): the text
    before the first character that is none of ``\\w``, ``\\s``, ``'``, ``’`` and ``-``
    (as the regex engine reads them: alphanumeric, ``_``, blank)."""
    head = folded
    for i, c in enumerate(folded):
        if not (c.isalnum() or c.isspace() or c in _KEY_CHARS):
            head = folded[:i]
            break
    return " ".join(head.split()[:3])[:40] or folded[:40]


def _guessed_key(
    raw: str, synonyms: Mapping[str, str], plain: bool = False
) -> tuple[tuple[Status, str, str] | None, str]:
    """(:func:`~adrguard.core.parse.status.guess` of a status as written, the word it is
    grouped under): what a run asks once per distinct status (ADR 44)."""
    if plain and _read_plainly(raw, synonyms):
        return None, ""
    guessed = st.guess(raw, synonyms)
    if guessed is None:
        return None, ""
    return guessed, guessed[2] or _status_key(st.fold(st.compound(st.choose(raw))))


def _read_plainly(raw: str, synonyms: Mapping[str, str]) -> bool:
    """Whether the vocabulary reads the status by its words alone (no supersession clause,
    history or date to look into): then :func:`~adrguard.core.parse.status.guess` has nothing
    to guess (the vocabulary reads it), and the status parser's slower readings are not
    needed. A cheap sufficient test, never a different answer, for a vocabulary in which no
    word means "unknown" (:func:`_no_word_means_unknown`: then a reading that finds a word finds
    a status)."""
    chosen = st.choose(raw)
    folded = st.fold_for(chosen, synonyms)
    return (
        bool(folded)
        and not st.is_template_text(folded, synonyms, st.is_braced(chosen))
        and st.match(folded, synonyms) is not None
    )


def _no_word_means_unknown(synonyms: Mapping[str, str]) -> bool:
    return all(str(v).strip().casefold() != Status.UNKNOWN.value for v in synonyms.values())


# A status is a few words: the hint looks at the phrases in the first characters only, and all
# hints of a run make at most HINT_BUDGET comparisons (the real logs of benchmarks/ecosystem
# need at most about 600).
SUGGEST_CHARS = 500
SUGGEST_PHRASES = 16
HINT_BUDGET = 50_000


def _letter(c: str) -> bool:
    """A character of ``[^\\W\\d_]`` (a word character that is no decimal digit and no
    underscore), as the regex engine reads it: alphanumeric, not decimal."""
    return c.isalnum() and not c.isdecimal()


def _phrases(text: str, limit: int) -> list[str]:
    """The first ``limit`` phrases of ``text`` (runs of letters joined by single spaces or
    hyphens): what ``re.findall(r"[^\\W\\d_]+(?:[ -][^\\W\\d_]+)*", text)[:limit]`` gives,
    without compiling that Unicode pattern in a run (a hook) that suggests one status."""
    out: list[str] = []
    n = len(text)
    i = 0
    while i < n and len(out) < limit:
        if not _letter(text[i]):
            i += 1
            continue
        start = i
        while True:
            while i < n and _letter(text[i]):
                i += 1
            if i + 1 < n and text[i] in " -" and _letter(text[i + 1]):
                i += 1
                continue
            break
        out.append(text[start:i])
    return out


def _with_statuses(configured: Mapping[str, str]) -> Mapping[str, str]:
    """The vocabulary with every status's own name, as a hashable mapping: the parser's match
    table for it is then built once per run, not once per record."""
    missing = {s.value: s.value for s in Status
               if s is not Status.UNKNOWN and s.value not in configured}
    if not missing and isinstance(configured, StatusWords):
        return configured
    return StatusWords({**configured, **missing})


def suggest_status(
    raw: str,
    synonyms: Mapping[str, str],
    vocabulary: Vocabulary | None = None,
    memo: dict[str, str | None] | None = None,
    budget: Budget | None = None,
) -> str:
    """`` (did you mean 'superseded'?)`` for the vocabulary word closest to ``raw``, or ``""``.
    Tried in order: the whole value, each phrase (words joined by single spaces or hyphens)
    of its first :data:`SUGGEST_CHARS` characters (at most :data:`SUGGEST_PHRASES`), then each
    phrase's first word. ``vocabulary`` (the synonyms indexed), ``memo`` (word -> closest) and
    ``budget`` (comparisons left) are shared by the records of one run."""
    index = vocabulary if vocabulary is not None else Vocabulary(synonyms)
    seen = memo if memo is not None else {}
    text = raw.casefold()
    phrases = _phrases(text[:SUGGEST_CHARS], SUGGEST_PHRASES)
    for candidate in dict.fromkeys([text, *phrases, *(w.split()[0] for w in phrases)]):
        if candidate not in seen:
            seen[candidate] = index.closest(candidate, 0.75, budget)
        match = seen[candidate]
        if match is not None:
            return f" (did you mean {synonyms[match]!r}?)"
    return ""
