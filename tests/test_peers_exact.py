"""dpsym against the independent exact evaluations of the peer audit (never against a peer).

The oracles (dpsym.peers.exact) share no code path with dpsym's own functions: the
Poisson-subsampled Gaussian RDP by plain binomial sums and panel Gauss-Legendre of the
integrand as written (dpsym: log-space expm1 sums, tanh-sinh of a cancellation-free
integrand); GDP by the direct formula with guard digits and bisection (dpsym: its own
conversions).  The PLD bracket (dpsym.peers.pld) is checked against exact single- and
two-step values computed here from the hockey-stick curve in closed form.
"""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
from mpmath import mpf

from dpsym import gdp_delta, gdp_epsilon, poisson_gaussian_rdp
from dpsym.numerics import agreeing_digits
from dpsym.peers.exact import (
    oracle_balle_epsilon,
    oracle_gdp_delta,
    oracle_gdp_epsilon,
    oracle_log_a,
    oracle_poisson_rdp,
    poisson_clt_mu,
)
from dpsym.peers.pld import auto_h, pld_delta_bounds, pld_epsilon_bounds
from dpsym.rdp.conversions import rdp_to_epsilon

#: (q, sigma, alpha, steps): integer and fractional orders, the audit's finding cases among
#: them (dp-accounting's test case; alpha = 1.25 where it returns inf; q = 0.1, sigma = 5).
RDP_CASES = [(0.01, 2.5, 2.0, 1), (0.1, 0.8, 8.0, 1), (0.001, 1.0, 32.0, 1),
             (0.01, 2.5, 1.5, 50), (0.05, 0.8, 1.25, 1), (0.1, 5.0, 1.5, 1), (0.001, 1.0, 1.1, 1)]


@pytest.mark.parametrize("q,sigma,alpha,steps", RDP_CASES)
def test_rdp_agrees_with_oracle(q, sigma, alpha, steps):
    exact = oracle_poisson_rdp(q, sigma, alpha, steps, dps=40)
    ours = poisson_gaussian_rdp(q, sigma, alpha, steps, dps=40)
    assert agreeing_digits(ours, exact) >= 38
    with mpmath.workdps(60):
        assert ours >= exact * (1 - mpf(10) ** -39)  # rounded up: never below


def test_rdp_check_is_sensitive():
    """A relative change of 1e-30 in dpsym's value would fail the comparison above."""
    exact = oracle_poisson_rdp(0.01, 2.5, 1.5, 50, dps=40)
    with mpmath.workdps(60):
        moved = exact * (1 + mpf(10) ** -30)
    assert agreeing_digits(moved, exact) < 38


def test_oracle_is_stable_in_its_own_precision():
    a = oracle_log_a(0.05, 0.8, 1.25, dps=40)
    b = oracle_log_a(0.05, 0.8, 1.25, dps=60)
    assert agreeing_digits(a, b) >= 39


@pytest.mark.parametrize("mu,eps", [(1, 1), (1, 10), (1, 100), (50, 2000), ("0.5", "0.1")])
def test_gdp_delta_agrees_with_oracle(mu, eps):
    assert agreeing_digits(gdp_delta(mu, eps, dps=40), oracle_gdp_delta(mu, eps, dps=40)) >= 38


@pytest.mark.parametrize("mu,delta", [(1, "1e-5"), (50, "1e-100"), ("0.5", "1e-10"),
                                      ("1.4403454851289497", "1e-5")])
def test_gdp_epsilon_agrees_with_oracle(mu, delta):
    ours = gdp_epsilon(mu, delta, dps=40)
    exact = oracle_gdp_epsilon(mu, delta, dps=40)
    assert agreeing_digits(ours, exact) >= 38
    assert ours >= exact  # an upper bound


def test_gdp_tail_value():
    """delta(100) of 1-GDP is about 6.1e-2155: not 0 (float64 underflows), and positive."""
    d = oracle_gdp_delta(1, 100, dps=30)
    assert mpf("6.14e-2155") < d < mpf("6.16e-2155")


def test_poisson_clt_mu_against_float64():
    """Oracle by a second route: the same formula in float64 (16 digits suffice)."""
    for q, s, t in [(0.04, 1.5, 2250), (0.01, 0.7, 120), (0.001, 3.0, 20000)]:
        f64 = q * math.sqrt(t * math.expm1(1 / s**2))
        assert math.isclose(float(poisson_clt_mu(q, s, t)), f64, rel_tol=1e-14)


def test_balle_conversion_agrees_with_dpsym():
    orders = [1.5, 2, 3.25, 8, 32]
    rdp = ["0.01", "0.02", "0.05", "0.2", "1.5"]
    ours, a1 = rdp_to_epsilon(orders, rdp, "1e-5", conversion="balle2020", dps=40)
    exact, a2 = oracle_balle_epsilon(orders, rdp, "1e-5", dps=40)
    assert a1 == a2
    assert agreeing_digits(ours, exact) >= 38


# --- the PLD bracket ------------------------------------------------------------------


def _one_step_delta(q: mpf, s: mpf, eps: mpf, direction: str) -> mpf:
    """Oracle: hockey-stick delta(eps) of one step, closed form (remove: (M, N0); add:
    (N0, M)), at the current precision."""
    if direction == "remove":
        if eps <= mpmath.log1p(-q):
            return 1 - mpmath.exp(eps)
        x = s * s * mpmath.log((mpmath.exp(eps) - (1 - q)) / q) + mpf(1) / 2
        return q * mpmath.ncdf((1 - x) / s) - (mpmath.exp(eps) - (1 - q)) * mpmath.ncdf(-x / s)
    if eps >= -mpmath.log1p(-q):
        return mpf(0)
    x = s * s * mpmath.log((mpmath.exp(-eps) - (1 - q)) / q) + mpf(1) / 2
    return ((1 - mpmath.exp(eps) * (1 - q)) * mpmath.ncdf(x / s)
            - mpmath.exp(eps) * q * mpmath.ncdf((x - 1) / s))


def _two_step_delta(q: mpf, s: mpf, eps: mpf) -> mpf:
    """Oracle: delta_2(eps) = E_{x ~ M}[delta_1(eps - L(x))] for the remove direction."""
    def integrand(x: mpf) -> mpf:
        dens = ((1 - q) * mpmath.npdf(x, 0, s) + q * mpmath.npdf(x, 1, s))
        loss = mpmath.log((1 - q) + q * mpmath.exp((2 * x - 1) / (2 * s * s)))
        return dens * _one_step_delta(q, s, eps - loss, "remove")

    x0 = s * s * mpmath.log((1 - q) / q) + mpf(1) / 2
    # delta_1 has a kink where eps - L(x) = log(1 - q): split there too
    xk = s * s * mpmath.log((mpmath.exp(eps) / (1 - q) - (1 - q)) / q) + mpf(1) / 2
    pts = sorted({mpf(0), mpf(1), x0, x0 + 5 * s, xk})
    return mpmath.quad(integrand, [-mpmath.inf, *pts, mpmath.inf])


@pytest.mark.parametrize("direction", ["remove", "add"])
def test_pld_one_step_brackets_the_closed_form(direction):
    q, s, delta = 0.05, 1.0, 1e-5
    with mpmath.workdps(30):
        qv, sv = mpf(q), mpf(s)
        lo, hi = mpf(0), mpf(5)  # delta(eps) decreases; bisection to 1e-20
        assert _one_step_delta(qv, sv, lo, direction) > delta
        while hi - lo > mpf(10) ** -20:
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _one_step_delta(qv, sv, mid, direction) > delta else (lo, mid)
        exact = hi
    b = pld_epsilon_bounds(q, s, 1, delta, direction, h=1e-4)
    assert b.lower <= float(exact) <= b.upper
    assert b.upper - b.lower <= 2e-4


def test_pld_two_steps_brackets_the_integral():
    q, s, eps = 0.1, 1.0, 1.0
    with mpmath.workdps(25):
        exact = _two_step_delta(mpf(q), mpf(s), mpf(eps))
    lo, hi = pld_delta_bounds(q, s, 2, eps, "remove", h=1e-4)
    assert lo <= float(exact) <= hi
    assert (hi - lo) / float(exact) < 2e-3


def test_pld_bracket_shrinks_with_the_grid():
    """The issue's example (sigma 0.8, q 0.001, 100 steps, delta 1e-6, remove direction):
    both grids bracket the same value, the finer one inside the coarser one's slack."""
    coarse = pld_epsilon_bounds(0.001, 0.8, 100, 1e-6, "remove", h=1e-4)
    fine = pld_epsilon_bounds(0.001, 0.8, 100, 1e-6, "remove", h=1e-5)
    assert coarse.lower <= fine.lower <= fine.upper <= coarse.upper + 1e-9
    assert fine.upper - fine.lower <= 100 * 1e-5 + 1e-6
    assert fine.lower > 0.2598 and fine.upper < 0.2604


def test_auto_h_targets_the_slack():
    assert auto_h(0.001, 0.8, 100) == pytest.approx(2e-6)
    assert auto_h(0.05, 1.5, 20000) > 2e-4 / 20000  # memory-bound: a coarser grid


def test_pld_rejects_bad_input():
    with pytest.raises(ValueError, match="q="):
        pld_epsilon_bounds(1.5, 1.0, 10, 1e-5)
    with pytest.raises(ValueError, match="direction="):
        pld_epsilon_bounds(0.1, 1.0, 10, 1e-5, direction="both-ways")
    with pytest.raises(ValueError, match="steps="):
        pld_delta_bounds(0.1, 1.0, 0, 1.0)
    assert np.isfinite(pld_epsilon_bounds(0.1, 2.0, 3, 1e-5, h=1e-3).upper)


def test_oracles_reject_bad_input():
    with pytest.raises(ValueError, match="alpha="):
        oracle_log_a(0.1, 1, 1)
    with pytest.raises(ValueError, match="q="):
        oracle_poisson_rdp(0, 1, 2)
    with pytest.raises(ValueError, match="delta="):
        oracle_gdp_epsilon(1, 0)
