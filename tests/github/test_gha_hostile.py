"""Hostile pull requests through the Action's report step: a crashing rule still leaves every
other finding published (attack 3), and the sticky comment is ours alone (attack 5)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from fakegithub import State
from gha_helpers import ActionRunner

from adrguard.core.findings import Finding
from adrguard.reporters.comment import MARKER, marker
from adrguard.rules import RULES_BY_CODE, RuleContext


def test_a_rule_crash_still_publishes_every_other_finding(
    action: ActionRunner, github: State, monkeypatch: pytest.MonkeyPatch
) -> None:
    rule = RULES_BY_CODE["ADR104"]
    original = rule.check

    def crash_on_the_hostile_record(self: object, ctx: RuleContext) -> Iterator[Finding]:
        if any(d.number == 4 for d in ctx.corpus.decisions):
            raise RuntimeError("planted")
        yield from original(self, ctx)  # type: ignore[arg-type]

    monkeypatch.setattr(rule, "check", crash_on_the_hostile_record)
    run = action()
    assert run.code == 0  # fail-on none: advisory, even now
    assert run.outputs["exit-code"] == "3"
    assert "::error title=adrguard::adrguard hit an internal error" in run.stdout
    assert int(run.outputs["error-count"]) >= 4  # the other rules' errors are all there
    assert "ADR000" in run.summary and "ADR201" in run.summary
    body = github.of("POST")[0].body["body"]
    assert body.startswith(marker("adrguard/adrs") + "\n") and "ADR000" in body and "ADR201" in body


OURS = marker("adrguard/adrs")  # the runner's GITHUB_WORKFLOW/GITHUB_JOB


def _bodies(state: State) -> dict[int, str]:
    return {int(c["id"]): str(c["body"]) for c in state.comments}


def test_bot_comment_that_only_contains_the_marker_is_left_alone(
    action: ActionRunner, github: State
) -> None:
    """The shared github-actions[bot] login writes for every workflow: a comment of another
    workflow (or quoting ours) that contains our marker is neither overwritten nor deleted."""
    quoted = github.add("github-actions[bot]", f"Someone quoted:\n{OURS}\nold report")
    bare = github.add("github-actions[bot]", f"{MARKER}\nan older adrguard without identity")
    other_job = github.add("github-actions[bot]", f"{marker('adrguard/docs')}\nother job")
    before = _bodies(github)
    action(token="actions-token")
    assert not github.of("PATCH") and not github.of("DELETE")
    for cid in (quoted, bare, other_job):
        assert _bodies(github)[cid] == before[cid]
    assert len(github.of("POST")) == 1
    assert github.of("POST")[0].body["body"].startswith(OURS + "\n")


def test_only_the_most_recent_of_our_comments_is_updated(
    action: ActionRunner, github: State
) -> None:
    older = github.add("github-actions[bot]", f"{OURS}\nfirst")
    someone = github.add("mallory", f"{OURS}\nforged: same marker line, other author")
    latest = github.add("github-actions[bot]", f"{OURS}\nsecond")
    action(token="actions-token")
    assert [p.path.rsplit("/", 1)[1] for p in github.of("PATCH")] == [str(latest)]
    assert [d.path.rsplit("/", 1)[1] for d in github.of("DELETE")] == [str(older)]
    assert _bodies(github)[someone] == f"{OURS}\nforged: same marker line, other author"


def test_comment_key_gives_each_job_its_own_comment(action: ActionRunner, github: State) -> None:
    action(**{"comment-key": "docs-job"})
    action(**{"comment-key": "code job <!-- -->"})
    firsts = sorted(str(c["body"]).split("\n", 1)[0] for c in github.comments)
    assert firsts == ["<!-- adrguard:sticky code_job___--_--_ -->",
                      "<!-- adrguard:sticky docs-job -->"]
    assert not github.of("DELETE")
