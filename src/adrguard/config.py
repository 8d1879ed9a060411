"""Configuration: ``.adrguard.toml`` or ``[tool.adrguard]`` in ``pyproject.toml``.

First found wins, never merged: ``--config FILE`` > ``.adrguard.toml`` > ``pyproject.toml`` >
built-in defaults. :func:`from_mapping` is pure; :func:`load_config` reads the file.
"""

from __future__ import annotations

import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from adrguard.configfile import one_line, read_config_file, read_toml, tool_table
from adrguard.core.errors import UserError
from adrguard.core.findings import Severity
from adrguard.core.options import (
    DEFAULT_REQUIRED_SECTIONS,
    DEFAULT_STATUS_HEADINGS,
    DEFAULT_STATUS_SYNONYMS,
    AiOptions,
    CitationOptions,
    CurrentOptions,
    ImpactOptions,
    IndexOptions,
    Options,
    VerifyOptions,
)
from adrguard.core.repository import Repository, parse_repository

DEFAULT_ROOTS: tuple[str, ...] = (
    "docs/adr",
    "docs/adrs",
    "docs/decisions",
    "doc/adr",
    "docs/architecture/decisions",
    "adr",
    "decisions",
    "architecture-decision-record",
)

DEFAULT_EXCLUDE: tuple[str, ...] = (
    "README.md",
    "readme.md",
    "index.md",
    "INDEX.md",
    "CURRENT.md",
    "template*.md",
    "*-template.md",
    "*-TEMPLATE.md",
    "0000-*template*",
    "0000-*TEMPLATE*",
    "*XXX*",
    "*xxx*",
    # templates named in other languages (French modèle, German Vorlage, Spanish plantilla)
    "0000-*modele*",
    "0000-*modèle*",
    "modele*.md",
    "0000-*vorlage*",
    "vorlage*.md",
    "0000-*plantilla*",
    "plantilla*.md",
)

PROFILES = ("legacy", "advisory", "standard", "strict")
FAIL_ON = ("none", "note", "warning", "error")
READ_GUARD = ("off", "warn", "guard")

SCHEMA_PATH = "config.schema.json"


@dataclass(frozen=True)
class Config:
    """The configuration in effect (see the module docstring for where it comes from)."""

    source: str | None = None  # where it came from (for -v), None = defaults
    roots: tuple[str, ...] = ()  # empty = auto-detect DEFAULT_ROOTS
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    archive_dirs: tuple[str, ...] = ("archive",)
    profile: str = "standard"
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = field(default_factory=dict)
    per_file_ignores: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    fail_on: str = "error"
    cache: bool = True
    cache_dir: str | None = None  # the record cache's folder (None: see adapters.cache)
    # The settings came from a file inside the repository (pull-request data, not the user's):
    # its cache-dir must then lie inside the user's cache folder (adrguard.pathguard).
    repository_config: bool = False
    # Processes that parse a large corpus: 1 = this one only (the default for library use),
    # 0 = one per core, up to 4 (what the command line asks for). See adrguard.api.pipeline.parsing.
    jobs: int = 1
    options: Options = field(default_factory=Options)
    citations: CitationOptions = field(default_factory=CitationOptions)  # [citations]
    template: str | None = None  # `adrguard new`: a repo-relative markdown template
    new_status: str | None = None  # `adrguard new` / `supersede`: the status written (proposed)
    # the repository's web URL and default branch (`repository-url`, `--repository-url`, the
    # Action's GITHUB_REPOSITORY): which URLs name work-tree files; never a git remote
    repository: Repository | None = None
    read_guard: str = "off"  # the read guard for agents: off | warn | guard (docs/read-guard.md)
    ai: AiOptions = field(default_factory=AiOptions)  # [ai]: the optional model provider

    def with_overrides(self, **changes: Any) -> Config:
        clean = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **clean)


def _schema() -> dict[str, Any]:
    from adrguard.core.schemas import load_schema

    return load_schema(SCHEMA_PATH)


def _closest(key: str, valid: list[str]) -> str:
    import difflib

    match = difflib.get_close_matches(key, valid, n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _check_keys(
    data: Mapping[str, Any], schema: Mapping[str, Any], where: str, prefix: str
) -> None:
    props = schema.get("properties", {})
    if schema.get("additionalProperties", True) is False:
        for key in data:
            if key not in props:
                raise UserError(
                    f"{where}: unknown key {prefix + key!r}{_closest(key, sorted(props))}; "
                    "see docs/configuration.md for every key"
                )
    for key, value in data.items():
        sub = props.get(key)
        if isinstance(value, Mapping) and isinstance(sub, Mapping) and sub.get("type") == "object":
            _check_keys(value, sub, where, f"{prefix}{key}.")


def validate_mapping(data: Mapping[str, Any], where: str) -> None:
    """Reject unknown keys (naming the closest valid one) and wrong types. A configuration the
    typed model (:mod:`adrguard.core.typed`) accepts is valid; anything else goes to jsonschema
    and ``schemas/config.schema.json``, which say what is wrong and where (and accept what the
    stricter model did not, such as ``1.0`` for an integer)."""
    schema = _schema()
    _check_keys(data, schema, where, "")
    from adrguard.core.typed import ConfigTable, conforms

    if conforms(data, ConfigTable):
        return
    from adrguard.core.schemas import validator

    errors = sorted(validator(SCHEMA_PATH).iter_errors(dict(data)), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        path = ".".join(str(p) for p in err.path) or "(top level)"
        raise UserError(f"{where}: invalid value at {path}: {err.message}")


def _table(raw: Mapping[str, Any]) -> dict[str, Any]:
    """A validated ``[index]``/``[current]``/``[impact]`` table as keyword arguments of its typed
    options (the schema has checked every key and type; lists become tuples)."""
    return {k: tuple(v) if isinstance(v, list) else v for k, v in raw.items()}


def _codes(values: Any) -> tuple[str, ...]:
    return tuple(str(v).strip() for v in values or ())


def from_mapping(
    data: Mapping[str, Any],
    source: str | None = None,
    base_dir: Path | None = None,
    inside: tuple[Path, ...] = (),
) -> Config:
    """Build a Config from an already-parsed mapping. Pure apart from reading the
    ``frontmatter-schema`` file named by the config (relative to ``base_dir``, and only when it
    resolves inside one of the folders ``inside``: the repository, and the folder of a config
    file named on the command line; ``base_dir`` alone when ``inside`` is empty)."""
    where = source or "configuration"
    _check_ai(data, where)
    validate_mapping(data, where)
    _check_paths(data, where)
    opts: dict[str, Any] = {}
    if "statuses" in data:
        syn = dict(DEFAULT_STATUS_SYNONYMS)
        syn.update({str(k).casefold(): str(v) for k, v in data["statuses"].items()})
        opts["status_synonyms"] = syn
    if "status-headings" in data:
        opts["status_headings"] = tuple(
            dict.fromkeys(
                [*DEFAULT_STATUS_HEADINGS, *(h.casefold() for h in data["status-headings"])]
            )
        )
    if "required-sections" in data:
        req = dict(DEFAULT_REQUIRED_SECTIONS)
        req.update(
            {k: tuple(s.casefold() for s in v) for k, v in data["required-sections"].items()}
        )
        opts["required_sections"] = req
        opts["sections_configured"] = tuple(sorted(data["required-sections"]))
    for key, attr in (
        ("filename-pattern", "filename_pattern"),
        ("decision-id-pattern", "decision_id_pattern"),
    ):
        if key in data:
            from adrguard.core.saferegex import pattern_problem

            problem = pattern_problem(data[key], line_local=key == "decision-id-pattern")
            if problem is not None:
                raise UserError(f"{where}: {key} {data[key]!r} cannot be used: {problem}")
            opts[attr] = data[key]
    for key, attr in (
        ("require-status", "require_status"),
        ("supersession-both-sides", "supersession_both_sides"),
    ):
        if key in data:
            opts[attr] = bool(data[key])
    if "date-format" in data:
        opts["date_format"] = _date_format(data["date-format"], where)
    if "archive-dirs" in data:
        opts["archive_dirs"] = tuple(data["archive-dirs"])
    if "max-file-size" in data:
        opts["max_file_size"] = int(data["max-file-size"])
    if "index" in data:
        opts["index"] = IndexOptions(**_table(data["index"]))
    if "current" in data:
        opts["current"] = CurrentOptions(**_table(data["current"]))
    if "impact" in data:
        opts["impact"] = ImpactOptions(**_table(data["impact"]))
    if "verify" in data:
        table = _table(data["verify"])
        opts["verify"] = VerifyOptions(**{k.replace("-", "_"): v for k, v in table.items()})
    if "frontmatter-schema" in data:
        opts["frontmatter_schema"] = _load_fm_schema(
            data["frontmatter-schema"], base_dir, where, inside
        )

    severity: dict[str, Severity] = {}
    for code, sev in (data.get("severity") or {}).items():
        try:
            severity[code] = Severity.parse(sev)
        except ValueError as exc:
            raise UserError(f"{where}: severity.{code}: {exc}") from None
    exclude = tuple(data["exclude"]) if "exclude" in data else DEFAULT_EXCLUDE
    exclude += tuple(data.get("extend-exclude", ()))
    return Config(
        source=source,
        roots=tuple(data.get("roots", ())),
        exclude=exclude,
        archive_dirs=tuple(data.get("archive-dirs", ("archive",))),
        profile=data.get("profile", "standard"),
        select=_codes(data.get("select")),
        ignore=_codes(data.get("ignore")),
        severity=severity,
        per_file_ignores={k: _codes(v) for k, v in (data.get("per-file-ignores") or {}).items()},
        fail_on=data.get("fail-on", "error"),
        cache=bool(data.get("cache", True)),
        cache_dir=_cache_dir(data.get("cache-dir"), where),
        options=Options(**opts),
        citations=_citations(data.get("citations"), where),
        template=data.get("template"),
        new_status=_new_status(data.get("new-status"), opts.get("status_synonyms"), where),
        repository=repository_setting(data.get("repository-url"), f"{where}: repository-url"),
        read_guard=data.get("read-guard", "off"),
        ai=_ai(data.get("ai")),
    )


def _ai(raw: Mapping[str, Any] | None) -> AiOptions:
    """``[ai]`` (checked by :func:`_check_ai` and the schema)."""
    if not raw:
        return AiOptions()
    url = raw.get("base-url")
    return AiOptions(
        provider=raw["provider"],
        base_url=url.rstrip("/") if url else None,
        model=raw["model"].strip(),
        api_key_env=raw.get("api-key-env"),
        timeout=float(raw.get("timeout", AiOptions.timeout)),
        threshold=float(raw.get("threshold", AiOptions.threshold)),
        cache_ttl=int(raw.get("cache-ttl", AiOptions.cache_ttl)),
    )


def _check_ai(data: Mapping[str, Any], where: str) -> None:
    """The two ``[ai]`` values that could hold a secret, checked before the schema (whose
    messages repeat the value): a base URL without credentials, query or fragment, and a key
    variable's name that is a name, not a key. No message repeats either value."""
    raw = data.get("ai")
    if not isinstance(raw, Mapping):
        return
    url, name = raw.get("base-url"), raw.get("api-key-env")
    if isinstance(url, str):
        from urllib.parse import urlsplit

        try:
            parts = urlsplit(url)
            host, user, password = parts.hostname, parts.username, parts.password
        except ValueError:
            host, user, password = None, None, None
        if user is not None or password is not None:
            raise UserError(
                f"{where}: ai.base-url holds credentials: remove them from the file (and rotate "
                "them); name the variable that holds the key in ai.api-key-env"
            )
        if parts.scheme.casefold() not in ("http", "https") or not host:
            raise UserError(f"{where}: ai.base-url must be an http:// or https:// URL with a host")
        if parts.query or parts.fragment or not url.isprintable() or len(url) > 512:
            raise UserError(
                f"{where}: ai.base-url must be at most 512 printable characters, without a "
                "query or fragment"
            )
    if isinstance(name, str) and (_looks_like_a_key(name) or not _VARIABLE.fullmatch(name)):
        raise UserError(
            f"{where}: ai.api-key-env must be the NAME of an environment variable (letters, "
            "digits and _, such as ANTHROPIC_API_KEY), never the key itself: if the file holds a "
            "key, remove it and rotate the key"
        )
    if isinstance(name, str) and not name.upper().endswith("API_KEY"):
        raise UserError(
            f"{where}: ai.api-key-env {name!r} must name a variable whose name ends in API_KEY "
            "(such as ANTHROPIC_API_KEY): the repository's configuration may not send other "
            "variables (a token or a cloud secret) to a model provider"
        )


_VARIABLE = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


def _looks_like_a_key(name: str) -> bool:
    """A run of mixed-case letters and digits as long as a key, or a key's usual prefix."""
    if name.casefold().startswith(("sk-", "sk_", "sk-ant")):
        return True
    mixed = any(c.islower() for c in name) and any(c.isupper() for c in name)
    return len(name) >= 32 and mixed and sum(c.isdigit() for c in name) >= 4


# Keys that name a file relative to the repository (or an ADR root): each must pass the lexical
# half of the path guard (adrguard.core.relpath) before anything reads or writes it.
_PATH_KEYS: tuple[tuple[str, ...], ...] = (
    ("template",), ("impact", "manifest"), ("verify", "rules"), ("verify", "baseline"),
    ("index", "path"), ("current", "view"), ("current", "manifest"),
)
# Globs matched with pathspec: a glob it cannot compile is a configuration error, not a crash.
_GLOB_KEYS = ("exclude", "extend-exclude")


def _check_paths(data: Mapping[str, Any], where: str) -> None:
    """Every path, folder name and glob of the configuration, before anything uses it: a path
    stays inside the repository and out of ``.git`` (:mod:`adrguard.core.relpath`), an archive
    folder is one plain folder name, a glob compiles."""
    from adrguard.core import relpath
    from adrguard.core.impact.globs import syntax_problem

    named: list[tuple[str, Any]] = []
    for path_key in _PATH_KEYS:
        value: Any = data
        for part in path_key:
            value = value.get(part) if isinstance(value, Mapping) else None
        if value is not None:
            named.append((".".join(path_key), value))
    index: Mapping[str, Any] = data.get("index") or {}  # the schema checked every type
    named += [(f"index.paths.{root}", v) for root, v in (index.get("paths") or {}).items()]
    for key, value in named:
        if (problem := relpath.problem(value)) is not None:
            raise UserError(f"{where}: {key} {problem}")
    schema = data.get("frontmatter-schema")
    if isinstance(schema, str) and any(relpath.is_git_name(p) for p in
                                       schema.replace("\\", "/").split("/")):
        raise UserError(f"{where}: frontmatter-schema {schema!r} is inside git's own folder "
                        "(.git), which adrguard never reads; name a file of the work tree")
    for name in data.get("archive-dirs", ()):
        if ("/" in name or "\\" in name or name.strip() in (".", "..")
                or relpath.is_git_name(name) or any(c < " " for c in name)):
            raise UserError(
                f"{where}: archive-dirs entry {name!r} must be one plain folder name below an "
                "ADR root (such as 'archive'), not a path, '.', '..' or git's folder .git"
            )
    current: Mapping[str, Any] = data.get("current") or {}
    globs = [(k, g) for k in _GLOB_KEYS for g in data.get(k, ())]
    globs += [(f"current.{k}", g) for k in ("include", "exclude") for g in current.get(k, ())]
    for glob_key, glob in globs:
        if (problem := syntax_problem(glob)) is not None:
            raise UserError(f"{where}: {glob_key} {glob!r}: {problem}")
    for glob in data.get("per-file-ignores") or {}:
        if (problem := syntax_problem(glob)) is not None:
            raise UserError(f"{where}: per-file-ignores key {glob!r}: {problem}")


def _citations(raw: Mapping[str, Any] | None, where: str) -> CitationOptions:
    """``[citations]``, its globs checked (a bad glob names the key and says why)."""
    if not raw:
        return CitationOptions()
    from adrguard.core.impact.globs import glob_problem

    for key in ("include", "exclude"):
        for glob in raw.get(key, ()):
            problem = glob_problem(glob)
            if problem is not None:
                raise UserError(f"{where}: citations.{key} {glob!r}: {problem}")
    table = _table(raw)
    if "max-file-size" in table:
        table["max_file_size"] = table.pop("max-file-size")
    return CitationOptions(**table)


def repository_setting(value: str | None, where: str) -> Repository | None:
    """``repository-url`` (or ``--repository-url``) checked: UserError says what to write."""
    if value is None:
        return None
    try:
        return parse_repository(value)
    except ValueError as exc:
        raise UserError(f"{where} {value!r}: {exc}") from None


def _new_status(value: str | None, synonyms: Mapping[str, str] | None, where: str) -> str | None:
    """``new-status`` as written, once it is known to name a status of the vocabulary."""
    if value is None:
        return None
    from adrguard.core.model import Status
    from adrguard.core.parse.status import normalise

    if normalise(value, synonyms or DEFAULT_STATUS_SYNONYMS) is Status.UNKNOWN:
        raise UserError(
            f"{where}: new-status {value!r} is not a status adrguard knows: use proposed, "
            "draft, accepted or a word of the `statuses` table"
        )
    return value


def _cache_dir(value: str | None, where: str) -> str | None:
    """``cache-dir`` as written, once it is known to be absolute (``~`` allowed): a relative
    folder would be relative to the repository, and the cache never lives there."""
    if value is None:
        return None
    if not Path(value).expanduser().is_absolute():
        raise UserError(
            f"{where}: cache-dir {value!r} is not an absolute path: give a folder outside the "
            "repository, such as ~/.cache/adrguard"
        )
    return value


def _date_format(value: str, where: str) -> str:
    """A strftime format that writes a year and reads back what it wrote (``%Y-%m-%d``,
    ``%B %d, %Y``, ``%Y-%m``)."""
    import datetime as dt
    import re

    sample = dt.date(2001, 11, 22)
    try:
        dt.datetime.strptime(sample.strftime(value), value)
        ok = "%Y" in value or "%y" in value
    except (ValueError, re.error):  # re.error: a directive twice ("%Y %Y")
        ok = False
    if not ok:
        raise UserError(
            f"{where}: date-format {value!r} is not a strftime format with a year that reads "
            "back what it writes (for example '%Y-%m-%d' or '%B %d, %Y')"
        )
    return value


def _load_fm_schema(
    name: str, base_dir: Path | None, where: str, inside: tuple[Path, ...]
) -> dict[str, Any]:
    from adrguard.core.schemas import load_json
    from adrguard.core.userschema import schema_problem

    base = base_dir or Path.cwd()
    raw = read_config_file(base / name, inside or (base,), f"{where}: frontmatter-schema {name!r}")
    try:
        loaded = load_json(raw.decode("utf-8"))
    except (ValueError, RecursionError) as exc:
        raise UserError(
            f"{where}: frontmatter-schema {name!r} is not valid JSON: {one_line(exc)}"
        ) from None
    if not isinstance(loaded, dict):
        raise UserError(f"{where}: frontmatter-schema {name!r} must hold a JSON object")
    problem = schema_problem(loaded)
    if problem is not None:
        raise UserError(f"{where}: frontmatter-schema {name!r} {problem}")
    return loaded


def find_config(repo_root: Path) -> tuple[Path, dict[str, Any]] | None:
    """The first config file that exists, with its adrguard table (first found wins). A
    config file that is a symlink out of the repository is refused, never followed."""
    inside = (repo_root,)
    dedicated = repo_root / ".adrguard.toml"
    if dedicated.is_file() or dedicated.is_symlink():
        return dedicated, read_toml(dedicated, inside)
    pyproject = repo_root / "pyproject.toml"
    if pyproject.is_file() or pyproject.is_symlink():
        table = tool_table(read_toml(pyproject, inside), pyproject)
        if table is not None:
            return pyproject, table
    return None


def load_config(repo_root: Path, explicit: Path | None = None) -> Config:
    if explicit is not None:
        if not explicit.is_file():
            raise UserError(f"config file {explicit} does not exist; check the --config path")
        # named on the command line: trusted to live anywhere; what it names stays inside the
        # repository or the config file's own folder
        inside = (repo_root, explicit.parent)
        data = read_toml(explicit, (explicit.parent,))
        if explicit.name == "pyproject.toml":
            data = tool_table(data, explicit) or {}
        loaded = from_mapping(data, _display(explicit, repo_root), explicit.parent, inside)
        return replace(loaded, repository_config=_in_repository(explicit, repo_root))
    found = find_config(repo_root)
    if found is None:
        return Config()
    path, data = found
    label = _display(path, repo_root)
    if path.name == "pyproject.toml":
        label += " [tool.adrguard]"
    return replace(from_mapping(data, label, path.parent, (repo_root,)), repository_config=True)


def _in_repository(path: Path, repo_root: Path) -> bool:
    from adrguard.pathguard import is_inside

    return is_inside(os.path.realpath(path), os.path.realpath(repo_root))


def _display(path: Path, repo_root: Path) -> str:
    try:
        return path.resolve().relative_to(repo_root.resolve()).as_posix()
    except ValueError:
        return str(path)
