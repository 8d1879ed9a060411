"""How a file writes comments, chosen by its name: only comments (and Python docstrings) can
cite a decision in code; in documents the prose does, outside fenced code blocks.

A family's ``tokens`` pattern (run by :mod:`re` over the file's bytes) matches its comments in group
``c`` and its string literals elsewhere, so a ``//`` or ``#`` inside a string never opens a
comment. A block comment or triple-quoted string left open runs to the end of the file, so
every match ends and the scan stays linear. Files of no known syntax are not scanned.
"""

from __future__ import annotations

import msgspec

CODE = "code"
DOC = "doc"

_DQ = r'"(?:[^"\\\n]|\\.)*"?'
_SQ = r"'(?:[^'\\\n]|\\.)*'?"
_BT = r"`(?:[^`\\]|\\.)*`?"
_BLOCK = r"/\*(?s:.*?)(?:\*/|\z)"
_LINE_SLASH = r"//[^\n]*"
_HASH = r"#[^\n]*"
_HTML = r"<!--(?s:.*?)(?:-->|\z)"
_TQ2 = r'"""(?s:.*?)(?:"""|\z)'
_TQ1 = r"'''(?s:.*?)(?:'''|\z)"

# family -> pattern (run by re): comments in group ``c``, strings (skipped) outside it
TOKENS: dict[str, str] = {
    "c": rf"(?P<c>{_LINE_SLASH}|{_BLOCK})|{_DQ}|{_SQ}|{_BT}",
    "css": rf"(?P<c>{_BLOCK})|{_DQ}|{_SQ}",
    # a triple-quoted string opening a line is a docstring (a comment); after ``x =`` or
    # ``f(`` it is data
    "python": rf"(?P<c>{_HASH}|(?m:^)[ \t]*[rRuU]?(?:{_TQ2}|{_TQ1}))|{_TQ2}|{_TQ1}|{_DQ}|{_SQ}",
    "toml": rf"(?P<c>{_HASH})|{_TQ2}|{_TQ1}|{_DQ}|{_SQ}",
    "hash": rf"(?P<c>(?:(?m:^)|[ \t]){_HASH})|{_DQ}|{_SQ}",
    "php": rf"(?P<c>{_LINE_SLASH}|{_BLOCK}|{_HASH})|{_DQ}|{_SQ}",
    "sql": rf"(?P<c>--[^\n]*|{_BLOCK})|{_SQ}|{_DQ}",
    "lua": r"(?P<c>--\[\[(?s:.*?)(?:\]\]|\z)|--[^\n]*)|" + f"{_DQ}|{_SQ}",
    "haskell": r"(?P<c>\{-(?s:.*?)(?:-\}|\z)|--[^\n]*)|" + _DQ,
    "markup": rf"(?P<c>{_HTML})",
    "vue": rf"(?P<c>{_HTML}|{_LINE_SLASH}|{_BLOCK})|{_DQ}|{_SQ}|{_BT}",
    "semicolon": rf"(?P<c>;[^\n]*)|{_DQ}",
    "percent": rf"(?P<c>%[^\n]*)|{_DQ}",
}

_BY_SUFFIX: dict[str, tuple[str, str]] = {}


def _add(kind: str, family: str, suffixes: str) -> None:
    for suffix in suffixes.split():
        _BY_SUFFIX[suffix] = (kind, family)


_add(CODE, "c", "c h cc cpp cxx hpp hh hxx ino m mm cs java kt kts scala sc groovy gradle go "
     "rs js jsx mjs cjs ts tsx mts cts swift dart proto sol zig v d fs fsx vala hx cue jsonc "
     "json5 glsl hlsl wgsl scss less styl kql bicep")
_add(CODE, "css", "css")
_add(CODE, "python", "py pyi pyx")
_add(CODE, "hash", "rb rake gemspec sh bash zsh fish ksh ps1 psm1 pl pm r jl ex exs nim cr nix "
     "yaml yml cfg conf ini properties cmake mk make bzl bazel star coffee tcl awk "
     "dockerfile containerfile env editorconfig gitignore gitattributes")
_add(CODE, "php", "php tf tfvars hcl")
_add(CODE, "toml", "toml")
_add(CODE, "sql", "sql psql")
_add(CODE, "lua", "lua")
_add(CODE, "haskell", "hs lhs elm purs")
_add(CODE, "markup", "html htm xhtml xml xsd xsl xslt csproj fsproj vbproj props targets plist")
_add(CODE, "vue", "vue svelte astro")
_add(CODE, "semicolon", "clj cljs cljc edn lisp lsp el scm rkt asm s")
_add(CODE, "percent", "erl hrl tex sty")
_add(DOC, "markdown", "md markdown mdown mkd mdx")
_add(DOC, "text", "rst txt text adoc asciidoc asc org textile rdoc")

# files named without a suffix (casefolded)
_BY_NAME: dict[str, tuple[str, str]] = {
    "dockerfile": (CODE, "hash"),
    "containerfile": (CODE, "hash"),
    "makefile": (CODE, "hash"),
    "gnumakefile": (CODE, "hash"),
    "jenkinsfile": (CODE, "c"),
    "vagrantfile": (CODE, "hash"),
    "rakefile": (CODE, "hash"),
    "gemfile": (CODE, "hash"),
    "brewfile": (CODE, "hash"),
    "procfile": (CODE, "hash"),
    "justfile": (CODE, "hash"),
    "codeowners": (CODE, "hash"),
    "readme": (DOC, "text"),
    "changelog": (DOC, "text"),
    "contributing": (DOC, "text"),
    "notes": (DOC, "text"),
}


class Syntax(msgspec.Struct, frozen=True):
    """How one file is read: ``kind`` (code or doc) and ``family`` (a key of :data:`TOKENS`,
    or ``markdown``/``text`` for documents)."""

    kind: str
    family: str

    @property
    def is_markdown(self) -> bool:
        return self.family == "markdown"


def syntax_of(path: str) -> Syntax | None:
    """The syntax of a repo-relative path, None when adrguard does not know how it comments."""
    name = path.rsplit("/", 1)[-1]
    folded = name.casefold()
    dot = folded.rfind(".")
    if dot > 0:
        found = _BY_SUFFIX.get(folded[dot + 1 :])
        if found is None and folded.startswith(("dockerfile.", "makefile.")):
            found = (CODE, "hash")
    else:
        found = _BY_NAME.get(folded.lstrip("."))
        if found is None and dot == 0:
            found = _BY_SUFFIX.get(folded[1:])
    return Syntax(*found) if found is not None else None
