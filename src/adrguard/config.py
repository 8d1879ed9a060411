"""Configuration: ``.adrguard.toml`` or ``[tool.adrguard]`` in ``pyproject.toml``.

First found wins, never merged: ``--config FILE`` > ``.adrguard.toml`` > ``pyproject.toml`` >
built-in defaults. :func:`from_mapping` is pure; :func:`load_config` reads the file. Every key,
type, limit and default is declared once, in :mod:`adrguard.core.settings`; this module checks a
file against that declaration and builds the :class:`Config` in effect from it.

The files the configuration comes from or names are hostile input: a pull request can commit
``.adrguard.toml`` or ``pyproject.toml`` as a symlink out of the repository, name a
``frontmatter-schema`` outside it or in ``.git/``, or point it at ``/dev/zero``. Every such file
is read by :func:`read_config_file`: it must resolve inside the allowed folders and outside git's
folders (:mod:`adrguard.pathguard`), be a regular file and stay under :data:`MAX_CONFIG_BYTES`;
each failure is one ``UserError`` line.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Collection, Mapping
from pathlib import Path
from typing import Any

import msgspec
from msgspec.structs import replace

from adrguard.core import relpath
from adrguard.core.errors import UserError
from adrguard.core.findings import Severity
from adrguard.core.lazyre import lazy
from adrguard.core.model import Status
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
from adrguard.core.saferegex import pattern_problem
from adrguard.core.settings import (
    DEFAULTS,
    FAIL_ON,
    PROFILES,
    AiTable,
    CitationsTable,
    ConfigTable,
    given,
    got,
    table_keys,
)
from adrguard.pathguard import in_git_folder, is_inside

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

__all__ = ["FAIL_ON", "PROFILES", "Config", "from_mapping", "load_config"]

SCHEMA_PATH = "config.schema.json"  # generated from adrguard.core.settings (a test keeps it so)


class Config(msgspec.Struct, frozen=True):
    """The configuration in effect (see the module docstring for where it comes from)."""

    source: str | None = None  # where it came from (for -v), None = defaults
    roots: tuple[str, ...] = ()  # empty = auto-detect DEFAULT_ROOTS
    exclude: tuple[str, ...] = DEFAULT_EXCLUDE
    profile: str = DEFAULTS.profile
    select: tuple[str, ...] = ()
    ignore: tuple[str, ...] = ()
    severity: Mapping[str, Severity] = msgspec.field(default_factory=dict)
    per_file_ignores: Mapping[str, tuple[str, ...]] = msgspec.field(default_factory=dict)
    fail_on: str = DEFAULTS.fail_on
    cache: bool = DEFAULTS.cache
    cache_dir: str | None = None  # the record cache's folder (None: see adapters.cache)
    # The settings came from a file inside the repository (pull-request data, not the user's):
    # its cache-dir must then lie inside the user's cache folder (adrguard.pathguard).
    repository_config: bool = False
    # Processes that parse a large corpus: 1 = this one only (the default for library use),
    # 0 = one per core, up to 4 (what the command line asks for). See adrguard.api.pipeline.parsing.
    jobs: int = 1
    options: Options = msgspec.field(default_factory=Options)
    citations: CitationOptions = msgspec.field(default_factory=CitationOptions)  # [citations]
    template: str | None = None  # `adrguard new`: a repo-relative markdown template
    new_status: str | None = None  # `adrguard new` / `supersede`: the status written (proposed)
    # the repository's web URL and default branch (`repository-url`, `--repository-url`, the
    # Action's GITHUB_REPOSITORY): which URLs name work-tree files; never a git remote
    repository: Repository | None = None
    read_guard: str = DEFAULTS.read_guard  # the agents' read guard (docs/read-guard.md)
    ai: AiOptions = msgspec.field(default_factory=AiOptions)  # [ai]: the optional model provider

    @property
    def archive_dirs(self) -> tuple[str, ...]:
        """``archive-dirs``: folder names below a root that hold archived records (kept once,
        on the options the parser and the rules read)."""
        return self.options.archive_dirs

    def with_overrides(self, **changes: Any) -> Config:
        clean = {k: v for k, v in changes.items() if v is not None}
        return replace(self, **clean)


def _closest(key: str, valid: list[str]) -> str:
    import difflib

    match = difflib.get_close_matches(key, valid, n=1, cutoff=0.5)
    return f" (did you mean {match[0]!r}?)" if match else ""


def _check_keys(
    data: Mapping[str, Any], table: type[ConfigTable] | type[Any], where: str, prefix: str
) -> None:
    """Unknown keys, named with the closest key the declaration has, in every table. The keys
    come from the struct's own list of them; the declaration's annotations (which say what is a
    table, :func:`adrguard.core.settings.table_keys`, about 2 ms) are resolved only when the
    data holds a table."""
    known: Collection[str] = table.__struct_encode_fields__
    for key in data:
        if key not in known:
            raise UserError(
                f"{where}: unknown key {prefix + key!r}{_closest(key, sorted(known))}; "
                "see docs/configuration.md for every key"
            )
    if not any(isinstance(data.get(key), Mapping) for key in known):
        return
    for key, sub in table_keys(table).items():
        value = data.get(key)
        if sub is not None and isinstance(value, Mapping):
            _check_keys(value, sub, where, f"{prefix}{key}.")


def validate_mapping(data: Mapping[str, Any], where: str) -> None:
    """Reject unknown keys (naming the closest valid one) and wrong types. A configuration the
    declaration (:mod:`adrguard.core.settings`) accepts is valid; anything else goes to
    jsonschema and ``schemas/config.schema.json`` (generated from it), which say what is wrong
    and where (and accept what the strict model did not, such as ``1.0`` for an integer)."""
    _check_keys(data, ConfigTable, where, "")
    from adrguard.core.typed import conforms

    if conforms(data, ConfigTable):
        return
    from adrguard.core.schemas import validator

    errors = sorted(validator(SCHEMA_PATH).iter_errors(dict(data)), key=lambda e: list(e.path))
    if errors:
        err = errors[0]
        path = ".".join(str(p) for p in err.path) or "(top level)"
        raise UserError(f"{where}: invalid value at {path}: {err.message}")


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
    # valid, so this only reads it (lax: jsonschema's 1.0 for an integer becomes 1)
    t = msgspec.convert(dict(data), ConfigTable, strict=False)
    opts: dict[str, Any] = {"archive_dirs": tuple(t.archive_dirs)}
    if (statuses := got(t.statuses)) is not None:
        syn = dict(DEFAULT_STATUS_SYNONYMS)
        syn.update({str(k).casefold(): str(v) for k, v in statuses.items()})
        opts["status_synonyms"] = syn
    if (headings := got(t.status_headings)) is not None:
        opts["status_headings"] = tuple(
            dict.fromkeys([*DEFAULT_STATUS_HEADINGS, *(h.casefold() for h in headings)])
        )
    if (sections := got(t.required_sections)) is not None:
        req = dict(DEFAULT_REQUIRED_SECTIONS)
        req.update({k: tuple(s.casefold() for s in v) for k, v in sections.items()})
        opts["required_sections"] = req
        opts["sections_configured"] = tuple(sorted(sections))
    for key, attr, value in (
        ("filename-pattern", "filename_pattern", got(t.filename_pattern)),
        ("decision-id-pattern", "decision_id_pattern", got(t.decision_id_pattern)),
    ):
        if value is not None:
            problem = pattern_problem(value, line_local=key == "decision-id-pattern")
            if problem is not None:
                raise UserError(f"{where}: {key} {value!r} cannot be used: {problem}")
            opts[attr] = value
    for attr, flag in (("require_status", got(t.require_status)),
                       ("supersession_both_sides", got(t.supersession_both_sides))):
        if flag is not None:
            opts[attr] = flag
    if (date_format := got(t.date_format)) is not None:
        opts["date_format"] = _date_format(date_format, where)
    opts["max_file_size"] = t.max_file_size
    for key, table, typed in (("index", got(t.index), IndexOptions),
                              ("current", got(t.current), CurrentOptions),
                              ("impact", got(t.impact), ImpactOptions),
                              ("verify", got(t.verify), VerifyOptions)):
        if table is not None:
            opts[key] = typed(**given(table))
    if (fm_schema := got(t.frontmatter_schema)) is not None:
        opts["frontmatter_schema"] = _load_fm_schema(fm_schema, base_dir, where, inside)

    severity: dict[str, Severity] = {}
    for code, sev in (got(t.severity) or {}).items():
        try:
            severity[code] = Severity.parse(sev)
        except ValueError as exc:
            raise UserError(f"{where}: severity.{code}: {exc}") from None
    replaced = got(t.exclude)
    exclude = DEFAULT_EXCLUDE if replaced is None else tuple(replaced)
    exclude += tuple(got(t.extend_exclude) or ())
    per_file = got(t.per_file_ignores) or {}
    return Config(
        source=source,
        roots=tuple(got(t.roots) or ()),
        exclude=exclude,
        profile=t.profile,
        select=_codes(got(t.select)),
        ignore=_codes(got(t.ignore)),
        severity=severity,
        per_file_ignores={k: _codes(v) for k, v in per_file.items()},
        fail_on=t.fail_on,
        cache=t.cache,
        cache_dir=_cache_dir(got(t.cache_dir), where),
        options=Options(**opts),
        citations=_citations(got(t.citations), where),
        template=got(t.template),
        new_status=_new_status(got(t.new_status), opts.get("status_synonyms"), where),
        repository=repository_setting(got(t.repository_url), f"{where}: repository-url"),
        read_guard=t.read_guard,
        ai=_ai(got(t.ai)),
    )


def _ai(raw: AiTable | None) -> AiOptions:
    """``[ai]`` (checked by :func:`_check_ai` and the declaration)."""
    if raw is None:
        return AiOptions()
    url = got(raw.base_url)
    return AiOptions(
        provider=raw.provider,
        base_url=url.rstrip("/") if url else None,
        model=raw.model.strip(),
        api_key_env=got(raw.api_key_env),
        timeout=float(raw.timeout),
        threshold=float(raw.threshold),
        cache_ttl=int(raw.cache_ttl),
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


_VARIABLE = lazy(r"[A-Za-z_][A-Za-z0-9_]{0,127}")


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


def _citations(raw: CitationsTable | None, where: str) -> CitationOptions:
    """``[citations]``, its globs checked (a bad glob names the key and says why)."""
    if raw is None:
        return CitationOptions()
    from adrguard.core.impact.globs import glob_problem

    table = given(raw)
    for key in ("include", "exclude"):
        for glob in table.get(key, ()):
            problem = glob_problem(glob)
            if problem is not None:
                raise UserError(f"{where}: citations.{key} {glob!r}: {problem}")
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


# --- reading the configuration's files, as hostile input -----------------------------------

MAX_CONFIG_BYTES = 1024 * 1024  # a config or schema file larger than this is refused


def read_config_file(path: Path, inside: tuple[Path, ...], what: str) -> bytes:
    """The bytes of a file the configuration names: it must resolve (symlinks followed) inside
    one of the folders ``inside``, be a regular file and hold at most ``MAX_CONFIG_BYTES``.
    Anything else is a :class:`UserError` that says which."""
    real = os.path.realpath(path)
    homes = [os.path.realpath(folder) for folder in inside]
    if not any(is_inside(real, h) for h in homes):
        raise UserError(f"{what} resolves to {real}, outside the repository; configuration "
                        "files must live inside it")
    if any(in_git_folder(real, folder) for folder in inside):
        raise UserError(f"{what} resolves to {real}, in git's own folder (.git), which "
                        "adrguard never reads; name a file of the work tree")
    try:
        st = os.stat(real)
        if not stat.S_ISREG(st.st_mode):
            raise UserError(f"{what} is not a regular file")
        if st.st_size > MAX_CONFIG_BYTES:
            raise UserError(f"{what} is {st.st_size:,} bytes; the limit is "
                            f"{MAX_CONFIG_BYTES:,}")
        with open(real, "rb") as fh:
            data = fh.read(MAX_CONFIG_BYTES + 1)
    except OSError as exc:
        raise UserError(f"{what} cannot be read: {exc.strerror or exc}") from None
    if len(data) > MAX_CONFIG_BYTES:
        raise UserError(f"{what} holds more than {MAX_CONFIG_BYTES:,} bytes")
    return data


def one_line(exc: BaseException) -> str:
    return " ".join(str(exc).split()) or type(exc).__name__


def read_toml(path: Path, inside: tuple[Path, ...]) -> dict[str, Any]:
    return parse_toml(read_config_file(path, inside, f"config {path.name}"), path.name)


def parse_toml(raw: bytes, name: str) -> dict[str, Any]:
    """The table of the TOML file ``name`` (its bytes ``raw``); a UserError says what is wrong."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise UserError(f"{name}: not UTF-8 text (byte {exc.start}): save it as UTF-8") from None
    import tomllib  # only a run with a config file reads TOML

    try:
        return tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise UserError(f"{name}: not valid TOML: {exc}") from None
    except RecursionError:
        raise UserError(f"{name}: not valid TOML: nested too deeply") from None


def tool_table(data: Mapping[str, Any], path: Path) -> dict[str, Any] | None:
    """``[tool.adrguard]`` of a pyproject.toml (None when absent); a value that is not a table
    is a UserError, never silently ignored."""
    tool = data.get("tool")
    if tool is None:
        return None
    if not isinstance(tool, dict):
        raise UserError(f"{path.name}: `tool` must be a table, not {type(tool).__name__}")
    table = tool.get("adrguard")
    if table is None or isinstance(table, dict):
        return table
    raise UserError(f"{path.name}: [tool.adrguard] must be a table, not {type(table).__name__}")


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


def load_config(
    repo_root: Path, explicit: Path | None = None, *, repository_url: str | None = None
) -> Config:
    """The configuration of the repository at ``repo_root`` (or of the file ``explicit``,
    ``--config``); ``repository_url`` (``--repository-url``) replaces its ``repository-url``."""
    config = _load_config(repo_root, explicit)
    if repository_url is None:
        return config
    return replace(config, repository=repository_setting(repository_url, "--repository-url"))


def _load_config(repo_root: Path, explicit: Path | None) -> Config:
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
        inside_repo = is_inside(os.path.realpath(explicit), os.path.realpath(repo_root))
        return replace(loaded, repository_config=inside_repo)
    found = find_config(repo_root)
    if found is None:
        return Config()
    path, data = found
    label = _display(path, repo_root)
    if path.name == "pyproject.toml":
        label += " [tool.adrguard]"
    return replace(from_mapping(data, label, path.parent, (repo_root,)), repository_config=True)


def _display(path: Path, repo_root: Path) -> str:
    try:
        return path.resolve().relative_to(repo_root.resolve()).as_posix()
    except ValueError:
        return str(path)
