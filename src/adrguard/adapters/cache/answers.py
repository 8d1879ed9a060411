"""Model answers kept for a while (issue 31), in the record cache's store
(:mod:`adrguard.adapters.cache.store`)."""

from __future__ import annotations

from adrguard.adapters.cache.store import Store, key


class Answers:
    """Model answers kept for a while (issue 31), in the same store as the records.

    One entry per question (its name: :func:`adrguard.core.agent.judge.cache_key`, a hash of the
    context, the candidate ids, the provider, endpoint and model), holding when it was stored,
    each candidate's content digest and the validated judgments. An entry older than the TTL,
    stored "in the future" (the clock went back), damaged, or made when any candidate's content
    was different is dropped, and the question is asked again. Neither the key nor the prompt
    is stored."""

    FORMAT = 1

    def __init__(self, store: Store) -> None:
        self._store = store

    @staticmethod
    def _entry(name: str) -> str:
        return key("answers", name)

    def get(
        self, name: str, digests: dict[str, str], now: float, ttl: float
    ) -> list[dict[str, object]] | None:
        """The judgments stored for ``name`` if still good (see the class docstring)."""
        import json

        entry = self._entry(name)
        blob = self._store.get(entry)
        if blob is None:
            return None
        try:
            data = json.loads(blob)
            stored = float(data["stored"])
            same = data["v"] == self.FORMAT and data["digests"] == digests
            judgments = data["judgments"]
            good = same and isinstance(judgments, list) and 0 <= now - stored < ttl
        except (ValueError, KeyError, TypeError, RecursionError):
            good = False
        if not good:
            self._store.drop(entry)
            return None
        return [j for j in judgments if isinstance(j, dict)]

    def put(
        self, name: str, digests: dict[str, str], now: float, judgments: list[dict[str, object]]
    ) -> None:
        import json

        data = {"v": self.FORMAT, "stored": now, "digests": digests, "judgments": judgments}
        self._store.put(self._entry(name), json.dumps(data, sort_keys=True).encode("utf-8"))

    def close(self) -> None:
        """Close the store it lives in."""
        self._store.close()
