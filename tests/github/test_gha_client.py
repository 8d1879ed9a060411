"""The REST client against a real local HTTP server: pagination, errors, the token's origin."""

from __future__ import annotations

from fakegithub import State

from adrguard.adapters.github_api import GitHubClient, next_link


def test_next_link_parsing() -> None:
    header = ('<https://api.github.com/x?page=2>; rel="next", '
              '<https://api.github.com/x?page=5>; rel="last"')
    assert next_link(header) == "https://api.github.com/x?page=2"
    assert next_link('<https://api.github.com/x?page=1>; rel="prev"') is None
    assert next_link(None) is None


def test_paginates_every_comment(github: State) -> None:
    for i in range(250):
        github.add("someone", f"c{i}")
    client = GitHubClient(github.base_url, "user-token")
    got = client.list_comments("acme/shop", 7)
    assert got.ok and [c["body"] for c in got.data] == [f"c{i}" for i in range(250)]
    assert [r.query.get("page", ["1"])[0] for r in github.requests] == ["1", "2", "3"]


def test_pagination_is_bounded(github: State) -> None:
    for i in range(250):
        github.add("someone", f"c{i}")
    got = GitHubClient(github.base_url, "t").paginate("/repos/acme/shop/issues/7/comments",
                                                      max_pages=2)
    assert got.ok and len(got.data) == 200


def test_create_update_delete_and_login(github: State) -> None:
    client = GitHubClient(github.base_url + "/", "user-token")
    assert client.login().data["login"] == "adrguard-bot"
    made = client.create_comment("acme/shop", 7, "hello")
    assert made.status == 201
    cid = made.data["id"]
    assert client.update_comment("acme/shop", cid, "bye").data["body"] == "bye"
    gone = client.delete_comment("acme/shop", cid)
    assert gone.status == 204 and gone.data is None
    assert client.delete_comment("acme/shop", cid).status == 404
    assert [r.method for r in github.requests] == ["GET", "POST", "PATCH", "DELETE", "DELETE"]
    assert all(r.authorization == "Bearer user-token" for r in github.requests)


def test_errors_are_results_not_exceptions(github: State) -> None:
    client = GitHubClient(github.base_url, "user-token")
    github.fail[("POST", "comments")] = 403
    denied = client.create_comment("acme/shop", 7, "x")
    assert denied.status == 403 and not denied.ok
    assert denied.error == "HTTP 403: Resource not accessible by integration"
    github.fail[("GET", "comments")] = 500
    assert client.list_comments("acme/shop", 7).status == 500
    assert client.login().ok
    assert GitHubClient(github.base_url, "unknown").login().status == 403


def test_no_server_is_status_zero() -> None:
    got = GitHubClient("http://127.0.0.1:9", "t", timeout=2).login()
    assert got.status == 0 and "no answer" in got.error


def test_token_never_leaves_the_api_origin(github: State) -> None:
    client = GitHubClient(github.base_url, "secret")
    got = client.request("GET", "https://elsewhere.example/steal")
    assert got.status == 0 and "refusing" in got.error
    assert not github.requests


def test_from_env() -> None:
    assert GitHubClient.from_env({}) is None
    client = GitHubClient.from_env({"GITHUB_TOKEN": "t"})
    assert client is not None and client.base_url == "https://api.github.com"
    other = GitHubClient.from_env({"GITHUB_TOKEN": "t", "GITHUB_API_URL": "https://ghe.example/api/v3/"})
    assert other is not None and other.base_url == "https://ghe.example/api/v3"
