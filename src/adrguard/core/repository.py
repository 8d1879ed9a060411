"""This repository's web address, and which URLs name a file of the work tree.

A link such as ``https://github.com/OWNER/REPO/blob/main/docs/adr/0002-x.md`` names a file of
this repository only when adrguard knows two things, from the repository itself or from what
the user says, never from the machine it runs on (a git remote is configured on one clone and
not on another; the same tree must give the same findings):

* the repository's web URL: the ``repository-url`` setting, ``--repository-url``, or, in the
  GitHub Action, ``$GITHUB_SERVER_URL/$GITHUB_REPOSITORY``;
* its default branch: written after the URL as ``/tree/BRANCH``
  (``https://github.com/OWNER/REPO/tree/main``; the Action takes it from the event).

Only a URL at the default branch, or at ``HEAD`` (the forges' name for it), names the work
tree. A URL at another branch, a tag or a commit (a permalink) names another version of the
file: it is external, never checked as a path. Pure.
"""

from __future__ import annotations

from urllib.parse import unquote

import msgspec

# how forges write a file or folder at a ref: GitHub (blob, tree, raw), GitLab (-/blob, ...)
_VIEWS = ("blob", "tree", "raw", "-/blob", "-/tree", "-/raw")


class Repository(msgspec.Struct, frozen=True):
    """A repository's web URL (``https://host/owner/name``, no ``.git``, no trailing slash)
    and its default branch (None: unknown, so only ``HEAD`` URLs name the work tree)."""

    url: str
    default_branch: str | None = None

    @property
    def label(self) -> str:
        """The setting as the user writes it (``--repository-url`` reproduces this run)."""
        return f"{self.url}/tree/{self.default_branch}" if self.default_branch else self.url

    def web_path(self, url: str) -> str | None:
        """The repo-relative path ``url`` names in the work tree (``""``: the repository
        root), or None: another site or repository, or another ref than the default branch."""
        text = url.strip()
        for base in (self.url, self.url.replace("https://", "http://", 1)):
            prefix = base + "/"
            if text[: len(prefix)].casefold() == prefix.casefold():
                return self._at_default(text[len(prefix) :])
        return None

    def _at_default(self, rest: str) -> str | None:
        for view in _VIEWS:
            if rest.startswith(view + "/"):
                after = rest[len(view) + 1 :]
                for ref in ("HEAD", self.default_branch):
                    if ref and (after == ref or after.startswith(ref + "/")):
                        path = after[len(ref) + 1 :]
                        return path.split("#", 1)[0].split("?", 1)[0]
                return None
        return None


def parse_repository(value: str) -> Repository:
    """``https://host/owner/name`` (an SSH remote such as ``git@host:owner/name.git`` is
    accepted too), optionally followed by ``/tree/DEFAULT-BRANCH``. ValueError says why a
    value is not such a URL."""
    text = value.strip()
    if text.startswith("git@") and ":" in text:
        host, _, path = text[4:].partition(":")
        text = f"https://{host}/{path}"
    elif text.startswith("ssh://"):
        text = "https://" + text[len("ssh://") :].split("@", 1)[-1]
    scheme, sep, rest = text.partition("://")
    if not sep or scheme.casefold() not in ("https", "http"):
        raise ValueError("give the repository's web URL, such as https://github.com/OWNER/REPO "
                         "(with /tree/BRANCH for its default branch)")
    host, _, path = rest.partition("/")
    host = host.rsplit("@", 1)[-1]  # never keep credentials
    path, _, branch = path.partition("/tree/")
    path = path.strip("/").removesuffix(".git")
    branch = branch.strip("/")
    if not host or path.count("/") < 1 or any(p in ("", ".", "..") for p in path.split("/")):
        raise ValueError(f"{value!r} does not name a repository: give "
                         "https://HOST/OWNER/REPO, optionally with /tree/BRANCH")
    if branch and (any(c in branch for c in " \t\n\\?#~^:") or ".." in branch):
        raise ValueError(f"{branch!r} is not a branch name")
    return Repository(f"https://{host}/{path}", unquote(branch) or None)

