"""Cyclic-batch NoisyCGD on constrained convex losses (Sec. 4.2, App. C.4): Thm 4.6, Tables
10-12.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp import gdp_epsilon
from dpsym.figures import PALETTE, epsilon_panel, figure, new_figure, tradeoff_panel
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bok2024._rational import (
    _ceil,
    _exact,
    _require_eta_le_2_over_M,
    q_ratio,
)
from dpsym.shifts.cyclic_constrained import (
    WindowSolution,
    lemma_c11_corrected,
    lemma_c11_printed,
    thm_4_6_window_value,
    window_optimum,
)

__all__ = [
    "FIGURE_9",
    "TABLES_10_12",
    "e_star_as_printed",
    "figure_9",
    "figure_9_values",
    "lem_c_11",
    "tables_10_12_cell",
    "thm_4_6",
    "thm_4_6_certificate",
    "thm_4_6_crossing",
    "thm_4_6_exact",
]


def thm_4_6(L: Number, b: Number, sigma: Number, eta: Number, D: Number, l: int, E: int,
            M: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 4.6: NoisyCGD (l batches of size b, E epochs) on convex, M-smooth losses over a set of
    diameter D, with eta in (0, 2/M] and E >= D b/(eta L), is mu-GDP with
    mu = sqrt((L/b)^2 + 3 L D/(eta b l) + L^2/(b^2 l) ceil(D b/(eta L))) / sigma.
    The ceiling is taken on exact rationals.  Rounded up."""
    ref = "Bok et al. 2024, Thm 4.6"
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=1)
    q = q_ratio(L, b, eta, D, ref)
    require(q <= E, "E", E, f"E >= D b/(eta L) = {float(q):.6g}", ref)
    _require_eta_le_2_over_M(eta, M, ref)
    ceil_q = _ceil(q)
    with precision(dps + GUARD_DPS):
        Lv, bv, sg = to_mpf(L, "L", ref), to_mpf(b, "b", ref), to_mpf(sigma, "sigma", ref)
        ev, Dv = to_mpf(eta, "eta", ref), to_mpf(D, "D", ref)
        require(sg > 0, "sigma", sigma, "sigma > 0", ref)
        Lb = Lv / bv
        mu = mpmath.sqrt(Lb**2 + 3 * Lv * Dv / (ev * bv * l) + Lb**2 / l * ceil_q) / sg
    return round_up(mu, dps)


def thm_4_6_crossing(L_over_b: Number, eta: Number, D: Number, l: int) -> int:
    """First E with composition (Thm 4.4) >= Thm 4.6's mu*: (L/b)^2 E >= (L/b)^2 + 3 L D/(eta b l)
    + (L/b)^2 ceil(q)/l, i.e. E* = ceil(1 + 3 q/l + ceil(q)/l), q = D b/(eta L) (exact)."""
    q = q_ratio(L_over_b, 1, eta, D, "Bok et al. 2024, Tables 10-12")
    ceil_q = _ceil(q)
    x = 1 + 3 * q / l + Fraction(ceil_q, l)
    return _ceil(x)


def e_star_as_printed(L_over_b: Number, eta: Number, l: int) -> int:
    """The expression that reproduces every printed E* of Tables 10-12 (D = 1):
    ceil((3 mu/(eta l) + mu^2 mu^2/l ceil(1/(mu eta))) / mu^2), mu = L/b — the digest's
    transcription of the authors' script, with '*' where '+' was meant.  Evidence only."""
    mu = _exact(L_over_b, "L/b", "Tables 10-12")
    e = _exact(eta, "eta", "Tables 10-12")
    inner = 1 / (mu * e)
    x = (3 * mu / (e * l) + mu**2 * mu**2 / l * _ceil(inner)) / mu**2
    return _ceil(x)


#: Tables 10-12 (App. D.3.2): (E*, mu*) for NoisyCGD constrained, D = 1, sigma = 3.
TABLES_10_12 = {
    "D": "1", "sigma": "3", "L_over_b": ("0.25", "0.5", "1"), "eta": ("0.04", "0.02", "0.01"),
    "printed": {
        10: {"0.25": (("31", "0.534"), ("62", "0.750"), ("123", "1.057")),
             "0.5": (("17", "0.764"), ("33", "1.067"), ("65", "1.500")),
             "1": (("10", "1.106"), ("20", "1.528"), ("40", "2.134"))},
        20: {"0.25": (("16", "0.382"), ("31", "0.534"), ("62", "0.750")),
             "0.5": (("9", "0.553"), ("17", "0.764"), ("33", "1.067")),
             "1": (("5", "0.816"), ("10", "1.106"), ("20", "1.528"))},
        40: {"0.25": (("8", "0.276"), ("16", "0.382"), ("31", "0.534")),
             "0.5": (("5", "0.408"), ("9", "0.553"), ("17", "0.764")),
             "1": (("3", "0.624"), ("5", "0.816"), ("10", "1.106"))},
    },
}


def tables_10_12_cell(l: int, L_over_b: str, eta: str, dps: int = DEFAULT_DPS) -> dict:
    """One cell: mu* (Thm 4.6 at its smallest valid E), the crossing E* by the text's definition,
    the printed-script E*, and q = D b/(eta L), the first epoch count Thm 4.6 covers."""
    f = TABLES_10_12
    q = q_ratio(L_over_b, 1, eta, f["D"], "Tables 10-12")
    e_valid = _ceil(q)
    return {
        "mu_star": thm_4_6(L_over_b, 1, f["sigma"], eta, f["D"], l, e_valid, dps=dps),
        "E_star": thm_4_6_crossing(L_over_b, eta, f["D"], l),
        "E_star_script": e_star_as_printed(L_over_b, eta, l),
        "E_min_valid": e_valid,
    }


def lem_c_11(s: Number, D: Number, l: int, K: int) -> dict[str, WindowSolution]:
    """Lemma C.11's window (K = E - tau epochs before the end, shift budget s = eta L / b per
    hit, diameter D): the printed constant shift, the corrected constant shift and the exact
    optimum (:mod:`dpsym.shifts.cyclic_constrained`), all in exact rationals.

    The printed a = (D + s K)/(l K) assumes l K steps and K hits; the window has l K - 1
    steps and K - 1 hits, so the printed sequence ends at z = a - s (erratum)."""
    ref = "Bok et al. 2024, Lemma C.11"
    sq, Dq = _exact(s, "s", ref), _exact(D, "D", ref)
    return {"printed": lemma_c11_printed(Dq, sq, l, K),
            "corrected": lemma_c11_corrected(Dq, sq, l, K),
            "optimum": window_optimum(Dq, sq, l, K)}


def thm_4_6_certificate(s: Number, D: Number, l: int) -> dict[str, object]:
    """Certificate that Thm 4.6's final bound holds at (s, D, l): at K = ceil(D/s) the exact
    window optimum is at most the value (D + s K)^2/(l K) that the proof charges.

    For l >= 2 this is also proved in general: the corrected constant shift
    a' = (D + s(K-1))/(l K - 1) is feasible (D > s (K - 1) >= s (1 - 1/l) when K >= 2) and
    with B = D + s K in [s K, 2 s K], (B - s)^2/(l K - 1) <= B^2/(l K) iff
    B^2 <= l K s (2B - s), true since B <= 2 s K and B >= s >= l s/(2(l - 1)).
    For l = 1 the proof's intermediate fails (e.g. s = 1, D = 2: optimum 9 > 8), but the
    final bound still holds because it exceeds Thm 4.3's by (L/b)^2."""
    ref = "Bok et al. 2024, Thm 4.6"
    sq, Dq = _exact(s, "s", ref), _exact(D, "D", ref)
    K = _ceil(Dq / sq)
    opt = window_optimum(Dq, sq, l, K)
    charged = thm_4_6_window_value(Dq, sq, l, K)
    return {"K": K, "optimum": opt.value, "charged": charged, "holds": opt.value <= charged,
            "corrected_feasible": lemma_c11_corrected(Dq, sq, l, K).feasible}



#: Figure 9 (App. D.3.2): eta = 0.02, L/b = 0.5, l = 20, D = 1, sigma = 3, so mu* = 0.7638.
#: The paper draws "our bound" from E = 25 on; Thm 4.6 assumes E >= D b/(eta L) = 100.
FIGURE_9 = {"eta": "0.02", "L_over_b": "0.5", "l": 20, "D": "1", "sigma": "3",
            "E_fdp": (25, 50, 100), "E_eps": (5, 10, 20, 40, 80, 160, 320),
            "deltas": ("1e-3", "1e-5")}


def figure_9_values(dps: int = 20) -> dict[str, object]:
    """Figure 9's right panel: eps of composition (Thm 4.4), of min(composition, mu*) as the
    paper plots it, and of the same minimum where Thm 4.6 applies (E >= D b/(eta L))."""
    f = FIGURE_9
    e_valid = _ceil(q_ratio(f["L_over_b"], 1, f["eta"], f["D"], "Figure 9"))
    mu_star = thm_4_6(f["L_over_b"], 1, f["sigma"], f["eta"], f["D"], f["l"], e_valid, dps=dps)
    out: dict[str, object] = {"mu_star": mu_star, "E_valid": e_valid}
    with precision(dps + GUARD_DPS):
        eff = to_mpf(f["L_over_b"]) / to_mpf(f["sigma"])
    for delta in f["deltas"]:
        comp = [eff * mpmath.sqrt(E) for E in f["E_eps"]]
        paper_curve = [min(c, mu_star) for c in comp]
        valid = [min(c, mu_star) if e_valid <= E else c for E, c in zip(f["E_eps"], comp,
                                                                        strict=True)]
        out[delta] = {name: [gdp_epsilon(m, delta, dps=dps) for m in mus]
                      for name, mus in (("composition", comp), ("paper", paper_curve),
                                        ("certified", valid))}
    return out


@figure("bok2024", "figure_9", "NoisyCGD constrained convex: Thm 4.6 vs composition (Fig. 9)")
def figure_9(values: dict[str, object] | None = None) -> Figure:
    """Figure 9: f-DP (left) and eps vs E (right); the dotted curve is where Thm 4.6 applies."""
    f = FIGURE_9
    v = values or figure_9_values()
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.6)
    with precision(20):
        eff = to_mpf(f["L_over_b"]) / to_mpf(f["sigma"])
    curves = [(v["mu_star"], f"ours, G({mpmath.nstr(v['mu_star'], 4)})", PALETTE[0], "-")]
    curves += [(eff * mpmath.sqrt(E), f"composition, E={E}", col, "--")
               for E, col in zip(f["E_fdp"], ("#d1495b", "#2e8b57", "0.35"), strict=True)]
    tradeoff_panel(ax, curves, "f-DP (Thm 4.6 vs Thm 4.4)")
    series = []
    for delta, col in zip(f["deltas"], PALETTE, strict=False):
        series.append((v[delta]["paper"], rf"ours as plotted, $\delta$={delta}", col, "-"))
        series.append((v[delta]["certified"], rf"ours where Thm 4.6 applies, $\delta$={delta}",
                       col, ":"))
        series.append((v[delta]["composition"], rf"composition, $\delta$={delta}", col, "--"))
    epsilon_panel(ax2, f["E_eps"], series, "epochs E",
                  r"$(\varepsilon, \delta)$-DP, $\eta$ = 0.02, L/b = 0.5, l = 20, $\sigma$ = 3")
    return fig


def thm_4_6_exact(L_over_b: Number, eta: Number, D: Number, sigma: Number, l: int,
                  E: int) -> float:
    """The best mu the shifted-interpolation argument of Thm 4.6 gives at E epochs: the last
    step (Lemma 3.1) plus the exact optimum of the window (:func:`window_optimum`),
    minimised over all windows K = E - tau in 1..E-1 (tau >= 1), i.e.
    mu = sqrt(s^2 + min_K OPT(K)) / (eta sigma) with s = eta L / b.  Valid for every E >= 2,
    not only E >= D b/(eta L); float64 output of an exact-rational optimum (for tables and
    plots, not a certified rounding)."""
    ref = "Bok et al. 2024, Thm 4.6 (exact window)"
    E = require_integer("E", E, ref, minimum=2)
    Lb, e, Dq = _exact(L_over_b, "L/b", ref), _exact(eta, "eta", ref), _exact(D, "D", ref)
    sg = _exact(sigma, "sigma", ref)
    require(sg > 0, "sigma", sigma, "sigma > 0", ref)
    s = e * Lb
    best = min(window_optimum(Dq, s, l, K).value for K in range(1, E) if l * K >= 2)
    return float(s * s + best) ** 0.5 / float(e * sg)
