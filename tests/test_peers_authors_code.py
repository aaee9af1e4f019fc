"""The authors'-code findings (code/text mismatches) of Bok et al. 2024 and Birrell et al. 2024.

Their ledger rows are added by each module's ``register_claims(ledger, chapter)``; here a
stand-in ledger collects the rows so that the checks run without touching the registry.
"""

from __future__ import annotations

import math

import numpy as np
import pytest
from mpmath import mpf

from dpsym.claims import Claim
from dpsym.numerics import agreeing_digits
from dpsym.papers.birrell2024 import authors_code as birrell
from dpsym.papers.bok2024 import authors_code as bok
from dpsym.rdp.fixed_size_replacement import upper_bound_rdp


class _Collect:
    """A stand-in for dpsym.claims.Ledger: builds the Claim without registering it."""

    def __init__(self, paper: str) -> None:
        self.paper = paper
        self.claims: list[Claim] = []

    def add(self, id: str, **kwargs: object) -> Claim:
        c = Claim(id=f"{self.paper}/{id}", paper=self.paper, **kwargs)
        self.claims.append(c)
        return c


def _oracle_fswr_as_coded(alpha: float, sigma: float, B: int, D: int, m: int, K: int) -> float:
    """Oracle (float64, written from the description in the module docstring): the script's
    bracket with the Taylor bound replaced by +inf, i.e. its fallback alone for n <= K --
    an upper bound on what the script computes, and equal to it where the fallback wins."""
    a_n = [math.comb(B, n) * D ** -n * (1 - 1 / D) ** (B - n) for n in range(B + 1)]
    qt = 1 / (1 + a_n[0] / sum(a_n[1:K + 1]))
    total = 1.0
    for n in range(1, B + 1):
        x = 2 * alpha * (alpha - 1) * n * n / sigma**2
        total += (a_n[n] / qt if n <= K else a_n[n]) * math.expm1(x)
    return math.log(total) / (alpha - 1)


def test_fswr_as_coded_issue_numbers():
    c = birrell.authors_code_fallback(dps=30)
    assert f"{float(c.coded_full):.4f}" == "4.6019"
    assert f"{float(c.coded_default):.4f}" == "2.9658"
    # the text's bound is smaller at K = |B| and no larger at the script's default K
    assert c.text_full < c.coded_full
    assert c.text_default <= c.coded_default


def test_fswr_as_coded_below_its_fallback_alone():
    """The script takes min(Taylor, fallback) for n <= K, so its value lies below the
    fallback-only float64 oracle, and above the text's bound (which has the smaller
    fallback q~ (e^x - 1))."""
    for k in (2, 9, 10):
        v = float(birrell.fswr_rdp_as_coded(3, 4, 10, 1000, m=3, K=k, dps=30))
        assert v <= _oracle_fswr_as_coded(3, 4, 10, 1000, 3, k) * (1 + 1e-12)
        assert v >= float(upper_bound_rdp(3, 4, 10, 1000, K=k, m=3, h="min", dps=30)) * (1 - 1e-15)


def test_fswr_as_coded_not_monotone_in_K_text_is():
    coded = [birrell.fswr_rdp_as_coded(3, 4, 10, 1000, m=3, K=k, dps=20) for k in (2, 8, 10)]
    text = [upper_bound_rdp(3, 4, 10, 1000, K=k, m=3, h="min", dps=20) for k in (2, 8, 10)]
    assert coded[2] > coded[1] >= text[2]
    assert text[2] <= text[1] <= text[0]


def test_fswr_as_coded_default_K_and_errors():
    assert birrell.fswr_rdp_as_coded(3, 4, 10, 1000, m=3, dps=20) == \
        birrell.fswr_rdp_as_coded(3, 4, 10, 1000, m=3, K=2, dps=20)
    with pytest.raises(ValueError, match="K="):
        birrell.fswr_rdp_as_coded(3, 4, 10, 1000, m=3, K=11)
    with pytest.raises(ValueError, match="alpha="):
        birrell.fswr_rdp_as_coded(1, 4, 10, 1000)
    with pytest.raises(ValueError, match="B="):
        birrell.fswr_rdp_as_coded(3, 4, 1000, 1000)


def test_birrell_claim_is_an_erratum_with_digits():
    led = _Collect("birrell2024")
    birrell.register_claims(led, chapter="any")
    (c,) = led.claims
    assert c.severity == "code-text-mismatch"
    out = c.run(25)
    assert out.verdict == "erratum", out.evidence
    assert out.digits >= 20
    assert "4.6019" in out.evidence and "2.9658" in out.evidence
    assert agreeing_digits(mpf(out.value), birrell.fswr_rdp_as_coded(3, 4, 10, 1000, 3, K=10,
                                                                        dps=30)) >= 15


def test_bok_longdouble_check():
    c = bok.prv_longdouble_check()
    assert not c.longdouble_loop
    assert all(not s.startswith("g") for s in c.ndtr_loops)
    if np.finfo(np.longdouble).nmant > np.finfo(np.float64).nmant:
        assert c.error is not None and c.error.startswith("TypeError")
    else:  # long double is double here: the script runs, in double precision
        assert c.error is None
    assert 0 < c.float64_cdf < 1


def test_bok_claim_is_an_erratum():
    led = _Collect("bok2024")
    bok.register_claims(led, chapter="any")
    (c,) = led.claims
    assert c.id == "bok2024/table4/authors-code-longdouble"
    out = c.run(20)
    assert out.verdict == "erratum", out.evidence
    assert "no long-double loop" in out.value
