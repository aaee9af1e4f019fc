"""RDP -> (eps, delta) conversions: closed forms, the optimal conversion, order search."""

import math

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mpf
from scipy.optimize import brentq

from dpsym import poisson_gaussian_rdp, rdp_to_delta, rdp_to_epsilon
from dpsym.numerics import agreeing_digits, precision
from dpsym.rdp.conversions import (
    delta_from_rdp,
    epsilon_from_rdp,
    optimal_delta,
    optimize_order,
    zcdp_to_epsilon,
)


def test_closed_forms():
    with precision(40):
        a, t, d = mpf(10), mpf("0.5"), mpf("1e-5")
        mir = t + mpmath.log(1 / d) / (a - 1)
        bal = t + mpmath.log((a - 1) / a) - (mpmath.log(d) + mpmath.log(a)) / (a - 1)
    assert agreeing_digits(epsilon_from_rdp(10, "0.5", "1e-5", "mironov2017", dps=30), mir) >= 29
    assert agreeing_digits(epsilon_from_rdp(10, "0.5", "1e-5", "balle2020", dps=30), bal) >= 29
    # delta(eps) inverts eps(delta) for the closed forms.
    for conv in ("mironov2017", "balle2020"):
        e = epsilon_from_rdp(10, "0.5", "1e-5", conv, dps=30)
        with precision(30):
            assert agreeing_digits(delta_from_rdp(10, "0.5", e, conv, dps=30),
                                   mpf("1e-5")) >= 25


def _brute_optimal_delta(alpha, tau, eps):
    """Float64 grid search of sup p - e^eps q over two-point pairs with D_alpha <= tau."""
    g, c = math.exp(eps), math.exp((alpha - 1) * tau)
    best = max(0.0, 1 - math.exp(eps - tau))
    for lq in np.linspace(-30, -1e-9, 3000):
        q = math.exp(lq)

        def h(p, q=q):
            return p**alpha * q ** (1 - alpha) + (1 - p) ** alpha * (1 - q) ** (1 - alpha) - c

        try:
            p = 1.0 if h(1.0) <= 0 else brentq(h, q, 1.0, xtol=1e-15)
        except (ValueError, OverflowError):
            continue
        best = max(best, p - g * q)
    return best


@pytest.mark.parametrize("alpha,tau,eps", [(2, 0.5, 0.5), (10, 1.0, 2.0), (1.5, 0.1, 0.3),
                                           (32, 0.05, 0.5), (5, 3.0, 1.0)])
def test_optimal_delta_matches_brute_force(alpha, tau, eps):
    with precision(30):
        ours = optimal_delta(mpf(alpha), mpf(tau), mpf(eps))
    brute = _brute_optimal_delta(alpha, tau, eps)
    # The grid can only find less than the supremum.
    assert float(ours) >= brute * (1 - 1e-9)
    assert float(ours) <= brute * (1 + 1e-5) + 1e-15


@given(alpha=st.floats(1.05, 200), tau=st.floats(1e-4, 50), logd=st.floats(-60, -1))
def test_asoodeh_le_balle_le_mironov(alpha, tau, logd):
    d = mpmath.exp(logd)
    e = [epsilon_from_rdp(alpha, tau, d, c, dps=20)
         for c in ("asoodeh2021", "balle2020", "mironov2017")]
    assert e[0] <= e[1] <= e[2]


@given(alpha=st.floats(1.5, 64), tau=st.floats(1e-3, 5), logd=st.floats(-25, -2))
def test_optimal_epsilon_is_valid_and_tight(alpha, tau, logd):
    d = mpmath.exp(logd)
    e = epsilon_from_rdp(alpha, tau, d, "asoodeh2021", dps=25)
    with precision(35):
        assert optimal_delta(mpf(alpha), mpf(tau), e) <= d * (1 + mpf(10) ** -20)
        if e > 0:
            below = optimal_delta(mpf(alpha), mpf(tau), e * (1 - mpf(10) ** -10))
            assert below > d


def test_rdp_to_epsilon_picks_the_best_order():
    orders = list(range(2, 33))
    rdp = [poisson_gaussian_rdp("0.01", 1, a, steps=1000, dps=30) for a in orders]
    eps, order = rdp_to_epsilon(orders, rdp, "1e-5", dps=30)
    singles = [epsilon_from_rdp(a, r, "1e-5", dps=30) for a, r in zip(orders, rdp, strict=True)]
    assert eps == min(singles)
    assert order == orders[singles.index(min(singles))]
    d, _ = rdp_to_delta(orders, rdp, eps, dps=30)
    with precision(30):
        assert agreeing_digits(d, mpf("1e-5")) >= 20
    best, _ = rdp_to_epsilon(orders, rdp, "1e-5", conversion="best", dps=30)
    assert best <= eps


def test_continuous_order_beats_grid():
    def rdp_fn(a, d):
        return poisson_gaussian_rdp("0.01", 1, a, steps=1000, dps=d)

    orders = [2, 4, 8, 16, 32]
    grid, _ = rdp_to_epsilon(orders, [rdp_fn(a, 30) for a in orders], "1e-5", dps=30)
    cont, alpha = optimize_order(rdp_fn, "1e-5", alpha_min=2, alpha_max=64, dps=30)
    assert cont <= grid
    assert 2 < alpha < 64


def test_zcdp():
    with precision(30):
        ref = mpf("0.1") + 2 * mpmath.sqrt(mpf("0.1") * mpmath.log(mpf(10) ** 5))
    assert agreeing_digits(zcdp_to_epsilon("0.1", "1e-5", dps=25), ref) >= 24


@pytest.mark.parametrize("call,match", [
    (lambda: epsilon_from_rdp(1, 1, 1e-5), "alpha=1 violates alpha > 1 \\(RDP"),
    (lambda: epsilon_from_rdp(2, -1, 1e-5), "rdp=-1 violates rdp >= 0"),
    (lambda: epsilon_from_rdp(2, 1, 0), "delta=0 violates 0 < delta < 1"),
    (lambda: epsilon_from_rdp(2, 1, 1e-5, "nope"), "conversion=nope"),
    (lambda: rdp_to_epsilon([2, 3], [1], 1e-5), "orders="),
    (lambda: rdp_to_delta([2], [1], -1), "eps=-1"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


@pytest.mark.parametrize("q,sigma,steps,delta", [("0.01", 1, 10, "1e-5"), ("0.001", "0.8", 1000,
                                                  "1e-8"), ("0.1", 3, 100, "1e-3")])
def test_local_order_search_equals_full_scan(q, sigma, steps, delta):
    orders = [*range(2, 13), 16, 24, 32]
    rdp = [poisson_gaussian_rdp(q, sigma, a, steps=steps, dps=20) for a in orders]
    eps, _ = rdp_to_epsilon(orders, rdp, delta, conversion="asoodeh2021", dps=20)
    scan = min(epsilon_from_rdp(a, r, delta, "asoodeh2021", dps=20)
               for a, r in zip(orders, rdp, strict=True))
    assert eps == scan
