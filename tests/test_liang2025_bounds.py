"""Liang et al. 2025: Thms 3.3 and 3.4 (both variants), the derived closed forms and the
refined k-step schedule.  Oracles are exact rational arithmetic (fractions) written here,
independently of the sympy assembly in the package."""

from __future__ import annotations

import doctest
from fractions import Fraction

import mpmath
import pytest
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st
from mpmath import mpf

from dpsym.errors import HypothesisError
from dpsym.numerics import agreeing_digits, precision
from dpsym.papers.liang2025 import closed_forms as cf
from dpsym.papers.liang2025 import privacy as pr
from dpsym.papers.liang2025 import refined as rf
from dpsym.papers.liang2025.printed import FORMULAS, formula
from dpsym.rdp.conversions import zcdp_to_epsilon

# the setting of the theory figure of arXiv:2502.17772v4 (authors' public plotting script)
FIG = dict(n=8, b=2, eta="0.2", C=2, sigma=4, L=1, D=1)


def test_doctests():
    for mod in (pr, cf, rf):
        res = doctest.testmod(mod)
        assert res.failed == 0 and res.attempted > 0


@pytest.mark.parametrize("key,fn", [("eq10", pr.eq_10_expr), ("eq11", pr.eq_11_expr),
                                    ("eq12", pr.eq_12_expr), ("eq13", pr.eq_13_expr),
                                    ("eq14", pr.eq_14_expr), ("eq15", pr.eq_15_expr)])
def test_assembled_bounds_equal_the_printed_formulas(key, fn):
    assert sp.simplify(fn() - formula(key)) == 0, FORMULAS[key]


def test_mutated_printed_formula_is_detected():
    """The comparison above is not vacuous: a changed constant no longer matches."""
    mutated = formula("eq14").subs(sp.Symbol("D", positive=True), 2 * sp.Symbol("D",
                                                                             positive=True))
    assert sp.simplify(pr.eq_14_expr() - mutated) != 0
    assert sp.simplify(pr.eq_12_expr() - formula("eq12") * sp.Rational(99, 100)) != 0


def _eq12(alpha, T, n, b, C, sigma, beta):  # oracle, exact
    return 2 * alpha * C ** 2 * T / (beta * n * b * sigma ** 2)


def _eq14(alpha, n, b, eta, C, sigma, beta, L, D):  # oracle, exact
    return (2 * alpha * C ** 2 / (beta * n * b * sigma ** 2)
            + alpha * (1 + eta * L) ** 2 * D ** 2 / (2 * eta ** 2 * sigma ** 2 * (1 - beta)))


@settings(max_examples=25, deadline=None)
@given(alpha=st.fractions(Fraction(11, 10), 50), T=st.integers(1, 10 ** 6),
       n=st.integers(10, 10 ** 5), C=st.fractions(Fraction(1, 10), 10),
       sigma=st.fractions(Fraction(1, 100), 10), beta=st.fractions(Fraction(1, 100),
                                                                   Fraction(99, 100)))
def test_thm_3_3_rounds_up_and_matches_exact(alpha, T, n, C, sigma, beta):
    b = max(1, n // 7)
    v = pr.thm_3_3(alpha=alpha, T=T, n=n, b=b, C=C, sigma=sigma, beta=beta, dps=30)
    exact = _eq12(alpha, T, n, b, C, sigma, beta)
    with precision(60):
        e = mpf(exact.numerator) / exact.denominator
        assert v >= e  # rounded up: never below the exact bound
        assert (v - e) / e <= mpf(10) ** -29


@settings(max_examples=25, deadline=None)
@given(alpha=st.fractions(Fraction(11, 10), 50), eta=st.fractions(Fraction(1, 100), 2),
       L=st.fractions(Fraction(1, 100), 10), D=st.fractions(Fraction(1, 100), 100),
       beta=st.fractions(Fraction(1, 100), Fraction(99, 100)))
def test_thm_3_4_rounds_up_and_matches_exact(alpha, eta, L, D, beta):
    v = pr.thm_3_4(alpha=alpha, n=1000, b=50, eta=eta, C=1, sigma=2, beta=beta, L=L, D=D,
                   dps=30)
    exact = _eq14(alpha, 1000, 50, eta, 1, 2, beta, L, D)
    with precision(60):
        e = mpf(exact.numerator) / exact.denominator
        assert e <= v <= e * (1 + mpf(10) ** -29)


def test_eq_48_minimum_is_at_tau_T_minus_1_and_equals_thm_3_4():
    kw = dict(alpha="1.1", n=8, b=2, eta="0.2", C=2, sigma=4, beta="0.5", L=1, D=1, dps=30)
    vals = [pr.eq_48(T=6, tau=tau, **kw) for tau in range(6)]
    assert vals == sorted(vals, reverse=True)
    assert vals[-1] == pr.thm_3_4(**kw)


def test_eq_47_with_optimal_schedule_beats_the_papers_choice():
    from dpsym.shifts.smooth_reduction import k_step_allocation

    kw = dict(alpha="1.1", n=8, b=2, eta="0.2", C=2, sigma=4, beta="0.3", L=1, D=1, dps=30)
    one = pr.eq_47(a=["1.2"], **kw)
    assert one == pr.thm_3_4(**kw)
    four = pr.eq_47(a=list(k_step_allocation("1.2", 1, 4, dps=40).a), **kw)
    assert four < one
    with pytest.raises(HypothesisError, match="ending at z = 0"):
        pr.eq_47(a=["1.0"], **kw)  # pays too little: z_T > 0


def test_n2_side_conditions_are_enforced():
    ok = dict(alpha=2, T=10, n=1000, b=100, C=1, sigma=1, beta="0.5")
    v = pr.thm_3_3(variant="n2", **ok)
    with precision(30):
        assert abs(v - mpf(8) * 2 * 10 / (mpf("0.5") * 1000 ** 2)) < mpf(10) ** -25
    with pytest.raises(HypothesisError, match="b <= n/5"):
        pr.thm_3_3(variant="n2", **{**ok, "b": 201})
    with pytest.raises(HypothesisError, match=r"sigma > 8C/\(b sqrt\(beta\)\)"):
        pr.thm_3_3(variant="n2", **{**ok, "sigma": "0.1"})
    with pytest.raises(HypothesisError, match="alpha <= alpha"):
        pr.thm_3_3(variant="n2", **{**ok, "alpha": 50})
    with pytest.raises(HypothesisError, match="alpha <= alpha"):
        pr.thm_3_4(variant="n2", eta=1, L=1, D=1, **{k: v for k, v in ok.items() if k != "T"}
                   | {"alpha": 50})
    # the threshold itself: sigma = 8C/(b sqrt beta) exactly is excluded (strict >)
    with pytest.raises(HypothesisError):
        pr.lem_3_2(alpha=2, n=1000, b=100, C=1, sigma="0.16", beta="0.25", variant="n2")
    pr.lem_3_2(alpha=2, n=1000, b=100, C=1, sigma="0.1600001", beta="0.25", variant="n2")


@pytest.mark.parametrize("bad,match", [({"alpha": 1}, "alpha > 1"), ({"beta": 1}, "beta < 1"),
                                       ({"beta": 0}, "0 < beta"), ({"n": 10, "b": 11}, "b <= n"),
                                       ({"T": 0}, "T >= 1"), ({"sigma": -1}, "sigma_DP > 0"),
                                       ({"T": 2.5}, "integer"), ({"C": "nan"}, "NaN")])
def test_bad_input_raises(bad, match):
    kw = dict(alpha=2, T=10, n=100, b=10, C=1, sigma=1, beta="0.5") | bad
    with pytest.raises(HypothesisError, match=match):
        pr.thm_3_3(**kw)


def test_algorithm_1_off_by_one():
    assert pr.algorithm_1_updates(5) == (6, 5)


# --- closed forms -------------------------------------------------------------------------------

def test_symbolic_closed_forms_checks():
    for variant in ("nb", "n2"):
        assert all(d.holds for d in cf.closed_forms_checks(variant))
    ns = cf.noise_split_symbolic()
    assert ns.beta_star == sp.sqrt(ns.A) / (sp.sqrt(ns.A) + sp.sqrt(ns.B))
    d = cf.rdp_to_dp_symbolic()
    assert sp.simplify(d.epsilon - (d.rho + 2 * sp.sqrt(d.rho * d.ell))) == 0


def test_plateau_beta_star_and_t_star_at_the_figure_setting():
    """beta* = 1/7, alpha rho_DC = 539/320 = 1.684375 at alpha = 1.1, T* = 49 exactly.

    Oracle: brute-force minimisation of (14) over beta (golden section, mpmath), and exact
    rational evaluation of (14) at beta = 1/7."""
    b_star = cf.beta_star(**FIG, dps=40)
    with precision(40):
        assert abs(b_star - mpf(1) / 7) < mpf(10) ** -38
    exact = _eq14(Fraction(11, 10), 8, 2, Fraction(1, 5), 2, 4, Fraction(1, 7), 1, 1)
    assert exact == Fraction(539, 320)
    plateau = cf.rho_dc(**FIG, dps=40)
    with precision(40):
        assert abs(mpf("1.1") * plateau - mpf(539) / 320) < mpf(10) ** -37
        def f(bt):
            return (_eq14(mpf("1.1"), 8, 2, mpf("0.2"), 2, 4, bt, 1, 1))
        x, fx = mpmath.findroot(lambda bt: mpmath.diff(f, bt), mpf("0.2")), None
        fx = f(x)
        assert abs(x - b_star) < mpf(10) ** -30 and abs(fx - mpf("1.1") * plateau) < 1e-30
    assert cf.t_star(**FIG) == 49
    with precision(30):
        assert agreeing_digits(cf.rho_gc(T=49, n=8, b=2, C=2, sigma=4), plateau) >= 28
    # slope per iteration at alpha = 1.1: 1.1 * 2 C^2 / (n b sigma^2) = 0.034375
    with precision(30):
        assert mpf("1.1") * cf.rho_gc(T=1, n=8, b=2, C=2, sigma=4) == mpf("0.034375")


def test_combined_rho_is_linear_then_flat():
    vals = [cf.combined_rho(T=T, **FIG, dps=30) for T in (1, 10, 48, 49, 50, 500)]
    with precision(30):
        assert vals[0] * 10 == vals[1] and vals[2] < vals[3]
        assert vals[4] == vals[5] == cf.rho_dc(**FIG, dps=30)
        assert agreeing_digits(vals[3], vals[4]) >= 28  # T* = 49: both bounds equal


def test_dp_epsilon_equals_zcdp_conversion_and_numeric_minimum():
    for rho in ("1.53125", "0.001", "250"):
        eps, a = cf.dp_epsilon(rho, "1e-5", dps=40)
        assert agreeing_digits(eps, zcdp_to_epsilon(rho, "1e-5", dps=40)) >= 38
        with precision(40):
            r = mpf(rho)

            def f(al, r=r):
                return r * al + mpmath.log(mpf(10) ** 5) / (al - 1)  # oracle: Lemma 2.4

            assert f(a) <= f(a * (1 + mpf("1e-6"))) and f(a) <= f(a * (1 - mpf("1e-6")))
            assert abs(f(a) - eps) < mpf(10) ** -35
    # constrained: alpha_max below the optimum gives Lemma 2.4 at alpha_max
    eps, a = cf.dp_epsilon("0.001", "1e-5", alpha_max=20, dps=30)
    with precision(30):
        assert a == 20 and abs(eps - (mpf("0.02") + mpmath.log(mpf(10) ** 5) / 19)) < 1e-25


def test_gdp_mu():
    with precision(30):
        assert abs(cf.gdp_mu("1.53125") - mpf("1.75")) < mpf(10) ** -28
        # the GDP curve G(mu) has RDP alpha mu^2 / 2 = alpha rho
        assert abs(cf.gdp_mu("2") ** 2 / 2 - 2) < mpf(10) ** -28


def test_n2_beta_star_must_satisfy_the_noise_condition():
    with pytest.raises(HypothesisError, match=r"sigma > 8C/\(b sqrt\(beta\*\)\)"):
        cf.rho_dc(n=1000, b=100, eta="0.1", C=1, sigma="0.1", L=1, D=1, variant="n2")
    v = cf.rho_dc(n=1000, b=100, eta=1, C=1, sigma=1, L="0.01", D="0.001", variant="n2")
    assert v > 0


# --- refined schedule -------------------------------------------------------------------------

def test_refined_k1_is_thm_3_4_and_refinement_improves_the_plateau():
    assert agreeing_digits(rf.refined_rho_k(k=1, **FIG), cf.rho_dc(**FIG)) >= 45
    r = rf.refined_bound(T=200, **FIG)
    assert r.k == 4
    with precision(30):
        assert agreeing_digits(mpf("1.1") * r.rho, mpf("1.15078464523")) >= 11
        assert r.rho < cf.rho_dc(**FIG) * mpf("0.69")  # 1.684 -> 1.151: 32% lower


def test_refined_search_equals_brute_force():
    kw = dict(n=100, b=1, eta=1, C=1, sigma=1, L="0.01", D=10)
    r = rf.refined_bound(T=400, **kw)
    brute = min(range(1, 401), key=lambda k: rf.refined_rho_k(k=k, **kw, dps=30))
    assert r.best_k == brute


def test_refined_is_never_above_the_papers_bound():
    for T in (1, 5, 30, 1000):
        for L in ("0.001", "1", "50"):
            kw = dict(FIG, L=L)
            assert rf.refined_bound(T=T, **kw).rho <= cf.combined_rho(T=T, **kw)


def test_eta_L_to_zero_limit_is_linear_in_D():
    d = rf.linear_limit_symbolic()
    assert all(c.holds for c in d.checks)
    kw = dict(n=100, b=1, eta=1, C=1, sigma=1, D=10)
    vals = [rf.refined_bound(T=10 ** 6, L=h, **kw).rho_k for h in ("0.1", "0.01", "0.001")]
    # 4 C D / (eta sigma^2 sqrt(n b)) = 4 here; the exact minimum over integer k decreases to it
    assert vals[0] > vals[1] > vals[2] > 4
    assert vals[2] < mpf("4.11")
    paper = cf.rho_dc(L="0.001", **kw)
    assert paper > 10 * vals[2]


def test_results_independent_of_global_precision():
    refs = (pr.thm_3_4(alpha="1.1", n=8, b=2, eta="0.2", C=2, sigma=4, beta="0.3", L=1, D=1),
            cf.rho_dc(**FIG), rf.refined_rho_k(k=3, **FIG))
    for dps in (8, 120):
        with precision(dps):
            again = (pr.thm_3_4(alpha="1.1", n=8, b=2, eta="0.2", C=2, sigma=4, beta="0.3",
                                L=1, D=1), cf.rho_dc(**FIG), rf.refined_rho_k(k=3, **FIG))
        assert again == refs


# --- the ledger's checks fail when a bound moves the unsafe way ---------------------------------

def _claim(cid):
    from dpsym.claims import all_claims

    return next(c for c in all_claims("liang2025") if c.id == f"liang2025/{cid}")


def test_plateau_claim_fails_when_the_closed_form_is_mutated(monkeypatch):
    claim = _claim("thm3.4/plateau")
    assert claim.run(30).verdict == "reproduced"
    real = cf.rho_dc

    def low(**kw):
        v = real(**kw)
        with precision(kw.get("dps", 50)):
            return v * (1 - mpf(10) ** -8)  # a bound 1e-8 too small

    monkeypatch.setattr(cf, "rho_dc", low)
    assert claim.run(30).verdict == "failed"


def test_counterexample_claim_fails_if_the_add_order_were_covered(monkeypatch):
    from dataclasses import replace

    from dpsym.papers.liang2025 import adjacency as adj

    claim = _claim("thm3.3/adjacency")
    real = adj.eq_12_counterexample

    def harmless(**kw):
        c = real(**kw)
        return replace(c, first=c.claimed / 2)  # as if D_alpha(P_D' || P_D) met (12)

    monkeypatch.setattr(adj, "eq_12_counterexample", harmless)
    assert claim.run(30).verdict == "failed"


def test_thm_3_3_claim_compares_with_the_printed_formula(monkeypatch):
    from dpsym.papers.liang2025 import printed

    claim = _claim("thm3.3/eq12")
    assert claim.run(30).verdict == "reproduced"
    real = printed.formula

    def mutated(key):
        return real(key) * sp.Rational(99, 100) if key == "eq12" else real(key)

    monkeypatch.setattr(printed, "formula", mutated)
    assert claim.run(30).verdict == "failed"
