"""Birrell et al. 2024: the evidence functions behind the claims (App. C lemmas, the Thm C.9
gap and the search for a violation, Figure 7, the misprints, App. D.3), the printed data,
and the one-place formulas (44), (47), (67) of the concept modules."""

from __future__ import annotations

import math

import mpmath
import numpy as np
import pytest
import sympy as sp
from mpmath import mpf

from dpsym.errors import HypothesisError
from dpsym.numerics import nstr, precision
from dpsym.papers.birrell2024 import add_remove as ar
from dpsym.papers.birrell2024 import appendix_c as ac
from dpsym.papers.birrell2024 import fswr, printed
from dpsym.papers.birrell2024 import poisson_replace_one as pr
from dpsym.papers.birrell2024 import replace_one as ro
from dpsym.papers.birrell2024 import sampling as sa
from dpsym.rdp import gaussian_mixture as gm
from dpsym.rdp import taylor as ty

# --- one formula, one place ------------------------------------------------------------------


def test_m_forms_share_the_terms_of_44():
    assert gm.M_terms(3) == [(-1, 0), (3, 0), (-3, 4), (1, 12)]
    assert sp.simplify(gm.M_expression(4) - ty.symbolic_M(4)) == 0
    with precision(30):
        assert abs(gm.M_fixed_dps(6, 5, 40) / gm.M(6, 5, dps=30) - 1) < mpf("1e-30")
    assert math.isclose(gm.M_float64(6.0, 4), float(gm.M(6, 4, dps=20)), rel_tol=1e-12)
    # the precision demonstrations really lose: negative "even moments"
    assert gm.M_float64(20.0, 36) < 0 < gm.M(20, 36, dps=20)
    assert gm.M_fixed_dps(200, 20, 15) < 0


def test_b_tilde_from_is_47():
    m = {2: mpf(4), 3: mpf(2), 4: mpf(9)}
    assert gm.b_tilde_from(m.get, 2) == 4
    assert gm.b_tilde_from(m.get, 3) == 6  # sqrt(M_2 M_4)


def test_second_derivative_max_is_the_printed_69_96_136():
    for scheme, p in (("fswor", printed.EQ_69), ("poisson", printed.EQ_96),
                      ("uncoupled", printed.EQ_136)):
        target = printed.formula(p)
        a = next(x for x in target.free_symbols if x.name == "alpha")
        s = next(x for x in target.free_symbols if x.name == "sigma")
        got = ty.second_derivative_max(scheme).subs(ty.sigma_s, s)
        assert sp.simplify(got - target / (a * (a - 1))) == 0
        with precision(30):
            num = ty.second_derivative_max_value(6, scheme, dps=30)
            assert abs(num - sp.N((target / (a * (a - 1))).subs(s, 6), 40)) < mpf("1e-28")


def test_printed_formula_parsing_and_the_figure_data():
    assert printed.formula(printed.EQ_69, sigma=2, alpha=3) == sp.sympify(
        "-12*exp(1/2) + 12*exp(1)")
    assert len(printed.FIGURE_2) == 11 and len(printed.FIGURE_3) == 10
    assert all("not printed" in p.where for row in printed.FIGURE_9.values() for p in row.values())
    assert printed.ACCURACY_FSWOR.value == "63.87" and printed.ACCURACY_POISSON.value == "61.57"


def test_symbolic_derivations_hold_and_a_wrong_printed_form_fails():
    assert all(d.holds for d in ar.eq_44_derivations(range(6)).values())
    assert all(d.holds for d in ar.eq_41_derivations(range(5)).values())
    assert ar.thm_3_2_q2_coefficient().holds
    assert all(d.holds for d in ro.eq_65_derivations((3,)).values())
    assert all(d.holds for d in sa.app_f_ratios().values())
    # mutation: the q^2 term with M_{sigma,2} -> e^{2/sigma^2} - 1 is caught
    d = ar.thm_3_2_q2_coefficient()
    wrong = d.target.subs(sp.exp(4 / ty.sigma_s**2), sp.exp(2 / ty.sigma_s**2))
    assert sp.simplify(d.derived - wrong) != 0


# --- Lemmas C.3-C.7 ---------------------------------------------------------------------------


def test_lemma_c3_c4_c7_hold_with_their_equality_cases():
    r3 = ac.lem_c_3_scan(ds=(0.5, 2.0), pairs=((1, 2), (0.5, 3)))
    assert r3.cases == 4 and r3.worst_ratio < 1
    r4 = ac.lem_c_4_scan(sigmas=(2, 6), ks=(3, 4), rhos=(0.5, 1.0))
    assert r4.worst_ratio <= 1 + mpf("1e-15")
    lhs, rhs = ac.lem_c_4(6, 4, 1)  # equality: B_{6,4} = M_{6,4} = B~_{6,4}
    with precision(20):
        assert abs(lhs / rhs - 1) < mpf("1e-18")
    r7 = ac.lem_c_7_scan(sigmas=(2,), betas=((1, 1), (0.5, 2.5)), rhos=(1.0,))
    assert r7.worst_ratio <= 1 + mpf("1e-15")


def test_lemma_c4_with_2_sigma_is_what_fails_for_poisson():
    # the coupled chi^k term at distance r_t (still allowed by (93)) against B~_{2 sigma, k}
    chi, _ = ac.lem_c_4(6, 4, 1)
    assert chi > 20 * gm.B_tilde(12, 4, dps=20)


def test_lemma_c5_holds_and_a_shrunken_right_side_would_not():
    r = ac.lem_c_5_scan(cases=25, seed=3)
    assert r.cases == 25 and r.worst_ratio < 1
    lhs, rhs = ac.lem_c_5(str(r.worst[0]), str(r.worst[1]), r.worst[2])
    with precision(20):
        assert lhs <= rhs and lhs > rhs * mpf("0.5")  # the case is not a trivial one
    # mutation: dropping D(p||r) breaks it where p is far from r and q
    lhs, rhs = ac.lem_c_5("1.8", "0.2", 6)
    assert lhs > rhs - ac.chi_k_gaussian("1.8", 6)


@pytest.mark.parametrize(("fn", "args", "name"), [
    (ac.lem_c_3, (3, 2, 1), "gamma"),
    (ac.lem_c_4, (6, 4, "1.5"), "rho"),
    (ac.lem_c_5, (1, 2, 0), "k"),
    (ac.lem_c_7, (6, "0.5", 1, 1, 1), "beta2"),
    (pr.thm_c_9, (2, 6, "0.01", 4, 1, "loose"), "variant"),
    (pr.thm_c_9_step, (10, 6, 2), "k"),
    (fswr.eq_126_as_printed, ("2.5", 6, 10, 100), "alpha"),
])
def test_bad_input_names_parameter(fn, args, name):
    with pytest.raises(HypothesisError, match=f"^{name}="):
        fn(*args)


# --- Thm C.9: the step, the search, Figure 7 ---------------------------------------------------


def test_c9_step_fails_at_k_4_and_6_and_holds_at_k_3():
    s4, s6 = pr.thm_c_9_step(10, 6, 4), pr.thm_c_9_step(10, 6, 6)
    assert (nstr(s4.exact, 6), nstr(s4.claimed, 6)) == ("315.377", "170.112")
    assert (nstr(s6.exact, 5), nstr(s6.claimed, 5)) == ("18462.0", "15024.0")
    assert not s4.step_holds and not s6.step_holds
    assert abs(s4.exact) <= s4.conservative and abs(s6.exact) <= s6.conservative
    r3, _ = pr.thm_c_9_step_scan(3, sigmas=(6,), alphas=(10,), norms=3, angles=5)
    r4, _ = pr.thm_c_9_step_scan(4, sigmas=(6,), alphas=(10,), norms=3, angles=5)
    r4c, _ = pr.thm_c_9_step_scan(4, "conservative", sigmas=(6,), alphas=(10,), norms=3,
                                  angles=5)
    assert r3 < 1 < r4 and r4c < 1


def test_c9_violation_search_small_box():
    r = pr.thm_c_9_violation_search(alphas=(2, 10), sigmas=(6,), qs=(1e-4, 0.05), ms=(5,),
                                    prescan=((10, 6, 0.05),), confirm=2)
    assert r.points == 4 and r.prescans == 1 and r.antiparallel_worst == 1
    assert 0.99 < r.worst_ratio < 1
    assert r.worst[2] == 1e-4  # the ratio tends to 1 as q -> 0
    # the exact divergence the search uses agrees with the mpmath quadrature
    with precision(25):
        ex = mpmath.log1p(gm.F_minus_1_collinear(10, 6, "0.05", dps=20))
    assert math.isclose(gm.log_F_collinear_float64(10, 6, 0.05), float(ex), rel_tol=1e-10)


def test_exact_divergence_three_ways():
    two_d = gm.F_minus_1(10, 6, "0.05", rho1="0.5", rho2="0.5", angle=mpmath.pi, dps=20)
    one_d = gm.F_minus_1_collinear(10, 6, "0.05", dps=20)
    f64 = gm.F_minus_1_float64(10, 6, 0.05, 0.5, 0.5, np.pi)
    with precision(20):
        assert abs(two_d / one_d - 1) < mpf("1e-15")
    assert math.isclose(float(f64), float(one_d), rel_tol=1e-10)
    # at alpha = 256, sigma = 1 the log-space quadrature does not overflow
    assert math.isclose(gm.log_F_collinear_float64(256, 1, 0.1), 32077.405147686, rel_tol=1e-9)


def test_the_anti_parallel_pair_is_the_worst_poisson_pair():
    r1, r2, ph, v = pr.worst_shift_pair(10, 6, 0.05)
    assert (r1, r2, ph) == (0.5, 0.5, float(np.pi)) and v > 0


def test_figure_7_ordering_fails_from_alpha_53_with_the_sound_bound():
    paper = pr.figure_7_ordering("paper", alphas=(52, 53, 55), dps=15)
    sound = pr.figure_7_ordering("conservative", alphas=(52, 53, 55), dps=15)
    assert all(ok for _, ok, _, _ in paper)
    assert [ok for _, ok, _, _ in sound] == [True, False, False]
    _, _, c9, low = sound[2]
    assert (nstr(c9, 5), nstr(low, 5)) == ("1.8963e-5", "1.891e-5")


def test_sound_c9_costs_eps():
    e_paper = pr.thm_c_9_epsilon("1e-5", "paper", dps=15)[0]
    e_sound = pr.thm_c_9_epsilon("1e-5", "conservative", dps=15)[0]
    assert (nstr(e_paper, 5), nstr(e_sound, 4)) == ("1.0507", "1.062")


# --- misprints and App. D.3 -----------------------------------------------------------------


def test_misprint_evidence():
    total, constant = ar.eq_13_time_varying()
    assert total > 5 * constant
    c = fswr.eq_110_check()
    assert c.q_tilde >= c.needed and c.q > c.q_tilde
    assert fswr.eq_110_check(B=3, D=7, K=2).q_tilde >= fswr.eq_110_check(B=3, D=7, K=2).needed
    assert fswr.eq_126_as_printed(2, 6, 120, 50000, index_sets="figure9", dps=20) > 10**5
    c135 = ro.eq_135_check(dps=20)
    with precision(20):
        assert abs(c135.uncoupled / c135.printed_136 - 1) < mpf("1e-15")


def test_app_d3_gap_numbers():
    g = fswr.app_d_3_gap(dps=20)
    assert nstr(g.alpha_c, 8) == "1.8709615"
    assert nstr(g.floor_19, 6) == "71.3303"
    assert nstr(g.upper_2, 6) == nstr(g.upper_exact_2, 6) == "295.593"
    assert nstr(g.lower_2, 6) == "6.77099e-7"
    assert nstr(g.alpha_lower, 6) == "2.62297"


def test_app_g_heuristic_and_factor():
    h = ar.app_g_heuristic()
    R, L = sp.symbols("R L", positive=True)
    assert sp.simplify(h["eq_149"] - 2 * sp.sqrt(L * R)) == 0
    assert sp.simplify(h["eps_star"] - (R + 2 * sp.sqrt(L * R))) == 0
    rows = ar.app_g_factor(("1e-5",), dps=15)
    assert nstr(rows[0][1], 4) == "0.4984" and nstr(rows[0][2], 5) == "1.0829"


# --- the training proxy ----------------------------------------------------------------------


def test_training_summaries():
    from dpsym.papers.birrell2024 import training as tr

    b = tr.figure_5_batch_range()
    assert (b.kmin, b.kmax) == (77, 168) and b.intercept_mb < 0
    pytest.importorskip("sklearn")
    assert 0.5 < tr.nonprivate_accuracy(epochs=2) <= 1
