"""Where an archive move finds link destinations in a file's bytes: front matter values (block
and flow lists, quoted or not, after a byte-order mark), inline links, reference definitions.
Text written for these tests."""

from __future__ import annotations

import pytest

from adrguard.core.compaction.links import occurrences

FRONT = (
    "---\ntitle: Certify integrators\nstatus: Stable\nreplaces:\n"
    "  - 0007-v1-certify.md\nsee: ['0003-x.md', \"0004-y.md\"]\n---\n"
    "# Certify\n\nBased on [the old one](0007-v1-certify.md#scope).\n\n[ref]: ./0002-z.md \"t\"\n"
)


@pytest.mark.parametrize("bom", [b"", b"\xef\xbb\xbf"], ids=["plain", "byte-order mark"])
def test_front_matter_and_body_destinations_with_their_exact_bytes(bom: bytes) -> None:
    data = bom + FRONT.encode()
    found = occurrences(data)
    got = [(o.kind, o.raw) for o in found if o.raw.endswith((".md", "#scope"))]
    assert got == [
        ("front-matter", "0007-v1-certify.md"),
        ("front-matter", "0003-x.md"),
        ("front-matter", "0004-y.md"),
        ("inline", "0007-v1-certify.md#scope"),
        ("reference", "./0002-z.md"),
    ]
    assert all(data[o.start:o.end] == o.raw.encode() for o in found)


def test_a_file_that_is_not_utf8_has_no_destinations() -> None:
    assert occurrences(b"# x\n\n[a](0001-\xff.md)\n") == []
