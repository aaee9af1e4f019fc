"""The certified binomial series of dpsym.rdp.arb_series against independent evaluations.

The oracle is mpmath tanh-sinh quadrature of the defining integral (method="quad",
an independent code path) at 60 digits, on 32 points that include tiny q, q near 1, small
and large sigma, alpha near 1 and alpha up to 500.5; integer orders are also held against
the mpmath binomial sum (method="int").
"""

from __future__ import annotations

import itertools
import json
from fractions import Fraction
from pathlib import Path

import mpmath
import numpy as np
import pytest
from mpmath import mp, mpf

from dpsym.numerics import agreeing_digits
from dpsym.rdp import arb_series as series
from dpsym.rdp import poisson_gaussian_rdp, poisson_gaussian_rdp_curve
from dpsym.rdp.arb_series import cvz_weights, poisson_rdp_enclosures

# (q, sigma, alpha): 32 real orders for the quadrature oracle
QUAD_POINTS = [
    ("1e-9", "0.25", "1.001"), ("1e-9", "50", "500.5"), ("1e-9", "1", "3.5"),
    ("1e-7", "100", "2.5"), ("1e-5", "0.5", "1.1"), ("1e-5", "5", "63.5"),
    ("1e-3", "1", "1.5"), ("1e-3", "0.25", "7.3"), ("1e-3", "20", "128.5"),
    ("0.01", "1", "2.5"), ("0.01", "1", "7.78"), ("0.01", "0.5", "20.5"),
    ("0.01", "2", "1.001"), ("0.01", "10", "500.5"), ("0.04", "1.5", "3.9"),
    ("0.04", "0.7", "10.25"), ("0.1", "5", "63.5"), ("0.1", "0.25", "1.3"),
    ("0.1", "1", "32.1"), ("0.25", "2", "5.5"), ("0.5", "0.7", "7.3"),
    ("0.5", "0.25", "128.5"), ("0.5", "50", "2.2"), ("0.9", "1", "4.75"),
    ("0.9", "3", "40.5"), ("0.999", "0.25", "500.5"), ("0.999", "50", "1.1"),
    ("0.999", "1", "2.5"), ("0.0042666666666666667", "1.1", "8.12"),
    ("0.3", "0.4", "15.5"), ("0.02", "8", "250.5"), ("0.6", "1.5", "1.05"),
]


@pytest.mark.parametrize("q,sigma,alpha", QUAD_POINTS)
def test_series_against_quadrature_60_digits(q, sigma, alpha):
    quad = poisson_gaussian_rdp(q, sigma, alpha, dps=60, method="quad")
    enc = poisson_rdp_enclosures(q, sigma, [alpha], dps=60)[0]
    assert enc.certified and enc.correct_digits() >= 60
    assert agreeing_digits(enc.upper, quad) >= 57
    # the quadrature value (good to ~60 digits) lies in the ball up to its own error
    with mp.workdps(90):
        slack = abs(quad) * mpf(10) ** -57
        assert enc.lower - slack <= quad <= enc.upper + slack


@pytest.mark.parametrize("q,sigma", [("1e-9", "0.5"), ("0.01", "1"), ("0.5", "0.3"),
                                     ("0.999", "2")])
def test_integer_orders_against_mpmath_binomial_sum(q, sigma):
    orders = [2, 3, 8, 64, 1024]
    encs = poisson_rdp_enclosures(q, sigma, orders, dps=40)
    for a, e in zip(orders, encs, strict=True):
        ref = poisson_gaussian_rdp(q, sigma, a, dps=45, method="int")
        assert e.method == "binomial" and e.correct_digits() >= 40
        assert agreeing_digits(e.upper, ref) >= 40


def test_cvz_weights_identity_and_bound():
    # d_n - T_n(1 - 2s) = (1 + s) sum rho_k s^k, checked at exact rationals
    for n in (1, 2, 5, 17, 60):
        d, rho = cvz_weights(n)
        for s in (Fraction(0), Fraction(1, 3), Fraction(1), Fraction(5, 7)):
            t = [Fraction(1), 1 - 2 * s]
            for _ in range(n - 1):
                t.append(2 * (1 - 2 * s) * t[-1] - t[-2])
            assert d - t[n] == (1 + s) * sum(r * s**k for k, r in enumerate(rho))
        assert d >= (3 + 8**0.5) ** n / 2 * (1 - 1e-12)
    # CVZ on a known alternating series: sum (-1)^m/(m+1) = log 2 (moments of dt on [0,1])
    d, rho = cvz_weights(30)
    with mp.workdps(40):
        approx = mpmath.fsum(r * mpf(1) / (k + 1) for k, r in enumerate(rho)) / d
        assert abs(approx - mpmath.log(2)) <= mpf(1) / d


def test_both_remainder_bounds_are_used_and_agree():
    # tiny q: terms decay geometrically -> monotone bound; moderate q: CVZ
    small = poisson_rdp_enclosures("1e-9", 1, ["2.5"], dps=40)[0]
    mid = poisson_rdp_enclosures("0.01", 1, ["2.5"], dps=40)[0]
    assert small.method == "monotone" and mid.method == "cvz"


def test_grid_shares_tables_and_matches_single_orders():
    grid = [Fraction(10 + x, 10) for x in range(1, 100)] + list(range(11, 64)) + [1024]
    curve = poisson_gaussian_rdp_curve("0.04", "1.5", grid, dps=40)
    for a in (grid[0], grid[50], grid[-1]):
        assert curve[grid.index(a)] == poisson_gaussian_rdp("0.04", "1.5", a, dps=40)
    assert all(x < y for x, y in itertools.pairwise(curve))  # increasing in alpha


def test_mpmath_fallback_is_flagged_and_agrees(monkeypatch):
    monkeypatch.setattr(series, "HAVE_FLINT", False)
    e = poisson_rdp_enclosures("0.01", 1, ["2.5", 8], dps=30)
    assert not any(x.certified for x in e)
    monkeypatch.undo()
    ref = poisson_rdp_enclosures("0.01", 1, ["2.5", 8], dps=30)
    for a, b in zip(e, ref, strict=True):
        assert agreeing_digits(a.upper, b.upper) >= 29


def test_independent_of_global_precision_and_numpy_inputs():
    base = poisson_gaussian_rdp("0.01", 1, "2.5", dps=30)
    with mp.workdps(8):
        assert poisson_gaussian_rdp("0.01", 1, "2.5", dps=30) == base
    v = poisson_gaussian_rdp(np.float64(0.5), np.int64(2), np.float64(2.5), steps=np.int64(3),
                             dps=30)
    assert v == poisson_gaussian_rdp(0.5, 2, 2.5, steps=3, dps=30)


def test_closed_cases_and_composition():
    assert poisson_gaussian_rdp(0, 1, "2.5") == 0
    with mp.workdps(60):
        assert poisson_gaussian_rdp(1, 2, "2.5", dps=40, steps=3) == mpf(3) * mpf("2.5") / 8
    one = poisson_rdp_enclosures("0.01", 1, ["3.5"], dps=40)[0]
    ten = poisson_rdp_enclosures("0.01", 1, ["3.5"], steps=10, dps=40)[0]
    with mp.workdps(80):
        assert ten.lower <= 10 * one.upper and 10 * one.lower <= ten.upper


def test_high_precision_scales():
    e = poisson_rdp_enclosures("0.01", 1, ["2.5"], dps=200)[0]
    assert e.correct_digits() >= 200


def test_recorded_peers_agree_to_float64():
    data = Path(__file__).parents[1] / "dpsym" / "data" / "peer_poisson_rdp.json"
    ref = json.loads(data.read_text())
    checked = 0
    for r in ref["records"]:
        if r["library"] != "dp_accounting" or r["error"] or r["value"] in ("inf", "nan"):
            continue
        v = float(r["value"])
        if not 1e-12 < v < 1e6 or r["alpha"] == 1.5:  # alpha = 1.5: the peer's known defect
            continue
        ours = float(poisson_gaussian_rdp(r["q"], r["sigma"], r["alpha"], dps=20))
        assert abs(ours - v) <= 1e-6 * v, r
        checked += 1
    assert checked >= 40


@pytest.mark.parametrize("q,sigma,alpha,bits,method", [
    ("0.01", "1", "2.5", 60, "cvz"), ("0.3", "0.7", "7.3", 60, "cvz"),
    ("0.9", "1", "4.75", 60, "cvz"), ("0.01", "1", "2.5", 20, "monotone"),
    ("1e-9", "1", "2.5", 20, "monotone"),
])
def test_truncated_tail_is_inside_the_ball(q, sigma, alpha, bits, method):
    # A coarse truncation (2^-bits absolute) at 256 working bits: the remainder bound, not the
    # rounding, sets the ball's radius, and the 60-digit quadrature value must still be inside.
    # Dropping the remainder term from the ball (a mutation) fails this test.
    qf, sf, af = Fraction(q), Fraction(sigma), Fraction(alpha)
    tables = series.PoissonSeriesTables(qf, sf, 256)
    with tables.ops.context():
        am1, used = tables.am1_real(af, bits)
        lo, hi = tables.ops.lower(am1), tables.ops.upper(am1)
    assert used == method
    rdp = poisson_gaussian_rdp(q, sigma, alpha, dps=60, method="quad")
    with mp.workdps(80):
        exact = mpmath.expm1((mpf(af.numerator) / af.denominator - 1) * rdp)
        assert lo <= exact <= hi
        assert hi - lo > mpf(2) ** -200  # the truncation bound is really in the radius
