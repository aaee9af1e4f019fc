"""Birrell, Ebrahimi, Behnia & Pacheco 2024: replace-one adjacency (Sec. 3.2, 3.4, App. C, E).

FSwoR replace-one (Thms 3.4, 3.5), Poisson replace-one (Thm C.9), the Wang, Balle &
Kasiviswanathan 2019 comparison bounds (127)-(133), the second-derivative maximisations
(67)/(69)/(96)/(136), and Figures 2, 3, 4 (top) and 7.  Symbols as in the paper:
``alpha, sigma, q, m, T``; sigma is the noise multiplier, q = |B|/|D|.

>>> from dpsym.papers.birrell2024.replace_one import thm_3_4
>>> from dpsym.numerics import nstr
>>> nstr(thm_3_4(alpha=10, sigma=6, q="0.0024", m=4, dps=30), 6)
'3.55685e-6'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import mpmath
import numpy as np
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.figures import figure, new_figure
from dpsym.numerics import DEFAULT_DPS, Number, precision, to_mpf
from dpsym.papers.birrell2024.add_remove import SIGMA, T_EPOCHS_250, Q
from dpsym.rdp.conversions import epsilon_from_rdp
from dpsym.rdp.taylor import (
    E_tilde,
    F_tilde,
    fswor_replace_one_rdp,
    max_second_derivative,
    poisson_replace_one_rdp,
)
from dpsym.rdp.wang2019 import wang_K, wang_lower_rdp, wang_upper_rdp

__all__ = [
    "ALPHAS_FIG3",
    "DELTAS_FIG3",
    "DELTAS_FIG4",
    "eps_over_grid",
    "eq_69",
    "eq_69_closed_form",
    "eq_83",
    "eq_90",
    "eq_96_closed_form",
    "eq_127",
    "eq_130",
    "eq_132",
    "eq_133",
    "eq_136_closed_form",
    "figure_2",
    "figure_2_curves",
    "figure_3",
    "figure_3_table",
    "figure_4_top",
    "figure_7",
    "figure_7_curves",
    "thm_3_4",
    "thm_3_5",
    "thm_c_9",
]

#: Figures 3, 4: alpha = 1 + 10^linspace(-1, 1.5, 500) (``plot_Fig2_3.py``, ``plot_Fig4.py``).
ALPHAS_FIG3 = [1 + 10 ** float(x) for x in np.linspace(-1, 1.5, 500)]
#: Figure 2 (``fs_rdp_bounds_figs.py``): alpha = 1 + 10^linspace(-2, 1.8, 100).
ALPHAS_FIG2 = [1 + 10 ** float(x) for x in np.linspace(-2, 1.8, 100)]
#: Figure 3's delta values as in the authors' script (the text names 1e-4 ... 1e-10).
DELTAS_FIG3 = [m * 10.0**e for e in range(-10, -4) for m in (1, 3, 5)] + [1e-4]
#: Figure 4 (top): 1e-3 ... 1e-12.
DELTAS_FIG4 = [10.0**-e for e in range(3, 13)]


# --- statements -------------------------------------------------------------------------


def thm_3_4(alpha: Number, sigma: Number, q: Number, m: int = 4, dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.4 (14): one FSwoR replace-one step has RDP <=
    (1/(alpha-1)) log[1 + q^2 alpha(alpha-1)(e^{4/sigma^2} - e^{2/sigma^2})
    + sum_{k=3}^{m-1} q^k F~_{alpha,sigma,k}/k! + E~_{alpha,sigma,m}(q)].  Rounded up."""
    return fswor_replace_one_rdp(alpha, sigma, q, m, dps=dps)


def thm_3_5(alpha: Number, sigma: Number, q: Number, m: int = 4, T: int = 1,
            dps: int = DEFAULT_DPS) -> mpf:
    """Thm 3.5 (15): T FSwoR replace-one steps with constant sigma: T times Thm 3.4."""
    return fswor_replace_one_rdp(alpha, sigma, q, m, steps=T, dps=dps)


def thm_c_9(alpha: Number, sigma: Number, q: Number, m: int = 4, T: int = 1,
            variant: str = "paper", dps: int = DEFAULT_DPS) -> mpf:
    """Thm C.9 (98): Poisson replace-one, F~ and E~ at 2 sigma, lead e^{1/s^2} - e^{-1/s^2}.

    ``variant="conservative"`` keeps sigma (not 2 sigma) in the two chi^k terms of (80)
    that compare N_{dmu} with N_{dmu'} (see :func:`dpsym.rdp.taylor.poisson_replace_one_rdp`
    and the ledger's erratum on this step).
    """
    return poisson_replace_one_rdp(alpha, sigma, q, m, steps=T, variant=variant, dps=dps)


def eq_83(alpha: Number, sigma: Number, k: int, dps: int = DEFAULT_DPS) -> mpf:
    """F~_{alpha,sigma,k} of (83)."""
    return F_tilde(alpha, sigma, k, dps=dps)


def eq_90(alpha: Number, sigma: Number, q: Number, m: int, dps: int = DEFAULT_DPS) -> mpf:
    """E~_{alpha,sigma,m}(q) of (90)."""
    return E_tilde(alpha, sigma, q, m, dps=dps)


def eq_69(sigma: Number, dps: int = 30) -> mpf:
    """max F''(0)/(alpha(alpha-1)) over the FSwoR constraints (60), numerically (cf. (69))."""
    return max_second_derivative(sigma, 1, 1, dps=dps)[0]


def eq_69_closed_form(sigma: Number, dps: int = 30) -> mpf:
    """The paper's value 2(e^{4/sigma^2} - e^{2/sigma^2}) of (69) (divided by alpha(alpha-1))."""
    with precision(dps):
        u = 1 / to_mpf(sigma, "sigma") ** 2
        return 2 * (mpmath.exp(4 * u) - mpmath.exp(2 * u))


def eq_96_closed_form(sigma: Number, dps: int = 30) -> mpf:
    """The paper's Poisson value 2(e^{1/sigma^2} - e^{-1/sigma^2}) of (96)."""
    with precision(dps):
        u = 1 / to_mpf(sigma, "sigma") ** 2
        return 2 * (mpmath.exp(u) - mpmath.exp(-u))


def eq_136_closed_form(sigma: Number, dps: int = 30) -> mpf:
    """The paper's uncoupled value 2(e^{4/sigma^2} - e^{-4/sigma^2}) of (136)."""
    with precision(dps):
        u = 1 / to_mpf(sigma, "sigma") ** 2
        return 2 * (mpmath.exp(4 * u) - mpmath.exp(-4 * u))


def eq_127(alpha: int, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. upper bound K(alpha)/(alpha-1), integer alpha >= 2 (127).  Rounded up."""
    return wang_upper_rdp(alpha, sigma, q, dps=dps)


def eq_130(alpha: Number, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. upper bound at real alpha >= 2 by interpolating K (130).  Rounded up."""
    return wang_upper_rdp(alpha, sigma, q, dps=dps)


def eq_132(sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. upper bound on (1, 2): the constant K(2) (131)-(132)."""
    return wang_K(2, sigma, q, dps=dps)


def eq_133(alpha: int, sigma: Number, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. lower bound (Prop. 11), integer alpha >= 2 (133).  Rounded down."""
    return wang_lower_rdp(alpha, sigma, q, dps=dps)


# --- (eps, delta) over an order grid ------------------------------------------------------


def eps_over_grid(rdp_one_step: Callable[[float], mpf], alphas: Sequence[float], T: Number,
                  delta: Number, conversion: str = "balle2020", dps: int = 30,
                  cache: dict[int, mpf] | None = None, coarse: int = 10) -> tuple[mpf, float]:
    """(min eps, its order) of T * rdp_one_step(alpha) over the grid ``alphas`` at ``delta``.

    The conversion is Balle et al. 2020, Thm 21 by default (as Opacus ``get_privacy_spent``
    and the authors' scripts).  Search: every ``coarse``-th order, then every order within
    ``coarse`` of the best; exact for a unimodal eps along the grid (the case for these
    curves), and whatever it returns is a valid bound, since every order gives one.
    ``cache`` (index -> one-step RDP) lets several deltas share evaluations.  T may be
    non-integer (the authors' "250 epochs" is T = 104166.67); it multiplies the RDP.
    """
    cache = {} if cache is None else cache
    with precision(dps + 10):
        tv = to_mpf(T, "T")

    def eps_at(i: int) -> mpf:
        if i not in cache:
            cache[i] = rdp_one_step(alphas[i])
        with precision(dps + 10):
            r = tv * cache[i]
        return epsilon_from_rdp(alphas[i], r, delta, conversion, dps=dps)

    n = len(alphas)
    idx = [*range(0, n, coarse), n - 1]
    best = min(idx, key=eps_at)
    window = range(max(0, best - coarse), min(n, best + coarse + 1))
    best = min(window, key=eps_at)
    return eps_at(best), alphas[best]


def _int_grid_eps(rdp_int: Callable[[int], mpf], orders: Sequence[int], T: Number,
                  delta: Number, dps: int, cache: dict[int, mpf]) -> tuple[mpf, int]:
    with precision(dps + 10):
        tv = to_mpf(T, "T")
    best = None
    for a in orders:
        if a not in cache:
            cache[a] = rdp_int(a)
        with precision(dps + 10):
            e = epsilon_from_rdp(a, tv * cache[a], delta, dps=dps)
        if best is None or e < best[0]:
            best = (e, a)
    return best


def figure_3_table(deltas: Sequence[float] = DELTAS_FIG3, ms: Sequence[int] = (3, 4, 5),
                   T: Number = T_EPOCHS_250, dps: int = 20,
                   poisson: bool = False) -> dict[str, list[tuple[mpf, float]]]:
    """eps(delta) after T steps at sigma = 6, q = 0.0024 (Figs 3 and 4 top).

    Rows: Thm 3.4 for each m, Wang upper (127)/(130)/(132) on the 500-order grid of
    ``plot_Fig2_3.py``, Wang lower (133) on the integers 2..32, and with ``poisson`` the
    Thm C.9 (m = 4) curve.  Each entry is (eps, best order).
    """
    out: dict[str, list[tuple[mpf, float]]] = {}
    rows: list[tuple[str, Callable[[float], mpf]]] = [
        (f"Thm 3.4, m={m}", lambda a, m=m: thm_3_4(a, SIGMA, Q, m, dps=dps + 5)) for m in ms]
    rows.append(("Wang et al. upper", lambda a: wang_upper_rdp(a, SIGMA, Q, dps=dps + 5)))
    if poisson:
        rows.append(("Thm C.9 (Poisson), m=4", lambda a: thm_c_9(a, SIGMA, Q, 4, dps=dps + 5)))
    for name, fn in rows:
        cache: dict[int, mpf] = {}
        out[name] = [eps_over_grid(fn, ALPHAS_FIG3, T, d, dps=dps, cache=cache) for d in deltas]
    icache: dict[int, mpf] = {}
    out["Wang et al. lower"] = [
        _int_grid_eps(lambda a: wang_lower_rdp(a, SIGMA, Q, dps=dps + 5), range(2, 33), T, d,
                      dps, icache) for d in deltas]
    return out


# --- figures ------------------------------------------------------------------------------


def figure_2_curves(alphas: Sequence[float] = ALPHAS_FIG2, dps: int = 20) -> dict[str, list]:
    """One-step curves of Figure 2: Thm 3.4 (m = 3, 4, 5), Wang upper, Wang lower (integers)."""
    curves: dict[str, list] = {
        f"Thm 3.4, m={m}": [thm_3_4(a, SIGMA, Q, m, dps=dps) for a in alphas] for m in (3, 4, 5)}
    curves["Wang et al. upper"] = [wang_upper_rdp(a, SIGMA, Q, dps=dps) for a in alphas]
    top = int(alphas[-1])
    curves["Wang et al. lower"] = [(a, wang_lower_rdp(a, SIGMA, Q, dps=dps))
                                   for a in range(2, top + 1)]
    return curves


@figure("birrell2024", "figure_2", "FSwoR replace-one (Thm 3.4) vs Wang et al. bounds (Fig. 2)")
def figure_2(curves: dict[str, list] | None = None) -> Figure:
    """Figure 2: one-step replace-one RDP, Thm 3.4 (m = 3, 4, 5) vs Wang et al. (log y)."""
    curves = curves or figure_2_curves()
    fig, ax = new_figure(width=5.2, height=3.8)
    for name in ("Thm 3.4, m=3", "Thm 3.4, m=4", "Thm 3.4, m=5"):
        ax.plot(ALPHAS_FIG2, [float(v) for v in curves[name]], "-", label=name)
    ax.plot(ALPHAS_FIG2, [float(v) for v in curves["Wang et al. upper"]], "-.",
            label="Wang et al. upper")
    low = curves["Wang et al. lower"]
    ax.plot([a for a, _ in low], [float(v) for _, v in low], ".", label="Wang et al. lower")
    ax.set_yscale("log")
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("One-step RDP bound (r-o)")
    ax.set_title(r"$\sigma=6$, $|B|=120$, $|D|=50{,}000$")
    ax.legend()
    return fig


@figure("birrell2024", "figure_3", "(eps, delta) after 250 epochs, replace-one (Fig. 3)")
def figure_3(table: dict[str, list[tuple[mpf, float]]] | None = None,
             deltas: Sequence[float] = DELTAS_FIG3) -> Figure:
    """Figure 3: eps vs delta (log x), Thm 3.4 (m = 3, 4, 5) vs Wang et al., 250 epochs.

    ``table`` is :func:`figure_3_table` evaluated at ``deltas``.
    """
    table = table or figure_3_table(deltas)
    fig, ax = new_figure(width=5.2, height=3.8)
    styles = {"Wang et al. upper": "--", "Wang et al. lower": ":"}
    for name, rows in table.items():
        ax.plot(deltas, [float(e) for e, _ in rows], styles.get(name, "-"),
                marker="1" if name.startswith("Thm") else ".", label=name)
    ax.set_xscale("log")
    ax.set_xlabel(r"$\delta$")
    ax.set_ylabel(r"$\varepsilon$")
    ax.set_title(r"$\sigma=6$, $|B|=120$, $|D|=50{,}000$, 250 epochs")
    ax.legend()
    return fig


@figure("birrell2024", "figure_4_top",
        "Privacy: FSwoR (Thm 3.4) vs Wang et al. vs Poisson (Thm C.9), replace-one (Fig. 4 top)")
def figure_4_top(table: dict[str, list[tuple[mpf, float]]] | None = None) -> Figure:
    """Figure 4 (top): eps vs delta in 1e-3..1e-12, m = 4: Thm 3.4, Wang upper, Thm C.9."""
    if table is None:
        table = figure_3_table(DELTAS_FIG4, ms=(4,), poisson=True)
    fig, ax = new_figure(width=5.2, height=3.8)
    for name, style in (("Thm 3.4, m=4", "-"), ("Wang et al. upper", "--"),
                        ("Thm C.9 (Poisson), m=4", "-.")):
        ax.plot(DELTAS_FIG4, [float(e) for e, _ in table[name]], style, marker=".",
                label="FSwoR-RDP (Thm 3.4)" if name.startswith("Thm 3.4") else
                ("Poisson subsampled RDP (Thm C.9)" if "C.9" in name else name))
    ax.set_xscale("log")
    ax.set_xlabel(r"$\delta$")
    ax.set_ylabel(r"$\varepsilon$")
    ax.set_title("replace-one, 250 epochs")
    ax.legend()
    return fig


#: Figure 7: alpha = linspace(50, 60, 100), m = 5.
ALPHAS_FIG7 = [float(x) for x in np.linspace(50, 60, 100)]


def figure_7_curves(alphas: Sequence[float] = ALPHAS_FIG7, dps: int = 15) -> dict[str, list]:
    """Figure 7 curves: Thm C.9 and Thm 3.4 (m = 5), Wang upper; Wang lower at 50..60."""
    curves: dict[str, list] = {
        "Thm C.9 (Poisson), m=5": [thm_c_9(a, SIGMA, Q, 5, dps=dps) for a in alphas],
        "Thm 3.4 (FSwoR), m=5": [thm_3_4(a, SIGMA, Q, 5, dps=dps) for a in alphas],
        "Wang et al. upper": [wang_upper_rdp(a, SIGMA, Q, dps=dps) for a in alphas],
    }
    curves["Wang et al. lower"] = [(a, wang_lower_rdp(a, SIGMA, Q, dps=dps))
                                   for a in range(50, 61)]
    return curves


@figure("birrell2024", "figure_7",
        "Replace-one: Thm 3.4 vs Thm C.9 vs Wang, alpha in 50..60 (Fig. 7)")
def figure_7(curves: dict[str, list] | None = None) -> Figure:
    """Figure 7: zoom on alpha in [50, 60], m = 5, linear y in scientific notation."""
    curves = curves or figure_7_curves()
    fig, ax = new_figure(width=5.2, height=3.8)
    ax.plot(ALPHAS_FIG7, [float(v) for v in curves["Thm 3.4 (FSwoR), m=5"]], "-", color="k",
            label="FSwoR-RDP (Thm 3.4)")
    ax.plot(ALPHAS_FIG7, [float(v) for v in curves["Thm C.9 (Poisson), m=5"]], "--", color="k",
            label="Poisson-RDP (Thm C.9)")
    ax.plot(ALPHAS_FIG7, [float(v) for v in curves["Wang et al. upper"]], "-.", color="r",
            label="Wang et al. upper")
    low = curves["Wang et al. lower"]
    ax.plot([a for a, _ in low], [float(v) for _, v in low], "o", color="m", markersize=3,
            label="Wang et al. lower")
    ax.ticklabel_format(axis="y", style="sci", scilimits=(0, 0))
    ax.set_xlabel(r"$\alpha$")
    ax.set_ylabel("One-step RDP bound (r-o)")
    ax.legend()
    return fig
