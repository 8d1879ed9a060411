"""core/current: manifests built, read and compared on hand-built corpora."""

from __future__ import annotations

import json

import pytest
from msgspec.structs import replace

from adrguard.core.errors import UserError
from adrguard.core.generated import current
from adrguard.core.generated.manifest import dump, parse_manifest
from adrguard.core.generated.region import content_sha256
from adrguard.core.model import Corpus, Decision, Status
from adrguard.core.options import CurrentOptions, Options

VIEW = "docs/adr/CURRENT.md"
MAN = "docs/adr/CURRENT.sources.json"
VIEW_TEXT = b"# Decisions in force\n\nWe use PostgreSQL and Kafka.\n"


def rec(
    path: str,
    number: int,
    status: Status | None = Status.ACCEPTED,
    *,
    text: str = "",
    root: str = "docs/adr",
    archived: bool = False,
) -> Decision:
    body = (text or f"# {number}. Record {number}\n").encode()
    return Decision(
        id=f"ADR-{number:04d}",
        path=path,
        root=root,
        number=number,
        title=f"Record {number}",
        status=status,
        archived=archived,
        sha256=content_sha256(body),
    )


def corpus(*decisions: Decision, roots: tuple[str, ...] = ("docs/adr",)) -> Corpus:
    files = {d.path for d in decisions} | {"docs/adr/archive/x.md"}
    return Corpus(
        decisions=tuple(sorted(decisions, key=lambda d: (d.id, d.path))),
        roots=roots,
        repo_files=frozenset(files),
    )


A = rec("docs/adr/0001-postgres.md", 1)
B = rec("docs/adr/0002-kafka.md", 2)
P = rec("docs/adr/0003-redis.md", 3, Status.PROPOSED)


def stamped(c: Corpus, options: Options | None = None, view: bytes = VIEW_TEXT) -> dict[str, bytes]:
    texts = {VIEW: view}
    manifest = current.build_manifest(c, options or Options(), "docs/adr", texts, None)
    return {**texts, MAN: dump(manifest).encode()}


def reasons(
    c: Corpus, texts: dict[str, bytes], options: Options | None = None
) -> list[tuple[str, str]]:
    (state,) = current.evaluate(c, options or Options(), texts)
    return [(r.code, r.message) for r in state.reasons]


def test_stamp_takes_accepted_members_in_order_and_is_fresh() -> None:
    c = corpus(B, P, A)
    texts = stamped(c)
    data = json.loads(texts[MAN])
    assert [m["path"] for m in data["members"]] == [A.path, B.path]
    assert {m["coverage"] for m in data["members"]} == {"open"}
    assert data["schemaVersion"] == 1 and data["protocol"] == "adrguard-current/1"
    assert data["viewSha256"] == content_sha256(VIEW_TEXT)
    assert reasons(c, texts) == []
    assert texts[MAN].endswith(b"}\n") and texts[MAN] == stamped(c)[MAN]  # deterministic


def test_restamp_keeps_coverage_and_locators_and_opens_new_members() -> None:
    c = corpus(A, B)
    data = json.loads(stamped(c)[MAN])
    data["members"][0]["coverage"] = "summarized"
    data["members"].append(dict(data["members"][1], locator="decision", coverage="consolidated"))
    previous, problem = parse_manifest(json.dumps(data).encode(), "docs/adr", VIEW, c)
    assert problem is None and previous is not None
    new = rec("docs/adr/0004-s3.md", 4)
    manifest = current.build_manifest(
        corpus(A, B, new), Options(), "docs/adr", {VIEW: VIEW_TEXT}, previous
    )
    got = [(m.path, m.locator, m.coverage) for m in manifest.members]
    assert got == [
        (A.path, None, "summarized"),
        (B.path, None, "open"),
        (B.path, "decision", "consolidated"),
        (new.path, None, "open"),
    ]


def test_crlf_only_changes_hash_the_same() -> None:
    assert content_sha256(b"a\r\nb\r\n") == content_sha256(b"a\nb\n")


def test_every_reason_is_reported() -> None:
    texts = stamped(corpus(A, B))
    edited = replace(A, sha256=content_sha256(b"changed"))
    new = rec("docs/adr/0004-s3.md", 4)
    gone = replace(B, status=Status.SUPERSEDED)
    texts[VIEW] = VIEW_TEXT + b"\nmore\n"
    got = reasons(corpus(edited, gone, new), texts)
    codes = sorted(code for code, _ in got)
    assert codes == ["ADR406", "ADR407", "ADR407", "ADR408"]
    text = "\n".join(m for _, m in got)
    assert "0001-postgres.md (ADR-0001) changed" in text
    assert "0004-s3.md (ADR-0004) is in scope" in text
    assert "has status superseded now" in text


@pytest.mark.parametrize(
    ("change", "fragment"),
    [
        (
            lambda d: replace(d, archived=True, path="docs/adr/archive/0002-kafka.md"),
            "moved to the archive",
        ),
        (lambda d: replace(d, path="docs/adr/0002-kafka-events.md"), "was renamed from"),
        (None, "was deleted"),
    ],
)
def test_membership_changes_name_their_cause(change: object, fragment: str) -> None:
    texts = stamped(corpus(A, B))
    others = (change(B),) if callable(change) else ()
    got = reasons(corpus(A, *others), texts)
    assert [c for c, _ in got] == ["ADR407"] and fragment in got[0][1]


def test_hand_edited_members_and_changed_selection() -> None:
    texts = stamped(corpus(A, B))
    data = json.loads(texts[MAN])
    data["members"][0]["coverage"] = "kept"
    texts[MAN] = json.dumps(data).encode()
    assert any("edited by hand" in m for _, m in reasons(corpus(A, B), texts))
    opts = Options(current=CurrentOptions(statuses=("accepted", "proposed")))
    assert any(
        "selection in the config" in m
        for _, m in reasons(corpus(A, B), stamped(corpus(A, B)), opts)
    )


def _manifest_with(**changes: object) -> bytes:
    data = json.loads(stamped(corpus(A, B))[MAN])
    data.update(changes)
    return json.dumps(data).encode()


@pytest.mark.parametrize(
    ("data", "fragment"),
    [
        (b"{not json", "not valid JSON"),
        (b"\xff\xfe", "not valid JSON"),
        (b"[1, 2]", "JSON object"),
        (_manifest_with(schemaVersion=7), "newer adrguard"),
        (_manifest_with(schemaVersion="1"), "fails its schema"),
        (_manifest_with(members="x"), "fails its schema at members"),
        (_manifest_with(root="docs/other"), "names root"),
        (_manifest_with(view="docs/adr/archive"), "is a directory"),
        (_manifest_with(view="docs/adr/OTHER.md"), "not the view beside the manifest"),
        (_manifest_with(view="../CURRENT.md"), "never followed"),
        (_manifest_with(view="docs/CURRENT.md"), "outside the root"),
    ],
)
def test_invalid_manifests_are_never_used(data: bytes, fragment: str) -> None:
    got = reasons(corpus(A, B), {VIEW: VIEW_TEXT, MAN: data})
    assert len(got) == 1 and got[0][0] == "ADR405" and fragment in got[0][1], got


@pytest.mark.parametrize(
    ("path", "fragment"),
    [
        ("docs/adr/../../etc/passwd", "never followed"),
        ("/etc/passwd", "not a repository-relative"),
        ("src/app.py", "outside the root"),
        ("docs\\adr\\x.md", "not a repository-relative"),
    ],
)
def test_member_paths_must_stay_inside_the_root(path: str, fragment: str) -> None:
    data = json.loads(stamped(corpus(A, B))[MAN])
    data["members"][0]["path"] = path
    got = reasons(corpus(A, B), {VIEW: VIEW_TEXT, MAN: json.dumps(data).encode()})
    assert got[0][0] == "ADR405" and fragment in got[0][1]


def test_duplicate_members_are_invalid() -> None:
    data = json.loads(stamped(corpus(A, B))[MAN])
    data["members"].append(data["members"][0])
    got = reasons(corpus(A, B), {VIEW: VIEW_TEXT, MAN: json.dumps(data).encode()})
    assert got[0][0] == "ADR405" and "twice" in got[0][1]


def test_missing_halves_of_the_pair() -> None:
    assert reasons(corpus(A), {VIEW: VIEW_TEXT})[0][0] == "ADR404"
    texts = stamped(corpus(A))
    del texts[VIEW]
    assert reasons(corpus(A), texts)[0][0] == "ADR404"
    assert current.evaluate(corpus(A), Options(), {}) == []


def test_project_view_lists_module_views_instead_of_their_records() -> None:
    mod = rec("services/pay/docs/adr/0001-stripe.md", 1, root="services/pay/docs/adr")
    top = rec("0001-monorepo.md", 1, root=".")
    c = corpus(top, mod, roots=(".", "services/pay/docs/adr"))
    module_view = b"# Payments decisions\n"
    texts = {"CURRENT.md": VIEW_TEXT, "services/pay/docs/adr/CURRENT.md": module_view}
    manifest = current.build_manifest(c, Options(), ".", texts, None)
    assert [(m.id, m.path) for m in manifest.members] == [
        ("ADR-0001", "0001-monorepo.md"),
        ("CURRENT:services/pay/docs/adr", "services/pay/docs/adr/CURRENT.md"),
    ]
    texts["CURRENT.sources.json"] = dump(manifest).encode()
    (state,) = [s for s in current.evaluate(c, Options(), texts) if s.root == "."]
    assert state.fresh
    texts["services/pay/docs/adr/CURRENT.md"] = module_view + b"edited\n"
    (state,) = [s for s in current.evaluate(c, Options(), texts) if s.root == "."]
    assert [r.code for r in state.reasons] == ["ADR406"]


def test_selection_globs_and_statuses() -> None:
    opts = Options(current=CurrentOptions(exclude=("0002-*",), statuses=("accepted", "proposed")))
    manifest = current.build_manifest(corpus(A, B, P), opts, "docs/adr", {VIEW: VIEW_TEXT}, None)
    assert [m.path for m in manifest.members] == [A.path, P.path]
    with pytest.raises(UserError, match="unknown status"):
        current.settings(Options(current=CurrentOptions(statuses=("acepted",))))
    with pytest.raises(UserError, match="inside the ADR root"):
        current.settings(Options(current=CurrentOptions(view="../CURRENT.md")))


def test_skeleton_is_a_marked_draft_of_the_decisions_in_scope() -> None:
    text = current.skeleton(corpus(B, A, P), Options(), "docs/adr", {})
    assert text.startswith(current.DRAFT_MARK) and "Derived view, to be reviewed" in text
    assert text.index("## ADR-0001: Record 1") < text.index("## ADR-0002: Record 2")
    in_force, _, proposals = text.partition("## Proposals (not in force)")
    assert "ADR-0003" not in in_force and "[0001-postgres.md](0001-postgres.md)" in text
    assert "- [ADR-0003: Record 3](0003-redis.md) (proposed)" in proposals  # apart
