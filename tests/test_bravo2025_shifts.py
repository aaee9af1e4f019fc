"""Bravo, Flores-Mella & Guzman 2025: moduli, the shift problem (P), Table 1, App. B."""

from __future__ import annotations

import re
from fractions import Fraction

import mpmath
import numpy as np
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mpf

from dpsym.claims import all_claims
from dpsym.figures import all_figures
from dpsym.numerics import precision
from dpsym.papers.bravo2025 import corollaries as cor
from dpsym.papers.bravo2025 import shift_problem as paper
from dpsym.shifts import modulus as mod
from dpsym.shifts import pabi

# --- the public API other modules import ---------------------------------------------------


def test_optimal_value_uniform_case_is_D2_over_sigma2_T() -> None:
    # c = 1, h = 0: uniform shifts a_t = D/T, E* = D^2 / (sigma^2 T) (Feldman et al. 2018)
    with precision(60):
        v = pabi.optimal_value(3, [1] * 7, [0] * 7, ["0.5"] * 7, dps=50)
        assert abs(v - mpf(9) / (mpf("0.5") * 7)) < mpf(10) ** -48
        assert v >= mpf(9) / (mpf("0.5") * 7)  # rounded up


def test_optimal_value_lipschitz_is_harmonic() -> None:
    # Cor 3.7 computed independently with Fractions: (D^2/T + h H_T)/sigma^2
    T, D, h, s2 = 9, Fraction(2), Fraction(1, 25), Fraction(1, 5)
    exact = (D ** 2 / T + h * sum(Fraction(1, k) for k in range(1, T + 1))) / s2
    with precision(60):
        v = pabi.optimal_value(D, [1] * T, [h] * T, [s2] * T, dps=50)
        assert abs(v - mpf(exact.numerator) / exact.denominator) < mpf(10) ** -47


def test_optimal_shifts_time_varying_matches_objective_and_is_feasible() -> None:
    D, c, h, s2 = paper.INSTANCES["G time-varying"]
    sol = pabi.optimal_shifts(D, c, h, s2, dps=50)
    assert len(sol.u) == len(c) + 1 and sol.u[0] == mpf(D) and sol.u[-1] == 0
    assert all(0 <= r <= 1 for r in sol.ratios)
    with precision(60):
        e = pabi.objective(sol.u, D, c, h, s2, dps=55)
        assert abs(e - sol.value) < mpf(10) ** -45
        assert pabi.is_feasible(sol.a, D, c, h, tol=mpf(10) ** -45, dps=50)
        g = pabi.objective_gradient(list(sol.u[1:-1]), D, c, h, s2, dps=50)
        assert max(abs(x) for x in g) < mpf(10) ** -40
        # moving away from u* increases E (and the gradient is no longer zero)
        bumped = [x * mpf("1.001") for x in sol.u[1:-1]]
        assert pabi.objective(bumped, D, c, h, s2, dps=50) > sol.value - mpf(10) ** -45
        g2 = pabi.objective_gradient(bumped, D, c, h, s2, dps=50)
        assert max(abs(x) for x in g2) > mpf(10) ** -6


def test_numeric_solver_agrees_with_closed_form_to_40_digits() -> None:
    for name in ("D strongly convex", "G time-varying", "H Figure 2"):
        D, c, h, s2 = paper.INSTANCES[name]
        cf = pabi.optimal_shifts(D, c, h, s2, dps=60)
        num = pabi.solve_numeric(D, c, h, s2, starts=8, seed=0, dps=50)
        with precision(60):
            assert max(abs(a - b) for a, b in zip(cf.u[1:-1], num.u, strict=True)) \
                < mpf(10) ** -40
            assert abs(cf.value - num.value) < mpf(10) ** -40 * max(1, cf.value)


def test_figure_2_instance_values() -> None:
    f = paper.FIGURE_2
    sol = paper.lem_3_5(f["D"], f["c"], f["h"], f["sigma2"])
    with precision(30):
        assert abs(sol.u[1] - mpf("0.743181523681")) < mpf(10) ** -12
        assert abs(sol.u[2] - mpf("2.13228368398")) < mpf(10) ** -11
    assert mpmath.nstr(sol.value, 12) == "74.9822297729"


@pytest.mark.parametrize(("kwargs", "name"), [
    ({"D": 0}, "D"), ({"D": -1}, "D"), ({"c": [1, 0]}, "c[1]"), ({"h": [0, -1]}, "h[1]"),
    ({"sigma2": [1, 0]}, "sigma2[1]"), ({"h": [0]}, "h"), ({"sigma2": [1, 1, 1]}, "sigma2"),
    ({"c": [1, float("nan")]}, "c[1]"), ({"c": []}, "c"),
])
def test_bad_input_raises_naming_the_parameter(kwargs: dict, name: str) -> None:
    args = {"D": 1, "c": [1, 1], "h": [0, 0], "sigma2": [1, 1]} | kwargs
    with pytest.raises(ValueError, match="^" + re.escape(name) + "="):
        pabi.optimal_value(**args)
    with pytest.raises(ValueError, match="Bravo et al. 2025"):
        pabi.optimal_shifts(**args)


def test_thm_3_4_rejects_alpha_below_one_and_scales_by_alpha_over_2() -> None:
    with pytest.raises(ValueError, match="alpha"):
        paper.thm_3_4("0.5", 1, [1], [0], [1])
    with precision(50):
        assert abs(paper.thm_3_4(4, 1, [1, 1], [1, 1], [1, 1])
                   - 2 * pabi.optimal_value(1, [1, 1], [1, 1], [1, 1])) < mpf(10) ** -45


# --- properties --------------------------------------------------------------------------

def _mp(x: Fraction) -> mpf:
    return mpf(x.numerator) / x.denominator


_pos = st.fractions(min_value=Fraction(1, 10), max_value=Fraction(3))


@settings(max_examples=25, deadline=None)
@given(T=st.integers(2, 6), data=st.data())
def test_closed_form_beats_every_random_feasible_schedule(T: int, data: st.DataObject) -> None:
    c = [data.draw(_pos) for _ in range(T)]
    h = [data.draw(st.fractions(min_value=0, max_value=2)) for _ in range(T)]
    s2 = [data.draw(_pos) for _ in range(T)]
    D = data.draw(_pos)
    v = pabi.optimal_value(D, c, h, s2, dps=30)
    rng = np.random.default_rng(T)
    with precision(30):
        for _ in range(5):
            u, prev = [], _mp(D)
            for t in range(1, T):
                prev = mpf(rng.uniform()) * mpmath.sqrt(_mp(c[t - 1]) * prev ** 2 + _mp(h[t - 1]))
                u.append(prev)
            assert pabi.objective(u, D, c, h, s2, dps=30) >= v - mpf(10) ** -25
        # the a <-> u bookkeeping round-trips (Section 3.1)
        sol = pabi.optimal_shifts(D, c, h, s2, dps=30)
        back = pabi.a_to_u(sol.a, D, c, h, dps=30)
        assert max(abs(x - y) for x, y in zip(back, sol.u, strict=True)) < mpf(10) ** -25


# --- sympy --------------------------------------------------------------------------------

def test_stationarity_and_value_identities() -> None:
    assert all(pabi.verify_stationarity_symbolic(T).holds for T in range(2, 8))
    assert all(pabi.value_identity_symbolic(T).holds for T in range(1, 8))
    assert all(d.holds for T in (2, 3, 4) for d in pabi.stationarity_symbolic(T))
    assert all(d.holds for d in pabi.t2_kkt_symbolic())
    assert all(d.holds for d in pabi.prop_b_1_symbolic())


def test_symbolic_checks_can_fail() -> None:
    # negative control: the gradient at a perturbed point, and a wrong optimal value
    E, (u1,), sy = pabi.symbolic_objective(2)
    ustar, value, _ = pabi.symbolic_optimum(2)
    assert sp.simplify(sp.diff(E, u1).subs(u1, ustar[0] * sp.Rational(101, 100))) != 0
    wrong = value - sy["h"][1] / sy["s"][1]
    assert sp.simplify(E.subs(u1, ustar[0]) - wrong) != 0


def test_moduli_derivations_and_stress_tests() -> None:
    for kind in mod.CLASSES:
        assert mod.derive_class(kind)[2].holds, kind
        r = mod.stress_test(kind, pairs=3000)
        assert r.violations == 0 and r.max_ratio <= 1, kind
    # negative control: the Lipschitz test function against a modulus with h/4 fails
    m = mod.lipschitz("0.3", 1)
    small = mod.Modulus("too small", m.c, m.h / 4)
    assert mod.stress_test("lipschitz", pairs=3000, against=small).violations > 0


def test_lipschitz_modulus_is_tight_at_zero() -> None:
    with precision(40):
        r = [mod.lipschitz_tightness("0.3", 1, d) for d in ("0.5", "1e-8")]
        assert r[0] < r[1] <= 1 and 1 - r[1] < mpf(10) ** -7
    with pytest.raises(ValueError, match="delta"):
        mod.lipschitz_tightness("0.3", 1, 0)


def test_moduli_values_and_hypotheses() -> None:
    with precision(40):
        assert mod.weakly_smooth("0.3", 0, 2).h == mod.lipschitz("0.3", 1).h
        assert abs(mod.weakly_smooth("0.1", "0.5", 2).h - mpf(4) / 3 * mpf("0.1") ** 4) \
            < mpf(10) ** -40
    assert mod.weakly_smooth("0.5", 1, 2).h == 0
    with pytest.raises(ValueError, match="eta"):
        mod.weakly_smooth("1.5", 1, 2)
    with pytest.raises(ValueError, match="eta"):
        mod.convex_smooth("1.1", 2)
    with pytest.raises(ValueError, match="p"):
        mod.weakly_smooth("0.1", "1.5", 2)
    with pytest.raises(ValueError, match="kind"):
        mod.modulus("smooth-ish", eta=1)


# --- statements, Table 1, figures, ledger ---------------------------------------------------

def test_table_1_regenerated() -> None:
    rows = paper.table_1()
    assert len(rows) == 6
    assert all(r.c_h_match and r.holds for r in rows)
    assert [r.relation for r in rows] == ["="] * 5 + ["<="]


def test_eq_7_printed_is_not_theorem_3_4_but_the_corrected_form_is() -> None:
    with precision(40):
        printed = paper.eq_7_printed(1, "0.2", 1, 6, "0.84")
        thm = paper.thm_3_4(1, 1, ["0.84"] * 6, [0] * 6, ["0.2"] * 6)
        fixed = cor.cor_3_8(1, "0.2", 1, 6, "0.84")
        assert abs(printed - thm) > 1
        assert abs(fixed - thm) < mpf(10) ** -40


def test_prop_b_1_eigenvalues() -> None:
    _, eigs = paper.prop_b_1(dps=30)
    assert eigs[0][0] < 0 and eigs[1][0] < 0   # infeasible points: E not convex
    assert eigs[2][0] > 0 and eigs[3][0] > 0   # feasible point and u*


def test_figures_registered_and_drawn() -> None:
    keys = {f.key for f in all_figures("bravo2025")}
    for name in ("figure_2", "figure_shift_profiles", "figure_renyi_vs_T"):
        assert f"bravo2025/{name}" in keys
    fig = paper.figure_2()
    assert len(fig.axes) >= 2


def test_ledger_rows() -> None:
    claims = [c for c in all_claims("bravo2025") if c.id.startswith("bravo2025/shifts/")]
    assert len(claims) >= 30
    quick = [c for c in claims if "/unique/" not in c.id and "/table1/" not in c.id]
    for c in quick:
        o = c.run(30)
        assert o.verdict == ("erratum" if c.kind == "erratum" else "reproduced"), (c.id, o)
