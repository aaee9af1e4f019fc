"""Bok et al. 2024, full-batch NoisyGD: strongly convex (Lemma 2.8, C.6, Thms 4.1, 4.2) and
constrained convex (Lemma C.8, Thms C.7, 4.3)."""

import mpmath
import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st
from mpmath import mpf

from dpsym.numerics import agreeing_digits, precision
from dpsym.papers import bok2024 as paper
from dpsym.papers.bok2024 import printed
from dpsym.shifts import (
    kkt_certificate,
    lemma_c6_shifts,
    solve_shift_problem,
)


def _mu_exact(c, s, sigma, t):
    """Independent: mean gap / std of the two Gaussians of the tight instance (App. C.2)."""
    with precision(60):
        c, s, sigma = mpf(c), mpf(s), mpf(sigma)
        mean = s * (1 - c**t) / (1 - c)
        var = sigma**2 * (1 - c ** (2 * t)) / (1 - c**2)
        return mean / mpmath.sqrt(var)


@pytest.mark.parametrize("c,t", [("0.5", 1), ("0.9", 7), ("0.99", 1000), ("0.999999", 50)])
def test_thm_c5_equals_tight_instance(c, t):
    assert agreeing_digits(paper.thm_c_5(c, "0.1", 1, t, dps=40), _mu_exact(c, "0.1", 1, t)) >= 38


def test_thm_4_2_uses_lemma_2_8():
    # c = max(|1 - 0.1*0.5|, |1 - 0.1*1|) = 0.95; s/sigma = L/(n sigma) = 0.1.
    with precision(30):
        c = paper.lem_2_8("0.1", "0.5", 1, dps=30)
        assert c >= mpf("0.95") and agreeing_digits(c, mpf("0.95")) >= 29  # rounded up: safe
    assert agreeing_digits(paper.thm_4_2(1, 100, "0.1", "0.1", "0.5", 1, 50, dps=30),
                           _mu_exact("0.95", "0.1", 1, 50)) >= 28


@given(c=st.floats(0.05, 0.999), s=st.floats(0.01, 5), t=st.integers(1, 60))
def test_lemma_c6_recursion_and_kkt(c, s, t):
    sol = lemma_c6_shifts(repr(c), repr(s), t, dps=30)
    with precision(30):
        # The recursion z_k + a_k = c z_{k-1} + s reproduces z from a, and lambda_t = 1.
        for k in range(t):
            assert abs(sol.z[k + 1] + sol.a[k] - (mpf(repr(c)) * sol.z[k] + mpf(repr(s)))) < \
                mpf(10) ** -25 * max(1, mpf(repr(s)))
        assert abs(sol.lam[-1] - 1) < mpf(10) ** -25
        assert all(0 <= v <= 1 + mpf(10) ** -25 for v in sol.lam)
        assert abs(sum(a * a for a in sol.a) - sol.value) < mpf(10) ** -25 * sol.value
    if t > 1:
        cert = kkt_certificate(repr(c), [repr(s)] * t, sol.a, dps=30)
        assert cert["proportionality"] < mpf(10) ** -25


def test_numeric_solver_agrees_and_handles_varying_shifts():
    _, v = solve_shift_problem(0.9, [0.1] * 12)
    assert v == pytest.approx(float(lemma_c6_shifts("0.9", "0.1", 12).value), rel=1e-8)
    # Shifts only on every third step (a cyclic-batch pattern): still a valid, cheaper QP.
    a, v2 = solve_shift_problem(0.9, [0.1 if k % 3 == 0 else 0.0 for k in range(12)])
    assert np.all(a >= -1e-12) and v2 < v


def test_table_7_rows():
    for t, vals in paper.table_7(dps=20):
        assert [f"{float(v):.3f}" for v in vals] == [p.value for p in printed.TABLE_7[t]]


def test_figure_6_derived_values():
    eps = paper.figure_6_eps(dps=20)   # at the paper's t, 640 last
    assert f"{float(eps['1e-5']['ours'][-1]):.3f}" == "6.541"
    assert f"{float(eps['1e-5']['composition'][-1]):.3f}" == "13.406"


def test_montecarlo_is_seeded_and_close():
    r1 = paper.thm_4_2_montecarlo(n=20_000, t=20)
    r2 = paper.thm_4_2_montecarlo(n=20_000, t=20)
    assert r1["rows"] == r2["rows"]
    assert all(abs(r["beta_mc"] - r["beta_exact"]) < 5 * r["se"] for r in r1["rows"])


@pytest.mark.parametrize("call,match", [
    (lambda: paper.lem_2_8("0.5", 1, 10), r"eta=0.5 violates 0 < eta < 2/M = 0.2 \(Bok"),
    (lambda: paper.lem_2_8("0.1", 0, 1), "m=0 violates m > 0"),
    (lambda: paper.lem_2_8("0.1", 2, 1), "M=1 violates M >= m"),
    (lambda: paper.thm_c_5(1, 1, 1, 5), "c=1 violates 0 < c < 1"),
    (lambda: paper.thm_c_5("0.5", 1, 1, 2.5), "t=2.5 violates an integer"),
    (lambda: paper.thm_4_1(1, 100, 0, 5), "sigma=0 violates sigma > 0"),
    (lambda: lemma_c6_shifts("0.5", -1, 3), "s=-1 violates s > 0"),
])
def test_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- constrained convex: Lemma C.8, Thms C.7 / 4.3, Table 8 ------------------------------

def test_thm_c7_at_optimal_n_and_thm_4_3_bound():
    # N = D/s exactly: (s sqrt N + D/sqrt N)^2 = 4 s D.
    with precision(30):
        mu = paper.thm_c_7("0.25", 1, 1, 4, dps=30)
        assert agreeing_digits(mu, mpmath.sqrt(mpf(1))) >= 29
    # Thm 4.3 (with the ceiling) is never below Thm C.7 at N = ceil(D/s).
    for ln, eta in (("0.3", "0.1"), ("1", "0.07")):
        q = paper.thm_4_3_dominance_threshold(ln, 1, eta, 1)
        s = mpf(ln) * mpf(eta)
        n_steps = int(mpmath.ceil(1 / s))
        assert paper.thm_4_3(ln, 1, 1, eta, 1, q) >= paper.thm_c_7(s, 1, eta, n_steps)


def test_table_8_rows():
    for ln, cells in paper.table_8(dps=20):
        assert [(str(t), f"{float(m):.3f}") for t, m in cells] == \
            [(a.value, b.value) for a, b in printed.TABLE_8[ln]]


def test_dominance_threshold_is_exact():
    for q in ("0.5", "1.1", "2.7", "3", "7.25"):
        t_star = paper.thm_4_3_dominance_threshold(1, 1, 1, q)
        assert paper.thm_4_3(1, 1, 1, 1, q, t_star) <= paper.thm_4_1(1, 1, 1, t_star)
        if t_star - 1 >= mpf(q):
            assert paper.thm_4_3(1, 1, 1, 1, q, t_star - 1) > paper.thm_4_1(1, 1, 1, t_star - 1)


@pytest.mark.parametrize("call,match", [
    (lambda: paper.thm_4_3(1, 1, 1, "0.1", 1, 5), r"t=5 violates t >= D n/\(eta L\) = 10"),
    (lambda: paper.thm_4_3(1, 1, 1, "0.5", 1, 5, M=10), r"eta=0.5 violates eta <= 2/M = 0.2"),
    (lambda: paper.thm_4_3(1, 1, 1, "0.1", 0, 50), "D=0 violates D > 0"),
    (lambda: paper.thm_c_7(1, 1, 1, 0), "N=0 violates N >= 1"),
])
def test_constrained_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


def test_thm_c_5_instance_is_an_independent_second_method():
    # Oracle above: closed-form geometric sums; the instance function loops. Both against C.5.
    for c, t in (("0.5", 3), ("0.95", 160), ("0.99", 1000)):
        a = paper.thm_c_5_instance_mu(c, "0.1", 1, t, dps=40)
        assert agreeing_digits(a, _mu_exact(c, "0.1", 1, t)) >= 38
        assert agreeing_digits(a, paper.thm_c_5(c, "0.1", 1, t, dps=40)) >= 38


def test_thm_c_5_fails_when_moved_the_unsafe_way():
    # a bound 1e-6 smaller than the tight instance's mu is an unsafe bound: caught
    mu = paper.thm_c_5("0.9", "0.1", 1, 30, dps=30)
    with precision(30):
        assert mu >= _mu_exact("0.9", "0.1", 1, 30) * (1 - mpf(10) ** -25)
        assert mu * (1 - mpf("1e-6")) < _mu_exact("0.9", "0.1", 1, 30)


def test_lemma_c6_printed_forms_and_limits():
    assert set(paper.lem_c_6_residuals().values()) == {0}
    r = paper.thm_4_2_limits()
    assert r["t=1"] == 1 and r["t->oo, c=1/2"] == 3 and r["h^2 coefficient, t=5"] == -10
    assert paper.thm_c_5_tight_instance()["residual"] == 0
    assert paper.thm_4_2_gap_to_composition(dps=20) < 0


def test_lemma_c6_certificate_catches_a_perturbed_solution():
    cert = paper.lem_c_6_certificate(count=3, dps=30)
    assert cert.kkt_residual < mpf(10) ** -25 and cert.slsqp_relative_gap < 1e-9
    sol = lemma_c6_shifts("0.8", "0.3", 10, dps=30)
    bad = [a * (1 + mpf("1e-6") * k) for k, a in enumerate(sol.a)]
    assert kkt_certificate("0.8", ["0.3"] * 10, bad, dps=30)["proportionality"] > mpf("1e-7")


def test_lemma_c8_printed_forms():
    assert set(paper.lem_c_8_residuals().values()) == {0}


def test_dominance_exact_rows_and_counterexample():
    rows = paper.thm_4_3_dominance_exact(dps=20)
    assert all(r["holds at t*"] and r["fails below"] for r in rows)
    assert [r["t*"] for r in rows] == [3, 6, 12, 12, 42]
    assert paper.thm_4_3(1, 1, 1, 1, "1.1", 5) > paper.thm_4_1(1, 1, 1, 5)   # t = 5 > 4q = 4.4


def _oracle_c16_lower(L_over_n, eta, D, sigma, t, cells):
    """Oracle: the projected walks propagated on an end-cell grid (the atoms in the end cells),
    independently of dpsym.langevin.GridKernel."""
    from scipy.special import ndtr, ndtri

    x = np.linspace(-D / 2, D / 2, cells)
    edges = np.concatenate([[-np.inf], (x[:-1] + x[1:]) / 2, [np.inf]])

    def kernel(drift):
        return np.diff(ndtr((edges[None, :] - x[:, None] - drift) / (eta * sigma)), axis=1)

    p = np.zeros(cells)
    p[cells // 2] = 1.0
    q = p.copy()
    k0, k1 = kernel(0.0), kernel(eta * L_over_n)
    for _ in range(t):
        p, q = p @ k0, q @ k1
    alpha, beta = 1 - np.cumsum(p), np.cumsum(q)
    ok = (alpha > 1e-300) & (beta > 1e-300) & (alpha < 1 - 1e-15) & (beta < 1 - 1e-15)
    return float(np.max(ndtri(1 - alpha[ok]) - ndtri(beta[ok])))


@pytest.mark.parametrize("sigma", ["0.5", "2"])
def test_thm_c_16_instance_against_an_independent_grid(sigma):
    r = paper.thm_c_16_instance("1", "0.1", "1", sigma, 100, cells=601)
    oracle = _oracle_c16_lower(1.0, 0.1, 1.0, float(sigma), 100, 601)
    assert r["mu_lower"] == pytest.approx(oracle, rel=2e-3)
    assert r["mu_lower"] <= r["mu_upper"]


def test_thm_c_16_ratio_at_t_100_is_not_one_over_sqrt2():
    # t = 20 = 2 Dn/(eta L): the lower bound is composition, sqrt(20)/sqrt(40) = 1/sqrt 2
    r20 = paper.thm_c_16_instance("1", "0.1", "1", "0.25", 20, cells=601)
    assert r20["mu_lower"] / r20["mu_upper"] == pytest.approx(2 ** -0.5, abs=2e-3)
    r = paper.thm_c_16_instance("1", "0.1", "1", "0.25", 100, cells=601)
    assert 0.89 < r["mu_lower"] / r["mu_upper"] < 0.91


def test_thm_c_16_constants():
    from fractions import Fraction

    r = paper.thm_c_16_exponent()
    assert r["exact"] == Fraction(9, 560) and r["printed"] == Fraction(9, 56)
    assert r["c1_squared"] == Fraction(1, 560) == r["other"]
    g = paper.thm_c_16_phi_inequality(points=81, dps=20)
    assert g["min_gap"] >= 0 and abs(g["slope_at_x0"]) < mpf("1e-15")


def test_figure_1_values_ordering():
    v = paper.figure_1_values(ts=(40,), dps=15)
    assert v["eps_fdp"][0] < v["eps_rdp_ours"][0] < v["eps_rdp_ys22"][0]
    assert v["eps_fdp"][0] < v["eps_comp"][0]
