"""MNIST accounting of Bok et al. 2024 (Tables 1, 3, 4), the CLT, YS22 and App. A.1."""

from fractions import Fraction

import pytest
from mpmath import mpf

from dpsym.fdp import clt_K, clt_mu
from dpsym.numerics import precision
from dpsym.papers import bok2024 as paper
from dpsym.rdp.conversions import epsilon_from_rdp, zcdp_curve_epsilon


def test_clt_small_mu_matches_poisson_limit():
    # K(mu) ~ mu^2/2, so sqrt(2) p sqrt(t) sqrt(K) ~ p sqrt(t) mu
    with precision(40):
        assert abs(clt_mu("0.01", "1e-6", 10000, dps=40) / mpf("1e-6") - 1) < mpf("1e-5")
        assert clt_K(0) == 0


@pytest.mark.parametrize("kw, name", [({"p": 0}, "p"), ({"p": "1.5"}, "p"), ({"mu": -1}, "mu")])
def test_clt_bad_input(kw, name):
    args = {"p": "0.1", "mu": 1, "t": 10} | kw
    with pytest.raises(ValueError, match=name):
        clt_mu(**args)


def test_alc_conversion_round_trip_and_validity():
    with precision(30):
        e = epsilon_from_rdp(3, "0.4", "1e-6", "alc2021_lemma1", dps=30)
        d = mpf("1e-6")
        from dpsym.rdp.conversions import delta_from_rdp
        back = delta_from_rdp(3, "0.4", e, "alc2021_lemma1", dps=30)
        assert abs(back / d - 1) < mpf("1e-20")
        assert e >= epsilon_from_rdp(3, "0.4", "1e-6", "asoodeh2021", dps=30)


def test_zcdp_curve_bs16_equals_mironov_optimum():
    # min_alpha rho alpha + log(1/delta)/(alpha-1) = rho + 2 sqrt(rho log(1/delta))
    out = zcdp_curve_epsilon("0.3", "1e-5", dps=30)
    with precision(30):
        assert abs(out["mironov2017"] - out["bun_steinke2016"]) < mpf("1e-12")
        assert out["min"] == min(out[k] for k in out if k != "min")


def test_mnist_contraction_assumption():
    assert paper.mnist_contraction("0.002") == Fraction(9999, 10000)
    assert paper.mnist_contraction("0.004", M=39) == Fraction(9998, 10000)
    with pytest.raises(ValueError, match="M=41"):
        paper.mnist_contraction("0.002", M=41)


def test_ys22_rho_bad_input():
    with pytest.raises(ValueError, match="c=1"):
        paper.ys22_thm_3_3_rho("0.5", 1, 40, 10)
    with pytest.raises(ValueError, match="l"):
        paper.ys22_thm_3_3_rho("0.5", "0.9", 1, 10)


def test_ours_beats_prior_rdp_and_composition():
    # The paper's message (Tables 1, 4): ours < RDP < composition in eps at every E
    t4 = paper.table_4(dps=20)
    for E, (comp, r2, r4, o2, o4) in t4.items():
        assert o2 < r2 < comp and o4 < r4 < comp, E


def test_prv_p_equal_one_matches_gaussian_composition():
    from dpsym.fdp import gdp_epsilon
    from dpsym.fdp.prv import compose_subsampled_gaussian

    law = compose_subsampled_gaussian(1.0, 0.3, 16, h=1e-4)
    lo, hi = law.epsilon_interval(1e-5)
    exact = float(gdp_epsilon("1.2", "1e-5", dps=20))   # 0.3 sqrt(16) = 1.2
    assert lo <= exact <= hi and hi - lo < 0.01


def test_prv_atom_and_symmetry():
    import numpy as np

    from dpsym.fdp.prv import prv_atom, prv_cdf

    p, mu = 0.1, 1.0
    jump = prv_cdf(np.array([1e-13]), p, mu)[0] - prv_cdf(np.array([-1e-13]), p, mu)[0]
    assert abs(jump - prv_atom(p, mu)) < 1e-9
    # dY = e^t dX with X = -Y: the density of Y at t is e^t times its density at -t
    t, d = 0.7, 1e-5
    fy = (prv_cdf(np.array([t + d]), p, mu) - prv_cdf(np.array([t - d]), p, mu))[0]
    fx = (prv_cdf(np.array([-t + d]), p, mu) - prv_cdf(np.array([-t - d]), p, mu))[0]
    assert abs(fy / fx - np.exp(t)) < 1e-5


def test_prv_bad_input():
    from dpsym.fdp.prv import compose_subsampled_gaussian

    with pytest.raises(ValueError, match="p"):
        compose_subsampled_gaussian(0.0, 1.0, 10)
    with pytest.raises(ValueError, match="t"):
        compose_subsampled_gaussian(0.5, 1.0, 0)
