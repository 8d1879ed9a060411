"""Per-session counters of the read guard, in the user's cache folder (never in the work tree).

One small JSON file per agent session, ``<cache>/guard-sessions/<sha256 of the session id>.json``:
the parts of records read (to hint at a repeat, and to count the evidence read), the hints
already given (a hint is given once per session), and totals. The session id is whatever the
runtime sends, so it is only ever hashed: no id can name a file outside the folder. A session
untouched for :data:`TTL` seconds expires (its file is removed when a new session starts).
Counters never change a decision, only whether a hint is repeated; a counter that cannot be
read or written is reported by the caller, and the call is judged all the same.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import os
import stat
import time
from pathlib import Path
from typing import Any

from adrguard.core.guard.policy import Answer, Seen, Verdict

FOLDER = "guard-sessions"
FORMAT = "adrguard-guard-session 1"
TTL = 24 * 3600  # seconds a session lives after its last call
MAX_KEYS = 10_000  # parts read and hints remembered per session (beyond: no longer remembered)
MAX_FILE = 4 * 1024 * 1024
_DIR_FLAGS = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
_READ_FLAGS = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
_WRITE_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)


class SessionError(OSError):
    """The counters cannot be read or written (the caller reports it; decisions stand)."""


def file_name(session_id: str) -> str:
    """The counters' file of a session: a hash of the id, whatever the id holds."""
    return hashlib.sha256(session_id.encode("utf-8", "surrogateescape")).hexdigest() + ".json"


class Session:
    """The counters of one session, loaded from and saved to ``folder``."""

    def __init__(self, folder: Path, session_id: str, now: float | None = None) -> None:
        self.folder = folder
        self.name = file_name(session_id)
        self.now = time.time() if now is None else now
        self.data: dict[str, Any] = _fresh(self.now)
        self.new = True
        self.problem: str | None = None  # why earlier counters could not be used

    @classmethod
    def open(cls, cache_folder: Path, session_id: str, now: float | None = None) -> Session:
        session = cls(cache_folder / FOLDER, session_id, now)
        session._load()
        return session

    def seen(self) -> Seen:
        return Seen(frozenset(self.data["reads"]), frozenset(self.data["told"]))

    def record(self, verdict: Verdict, sizes: dict[str, int]) -> None:
        """Count the call: what it read (when it goes ahead), the hints it gave, a denial."""
        data = self.data
        data["calls"] += 1
        data["updated"] = self.now
        if verdict.answer is Answer.DENY:
            data["denied"] += 1
            return
        reads, told = data["reads"], data["told"]
        for item in verdict.evidence:
            if item.key in reads:
                reads[item.key] += 1
                data["repeats"] += 1
            elif len(reads) < MAX_KEYS:
                reads[item.key] = 1
            if item.path not in data["records"] and len(data["records"]) < MAX_KEYS:
                data["records"][item.path] = item.state.value
            data["bytes"] += sizes.get(item.path, 0)
        for notice in verdict.notices:
            if notice.key not in told and len(told) < MAX_KEYS:
                told.append(notice.key)

    def summary(self) -> dict[str, Any]:
        data = self.data
        return {
            "calls": data["calls"],
            "recordsRead": len(data["records"]),
            "repeats": data["repeats"],
            "bytesRead": data["bytes"],
            "denied": data["denied"],
        }

    # --- storage ------------------------------------------------------------------------------

    def _load(self) -> None:
        folder = self._folder()
        try:
            raw = _read(folder, self.name)
        finally:
            os.close(folder)
        if raw is None:
            return
        try:
            data = json.loads(raw)
            ok = (
                isinstance(data, dict) and data.get("format") == FORMAT
                and isinstance(data.get("reads"), dict) and isinstance(data.get("told"), list)
                and isinstance(data.get("records"), dict)
                and all(isinstance(data.get(k), int) for k in
                        ("calls", "repeats", "bytes", "denied"))
                and isinstance(data.get("updated"), int | float)
            )
        except ValueError:
            ok = False
        if not ok:
            self.problem = "the session counters were damaged; they start again"
            return
        if self.now - data["updated"] > TTL:
            return  # expired: a new session under the same id
        self.data, self.new = data, False

    def save(self) -> None:
        folder = self._folder()
        try:
            if self.new:
                _expire(folder, self.now)
            body = json.dumps(self.data, separators=(",", ":"), sort_keys=True).encode("utf-8")
            tmp = f".{self.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
            try:
                fd = os.open(tmp, _WRITE_FLAGS, 0o600, dir_fd=folder)
                with os.fdopen(fd, "wb") as fh:
                    fh.write(body)
                os.replace(tmp, self.name, src_dir_fd=folder, dst_dir_fd=folder)
            except OSError as exc:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=folder)
                raise SessionError(f"the session counters cannot be written: "
                                   f"{exc.strerror or exc}") from None
        finally:
            os.close(folder)

    def _folder(self) -> int:
        """The counters' folder, created if missing, opened without following a symlink."""
        try:
            os.makedirs(self.folder.parent, mode=0o700, exist_ok=True)
            parent = os.open(self.folder.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        except OSError as exc:
            raise SessionError(f"the cache folder cannot be used: {exc.strerror or exc}") from None
        try:
            with contextlib.suppress(FileExistsError):
                os.mkdir(FOLDER, 0o700, dir_fd=parent)
            return os.open(FOLDER, _DIR_FLAGS, dir_fd=parent)
        except OSError as exc:
            raise SessionError(f"the session folder cannot be used: {exc.strerror or exc}") \
                from None
        finally:
            os.close(parent)


def _fresh(now: float) -> dict[str, Any]:
    return {"format": FORMAT, "started": now, "updated": now, "calls": 0, "repeats": 0,
            "bytes": 0, "denied": 0, "reads": {}, "told": [], "records": {}}


def _read(folder: int, name: str) -> bytes | None:
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:  # a symlink planted in its place, a permission: not ours to use
        raise SessionError(f"the session counters cannot be read: {exc.strerror or exc}") \
            from None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_size > MAX_FILE:
            raise SessionError("the session counters are not a regular file of a sane size")
        return os.read(fd, st.st_size + 1)
    finally:
        os.close(fd)


def _expire(folder: int, now: float) -> None:
    """Remove the counters of sessions idle for longer than TTL (and stray temporary files)."""
    try:
        names = os.listdir(folder)
    except OSError:
        return
    for name in names:
        if not name.endswith((".json", ".tmp")):
            continue
        with contextlib.suppress(OSError):
            st = os.stat(name, dir_fd=folder, follow_symlinks=False)
            if now - st.st_mtime > TTL:
                os.unlink(name, dir_fd=folder)
