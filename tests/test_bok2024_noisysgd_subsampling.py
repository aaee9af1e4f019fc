"""The subsampling operator C_p (Def. 4.7), its closed form for G(mu), the duality between
tradeoff functions and privacy curves, and Neyman-Pearson for small families."""

import itertools
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from mpmath import mpf

from dpsym.fdp import EpsDelta, Gaussian, gdp_delta
from dpsym.fdp.duality import delta_of_tradeoff, tradeoff_interval
from dpsym.fdp.neyman_pearson import discrete_tradeoff, mixture_delta
from dpsym.fdp.subsampling import (
    IdentityMixture,
    SubsampledGaussian,
    lower_convex_hull,
    subsample,
)
from dpsym.numerics import Phi, precision
from dpsym.papers.bok2024 import noisysgd as paper

CASES = [("0.25", "2.5"), ("0.01", "1"), ("0.5", "0.3"), ("1", "1.5")]


@pytest.mark.parametrize(("p", "mu"), CASES)
def test_numeric_envelope_encloses_the_closed_form(p, mu):
    """Def. 4.7 two ways: the certified hull H - omega <= C <= H contains the closed form."""
    env = paper.def_4_7(Gaussian(mu), p, n=300, dps=20)
    closed = paper.def_4_7_gaussian(p, mu)
    assert float(env.omega) < 5e-3
    with precision(20):
        for i in range(1, 80):
            x = mpf(i) / 80
            lo, hi = env.bounds(x)
            assert lo <= closed(x) <= hi, (p, mu, x)


def test_envelope_error_shrinks_quadratically():
    om = [float(paper.def_4_7(Gaussian(2), "0.2", n=n, dps=15).omega) for n in (100, 200)]
    assert 3.0 < om[0] / om[1] < 5.0


def oracle_cp_gaussian(p: mpf, mu: mpf, xs: list[mpf]) -> list[mpf]:
    """Oracle: C_p(G(mu)) as the lower convex envelope of min(f_p, f_p^-1) on a grid, with
    f_p^-1 solved by mpmath's own root finder (not the module's mirror trick)."""
    fp = IdentityMixture(Gaussian(mu), p)

    def inv(y: mpf) -> mpf:
        if y >= fp(0):
            return mpf(0)
        return mpmath.findroot(lambda v: fp(v) - y, (mpf(0), mpf(1)), solver="anderson")

    grid = [mpf(i) / 160 for i in range(161)]
    hull = lower_convex_hull([(g, min(fp(g), inv(g))) for g in grid])
    out = []
    for x in xs:
        for (x0, y0), (x1, y1) in itertools.pairwise(hull):
            if x0 <= x <= x1:
                out.append(y0 + (y1 - y0) * (x - x0) / (x1 - x0))
                break
    return out


def test_closed_form_matches_a_brute_force_oracle():
    with precision(20):
        c = SubsampledGaussian("0.3", "1.2")
        xs = [mpf(x) for x in ("0.05", "0.3", "0.5", "0.8")]
        for x, o in zip(xs, oracle_cp_gaussian(mpf("0.3"), mpf("1.2"), xs), strict=True):
            assert abs(c(x) - o) < 5e-4


def test_closed_form_pieces_and_symmetry():
    with precision(30):
        c = SubsampledGaussian("0.25", "2.5")
        a1, a2 = c.alpha_1, c.alpha_2
        assert abs(a1 - Phi(mpf("-1.25"))) < 1e-25
        # the slope -1 segment joins (a1, a2) and (a2, a1); symmetric about the diagonal
        assert abs(c(a1) - a2) < 1e-25 and abs(c(a2) - a1) < 1e-20
        for x in ("0.02", "0.3", "0.9"):
            assert abs(c(c(x)) - mpf(x)) < 1e-20
        # below both f_p and f_p^-1 (Def. 4.7) and equal to f_p on [0, a1] (fact (a))
        fp = IdentityMixture(Gaussian("2.5"), "0.25")
        assert abs(c("0.05") - fp("0.05")) < 1e-25
        assert c("0.5") < fp("0.5")
        assert c.derivative("0.5") == -1


def test_closed_form_edge_rates():
    with precision(20):
        g = Gaussian("1.3")
        assert abs(SubsampledGaussian(1, "1.3")("0.2") - g("0.2")) < 1e-15   # p = 1
        assert abs(SubsampledGaussian(0, "1.3")("0.2") - mpf("0.8")) < 1e-15  # p = 0: Id


def test_subsample_any_tradeoff_function():
    """A non-Gaussian f: f_{eps, delta}, which does not start at 1.  Oracle: f_p is piecewise
    linear with one kink x1 (where the two pieces of f_{eps, delta} meet), so C_p(f) is the
    polygon (0, 1 - p delta), (x1, f_p(x1)), (f_p(x1), x1), (1 - p delta, 0), (1, 0).  The
    classical amplification bound f_{eps', p delta}, eps' = log(1 + p(e^eps - 1)), lies below
    it (a valid but looser guarantee) and agrees on [0, x1]."""
    f = EpsDelta(1, "0.05")
    env = subsample(f, "0.5", n=300, dps=20)
    fp = IdentityMixture(f, "0.5")
    with precision(20):
        e, d, p = mpmath.e, mpf("0.05"), mpf("0.5")
        x1 = (1 - d) * (1 - 1 / e) / (e - 1 / e)
        y1 = fp(x1)
        poly = [(mpf(0), 1 - p * d), (x1, y1), (y1, x1), (1 - p * d, mpf(0)), (mpf(1), mpf(0))]
        amplification = EpsDelta(mpmath.log(1 + p * (e - 1)), p * d)
        for x in ("0", "0.1", "0.4", "0.7", "1"):
            xv = mpf(x)
            oracle = next(y0 + (y1_ - y0) * (xv - x0) / (x1_ - x0)
                          for (x0, y0), (x1_, y1_) in itertools.pairwise(poly)
                          if x0 <= xv <= x1_)
            lo, hi = env.bounds(x)
            assert lo <= oracle <= hi
            assert amplification(x) <= hi
            assert hi <= fp(x) + 1e-15
            if 0 < xv < 1 - p * d:
                assert abs(env.upper(env.upper(x)) - xv) < 1e-3   # symmetric
        assert amplification("0.4") < env("0.4") - mpf("0.04")   # strictly looser there


def test_subsample_rejects_bad_input():
    with pytest.raises(ValueError, match="p=1.5 violates 0 <= p <= 1"):
        subsample(Gaussian(1), "1.5")
    with pytest.raises(ValueError, match="mu=-1 violates mu >= 0"):
        SubsampledGaussian("0.5", -1)
    with pytest.raises(ValueError, match="x=2 violates 0 <= x <= 1"):
        SubsampledGaussian("0.5", 1)(2)


def test_delta_of_tradeoff_reproduces_lemma_a3():
    with precision(30):
        for e in ("0", "0.7", "3"):
            assert abs(delta_of_tradeoff(Gaussian("1.5"), e) - gdp_delta("1.5", e, dps=30)) \
                < 1e-25


def test_tradeoff_interval_encloses_and_is_tight():
    eps = np.linspace(0, 12, 300)
    d = np.array([float(gdp_delta("1.5", e, dps=20)) for e in eps])
    x = np.linspace(0, 1, 41)
    lo, hi = tradeoff_interval(eps, d, d, x)
    exact = np.array([float(Gaussian("1.5")(v)) for v in x])
    assert np.all(lo <= exact + 1e-14) and np.all(exact <= hi + 1e-14)
    assert np.max(hi - lo) < 5e-4
    # a wrong (smaller) delta must not keep the lower curve below the truth
    lo_bad, _ = tradeoff_interval(eps, 0.9 * d, 0.9 * d, x)
    assert np.any(lo_bad > exact + 1e-6)


def test_discrete_tradeoff_is_exact():
    v = discrete_tradeoff([Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 4), Fraction(3, 4)])
    assert v == [(0, 1), (Fraction(1, 2), Fraction(1, 4)), (1, 0)]
    with pytest.raises(ValueError, match="probability vectors"):
        discrete_tradeoff([1, 1], [1, 0])


def test_mixture_delta_gaussian_and_subsampled():
    with precision(25):
        assert abs(mixture_delta("0.7", ([1], [0]), ([1], ["1.5"]), cells=300)
                   - gdp_delta("1.5", "0.7", dps=25)) < 1e-20
        # one-sided f_p and C_p(G(mu)) share delta for eps >= 0 (Prop. D.4's proof)
        a = mixture_delta("0.4", ([1], [0]), (["0.25", "0.75"], ["2.5", "0"]), cells=300)
        b = delta_of_tradeoff(SubsampledGaussian("0.25", "2.5"), "0.4")
        assert abs(a - b) < 1e-18
        # ... but not for eps < 0: the one-sided curve is not symmetric
        a = mixture_delta("-0.4", ([1], [0]), (["0.25", "0.75"], ["2.5", "0"]), cells=300)
        b = delta_of_tradeoff(SubsampledGaussian("0.25", "2.5"), "-0.4")
        assert abs(a - b) > 1e-2
    assert mpmath.mp.dps == 15
