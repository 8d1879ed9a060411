"""The GitHub REST client the Action's steps use (open pull requests, the sticky comment, check
runs): the adapter's client, handed to front ends through the api."""

from __future__ import annotations

from adrguard.adapters.github_api import ApiResult, GitHubClient

__all__ = ["ApiResult", "GitHubClient"]
