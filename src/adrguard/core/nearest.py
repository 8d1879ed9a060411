""""Did you mean": the closest word of a vocabulary, in bounded time.

``difflib.get_close_matches`` compares a word with every word of its vocabulary, and input drives
both sides (the words of a Status section and a ``[statuses]`` table; a file's broken anchors and
its headings), so a hint per word is quadratic. :class:`Vocabulary` indexes the words once:

* by length: a word is compared only with the words whose length can reach the cutoff at all
  (difflib's own bound, ``2 * min(a, b) / (a + b)``), and a word longer than
  :data:`MAX_LENGTH` is never compared (no status or heading is that long; difflib's ratio grows
  with the product of the lengths);
* by prefix and by suffix: when more than ``exact`` words fall in that length window, only the
  ``near`` words on either side of the word in sorted order, and in the sorted order of the
  reversed words, are compared (a typo keeps either the start or the end of a word);
* a :class:`Budget` a caller shares between the searches of a run caps the comparisons they
  make together (each costs microseconds; a run of the real logs we measured makes at most a
  few thousand).

When the window holds at most ``exact`` words and no budget runs out, the answer is exactly
``difflib.get_close_matches(word, words, n=1, cutoff=cutoff)``: the highest ratio, ties to the
greater word. Pure; the index lives as long as its owner keeps it (a rule's run).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable
from difflib import SequenceMatcher

import msgspec

MAX_LENGTH = 256  # characters of the longest word compared (a long heading's slug fits)
EXACT = 1_024  # words in the length window compared one by one
NEAR = 8  # neighbours on each side in the prefix and the suffix order beyond that


class Budget(msgspec.Struct):
    """Comparisons several searches may still make together (shared by reference)."""

    left: int

    def take(self) -> bool:
        if self.left <= 0:
            return False
        self.left -= 1
        return True


class Vocabulary:
    """Words indexed for :meth:`closest` (see the module docstring)."""

    def __init__(self, words: Iterable[str], *, exact: int = EXACT, near: int = NEAR) -> None:
        unique = sorted({w for w in words if 0 < len(w) <= MAX_LENGTH})
        self.exact = exact
        self.near = near
        self.by_length: dict[int, list[str]] = {}
        for w in unique:
            self.by_length.setdefault(len(w), []).append(w)
        # words of length <= n, for every n up to the longest (to count a window in O(1))
        self._upto = [0] * (MAX_LENGTH + 2)
        for n in range(1, MAX_LENGTH + 2):
            self._upto[n] = self._upto[n - 1] + len(self.by_length.get(n, ()))
        self.forward = unique
        self.backward = sorted(w[::-1] for w in unique)

    def __len__(self) -> int:
        return len(self.forward)

    def closest(self, word: str, cutoff: float, budget: Budget | None = None) -> str | None:
        """The word closest to ``word`` with a ratio of at least ``cutoff``, or None."""
        if not 0 < len(word) <= MAX_LENGTH or not self.forward:
            return None
        lo, hi = _window(len(word), cutoff)
        count = self._upto[hi] - self._upto[lo - 1]
        if count <= self.exact:
            candidates: Iterable[str] = (
                w for n in range(lo, hi + 1) for w in self.by_length.get(n, ())
            )
        else:
            candidates = sorted(
                w for w in self._neighbours(word) if lo <= len(w) <= hi
            )
        matcher = SequenceMatcher()
        matcher.set_seq2(word)  # as get_close_matches does: the vocabulary word is seq1
        best: tuple[float, str] | None = None
        size = len(word)
        others = dict.fromkeys(map(ord, word))  # str.translate deletes the word's characters
        for x in candidates:
            if budget is not None and not budget.take():
                break
            # difflib's bounds, cheapest first: real_quick_ratio (the lengths), then the
            # characters of x that occur in the word at all (found by one translate), which
            # bound quick_ratio's matches (the same characters, each counted at most as often
            # as the word holds it) from above; only then quick_ratio and ratio themselves
            length = len(x) + size
            if 2.0 * min(len(x), size) / length < cutoff:
                continue
            if 2.0 * (len(x) - len(x.translate(others))) / length < cutoff:
                continue
            matcher.set_seq1(x)
            if matcher.quick_ratio() < cutoff:
                continue
            score = matcher.ratio()
            if score >= cutoff and (best is None or (score, x) > best):
                best = (score, x)
        return best[1] if best is not None else None

    def _neighbours(self, word: str) -> set[str]:
        """The words beside ``word`` in prefix order and in suffix order."""
        out: set[str] = set()
        at = bisect_left(self.forward, word)
        out.update(self.forward[max(0, at - self.near) : at + self.near])
        back = word[::-1]
        at = bisect_left(self.backward, back)
        out.update(w[::-1] for w in self.backward[max(0, at - self.near) : at + self.near])
        return out


def _window(length: int, cutoff: float) -> tuple[int, int]:
    """The word lengths whose ``real_quick_ratio`` with a word of ``length`` may reach
    ``cutoff`` (a superset by one on each side: the exact test is made per word)."""
    if cutoff <= 0:
        return 1, MAX_LENGTH
    lo = int(cutoff * length / (2 - cutoff))
    hi = int(length * (2 - cutoff) / cutoff) + 1
    return max(1, lo), min(MAX_LENGTH, hi)
