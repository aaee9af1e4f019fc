"""Bravo et al. 2025: Corollaries 3.7-3.9, mixing (Sec. 4, App. C), privacy (Sec. 5, App. A.3)."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mpf
from scipy.stats import binom

from dpsym.claims import all_claims
from dpsym.figures import all_figures
from dpsym.langevin import GridKernel, abs_subgradient, binned_tv, projected_gaussian_kl, simulate
from dpsym.numerics import agreeing_digits, precision
from dpsym.papers.bravo2025 import corollaries as cor
from dpsym.papers.bravo2025 import mixing as mix
from dpsym.papers.bravo2025 import privacy as pri
from dpsym.shifts.pabi import optimal_value

# --- Corollaries 3.7-3.9 ---------------------------------------------------------------------


@settings(max_examples=15, deadline=None)
@given(T=st.integers(1, 12), c=st.fractions(Fraction(1, 10), Fraction(3)),
       h=st.fractions(0, 2), s2=st.fractions(Fraction(1, 10), 4))
def test_corollaries_equal_theorem_3_4(T, c, h, s2):
    with precision(40):
        e39 = cor.cor_3_9(2, s2, 1, T, c, h, dps=40)
        assert abs(e39 - optimal_value(1, [c] * T, [h] * T, [s2] * T, dps=40)) <= 1e-30 * e39
        e38 = cor.cor_3_8(2, s2, 1, T, c, dps=40)
        assert abs(e38 - optimal_value(1, [c] * T, [0] * T, [s2] * T, dps=40)) <= 1e-30 * e38
        e37 = cor.cor_3_7(2, s2, 1, T, h, dps=40)
        assert abs(e37 - optimal_value(1, [1] * T, [h] * T, [s2] * T, dps=40)) <= 1e-30 * e37


def test_cor_3_7_forms_and_values():
    with precision(30):
        s = cor.cor_3_7(1, "0.2", 1, 6, "0.04", dps=30)
        # (D^2/T + h H_6) / (2 sigma^2) with H_6 = 49/20
        assert abs(s - (mpf(1) / 6 + mpf("0.04") * 49 / 20) / mpf("0.4")) < 1e-28
        assert cor.cor_3_7(1, "0.2", 1, 6, "0.04", form="log", dps=30) >= s


def test_cor_3_8_transition_is_continuous():
    with precision(50):
        at1 = cor.cor_3_8(1, 1, 1, 10, 1)
        for c in ("0.99999999999999999999", "1.00000000000000000001"):
            assert agreeing_digits(cor.cor_3_8(1, 1, 1, 10, c), at1) >= 18
        assert cor.cor_3_8(1, 1, 1, 10, 1) == cor.cor_3_8(1, 1, 1, 10, Fraction(1))


def test_comparisons_with_prior_bounds():
    with precision(30):
        for c in ("0.3", "0.9", "0.999"):
            for T in (1, 5, 100):
                r = cor.cor_3_8_ratio(c, T, dps=30)
                assert mpf(1) / T - mpf(10) ** -25 <= r <= 1 + mpf(10) ** -25
                assert cor.cor_3_8(1, 1, 1, T, c) <= cor.altschuler_talwar_2023(1, 1, 1, T, c)
        for c in ("1.01", "2"):
            for T in (1, 5, 100):
                ours = cor.cor_3_8(1, 1, 1, T, c)
                assert cor.balle_2019(1, 1, 1, T, c) >= mpf(c) * ours * (1 - mpf(10) ** -40)
        # (7) converges for c > 1
        assert abs(cor.cor_3_8(1, 1, 1, 2000, 2) - mpf(1) / 2) < 1e-40


def test_cor_3_9_estimates():
    with precision(30):
        assert cor.cor_3_9_sum(Fraction(3, 2), 2, dps=30) == mpf(8) / 5
        assert cor.cor_3_9_lower_estimate(Fraction(3, 2), 2) > mpf(8) / 5
        for c in ("0.2", "0.9", "1"):
            for T in (1, 2, 7, 40):
                s = cor.cor_3_9_sum(c, T)
                assert cor.cor_3_9_lower_estimate(c, T) <= s <= cor.cor_3_9_upper_estimate(c, T)
        cstar = cor.lower_estimate_crossing(2, dps=20)
        assert 1.35 < cstar < 1.36
        assert cor.cor_3_9_sum(cstar * mpf("0.999"), 2) >= cor.cor_3_9_lower_estimate(
            cstar * mpf("0.999"), 2)
        assert cor.cor_3_9_sum(cstar * mpf("1.001"), 2) < cor.cor_3_9_lower_estimate(
            cstar * mpf("1.001"), 2)


@pytest.mark.parametrize("call, name", [
    (lambda: cor.cor_3_7(1, -1, 1, 5, 0), "sigma2"),
    (lambda: cor.cor_3_7(1, 1, 1, 5, -1), "h"),
    (lambda: cor.cor_3_7(1, 1, 1, 0, 0), "T"),
    (lambda: cor.cor_3_7(1, 1, 1, "2.5", 0), "T"),
    (lambda: cor.cor_3_8(1, 1, 1, 5, 0), "c"),
    (lambda: cor.cor_3_8("0.5", 1, 1, 5, 2), "alpha"),
    (lambda: cor.cor_3_9(1, 1, 0, 5, 1, 1), "D"),
    (lambda: cor.cor_3_9(1, 1, 1, 5, 1, 1, form="int"), "form"),
    (lambda: cor.cor_3_8(1, 1, 1, 5, float("nan")), "c"),
])
def test_corollaries_bad_input(call, name):
    with pytest.raises(ValueError, match=name):
        call()


# --- mixing ----------------------------------------------------------------------------------


def test_theta_values_and_limits():
    with precision(30):
        assert mix.eq_10(0, 2, 2) == 27
        assert mix.eq_10(1, 2, 1) == 1
        near = mix.eq_10("0.999999999", 3, 2)
        assert abs(near - mpf("1.5")) < 1e-6
        p0 = mix.eq_10(0, 4, 10)
        assert abs(p0 - 4 * 16 * mpmath.log(mpmath.sqrt(2 * mpmath.e) * 20)) < 1e-25
    for d in mix.eq_10_limits() + tuple(mix.lem_4_1_inequalities()):
        assert d.holds, d.notes


def test_lemma_4_1_and_theorem_4_2():
    res = mix.lem_4_1(0, 2, 2, Fraction(1, 27))
    assert res.T == 108 and res.tv <= mpf(1) / 2 and res.kl <= mpf(1) / 2
    with pytest.raises(ValueError, match="eta"):
        mix.lem_4_1(0, 2, 2, "0.04")  # 1/eta = 25 < Theta = 27
    assert mix.thm_4_2(0, 2, 2, Fraction(1, 27), "0.25") == 216
    assert mix.thm_4_2(0, 2, 2, Fraction(1, 27), "0.3") == 216
    assert mix.thm_4_2(0, 2, 2, Fraction(1, 27), "0.2") == 324
    assert mix.thm_4_2(0, 2, 2, Fraction(1, 27), 1) == 0
    with pytest.raises(ValueError, match="eps"):
        mix.thm_4_2(0, 2, 2, Fraction(1, 27), 0)
    with pytest.raises(ValueError, match="p"):
        mix.eq_10("1.5", 2, 2)


def test_eq_9_against_theorem_3_4_and_pinsker():
    with precision(40):
        h = mpf("0.0004")
        v = mix.eq_9(2, "0.01", 30, h, form="sum", dps=40)
        assert abs(v - optimal_value(2, [1] * 30, [h] * 30, ["0.02"] * 30, dps=40) / 2) < 1e-35
        assert mix.pinsker(8) == 1
        assert mix.pinsker("0.5") == mpf("0.5")


def test_holder_constant_and_adaptivity():
    xs = np.linspace(-1, 1, 801)
    m = mix.holder_constant_estimate(mix.sqrt_plus_quadratic_gradient(0.0), 0.5, xs)
    assert abs(m - np.sqrt(2)) < 1e-3  # |sqrt x + sqrt y| <= sqrt(2) sqrt(x + y)
    prof = mix.adaptivity_profile("0.01", [0.0, 0.25, 0.5], mix.sqrt_plus_quadratic_gradient(0.0),
                                  xs)
    assert prof[0][2] > prof[1][2] > prof[2][2]  # small steps favour the largest p


def test_lemma_c_1_counterexample():
    kl, printed, fixed = mix.lem_c_1_counterexample(dps=30)
    assert printed < kl <= fixed
    kl40, _, _ = mix.lem_c_1_counterexample(dps=40)
    assert agreeing_digits(kl, kl40) >= 25


def test_grid_kernel_and_simulation():
    g = abs_subgradient(1.0)
    k = GridKernel.build(0.05, g, cells=100)
    assert np.allclose(k.matrix.sum(axis=1), 1)
    pi = k.stationary()
    assert abs(pi.sum() - 1) < 1e-12 and np.allclose(pi @ k.matrix, pi, atol=1e-13)
    assert np.allclose(pi, pi[::-1], atol=1e-12)  # f = |x| is even
    a = simulate(1.0, 0.05, [5, 10], 500, g, seed=3)
    b = simulate(1.0, 0.05, [10], 500, g, seed=3)
    assert np.array_equal(a[10], b[10])
    assert np.all(np.abs(a[10]) <= 1)
    est = binned_tv(a[10], k.coarsen(k.laws(k.cells + 1, [10])[10], 20))
    assert est.value <= 2 * est.bias_bound + 4 * est.sd_bound
    with pytest.raises(ValueError, match="eta"):
        GridKernel.build(-1, g)


def test_projected_gaussian_kl():
    with precision(30):
        assert projected_gaussian_kl("0.3", "0.3", 1) == 0
        kl = projected_gaussian_kl("0.1", "-0.1", "0.5")
        assert 0 < kl <= mpf("0.04")  # data processing: <= (m1-m2)^2/(2 s2)
        wide = projected_gaussian_kl("0.1", "-0.1", "0.01", a=-50, b=50)
        assert abs(wide - 2) < 1e-20  # the interval is irrelevant: (0.2)^2/(2*0.01)


def test_pla_experiment_is_deterministic():
    e1 = mix.pla_mixing_experiment()
    e2 = mix.pla_mixing_experiment()
    assert e1.mc == e2.mc
    assert e1.theta == 27
    for m, g in zip(e1.mc, e1.grid_binned, strict=True):
        assert abs(m[0] - g) <= 2 * m[1] + m[2]


# --- privacy ---------------------------------------------------------------------------------


def test_alpha_star_and_lemma_a_18():
    with precision(30):
        a = pri.alpha_star("0.01", 4, dps=30)
        g1, g2 = pri.lem_a_18_conditions(a, "0.01", 4, dps=30)
        assert min(g1, g2) >= 0 and min(g1, g2) < 1e-20
        g1, g2 = pri.lem_a_18_conditions(a + mpf("1e-10"), "0.01", 4, dps=30)
        assert min(g1, g2) < 0
        assert abs(pri.lem_a_18(2, "0.01", 4) - mpf(2) * 2 * mpf("0.0001") / 16) < mpf(10) ** -32
    with pytest.raises(ValueError, match="alpha"):
        pri.lem_a_18(100, "0.01", 4)
    with pytest.raises(ValueError, match="q"):
        pri.alpha_star("0.3", 4)
    with pytest.raises(ValueError, match="sigma"):
        pri.alpha_star("0.01", 3)


def test_sampled_gaussian_direction():
    ours = pri.def_a_16(3, "0.05", 2, dps=20)
    assert 0 < ours <= pri.lem_a_17(3, "0.05", 2, dps=20)
    # the radius enters only through sigma / r
    assert pri.lem_a_17(3, "0.05", 4, r=2, dps=20) == pri.lem_a_17(3, "0.05", 2, dps=20)


def test_theorem_5_2():
    assert pri.thm_5_2_tbar(1, 1000, "0.001", 1) == 250000
    assert pri.thm_5_2_tbar(1, 1000, "0.003", 1) == 83334
    args = dict(L=1, n=1000, b=10, eta="0.01", sigma=2, D=1, M=2)
    e = pri.thm_5_2(2, p="0.5", **args)
    with precision(50):
        tbar = 25000
        h = 4 * mpf(1) / 3 * mpf("0.01") ** 4
        direct = 2 / mpf(4) * (16 * mpf(tbar) / 10 ** 6 + 1 / (mpf("0.0001") * tbar)
                               + h / mpf("0.0001") * mpmath.log(tbar * mpmath.e))
        assert abs(e - direct) < 1e-45
        assert e <= pri.rem_5_3(2, 1, 1000, 2, "0.01", 1, 2, "0.5", 10 ** 6)
    with pytest.raises(ValueError, match="sigma"):
        pri.thm_5_2(2, p=0, **{**args, "sigma": 1})
    with pytest.raises(ValueError, match="T"):
        pri.thm_5_2(2, p=0, T=10, **args)
    with pytest.raises(ValueError, match="b"):
        pri.thm_5_2(2, p=0, **{**args, "b": 300})
    with pytest.raises(ValueError, match="eta"):
        pri.rem_5_3_V(1, 2, "1.5", 1000, 1, 1)  # p = 1 needs eta M <= 2
    # composition is the cap for T < Tbar
    assert pri.rem_5_3(2, 1, 1000, 2, "0.01", 1, 2, 0, 100) == pri.composition_bound(
        2, 1, 1000, 2, 100)


def test_theorem_5_2_with_exact_sampling_is_smaller():
    for p in ("0", "0.5"):
        paper = pri.thm_5_2(2, 1, 1000, 10, "0.01", 2, 1, 2, p, dps=30)
        exact, R = pri.thm_5_2_exact_sampling(2, 1, 1000, 10, "0.01", 2, 1, 2, p, 10 ** 6, dps=30)
        assert 0 < exact <= paper and 1 <= R <= 10 ** 6
    # no sigma/alpha hypothesis is needed without Lemma A.18; T bounds the window
    exact, R = pri.thm_5_2_exact_sampling(2, 1, 1000, 1, 1, "0.5", 1, 2, "0.5", 7, dps=20)
    assert R <= 7 and exact > 0


def test_figure_1_numbers_of_digest_section_4():
    """The reconstruction table of the digest (section 4), to its printed digits."""
    def v(p, eta):
        return float(pri.figure_1_value(p, eta, dps=20))

    assert f"{v(0, '0.001'):.4g}" == "3.857e+06"
    assert f"{v(0, repr(10 ** -1.5)):.3g}" == "2.51e+06"
    assert f"{v(0, '0.1'):.4g}" == "2.211e+06"
    assert f"{v('0.2', '0.001'):.4g}" == "5.708e+05"
    assert f"{v('0.4', '0.001'):.4g}" == "5.001e+05"
    assert f"{v('0.4', repr(10 ** -1.5)):.3g}" == "2.65e+04"
    assert f"{v('0.6', repr(10 ** -1.5)):.3g}" == "1.58e+04"
    assert f"{v('0.6', '0.1'):.4g}" == "5552"
    assert f"{v('0.8', '0.1'):.4g}" == "5000" and v(1, "0.1") == 5000
    etas = np.logspace(-3, -1.5, 301)
    assert f"{min(v('0.2', repr(float(e))) for e in etas):.4g}" == "2.314e+05"
    assert round(np.log10(np.log(v(0, "0.001"))), 3) == 1.181
    assert round(np.log10(np.log(v(1, "0.1"))), 3) == 0.930


def test_theorem_5_4_and_conversion():
    assert pri.thm_5_4_tbar_min("0.1", 1) == 4  # 1.1^8 = 2.14 >= 2 > 1.1^6
    with precision(30):
        e = pri.thm_5_4(2, 1, 1000, 50, "0.1", 1, 1, 1, Tbar=4)
        assert abs(e - 2 * (52 * mpf(4) / 10 ** 6 + 40 + 2)) < 1e-25
        for R in (4, 10, 100):
            assert pri.thm_5_4_pabi_term(2, 1, "0.1", 1, 1, R) <= 2 * (40 + 2) * (1 + 1e-25)
    with pytest.raises(ValueError, match="Tbar"):
        pri.thm_5_4(2, 1, 1000, 50, "0.1", 1, 1, 1, Tbar=3)
    with pytest.raises(ValueError, match="b"):
        pri.thm_5_4(2, 1, 1000, 200, "0.1", 1, 1, 1, Tbar=4)
    with pytest.raises(ValueError, match="sigma"):
        pri.thm_5_4(2, 1, 1000, 50, "0.1", "0.1", 1, 1, Tbar=4)
    eps, alpha, valid = pri.eq_22(1, 1000, 50, "0.1", 1, 1, 1, 4, "1e-5")
    assert valid and alpha > 1 and eps > 0
    # erratum S1: the printed condition admits a delta for which (23) fails
    A = 52 * mpf(4) / 10 ** 6 + 42
    sig = 2 * mpmath.sqrt(10) / 5
    ell = pri.s1_condition_printed(A, 1000, 5)
    assert not pri.eq_23_holds(1, 1000, 5, "0.1", sig, 1, 1, 4, mpmath.exp(-ell))
    ell_ok = pri.s1_condition_corrected(A, 1000, 5, sig, 1)
    assert pri.eq_23_holds(1, 1000, 5, "0.1", sig, 1, 1, 4, mpmath.exp(-ell_ok))


def test_poisson_batch_excess():
    with precision(30):
        tail, over = pri.poisson_batch_excess(1000, 50, 10, dps=30)
        assert abs(float(tail) - binom.sf(50, 1000, 0.05)) < 1e-12
        assert abs(over - (1 - (1 - tail) ** 10)) < mpf(10) ** -25
        direct = mpmath.fsum(mpmath.binomial(1000, k) * mpf("0.05") ** k * mpf("0.95") ** (1000 - k)
                             for k in range(51, 1001))
        assert abs(tail - direct) < mpf(10) ** -25
    ach, claimed = pri.s4_modulus_violation("0.01", 1, 50, 60)
    assert ach > claimed
    with pytest.raises(ValueError, match="b"):
        pri.poisson_batch_excess(10, 11)


def test_symbolic_privacy_algebra():
    for f in (pri.thm_5_2_symbolic, pri.thm_5_4_symbolic, pri.eq_22_symbolic):
        for d in f():
            assert d.holds, d.notes


# --- ledger and figures ----------------------------------------------------------------------

_EXPECTED = {"bravo2025/cor3.9/lower-estimate-c>1": "erratum",
             "bravo2025/lemC.1/constant": "erratum", "bravo2025/eq23/6.25": "erratum",
             "bravo2025/thm5.2/poisson-batch-size": "erratum",
             "bravo2025/thm5.4/Tbar": "unresolved", "bravo2025/eq24/asoodeh-diaz": "unresolved"}


@pytest.mark.parametrize("claim", [c for c in all_claims("bravo2025") if c.id in _EXPECTED],
                         ids=lambda c: c.id)
def test_errata_and_unresolved_verdicts(claim):
    """Every other claim of this module is run by tests/test_claims.py."""
    out = claim.run(30)
    assert out.verdict == _EXPECTED[claim.id], out.evidence
    assert out.evidence and (out.verdict != "erratum" or out.corrected)


def test_figures_registered():
    keys = {f.key for f in all_figures("bravo2025")}
    assert {"bravo2025/figure_1", "bravo2025/privacy_curve", "bravo2025/cor38_comparisons",
            "bravo2025/cor39_estimates", "bravo2025/pla_mixing"} <= keys
