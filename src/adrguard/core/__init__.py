"""Pure core: no files, no git, no environment. Split by subject (see docs/architecture.md):

- ``parse``: one record read (markdown, front matter, formats, status, ids, relations);
- ``graph``: relationships resolved, supersession chains and cycles;
- ``conventions``: what each log does by habit, learned from its records;
- ``gate``: inline suppressions and the baseline;
- ``generated``: the INDEX and CURRENT files adrguard writes and compares;
- ``impact``: which decisions govern a change;
- ``agent``: retrieval, search and context for coding agents;

over the shared basics at this level (``model``, ``findings``, ``options``, ``errors``, ...).
import-linter keeps the subjects layered in that order, bottom to top, and independent within
a layer (``pyproject.toml``).
"""
