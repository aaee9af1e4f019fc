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
    c = Claim(id="t/e", paper="core", ref="x", kind="erratum", statement="s",
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

    c = Claim(id="t/c", paper="core", ref="x", kind="identity", statement="s", check=boom)
    assert c.run(20).verdict == "failed"


def test_unknown_paper_rejected():
    with pytest.raises(ValueError, match="paper="):
        all_claims("nope")
