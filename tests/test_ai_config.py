"""The ``[ai]`` table: what it accepts, and that no message repeats a secret it was given."""

from __future__ import annotations

from pathlib import Path

import pytest

from adrguard.config import from_mapping, load_config
from adrguard.core.errors import UserError
from adrguard.core.options import AiOptions


def ai(**table: object) -> AiOptions:
    return from_mapping({"ai": {"provider": "anthropic", "model": "m", **table}}).ai


def test_defaults_and_values() -> None:
    assert from_mapping({}).ai == AiOptions()  # no provider: nothing is ever sent
    got = ai(**{"base-url": "http://127.0.0.1:8080/v1/", "timeout": 5, "threshold": 0.5,
                "cache-ttl": 0, "api-key-env": "MY_API_KEY"})
    assert got == AiOptions("anthropic", "http://127.0.0.1:8080/v1", "m", "MY_API_KEY", 5.0, 0.5, 0)


@pytest.mark.parametrize(
    ("table", "says", "secret"),
    [
        ({"api-key-env": "sk-ant-api03-AbCdEf0123456789"}, "never the key itself", "sk-ant"),
        ({"api-key-env": "AbCdEfGhIjKlMnOpQrStUvWxYz012345"}, "never the key itself", "AbCdEf"),
        ({"api-key-env": "AWS_SECRET_ACCESS_KEY"}, "ends in API_KEY", None),
        ({"base-url": "https://user:s3cret@gw.example/v1"}, "holds credentials", "s3cret"),
        ({"base-url": "ftp://user:s3cret@gw.example/v1"}, "holds credentials", "s3cret"),
        ({"base-url": "https://gw.example/v1?key=s3cret"}, "query or fragment", "s3cret"),
        ({"base-url": "gw.example/v1"}, "http:// or https://", None),
        ({"provider": "gemini"}, "provider", None),
        ({"threshold": 1.5}, "threshold", None),
        ({"timeout": 0}, "timeout", None),
        ({"extra": 1}, "unknown key 'ai.extra'", None),
    ],
)
def test_bad_tables_say_why_without_repeating_a_secret(
    table: dict[str, object], says: str, secret: str | None
) -> None:
    with pytest.raises(UserError) as caught:
        ai(**table)
    assert says in str(caught.value)
    if secret is not None:
        assert secret not in str(caught.value)


def test_a_model_is_required(tmp_path: Path) -> None:
    (tmp_path / ".adrguard.toml").write_text('[ai]\nprovider = "anthropic"\n')
    with pytest.raises(UserError, match="'model' is a required property"):
        load_config(tmp_path)
