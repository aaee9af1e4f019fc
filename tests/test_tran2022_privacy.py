"""Tran & Cutkosky 2022: privacy (Thms 4, 8, 10), node counts and sensitivities."""

from __future__ import annotations

import mpmath
import pytest
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import Node, sigma_for_gdp, sigma_for_zcdp
from dpsym.errors import HypothesisError
from dpsym.papers.tran2022 import dp_nsgd as alg1
from dpsym.papers.tran2022 import sensitivity_reduced as alg2
from dpsym.papers.tran2022 import tree_composition as tc


def test_alg_1_V_and_its_bounds():
    assert alg1.alg_1_V(4, 16) == 15
    assert alg1.alg_1_V(1, 8) == 8 + 4 + 2 + 1
    assert alg1.alg_1_depth(8) == 4 and alg1.alg_1_depth(7) == 3
    for N in (2, 3, 5, 8, 17, 64, 100, 1000):
        for m in (1, 2, 3, 7, 16, 50):
            T = N * m
            V = alg1.alg_1_V(N, T)
            with mpmath.workdps(30):
                v = mpf(V.numerator) / V.denominator
                assert v <= 4 * mpf(T) / N * mpmath.log(N, 2)  # App. E.1's bound
                assert v <= 4 * mpf(T) / N * mpmath.log(T, 2)  # App. D.2's bound
    # Both bounds fail at N = 1 (log2 1 = 0): V = 2T - 1 there.
    assert alg1.alg_1_V(1, 8) == 15


def test_thm_4_sigma_and_conversion_steps():
    with mpmath.workdps(40):
        s = alg1.thm_4_sigma(1, "1e-5", dps=30)
        assert abs(s - 2 * mpmath.sqrt(mpmath.log(mpf(10) ** 5))) < mpf(10) ** -28
        # The printed quadratic-formula threshold is the exact zCDP threshold.
        thr = alg1.thm_4_sigma_threshold(1, "1e-5", dps=30)
        assert abs(thr - sigma_for_zcdp(1, "1e-5", dps=30)) < mpf(10) ** -25
        # ... below the simplified one, below the printed one (for delta <= e^-eps).
        assert thr <= alg1.thm_4_sigma_simplified(1, "1e-5", dps=30) <= s
        # The tight GDP threshold is smaller still.
        assert sigma_for_gdp(1, "1e-5", dps=30) < thr
    with pytest.raises(HypothesisError):
        alg1.thm_4_sigma(0, "1e-5")
    with pytest.raises(HypothesisError):
        alg1.thm_4_sigma(1, 1)


def test_delta_condition_direction():
    # With delta <= e^-eps the printed sigma suffices (RDP route) ...
    for eps in ("0.1", "1", "5"):
        for factor in (1, 2, 10, 100):
            with mpmath.workdps(30):
                delta = mpmath.exp(-mpf(eps) * factor)
            assert alg1.thm_4_rdp_epsilon_at_printed_sigma(eps, delta) <= mpf(eps)
    # ... while the printed direction delta >= e^-eps admits eps = 1, delta = 0.99:
    assert alg1.thm_4_rdp_epsilon_at_printed_sigma(1, "0.99") > 13
    # and at eps = 20, delta = 0.5 even the exact Gaussian tradeoff curve misses (20, 0.5).
    g = alg1.thm_4(alg1.thm_4_sigma(20, "0.5"))
    assert g.epsilon("0.5") > 20
    # The exact threshold: ell >= (1/4 + sqrt(2)/8) eps, and (3/20 + 3 sqrt(6)/80) eps for k = 3.
    assert alg1.thm_4_delta_threshold(1, 2) == sp.Rational(1, 4) + sp.sqrt(2) / 8
    assert alg1.thm_4_delta_threshold(3, 4) == sp.Rational(3, 20) + 3 * sp.sqrt(6) / 80
    c = float(alg1.thm_4_delta_threshold(1, 2))
    for eps in (1, 3):
        ok = mpmath.exp(-eps * c * (1 + 1e-9))
        bad = mpmath.exp(-eps * c * (1 - 1e-6))
        assert alg1.thm_4_rdp_epsilon_at_printed_sigma(eps, ok) <= eps
        assert alg1.thm_4_rdp_epsilon_at_printed_sigma(eps, bad) > eps


def test_thm_4_gdp_vs_rdp_at_the_papers_sigma():
    sigma = alg1.thm_4_sigma(1, "1e-5")
    g = alg1.thm_4(sigma)
    e_gdp, e_rdp, e_zcdp = (g.epsilon("1e-5", r) for r in ("gdp", "rdp", "zcdp"))
    assert e_gdp < e_rdp < e_zcdp < 1
    with mpmath.workdps(40):
        # zCDP route, closed form at rho = 1/(2 sigma^2) = 1/(8 ell) (oracle): 1/(8 ell) + 1/sqrt 2
        ell = mpmath.log(mpf(10) ** 5)
        assert abs(e_zcdp - (1 / (8 * ell) + 1 / mpmath.sqrt(2))) < mpf(10) ** -40
    assert mpf("0.5197") < e_gdp < mpf("0.5198")


def test_thm_8_budget_count():
    sig = alg2.thm_8_sigma(1, "1e-5")
    with mpmath.workdps(60):
        assert abs(sig - 2 * alg1.thm_4_sigma(1, "1e-5")) < mpf(10) ** -45
    e3, e4 = (alg2.thm_8(sig, k).epsilon("1e-5", "zcdp") for k in (3, 4))
    assert e3 < e4 < 1
    # k budgets at sigma = 4 sqrt(ell)/eps with ell = eps: eps_RDP/eps = k/32 + sqrt(k/8)
    for k in (3, 4, 5, 6):
        with mpmath.workdps(30):
            ratio = alg1.thm_4_rdp_epsilon_at_printed_sigma(1, mpmath.exp(-1), k, 4)
            assert abs(ratio - (mpf(k) / 32 + mpmath.sqrt(mpf(k) / 8))) < mpf(10) ** -25
        assert (ratio <= 1) == (k <= 5)


def test_v_le_2n_counts():
    counts = {N: alg2.v_le_2n_count(N) for N in range(2, 11)}
    assert counts == {2: 5, 3: 5, 4: 7, 5: 7, 6: 7, 7: 7, 8: 9, 9: 9, 10: 9}
    for N, c in counts.items():
        v_le, _ = alg2.alg_2_V(N, 2 * N)
        assert (c > v_le) == (N <= 5)
        used, granted = alg2.thm_8_g_budget_le_2n(N, mpf(1) / N)
        assert used < granted / 2  # delta_G = 4G is twice the per-occurrence 2G


def test_alg_2_has_no_noise_at_n_1():
    assert alg2.alg_2_V(1, 10) == (0, 0)
    assert alg2.alg_2_node_std("G", Node(1, 1), 1, 10, 5, 1, 1, "0.1") == 0


def test_node_sensitivity_undercount():
    # App. D.1 counts ceil(|z - y| / N) occurrences N steps apart; placements allow one more,
    # one step apart: node [1, 64] with N = 7, alpha = 1/7 exceeds 4 alpha G.
    v, N, a = Node(1, 64), 7, mpf(1) / 7
    printed = alg1.thm_4_node_sensitivity(v, N, a)
    worst = alg1.thm_4_node_sensitivity_worst(v, N, a)
    assert printed <= 4 * a < worst
    assert abs(worst / a - mpf("4.597")) < mpf("0.001")
    # The printed count ceil(|z - y| / N) is 0 at a leaf: an off-by-one as well.
    assert alg1.thm_4_node_sensitivity(Node(1, 1), 3, "0.5") == 0
    assert alg1.thm_4_node_sensitivity_worst(Node(1, 1), 3, "0.5") == 1


@pytest.mark.parametrize("N,T", [(2, 16), (3, 12), (4, 16), (5, 20)])
def test_thm_4_record_budget_holds(N, T):
    r = alg1.thm_4_record_budget(N, T, mpf(1) / N)
    assert r.exhaustive and r.holds and r.used < r.granted / 2


def test_thm_10_and_its_conversion():
    g = tc.thm_10(16, "0.25", dps=30)
    with mpmath.workdps(40):
        assert abs(g.rdp(3) - mpf("1.5")) < mpf(10) ** -28
    c = tc.thm_10_conversion(1, "0.25", "1e-10", dps=30)
    assert c.hypothesis_holds
    # The printed intermediate is below what this very Gaussian mechanism needs (V = 1: a
    # single Gaussian release with sensitivity over noise 1/4) ...
    assert c.printed_intermediate * mpf("1.15") < c.exact_gdp < c.at_order <= c.printed_final
    c2 = tc.thm_10_conversion(1, 1, "1e-5", dps=30)
    assert c2.exact_gdp < c2.printed_intermediate  # (not everywhere)
    s = tc.thm_10_conversion_symbolic()
    assert s.exact.holds
    u, ell = sp.symbols("u ell", positive=True)
    assert sp.simplify(s.final_minus_exact - ell * u * (1 - u) / 2) == 0
    assert sp.simplify(s.printed_minus_exact + ell * u * (1 - u) / 2) == 0
    with pytest.raises(HypothesisError):
        tc.thm_10_conversion(1, 1, 2)


def test_gaussian_renyi_product():
    quad, closed = tc.gaussian_renyi_product(3, ("0.5", "-1.2"), "1.3", dps=25)
    assert abs(quad - closed) < mpf(10) ** -20


def test_thm_10_proof_integral():
    r = tc.thm_10_proof_integral(3, "0.5", "1.3", "1.3", dps=30)
    with mpmath.workdps(40):
        assert abs(r.correct - r.claimed) < mpf(10) ** -25
        assert r.printed - r.claimed > mpf("0.1")
    with pytest.raises(HypothesisError):
        tc.thm_10_proof_integral(1, "0.5", 1, 1)
