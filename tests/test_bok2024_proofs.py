"""Lemma C.11 window optimiser, Thm 4.6 certificate, Thm C.17, Figures 3 and 9."""

from fractions import Fraction

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

from dpsym.papers import bok2024 as paper
from dpsym.shifts import solve_shift_problem, window_optimum
from dpsym.shifts.cyclic_constrained import lemma_c11_corrected, thm_4_6_window_value

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
    c = paper.thm_4_6_certificate(1, 2, 1)
    assert not c["holds"] and c["optimum"] == 9 and c["charged"] == 8
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


def test_figure_9_plateau():
    v = paper.figure_9_values()
    assert v["E_valid"] == 100
    assert abs(float(v["1e-5"]["paper"][-1]) - 3.213) < 5e-4
