"""Bok et al. 2024, cyclic NoisyCGD: Thms 4.4, 4.5, Lemma C.10, Thm C.17 (strongly convex) and
Thm 4.6, Lemma C.11, Tables 10-12, the windows of Thm C.3 (constrained); Figures 3 and 9."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mpf

from dpsym.numerics import agreeing_digits, precision
from dpsym.papers import bok2024 as paper
from dpsym.papers.bok2024 import printed
from dpsym.shifts import cyclic_shift_pattern, cyclic_shifts, solve_shift_problem, window_optimum
from dpsym.shifts.cyclic_constrained import (
    best_window,
    c1_shift_optimum,
    first_window_optimum,
    first_window_value,
    intended_window_optimum,
    lemma_c11_corrected,
    lemma_c11_intended,
    thm_4_6_window_value,
    window_value,
)

fractions = st.fractions(min_value=Fraction(1, 12), max_value=Fraction(20), max_denominator=12)


@given(D=fractions, s=fractions, l=st.integers(2, 30))
def test_thm_4_6_certificate_holds_for_l_at_least_2(D, s, l):
    c = paper.thm_4_6_certificate(s, D, l)
    assert c["holds"] and c["corrected_feasible"]


@given(D=fractions, s=fractions, l=st.integers(1, 8), K=st.integers(1, 8))
def test_window_optimum_is_feasible_and_beats_constant(D, s, l, K):
    if l * K < 2:
        return
    opt = window_optimum(D, s, l, K)
    assert opt.feasible
    assert len(opt.a) == l * K - 1
    c = lemma_c11_corrected(D, s, l, K)
    if c.feasible:
        assert opt.value <= c.value


def test_window_optimum_matches_qp():
    D, s, l, K = Fraction(3, 2), Fraction(1, 4), 3, 6
    opt = window_optimum(D, s, l, K)
    pattern = tuple(float(s) if i % l == 0 else 0.0 for i in range(1, l * K))
    _, v = solve_shift_problem(1.0, pattern, float(D))
    assert abs(float(opt.value) - v) < 1e-8


def test_printed_c11_sequence_is_infeasible():
    r = paper.lem_c_11("1/2", 1, 4, 4)
    assert r["printed"].z[-1] == Fraction(-5, 16)
    assert not r["printed"].feasible


def test_l_equals_one_counterexample():
    # the window as the statement writes it costs more at l = 1; the proof's window does not
    c = paper.thm_4_6_certificate(1, 2, 1)
    assert not c["holds"] and c["optimum"] == 9 and c["charged"] == 8
    assert c["intended_equals_charged"]
    assert thm_4_6_window_value(Fraction(2), Fraction(1), 1) == 8


@pytest.mark.parametrize("bad", [{"l": 0}, {"K": 0}, {"D": 0}, {"s": -1}])
def test_window_bad_input(bad):
    args = {"D": Fraction(1), "s": Fraction(1, 2), "l": 3, "K": 2} | bad
    with pytest.raises(ValueError, match=next(iter(bad))):
        window_optimum(**args)


def test_thm_c_17_below_thm_4_5():
    lo = paper.thm_c_17("0.2", "0.99", 20, 50, dps=20)
    hi = paper.thm_4_5_from_c("0.99", "0.2", 20, 50, dps=20)
    assert abs(float(lo) - 0.154933) < 1e-6 and lo < hi


def test_coupled_trajectories_track_z_and_meet():
    r = paper.coupled_trajectories(15, "0.1", "1", "0.3", "0.5", seed=1)
    assert np.max(np.abs(r["z"] - r["distance"])) < 1e-12
    assert np.allclose(r["X"][-1], r["Xtilde"][-1], atol=1e-12)


def test_figure_9_plateau_and_every_window_below_it():
    v = paper.figure_9_values()
    assert v["E_valid"] == 100
    assert abs(float(v["1e-5"]["paper"][-1]) - 3.213) < 5e-4
    assert all(e <= p for e, p in zip(v["mu"]["exact"], v["mu"]["paper"], strict=True))


# --- cyclic batches, strongly convex: Lemma C.10, Thms 4.4 / 4.5, Table 9 -------------------

def test_table_9_rows():
    for E, vals in paper.table_9(dps=20):
        assert [f"{float(v):.3f}" for v in vals] == [p.value for p in printed.TABLE_9[E]]


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



# --- NoisyCGD constrained: Thm 4.6, Tables 10-12 -------------------------------------------

def test_tables_10_12_mu_star_and_e_star():
    for lv in printed.TABLES_10_12_L:
        for lb in printed.TABLES_10_12_L_OVER_B:
            for eta, (p_e, p_mu) in zip(printed.TABLES_10_12_ETA, printed.TABLES_10_12[lv][lb],
                                        strict=True):
                cell = paper.tables_10_12_cell(lv, lb, eta, dps=20)
                assert f"{float(cell['mu_star']):.3f}" == p_mu.value
                assert str(cell["E_star_script"]) == p_e.value  # how the printed values arose
                assert cell["E_star"] > int(p_e.value)  # the definition gives more epochs
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


def test_lemma_c10_and_thm_4_5_pieces():
    assert paper.lem_c_10_residual() == 0
    r = paper.lem_c_10_proof_display(dps=20)
    assert r["corrected_residual"] == 0 and r["printed_residual"] != 0
    assert abs(float(r["lhs"]) - 0.7724131851) < 1e-9
    assert abs(float(r["printed"]) - 0.7532602705) < 1e-9
    one = paper.thm_4_5_one_batch(dps=20)
    assert one["identity"] == 0 and one["thm_4_5"] > one["thm_4_2"]
    lo, hi = paper.thm_c_17_vs_thm_4_5(dps=20)
    assert 0 < lo < hi < 1
    derived, shown = paper.thm_c_17_symbolic()
    assert mpmath.almosteq(float(derived.subs({s: 0.5 for s in derived.free_symbols})),
                           float(shown.subs({s: 0.5 for s in shown.free_symbols})), 1e-12)


# --- the windows of Thm C.3, every start, tau = 0 included ---------------------------------

def _oracle_every_start(D, s, l, E):
    """Oracle: min over every j* and every start time p of the c = 1 shift problem up to t*,
    with z_p = 0 at p = 0 and z_p = D otherwise (brute force over full sequences)."""
    best = None
    for j in range(1, l + 1):
        t_star = l * E + j - l - 1
        hits = [s if (m - j) % l == 0 and m >= j else Fraction(0) for m in range(1, t_star + 1)]
        worst_j = None
        for p in range(0, t_star):
            z0 = Fraction(0) if p == 0 else D
            v = c1_shift_optimum(z0, hits[p:]).value
            worst_j = v if worst_j is None else min(worst_j, v)
        best = worst_j if best is None else max(best, worst_j)   # the bound must hold for every j*
    return best


@pytest.mark.parametrize("D,s,l,E", [(Fraction(1), Fraction(1, 10), 3, 6),
                                     (Fraction(2), Fraction(1, 3), 2, 7),
                                     (Fraction(1, 2), Fraction(1), 4, 4),
                                     (Fraction(1), Fraction(1, 11), 2, 5)])
def test_best_window_equals_the_brute_force_over_every_start(D, s, l, E):
    value, _ = best_window(D, s, l, E)
    assert value == _oracle_every_start(D, s, l, E)


@settings(max_examples=40, deadline=None)
@given(D=fractions, s=fractions, l=st.integers(1, 6), K=st.integers(1, 7))
def test_fast_window_values_match_the_full_solver(D, s, l, K):
    if l * K >= 2:
        assert window_value(D, s, l, K) == window_optimum(D, s, l, K).value
    sol = lemma_c11_intended(D, s, l, K)
    assert sol.feasible and sol.value == intended_window_optimum(D, s, l, K).value \
        == thm_4_6_window_value(D, s, l, K)
    E = K + 1
    assert first_window_value(s, l, E) == first_window_optimum(s, l, E).value == (E - 1) * s * s / l


def test_thm_4_6_exact_at_tables_10_12_first_cell():
    # l = 10, L/b = 0.25, eta = 0.04, sigma = 3, E = 41: the tau = 0 window gives
    # (L/(b sigma)) sqrt(1 + (E-1)/l) = 0.1863, below mu* = 0.5336
    r = paper.thm_4_6_exact("0.25", 1, 3, "0.04", 1, 10, 41, dps=30)
    with precision(30):
        assert r.tau == 0
        assert agreeing_digits(r.mu, mpf("0.25") / 3 * mpmath.sqrt(5)) >= 28
    mu_star = paper.thm_4_6("0.25", 1, 3, "0.04", 1, 10, 100, dps=30)
    assert r.mu < mu_star
    # E >= Db/(eta L): the exact optimum is below Thm 4.6 (a bound 1% smaller would not be)
    big = paper.thm_4_6_exact("0.25", 1, 3, "0.04", 1, 10, 500, dps=30)
    assert big.tau > 0 and big.mu <= mu_star and big.mu > mu_star * mpf("0.99")


def test_tables_10_12_validity():
    r = paper.tables_10_12_validity(dps=20)
    assert r["outside"] == 27 and r["covered"]
    first = r["rows"][0]
    assert first["E_star"] == 41 and first["E_star_script"] == 31 and first["E_cover"] == 401
    assert abs(float(first["exact_at_E_star"]) - 0.18634) < 1e-5
    assert abs(float(first["old_at_E_star"]) - 0.585849) < 1e-6   # windows tau >= 1 only
    assert float(first["old_at_E_star"]) > float(first["mu_star"])


def test_sweeps_and_qp_gap():
    d = paper.thm_4_6_display_sweep(count=40, seed=3)
    assert d["all_equal"] and d["all_feasible"]
    c = paper.thm_4_6_certificate_sweep(count=40, seed=3)
    assert c["holds"] and c["corrected_feasible"] and c["worst_ratio"] <= 1
    assert paper.lem_c_11_qp_gap() < 1e-7
    r = paper.lem_c_11("1/2", 1, 4, 4)
    assert r["intended"].feasible and r["intended"].z[-1] == 0
    assert r["intended"].value == r["intended_optimum"].value


@pytest.mark.parametrize("call,match", [
    (lambda: paper.thm_4_6_exact("0.25", 1, 3, "0.04", 1, 10, 0), "E=0 violates E >= 1"),
    (lambda: paper.thm_4_6_exact("0.25", 0, 3, "0.04", 1, 10, 5), "b=0 violates b > 0"),
    (lambda: c1_shift_optimum(Fraction(1), []), "at least one step"),
    (lambda: best_window(Fraction(0), Fraction(1), 2, 3), "D=0 violates D > 0"),
])
def test_window_bad_input_more(call, match):
    with pytest.raises(ValueError, match=match):
        call()
