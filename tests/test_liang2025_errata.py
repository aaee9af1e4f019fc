"""Liang et al. 2025: evidence for the errata and gaps -- the adjacency-order counterexample
to (10)/(12), Lemma A.12 in both orders, and App. C.1's steps (Cors 3.11/3.12, Remark 3.13)."""

from __future__ import annotations

import doctest

import numpy as np
import pytest
from mpmath import mpf
from scipy import integrate, stats

from dpsym.numerics import agreeing_digits, precision
from dpsym.papers.liang2025 import adjacency as adj
from dpsym.papers.liang2025 import utility as ut
from dpsym.papers.liang2025.closed_forms import dp_epsilon, rho_gc
from dpsym.rdp.gaussian_mixture import sgm_epsilon


def test_doctests():
    for mod in (adj, ut):
        assert doctest.testmod(mod).failed == 0


def _oracle(alpha: float, q: float, mu: float, first: bool) -> float:
    """scipy float64: D_alpha of the one-step laws, by direct quadrature of the definition."""
    def logmix(x: float) -> float:
        return float(np.logaddexp(np.log1p(-q) + stats.norm.logpdf(x),
                                  np.log(q) + stats.norm.logpdf(x - mu)))

    def f(x: float) -> float:
        lp, lq = ((logmix(x), stats.norm.logpdf(x)) if first
                  else (stats.norm.logpdf(x), logmix(x)))
        return float(np.exp(alpha * lp + (1 - alpha) * lq))

    val = integrate.quad(f, -40, 60, points=[0, mu, alpha * mu], limit=500, epsabs=0,
                         epsrel=1e-12)[0]
    return float(np.log(val) / (alpha - 1))


def test_counterexample_to_eq_12():
    c = adj.eq_12_counterexample(dps=40)  # alpha = 10, n = 100, b = 1, C = 1, sigma = 1/2
    with precision(40):
        assert c.claimed == mpf("0.8")  # the infimum over beta of (12) at T = 1
        assert c.first > 18 * c.claimed  # 14.872 (q = 1/101)
        assert c.second < c.claimed  # the order the proof covers is fine
        assert c.beta_threshold < mpf("0.054")  # (12) fails for every beta > 0.054
    assert abs(float(c.first) - _oracle(10, 1 / 101, 2, True)) <= 1e-8 * float(c.first)
    assert abs(float(c.second) - _oracle(10, 1 / 101, 2, False)) <= 1e-7 * float(c.second)
    hi = adj.eq_12_counterexample(dps=70)
    assert agreeing_digits(c.first, hi.first) >= 38
    assert agreeing_digits(c.second, hi.second) >= 38
    # the other reading of q (b/n rather than b/(n+1)) gives the digest-style 14.88
    c2 = adj.eq_12_counterexample(q_reading="n", dps=30)
    assert agreeing_digits(c2.first, mpf("14.8831442378")) >= 10
    # at a given beta the claim is (12) itself: larger, still violated
    c3 = adj.eq_12_counterexample(beta="0.5", dps=30)
    with precision(30):
        assert c3.claimed == mpf("1.6") and c3.first > 9 * c3.claimed


def test_counterexample_also_at_the_dp_level():
    """(12) with Lemma 2.4 (optimal alpha, beta -> 1) claims eps(1e-5) = 1.9994; the exact
    privacy profile of the add order needs eps = 3.0254 (closed form in Phi)."""
    rho = rho_gc(T=1, n=100, b=1, C=1, sigma="0.5", dps=30)
    claim, _ = dp_epsilon(rho, "1e-5", dps=30)
    exact = sgm_epsilon("1e-5", "0.01", "0.5", order="first", dps=30)
    with precision(30):
        assert agreeing_digits(claim, mpf("1.99941036487523")) >= 13
        assert exact > claim * mpf("1.5")
    assert sgm_epsilon("1e-5", "0.01", "0.5", order="second", dps=30) < claim


def test_eq_14_not_violated_in_one_step_instances():
    """(14)'s proof inherits (10)'s gap, but its D-term dominates at T = 1: the projected
    one-step divergence stays below it (a proof gap, not a counterexample)."""
    for D in (2, 6, 14):
        div, bound = adj.eq_14_counterexample(D=D)
        assert div < bound


def test_lemma_a12_holds_in_both_orders():
    for q, s in (("0.01", 5), ("0.01", 10), ("0.2", 5)):
        for r in adj.lemma_a12_both_orders(q, s):
            assert r.second < r.first < r.bound
            assert r.first > r.bound / 5  # the check is not vacuous: within a factor 5
    with pytest.raises(ValueError, match="alpha <= alpha"):
        adj.lemma_a12_both_orders("0.01", 5, orders=(25,))


# --- utility (Sec. 3.2, App. C) ---------------------------------------------------------------

@pytest.mark.parametrize("name", ["cor3.11/nb", "cor3.11/n2", "cor3.12/nb", "cor3.12/n2"])
def test_corollaries_follow_up_to_beta_constants(name):
    c = ut.corollary_derivation(name)
    assert c.holds, c.ratios
    b = [r for pair in c.ratios for r in pair]
    assert all(float(r.subs({next(iter(r.free_symbols)): 0.5} if r.free_symbols else {})) > 0
               for r in b)


def test_corollary_check_detects_a_wrong_exponent():
    c = ut.corollary_derivation("cor3.11/nb")
    T = next(s for s in c.printed[0].free_symbols if s.name == "T")
    wrong = c.derived[0] / c.printed[0].subs(T, T ** 2)
    assert not wrong.free_symbols <= {s for s in wrong.free_symbols if s.name == "beta"}


def test_remark_3_13_terms_increase_with_D():
    signs = ut.rem_3_13_signs()
    assert len(signs) == 4 and all(ok for _, ok in signs)


def test_c1_constants():
    checks = ut.c1_constants()
    assert len(checks) == 12
    assert all(d.holds for d in checks), [d.notes for d in checks if not d.holds]


def test_case_2_1_reuse_of_eq_55_fails_but_eq_60_survives():
    c = ut.eq_55_case_2_1()
    assert not c.holds and c.lhs > 4 * c.rhs
    assert c.conclusion_holds
    ok = ut.eq_55_case_2_1(eta="0.1")  # eta <= 1/(10L) makes the step valid again
    assert ok.holds
    total, f55, f60 = ut.eq_60_scan(points=12)
    assert total == 144 and f55 > 40 and f60 == 0


def test_eq_63_printed_bound_is_exceeded_for_C_below_1():
    p, printed, markov = ut.eq_63_instance()
    assert p > printed and p <= markov


def test_eq_65_first_step_fails_at_theta_star():
    c = ut.eq_65_instance()
    assert not c.holds and c.lhs > mpf("1.3") * c.rhs
    assert c.conclusion_holds
    small_b = ut.eq_65_instance(b=100)
    assert small_b.holds  # the failure needs b > ~3216 here


def test_case_sequence_visits_both_cases():
    seq = ut.case_sequence()
    assert "2.1" in seq and "2.2" in seq and seq[0] == "2.1" and seq[-1] == "2.2"
