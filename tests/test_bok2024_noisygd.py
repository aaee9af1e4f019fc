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
from dpsym.shifts import (
    cyclic_shift_pattern,
    cyclic_shifts,
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
    rows = paper.table_7(dps=20)
    printed = paper.TABLE_7["printed"]
    for t, vals in rows:
        assert [f"{float(v):.3f}" for v in vals] == list(printed[t])


def test_figure_6_derived_values():
    eps = paper.figure_6_eps(dps=20)
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
    printed = paper.TABLE_8["printed"]
    for ln, cells in paper.table_8(dps=20):
        assert [(str(t), f"{float(m):.3f}") for t, m in cells] == list(printed[ln])


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
    (lambda: paper.thm_c_7(1, 1, 1, 0), "steps=0 violates steps >= 1"),
])
def test_constrained_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- cyclic batches: Lemma C.10, Thms 4.4 / 4.5, Table 9 ---------------------------------

def test_table_9_rows():
    printed = paper.TABLE_9["printed"]
    for E, vals in paper.table_9(dps=20):
        assert [f"{float(v):.3f}" for v in vals] == list(printed[E])


def test_thm_4_5_one_batch_is_thm_4_2_shifted():
    # l = 1: every step uses the differing batch; Thm 4.5 then charges the last step by
    # Lemma 3.1 and the first t - 1 = E - 1 steps by Lemma C.6, i.e. mu^2 = s^2 + V_{C.6}(t-1).
    for c, E in (("0.9", 7), ("0.5", 3)):
        lhs = paper.thm_4_5_from_c(c, 1, 1, E, dps=30)
        rhs = paper.thm_c_5(c, 1, 1, E - 1, dps=40)
        with precision(30):
            assert agreeing_digits(lhs, mpmath.sqrt(1 + rhs**2)) >= 28


@given(c=st.floats(0.3, 0.99), lv=st.integers(1, 12), E=st.integers(2, 12))
def test_cyclic_shifts_are_optimal(c, lv, E):
    j = 1 + (E * 7 + lv) % lv
    sol = cyclic_shifts(repr(c), "0.1", lv, E, j, dps=30)
    assert min(sol.z) >= -mpf(10) ** -25 and abs(sol.z[-1]) < mpf(10) ** -25
    _, qp = solve_shift_problem(c, cyclic_shift_pattern(0.1, lv, E, j))
    assert qp == pytest.approx(float(sol.value), rel=1e-6, abs=1e-14)


@pytest.mark.parametrize("call,match", [
    (lambda: paper.thm_4_5_from_c("1.5", 1, 2, 3), r"c=1.5 violates 0 < c < 1"),
    (lambda: paper.thm_4_5(1, 10, 1, "0.3", 1, 10, 2, 3), r"eta=0.3 violates 0 < eta < 2/M"),
    (lambda: paper.thm_4_5_from_c("0.5", 1, 0, 3), "l=0 violates l >= 1"),
])
def test_cyclic_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- Section 5: Langevin / exponential mechanism ------------------------------------------

def test_prop_5_1_and_corollaries():
    with precision(30):
        mu = paper.prop_5_1(1, 2, "0.1", 3, dps=30)
        expected = mpmath.sqrt((2 - mpf("0.1") * 2) / 2) / mpmath.sqrt(2)
        assert agreeing_digits(mu, expected) >= 28
        assert paper.cor_5_2(1, 2, dps=30) > mu  # the eta -> 0 limit is the largest
        assert agreeing_digits(paper.cor_5_4(1, 1, dps=30), mpf(2)) >= 29


def test_app_d4_threshold_separates_dominance():
    c = paper.app_d4_threshold(dps=40)
    with precision(40):
        assert agreeing_digits(c, mpf("0.6763896796402601996")) >= 18
        for x, expect in ((c * mpf("0.999"), True), (c * mpf("1.001"), False)):
            assert paper.pure_dp_dominates_gdp(2 * x, 2 * mpmath.sqrt(x))[0] is expect


@pytest.mark.parametrize("call,match", [
    (lambda: paper.prop_5_1(1, 1, "0.5", 10), r"eta=0.5 violates 0 < eta <= 2/\(M\+m\)"),
    (lambda: paper.cor_5_2(1, 0), "m=0 violates m > 0"),
    (lambda: paper.cor_5_4(1, -1), "D=-1 violates D > 0"),
])
def test_section_5_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()


# --- NoisyCGD constrained: Thm 4.6, Tables 10-12 -------------------------------------------

def test_tables_10_12_mu_star_and_e_star():
    f = paper.TABLES_10_12
    for lv in (10, 20, 40):
        for lb in f["L_over_b"]:
            for eta, (p_e, p_mu) in zip(f["eta"], f["printed"][lv][lb], strict=True):
                cell = paper.tables_10_12_cell(lv, lb, eta, dps=20)
                assert f"{float(cell['mu_star']):.3f}" == p_mu
                assert str(cell["E_star_script"]) == p_e  # how the printed values arose
                assert cell["E_star"] > int(p_e)  # the definition gives more epochs
                assert cell["E_star"] < cell["E_min_valid"]  # and both lie outside Thm 4.6


def test_thm_4_6_crossing_is_where_composition_reaches_mu_star():
    for lv, lb, eta in ((10, "0.25", "0.04"), (40, "1", "0.04"), (20, "0.5", "0.01")):
        cell = paper.tables_10_12_cell(lv, lb, eta, dps=30)
        e = cell["E_star"]
        with precision(40):
            tol = mpf(10) ** -25  # at l=10, L/b=0.25, eta=0.04 the crossing is an exact tie
            assert paper.thm_4_4(lb, 1, 3, e, dps=30) >= cell["mu_star"] - tol
            assert cell["mu_star"] > paper.thm_4_4(lb, 1, 3, e - 1, dps=30)


@pytest.mark.parametrize("call,match", [
    (lambda: paper.thm_4_6("0.25", 1, 3, "0.04", 1, 10, 41), r"E=41 violates E >= D b/\(eta L\)"),
    (lambda: paper.thm_4_6("0.25", 1, 3, "0.04", 1, 0, 100), "l=0 violates l >= 1"),
    (lambda: paper.thm_4_6("0.25", 1, 0, "0.04", 1, 10, 100), "sigma=0 violates sigma > 0"),
])
def test_thm_4_6_bad_input(call, match):
    with pytest.raises(ValueError, match=match):
        call()
