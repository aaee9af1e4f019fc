"""Every ledger claim runs, and the ledger's verdict logic can fail."""

import pytest
from mpmath import mpf

from dpsym.claims import Claim, Outcome, all_claims, compare_printed, rounds_to

CLAIMS = all_claims()


def test_ledger_is_not_empty():
    assert len(CLAIMS) >= 10
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


@pytest.mark.parametrize("claim", CLAIMS, ids=[c.id for c in CLAIMS])
def test_claim(claim):
    out = claim.run(dps=30)
    assert out.verdict != "failed", out.evidence
    if claim.kind == "erratum":
        assert out.verdict == "erratum" and out.corrected and out.evidence
    if out.verdict == "unresolved":
        assert out.evidence


def test_erratum_that_reproduces_is_a_failure():
    c = Claim(id="core/e", paper="core", ref="x", kind="erratum", severity="misprint",
              statement="s",
              check=lambda dps: compare_printed(lambda d: mpf("0.5"), "0.50", dps, erratum=True))
    assert c.run(20).verdict == "failed"


def test_printed_comparison():
    assert rounds_to(mpf("0.96104"), "0.9610")
    assert not rounds_to(mpf("0.96114"), "0.9610")
    out = compare_printed(lambda d: mpf("1.23456"), "1.24", 20)
    assert out.verdict == "failed"
    out = compare_printed(lambda d: mpf("1.23456"), "1.24", 20, erratum=True, evidence="e")
    assert out.verdict == "erratum" and out.corrected == "1.23"


def test_crashing_check_is_failed():
    def boom(dps: int) -> Outcome:
        raise ZeroDivisionError("x")

    c = Claim(id="core/c", paper="core", ref="x", kind="identity", statement="s", check=boom)
    assert c.run(20).verdict == "failed"


def test_verdicts_must_match_the_declared_kind():
    note = Claim(id="core/n", paper="core", ref="x", kind="note", statement="s",
                 check=lambda dps: Outcome("reproduced", "1", None, "holds"))
    assert note.run(20).verdict == "failed"
    sneaky = Claim(id="core/s", paper="core", ref="x", kind="table", printed="1", statement="s",
                   check=lambda dps: Outcome("erratum", "2", None, "wrong", "2"))
    assert sneaky.run(20).verdict == "failed"
    with pytest.raises(ValueError, match="severity"):
        Claim(id="core/e2", paper="core", ref="x", kind="erratum", statement="s",
              check=lambda dps: Outcome("erratum", "", None, "e", "c"))
    with pytest.raises(ValueError, match="severity"):
        Claim(id="core/e3", paper="core", ref="x", kind="identity", statement="s",
              severity="misprint", check=lambda dps: Outcome("reproduced", "", None, "e"))
    with pytest.raises(ValueError, match="id="):
        Claim(id="bok2024/x", paper="core", ref="x", kind="identity", statement="s",
              check=lambda dps: Outcome("reproduced", "", None, "e"))


def test_unknown_paper_rejected():
    with pytest.raises(ValueError, match="paper="):
        all_claims("nope")


# --- the template: what every claim carries (CONTRIBUTING.md, "Claims") ------------------

from pathlib import Path  # noqa: E402

from dpsym.papers import registry  # noqa: E402

STATEMENT_KEYS = ("thm", "lem", "cor", "prop", "eq", "table", "fig", "sec", "alg", "rem",
                  "def", "app", "ex", "asm", "fn", "text")
NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
PAPER_IDS = [p for p in registry.ids() if p != "core"]


def _resolve(name: str) -> object:
    import importlib

    parts = name.split(".")
    for i in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:i]))
        except ImportError:
            continue
        for attr in parts[i:]:
            obj = getattr(obj, attr)
        return obj
    raise ImportError(name)


@pytest.mark.parametrize("paper", PAPER_IDS)
def test_claim_metadata(paper):
    from dpsym.figures import all_figures

    figures = {f.key for f in all_figures(paper)}
    problems = []
    for c in all_claims(paper):
        key = c.id.split("/")[1]
        if not key.startswith(STATEMENT_KEYS):
            problems.append(f"{c.id}: id should be {paper}/<statement>/<detail>, e.g. thm4.2")
        if c.kind in ("table", "text") and not c.printed:
            problems.append(f"{c.id}: a printed number without `printed`")
        if c.kind in ("erratum", "note"):
            if not c.code:
                problems.append(f"{c.id}: an {c.kind} must name its dpsym functions (code=)")
            if not c.chapter:
                problems.append(f"{c.id}: an {c.kind} must name the chapter that shows it")
        if c.chapter and not (NOTEBOOKS / registry.paper(paper).chapters
                              / f"{c.chapter}.ipynb").exists():
            problems.append(f"{c.id}: chapter {c.chapter!r} does not exist")
        for name in c.code:
            try:
                _resolve(name)
            except (ImportError, AttributeError):
                problems.append(f"{c.id}: code name {name!r} does not resolve")
            if any(part.startswith("_") for part in name.split(".")):
                problems.append(f"{c.id}: code name {name!r} is private")
        if c.figure and c.figure not in figures:
            problems.append(f"{c.id}: figure {c.figure!r} is not registered")
    assert not problems, "\n".join(problems)
