"""Cyclic-batch NoisyCGD on constrained convex losses (Sec. 4.2, App. C.3): Thm 4.6,
Lemma C.11, Tables 10-12 and the data of Figure 9.

Symbols: L, b, sigma, eta, l, E as in :mod:`.noisycgd`; D (diameter of K), M (smoothness),
s = eta L / b (the shift of a step that uses the differing batch), q = D b/(eta L),
tau (the epoch at which the interpolation starts), K = E - tau.

The exact optimum of the shift problem over every window of Thm C.3, tau = 0 included, is
:func:`dpsym.shifts.cyclic_constrained.best_window`; :func:`thm_4_6_exact` turns it into
the best mu the paper's argument gives at E epochs.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from fractions import Fraction
from functools import cache

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import gdp_epsilon
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024 import printed
from dpsym.papers.bok2024._rational import (
    _ceil,
    _exact,
    _require_eta_le_2_over_M,
    q_ratio,
    show,
)
from dpsym.papers.registry import cite
from dpsym.shifts.cyclic_constrained import (
    WindowSolution,
    best_window,
    intended_window_optimum,
    lemma_c11_corrected,
    lemma_c11_intended,
    lemma_c11_printed,
    thm_4_6_window_value,
    window_optimum,
)

__all__ = [
    "FIGURE_9",
    "TABLES_10_12_D",
    "TABLES_10_12_SIGMA",
    "ExactBound",
    "e_star_as_printed",
    "figure_9_values",
    "lem_c_11",
    "lem_c_11_qp_gap",
    "tables_10_12_cell",
    "tables_10_12_validity",
    "thm_4_6",
    "thm_4_6_certificate",
    "thm_4_6_certificate_sweep",
    "thm_4_6_crossing",
    "thm_4_6_display_sweep",
    "thm_4_6_exact",
]

PAPER = "bok2024"


def _mu2_thm_4_6(Lq: Fraction, bq: Fraction, sq: Fraction, eq: Fraction, Dq: Fraction,
                 l: int) -> Fraction:
    """mu^2 of Thm 4.6 as an exact rational (the one place its formula is typed)."""
    Lb = Lq / bq
    return (Lb**2 + 3 * Lq * Dq / (eq * bq * l) + Lb**2 / l * _ceil(Dq * bq / (eq * Lq))) / sq**2


def _inputs(L: Number, b: Number, sigma: Number, eta: Number, D: Number,
            ref: str) -> tuple[Fraction, ...]:
    Lq, bq, sq, eq, Dq = (_exact(v, k, ref) for v, k in
                          ((L, "L"), (b, "b"), (sigma, "sigma"), (eta, "eta"), (D, "D")))
    require(bq > 0, "b", b, "b > 0", ref)
    require(sq > 0, "sigma", sigma, "sigma > 0", ref)
    q_ratio(L, b, eta, D, ref, "b")  # checks L, b, eta, D > 0
    return Lq, bq, sq, eq, Dq


def thm_4_6(L: Number, b: Number, sigma: Number, eta: Number, D: Number, l: int, E: int,
            M: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.6: NoisyCGD (l batches of size b, E epochs) on convex, M-smooth losses over a set
    of diameter D, with eta in (0, 2/M] and E >= D b/(eta L), is mu-GDP with
    mu = sqrt((L/b)^2 + 3 L D/(eta b l) + L^2/(b^2 l) ceil(D b/(eta L))) / sigma.
    Exact rationals up to the square root; rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_4_6("0.25", 1, 3, "0.04", 1, 10, 100, dps=30), 10)   # Table 10
    '0.5335936865'
    """
    ref = cite(PAPER, "Thm 4.6")
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    q = q_ratio(L, b, eta, D, ref, "b")
    require(q <= E, "E", E, f"E >= D b/(eta L) = {show(q)}", ref)
    _require_eta_le_2_over_M(eta, M, ref)
    mu2 = _mu2_thm_4_6(*_inputs(L, b, sigma, eta, D, ref), l)
    with precision(dps + GUARD_DPS):
        mu = mpmath.sqrt(mpf(mu2.numerator) / mu2.denominator)
    return round_up(mu, dps)


@dataclass(frozen=True)
class ExactBound:
    """The best bound of the shifted-interpolation argument at E epochs: ``mu`` (rounded up),
    the window's start epoch ``tau`` (0: from X_0 = X'_0) and ``mu2`` = mu^2 exactly."""

    mu: mpf
    tau: int
    mu2: Fraction


def thm_4_6_exact(L: Number, b: Number, sigma: Number, eta: Number, D: Number, l: int, E: int,
                  dps: int = DEFAULT_DPS) -> ExactBound:
    """The best mu the argument of Thm 4.6 gives at E epochs, for every E >= 1: the last hit
    charged by Lemma 3.1 plus the exact optimum of the shift problem over *every* window of
    Thm C.3, tau = 0 (both runs coincide, z_0 = 0) included
    (:func:`dpsym.shifts.cyclic_constrained.best_window`):
    mu^2 = (s^2 + min_window sum a_k^2)/(eta sigma)^2, s = eta L / b, exact rationals.

    The tau = 0 window costs (E - 1) s^2 / l, so mu <= (L/(b sigma)) sqrt(1 + (E - 1)/l) at
    every E (Thm 4.5 as c -> 1); the windows tau >= 1 start at distance D and win for
    large E.

    >>> r = thm_4_6_exact("0.25", 1, 3, "0.04", 1, 10, 41, dps=30)
    >>> r.tau, r.mu2 == Fraction(1, 144) * (1 + Fraction(40, 10))
    (0, True)
    """
    ref = cite(PAPER, "Thm 4.6 (every window of Thm C.3)")
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    Lq, bq, sq, eq, Dq = _inputs(L, b, sigma, eta, D, ref)
    s = eq * Lq / bq
    value, tau = best_window(Dq, s, l, E)
    mu2 = (s * s + value) / (eq * sq) ** 2
    with precision(dps + GUARD_DPS):
        mu = mpmath.sqrt(mpf(mu2.numerator) / mu2.denominator)
    return ExactBound(round_up(mu, dps), tau, mu2)


def thm_4_6_crossing(L_over_b: Number, eta: Number, D: Number, l: int) -> int:
    """First E with composition (Thm 4.4) >= Thm 4.6's mu*: (L/b)^2 E >= (L/b)^2 + 3 L D/(eta b l)
    + (L/b)^2 ceil(q)/l, i.e. E* = ceil(1 + 3 q/l + ceil(q)/l), q = D b/(eta L) (exact).

    >>> thm_4_6_crossing("0.25", "0.04", 1, 10)   # Table 10 prints 31
    41
    """
    l = require_integer("l", l, cite(PAPER, "Thm 4.6"), minimum=1)
    q = q_ratio(L_over_b, 1, eta, D, cite(PAPER, "Tables 10-12"))
    return _ceil(1 + 3 * q / l + Fraction(_ceil(q), l))


def e_star_as_printed(L_over_b: Number, eta: Number, l: int) -> int:
    """The expression of the authors' script that produced the printed E* of Tables 10-12
    (repository jinhobok/shifted_interpolation_dp, plot_table_ncgd_fdp.py, function
    ncgd_fdp_proj, D = 1, ``mu`` = L/b):
    ``ceil((3*mu/(eta*l) + mu**2 * mu**2 / l * ceil(1/(mu*eta))) / mu**2)``, where the same
    script's mu* line reads ``3*mu/(eta*l) + mu**2 + mu**2/l * ceil(...)``: ``mu**2 *`` was
    typed for ``mu**2 +``. Exact rationals. Evidence for the erratum only.

    >>> e_star_as_printed("0.25", "0.04", 10)
    31
    """
    mu = _exact(L_over_b, "L/b", "Tables 10-12")
    e = _exact(eta, "eta", "Tables 10-12")
    return _ceil((3 * mu / (e * l) + mu**2 * mu**2 / l * _ceil(1 / (mu * e))) / mu**2)


#: Tables 10-12's setting (App. D.3.2): D = 1, sigma = 3 (b = 1, L = L/b).
TABLES_10_12_D, TABLES_10_12_SIGMA = "1", "3"


def tables_10_12_cell(l: int, L_over_b: str, eta: str, dps: int = DEFAULT_DPS) -> dict:
    """One cell of Tables 10-12: mu* (Thm 4.6 at its smallest valid E), the crossing E* by the
    text's definition, the E* of the authors' script, and ceil(q) = ceil(D b/(eta L)), the
    first epoch count Thm 4.6 covers.

    >>> c = tables_10_12_cell(10, "0.25", "0.04", dps=20)
    >>> c["E_star"], c["E_star_script"], c["E_min_valid"]
    (41, 31, 100)
    """
    q = q_ratio(L_over_b, 1, eta, TABLES_10_12_D, cite(PAPER, "Tables 10-12"))
    e_valid = _ceil(q)
    return {
        "mu_star": thm_4_6(L_over_b, 1, TABLES_10_12_SIGMA, eta, TABLES_10_12_D, l, e_valid,
                           dps=dps),
        "E_star": thm_4_6_crossing(L_over_b, eta, TABLES_10_12_D, l),
        "E_star_script": e_star_as_printed(L_over_b, eta, l),
        "E_min_valid": e_valid,
    }


def tables_10_12_validity(dps: int = DEFAULT_DPS) -> dict[str, object]:
    """Whether the pairs (E*, mu*) of Tables 10-12 are valid although E* < D b/(eta L), where
    Thm 4.6 does not apply. For each of the 27 cells:

    * ``outside``: both E* (printed and by the definition) are < q = D b/(eta L);
    * ``exact_at_E*``: :func:`thm_4_6_exact` at both E* (every window, tau = 0 included),
      against mu*; ``old_at_E*``: the same with the windows tau >= 1 only, which is what a
      search that skips tau = 0 finds;
    * ``E_cover``: the largest E at which the tau = 0 window alone gives <= mu*, exactly:
      s^2 (1 + (E - 1)/l) <= mu*^2 (eta sigma)^2 iff E <= 1 + 3 q + ceil(q). With
      E_cover >= ceil(q), every E >= 1 is covered: by the tau = 0 window below ceil(q), by
      Thm 4.6 from ceil(q) on.

    Returned: the rows, the number of cells outside, the largest exact/mu* ratio, and
    whether every cell is covered.

    >>> r = tables_10_12_validity(dps=20)
    >>> r["outside"], r["covered"], float(r["worst_ratio"]) < 1
    (27, True, True)
    """
    rows, worst = [], mpf(0)
    for lv in printed.TABLES_10_12_L:
        for lb in printed.TABLES_10_12_L_OVER_B:
            for eta in printed.TABLES_10_12_ETA:
                cell = tables_10_12_cell(lv, lb, eta, dps=dps)
                q = q_ratio(lb, 1, eta, TABLES_10_12_D, cite(PAPER, "Tables 10-12"))
                e_cover = 1 + 3 * q + _ceil(q)
                row = {"l": lv, "L/b": lb, "eta": eta, "q": q, "mu_star": cell["mu_star"],
                       "E_cover": int(e_cover) if e_cover.denominator == 1 else e_cover}
                for key in ("E_star", "E_star_script"):
                    E = cell[key]
                    ex = thm_4_6_exact(lb, 1, TABLES_10_12_SIGMA, eta, TABLES_10_12_D, lv, E,
                                       dps=dps)
                    row[key] = E
                    row[f"exact_at_{key}"] = ex.mu
                    row[f"tau_at_{key}"] = ex.tau
                    with precision(dps + GUARD_DPS):
                        worst = max(worst, ex.mu / cell["mu_star"])
                row["old_at_E_star"] = _windows_from_D(lb, eta, lv, cell["E_star"], dps)
                row["outside"] = max(cell["E_star"], cell["E_star_script"]) < q
                row["covered"] = e_cover >= _ceil(q)
                rows.append(row)
    return {"rows": rows, "outside": sum(r["outside"] for r in rows),
            "covered": all(r["covered"] for r in rows), "worst_ratio": worst}


def _windows_from_D(L_over_b: str, eta: str, l: int, E: int, dps: int) -> mpf:
    """mu from the windows tau >= 1 only (z = D at a hit), for the comparison in
    :func:`tables_10_12_validity`."""
    from dpsym.shifts.cyclic_constrained import window_value

    Lq, bq, sq, eq, Dq = _inputs(L_over_b, 1, TABLES_10_12_SIGMA, eta, TABLES_10_12_D, "")
    s = eq * Lq / bq
    value = min(window_value(Dq, s, l, K) for K in range(1, E) if l * K >= 2)
    mu2 = (s * s + value) / (eq * sq) ** 2
    with precision(dps + GUARD_DPS):
        return round_up(mpmath.sqrt(mpf(mu2.numerator) / mu2.denominator), dps)


def lem_c_11(s: Number, D: Number, l: int, K: int) -> dict[str, WindowSolution]:
    """Lemma C.11's window (K = E - tau epochs before the end, shift s = eta L / b per hit,
    diameter D), exact rationals (:mod:`dpsym.shifts.cyclic_constrained`):

    * ``printed``: the printed constant a = (D + s K)/(l K) on the window as the statement
      sets it, z_{tau*} = D over (tau*, t*] (l K - 1 steps, K - 1 hits): ends at a - s;
    * ``intended``: the same a on the window the proof computes, z_{tau* - 1} = D over
      tau*, ..., t* (l K steps, K hits): feasible, ends at 0;
    * ``intended_optimum``: the exact optimum of that window (equal to ``intended``);
    * ``corrected``, ``optimum``: the constant that fits (tau*, t*], and its exact optimum.

    >>> r = lem_c_11("1/2", 1, 4, 4)
    >>> i = r["intended"]
    >>> r["printed"].z[-1], i.feasible, i.value == r["intended_optimum"].value
    (Fraction(-5, 16), True, True)
    """
    l = require_integer("l", l, cite(PAPER, "Lemma C.11"), minimum=1, maximum=10**6)
    K = require_integer("K", K, cite(PAPER, "Lemma C.11"), minimum=1, maximum=10**6)
    ref = cite(PAPER, "Lemma C.11")
    sq, Dq = _exact(s, "s", ref), _exact(D, "D", ref)
    return {"printed": lemma_c11_printed(Dq, sq, l, K),
            "intended": lemma_c11_intended(Dq, sq, l, K),
            "intended_optimum": intended_window_optimum(Dq, sq, l, K),
            "corrected": lemma_c11_corrected(Dq, sq, l, K),
            "optimum": window_optimum(Dq, sq, l, K)}


def thm_4_6_certificate(s: Number, D: Number, l: int) -> dict[str, object]:
    """At the proof's choice K = ceil(D/s), the charged value (D + s K)^2/(l K) against the
    exact optima of both windows: the one the proof computes (z_{tau* - 1} = D; equal to
    the charged value for every K) and the one the statement of Lemma C.11 writes
    (z_{tau*} = D; at most the charged value for l >= 2, with the corrected constant
    a' = (D + s(K-1))/(l K - 1) feasible: D > s (K - 1) >= s (1 - 1/l) when K >= 2, and
    with B = D + s K in [s K, 2 s K], (B - s)^2/(l K - 1) <= B^2/(l K) iff
    B^2 <= l K s (2B - s), true since B <= 2 s K and B >= s >= l s/(2(l - 1))).

    >>> c = thm_4_6_certificate("1/2", 1, 4)
    >>> c["intended_equals_charged"], c["holds"]
    (True, True)
    """
    l = require_integer("l", l, cite(PAPER, "Thm 4.6"), minimum=1, maximum=10**6)
    ref = cite(PAPER, "Thm 4.6")
    sq, Dq = _exact(s, "s", ref), _exact(D, "D", ref)
    K = _ceil(Dq / sq)
    charged = thm_4_6_window_value(Dq, sq, l, K)
    opt = window_optimum(Dq, sq, l, K) if l * K >= 2 else None
    return {"K": K, "charged": charged,
            "intended_equals_charged": intended_window_optimum(Dq, sq, l, K).value == charged,
            "optimum": opt.value if opt else None,
            "holds": opt is not None and opt.value <= charged,
            "corrected_feasible": opt is not None and lemma_c11_corrected(Dq, sq, l, K).feasible}


#: Figure 9 (App. D.3.2): eta = 0.02, L/b = 0.5, l = 20, D = 1, sigma = 3, so mu* = 0.7638 and
#: q = D b/(eta L) = 100. The paper plots min(composition, mu*) at every E (its f-DP legend,
#: in the authors' script: "Our Bound, E >= 25"). Thm 4.6 assumes E >= 100; below that the
#: window tau = 0 of Thm C.3 gives (L/(b sigma)) sqrt(1 + (E - 1)/l) <= mu* up to
#: E = 1 + 3 q + ceil(q) = 401, so the plotted curve is valid at every E.
FIGURE_9 = {"eta": "0.02", "L_over_b": "0.5", "l": 20, "D": "1", "sigma": "3",
            "E_fdp": (25, 50, 100), "E_eps": (5, 10, 20, 40, 80, 160, 320),
            "deltas": ("1e-3", "1e-5")}


def figure_9_values(Es: tuple[int, ...] | None = None, dps: int = 20) -> dict[str, object]:
    """Figure 9's right panel at the epochs ``Es`` (default: the paper's marked points): eps of
    composition (Thm 4.4), of min(composition, mu*) as the paper plots it, and of the best
    bound of the paper's argument over every window (:func:`thm_4_6_exact`), which is below
    both at every E.

    >>> v = figure_9_values(Es=(40,))
    >>> float(v["mu"]["exact"][0]) < float(v["mu"]["paper"][0]) <= float(v["mu_star"])
    True
    """
    f = FIGURE_9
    Es = Es or f["E_eps"]
    e_valid = _ceil(q_ratio(f["L_over_b"], 1, f["eta"], f["D"], "Figure 9"))
    mu_star = thm_4_6(f["L_over_b"], 1, f["sigma"], f["eta"], f["D"], f["l"], e_valid, dps=dps)
    with precision(dps + GUARD_DPS):
        eff = to_mpf(f["L_over_b"]) / to_mpf(f["sigma"])
        comp = [round_up(eff * mpmath.sqrt(E), dps) for E in Es]
    exact = [thm_4_6_exact(f["L_over_b"], 1, f["sigma"], f["eta"], f["D"], f["l"], E,
                           dps=dps).mu for E in Es]
    mus = {"composition": comp, "paper": [min(c, mu_star) for c in comp], "exact": exact}
    out: dict[str, object] = {"mu_star": mu_star, "E_valid": e_valid, "Es": tuple(Es),
                              "mu": mus}
    for delta in f["deltas"]:
        out[delta] = {name: [gdp_epsilon(m, delta, dps=dps) for m in v] for name, v in mus.items()}
    return out


def _random_window(rng: random.Random, l_min: int) -> tuple[Fraction, Fraction, int]:
    return (Fraction(rng.randint(1, 60), rng.randint(1, 12)),
            Fraction(rng.randint(1, 60), rng.randint(1, 12)), rng.randint(l_min, 40))


@cache
def thm_4_6_display_sweep(count: int = 200, seed: int = 20240517) -> dict[str, object]:
    """The display of the proof of Thm 4.6, read with the window its Lemma C.11 computes
    (z_{tau* - 1} = D, l K steps, K hits): on ``count`` seeded random (s, D, l, K), exact
    rationals, whether the exact optimum of that window equals (D + s K)^2/(l K) (so the
    display holds for every tau), and whether the printed constant shift is feasible there.
    The same instances on the window the statement writes (z_{tau*} = D) are counted too:
    ``printed_window_exceeds`` is how often its optimum exceeds the display.

    >>> r = thm_4_6_display_sweep(count=20)
    >>> r["all_equal"], r["all_feasible"]
    (True, True)
    """
    rng = random.Random(seed)
    equal = feasible = True
    exceeds = 0
    for _ in range(count):
        s, D, l = _random_window(rng, 1)
        K = rng.randint(1, 30)
        charged = thm_4_6_window_value(D, s, l, K)
        equal &= intended_window_optimum(D, s, l, K).value == charged
        feasible &= lemma_c11_intended(D, s, l, K).feasible
        if l * K >= 2:
            exceeds += window_optimum(D, s, l, K).value > charged
    return {"count": count, "all_equal": equal, "all_feasible": feasible,
            "printed_window_exceeds": exceeds}


def thm_4_6_certificate_sweep(count: int = 200, seed: int = 20240517) -> dict[str, object]:
    """:func:`thm_4_6_certificate` on ``count`` seeded random (s, D, l), l in [2, 40], exact
    rationals: whether the window as the statement writes it never costs more than what the
    proof charges at K = ceil(D/s), the largest optimum/charged ratio, and whether the
    corrected constant a' is always feasible.

    >>> r = thm_4_6_certificate_sweep(count=20)
    >>> r["holds"], r["corrected_feasible"], float(r["worst_ratio"]) <= 1
    (True, True, True)
    """
    _ref = cite(PAPER, "Thm 4.6")
    count = require_integer("count", count, _ref, minimum=1, maximum=10**5)
    seed = require_integer("seed", seed, _ref, minimum=0)
    rng = random.Random(seed)
    holds = feas = True
    worst = Fraction(0)
    for _ in range(count):
        s, D, l = _random_window(rng, 2)
        c = thm_4_6_certificate(s, D, l)
        holds &= c["holds"]
        feas &= c["corrected_feasible"]
        worst = max(worst, c["optimum"] / c["charged"])
    return {"count": count, "holds": holds, "corrected_feasible": feas, "worst_ratio": worst}


def lem_c_11_qp_gap(cases: tuple[tuple[str, str, int, int], ...] = (
        ("1", "1/2", 4, 4), ("3", "1/3", 3, 5), ("1/2", "1", 5, 3), ("2", "1/7", 2, 9),
        ("1", "1/11", 2, 1))) -> float:
    """The largest relative gap between the exact window optimum (greatest convex minorant,
    :func:`dpsym.shifts.window_optimum`) and a numeric QP over all shifts of the same window
    (scipy SLSQP, float64, :func:`dpsym.shifts.solve_shift_problem`), over the (D, s, l, K)
    of ``cases``: a second method for the exact solver.

    >>> lem_c_11_qp_gap() < 1e-7
    True
    """
    from dpsym.shifts import solve_shift_problem

    worst = 0.0
    for D, s, l, K in cases:
        Dq, sq = Fraction(D), Fraction(s)
        exact = window_optimum(Dq, sq, l, K)
        pattern = tuple(float(sq) if i % l == 0 else 0.0 for i in range(1, l * K))
        _, qp = solve_shift_problem(1.0, pattern, float(Dq))
        worst = max(worst, abs(float(exact.value) - qp) / float(exact.value))
    return worst
