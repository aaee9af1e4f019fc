"""Tradeoff functions and the Lemma 2.3 checks."""

import pytest
from mpmath import mpf

from dpsym.fdp import EpsDelta, Gaussian, PiecewiseLinear, check_tradeoff, dominates
from dpsym.fdp.symbolic import balle_equals_cks, gaussian_renyi_divergence, gdp_delta_from_conjugate
from dpsym.numerics import Phi, precision


@pytest.mark.parametrize("f", [Gaussian(0), Gaussian("0.5"), Gaussian(3), EpsDelta(1, "0.01"),
                               PiecewiseLinear([(0, 1), ("0.37", "0.37"), (1, 0)])])
def test_lemma_2_3_properties_hold(f):
    chk = check_tradeoff(f, n=200, dps=25)
    assert chk.is_tradeoff, chk
    assert chk.symmetric


def test_lemma_2_3_detects_violations():
    nonconvex = PiecewiseLinear([(0, 1), ("0.5", "0.9"), (1, 0)])
    assert not check_tradeoff(nonconvex, n=100).convex
    above_id = PiecewiseLinear([(0, 1), ("0.5", "0.6"), (1, 0)])
    assert not check_tradeoff(above_id, n=100).below_identity
    asym = PiecewiseLinear([(0, 1), ("0.1", "0.5"), (1, 0)])
    assert not check_tradeoff(asym, n=100).symmetric

    class Jump(PiecewiseLinear):
        def __call__(self, x):
            return mpf(1) if mpf(x) == 0 else mpf("0.5") * (1 - mpf(x))

    assert not check_tradeoff(Jump([(0, 1), (1, 0)]), n=50).continuous


def test_gaussian_value_derivative_inverse():
    with precision(40):
        g = Gaussian(1)
        x = mpf("0.2")
        assert abs(g(x) - Phi(-(-1 * 0) + 0)) >= 0  # evaluates
        assert abs(g.inverse(g(x)) - x) < mpf(10) ** -35
        h = mpf(10) ** -15
        numeric = (g(x + h) - g(x - h)) / (2 * h)
        assert abs(g.derivative(x) - numeric) < mpf(10) ** -20
        assert g(0) == 1 and g(1) == 0


def test_dominates_orders_gdp():
    assert dominates(Gaussian("0.5"), Gaussian(1), n=200)[0]
    assert not dominates(Gaussian(1), Gaussian("0.5"), n=200)[0]


def test_bad_input():
    with pytest.raises(ValueError, match="mu=-1"):
        Gaussian(-1)
    with pytest.raises(ValueError, match="x=1.5"):
        Gaussian(1)(1.5)
    with pytest.raises(ValueError, match="delta=2"):
        EpsDelta(1, 2)


@pytest.mark.parametrize("derive", [gdp_delta_from_conjugate, gaussian_renyi_divergence,
                                    balle_equals_cks])
def test_symbolic_derivations_hold(derive):
    assert derive().holds
