"""What a heading means: which required section (Context, Decision, Consequences) it carries.

A section is found by its meaning, not by its exact text. A required entry such as
``"decision outcome"`` belongs to a *meaning* (here: the decision), and any heading that carries
that meaning satisfies it:

* the name itself, compared casefolded without numbering, markup or punctuation, with a plural
  ``s`` ignored (``## 2. Decision outcome:``, ``## Decisions``);
* a heading that starts with the name followed by a separator (``## Decision: use X``,
  ``### Decision Outcome: AWS Lambda``, ``## Proposal (draft)``, ``## Context of the
  problem``), but not one that merely starts with the same word (``## Decision Drivers``
  carries no decision);
* one part of a combined heading (``## Background & Context``, ``## Context / Problem``,
  ``## Context or problem to solve``);
* a known synonym of the meaning, in several languages (:data:`MEANINGS`);
* a bold pseudo-heading: a paragraph that is only bold text (``**Decision Outcome**``), or a
  bold label ending in a colon (``**Decision:** we use X``).

Entries that belong to no known meaning match by their own text only (with the same prefix and
combined-heading rules). Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import msgspec

from adrguard.core.lazyre import lazy

_NUMBERING = lazy(r"^\s*(?:\d+(?:\.\d+)*[.)]?|[ivx]+[.)])\s+", re.IGNORECASE)
_PUNCT = lazy(r"[^\w\s]")
_SEPARATED = lazy(r"\s*[:(\[,;|/–—]|\s+-\s|\s+(?:of|for|to)\s+")
_COMBINERS = lazy(
    r"\s+(?:&|and|or|und|oder|et|ou|y|o|e|en|и|или|\+)\s+|\s*[/,;&+|]\s*|\s*、\s*"
)

# Meaning -> the section's own names (casefolded, punctuation removed), in English (Nygard,
# MADR) and in the MADR and adr-tools translations and localised ADR templates. A log that writes
# these writes the section.
OWN_NAMES: dict[str, frozenset[str]] = {
    "context": frozenset(
        {
            "context", "context and problem statement", "problem statement", "background",
            "context and problem", "background and context",
            # fr, de, es, pt, it, nl, pl, ru
            "contexte", "contexte et énoncé du problème", "contexte et définition du problème",
            "kontext", "hintergrund", "kontext und problemstellung", "contexto",
            "contexto y planteamiento del problema", "contexto e enunciado do problema",
            "contexto e declaração do problema", "contesto",
            "contesto e definizione del problema", "achtergrond", "context en probleemstelling",
            "kontekst", "kontekst i problem", "контекст", "контекст и постановка проблемы",
            # zh, ja, ko
            "背景", "上下文", "语境", "背景和问题陈述", "コンテキスト", "背景と問題", "배경",
            "맥락", "컨텍스트",
        }
    ),
    "decision": frozenset(
        {
            "decision", "decision outcome", "the decision", "decision made",
            "décision", "résultat de la décision", "décision prise", "entscheidung",
            "entscheidungsergebnis", "ergebnis der entscheidung", "getroffene entscheidung",
            "decisión", "resultado de la decisión", "decisão", "resultado da decisão",
            "decisione", "esito della decisione", "besluit", "beslissing", "decyzja",
            "wynik decyzji", "решение", "результат решения", "принятое решение",
            "决策", "决定", "決定", "決定事項", "決策", "결정", "결정 결과",
        }
    ),
    "consequences": frozenset(
        {
            "consequences", "consequence", "positive consequences", "negative consequences",
            "consequences of the decision", "conséquences", "conséquences positives",
            "conséquences négatives", "konsequenzen", "positive konsequenzen",
            "negative konsequenzen", "folgen", "consecuencias", "consecuencias positivas",
            "consecuencias negativas", "consequências", "conseguenze", "gevolgen",
            "consequenties", "konsekwencje", "последствия", "后果", "结果", "結果", "결과",
        }
    ),
}
# Meaning -> other headings that carry it in real logs (RFC, PEP, Y-statement and home-grown
# templates). They keep a "missing section" claim from being false, but a log that writes only
# these is not thereby asked for the section. "Proposal" and its kin carry a decision, never
# consequences.
STAND_INS: dict[str, frozenset[str]] = {
    "context": frozenset(
        {
            "problem", "problem description", "the problem", "motivation", "issue",
            "the issue", "situation", "introduction", "statement of the problem", "need",
            "needs", "the need", "objective", "objectives", "énoncé du problème",
            "définition du problème", "problématique", "problemstellung",
            "planteamiento del problema", "probleemstelling", "tło", "предпосылки",
            "постановка проблемы", "問題", "状況", "상황", "문제",
        }
    ),
    "decision": frozenset(
        {
            "outcome", "resolution", "proposal", "proposed solution", "proposed change",
            "proposed changes", "proposed design", "what s proposed", "solution", "approach",
            "the solution", "solution proposed", "development proposed", "final decision",
            "decided solution", "design", "detailed design", "design details",
            "design proposal", "technical design",
            "overview", "summary", "chosen option", "chosen solution", "selected option",
            "recommendation", "specification", "beschluss", "gewählte option",
            "option choisie", "opción elegida", "결론",
        }
    ),
    "consequences": frozenset(
        {
            "implications", "impact", "impacts", "drawbacks", "trade offs", "tradeoffs",
            "auswirkungen", "影响", "影響", "영향",
        }
    ),
}
MEANINGS: dict[str, frozenset[str]] = {m: OWN_NAMES[m] | STAND_INS[m] for m in OWN_NAMES}


def fold(title: str) -> str:
    """``"## 2. Decision Outcome:"`` → ``"decision outcome"``: casefolded, without numbering,
    markup and punctuation, whitespace collapsed."""
    return _folded(_unnumbered(title.strip().lstrip("#").strip()).casefold())


def _folded(text: str) -> str:
    """:func:`fold` of a title already stripped, unnumbered and casefolded."""
    if not text.replace(" ", "").isalnum():  # else every character is a word's or a space
        text = _PUNCT.sub(" ", text)
    return " ".join(text.split())


# The first characters a heading's numbering can start with are digits (any script's), the
# letters of roman numerals (and those that match them ignoring case) and spaces: a heading that
# starts with any other ASCII letter has none, and is taken as it is without the pattern.
_NOT_NUMBERING = frozenset("abcdefghjklmnopqrstuwyzABCDEFGHJKLMNOPQRSTUWYZ")


def _unnumbered(text: str) -> str:
    """``text`` without a leading section number (``2.``, ``1.3)``, ``iv.``)."""
    if text and text[0] in _NOT_NUMBERING:
        return text
    return _NUMBERING.sub("", text)


def _singular(text: str) -> str:
    return text[:-1] if text.endswith("s") and not text.endswith("ss") else text


def meaning_of(entry: str) -> str | None:
    """The meaning a required entry (or heading) names, if it is a known name."""
    key = fold(entry)
    for meaning, names in MEANINGS.items():
        if key in names or _singular(key) in names:
            return meaning
    return None


class Requirement(msgspec.Struct, frozen=True):
    """One required entry: ``"consequences|outcome"`` accepts any carrier of either."""

    entry: str  # as configured
    names: frozenset[str]  # folded names (and their singular forms) that satisfy it
    own: frozenset[str]  # the subset that shows a log writes the section itself

    @classmethod
    def parse(cls, entry: str) -> Requirement:
        """The meaning of the first choice that names one gives its synonyms; every choice
        also matches as written (``"consequences|outcome"``: any carrier of consequences, or a
        heading called Outcome)."""
        choices = [fold(c) for c in entry.split("|") if fold(c)]
        names: set[str] = set(choices)
        own: set[str] = set(choices)
        meaning = next((m for m in map(meaning_of, choices) if m), None)
        if meaning is not None:
            names.update(MEANINGS[meaning])
            own.update(OWN_NAMES[meaning])
        names.update({_singular(n) for n in names})
        own.update({_singular(n) for n in own})
        return cls(entry, frozenset(names), frozenset(own))

    @property
    def label(self) -> str:
        return " or ".join(f"'{c.strip()}'" for c in self.entry.split("|") if c.strip())

    def carried_by(self, heading: str, own: bool = False) -> bool:
        """Whether a heading (as written, markup allowed) carries this requirement; with
        ``own``, only under one of the section's own names."""
        return self.carried_by_keys(heading_keys(heading), own)

    def carried_by_keys(self, keys: frozenset[str], own: bool = False) -> bool:
        """:meth:`carried_by` for a heading's :func:`heading_keys`."""
        return not keys.isdisjoint(self.own if own else self.names)


def heading_keys(heading: str) -> frozenset[str]:
    """The names a heading may carry: its folded text, the text before a separator
    (``Decision: use X`` → ``decision``), and each part of a combined heading
    (``Background & Context`` → ``background``, ``context``), each also without a plural ``s``."""
    text = _unnumbered(heading.strip().lstrip("#").strip()).casefold()  # folded once
    keys = {_folded(text)}
    light = " ".join(text.split()).strip("*_` ")
    m = _SEPARATED.search(light) if _may_separate(light) else None
    if m and m.start() > 0:
        keys.add(fold(light[: m.start()]))
    # (without a match, the split is ``[light]``: one part, nothing added)
    parts = [fold(p) for p in _COMBINERS.split(light)] if _may_combine(light) else []
    if len(parts) > 1:
        keys.update(p for p in parts if p)
    keys.update([_singular(k) for k in keys])
    keys.discard("")
    return frozenset(keys)


_SEPARATORS = frozenset(":([,;|/–—-")


_COMBINER_CHARS = frozenset("/,;&+|、")
# The words :data:`_COMBINERS` joins parts with (between spaces; ``&`` and ``+`` are marks too)
_COMBINER_WORDS = frozenset({"and", "or", "und", "oder", "et", "ou", "y", "o", "e", "en", "и",
                             "или"})


def _may_combine(light: str) -> bool:
    """Whether :data:`_COMBINERS` can match ``light``: one of its marks, or one of its words
    with whitespace on either side (a word of ``light``, not its first unless whitespace comes
    before it, nor its last unless whitespace follows). A heading without either (``Context``,
    ``Decision Drivers``, ``Pros of the Options``) splits into itself."""
    if not _COMBINER_CHARS.isdisjoint(light):
        return True
    words = light.split()
    if not light[:1].isspace():
        words = words[1:]
    if not light[-1:].isspace():
        words = words[:-1]
    return not _COMBINER_WORDS.isdisjoint(words)


def _may_separate(light: str) -> bool:
    """Whether :data:`_SEPARATED` can match ``light`` (spaces folded to one): each of its
    branches needs one of :data:`_SEPARATORS` or a space before ``of``, ``for`` or ``to``."""
    return (not _SEPARATORS.isdisjoint(light) or " of " in light or " for " in light
            or " to " in light)


def pseudo_headings(markdown: str) -> Iterator[str]:
    """Bold pseudo-headings of a markdown body that have content: a paragraph that starts with
    bold text which is either a whole line followed by text (``**Decision Outcome**`` and a
    paragraph or list below it, before the next heading) or a label ending in a colon
    (``**Decision:** we use X``). Structure comes from pyromark events."""
    import pyromark

    state = 0  # 0 outside, 1 paragraph start, 2 in leading bold, 3 after leading bold
    bold: list[str] = []
    pending = ""  # a bold line waiting for content below it
    for event in pyromark.events(markdown):
        if isinstance(event, str):
            if state == 3 and event in ("SoftBreak", "HardBreak"):
                yield "".join(bold)
                state = 0
            elif state == 2:
                bold.append(" ")
            continue
        start: Any = event.get("Start")
        end: Any = event.get("End")
        text: Any = event.get("Text", event.get("Code"))
        if pending and start is not None:
            if not (isinstance(start, dict) and "Heading" in start):
                yield pending
            pending = ""
        if start == "Paragraph":
            state, bold = 1, []
        elif state == 1:
            state = 2 if start == "Strong" else 0
        elif state == 2:
            if end == "Strong":
                state = 3
            elif isinstance(text, str):
                bold.append(text)
        elif state == 3:
            label = "".join(bold).strip()
            if label.endswith(":") or (isinstance(text, str) and text.lstrip().startswith(":")):
                yield label
            elif end == "Paragraph":
                pending = label
            state = 0
