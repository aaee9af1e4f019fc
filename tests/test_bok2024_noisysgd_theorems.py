"""Thms 4.8-4.10, Lemma C.12, Thm C.13, Props C.14/C.15, Remark A.8 and the coupling of
the proofs (Bok et al. 2024, Sec. 4.3, App. A.3, C.4)."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from mpmath import mpf

from dpsym.fdp import clt_mu
from dpsym.fdp.duality import delta_of_tradeoff
from dpsym.numerics import Phi, precision
from dpsym.papers.bok2024 import noisysgd as paper
from dpsym.papers.bok2024 import tradeoff_limits
from dpsym.papers.bok2024.noisygd import lem_2_8
from dpsym.papers.bok2024.noisysgd_coupling import coupled_run

SC = {"L": 1, "b": 10, "n": 1000, "sigma": 1, "eta": "0.1", "m": 1, "M": 2}   # c = 0.9


def test_thm_4_8_parameters():
    f = paper.thm_4_8(L=10, b=1500, n=60000, sigma="0.01", t=2000)
    with precision(60):
        assert mpf(1) / 40 <= f.p < mpf(1) / 40 + mpf(10) ** -48    # rounded up
        (mu, k), = f.factors
        assert k == 2000 and mpf(2) / 3 <= mu < mpf(2) / 3 + mpf(10) ** -48
        assert f.gdp == 0
        # the CLT of Lemma A.5 is what clt_mu computes for this single block
        assert abs(f.clt_mu(30) - clt_mu(mpf(1) / 40, mpf(2) / 3, 2000, dps=30)) < 1e-25


def test_thm_4_8_rejects():
    with pytest.raises(ValueError, match=r"b=2000 violates b <= n = 1000"):
        paper.thm_4_8(L=1, b=2000, n=1000, sigma=1, t=5)
    with pytest.raises(ValueError, match="t=0 violates t >= 1"):
        paper.thm_4_8(L=1, b=10, n=1000, sigma=1, t=0)
    with pytest.raises(ValueError, match="sigma=0 violates sigma > 0"):
        paper.thm_4_8(L=1, b=10, n=1000, sigma=0, t=5)


def test_thm_4_9_is_thm_c_13_with_its_shift_choice():
    """Thm 4.9 = Thm C.13 with a_k = eta L/b for tau <= k <= t-1 and 0 below (its proof)."""
    t = 30
    for tau in (1, 7, 29, 30):
        a = ["0.01" if k >= tau else 0 for k in range(1, t)]
        f49 = paper.thm_4_9(**SC, t=t, tau=tau, dps=40)
        f13 = paper.thm_c_13(**SC, a=a, dps=40)
        with precision(40):
            assert abs(f49.gdp - f13.gdp) < 1e-35, tau
        assert dict(f49.factors) == dict(f13.factors), tau


def test_thm_4_9_closed_form_values():
    f = paper.thm_4_9(**SC, t=50, tau=40, dps=40)
    with precision(60):
        c = mpf("0.9")
        expected = 2 * mpmath.sqrt(2) / 10 * (c**11 - c**50) / (1 - c)
        assert abs(f.gdp - expected) < 1e-35 and f.gdp >= expected
    assert [k for _, k in f.factors] == [1, 10]


def test_erratum_t49_tau_zero():
    """At tau = 0 the GDP factor's argument is -(2 sqrt2 L/(b sigma)) c^t < 0."""
    arg = paper.thm_4_9_gdp_argument(SC["L"], SC["b"], SC["sigma"], SC["eta"], SC["m"], SC["M"],
                                     t=20, tau=0, dps=40)
    with precision(40):
        expected = -2 * mpmath.sqrt(2) / 10 * mpf("0.9") ** 20
        assert arg < 0 and abs(arg - expected) < 1e-35
    # tau = 1 is the first admissible value: the argument is exactly 0 there
    assert paper.thm_4_9_gdp_argument(1, 10, 1, "0.1", 1, 2, t=20, tau=1) == 0
    with pytest.raises(ValueError, match="tau=0 violates 1 <= tau <= t"):
        paper.thm_4_9(**SC, t=20, tau=0)
    with pytest.raises(ValueError, match="tau=21 violates 1 <= tau <= t"):
        paper.thm_4_9(**SC, t=20, tau=21)


def test_thm_c_13_requires_admissible_shifts():
    with pytest.raises(ValueError, match="a_2=0.02 violates 0 <= a_k <= eta L/b"):
        paper.thm_c_13(**SC, a=[0, "0.02", 0])
    with pytest.raises(ValueError, match="a_1=-0.001 violates"):
        paper.thm_c_13(**SC, a=["-0.001"])
    # the distances of Thm C.13: z_{t-1} = s(1 - c^{t-1})/(1-c) - sum c^{t-k-1} a_k
    with precision(30):
        z = paper.thm_c_13_distances("0.9", "0.01", ["0.004", "0.01", "0"])
        c, s = mpf("0.9"), mpf("0.01")
        zz = s * (1 - c**3) / (1 - c) - (c**2 * mpf("0.004") + c * mpf("0.01"))
        assert abs(z[-1] - zz) < 1e-25


def test_footnote_10_split():
    f2 = paper.thm_c_13(**SC, a=[0] * 9)
    f10 = paper.thm_c_13(**SC, a=[0] * 9, alpha_sq=10)
    with precision(30):
        assert abs(f10.gdp / f2.gdp - mpmath.sqrt(5)) < 1e-20
        assert abs(f10.factors[0][0] - 2 * mpmath.sqrt(mpf(10) / 9) / 10) < 1e-20
    with pytest.raises(ValueError, match="alpha_sq=1 violates alpha"):
        paper.thm_c_13(**SC, a=[0], alpha_sq=1)


def test_thm_4_10_and_footnote_11():
    f = paper.thm_4_10(L=1, b=10, n=1000, sigma=3, eta="0.1", D=1, t=1000, tau=900, dps=40)
    with precision(40):
        assert abs(f.gdp - mpmath.sqrt(2) / (mpf("0.1") * 3 * 10)) < 1e-35
        assert abs(f.factors[0][0] - 2 * mpmath.sqrt(2) / 30) < 1e-35
    g = paper.thm_4_10(L=1, b=10, n=1000, sigma=3, eta="0.1", D=1, t=1000, tau=900, alpha_sq=10)
    with precision(30):
        assert abs(g.gdp - mpmath.sqrt(10) / (mpf("0.3") * 10)) < 1e-20
        assert abs(g.factors[0][0] - 2 * mpmath.sqrt(10) / 3 / 30) < 1e-20
    with pytest.raises(ValueError, match="tau=1000 violates 0 <= tau <= t - 1"):
        paper.thm_4_10(L=1, b=10, n=1000, sigma=3, eta="0.1", D=1, t=1000, tau=1000)
    with pytest.raises(ValueError, match="eta=0.1 violates eta <= 2/M"):
        paper.thm_4_10(L=1, b=10, n=1000, sigma=3, eta="0.1", D=1, t=10, tau=0, M=30)


def test_one_step_fact_c_symbolic_and_numeric():
    assert paper.thm_4_8_tangency_symbolic().holds
    for lam in ("0", "0.25", "0.5", "0.9", "1"):
        tan = paper.thm_4_8_tangency("0.25", "2.5", lam, dps=40)
        a_printed, s_printed = paper.thm_4_8_fact_c("0.25", "2.5", lam, dps=40)
        mpmath.mp.dps = 40
        assert abs(tan["slope"] + 1) < 1e-35
        assert abs(tan["alpha"] - a_printed) < 1e-35
        assert abs(tan["alpha"] + tan["f"] - s_printed) < 1e-35
        assert abs(tan["f"] - tan["C_p"]) < 1e-30       # on C_p(G(mu)): it touches
        mpmath.mp.dps = 15
    # a mutated constant of fact (c) is caught
    a, _ = paper.thm_4_8_fact_c("0.25", "2.5", "0.5", dps=30)
    with precision(30):
        wrong = mpf("0.25") * Phi(-mpf("1.25")) + mpf("0.75") * Phi(mpf("0.25"))
    assert abs(a - wrong) > 1e-2


def test_one_step_instance_is_above_cp():
    """Thm 4.8 at t = 1 on the instance f^(lambda): f^(lambda) >= C_p(G(mu)) (and touches)."""
    cp = paper.def_4_7_gaussian("0.25", "2.5")
    with precision(20):
        for lam in ("0", "0.5", "1"):
            gaps = []
            for z in np.linspace(-6, 6, 49):
                a, b = paper.one_step_tradeoff("0.25", "2.5", lam, float(z), dps=20)
                gaps.append(b - cp(a))
            assert min(gaps) > -1e-15
            assert min(gaps) < 1e-3


def test_lemma_c_12_and_footnote_9():
    """T(VW + Z, VW' + Z) >= C_p(G(2s/sigma)) for constant and random bounded W, W'; the
    opposite constants of footnote 9 are the worst of the family and strictly above C_p."""
    s, sigma, p = "0.5", "1", "0.3"
    cp = paper.lem_c_12(s, sigma, p)
    pairs = {"opposite": (([1], ["-0.5"]), ([1], ["0.5"])),
             "same": (([1], ["0.5"]), ([1], ["0.5"])),
             "one zero": (([1], ["0"]), ([1], ["0.5"])),
             "random": ((["0.4", "0.6"], ["-0.5", "0.2"]), (["0.5", "0.5"], ["0.3", "-0.1"]))}
    with precision(20):
        for eps in ("-0.3", "0", "0.2", "0.6"):
            bound = delta_of_tradeoff(cp, eps)
            vals = {k: paper.lem_c_12_pair_delta(eps, s, sigma, p, W, Wp, cells=300)
                    for k, (W, Wp) in pairs.items()}
            assert max(vals.values()) <= bound + 1e-15
            assert vals["opposite"] == max(vals.values())
            if eps != "0":   # equal total variation at eps = 0: p (2 Phi(s/sigma) - 1)
                assert vals["opposite"] < bound - 1e-3   # the lemma is not tight (fn. 9)
    with pytest.raises(ValueError, match=r"\|W\| <= s"):
        paper.lem_c_12_pair_delta("0", s, sigma, p, ([1], ["0.7"]), ([1], ["0"]))


def test_prop_c_14_c_15_symbolic():
    assert paper.prop_c_14_symbolic().holds
    assert paper.prop_c_15_symbolic().holds
    assert paper.thm_4_10_at22_scaling().holds
    d = paper.thm_4_10_at22_scaling()
    assert str(d.derived) == "8" and str(d.target) == "1/2"


@pytest.mark.parametrize("kwargs", [
    {"L": 50, "b": 100, "n": 10000, "sigma": 3, "eta": "0.1", "D": 1},
    {"L": 1, "b": 40, "n": 4000, "sigma": 1, "eta": "0.05", "D": 2},
])
def test_prop_c_15_integer_argmin(kwargs):
    r = paper.prop_c_15(**kwargs)
    k0 = r.k_integer
    vals = {k: paper.prop_c_15_mu(**kwargs, k=k, dps=30) for k in range(k0 - 30, k0 + 31)}
    assert min(vals, key=vals.get) == k0
    assert abs(r.k_printed - k0) < 1


def test_prop_c_14_integer_argmin_and_clipping():
    kw = {"L": 10, "b": 1500, "n": 60000, "sigma": "0.01", "eta": "0.05", "m": "0.2", "M": 1}
    r = paper.prop_c_14(**kw)
    c = lem_2_8("0.05", "0.2", 1)
    vals = {k: paper.prop_c_14_mu(10, 1500, 60000, "0.01", c, k, dps=30)
            for k in range(r.k_integer - 20, r.k_integer + 21)}
    assert min(vals, key=vals.get) == r.k_integer
    clipped = paper.prop_c_14(**kw, t=100)
    assert clipped.k_integer == 99


def test_remark_a_8_exact():
    for n in range(2, 25):
        for i in range(0, 41):
            a = Fraction(i, 40)
            assert tradeoff_limits.rem_a_8(n, a) == tradeoff_limits.rem_a_8_exact(n, a)
        assert tradeoff_limits.rem_a_8_tv(n) == Fraction(1, n)
    assert tradeoff_limits.rem_a_8_exact(None, 0) == Fraction(1, 2)
    assert tradeoff_limits.rem_a_8_exact(10**6, 0) == 1
    assert tradeoff_limits.rem_a_8_exact(None, Fraction(1, 3)) == Fraction(1, 3)
    assert tradeoff_limits.rem_a_8_limit(0) == 1 != tradeoff_limits.rem_a_8_exact(None, 0)


@pytest.mark.parametrize("seed", range(4))
def test_coupling_invariants(seed):
    r = coupled_run("C.13", seed=seed, coupled_datasets=bool(seed % 2))
    assert r.worst_slack <= 1e-12
    r = coupled_run("4.10", tau=seed * 3, seed=seed, coupled_datasets=bool(seed % 2))
    assert r.worst_slack <= 1e-12
    assert np.allclose(r.X_tilde[-1], r.X[-1], atol=1e-12)


def test_coupling_bound_is_not_vacuous():
    """With every step hitting i* and a zero-noise quadratic instance, the distance reaches
    the bound's order (the invariant would fail for a halved bound)."""
    r = coupled_run("C.13", n=3, b=2, t=12, tau=11, sigma=0.0, seed=1, extreme=True)
    ok = np.isfinite(r.bound) & (r.bound > 0)
    assert np.max(r.distance[ok] / r.bound[ok]) > 1 - 1e-9
