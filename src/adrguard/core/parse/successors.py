"""Supersession written in any language: which record replaces this one, and which records this
one replaces.

The text is *marked* first: every link and every id written in it (``ADR-0004``, ``#12``,
``RFC 3``, a file stem such as ``0007-new-way``) becomes one mark character, so each phrase can
say where its target stands, before the verb or after it:

* **replaced by a target** ("this record is superseded"): ``Superseded by X``, ``replaced by X``,
  ``ersetzt durch X``, ``abgelöst durch X``, ``remplacé par X``, ``reemplazado por X``,
  ``substituído por X``, ``sostituito da X``, ``vervangen door X``, ``заменено X``,
  ``대체됨: X``, ``由 X 取代``, ``已被 X 取代``, ``X によって置き換え``, ``X로 대체``;
* **replaces a target** ("this record supersedes"): ``This supersedes X`` (also ``supercedes``,
  ``replaces``), ``Diese Entscheidung ersetzt X``, ``Cette décision remplace X``, ``Esta decisión
  reemplaza X``, ``本决策取代 X`` or a clause that starts with ``取代 X``, ``X を廃止する`` /
  ``X を置き換える``, ``X을 대체한다``.

A phrase counts only when the record is its subject. The words between the start of the clause
and the phrase must all be fillers: a self-reference (``this ADR``, ``本 ADR``, ``この ADR は``),
an auxiliary (``has been``, ``已``), a status word (``Deprecated,``, ``廃止``, ``已废弃``) or a
date. Another target there (``ADR 3 已被 ADR 5 取代``) means the clause is about that record:
nothing is read. A partial subject (``部分``, ``in part``, ``the caching part was``,
``决策 1、2 已被 X 取代``) makes a status statement's successor an amendment (the record stays in
force); in the body only an own subject counts. Relation wording without a target records
nothing. Every pattern is matched once per line after a cheap keyword probe; the patterns hold no
nested unbounded repetition, so a line costs linear time.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

import msgspec

from adrguard.core.lazyre import lazy
from adrguard.core.model import Link, RelKind
from adrguard.core.parse import ids
from adrguard.core.parse.document import Span
from adrguard.core.vocabulary import STATUS_SYNONYMS

MARK = "\x01"
Target = tuple[str, str, int]  # (target as written, link text, column)

# A cheap probe: could the text hold supersession wording in any of the languages?
# (The source is a plain string: word lists and other patterns are built from it.)
KEYWORD_SOURCE = (
    "supers|superc|replac|obsolet|overrid|overrul|ersetz|abgelöst|remplac|supplant|reemplaz"
    "|sustitu|substitu|suplant|superad|superat|sostitu|rimpiazz|vervang|замен|замещ|取代|替代"
    "|代替|替换|替換|接替|置き換|置換|差し替|取って代|廃止|废止|廢止|대체|교체|폐기|後継"
)
KEYWORDS = lazy(KEYWORD_SOURCE)
# The ASCII words of KEYWORDS: in ASCII text, substring tests find what its search finds (no
# other word can occur there) several times faster than the alternation.
ASCII_KEYWORDS = tuple(w for w in KEYWORD_SOURCE.split("|") if w.isascii())


def has_keyword(lower: str) -> bool:
    """Whether lowered (or casefolded) text holds a supersession keyword of any language."""
    return holds_any(lower, ASCII_KEYWORDS, KEYWORDS)


def holds_any(lower: str, ascii_words: tuple[str, ...], words: re.Pattern[str]) -> bool:
    """Whether lowered text holds a word of ``words``, an alternation of plain words whose
    ASCII ones are ``ascii_words``: in ASCII text, substring tests of those (no other word can
    occur there), several times faster than the search."""
    if lower.isascii():
        for w in ascii_words:  # noqa: SIM110 - a loop: any() over a generator costs more
            if w in lower:
                return True
        return False
    return words.search(lower) is not None


def may_hold(text: str, lower: str, *words: str) -> bool:
    """Whether a case-insensitive pattern that needs one of ``words`` (ASCII, lower case) can
    match ``text``: a substring test that skips most lines. Text that is not ASCII always may:
    a case-insensitive pattern matches some non-ASCII letters to ASCII ones (``ſ`` to ``s``,
    the Kelvin sign to ``k``), which the substring test would miss."""
    if not text.isascii():
        return True
    for w in words:  # noqa: SIM110 - a loop: any() over a generator costs more
        if w in lower:
            return True
    return False


class Marked(msgspec.Struct, frozen=True):
    """Casefolded text in which each target is one :data:`MARK`; ``targets[i]`` holds what the
    i-th mark names (a list such as ``ADRs 4 and 5`` is one mark naming two)."""

    text: str
    targets: tuple[tuple[Target, ...], ...]


class Phrase(msgspec.Struct, frozen=True):
    kind: RelKind
    targets: tuple[Target, ...]


_TOKEN = lazy(r"[^\s()\[\]{}<>,;'\"`|*（）【】「」『』、，。：；]+")
_STEM = lazy(r"\d{1,8}[-_][\w.-]*[^\W\d_][\w.-]*|[\w./-]*[^\W_][\w./-]*\.(?:md|markdown)")
_LONGEST_TOKEN = 200


def mark(text: str, spans: Sequence[Span] = ()) -> Marked:
    """``text`` (plain text with its link spans) with every link and id replaced by a mark."""
    out: list[str] = []
    targets: list[tuple[Target, ...]] = []
    pos = 0
    for s in sorted(spans, key=lambda s: s.start):
        if s.start < pos or s.link.is_image:
            continue
        _plain(text[pos : s.start], out, targets)
        out.append(MARK)
        targets.append(((s.link.target, s.link.text, s.link.column),))
        pos = s.end
    _plain(text[pos:], out, targets)
    return Marked("".join(out), tuple(targets))


def _plain(segment: str, out: list[str], targets: list[tuple[Target, ...]]) -> None:
    """Append ``segment`` casefolded, its ids and file stems replaced by marks."""
    found: list[tuple[int, int, tuple[Target, ...]]] = []
    for m in ids.ID_IN_TEXT.finditer(segment):
        found.append((m.start(), m.end(), tuple((t, "", 1) for t in ids.of_match(m))))
    for m in _TOKEN.finditer(segment):
        token = m.group().rstrip(".")
        if len(token) <= _LONGEST_TOKEN and _STEM.fullmatch(token):
            found.append((m.start(), m.start() + len(token), ((token, "", 1),)))
    pos = 0
    for start, end, names in sorted(found, key=lambda f: (f[0], f[0] - f[1])):
        if start < pos:
            continue
        out.append(segment[pos:start].casefold())
        out.append(MARK)
        targets.append(names)
        pos = end
    out.append(segment[pos:].casefold())


# -- the phrases ------------------------------------------------------------------------------
# A note may follow a target: ``ADR-0001（旧方式）``; targets may be listed.
_NOTE = r"(?:\s*[(（][^()（）\x01\n]{0,80}[)）])?"
_AND = (
    r"\s*(?:,|、|，|;|&|\band\b|\bund\b|\bet\b|\by\b|\be\b|\ben\b|\bor\b|\bи\b"
    r"|および|及び|ならびに|と|和|及|与|以及|및|와|과)\s*"
)
# A list holds at most this many more targets: a bounded repetition keeps every pattern linear
# where the list comes first (``X、Y を廃止する``), as the engine retries it at each target.
_MAX_LISTED = 15
_TS = f"{MARK}{_NOTE}(?:{_AND}{MARK}{_NOTE}){{0,{_MAX_LISTED}}}"
_ARTICLE = (
    r"(?:l['’]\s*|(?:the|a|an|der|die|das|den|dem|des|le|la|les|el|los|las|lo|o|os|as|il|i|gli"
    r"|het|de|een|un|une|um|uma|uno)\s+)?"
)
_NOUN = (
    r"(?:(?:adrs?|rfcs?|decisions?|records?|entscheidung|décision|decisión|decisão|decisione"
    r"|besluit|beslissing|решением|решение|决策|決策|决定|決定)\s*)?"
)
_BEFORE_TARGET = r"\s*[:：]?\s*" + _ARTICLE + _NOUN
_REPLACED_BY = (
    r"\b(?:super[sc]eded|replaced|obsoleted|overridden|overruled)\s+(?:by|with)",
    r"\b(?:ersetzt|abgelöst)\s+(?:durch|von|mit)",
    r"\b(?:remplacée?s?|supplantée?s?)\s+par",
    r"\b(?:reemplazad[oa]s?|sustituid[oa]s?|suplantad[oa]s?|superad[oa]s?)\s+(?:por|con)",
    r"\b(?:substituíd[oa]s?|substituid[oa]s?)\s+(?:por|pel[oa]s?|com)",
    r"\b(?:sostituit[oaie]|rimpiazzat[oaie]|superat[oaie])\s+(?:dall['’]|dalla|dalle|dal|dai|da"
    r"|con)",
    r"\bvervangen\s+door",
    r"(?:заменен[оаы]?|заменён|замещен[оаы]?)(?:\s+на)?",
    r"(?:대체|교체)(?:됨|되었음|되었습니다|되었다)?\s*[:：]",
    r"(?:置き換え先|置換先|代替先|後継)\s*[:：]",
)
_BY = lazy("(?:" + "|".join(_REPLACED_BY) + ")" + _BEFORE_TARGET + f"(?P<t>{_TS})")
# The successor written before the verb.
_AGENT = (
    lazy(
        r"(?:已经被|已被|已由|被|由)\s*" + _NOUN + f"(?P<t>{_TS})"
        + r"\s*(?:所)?(?:取代|替代|代替|替换|替換|接替)"
    ),
    lazy(
        f"(?P<t>{_TS})" + r"\s*(?:によって|により|にて|に|へ|で)\s*"
        r"(?:置き換え|置き換わ|置換|代替|取って代わ|差し替え)"
    ),
    lazy(f"(?P<t>{_TS})" + r"\s*(?:으로|로|에\s*의해서?|에\s*의하여)\s*(?:대체|교체)"),
)
# ``取代 ADR 3 中的方案``: what is replaced is a part of the target.
_NOT_A_PART = r"(?!\s*(?:中的|里的|裡的|内的|的|之|の))"
# The record replaces the target: subject first ...
_SELF_SUBJECT = lazy(
    r"(?:\bthis\s+(?:(?:adr|rfc|pep|kep|decision(?:\s+record)?|record|document|proposal)\s+)?"
    r"(?:(?:now|hereby|also|effectively|therefore|fully)\s+)?"
    r"(?P<partial>(?:partially|partly|in\s+part)\s+)?(?:super[sc]edes|replaces|obsoletes)"
    r"|\b(?:diese[rs]?|dieses)\s+(?:adr|entscheidung|dokument|rfc|beschluss)\s+ersetzt"
    r"|\b(?:cette|cet|ce)\s+(?:adr|décision|document|rfc)\s+remplace"
    r"|\b(?:esta|este)\s+(?:adr|decisión|documento|rfc)\s+(?:reemplaza|sustituye)(?:\s+a)?"
    r"|\b(?:esta|este)\s+(?:adr|decisão|documento|rfc)\s+substitui"
    r"|\b(?:questa|questo)\s+(?:adr|decisione|documento|rfc)\s+sostituisce"
    r"|\b(?:deze|dit)\s+(?:adr|besluit|beslissing|document|rfc)\s+vervangt"
    r"|(?:это|данное|данный|настоящее|настоящий)\s+(?:adr|решение|документ|rfc)\s+заменяет"
    r"|(?:本|此|该|該|這|这)\s*(?:adr|决策|決策|决定|決定|记录|記錄|文档|文件|rfc|提案)?\s*"
    r"(?:将|將|特此)?\s*(?:取代|替代|替换|代替)(?:了)?)"
    + _BEFORE_TARGET + f"(?P<t>{_TS})" + _NOT_A_PART
)
# In ASCII text every match of _SELF_SUBJECT holds one of these (its other subjects are written
# in Cyrillic or CJK): ``this`` or the verb of a subject in another language.
_SELF_WORDS = ("this", "ersetzt", "remplace", "reemplaza", "sustituye", "substitui",
               "sostituisce", "vervangt")
# ... or at the start of the clause (取代 ADR 3), or the target first (ADR-3 を廃止する).
_CLAUSE_START = lazy(
    r"(?:取代|替代|替换)(?:了)?\s*" + _NOUN + f"(?P<t>{_TS})" + _NOT_A_PART
)
_OBJECT_FIRST = (
    lazy(
        f"(?P<t>{_TS})" + r"\s*を\s*(?:廃止|置き換え|置換|代替|上書き)"
        r"(?:る|する|します|した|しました|とする|とします|し)?+"
        r"(?!\s*(?:ない|ません|予定|か[。．.？?]|ことを検討|案|べき))"
    ),
    lazy(
        f"(?P<t>{_TS})" + r"\s*(?:을|를)\s*(?:대체|교체|폐기)"
        r"(?:한다|합니다|함|했다|했습니다|하였다|하며|하고|하기로\s*(?:했다|한다|합니다))"
    ),
)

# -- who the clause is about ---------------------------------------------------------------
_BOUNDARY = lazy(r"[(（\[【;；,，。.!?！？:：\n]|\s[-–—]\s|^[-–—*]\s")
_WINDOW = 160  # a clause longer than this before the phrase is not read
_DATE = lazy(r"\d{4}\s*[-/.年]\s*\d{1,2}\s*[-/.月]\s*\d{1,2}日?|\d+")
_PARTIAL = lazy(
    r"partial|partly|in\s+part|\bparts?\b|\bportions?\b|\baspects?\b|\bsome\s+of\b|teilweise"
    r"|\bteils\b|partiellement|en\s+partie|parcialmente|en\s+parte|em\s+parte|parzialmente"
    r"|in\s+parte|gedeeltelijk|частично|部分|一部|일부"
)
# Words that may stand before the phrase when the record is its subject.
_FILLERS = (
    "this that it its the present is was has have had been being now hereby since and also"
    " already entirely fully completely therefore thus status state note adr adrs rfc decision"
    " record document proposal diese dieser dieses entscheidung ist wurde worden inzwischen jetzt"
    " und cette cet ce décision est a été désormais maintenant et esta este decisión es fue ha"
    " sido ahora y decisão é foi está agora e questa questo decisione è stata stato ora deze dit"
    " besluit werd nu en это данное данный решение было был была теперь и"
)
_FILLER_WORDS = frozenset(_FILLERS.split())
_CJK_FILLER = lazy(
    r"(?:本|此|该|該|這|这|この|その|이|그)\s*(?:adr|决策|決策|决定|決定|记录|記錄|文档|文件|提案"
    r"|결정|문서)?|adr|rfc|已经|已|现已|現已|现在|現在|现|現|目前|すでに|既に|全部|全体|전체|は|が|も|은|는|가|도"
)
_WORD = lazy(r"[^\W\d_]+")


def _first_char_index(words: Iterable[str]) -> dict[str, tuple[str, ...]]:
    grouped: dict[str, list[str]] = {}
    for w in words:
        if w:
            grouped.setdefault(w[0], []).append(w)
    return {c: tuple(sorted(ws, key=len, reverse=True)) for c, ws in grouped.items()}


_STATUS_WORDS = _first_char_index(STATUS_SYNONYMS)  # the built-in vocabulary, by first letter


def _status_word(token: str, pos: int) -> int:
    """Length of the vocabulary word ``token`` holds at ``pos`` (0: none)."""
    for word in _STATUS_WORDS.get(token[pos], ()):
        if token.startswith(word, pos):
            return len(word)
    return 0


def _is_filler(token: str) -> bool:
    if token in _FILLER_WORDS:
        return True
    pos = 0
    while pos < len(token):  # a run without spaces (CJK): fillers and status words only
        m = _CJK_FILLER.match(token, pos)
        step = m.end() - pos if m else _status_word(token, pos)
        if step == 0:
            return False
        pos += step
    return True


def _subject(text: str, start: int) -> str:
    """Who the clause that ends at ``start`` is about: ``own`` (the record: nothing but fillers
    before the phrase), ``partial`` (a part of it) or ``other``."""
    begin = max(0, start - _WINDOW)
    cut = -1
    for m in _BOUNDARY.finditer(text, begin, start):
        cut = m.end()
    if cut == -1:
        if begin > 0:
            return "other"
        cut = 0
    prefix = text[cut:start]
    if MARK in prefix:
        return "other"
    if _PARTIAL.search(prefix):
        return "partial"
    words = _WORD.findall(_DATE.sub(" ", prefix))
    return "own" if all(_is_filler(w) for w in words) else "partial"


def _targets(marked: Marked, m: re.Match[str]) -> tuple[Target, ...]:
    first = marked.text.count(MARK, 0, m.start("t"))
    count = m.group("t").count(MARK)
    return tuple(t for names in marked.targets[first : first + count] for t in names)


_RECORD_WORDS = lazy(r"adr|rfc|decision|record|\d", re.I)


def _names_records(targets: tuple[Target, ...]) -> bool:
    """Targets that look like records (an id, or a link whose text or path has a number or names
    a decision): prose that replaces "[the old approach](../howto.md)" names no record."""
    return all(_RECORD_WORDS.search(f"{target} {text}") for target, text, _ in targets)


def superseded(marked: Marked) -> bool:
    """Whether the text says a named target replaced the record (the record is the subject)."""
    return any(kind is RelKind.SUPERSEDED_BY for kind, _ in _successors(marked, status=True))


def phrases(marked: Marked, status: bool) -> list[Phrase]:
    """The supersession phrases of one line (``status``: a status statement, where a partial
    subject is read as an amendment)."""
    if not marked.targets:
        return []
    out = [Phrase(kind, targets) for kind, targets in _successors(marked, status)]
    text = marked.text
    for m in _SELF_SUBJECT.finditer(text) if _may_name_itself(text) else ():
        targets = _targets(marked, m)
        if _names_records(targets):
            kind = RelKind.AMENDS if m.group("partial") else RelKind.SUPERSEDES
            out.append(Phrase(kind, targets))
    for pattern in () if text.isascii() else (_CLAUSE_START, *_OBJECT_FIRST):
        for m in pattern.finditer(text):  # each needs a CJK word: ASCII text has no match
            targets = _targets(marked, m)
            subject = _subject(text, m.start())
            if subject != "other" and _names_records(targets):
                kind = RelKind.AMENDS if subject == "partial" else RelKind.SUPERSEDES
                if subject == "own" or status or pattern is not _CLAUSE_START:
                    out.append(Phrase(kind, targets))
    return out


def _may_name_itself(text: str) -> bool:
    """Whether :data:`_SELF_SUBJECT` may match ``text`` (casefolded): in ASCII text only where
    one of :data:`_SELF_WORDS` is (most lines that name a successor, ``superseded by X``, hold
    none)."""
    return may_hold(text, text, *_SELF_WORDS)


def _successors(marked: Marked, status: bool) -> Iterable[tuple[RelKind, tuple[Target, ...]]]:
    text = marked.text
    if MARK not in text:
        return
    # each pattern of _AGENT needs a CJK word: ASCII text has no match of one
    for pattern in (_BY,) if text.isascii() else (_BY, *_AGENT):
        for m in pattern.finditer(text):
            subject = _subject(text, m.start())
            if subject == "own":
                yield RelKind.SUPERSEDED_BY, _targets(marked, m)
            elif subject == "partial" and status:
                yield RelKind.AMENDED_BY, _targets(marked, m)


_LINK = lazy(r"!?\[([^\]\n]{0,300})\]\(\s*<?([^)\s>]*)>?[^)\n]{0,300}\)")


_LONGEST_VALUE = 2000  # a status statement longer than this is prose: only its start is read


def of_markdown(value: str) -> Marked:
    """:func:`mark` for a markdown string (a status as written, a front-matter value): its
    inline links are the link targets."""
    value = value[:_LONGEST_VALUE]
    if "](" not in value:
        return mark(value.replace("\n", " "))
    text, spans = labelled(value, _LINK)
    return mark(text.replace("\n", " "), spans)


def labelled(value: str, links: re.Pattern[str]) -> tuple[str, list[Span]]:
    """``value`` with each markdown link ``links`` matches (group 1 its label, group 2 its
    target) replaced by its label, and a span of each label holding its link (an image when
    the match starts with ``!``)."""
    spans: list[Span] = []
    parts: list[str] = []
    pos = length = 0
    for m in links.finditer(value):
        before = value[pos : m.start()]
        parts.append(before)
        length += len(before)
        label = m.group(1)
        link = Link(m.group(2), label, 1, is_image=m.group(0).startswith("!"))
        spans.append(Span(length, length + len(label), link))
        parts.append(label)
        length += len(label)
        pos = m.end()
    parts.append(value[pos:])
    return "".join(parts), spans
