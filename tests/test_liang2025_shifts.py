"""Liang et al. 2025: the k-step shift optimiser (dpsym.shifts.smooth_reduction) and the
mixture additions to dpsym.rdp.gaussian_mixture (mixture-second order, alpha*, profile)."""

from __future__ import annotations

import doctest
import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mpf
from scipy import integrate, stats

import dpsym.rdp.gaussian_mixture as gm
import dpsym.shifts.smooth_reduction as sr
from dpsym.errors import HypothesisError
from dpsym.numerics import agreeing_digits, precision
from dpsym.rdp import poisson_gaussian_rdp


def test_doctests():
    for mod in (sr, gm):
        res = doctest.testmod(mod)
        assert res.failed == 0 and res.attempted > 0


# --- the k-step allocation ---------------------------------------------------------------------

def test_symbolic_derivation_checks_hold():
    checks = sr.allocation_checks_symbolic()
    assert len(checks) == 11
    assert all(d.holds for d in checks), [d.notes for d in checks if not d.holds]


def test_symbolic_limits_and_taylor():
    d = sr.optimal_allocation_symbolic()
    h, k, D = d.h, d.k, d.D
    assert (d.limit_c_1 - D ** 2 / k).simplify() == 0
    assert (d.limit_k_inf - D ** 2 * h * (h + 2)).simplify() == 0
    assert (d.taylor_h - (1 / k + h * (1 + 1 / k))).simplify() == 0


@pytest.mark.parametrize("c,k", [("1.2", 1), ("1.2", 4), ("1.01", 7), ("2", 3), ("0.8", 5)])
def test_closed_form_against_generic_solvers(c, k):
    cc = sr.cross_check(c, "1.5", k, dps=30)
    assert agreeing_digits(cc.closed_form, cc.pabi_closed_form) >= 25
    assert agreeing_digits(cc.closed_form, cc.pabi_numeric) >= 25
    assert abs(cc.slsqp - float(cc.closed_form)) <= 1e-8 * float(cc.closed_form)
    alloc = sr.k_step_allocation(c, "1.5", k, dps=30)
    assert np.allclose(cc.slsqp_a, [float(x) for x in alloc.a], rtol=1e-5, atol=1e-7)


def test_one_step_is_the_papers_allocation_and_cost_decreases_in_k():
    with precision(40):
        c, D = mpf("1.2"), mpf(1)
        assert sr.k_step_shift_cost(c, D, 1, dps=40) == sr.k_step_shift_cost(c, D, 1, dps=40)
        assert abs(sr.k_step_shift_cost(c, D, 1, dps=40) - c * c * D * D) <= mpf(10) ** -38
        costs = [sr.k_step_shift_cost(c, D, k, dps=40) for k in range(1, 30)]
        assert all(a > b for a, b in itertools.pairwise(costs))
        assert costs[-1] > D * D * (c * c - 1)  # the k -> infinity limit, from above


def test_cost_near_and_at_c_equal_one():
    at1 = sr.k_step_shift_cost(1, 3, 4, dps=40)
    assert at1 == mpf(9) / 4
    near = sr.k_step_shift_cost("1.00000000000000000000000000001", 3, 4, dps=40)
    assert agreeing_digits(near, at1) >= 25


def test_allocation_is_feasible_and_optimal():
    alloc = sr.k_step_allocation("1.3", 2, 6, dps=40)
    assert all(a > 0 for a in alloc.a)
    assert all(z >= 0 for z in alloc.z) and alloc.z[0] == 2 and abs(alloc.z[-1]) < 1e-35
    cost, _z = sr.shift_cost_of_schedule("1.3", 2, list(alloc.a), dps=40)
    assert agreeing_digits(cost, alloc.cost) >= 35
    # mutation: moving mass between two steps keeps feasibility but must raise the cost
    a = list(alloc.a)
    a[0] += mpf("1e-3")
    a[1] -= mpf("1e-3") * mpf("1.3")  # keeps z_k = 0: c^(k-1) da_0 + c^(k-2) da_1 = 0
    cost2, _ = sr.shift_cost_of_schedule("1.3", 2, a, dps=40)
    assert cost2 > alloc.cost


@settings(max_examples=30, deadline=None)
@given(c=st.fractions(Fraction(101, 100), Fraction(3)), k=st.integers(1, 8),
       w=st.lists(st.fractions(Fraction(1, 100), 1), min_size=8, max_size=8))
def test_random_feasible_schedules_cost_at_least_the_optimum(c, k, w):
    """Any schedule a_j = lam w_j (w > 0) scaled to end at z = 0 is feasible for c >= 1;
    its cost must be >= the closed-form minimum (a smaller minimum would be unsafe)."""
    with precision(30):
        cv = mpf(c.numerator) / c.denominator
        ww = [mpf(x.numerator) / x.denominator for x in w[:k]]
        lam = cv ** k / mpmath.fsum(cv ** (k - 1 - j) * ww[j] for j in range(k))
        a = [lam * x for x in ww]
        cost, z = sr.shift_cost_of_schedule(cv, 1, a, dps=30)
        assert min(z) >= -mpf(10) ** -25
        assert cost >= sr.k_step_shift_cost(cv, 1, k, dps=30) * (1 - mpf(10) ** -25)


def test_infeasible_schedules_and_bad_input_raise():
    with pytest.raises(HypothesisError, match="ending at z = 0"):
        sr.shift_cost_of_schedule("1.2", 1, [1])
    with pytest.raises(HypothesisError, match="a_t >= 0"):
        sr.shift_cost_of_schedule("1.2", 1, [2, -0.96])
    with pytest.raises(HypothesisError, match="c > 0"):
        sr.k_step_shift_cost(0, 1, 2)
    with pytest.raises(HypothesisError, match="k >= 1"):
        sr.k_step_shift_cost(2, 1, 0)
    with pytest.raises(HypothesisError, match="integer"):
        sr.k_step_shift_cost(2, 1, 2.5)


def test_result_independent_of_global_precision():
    ref = sr.k_step_shift_cost("1.2", 1, 4, dps=30)
    with precision(8):
        low = sr.k_step_shift_cost("1.2", 1, 4, dps=30)
    with precision(120):
        high = sr.k_step_shift_cost("1.2", 1, 4, dps=30)
    assert low == ref == high


# --- the sampled Gaussian mechanism in both orders ----------------------------------------------

def _oracle_second(alpha: float, q: float, mu: float) -> float:
    """scipy float64 oracle for D_alpha(N(0,1) || (1-q) N(0,1) + q N(mu,1))."""
    def f(x: float) -> float:
        with np.errstate(over="ignore"):  # exp overflow -> inf -> integrand 0, as it should
            return stats.norm.pdf(x) * (1 - q + q * np.exp(mu * x - mu * mu / 2)) ** (1 - alpha)
    val, _ = integrate.quad(f, -np.inf, np.inf, points=None, epsabs=0, epsrel=1e-13,
                            limit=400)
    return float(np.log(val) / (alpha - 1))


@pytest.mark.parametrize("alpha,q,sigma", [(10, "0.01", "0.5"), (2, "0.01", "0.1"),
                                           (19, "0.01", "5"), ("2.5", "0.2", "1")])
def test_mixture_second_against_float_oracle_and_precision(alpha, q, sigma):
    v = gm.renyi_gaussian_vs_mixture(alpha, q, sigma, dps=40)
    w = gm.renyi_gaussian_vs_mixture(alpha, q, sigma, dps=60)
    assert agreeing_digits(v, w) >= 38
    ref = _oracle_second(float(alpha), float(q), 1 / float(sigma))
    assert abs(float(v) - ref) <= 1e-7 * abs(ref)
    # the other order dominates (MTZ19, Thm 5)
    assert poisson_gaussian_rdp(q, sigma, alpha, dps=30) > v


def test_alpha_star_matches_independent_implementation():
    from dpsym.papers.bravo2025.privacy import alpha_star as bravo_alpha_star  # oracle

    for q, s in (("0.01", 5), ("0.01", 10), ("0.19", 5)):
        mine = gm.sgm_alpha_star(q, s, dps=30)
        assert agreeing_digits(mine, bravo_alpha_star(q, s, dps=30)) >= 20
        g1, g2 = gm.sgm_alpha_star_conditions(mine, q, s, dps=30)
        assert min(g1, g2) >= 0 and abs(min(g1, g2)) < 1e-20
        g1, g2 = gm.sgm_alpha_star_conditions(mine * (1 + mpf("1e-6")), q, s, dps=30)
        assert min(g1, g2) < 0  # one step past alpha* a condition fails
    assert agreeing_digits(gm.sgm_alpha_star("0.01", 5, dps=30), mpf("19.816629")) >= 7
    with pytest.raises(HypothesisError, match="sigma >= 4"):
        gm.sgm_alpha_star("0.01", 3)
    with pytest.raises(HypothesisError, match="q <= 1/5"):
        gm.sgm_alpha_star("0.3", 5)


def _oracle_profile(eps: float, q: float, mu: float, order: str) -> float:
    """Hockey-stick divergence by scipy quadrature split at the likelihood-ratio crossing."""
    def p(x):
        return ((1 - q) * stats.norm.pdf(x) + q * stats.norm.pdf(x - mu))
    r = stats.norm.pdf
    P, Q = (p, r) if order == "first" else (r, p)
    def f(x):
        return (max(P(x) - np.exp(eps) * Q(x), 0.0))
    if order == "first":
        x0 = (np.log((np.exp(eps) - 1 + q) / q) + mu * mu / 2) / mu
        return integrate.quad(f, x0, np.inf, epsabs=0, epsrel=1e-12)[0]
    x0 = (np.log((np.exp(-eps) - 1 + q) / q) + mu * mu / 2) / mu
    return integrate.quad(f, -np.inf, x0, epsabs=0, epsrel=1e-12)[0]


@pytest.mark.parametrize("eps,order", [(1, "first"), (3, "first"), ("0.001", "second"),
                                       ("0.005", "second")])
def test_hockey_stick_against_quadrature(eps, order):
    v = gm.sgm_hockey_stick(eps, "0.01", "0.5", order=order, dps=30)
    ref = _oracle_profile(float(eps), 0.01, 2.0, order)
    assert abs(float(v) - ref) <= 1e-9 * ref


def test_sgm_epsilon_inverts_the_profile():
    for order in ("first", "second"):
        e = gm.sgm_epsilon("1e-5", "0.01", "0.5", order=order, dps=30)
        d = gm.sgm_hockey_stick(e, "0.01", "0.5", order=order, dps=30)
        with precision(30):
            assert agreeing_digits(d, mpf("1e-5")) >= 20
    assert gm.sgm_hockey_stick("0.02", "0.01", "0.5", order="second") == 0
