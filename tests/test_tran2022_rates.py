"""Tran & Cutkosky 2022: the rate algebra (Lemma 7, Thms 6 and 9, balancing, regimes)."""

from __future__ import annotations

import pytest
import sympy as sp

from dpsym.papers.tran2022 import formulas as fm
from dpsym.papers.tran2022 import rates

N, T, d, eps, ell, lg = fm.N, fm.T, fm.d, fm.eps, fm.ell, fm.lg
R, L, G = fm.R, fm.L, fm.G


def _by_name(steps):
    return {s.name: s for s in steps}


def test_thm_9_every_step():
    steps = rates.thm_9_steps()
    assert all(s.holds for s in steps), [s.name for s in steps if not s.holds]
    assert len(steps) == 7
    rate = d ** sp.Rational(1, 3) / (eps * N) ** sp.Rational(2, 3)
    vals = {str(k): v for k, (_, v) in rates.thm_9_plugin().items()}
    assert sp.simplify(vals["3*R/(2*T*eta)"] - sp.Rational(3, 2) * R * rate) == 0
    assert sp.simplify(vals["6*G*sqrt(alpha)"] - 6 * G / sp.sqrt(N)) == 0


def test_thm_9_step_check_catches_a_mutation(monkeypatch):
    monkeypatch.setattr(fm, "THM_9_PRINTED", fm.THM_9_PRINTED - G / sp.sqrt(N))  # 6G -> 5G
    assert not _by_name(rates.thm_9_steps())[
        "display 5 at T = N^(7/3) eps^(4/3)/d^(2/3) = Theorem 9"].holds


def test_thm_6_steps_and_the_48():
    s = _by_name(rates.thm_6_steps())
    first = s["Lemma 5 + Lemma 11 + Lemma 12 (V <= 4 lg T/N) = display 1"]
    noise = fm.alpha * G * lg * sp.sqrt(d * T * ell) / (eps * sp.sqrt(N))
    assert not first.holds and sp.simplify(first.difference + 36 * noise) == 0  # 12 - 48
    assert s["display 3 at alpha = eps N/(T lg sqrt(d ell)) = display 4"].holds
    assert not s["display 4 at T = eps N^2/(lg sqrt(d ell)) = Theorem 6"].holds
    derived = rates.thm_6_derived_bound(48)
    u = d ** sp.Rational(1, 4) * ell ** sp.Rational(1, 4) * sp.sqrt(lg) / sp.sqrt(eps * N)
    want = (sp.Rational(3, 2) * R + 12 * L + 48 * G) * u + 6 * G / sp.sqrt(N) \
        + 6 * G * lg * sp.sqrt(d * ell) / (eps * N)
    assert sp.simplify(derived - want) == 0
    # The printed R coefficient lacks sqrt(lg) ell^(1/4).
    printed_r = sp.expand(fm.THM_6_PRINTED).coeff(R)
    assert sp.simplify(sp.expand(derived).coeff(R) / printed_r - sp.sqrt(lg) * ell ** sp.Rational(
        1, 4)) == 0


def test_lem_7_every_step():
    steps = rates.lem_7_steps()
    assert all(s.holds for s in steps), [s.name for s in steps if not s.holds]
    ratios = steps[0].difference
    assert list(ratios) == [sp.Rational(3, 4), sp.Rational(3, 4), 1, sp.Rational(1, 16), 1]


def test_lem_7_check_catches_a_mutation(monkeypatch):
    # 192 -> 191: the bound moved down (the unsafe way).
    monkeypatch.setattr(fm, "LEM_7", fm.LEM_7 - G * fm.alpha * lg * sp.sqrt(d * ell) / eps)
    assert not _by_name(rates.lem_7_steps())["sigma = 4 sqrt(ell)/eps gives Lemma 7"].holds


def test_balance():
    b1, b2 = rates.balance(1), rates.balance(2)
    assert b1.exponents == (2, 1, sp.Rational(-1, 2))
    assert b2.exponents == (sp.Rational(7, 3), sp.Rational(4, 3), sp.Rational(-2, 3))
    assert sp.simplify(b2.rate - d ** sp.Rational(1, 3) / (eps * N) ** sp.Rational(2, 3)) == 0
    assert sp.simplify(b1.rate - d ** sp.Rational(1, 4) / sp.sqrt(eps * N)) == 0
    assert sp.simplify(b2.T - fm.THM_9_T) == 0
    with pytest.raises(ValueError):
        rates.balance(3)


def test_regimes_and_table():
    assert all(r.holds for r in rates.regime_inequalities())
    rows = {r.method: r for r in rates.comparison_table()}
    assert rows["sensitivity-reduced NSGD (Alg. 2, Thm 9)"].exponents == (
        sp.Rational(-2, 3), sp.Rational(-2, 3), sp.Rational(1, 3))
    assert rows["DP-SRM"].exponents == rows["DP-NSGD (Alg. 1, Thm 6)"].exponents
    rt = rates.runtime_exponents()
    assert sp.simplify(rt["printed / derived"] - d ** sp.Rational(2, 3) / eps ** sp.Rational(
        8, 3)) == 0


def test_log_derivatives_and_the_omitted_term():
    ld1, ld2 = rates.log_derivative(1), rates.log_derivative(2)
    assert ld1.limit == sp.Rational(-1, 2) and ld2.limit == sp.Rational(-2, 3)
    assert all(e < 0 for e in ld2.lower_order)
    total, at9, over_rate2 = rates.thm_9_initialisation_term()
    assert sp.simplify(over_rate2 - 3 * G) == 0
    assert sp.simplify(at9 - 3 * G * d ** sp.Rational(2, 3) / (eps * N) ** sp.Rational(4, 3)) == 0
    t_ = {fm.alpha: sp.Rational(1, 10), T: 7, G: 1}
    assert sp.nsimplify(total.subs(t_)) == sp.Rational(3, 7) * sum(
        sp.Rational(9, 10) ** k for k in range(1, 8))
