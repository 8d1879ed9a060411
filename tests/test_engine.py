"""The rule engine on hand-built corpora: selection, profiles, severities, suppressions, paths."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from msgspec.structs import replace

from adrguard import engine
from adrguard.api import gate
from adrguard.config import Config
from adrguard.core.findings import Finding, Report, Severity
from adrguard.core.model import (
    ChangeSet,
    Comment,
    Corpus,
    Decision,
    Link,
    Location,
    Section,
    Status,
    StatusStatement,
)
from adrguard.rules import (
    ALL_RULES,
    CATALOGUE,
    RETIRED,
    RULES_BY_CODE,
    BaseRule,
    Catalogue,
    RuleContext,
    RuleMeta,
)

FULL = (
    Section("Status", 2, 3, 5, "Accepted"),
    Section("Context", 2, 7, 9, "Text."),
    Section("Decision", 2, 11, 13, "Text."),
    Section("Consequences", 2, 15, 17, "Text."),
)


def record(number: int, **changes: object) -> Decision:
    base = Decision(
        id=f"ADR-{number:04d}",
        path=f"docs/adr/{number:04d}-r.md",
        root="docs/adr",
        number=number,
        title=f"R{number}",
        title_raw=f"{number}. R{number}",
        title_number=number,
        status=Status.ACCEPTED,
        status_raw="Accepted",
        status_line=5,
        statuses=(StatusStatement("Accepted", Status.ACCEPTED, 5, "section"),),
        format="nygard",
        sections=FULL,
    )
    return replace(base, **changes)


def corpus(*decisions: Decision) -> Corpus:
    return Corpus(decisions=tuple(sorted(decisions, key=lambda d: (d.id, d.path))))


def keys(report_findings: tuple[Finding, ...]) -> list[str]:
    return [f"{f.code} {f.location}" for f in report_findings]


def codes_run(
    config: Config, changes: ChangeSet | None = None, rules: Catalogue | None = None
) -> set[str]:
    return {r.meta.code for r in engine.selected_rules(config, changes, rules or Catalogue(ALL_RULES))}


def with_rule(rule: type[BaseRule]) -> Catalogue:
    """The registry and one rule of a test's own: the engine runs the rules it is given."""
    return Catalogue((*ALL_RULES, rule), RETIRED)


# --- selection and profiles -------------------------------------------------------------


def test_standard_runs_default_rules_only() -> None:
    run = codes_run(Config())
    assert "ADR104" in run and "ADR101" in run
    assert "ADR105" not in run and "ADR111" not in run


def test_legacy_profile_runs_its_short_list_as_warnings() -> None:
    cfg = Config(profile="legacy")
    assert codes_run(cfg) == {"ADR001", "ADR002", "ADR106", "ADR201", "ADR301", "ADR302",
                              "ADR303", "ADR309"}
    assert {"ADR001", "ADR002", "ADR106"} <= codes_run(cfg)
    dup = corpus(
        record(1), record(1, path="docs/adr/0001-s.md"), record(2, status=None, statuses=())
    )
    report = engine.run(dup, cfg)
    assert {f.code for f in report.findings} == {"ADR106"}
    assert {f.severity for f in report.findings} == {Severity.WARNING}
    assert report.profile == "legacy"


def test_advisory_caps_at_warning_and_strict_raises_warnings() -> None:
    stated = [record(n) for n in range(2, 6)]  # the log states statuses and writes every section
    c = corpus(record(1, status=None, statuses=(), sections=FULL[1:3]), *stated)
    advisory = engine.run(c, Config(profile="advisory"))
    assert {(f.code, f.severity) for f in advisory.findings} == {
        ("ADR102", Severity.WARNING),
        ("ADR104", Severity.WARNING),
    }
    strict = engine.run(c, Config(profile="strict"))
    assert {(f.code, f.severity) for f in strict.findings} == {
        ("ADR102", Severity.ERROR),
        ("ADR104", Severity.ERROR),
    }
    assert "ADR105" in codes_run(Config(profile="strict"))


@pytest.mark.parametrize(
    ("select", "ignore", "expected_in", "expected_out"),
    [
        (("ADR1",), (), {"ADR101", "ADR104"}, {"ADR001", "ADR105", "ADR111"}),
        (("missing-section",), (), {"ADR104"}, {"ADR101"}),
        (("ADR1", "ADR105"), (), {"ADR104", "ADR105"}, {"ADR111"}),
        (("ADR1",), ("ADR10",), {"ADR110", "ADR112"}, {"ADR101", "ADR104"}),
        (("ADR104",), ("ADR1",), {"ADR104"}, {"ADR101"}),
        (("ADR1",), ("ADR1",), set(), {"ADR101", "ADR104"}),
        ((), ("ADR1", "duplicate-id"), {"ADR001"}, {"ADR104", "ADR106"}),
        (("adr104",), (), {"ADR104"}, set()),
    ],
)
def test_select_and_ignore_most_specific_wins(
    select: tuple[str, ...], ignore: tuple[str, ...], expected_in: set[str], expected_out: set[str]
) -> None:
    run = codes_run(Config(select=select, ignore=ignore))
    assert expected_in <= run
    assert not (expected_out & run)


@pytest.mark.parametrize(
    ("config", "message"),
    [
        (Config(select=("ADR1044",)), "select: 'ADR1044' names no rule (did you mean 'ADR104'?)"),
        (Config(ignore=("mising-section",)), "did you mean 'missing-section'?"),
        (Config(severity={"ADR9": Severity.NOTE}), "severity: 'ADR9' names no rule"),
        (Config(per_file_ignores={"*.md": ("nope",)}), "per-file-ignores '*.md': 'nope'"),
    ],
)
def test_selectors_that_name_no_rule_are_user_errors(config: Config, message: str) -> None:
    from adrguard.core.errors import UserError

    with pytest.raises(UserError) as info:
        engine.run(corpus(record(1)), config)
    assert message in str(info.value)


def test_change_aware_rules_need_a_change_set() -> None:
    class NeedsChanges(BaseRule):
        meta = RuleMeta("ADR599", "fake-change", "test rule", Severity.NOTE, needs_changes=True)

        def check(self, ctx: RuleContext) -> Iterator[Finding]:
            assert ctx.changes is not None
            yield self.finding(f"changed since {ctx.changes.base}", Location("x.md"))

    rules = with_rule(NeedsChanges)
    assert "ADR599" not in codes_run(Config(), rules=rules)
    changes = ChangeSet(base="main", head="HEAD", merge_base="abc", changes=())
    report = engine.run(corpus(record(1)), Config(select=("ADR599",)), changes=changes,
                        catalogue=rules)
    assert [f.message for f in report.findings] == ["changed since main"]


def test_a_crashing_rule_is_contained_to_the_record_it_failed_on() -> None:
    class Crashes(BaseRule):
        meta = RuleMeta("ADR598", "fake-crash", "test rule", Severity.ERROR)

        def check(self, ctx: RuleContext) -> Iterator[Finding]:
            for d in ctx.corpus.decisions:
                if d.number == 2:
                    raise ZeroDivisionError("boom")
                yield self.finding("seen", Location(d.path, 1), d)

    report = engine.run(corpus(record(1), record(2), record(3)), Config(),
                        catalogue=with_rule(Crashes))
    crash = [f for f in report.findings if f.code == "ADR000"]
    assert len(crash) == 1 and crash[0].location.path.endswith("0002-r.md")
    assert "rule ADR598 (fake-crash) failed on this record (ZeroDivisionError: boom)" in (
        crash[0].message
    )
    seen = sorted(f.location.path for f in report.findings if f.code == "ADR598")
    assert [p.rsplit("/", 1)[1] for p in seen] == ["0001-r.md", "0003-r.md"]
    # the crash is data on the report: the rule, and the finding that reports it
    assert report.crashed_rules == ("ADR598",)
    assert [c.finding for c in report.crashes] == crash


def test_a_crash_stays_with_its_finding_when_findings_are_filtered() -> None:
    """A crash whose finding a per-file ignore or ``check PATHS`` drops is dropped with it (the
    run reports what it was asked about); one on a path asked about stays."""

    class Crashes(BaseRule):
        meta = RuleMeta("ADR598", "fake-crash", "test rule", Severity.ERROR)

        def check(self, ctx: RuleContext) -> Iterator[Finding]:
            for d in ctx.corpus.decisions:
                if d.number == 2:
                    raise ZeroDivisionError("boom")
            yield from ()

    catalogue = with_rule(Crashes)
    c = corpus(record(1), record(2))
    config = Config(select=("ADR598",))
    report = engine.run(c, config, catalogue=catalogue)
    assert report.crashed_rules == ("ADR598",)
    assert only(report, config, ["docs/adr/0002-r.md"], catalogue).crashed_rules == ("ADR598",)
    elsewhere = only(report, config, ["docs/adr/0001-r.md"], catalogue)
    assert elsewhere.crashes == () and elsewhere.findings == ()
    ignored = Config(select=("ADR598",), per_file_ignores={"docs/adr/0002-r.md": ("ADR0",)})
    assert engine.run(c, ignored, catalogue=catalogue).crashes == ()


# --- severities and per-file ignores ------------------------------------------------------


def test_severity_overrides_by_code_name_and_prefix() -> None:
    c = corpus(record(1, status=None, statuses=(), sections=()))
    cfg = Config(severity={"ADR1": Severity.NOTE, "missing-section": Severity.ERROR})
    found = {f.code: f.severity for f in engine.run(c, cfg).findings}
    assert found == {"ADR102": Severity.NOTE, "ADR104": Severity.ERROR}


def test_per_file_ignores_use_gitignore_globs() -> None:
    c = corpus(record(1, sections=()), record(2, sections=(), path="docs/adr/sub/0002-r.md"))
    cfg = Config(select=("ADR104",), per_file_ignores={"docs/adr/sub/**": ("missing-section",)})
    assert keys(engine.run(c, cfg).findings) == ["ADR104 docs/adr/0001-r.md:1"]
    cfg = Config(select=("ADR104",), per_file_ignores={"0001-*.md": ("ADR1",)})
    assert keys(engine.run(c, cfg).findings) == ["ADR104 docs/adr/sub/0002-r.md:1"]


# --- inline suppressions ------------------------------------------------------------------

TEXT = "# 1. R\n\n<!-- adrguard-disable-next-line {codes} -->\n\n\n## Status\n"


def test_file_suppression_by_code_and_name() -> None:
    for codes in ("ADR104", "missing-section", "ADR1", "ADR104, ADR102", "ADR102 ADR104"):
        d = record(1, sections=(), comments=(Comment(f"<!-- adrguard-disable {codes} -->", 3),))
        report = engine.run(corpus(d), Config(select=("ADR104",)))
        assert report.findings == (), codes


def test_next_line_suppression_covers_next_non_blank_line_only() -> None:
    text = TEXT.format(codes="ADR112")
    stated = (
        StatusStatement("Accepted", Status.ACCEPTED, 5, "section"),
        StatusStatement("Rejected", Status.REJECTED, 6, "line"),
    )
    comment = (Comment("<!-- adrguard-disable-next-line ADR112 -->", 3),)
    hit = record(1, text=text, statuses=stated, comments=comment)
    assert engine.run(corpus(hit), Config(select=("ADR112",))).findings == ()
    stated_elsewhere = (stated[0], replace(stated[1], line=7))
    miss = record(1, text=text, statuses=stated_elsewhere, comments=comment)
    found = keys(engine.run(corpus(miss), Config(select=("ADR112", "ADR004"))).findings)
    assert found == ["ADR004 docs/adr/0001-r.md:3", "ADR112 docs/adr/0001-r.md:7"]


def test_next_line_target_accounts_for_front_matter_offset() -> None:
    text = "# 1. R\n<!-- adrguard-disable-next-line ADR112 -->\nStatus: Rejected\n"
    stated = (
        StatusStatement("accepted", Status.ACCEPTED, 2, "front-matter"),
        StatusStatement("Rejected", Status.REJECTED, 6, "line"),
    )
    d = record(1, text=text, body_line_offset=3, statuses=stated,
               comments=(Comment("<!-- adrguard-disable-next-line ADR112 -->", 5),))
    assert engine.run(corpus(d), Config(select=("ADR112", "ADR004"))).findings == ()


def test_unused_suppression_reported_only_when_its_rule_ran() -> None:
    d = record(1, comments=(Comment("<!-- adrguard-disable ADR104 -->", 3),))
    with_rule = engine.run(corpus(d), Config(select=("ADR104", "ADR004")))
    assert keys(with_rule.findings) == ["ADR004 docs/adr/0001-r.md:3"]
    assert with_rule.findings[0].severity == Severity.NOTE
    assert "ADR104" in with_rule.findings[0].message
    without_rule = engine.run(corpus(d), Config(select=("ADR102", "ADR004")))
    assert without_rule.findings == ()


def test_unknown_suppression_is_reported_and_not_unused() -> None:
    d = record(1, comments=(Comment("<!-- adrguard-disable ADR1044, missing-sectoin -->", 3),))
    report = engine.run(corpus(d), Config())
    assert keys(report.findings) == ["ADR003 docs/adr/0001-r.md:3"] * 2
    assert any("did you mean 'missing-section'" in f.message for f in report.findings)


def test_suppression_of_a_retired_code_says_so() -> None:
    retired = Catalogue(ALL_RULES, {"ADR199": "merged into ADR104 in 0.2"})
    d = record(1, comments=(Comment("<!-- adrguard-disable ADR199 -->", 3),))
    (finding,) = engine.run(corpus(d), Config(select=("ADR003",)), catalogue=retired).findings
    assert "a retired rule (merged into ADR104 in 0.2)" in finding.message


def test_suppression_without_codes_silences_every_rule() -> None:
    d = record(1, status=None, statuses=(), sections=(),
               comments=(Comment("<!-- adrguard-disable -- generated record -->", 2),))
    assert engine.run(corpus(d), Config()).findings == ()


# --- paths and the report -----------------------------------------------------------------


def only(
    report: Report, config: Config, paths: list[str], catalogue: Catalogue = CATALOGUE
) -> Report:
    """``check PATHS``: the judging keeps the findings on the paths and the corpus-level ones
    (the one place findings are filtered; the engine reports them all)."""
    log_level = {r.meta.code for r in engine.selected_rules(config, None, catalogue)
                 if r.meta.log_level}
    return gate.keep_paths(report, paths, log_level)


def test_only_paths_keeps_corpus_level_findings() -> None:
    a = record(1, sections=FULL[:1])
    b = record(1, path="docs/adr/0001-s.md")
    c = record(2, sections=FULL[:1], path="docs/adr/other/0002-r.md")
    full = [record(n) for n in range(3, 6)]  # the log writes Context, Decision, Consequences
    report = only(engine.run(corpus(a, b, c, *full), Config()), Config(), ["docs/adr/0001-r.md"])
    assert keys(report.findings) == [
        "ADR104 docs/adr/0001-r.md:1",
        "ADR106 docs/adr/0001-r.md:1",
        "ADR106 docs/adr/0001-s.md:1",
    ]
    config = Config(select=("ADR104",))
    by_dir = only(engine.run(corpus(a, b, c, *full), config), config, ["docs/adr/other/"])
    assert keys(by_dir.findings) == ["ADR104 docs/adr/other/0002-r.md:1"]


def test_report_counts_and_sorting() -> None:
    broken = replace(record(1), links=(Link("missing.md", "x", 9),), status=None, statuses=())
    c = corpus(record(2, sections=FULL[:3]), broken, *(record(n) for n in range(3, 6)))
    report = engine.run(c, Config())
    assert (report.decisions, report.files, report.profile) == (5, 5, "standard")
    assert keys(report.findings) == [
        "ADR102 docs/adr/0001-r.md:1", "ADR201 docs/adr/0001-r.md:9", "ADR104 docs/adr/0002-r.md:1"
    ]
    assert report.summary.errors == 1 and report.summary.warnings == 2


def test_unreadable_records_only_get_adr001() -> None:
    from adrguard.core.model import Problem

    problem = Problem("ADR001", "not valid UTF-8 (byte 0xff at offset 2): save it as UTF-8")
    d = Decision(
        id="ADR-0003", path="docs/adr/0003-x.md", root="docs/adr", number=3, problems=(problem,)
    )
    assert keys(engine.run(corpus(d), Config()).findings) == ["ADR001 docs/adr/0003-x.md:1"]
    assert RULES_BY_CODE["ADR001"].meta.name == "unreadable-file"


def test_rules_that_grade_their_findings_keep_the_grading() -> None:
    class Grades(BaseRule):
        meta = RuleMeta("ADR597", "fake-grades", "test rule", Severity.WARNING)

        def check(self, ctx: RuleContext) -> Iterator[Finding]:
            yield self.finding("minor", Location("a.md", 1)).with_severity(Severity.NOTE)
            yield self.finding("normal", Location("a.md", 2))

    rules = with_rule(Grades)
    c = corpus(record(1))
    graded = {
        profile: [f.severity for f in engine.run(
            c, Config(profile=profile, select=("ADR597",)), catalogue=rules).findings]
        for profile in ("standard", "strict", "advisory")
    }
    assert graded == {
        "standard": [Severity.NOTE, Severity.WARNING],
        "strict": [Severity.NOTE, Severity.ERROR],
        "advisory": [Severity.NOTE, Severity.WARNING],
    }
    overridden = engine.run(c, Config(select=("ADR597",), severity={"fake-grades": Severity.ERROR}),
                            catalogue=rules)
    assert [f.severity for f in overridden.findings] == [Severity.ERROR, Severity.ERROR]


# --- rule metadata: the engine treats rules by their flags, never by their codes ----------------


def test_the_engine_names_no_rule_code() -> None:
    import ast
    import re
    from pathlib import Path

    folder = Path(engine.__file__).parent
    named = []
    for path in sorted(folder.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        docs = {id(n.body[0].value) for n in ast.walk(tree)
                if isinstance(n, (ast.Module, ast.FunctionDef, ast.ClassDef)) and n.body
                and isinstance(n.body[0], ast.Expr) and isinstance(n.body[0].value, ast.Constant)}
        for node in ast.walk(tree):
            if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                    and id(node) not in docs and re.fullmatch(r"ADR\d{3}", node.value)):
                named.append(f"{path.name}:{node.lineno} {node.value}")
            if isinstance(node, ast.ImportFrom) and node.module == "adrguard.rules":
                assert {a.name for a in node.names} <= {"CATALOGUE", "BaseRule", "Catalogue",
                                                        "RuleContext"}
    assert named == []


def test_the_flags_on_the_registered_rules() -> None:
    def flagged(flag: str) -> set[str]:
        return {r.meta.code for r in ALL_RULES if getattr(r.meta, flag)}

    assert flagged("legacy") == {"ADR001", "ADR002", "ADR106", "ADR201", "ADR301", "ADR302",
                                 "ADR303", "ADR309"}
    assert flagged("log_level") == {r.meta.code for r in ALL_RULES
                                    if r.meta.code[3] in "345"} | {"ADR106", "ADR111"}
    assert flagged("bookkeeping") == {"ADR003", "ADR004"}
    assert flagged("reports_unused_suppressions") == {"ADR004"}


def test_a_rule_is_log_level_by_its_flag_not_its_code() -> None:
    def rule(log_level: bool) -> type[BaseRule]:
        class Compares(BaseRule):
            meta = RuleMeta("ADR698", "fake-compare", "test rule", Severity.WARNING,
                            log_level=log_level)

            def check(self, ctx: RuleContext) -> Iterator[Finding]:
                yield self.finding("differs from the others", Location("docs/adr/0002-r.md", 1))

        return Compares

    c = corpus(record(1), record(2))
    for log_level, kept in ((True, ["ADR698 docs/adr/0002-r.md:1"]), (False, [])):
        catalogue = with_rule(rule(log_level))
        config = Config(select=("ADR698",))
        report = only(engine.run(c, config, catalogue=catalogue), config,
                      ["docs/adr/0001-r.md"], catalogue)
        assert keys(report.findings) == kept


def test_a_bookkeeping_rule_is_never_silenced_inline() -> None:
    def rule(bookkeeping: bool) -> type[BaseRule]:
        class Notes(BaseRule):
            meta = RuleMeta("ADR697", "fake-notes", "test rule", Severity.NOTE,
                            bookkeeping=bookkeeping)

            def check(self, ctx: RuleContext) -> Iterator[Finding]:
                for d in ctx.corpus.decisions:
                    yield self.finding("noted", Location(d.path, 4), d)

        return Notes

    d = record(1, comments=(Comment("<!-- adrguard-disable ADR697 -->", 3),))
    for bookkeeping, found in ((True, ["ADR697 docs/adr/0001-r.md:4"]), (False, [])):
        report = engine.run(corpus(d), Config(select=("ADR697",)),
                            catalogue=with_rule(rule(bookkeeping)))
        assert keys(report.findings) == found
