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
from dpsym.papers.bravo2025 import shift_problem as paper
from dpsym.shifts import gaussian_chain as gc
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
    assert all(d.holds for T in (2, 3, 4) for d in paper.eq_5_symbolic(T))
    assert all(d.holds for d in pabi.t2_kkt_symbolic())
    assert all(d.holds for d in paper.prop_b_1_symbolic())


def test_symbolic_checks_can_fail() -> None:
    # negative control: the gradient at a perturbed point, and a wrong optimal value
    E, (u1,), sy = pabi.symbolic_objective(2)
    ustar, value, _ = pabi.symbolic_optimum(2)
    assert sp.simplify(sp.diff(E, u1).subs(u1, ustar[0] * sp.Rational(101, 100))) != 0
    wrong = value - sy["h"][1] / sy["s"][1]
    assert sp.simplify(E.subs(u1, ustar[0]) - wrong) != 0


def test_term_derivatives_are_sympys() -> None:
    """The one typed derivative of the summand of E against sympy's (the oracle)."""
    x, y = sp.symbols("x y", real=True)
    c, h, s = sp.symbols("c h s", positive=True)
    g = pabi.term(x, y, c, h, s, sp.sqrt)
    oracle = (sp.diff(g, x), sp.diff(g, y), sp.diff(g, x, 2), sp.diff(g, x, y), sp.diff(g, y, 2))
    ours = pabi.term_derivatives(x, y, c, h, s, sp.sqrt)
    assert all(sp.simplify(a - b) == 0 for a, b in zip(ours, oracle, strict=True))


def test_float_paths_agree_with_mpmath() -> None:
    D, c, h, s2 = paper.INSTANCES["G time-varying"]
    cf, hf, sf = (np.array([float(v) for v in x]) for x in (c, h, s2))
    u = np.array([0.7, 1.1, 0.4, 0.9, 0.3, 0.2])
    e = pabi.objective(list(u), D, c, h, s2, dps=30)
    H = pabi.objective_hessian(list(u), D, c, h, s2, dps=30)
    assert abs(pabi.objective_float(u, float(D), cf, hf, sf) - float(e)) < 1e-12 * float(e)
    Hf = pabi.hessian_float(u, float(D), cf, hf, sf)
    assert np.allclose(Hf, np.array(H.tolist(), dtype=float), rtol=1e-12)
    # vectorised over leading axes
    U = np.stack([u, 1.5 * u])
    assert pabi.objective_float(U, float(D), cf, hf, sf).shape == (2,)


# --- moduli --------------------------------------------------------------------------------

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
        assert abs(mod.weakly_smooth("0.3", 0, 2).h - mod.lipschitz("0.3", 1).h) < mpf(10) ** -38
        # oracle: 4 (1-p)/(1+p) eta^(2/(1-p)) (M/2)^(2/(1-p)) at p = 1/2, M = 2: (4/3) eta^4
        assert abs(mod.weakly_smooth("0.1", "0.5", 2).h - mpf(4) / 3 * mpf("0.1") ** 4) \
            < mpf(10) ** -40
        assert abs(mod.strongly_dissipative("0.1", 2, 1, 3).h - mpf("0.4")) < mpf(10) ** -38
        assert abs(mod.nonconvex_smooth("0.1", 3).c - mpf("1.69")) < mpf(10) ** -38
    assert mod.weakly_smooth("0.5", 1, 2).h == 0
    with pytest.raises(ValueError, match="eta"):
        mod.weakly_smooth("1.5", 1, 2)
    with pytest.raises(ValueError, match="eta"):
        mod.convex_smooth("1.1", 2)
    with pytest.raises(ValueError, match="p"):
        mod.weakly_smooth("0.1", "1.5", 2)
    with pytest.raises(ValueError, match="kind"):
        mod.modulus("smooth-ish", eta=1)


def test_descent_ascent_modulus_of_remark_3_6() -> None:
    assert mod.derive_descent_ascent().holds
    da, lip = mod.descent_ascent_stress_test(pairs=3000, seed=1)
    assert da.violations == 0 and lip.violations == 0
    m = paper.rem_3_6("0.3", 1, 2)
    with precision(30):
        assert all(m(d) <= m.lipschitz(d) * (1 + mpf(10) ** -25) for d in ("0", "0.1", "5", "1e3"))
        # small delta: the beta branch; large delta: the Lipschitz branch
        assert abs(m("0.01") - mpf("0.01") * mpmath.sqrt(1 + mpf("0.36"))) < mpf(10) ** -28
        assert abs(m(10) - m.lipschitz(10)) < mpf(10) ** -25
    with pytest.raises(ValueError, match="beta"):
        mod.descent_ascent("0.3", 1, 0)


# --- exact Gaussian chains (the oracle for PABI) ---------------------------------------------

def oracle_linear_chain(alpha: mpf, D: mpf, a: list, s2: list) -> mpf:
    """Oracle: Delta_T = D prod a_t, V_T = sum_t s_t prod_{l>t} a_l^2 (explicit products)."""
    T = len(a)
    gap = D * mpmath.fprod(a)
    var = mpmath.fsum(s2[t] * mpmath.fprod([a[l] ** 2 for l in range(t + 1, T)])
                      for t in range(T))
    return alpha * gap ** 2 / (2 * var)


def test_linear_chain_renyi_against_oracle_and_theorem_3_4() -> None:
    rng = np.random.default_rng(7)
    with precision(50):
        for _ in range(5):
            T = int(rng.integers(1, 9))
            a = [mpf(repr(float(v))) for v in rng.uniform(-1.5, 1.5, T)]
            s2 = [mpf(repr(float(v))) for v in rng.uniform(0.1, 2, T)]
            ours = gc.linear_chain_renyi(3, 2, a, s2, dps=40)
            assert abs(ours - oracle_linear_chain(mpf(3), mpf(2), a, s2)) < mpf(10) ** -35 * ours
            # Theorem 3.4 with c_t = a_t^2, h = 0 is attained; a mutation 1e-12 below it is not
            thm = paper.thm_3_4(3, 2, [x * x for x in a], [0] * T, s2, dps=40)
            assert thm >= ours and thm - ours < mpf(10) ** -35 * ours
            assert thm * (1 - mpf(10) ** -12) < ours
    with pytest.raises(ValueError, match="sigma2"):
        gc.linear_chain_renyi(2, 1, [1, 1], [1, 0])
    with pytest.raises(ValueError, match="alpha"):
        gc.linear_chain_renyi("0.5", 1, [1], [1])


def test_projected_gaussian_renyi_against_quadrature_oracle() -> None:
    with precision(40):
        for al, m1, m2, s2, lo, hi in ((3, "0.3", "-0.5", "0.7", -1, 1),
                                       (2, "2", "-1", "0.3", 0, 1),
                                       ("1.5", "0", "0.1", "4", -1, 1)):
            al, m1, m2, s2 = (mpf(v) for v in (al, m1, m2, s2))
            s = mpmath.sqrt(s2)
            inner = mpmath.quad(lambda x, al=al, m1=m1, m2=m2, s=s: mpmath.npdf(x, m1, s) ** al
                                * mpmath.npdf(x, m2, s) ** (1 - al), [lo, hi])
            atoms = sum(p ** al * q ** (1 - al) for p, q in (
                (mpmath.ncdf((lo - m1) / s), mpmath.ncdf((lo - m2) / s)),
                (mpmath.ncdf((m1 - hi) / s), mpmath.ncdf((m2 - hi) / s))))
            oracle = mpmath.log(inner + atoms) / (al - 1)
            ours = gc.projected_gaussian_renyi(al, m1, m2, s2, lo, hi, dps=30)
            assert abs(ours - oracle) < mpf(10) ** -25
            assert ours <= al * (m1 - m2) ** 2 / (2 * s2)  # data processing
    with pytest.raises(ValueError, match="hi"):
        gc.projected_gaussian_renyi(2, 0, 1, 1, 1, 1)


def test_pabi_bounds_dominate_exact_divergences() -> None:
    rows = (paper.lem_3_3_gaussian_instances(3, dps=30)
            + paper.lem_3_2_projected_instances(3, dps=30))
    with precision(40):
        for r in rows:
            assert r.bound >= r.exact * (1 - mpf(10) ** -25), r.name
            if r.tight:
                assert abs(r.bound - r.exact) < mpf(10) ** -25 * r.exact, r.name
                # the check would catch a bound that moved below the truth
                assert r.bound * (1 - mpf(10) ** -10) < r.exact
    assert sum(r.tight for r in rows) == 3
    assert all(paper.thm_3_4_tight_symbolic(T).holds for T in (1, 2, 3))


# --- statements, Table 1, Sec. 3.1-3.2, figures, ledger ------------------------------------

def test_table_1_regenerated() -> None:
    rows = paper.table_1()
    assert len(rows) == 6
    assert all(r.c_h_match and r.holds for r in rows)
    assert [r.relation for r in rows] == ["="] * 5 + ["<="]


def test_table_1_comparison_can_fail() -> None:
    # the printed cells are what table_1 compares with; a wrong cell must not simplify away
    from dpsym.papers.bravo2025 import printed
    S = printed.SYMBOLS
    wrong = printed.formula(printed.TABLE_1[2][2]) * S["T"] / S["c"] ** S["T"]
    assert sp.simplify(wrong - printed.formula(printed.EQ_7)) != 0


def test_prop_b_1_eigenvalues() -> None:
    _, eigs = paper.prop_b_1(dps=30)
    assert eigs[0][0] < 0 and eigs[1][0] < 0   # infeasible points: E not convex
    assert eigs[2][0] > 0 and eigs[3][0] > 0   # feasible point and u*


def test_sections_3_1_and_3_2_evidence() -> None:
    in1, in2, mid, gap = paper.sec_3_1_nonconvex_feasible_set(dps=30)
    assert in1 and in2 and not mid and gap > 0
    n, worst = paper.sec_3_2_hessian_on_feasible_set(points=40)
    assert n > 100 and worst > 0
    assert all(paper.feasibility_of_instances(dps=30).values())


def test_figures_registered_and_drawn() -> None:
    from dpsym.papers.bravo2025 import figures

    keys = {f.key for f in all_figures("bravo2025")}
    for name in ("figure_1", "figure_2", "shift_profiles", "thm34_bound_per_table1_row",
                 "shift_solver_multistart", "pabi_vs_exact_gaussian_chain"):
        assert f"bravo2025/{name}" in keys
    fig = figures.figure_2()
    assert len(fig.axes) >= 2


def test_ledger_rows() -> None:
    ids = ("sec2/", "rem3.6/", "sec3.1/", "lem3.3/", "eq5/", "lem3.5/stationary",
           "lem3.5/feasible", "propB.1/", "fig2/")
    claims = [c for c in all_claims("bravo2025") if c.id.split("/", 1)[1].startswith(ids)]
    assert len(claims) >= 20
    for c in claims:
        o = c.run(30)
        assert o.verdict == "reproduced", (c.id, o)
