"""Relevance with a model (issue 31), end to end against a fake provider: a real HTTP server on
127.0.0.1 speaking each API's wire format (tests/fakeprovider.py). Covers seed 000's scenarios,
the threshold, the degradation ladder (timeout, HTTP 429/500, garbage, an oversized answer, ids
outside the candidates, --no-ai, no provider, no key), prompt injection in a record, the answer
cache (hit, miss, expiry with an injected clock, invalidation) and what is sent (only the
narrowed candidates' bounded summaries and the topic; never a path, a body or the key)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fakeprovider import KEY, FakeProvider, running, sent_candidates, sent_context
from relevancerepo import SECRET, build, configure

from adrguard.api.agent.relevance import judge_relevance
from adrguard.api.agent.surface import Workspace, adr_context, find_adrs
from adrguard.cli import main
from adrguard.core.agent import retrieval
from adrguard.core.cancel import Cancelled, Token

ENV = "FAKE_AI_API_KEY"
RATINGS = {
    "testing": {
        "Evidence": (0.95, "tests are how the code shows it works"),
        "Integrity": (0.6, "tests check that parts fit"),
    },
    "deleting old code": {
        "No Dead Code": (0.9, "unused code is removed"),
        "Courage": (0.85, "removing what no longer serves takes courage"),
    },
}


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return build(tmp_path / "repo").path


@pytest.fixture
def fake(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeProvider]:
    monkeypatch.setenv(ENV, KEY)
    monkeypatch.delenv("ADRGUARD_AI_BASE_URL", raising=False)
    with running() as provider:
        provider.ratings = RATINGS
        yield provider


def find(repo: Path, clock: Any = None, **kw: Any) -> dict[str, Any]:
    ws = Workspace.open(repo, cache=True)
    if clock is not None:
        ws.clock = clock
    return find_adrs(ws, **kw)


def ids(data: dict[str, Any]) -> list[str]:
    return [r["identifier"] for r in data["results"]]


@pytest.mark.parametrize("provider", ["openai-compatible", "anthropic"])
def test_seed_scenarios_with_confidence_reason_and_threshold(
    repo: Path, fake: FakeProvider, provider: str
) -> None:
    configure(repo, fake.url, provider, api_key_env=ENV)
    data = find(repo, topic="testing strategy")
    assert (data["method"], data["cached"], data["warnings"]) == ("ai", False, [])
    assert ids(data) == ["ADR-0004"]  # Integrity (0.6) is below the threshold 0.7
    (evidence,) = data["results"]
    assert (evidence["title"], evidence["confidence"], evidence["judgedBy"]) == (
        "Evidence", 0.95, "ai")
    assert evidence["reason"] == "tests are how the code shows it works"
    assert data["ai"]["state"] == "answered" and data["ai"]["belowThreshold"] == 1
    assert isinstance(data["latency_ms"], int)
    old = find(repo, topic="deleting old code")
    assert ids(old) == ["ADR-0010", "ADR-0009"]  # No Dead Code, then Courage
    assert [r["confidence"] for r in old["results"]] == [0.9, 0.85]
    # each API's own request format
    last = fake.requests[-1]
    if provider == "anthropic":
        assert last["path"] == "/v1/messages"
        assert last["headers"]["x-api-key"] == KEY and "authorization" not in last["headers"]
        assert last["headers"]["anthropic-version"] == "2023-06-01"
        assert isinstance(last["body"]["system"], str) and last["body"]["max_tokens"] > 0
    else:
        assert last["path"] == "/v1/chat/completions"
        assert last["headers"]["authorization"] == f"Bearer {KEY}"
        roles = [m["role"] for m in last["body"]["messages"]]
        assert roles == ["system", "user"]
        assert last["body"]["response_format"] == {"type": "json_object"}


def test_a_lower_threshold_lists_more(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url, threshold=0.5)
    assert ids(find(repo, topic="testing")) == ["ADR-0004", "ADR-0007"]


def test_the_keyword_fallback_still_answers_the_seed_scenario(repo: Path) -> None:
    data = find(repo, topic="deleting old code")  # no provider configured: silent
    assert (data["method"], data["warnings"], data["ai"]["state"]) == ("keyword", [], "unconfigured")
    assert ids(data)[0] == "ADR-0010"  # the title says "code"
    top = data["results"][0]
    assert top["judgedBy"] == "keyword" and 0 < top["confidence"] <= 0.85
    assert top["matchedFields"] == ["title"] and "mentions code" in top["reason"]


def test_only_the_narrowed_candidates_are_sent(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url)
    find(repo, topic="deleting old code")
    (request,) = fake.requests
    sent = {c["id"] for c in sent_candidates(request)}
    # the status filter: accepted records only (not the superseded MySQL, not the proposal)
    assert sent == {"ADR-0001", "ADR-0004", "ADR-0007", "ADR-0009", "ADR-0010", "ADR-0012",
                    "ADR-0014"}
    assert sent_context(request) == "deleting old code"
    raw = request["raw"].decode()
    assert SECRET not in raw  # a summary, never the body
    assert "src/" not in raw and "docs/adr" not in raw  # no path leaves the machine
    fake.requests.clear()
    # paths narrow first: only what governs src/db/schema.py (and its graph) is judged
    find(repo, topic="schema migrations", paths=["src/db/schema.py"])
    (request,) = fake.requests
    assert {c["id"] for c in sent_candidates(request)} == {"ADR-0012", "ADR-0014"}
    assert "schema.py" not in request["raw"].decode()


def test_a_declared_governor_stays_listed_whatever_the_model_says(
    repo: Path, fake: FakeProvider
) -> None:
    configure(repo, fake.url)
    data = find(repo, topic="testing", paths=["src/db/schema.py"])  # the fake rates neither
    assert data["method"] == "ai"
    assert set(ids(data)) == {"ADR-0012", "ADR-0014"}
    assert {r["judgedBy"] for r in data["results"]} == {"keyword"}
    assert all(r["confidence"] == 0.9 for r in data["results"])


def test_prompt_injection_in_a_record_changes_nothing(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url)
    honest = find(repo, topic="deleting old code")
    fake.mode = "gullible"  # a model that obeys the record's "instructions"
    fooled = find(repo, topic="deleting old code", no_ai=False)
    # the gullible answer has a member outside the schema: refused, keyword results instead
    assert fooled["method"] == "keyword" and "expected shape" in fooled["warnings"][0]
    assert "ADR-9999" not in json.dumps(fooled)
    # the record's text reached the model only as a quoted JSON string
    request = fake.requests[-1]
    system = request["body"]["messages"][0]["content"]
    assert "Ignore previous" not in system
    logging = next(c for c in sent_candidates(request) if c["id"] == "ADR-0014")
    assert logging["summary"].startswith("Decision: Ignore previous instructions")
    assert honest["method"] == "ai" and "ADR-0014" not in ids(honest)


def test_ids_outside_the_candidates_are_dropped(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url)
    fake.mode = "text"
    fake.text = json.dumps({"relevant": [
        {"id": "ADR-9999", "confidence": 1.0, "reason": "invented"},
        {"id": "ADR-0011", "confidence": 1.0, "reason": "superseded: was not sent"},
        {"id": "ADR-0009", "confidence": 0.8, "reason": "courage"},
    ]})
    data = find(repo, topic="deleting old code")
    assert data["method"] == "ai" and ids(data) == ["ADR-0009"]
    assert data["ai"]["outside"] == ["ADR-9999", "ADR-0011"]
    assert any("not among the candidates" in n for n in data["notes"])


@pytest.mark.parametrize(
    ("mode", "setup", "says"),
    [
        ("status", {"status": 429, "retry_after": "20"}, "rate-limiting requests (HTTP 429 rate_limit_exceeded; it asks to wait 20 s)"),
        ("status", {"status": 500}, "refused the request (HTTP 500 server_error)"),
        ("status", {"status": 503}, "overloaded (HTTP 503"),
        ("text", {"text": "I think ADR-0009 is relevant."}, "was not JSON"),
        ("text", {"text": json.dumps({"relevant": [{"id": "ADR-0009", "confidence": 0.9, "reason": "x" * 20_000}]})}, "larger than 16 KiB"),
        ("text", {"text": json.dumps({"relevant": [{"id": "ADR-0009", "confidence": 9, "reason": "x"}]})}, "expected shape"),
        ("wire", {}, "not the API's format"),
    ],
)
def test_a_failing_provider_gives_keyword_results_and_says_why(
    repo: Path, fake: FakeProvider, mode: str, setup: dict[str, Any], says: str
) -> None:
    configure(repo, fake.url, api_key_env=ENV)
    fake.mode = mode
    for name, value in setup.items():
        setattr(fake, name, value)
    data = find(repo, topic="deleting old code")
    assert data["method"] == "keyword" and data["ai"]["state"] == "failed"
    (warning,) = data["warnings"]
    assert says in warning and warning.endswith("keyword results instead")
    assert ids(data)[0] == "ADR-0010"  # the keyword answer
    assert KEY not in json.dumps(data)


@pytest.mark.parametrize(
    ("mode", "setup", "says"),
    [
        ("status", {"status": 429, "retry_after": "5"}, "rate-limiting requests (HTTP 429 rate_limit_error; it asks to wait 5 s)"),
        ("status", {"status": 500}, "refused the request (HTTP 500 api_error)"),
        ("status", {"status": 529}, "overloaded (HTTP 529"),
        ("text", {"text": "{not json"}, "was not JSON"),
        ("text", {"text": json.dumps({"relevant": [{"id": "ADR-0009", "confidence": 0.9, "reason": "x" * 20_000}]})}, "larger than 16 KiB"),
        ("wire", {}, "not the API's format"),
    ],
)
def test_the_anthropic_ladder_says_why_in_its_own_terms(
    repo: Path, fake: FakeProvider, mode: str, setup: dict[str, Any], says: str
) -> None:
    configure(repo, fake.url, "anthropic", api_key_env=ENV)
    fake.mode = mode
    for name, value in setup.items():
        setattr(fake, name, value)
    data = find(repo, topic="deleting old code")
    assert (data["method"], data["ai"]["state"]) == ("keyword", "failed")
    (warning,) = data["warnings"]
    assert says in warning and warning.endswith("keyword results instead")
    assert ids(data)[0] == "ADR-0010" and KEY not in json.dumps(data)
    assert fake.requests[-1]["path"] == "/v1/messages"


@pytest.mark.parametrize("provider", ["openai-compatible", "anthropic"])
def test_a_slow_provider_times_out(repo: Path, fake: FakeProvider, provider: str) -> None:
    configure(repo, fake.url, provider, api_key_env=ENV, timeout=0.3)
    fake.mode = "hang"
    data = find(repo, topic="deleting old code")
    assert data["method"] == "keyword"
    assert data["warnings"] == [
        "the model provider did not answer within 0.3 s: keyword results instead"
    ]


def test_a_provider_that_is_down(repo: Path, fake: FakeProvider) -> None:
    configure(repo, "http://127.0.0.1:9")  # nothing listens on the discard port
    data = find(repo, topic="deleting old code")
    assert data["method"] == "keyword"
    assert "cannot be reached (connection refused)" in data["warnings"][0]


def test_a_wrong_key_is_an_http_error_that_never_shows_the_key(
    repo: Path, fake: FakeProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(repo, fake.url, "anthropic", api_key_env=ENV)
    monkeypatch.setenv(ENV, "sk-wrong-key-000000000000000")
    data = find(repo, topic="testing")
    assert data["method"] == "keyword"
    assert "HTTP 401 authentication_error" in data["warnings"][0]
    assert "sk-wrong" not in json.dumps(data)


def test_no_ai_is_said_explicitly_and_sends_nothing(
    repo: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(repo, fake.url)
    data = find(repo, topic="deleting old code", no_ai=True)
    assert (data["method"], data["ai"]["state"], data["warnings"]) == ("keyword", "off", [])
    assert any("--no-ai" in n for n in data["notes"])
    assert main(["find", "--repo", str(repo), "--topic", "deleting old code", "--no-ai",
                 "--format", "json"]) == 0
    assert json.loads(capsys.readouterr().out)["method"] == "keyword"
    assert main(["find", "--repo", str(repo), "--topic", "deleting old code", "--no-ai"]) == 0
    out = capsys.readouterr().out
    assert "note: no model asked (--no-ai / noAi): keyword results" in out
    assert fake.requests == []


def test_a_missing_key_is_a_note_not_a_warning(
    repo: Path, fake: FakeProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    configure(repo, fake.url, api_key_env=ENV)
    monkeypatch.delenv(ENV)
    data = find(repo, topic="testing")
    assert (data["method"], data["ai"]["state"], data["warnings"]) == ("keyword", "no-key", [])
    assert fake.requests == []


def test_the_repository_cannot_send_requests_elsewhere(
    repo: Path, fake: FakeProvider, monkeypatch: pytest.MonkeyPatch
) -> None:
    (repo / ".adrguard.toml").write_text(
        '[ai]\nprovider = "openai-compatible"\nmodel = "m"\n'
        'base-url = "https://collector.example/v1"\napi-key-env = "FAKE_AI_API_KEY"\n'
    )
    data = find(repo, topic="testing")
    assert data["method"] == "keyword" and data["ai"]["state"] == "refused"
    assert "ADRGUARD_AI_BASE_URL" in data["warnings"][0]
    # the user's environment may name another endpoint (here: the fake, on loopback)
    monkeypatch.setenv("ADRGUARD_AI_BASE_URL", fake.url + "/v1")
    assert find(repo, topic="testing")["method"] == "ai"


def test_paths_only_are_answered_without_a_model(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url)
    data = find(repo, paths=["src/db/schema.py"])
    assert data["method"] == "keyword" and data["ai"]["state"] == "no-topic"
    assert fake.requests == []


# --- the answer cache ----------------------------------------------------------------------


class Clock:
    def __init__(self) -> None:
        self.now = 1_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.mark.uses_cache
def test_the_answer_cache_hit_miss_expiry_and_invalidation(
    repo: Path, fake: FakeProvider
) -> None:
    configure(repo, fake.url, cache_ttl=300)
    clock = Clock()
    first = find(repo, clock, topic="deleting old code")
    assert (first["method"], first["cached"], len(fake.requests)) == ("ai", False, 1)
    hit = find(repo, clock, topic="deleting old code")
    assert (hit["cached"], hit["ai"]["state"], len(fake.requests)) == (True, "cached", 1)
    assert hit["results"] == first["results"]
    other = find(repo, clock, topic="testing")  # another context: a miss
    assert (other["cached"], len(fake.requests)) == (False, 2)
    clock.now += 299
    assert find(repo, clock, topic="deleting old code")["cached"] is True
    clock.now += 2  # 301 s after it was stored: expired
    assert find(repo, clock, topic="deleting old code")["cached"] is False
    assert len(fake.requests) == 3
    # a candidate's content changes: the stored answer is dropped
    courage = repo / "docs/adr/0009-courage.md"
    courage.write_text(courage.read_text().replace("say so early", "say so at once"))
    again = find(repo, clock, topic="deleting old code")
    assert (again["cached"], len(fake.requests)) == (False, 4)
    assert find(repo, clock, topic="deleting old code")["cached"] is True
    # nothing of the key or the prompt in the cache folder
    folder = Path(os.environ["ADRGUARD_CACHE_DIR"])
    for path in folder.rglob("*"):
        if path.is_file():
            data = path.read_bytes()
            assert KEY.encode() not in data and b"deleting old code" not in data


@pytest.mark.uses_cache
def test_no_cache_and_a_zero_ttl_always_ask(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url, cache_ttl=0)
    find(repo, topic="testing")
    assert find(repo, topic="testing")["cached"] is False
    configure(repo, fake.url)
    ws = Workspace.open(repo, cache=False)
    find_adrs(ws, topic="testing")
    assert find_adrs(ws, topic="testing")["cached"] is False
    assert len(fake.requests) == 4


def test_context_uses_the_same_judgment(repo: Path, fake: FakeProvider) -> None:
    configure(repo, fake.url)
    ws = Workspace.open(repo, cache=False)
    data = adr_context(ws, topic="deleting old code")
    assert data["method"] == "ai"
    assert [u["identifier"] for u in data["units"]] == ["ADR-0010", "ADR-0009"]
    plain = adr_context(ws, topic="deleting old code", no_ai=True)
    assert plain["method"] == "keyword"
    assert any("--no-ai" in n for n in plain["warnings"])


def test_the_command_line_shows_confidence_reason_and_who_judged(
    repo: Path, fake: FakeProvider, capsys: pytest.CaptureFixture[str]
) -> None:
    configure(repo, fake.url)
    assert main(["find", "--repo", str(repo), "--no-cache", "--topic", "deleting old code"]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[0] == "ADR-0010  No Dead Code  [accepted]  confidence 0.90"
    assert "    model: unused code is removed" in out
    assert "judged by fake-model (openai-compatible) over 7 candidate(s); threshold 0.7" in out
    fake.mode, fake.status = "status", 500
    assert main(["find", "--repo", str(repo), "--no-cache", "--topic", "deleting old code"]) == 0
    out = capsys.readouterr().out
    assert "warning: the model provider refused the request (HTTP 500 server_error)" in out
    assert "confidence" in out.splitlines()[0] and "score" in out.splitlines()[0]


def test_context_intents_on_the_command_line(
    repo: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["context", "--repo", str(repo), "--no-cache", "--format", "json"]
    assert main([*argv, "--paths", "src/db/schema.py"]) == 0
    current = json.loads(capsys.readouterr().out)
    assert current["intent"] == "current"
    assert "ADR-0011" not in [u["identifier"] for u in current["units"]]  # superseded
    assert main([*argv, "ADR-0012", "--intent", "history"]) == 0
    history = json.loads(capsys.readouterr().out)
    assert [u["identifier"] for u in history["units"]] == ["ADR-0012", "ADR-0011"]
    assert main([*argv, "ADR-0012", "--intent", "rationale"]) == 0
    rationale = json.loads(capsys.readouterr().out)
    assert [u["identifier"] for u in rationale["units"]] == ["ADR-0012", "ADR-0011"]
    assert main([*argv, "--intent", "history"]) == 2
    assert "needs a record" in capsys.readouterr().err


# --- cancellation: the MCP server cancels a call's token (adrguard.core.cancel) ----------


@pytest.mark.uses_cache
def test_a_cancelled_call_sends_nothing_and_caches_nothing(
    repo: Path, fake: FakeProvider
) -> None:
    configure(repo, fake.url, cache_ttl=300)
    ws = Workspace.open(repo, cache=True)
    config, corpus = ws.load()
    narrowed = retrieval.narrow(corpus, topic="deleting old code")
    gone = Token()
    gone.cancel()  # cancelled before the model is asked: no request leaves
    with pytest.raises(Cancelled):
        judge_relevance(config, repo, narrowed, "deleting old code", cancel=gone)
    assert fake.requests == []
    # cancelled while the model answers (the server's timeout, the client's cancellation):
    # the call stops at its next checkpoint and the answer is not cached
    token = Token()
    fake.before_reply = token.cancel
    with pytest.raises(Cancelled):
        find_adrs(ws.for_call(token), topic="deleting old code")
    assert len(fake.requests) == 1
    fake.before_reply = None
    data = find(repo, topic="deleting old code")
    assert (data["method"], data["cached"], len(fake.requests)) == ("ai", False, 2)
    assert find(repo, topic="deleting old code")["cached"] is True


# --- the base install: no ai extra, no key, nothing beyond loopback ------------------------

_BASE_INSTALL = """\
import json, sys
sys.modules["truststore"] = None  # the ai extra is not installed: importing it fails
from adrguard.cli import main
code = main(sys.argv[1:])
models = sorted(m for m in sys.modules if m.startswith("adrguard.adapters.models"))
print("\\nEXIT=" + json.dumps([code, models]))
"""


def _base_install_find(repo: Path) -> tuple[dict[str, Any], int, list[str]]:
    env = {k: v for k, v in os.environ.items()
           if not k.upper().endswith("API_KEY") and k != "ADRGUARD_AI_BASE_URL"}
    out = subprocess.run(
        [sys.executable, "-c", _BASE_INSTALL, "find", "--repo", str(repo), "--no-cache",
         "--topic", "deleting old code", "--format", "json"],
        check=True, capture_output=True, text=True, env=env, timeout=120,
    ).stdout
    answer, _, tail = out.rpartition("\nEXIT=")
    code, models = json.loads(tail)
    return json.loads(answer), code, models


def test_the_base_install_works_without_the_ai_extra_or_a_key(
    repo: Path, fake: FakeProvider
) -> None:
    data, code, models = _base_install_find(repo)  # no [ai]: keywords, silently
    assert (code, data["method"], data["warnings"]) == (0, "keyword", [])
    assert data["ai"]["state"] == "unconfigured" and models == []  # the adapter is not loaded
    assert fake.requests == []
    configure(repo, fake.url)  # a local model on this machine: no key, no extra needed
    data, code, models = _base_install_find(repo)
    assert (code, data["method"], data["warnings"]) == (0, "ai", [])
    assert [r["identifier"] for r in data["results"]] == ["ADR-0010", "ADR-0009"]
    assert "adrguard.adapters.models.transport" in models
    (request,) = fake.requests
    assert "authorization" not in request["headers"]
