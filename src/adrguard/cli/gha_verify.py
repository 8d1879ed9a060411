"""``adrguard action report`` with the ``verify`` input: run ``adrguard verify`` in-process and
hand its Markdown section to the job summary and the sticky comment.

Inputs (from the environment action.yml sets): ``INPUT_VERIFY`` (``true`` runs it),
``INPUT_VERIFY_RULES`` (the manifest), ``INPUT_VERIFY_EVIDENCE`` (evidence files, separated by
whitespace or newlines), ``INPUT_VERIFY_POLICY`` (``advisory`` or ``enforce``). Under enforce a
new violation, an inconclusive run or a manifest that cannot be used fails the step; under
advisory the step never fails because of verify.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from adrguard.cli.gha_env import Settings, notice
from adrguard.core.errors import UserError

FILE = "verify.json"


@dataclass(frozen=True)
class Verified:
    section: str  # trusted Markdown (untrusted parts escaped by the reporter)
    failed: bool  # enforce: fail the step
    news: bool  # a violation or an unknown: worth a comment
    outputs: dict[str, str] = field(default_factory=dict)


def run_verify(settings: Settings, root: Path, out: Path) -> Verified | None:
    """The verify section, or None when the ``verify`` input is off."""
    if not settings.flag("INPUT_VERIFY", default=False):
        return None
    from adrguard import api
    from adrguard.api import verify as verify_api
    from adrguard.config import load_config
    from adrguard.reporters import verify as reporter
    from adrguard.reporters.markdown import escape

    policy = settings.get("INPUT_VERIFY_POLICY").lower() or None
    config_path = Path(settings.get("INPUT_CONFIG")) if settings.get("INPUT_CONFIG") else None
    evidence = settings.get("INPUT_VERIFY_EVIDENCE").split() or None
    try:
        root = api.resolve_root(root)
        config = load_config(root, config_path).with_overrides(cache=False)
        policy = policy or config.options.verify.policy
        result = verify_api.verify(root, config=config, rules=settings.get("INPUT_VERIFY_RULES")
                                   or None, evidence=evidence, policy=policy)
    except UserError as exc:
        notice(f"adrguard verify could not run: {exc}", "error")
        section = (f"{reporter.HEADING}\n\n❌ adrguard verify could not run: "
                   f"{escape(str(exc))}\n")
        enforced = policy == "enforce"
        return Verified(section, enforced, True,
                        {"verify-json": "", "verify-policy-failed": str(enforced).lower()})
    except Exception as exc:  # our bug: say so, and let the check's report still be published
        reason = f"{type(exc).__name__}: {' '.join(str(exc).split())}"
        notice(f"adrguard verify hit an internal error ({reason}); please report it", "error")
        section = (f"{reporter.HEADING}\n\n❌ adrguard verify hit an internal error: "
                   f"{escape(reason)}. Please report it.\n")
        enforced = policy == "enforce"
        return Verified(section, enforced, True,
                        {"verify-json": "", "verify-policy-failed": str(enforced).lower()})
    target = out / FILE
    from adrguard.api import write_atomic

    write_atomic(target, reporter.render("json", result))
    news = any(r.status in ("violation", "unknown") for r in result.results)
    outputs = {"verify-json": str(target),
               "verify-policy-failed": str(result.policy_failed).lower()}
    return Verified(reporter.render_markdown(result), result.policy_failed, news, outputs)
