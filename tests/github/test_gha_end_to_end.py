"""The Action's helper end to end: a real git repository, a pull_request event, GitHub's env
files and a real HTTP server standing in for the REST API."""

from __future__ import annotations

import json
from pathlib import Path

from fakegithub import State
from gha_helpers import HOSTILE_PATH, ActionRunner

from adrguard.reporters.comment import MARKER, marker

OURS = marker("adrguard/adrs")  # the marker line of the runner's workflow/job


def _comments(state: State) -> list[dict[str, object]]:
    return [c for c in state.comments if c["number"] == 7]


def test_first_run_creates_the_comment_and_writes_every_output(action: ActionRunner,
                                                                github: State) -> None:
    run = action()
    assert run.code == 0  # fail-on none: advisory
    assert run.outputs["error-count"] == "4"
    assert run.outputs["warning-count"] == "3"
    assert run.outputs["note-count"] == "1"
    assert run.outputs["exit-code"] == "1"  # errors exist; fail-on none keeps the step green
    report = json.loads(Path(run.outputs["report-json"]).read_text(encoding="utf-8"))
    assert report["summary"]["errors"] == 4
    assert run.outputs["sarif-file"].endswith("adrguard.sarif")
    posted = github.of("POST")
    assert len(posted) == 1 and posted[0].path == "/repos/acme/shop/issues/7/comments"
    assert posted[0].authorization == "Bearer user-token"
    body = posted[0].body["body"]
    assert body.startswith(OURS + "\n") and len(body) < 65_536
    assert "ADR-0003" in body and "Decisions governing this change" in body
    assert "```mermaid" in body
    assert "::error file=docs/adr/0004-hostile.md" in run.stdout  # annotations printed
    assert "## adrguard" in run.summary


def test_second_run_updates_the_same_comment(action: ActionRunner, github: State) -> None:
    action()
    first = _comments(github)
    action.fx.repo.write({"src/search/index.py": "y = 3\n"})
    action.fx.repo.commit("more")
    action()
    assert len(github.of("POST")) == 1
    assert [c["id"] for c in _comments(github)] == [first[0]["id"]]
    # identical body: nothing to patch; the listing was still read
    assert len(github.of("GET")) >= 4


def test_changed_report_patches_in_place(action: ActionRunner, github: State) -> None:
    action()
    (cid,) = [c["id"] for c in _comments(github)]
    action.fx.repo.remove(["docs/adr/0004-hostile.md"])
    action.fx.repo.commit("drop the hostile record")
    action()
    patches = github.of("PATCH")
    assert [p.path for p in patches] == [f"/repos/acme/shop/issues/comments/{cid}"]
    assert "0004" not in patches[0].body["body"]
    assert len(_comments(github)) == 1


def test_decoy_comment_by_someone_else_is_left_alone(action: ActionRunner, github: State) -> None:
    decoy = f"{MARKER}\nI copied the marker"
    decoy_id = github.add("mallory", decoy)
    action()
    assert not github.of("PATCH") and not github.of("DELETE")
    assert [c["body"] for c in github.comments if c["id"] == decoy_id] == [decoy]
    assert len(github.of("POST")) == 1


def test_actions_token_comments_as_the_bot(action: ActionRunner, github: State) -> None:
    github.add("github-actions[bot]", f"{OURS}\nold report")
    github.add("someone", "LGTM")
    run = action(token="actions-token")  # GET /user answers 403 for an Actions token
    assert run.code == 0
    assert not github.of("POST")
    assert len(github.of("PATCH")) == 1


def test_read_only_token_is_a_notice_not_a_failure(action: ActionRunner, github: State) -> None:
    github.fail[("POST", "comments")] = 403
    run = action()
    assert run.code == 0
    assert "::notice title=adrguard::the pull-request comment was skipped" in run.stdout
    assert "read-only" in run.stdout
    assert run.outputs["error-count"] == "4"
    assert "## adrguard" in run.summary


def test_server_error_is_a_notice(action: ActionRunner, github: State) -> None:
    github.fail[("GET", "comments")] = 500
    run = action(**{"fail-on": "none"})
    assert run.code == 0
    assert "HTTP 500" in run.stdout and "::notice" in run.stdout
    assert not github.of("POST")


def test_unreachable_api_is_a_notice(action: ActionRunner, github: State) -> None:
    action.state = None  # GITHUB_API_URL points at a closed port
    run = action()
    assert run.code == 0
    assert "the pull-request comment was skipped: listing the comments failed" in run.stdout


def test_pagination_finds_our_comment_beyond_the_first_page(action: ActionRunner,
                                                            github: State) -> None:
    for i in range(150):
        github.add("someone", f"comment {i}")
    ours = github.add("adrguard-bot", f"{OURS}\nold")
    for i in range(30):
        github.add("someone", f"late comment {i}")
    action()
    pages = [r for r in github.of("GET") if r.path.endswith("/comments")]
    assert [r.query.get("page", ["1"])[0] for r in pages] == ["1", "2"]
    assert all(r.query["per_page"] == ["100"] for r in pages)
    assert not github.of("POST")
    assert [p.path for p in github.of("PATCH")] == [f"/repos/acme/shop/issues/comments/{ours}"]


def test_duplicates_of_our_own_comment_are_removed(action: ActionRunner, github: State) -> None:
    older = github.add("adrguard-bot", f"{OURS}\none")
    latest = github.add("adrguard-bot", f"{OURS}\ntwo")
    action()
    assert [p.path for p in github.of("PATCH")] == [f"/repos/acme/shop/issues/comments/{latest}"]
    assert [d.path for d in github.of("DELETE")] == [f"/repos/acme/shop/issues/comments/{older}"]
    assert [c["id"] for c in _comments(github)] == [latest]


def test_fail_on_error_fails_the_step(action: ActionRunner) -> None:
    run = action(**{"fail-on": "error"})
    assert run.code == 1 and run.outputs["exit-code"] == "1"


def test_fail_on_is_checked_against_the_worst_finding(action: ActionRunner) -> None:
    action.fx.repo.remove(["docs/adr/0004-hostile.md", HOSTILE_PATH])
    action.fx.repo.commit("no errors left")
    assert action(**{"fail-on": "error"}).code == 0
    assert action(**{"fail-on": "warning"}).code == 1


def test_comment_false_and_annotations_false(action: ActionRunner, github: State) -> None:
    run = action(comment="false", annotations="false")
    assert not github.requests
    assert "::error file=" not in run.stdout
    assert run.summary


def test_sarif_file_input_copies_the_report(action: ActionRunner) -> None:
    run = action(**{"sarif-file": "out/adrguard.sarif"})
    target = action.fx.repo.path / "out" / "adrguard.sarif"
    assert run.outputs["sarif-file"] == str(target)
    assert json.loads(target.read_text(encoding="utf-8"))["version"] == "2.1.0"


def test_nothing_left_to_say_resolves_the_comment(action: ActionRunner, github: State) -> None:
    action()
    action.fx.repo.git("checkout", "-q", action.fx.base)  # head == base: clean, no change
    action.event["pull_request"]["head"]["sha"] = action.fx.base  # type: ignore[index]
    run = action()
    assert run.outputs["error-count"] == "0"
    (c,) = _comments(github)
    body = str(c["body"])
    assert body.startswith(OURS + "\n") and "Nothing left to report" in body


def test_clean_run_without_a_comment_creates_none(action: ActionRunner, github: State) -> None:
    action.fx.repo.git("checkout", "-q", action.fx.base)
    run = action()
    assert run.code == 0 and not github.of("POST")


def test_broken_config_is_reported_and_only_fails_when_asked(action: ActionRunner) -> None:
    action.fx.repo.write({".adrguard.toml": "no-such-key = 1\n"})
    run = action()
    assert run.code == 0 and run.outputs["exit-code"] == "2"
    assert "::error title=adrguard::adrguard check failed (exit 2)" in run.stdout
    assert "could not check this change (exit 2)" in run.summary
    assert action(**{"fail-on": "warning"}).code == 2


def test_not_a_pull_request_skips_base_and_comment(action: ActionRunner, github: State,
                                                   monkeypatch: object) -> None:
    action.event = {"ref": "refs/heads/main"}
    run = action()
    assert not github.requests
    assert run.outputs["error-count"] == "4"  # ADR201 errors; no ADR5xx without a base
    assert "ADR505" not in run.summary


def test_seventy_thousand_character_record_text_keeps_the_comment_under_the_limit(
        action: ActionRunner, github: State) -> None:
    status = "Frobnicated " + "@org/team ::error:: &lt;b&gt; " * 2_800  # 70,012 characters
    action.fx.repo.write({"docs/adr/0006-huge.md": f"# 6. Huge\n\n## Status\n\n{status}\n\n"
                          "## Context\n\nx\n\n## Decision\n\ny\n\n## Consequences\n\nz\n"})
    action.fx.repo.commit("a huge status")
    run = action()
    body = github.of("POST")[0].body["body"]
    assert len(status) > 70_000 and len(body) < 65_536
    assert "frobnicated" in body and len(body) < 20_000  # ADR103 quotes ~80 characters of it
    assert "@org" not in body.replace("@&#8203;org", "") and "&lt;b" not in body
    assert len(run.summary.encode("utf-8")) < 1024 * 1024
