"""The read guard's I/O (issue 32): the log's layout, fast and cached (:mod:`.setup`), paths as
an agent writes them made repo-relative (:mod:`.paths`), the per-session counters in the user's
cache folder (:mod:`.session`) and Claude Code's ``PreToolUse`` hook protocol (:mod:`.claude`).
The policy itself is pure: :mod:`adrguard.core.guard`."""
