"""Cyclic-batch NoisyCGD on strongly convex losses (Sec. 4.2, App. C.3, App. C.5): Thms 4.4,
4.5, Lemma C.10, Table 9, the data of Figure 8, and the lower bound of Thm C.17.

Symbols: L, sigma, eta, m, M, c as in :mod:`.noisygd`; b (batch size), l = n/b (number of
batches), E (epochs, t = l E steps), j* (the batch holding the differing example).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer, require_sequence
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_down, round_up, to_mpf
from dpsym.papers.bok2024 import printed
from dpsym.papers.bok2024.noisygd import lem_2_8, thm_4_1
from dpsym.papers.registry import cite
from dpsym.shifts import (
    cyclic_shift_pattern,
    cyclic_shifts,
    lemma_c6_symbolic,
    lemma_c10_symbolic,
    solve_shift_problem,
)
from dpsym.shifts.interpolation import generic_branch

__all__ = [
    "FIGURE_8",
    "lem_c_10_certificate",
    "lem_c_10_proof_display",
    "lem_c_10_residual",
    "table_9",
    "thm_4_4",
    "thm_4_5",
    "thm_4_5_from_c",
    "thm_4_5_one_batch",
    "thm_c_17",
    "thm_c_17_symbolic",
    "thm_c_17_vs_thm_4_5",
]

PAPER = "bok2024"


def thm_4_4(L: Number, b: Number, sigma: Number, E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.4 (GDP composition): NoisyCGD with batch size b is (L/(b sigma)) sqrt(E)-GDP
    after E epochs (each example is used once per epoch): Thm 4.1 with b for n, E for t.

    >>> thm_4_4(1, 5, 1, 25)
    mpf('1.0')
    """
    ref = cite(PAPER, "Thm 4.4")
    E = require_integer("E", E, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        require(to_mpf(b, "b", ref) > 0, "b", b, "b > 0", ref)
    return thm_4_1(L, b, sigma, E, dps=dps)


@cache
def _c10_value() -> Callable[[mpf, mpf, int, int], mpf]:
    d = lemma_c10_symbolic()
    return sp.lambdify((d.c, d.s, d.l, d.E), d.value, "mpmath")


def thm_4_5_from_c(c: Number, L_over_b_sigma: Number, l: int, E: int,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.5 at a given contraction c: mu = (L/(b sigma)) sqrt(1 + V/s^2), with V = sum a_k^2
    of Lemma C.10's shifts summed by sympy, i.e.
    V/s^2 = c^(2l-2) (1 - c^2)/(1 - c^l)^2 (1 - c^(l(E-1)))/(1 + c^(l(E-1))).
    The 1 is the last differing step, charged by Lemma 3.1.  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_4_5_from_c("0.99", "0.2", 20, 50, dps=30), 10)   # Table 9
    '0.2374529846'
    """
    ref = cite(PAPER, "Thm 4.5")
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        cv = to_mpf(c, "c", ref)
        eff = to_mpf(L_over_b_sigma, "L/(b sigma)", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(eff >= 0, "L/(b sigma)", L_over_b_sigma, "L/(b sigma) >= 0", ref)
        ratio = _c10_value()(cv, mpf(1), l, E) if E > 1 else mpf(0)
        mu = eff * mpmath.sqrt(1 + ratio)
    return round_up(mu, dps)


def thm_4_5(L: Number, b: Number, sigma: Number, eta: Number, m: Number, M: Number, l: int,
            E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.5: NoisyCGD (l batches of size b, E epochs) on m-strongly convex, M-smooth losses
    with eta in (0, 2/M) is mu-GDP, mu from :func:`thm_4_5_from_c` with c of Lemma 2.8.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_4_5("0.2", 1, 1, "0.01", 1, 1, 20, 50, dps=30), 10)   # c = 0.99
    '0.2374529846'
    """
    ref = cite(PAPER, "Thm 4.5")
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = to_mpf(L, "L", ref), to_mpf(b, "b", ref), to_mpf(sigma, "sigma", ref)
        require(bv > 0, "b", b, "b > 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        eff = Lv / (bv * sg)
    return thm_4_5_from_c(c, eff, l, E, dps=dps)


#: Table 9's setting (App. D.3.2): L/(b sigma) = 0.2.
TABLE_9_L_OVER_B_SIGMA = "0.2"


def table_9(dps: int = DEFAULT_DPS) -> list[tuple[int, list[mpf]]]:
    """Table 9 rows: (E, [Thm 4.4 mu, Thm 4.5 mu for each printed (l, c)]).

    >>> [round(float(v), 3) for v in table_9(dps=20)[0][1][:2]]
    [0.447, 0.229]
    """
    eff = TABLE_9_L_OVER_B_SIGMA
    return [(E, [thm_4_4(eff, 1, 1, E, dps=dps)]
             + [thm_4_5_from_c(c, eff, l, E, dps=dps) for l, c in printed.TABLE_9_COLUMNS])
            for E in printed.TABLE_9_EPOCHS]


def lem_c_10_residual() -> sp.Expr:
    """sum a_k^2 of Lemma C.10's printed shifts, summed by sympy
    (:func:`dpsym.shifts.lemma_c10_symbolic`), minus s^2 times Thm 4.5's printed expression
    (:data:`printed.THM_4_5`): 0 when the lemma gives the theorem.

    >>> lem_c_10_residual()
    0
    """
    d = lemma_c10_symbolic()
    thm = printed.formula(printed.THM_4_5, c=d.c, l=d.l, E=d.E)
    return sp.simplify(d.value - d.s**2 * thm)


def lem_c_10_certificate(
    cases: tuple[tuple[str, str, int, int, int], ...] = (
        ("0.9", "0.1", 4, 6, 2), ("0.99", "0.3", 10, 5, 10), ("0.5", "1", 3, 8, 1),
        ("0.95", "0.05", 20, 3, 7)),
    dps: int = DEFAULT_DPS,
) -> dict[str, object]:
    """Lemma C.10's printed shifts at each (c, s, l, E, j*) of ``cases``, run through the
    recursion z_k = c z_{k-1} + s_k - a_k at ``dps`` digits: the most negative z/s (>= 0 up
    to rounding means feasible), |z_t*|/s (0: the window closes), and the relative gap to a
    numeric QP over *all* feasible shifts (scipy SLSQP, float64; ~0: the printed shifts
    are optimal).

    >>> r = lem_c_10_certificate(cases=(("0.9", "0.1", 4, 6, 2),), dps=30)
    >>> r["min_z_over_s"] > -mpf(10) ** -25, r["end_over_s"] < mpf(10) ** -25, r["qp_gap"] < 1e-6
    (True, True, True)
    """
    ref = cite(PAPER, "Lemma C.10")
    cases = require_sequence("cases", cases, ref, max_length=1000)
    for case in cases:
        require(isinstance(case, list | tuple) and len(case) == 5, "cases", case,
                "(c, s, l, E, j*) tuples", ref)
    worst_z, worst_end, worst_gap = mpf(0), mpf(0), 0.0
    for c, s, l, E, j in cases:
        sol = cyclic_shifts(c, s, l, E, j, dps=dps)
        with precision(dps):
            scale = mpf(s)
            worst_z = min(worst_z, min(sol.z) / scale)
            worst_end = max(worst_end, abs(sol.z[-1]) / scale)
        _, qp = solve_shift_problem(float(c), cyclic_shift_pattern(float(s), l, E, j))
        worst_gap = max(worst_gap, abs(qp - float(sol.value)) / float(sol.value))
    return {"cases": cases, "min_z_over_s": worst_z, "end_over_s": worst_end,
            "qp_gap": worst_gap}


def lem_c_10_proof_display(c: str = "0.9", l: int = 4, E: int = 6, q: int = 2,
                           dps: int = DEFAULT_DPS) -> dict[str, object]:
    """The last display of the proof of Lemma C.10 (:data:`printed.LEM_C_10_DISPLAY`): its
    middle expression minus the printed right-hand side (denominator 1 + c^(E(l-1))) and
    minus the corrected one (denominator 1 + c^(l(E-1)) = 1 + c^(t-l)), simplified by sympy
    for symbolic c, l, E, q, and all three evaluated at (c, l, E, q).

    >>> r = lem_c_10_proof_display(dps=20)
    >>> r["corrected_residual"], r["printed_residual"] == 0
    (0, False)
    """
    cs = sp.Symbol("c", positive=True)
    ls, Es, qs = sp.symbols("l E q", integer=True, positive=True)
    sym = {"c": cs, "l": ls, "E": Es, "q": qs}
    lhs = printed.formula(printed.LEM_C_10_DISPLAY["lhs"], **sym)
    rhs = printed.formula(printed.LEM_C_10_DISPLAY["rhs"], **sym)
    corrected = rhs * (1 + cs ** (Es * (ls - 1))) / (1 + cs ** (ls * (Es - 1)))
    at = {cs: sp.Rational(c), ls: l, Es: E, qs: q}
    return {
        "corrected_residual": sp.simplify(sp.expand(sp.powsimp(lhs - corrected))),
        "printed_residual": sp.simplify(sp.expand(sp.powsimp(lhs - rhs))),
        "lhs": sp.N(lhs.subs(at), dps), "printed": sp.N(rhs.subs(at), dps),
        "corrected": sp.N(corrected.subs(at), dps),
    }


def thm_4_5_one_batch(c: str = "0.9", E: int = 10, dps: int = DEFAULT_DPS) -> dict[str, object]:
    """Thm 4.5 at l = 1 against Thm 4.2: sympy shows (mu_4.5 b sigma / L)^2 = 1 + V_C.6(E - 1)
    / s^2 (Thm 4.2 over E - 1 steps composed with the last step by Lemma 3.1), and at (c, E)
    both squared values in units (L/(b sigma))^2 (Thm 4.5 is slightly looser).

    >>> r = thm_4_5_one_batch(dps=20)
    >>> r["identity"], r["thm_4_5"] > r["thm_4_2"]
    (0, True)
    """
    d6, d10 = lemma_c6_symbolic(), lemma_c10_symbolic()
    v45 = sp.simplify(d10.value.subs({d10.l: 1, d10.s: 1}))
    v42 = d6.value.subs({d6.c: d10.c, d6.s: 1}).subs(d6.t, d10.E - 1)
    from dpsym.papers.bok2024.noisygd import thm_c_5

    with precision(dps + GUARD_DPS):
        a = thm_4_5_from_c(c, 1, 1, E, dps=dps) ** 2
        b = thm_c_5(c, 1, 1, E, dps=dps) ** 2
    return {"identity": sp.simplify(v45 - v42), "thm_4_5": a, "thm_4_2": b}


#: Figure 8 (App. D.3.2): c = 0.99, l = 20, L/(b sigma) = 0.2.
FIGURE_8 = {"c": "0.99", "l": 20, "L_over_b_sigma": "0.2", "E_fdp": (5, 50, 500),
            "E_eps": (5, 10, 20, 40, 80, 160, 320), "deltas": ("1e-3", "1e-5")}


@cache
def thm_c_17_symbolic() -> tuple[sp.Expr, sp.Expr]:
    """Thm C.17's quadratic instance, by sympy: (mean/sd)^2 of X'_{lE} - X_{lE} over
    (L/(b sigma))^2, from the geometric sums of the hits (i* in B_l, at steps l, 2l, .., lE)
    and of the noise; and the printed closed form (:data:`printed.THM_C_17`).

    >>> derived, shown = thm_c_17_symbolic()
    >>> sp.simplify(derived - shown)
    0
    """
    c = sp.Symbol("c", positive=True)
    l, E, k = sp.symbols("l E k", positive=True)
    mean = sp.summation(c ** (l * E - l * k), (k, 1, E))         # in units eta L / b
    var = sp.summation(c ** (2 * k), (k, 0, l * E - 1))            # in units (eta sigma)^2
    derived = sp.simplify(generic_branch(mean) ** 2 / generic_branch(var))
    return derived, printed.formula(printed.THM_C_17, c=c, l=l, E=E)


def thm_c_17(L_over_b_sigma: Number, c: Number, l: int, E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.17 (lower bound): in the setting of Thm 4.5 NoisyCGD is no better than mu-GDP,
    mu = L/(b sigma) sqrt((1 - c^(lE))/(1 + c^(lE)) (1 - c^2)/(1 - c^l)^2), attained by a
    quadratic loss with the differing example in the last batch (sympy-derived).  Rounded
    down (a lower bound).

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_c_17("0.2", "0.99", 20, 50, dps=30), 6)
    '0.154933'
    """
    ref = cite(PAPER, "Thm C.17")
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    derived, _ = thm_c_17_symbolic()
    syms = {x.name: x for x in derived.free_symbols}
    f = sp.lambdify((syms["c"], syms["E"], syms["l"]), derived, "mpmath")
    with precision(dps + GUARD_DPS):
        cv = to_mpf(c, "c", ref)
        eff = to_mpf(L_over_b_sigma, "L/(b sigma)", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(eff >= 0, "L/(b sigma)", L_over_b_sigma, "L/(b sigma) >= 0", ref)
        mu = eff * mpmath.sqrt(f(cv, mpf(E), mpf(l)))
    return round_down(mu, dps)


def thm_c_17_vs_thm_4_5(dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """The smallest and largest ratio lower bound (Thm C.17) / upper bound (Thm 4.5) over the
    30 cells of Table 9: <= 1 (consistent), and well below 1 (Thm 4.5 is not tight).

    >>> lo, hi = thm_c_17_vs_thm_4_5(dps=20)
    >>> float(hi) < 1
    True
    """
    ratios = []
    for E in printed.TABLE_9_EPOCHS:
        for l, c in printed.TABLE_9_COLUMNS:
            lo = thm_c_17(TABLE_9_L_OVER_B_SIGMA, c, l, E, dps=dps)
            hi = thm_4_5_from_c(c, TABLE_9_L_OVER_B_SIGMA, l, E, dps=dps)
            with precision(dps + GUARD_DPS):
                ratios.append(lo / hi)
    return min(ratios), max(ratios)
