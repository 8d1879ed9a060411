"""Reading size: what reading a text costs, in bytes, Unicode code points and an estimate of
model tokens. The estimate is a rule of thumb, never a count: no tokenizer is loaded.

* ASCII text (English prose, markdown, code): one token per 4 code points;
* CJK ideographs, kana, Hangul and full-width forms: one token per code point;
* any other non-ASCII code point (accented Latin, Cyrillic, Greek, ...): one token per 2.

Byte-pair tokenizers of current models split English prose into about four characters a token
and CJK text into about one; other scripts fall in between. Treat the figure as a
comparison between logs, folders and views, not as a bill.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from adrguard.core.lazyre import lazy

# CJK symbols and punctuation, kana, CJK ideographs (and extension A), Hangul syllables,
# compatibility ideographs, full-width forms, and the supplementary ideographic planes.
_DENSE = lazy(
    "[\u3000-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uac00-\ud7af\uf900-\ufaff\uff00-\uffef"
    "\U00020000-\U0003ffff]"
)
_BOM = b"\xef\xbb\xbf"


@dataclass(frozen=True, slots=True)
class Size:
    """The reading size of one text or a sum of them."""

    bytes: int = 0
    code_points: int = 0
    tokens: int = 0

    def __add__(self, other: Size) -> Size:
        return Size(
            self.bytes + other.bytes,
            self.code_points + other.code_points,
            self.tokens + other.tokens,
        )

    def as_json(self) -> dict[str, int]:
        return {"bytes": self.bytes, "codePoints": self.code_points, "tokens": self.tokens}


def estimate_tokens(text: str) -> int:
    """The token estimate of ``text`` (see the module docstring)."""
    if text.isascii():
        return math.ceil(len(text) / 4)
    ascii_count = len(text.encode("ascii", "ignore"))
    dense = sum(1 for _ in _DENSE.finditer(text))
    other = len(text) - ascii_count - dense
    return math.ceil(ascii_count / 4 + dense + other / 2)


def measure(data: bytes) -> Size:
    """The size of a file's bytes: bytes as stored; code points and tokens of its UTF-8 text
    (a leading byte-order mark is not text; bytes that are not UTF-8 count as one each)."""
    text = (data[3:] if data.startswith(_BOM) else data).decode("utf-8", "replace")
    return Size(len(data), len(text), estimate_tokens(text))


def total(sizes: list[Size] | tuple[Size, ...]) -> Size:
    out = Size()
    for s in sizes:
        out = out + s
    return out
