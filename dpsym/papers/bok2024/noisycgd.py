"""Cyclic-batch NoisyCGD on strongly convex losses (Sec. 4.2, App. C.4): Thms 4.4, 4.5,
Table 9, Figure 8.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import mpmath
import sympy as sp
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import gdp_epsilon
from dpsym.figures import PALETTE, epsilon_panel, figure, new_figure, tradeoff_panel
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_down, round_up, to_mpf
from dpsym.papers.bok2024.noisygd import lem_2_8, thm_4_1
from dpsym.shifts.interpolation import generic_branch

__all__ = [
    "FIGURE_8",
    "TABLE_9",
    "figure_8",
    "table_9",
    "thm_4_4",
    "thm_4_5",
    "thm_4_5_from_c",
    "thm_c_17",
]


def thm_4_4(L: Number, b: Number, sigma: Number, E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.4 (GDP composition): NoisyCGD with batch size b is (L/(b sigma)) sqrt(E)-GDP
    after E epochs (each example is used once per epoch)."""
    return thm_4_1(L, b, sigma, E, dps=dps)


@cache
def _c10_value() -> Callable[[mpf, mpf, int, int], mpf]:
    from dpsym.shifts import lemma_c10_symbolic

    d = lemma_c10_symbolic()
    return sp.lambdify((d.c, d.s, d.l, d.E), d.value, "mpmath")


def thm_4_5_from_c(c: Number, L_over_b_sigma: Number, l: int, E: int,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.5 at a given contraction c: mu = (L/(b sigma)) sqrt(1 + V/s^2), with V = sum a_k^2
    of Lemma C.10's shifts summed by sympy, i.e.
    V/s^2 = c^(2l-2) (1 - c^2)/(1 - c^l)^2 (1 - c^(l(E-1)))/(1 + c^(l(E-1))).
    The 1 is the last differing step, charged by Lemma 3.1.  Rounded up."""
    ref = "Bok et al. 2024, Thm 4.5"
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
    with eta in (0, 2/M) is mu-GDP, mu from :func:`thm_4_5_from_c` with c of Lemma 2.8."""
    ref = "Bok et al. 2024, Thm 4.5"
    c = lem_2_8(eta, m, M, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = to_mpf(L, "L", ref), to_mpf(b, "b", ref), to_mpf(sigma, "sigma", ref)
        require(bv > 0, "b", b, "b > 0", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        eff = Lv / (bv * sg)
    return thm_4_5_from_c(c, eff, l, E, dps=dps)


#: Table 9 (App. D.3.2): mu for NoisyCGD, L/(b sigma) = 0.2; columns (l, c).
TABLE_9 = {
    "L_over_b_sigma": "0.2", "epochs": (5, 50, 500),
    "columns": tuple((l, c) for l in (10, 20, 40) for c in ("0.98", "0.99", "0.995")),
    "printed": {
        5: ("0.447", "0.229", "0.233", "0.235", "0.211", "0.215", "0.217", "0.202", "0.205",
            "0.208"),
        50: ("1.414", "0.270", "0.334", "0.410", "0.216", "0.237", "0.275", "0.203", "0.208",
             "0.219"),
        500: ("4.472", "0.270", "0.336", "0.439", "0.216", "0.237", "0.276", "0.203", "0.208",
              "0.219"),
    },
}


def table_9(dps: int = DEFAULT_DPS) -> list[tuple[int, list[mpf]]]:
    """Table 9 rows: (E, [Thm 4.4 mu, Thm 4.5 mu for each (l, c)])."""
    f = TABLE_9
    return [(E, [thm_4_4(f["L_over_b_sigma"], 1, 1, E, dps=dps)]
             + [thm_4_5_from_c(c, f["L_over_b_sigma"], l, E, dps=dps) for l, c in f["columns"]])
            for E in f["epochs"]]


#: Figure 8 (App. D.3.2): c = 0.99, l = 20, L/(b sigma) = 0.2.
FIGURE_8 = {"c": "0.99", "l": 20, "L_over_b_sigma": "0.2", "E_fdp": (5, 50, 500),
            "E_eps": (5, 10, 20, 40, 80, 160, 320), "deltas": ("1e-3", "1e-5")}


@figure("bok2024", "figure_8", "NoisyCGD strongly convex: Thm 4.5 vs composition (Fig. 8)")
def figure_8() -> Figure:
    """Figure 8: f-DP at E in {5, 50, 500} (left) and eps vs E (right), c = 0.99, l = 20."""
    f = FIGURE_8
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)

    def ours(E: int) -> mpf:
        return thm_4_5_from_c(f["c"], f["L_over_b_sigma"], f["l"], E, dps=15)

    def comp(E: int) -> mpf:
        return thm_4_4(f["L_over_b_sigma"], 1, 1, E, dps=15)

    curves = []
    for E, col in zip(f["E_fdp"], PALETTE, strict=True):
        curves.append((ours(E), f"ours, E={E}", col, "-"))
        curves.append((comp(E), f"composition, E={E}", col, "--"))
    tradeoff_panel(ax, curves, "f-DP (Thm 4.5 vs Thm 4.4)")
    series = []
    for delta, col in zip(f["deltas"], PALETTE, strict=False):
        series.append(([gdp_epsilon(ours(E), delta, dps=15) for E in f["E_eps"]],
                       rf"ours, $\delta$={delta}", col, "-"))
        series.append(([gdp_epsilon(comp(E), delta, dps=15) for E in f["E_eps"]],
                       rf"composition, $\delta$={delta}", col, "--"))
    epsilon_panel(ax2, f["E_eps"], series, "epochs E",
                  r"$(\varepsilon, \delta)$-DP, c = 0.99, l = 20, L/(b$\sigma$) = 0.2")
    return fig




@cache
def _c17_symbolic() -> tuple[sp.Expr, sp.Expr]:
    """Thm C.17's quadratic instance, by sympy: (mean/sd)^2 of X'_{lE} - X_{lE} over
    (L/(b sigma))^2, from the geometric sums of the hits (i* in B_l, at steps l, 2l, .., lE)
    and of the noise, and the printed closed form."""
    c, l, E, k = sp.symbols("c l E k", positive=True)
    mean = sp.summation(c ** (l * E - l * k), (k, 1, E))         # in units eta L / b
    var = sp.summation(c ** (2 * k), (k, 0, l * E - 1))            # in units (eta sigma)^2
    derived = sp.simplify(generic_branch(mean) ** 2 / generic_branch(var))
    printed = (1 - c ** (l * E)) / (1 + c ** (l * E)) * (1 - c**2) / (1 - c**l) ** 2
    return derived, printed


def thm_c_17(L_over_b_sigma: Number, c: Number, l: int, E: int, dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.17 (lower bound): in the setting of Thm 4.5 NoisyCGD is no better than mu-GDP,
    mu = L/(b sigma) sqrt((1 - c^(lE))/(1 + c^(lE)) (1 - c^2)/(1 - c^l)^2), attained by a
    quadratic loss with the differing example in the last batch (sympy-derived).  Rounded
    down (a lower bound)."""
    ref = "Bok et al. 2024, Thm C.17"
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    derived, _ = _c17_symbolic()
    syms = {x.name: x for x in derived.free_symbols}
    f = sp.lambdify((syms["c"], syms["E"], syms["l"]), derived, "mpmath")
    with precision(dps + GUARD_DPS):
        cv = to_mpf(c, "c", ref)
        eff = to_mpf(L_over_b_sigma, "L/(b sigma)", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(eff >= 0, "L/(b sigma)", L_over_b_sigma, "L/(b sigma) >= 0", ref)
        mu = eff * mpmath.sqrt(f(cv, mpf(E), mpf(l)))
    return round_down(mu, dps)
