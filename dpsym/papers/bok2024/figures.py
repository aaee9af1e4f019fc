"""The figures of Bok, Su & Altschuler 2024 (Figures 1-3, 6-9) and the figures dpsym adds to
show its evidence (``lemma_c11_windows``, ``thm_4_6_every_window``, ``pure_dp_vs_gdp``).

The data come from the section modules; this module only draws. Colours: in a figure with
an f-DP panel and an (eps, delta) panel, the left panel's colours stand for the number of
steps (or epochs) and the right panel's for delta, so no colour means two things.
"""

from __future__ import annotations

import mpmath
import numpy as np
from matplotlib.axes import Axes
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.ticker import MaxNLocator

from dpsym.fdp import EpsDelta, Gaussian, clt_mu, gdp_delta, gdp_epsilon
from dpsym.figures import PALETTE, STYLE, figure, new_figure, tradeoff_panel
from dpsym.numerics import precision, to_mpf
from dpsym.papers.bok2024 import (
    appendix_a,
    langevin,
    noisycgd_constrained,
    noisysgd,
    noisysgd_accounting,
    noisysgd_coupling,
)
from dpsym.papers.bok2024.interpolated_process import FIGURE_3, coupled_trajectories
from dpsym.papers.bok2024.noisycgd import FIGURE_8, thm_4_4, thm_4_5_from_c
from dpsym.papers.bok2024.noisycgd_constrained import FIGURE_9, figure_9_values
from dpsym.papers.bok2024.noisygd import (
    FIGURE_1,
    FIGURE_6,
    figure_1_values,
    figure_6_eps,
    thm_4_1,
    thm_4_2,
    thm_c_5,
)
from dpsym.papers.bok2024.noisygd_constrained import FIGURE_7, figure_7_mu
from dpsym.shifts.cyclic_constrained import (
    intended_window_optimum,
    lemma_c11_printed,
    window_budget,
    window_optimum,
)

__all__ = [
    "clt_vs_certified",
    "figure_1",
    "figure_2",
    "figure_3",
    "figure_4",
    "figure_5",
    "figure_6",
    "figure_7",
    "figure_8",
    "figure_9",
    "figure_10",
    "lemma_c11_windows",
    "pure_dp_vs_gdp",
    "thm_4_6_every_window",
    "thm_4_8_certified_curve",
]

PAPER = "bok2024"
#: Colours of delta in the (eps, delta) panels (distinct from PALETTE, used for t or E).
DELTA_COLOURS = ("#6c4f9c", "#00798c")
GREYS = ("0.55", "0.25")


def _legend_below(ax: Axes, ncol: int = 1) -> None:
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), ncol=ncol, fontsize=8)


def _tradeoff(ax: Axes, curves: list[tuple[object, str, str, str]], title: str) -> None:
    """:func:`dpsym.figures.tradeoff_panel` with the legend below the panel."""
    tradeoff_panel(ax, curves, title)
    _legend_below(ax)


def _unit_square(ax: Axes, title: str, ncol: int = 1) -> None:
    """Axes of a tradeoff-function panel drawn by hand."""
    ax.set_xlabel("Type I error")
    ax.set_ylabel("Type II error")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_title(title)
    _legend_below(ax, ncol=ncol)


def _eps(ax: Axes, x: object, series: list[tuple[list, str, str, str]], xlabel: str,
         title: str, marked: tuple[int, ...] = ()) -> None:
    """eps against steps or epochs on a log x axis; the points the paper marks get markers."""
    xs = list(x)
    for values, label, colour, style in series:
        ys = [float(v) for v in values]
        ax.plot(xs, ys, color=colour, linestyle=style, label=label)
        pts = [(a, b) for a, b in zip(xs, ys, strict=True) if a in marked]
        if pts:
            ax.plot(*zip(*pts, strict=True), color=colour, linestyle="none", marker="o",
                    markersize=3)
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.set_ylabel(r"$\varepsilon$")
    ax.set_title(title)
    _legend_below(ax)


def _dense(lo: int, hi: int, n: int = 40, extra: tuple[int, ...] = ()) -> tuple[int, ...]:
    """About n log-spaced integers in [lo, hi], plus ``extra``."""
    grid = np.unique(np.round(np.geomspace(lo, hi, n)).astype(int))
    return tuple(sorted({int(v) for v in grid} | set(extra)))


@figure(PAPER, "figure_1", "NoisyGD strongly convex: f-DP, RDP and prior bounds (Fig. 1)")
def figure_1() -> Figure:
    """Figure 1 (c = 0.95, L/(n sigma) = 0.1): tradeoff curves at t = 160 (left) and
    eps(delta = 1e-5) against t (right). The f-DP and composition curves are dense; the RDP
    conversions (App. A.1, an optimisation per point) are marked at the paper's t."""
    f = FIGURE_1
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=4.6)
    t = f["t_fdp"]
    ours = thm_4_2(f["L_over_n_sigma"], 1, 1, f["eta"], f["m"], f["M"], t, dps=15)
    comp = thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=15)
    _tradeoff(ax, [
        (0, "perfect privacy, G(0)", GREYS[0], ":"),
        (ours, f"ours (optimal), G({mpmath.nstr(ours, 4)})", PALETTE[0], "-"),
        (comp, f"composition, G({mpmath.nstr(comp, 4)})", PALETTE[1], "--"),
        (f["no_privacy_mu"], "no privacy, G(10)", GREYS[1], "-."),
    ], f"f-DP at t = {t}")
    ts = _dense(f["t_eps"][0], f["t_eps"][-1], 30, f["t_eps"])
    with precision(20):
        mus = [thm_4_2(f["L_over_n_sigma"], 1, 1, f["eta"], f["m"], f["M"], s, dps=20) for s in ts]
        comps = [thm_4_1(f["L_over_n_sigma"], 1, 1, s, dps=20) for s in ts]
    v = figure_1_values()
    _eps(ax2, ts, [
        ([gdp_epsilon(m, f["delta"], dps=15) for m in mus], "ours, f-DP (Thm 4.2)", PALETTE[0],
         "-"),
        ([gdp_epsilon(m, f["delta"], dps=15) for m in comps], "composition (Thm 4.1)",
         PALETTE[1], "--"),
    ], "steps t", r"$(\varepsilon, 10^{-5})$-DP, c = 0.95, L/(n$\sigma$) = 0.1",
        marked=f["t_eps"])
    for key, label, colour, marker in (("eps_rdp_ours", "ours, RDP (Thm 4.2 + A.4)", PALETTE[2],
                                        "s"),
                                       ("eps_rdp_ys22", "prior RDP [YS22, Thm D.6]", "#edae49",
                                        "^")):
        ax2.plot(f["t_eps"], [float(x) for x in v[key]], color=colour, linestyle="none",
                 marker=marker, markersize=5, label=label)
    _legend_below(ax2)
    return fig


@figure(PAPER, "figure_2", "Tradeoff functions: G(mu) and an f-DP curve (Fig. 2)")
def figure_2() -> Figure:
    """Figure 2: G(0) = Id, G(0.5), G(1), G(5) and the curve of A, 1-GDP but not 0.5-GDP."""
    fig, ax = new_figure(width=4.4, height=5.0)
    xs = np.linspace(0, 1, 401)
    labels = {"0": "G(0) = Id (full privacy)", "5": "G(5) (essentially no privacy)"}
    for mu in appendix_a.FIGURE_2_MUS:
        ax.plot(xs, Gaussian(mu).vectorized(xs), label=labels.get(mu, f"G({mu})"))
    ax.plot(xs, appendix_a.figure_2_curve().vectorized(xs), color="black", linestyle="--",
            label=r"$T(\mathcal{A}(S), \mathcal{A}(S'))$")
    _unit_square(ax, "f-DP and GDP (Bok et al. 2024, Fig. 2)", ncol=2)
    return fig


@figure(PAPER, "figure_3", "The shifted interpolated process on coupled trajectories (Fig. 3)")
def figure_3() -> Figure:
    """Figure 3: X (dataset S), X' (dataset S') and the interpolated X~ that starts on X' and
    is pulled onto X by the end (left); |X_k - X~_k| against Lemma C.6's z_k (right)."""
    f = FIGURE_3
    r = coupled_trajectories(f["t"], f["eta"], f["m"], f["s"], f["sigma"], f["seed"])
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=4.4)
    for key, label, col, ls in (("X", r"$X_k$ (on $S$)", PALETTE[0], "-"),
                                ("Xprime", r"$X'_k$ (on $S'$)", PALETTE[1], "-"),
                                ("Xtilde", r"$\tilde X_k$ (shifted interpolation)", PALETTE[2],
                                 "--")):
        p = r[key]
        (line,) = ax.plot(p[:, 0], p[:, 1], color=col, linestyle=ls, marker="o", markersize=3,
                          label=label)
        line.set_gid("discrete")  # one vertex per iterate
    for k in range(0, f["t"] + 1, 3):
        ax.plot([r["X"][k, 0], r["Xtilde"][k, 0]], [r["X"][k, 1], r["Xtilde"][k, 1]],
                color="0.6", linewidth=0.8)
    ax.annotate(r"$\tilde X_t = X_t$", r["X"][-1], textcoords="offset points", xytext=(8, -12))
    ax.set_xlabel("coordinate 1")
    ax.set_ylabel("coordinate 2")
    ax.set_title("Coupled NoisyGD trajectories (c = 0.85)")
    _legend_below(ax)
    ks = np.arange(f["t"] + 1)
    (line,) = ax2.plot(ks, r["z"], color=DELTA_COLOURS[0], label=r"$z_k$ (Lemma C.6)")
    line.set_gid("discrete")
    ax2.plot(ks, r["distance"], color=GREYS[1], linestyle="none", marker="x",
             label=r"$|X_k - \tilde X_k|$ (simulated)")
    ax2.set_xlabel("step k")
    ax2.set_ylabel("distance")
    ax2.set_title("Distance to X: simulated vs Lemma C.6")
    _legend_below(ax2)
    return fig


@figure(PAPER, "figure_6", "NoisyGD strongly convex: Thm 4.2 vs composition (Fig. 6)")
def figure_6() -> Figure:
    """Figure 6: f-DP curves at t in {10, 100, 1000} (left) and eps vs t (right), c = 0.99."""
    f = FIGURE_6
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=5.0)
    curves = []
    for t, col in zip(f["t_fdp"], PALETTE, strict=True):
        ours = thm_c_5(f["c"], f["L_over_n_sigma"], 1, t, dps=15)
        comp = thm_4_1(f["L_over_n_sigma"], 1, 1, t, dps=15)
        curves += [(ours, f"ours, t={t}", col, "-"), (comp, f"composition, t={t}", col, "--")]
    _tradeoff(ax, curves, "f-DP (Thm 4.2 vs Thm 4.1)")
    ts = _dense(f["t_eps"][0], f["t_eps"][-1], 30, f["t_eps"])
    eps = figure_6_eps(ts)
    series = []
    for delta, col in zip(f["deltas"], DELTA_COLOURS, strict=True):
        series.append((eps[delta]["ours"], rf"ours, $\delta$={delta}", col, "-"))
        series.append((eps[delta]["composition"], rf"composition, $\delta$={delta}", col, "--"))
    _eps(ax2, ts, series, "steps t", r"$(\varepsilon, \delta)$-DP, c = 0.99, L/(n$\sigma$) = 0.1",
         marked=f["t_eps"])
    return fig


@figure(PAPER, "figure_7", "NoisyGD constrained convex: Thm 4.3 vs composition (Fig. 7)")
def figure_7() -> Figure:
    """Figure 7: G(mu*) and composition at t in {80, 160, 320} (left); eps vs t of
    min(Thm 4.1, Thm 4.3) and of Thm 4.1 (right); L/n = 0.5, eta = 0.1, D = 1, sigma = 8."""
    f = FIGURE_7
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=5.0)
    ours_star, _ = figure_7_mu(f["t_fdp"][-1], dps=15)
    curves = [(ours_star, rf"ours, t $\geq$ 80 ($\mu^*$ = {float(ours_star):.4f})", GREYS[1],
               "-")]
    curves += [(figure_7_mu(t, dps=15)[1], f"composition, t={t}", col, "--")
               for t, col in zip(f["t_fdp"], PALETTE, strict=True)]
    _tradeoff(ax, curves, "f-DP (Thm 4.3 vs Thm 4.1)")
    ts = _dense(f["t_eps"][0], f["t_eps"][-1], 30, f["t_eps"])
    pairs = [figure_7_mu(t) for t in ts]
    series = []
    for delta, col in zip(f["deltas"], DELTA_COLOURS, strict=True):
        series.append(([gdp_epsilon(o, delta, dps=15) for o, _ in pairs],
                       rf"ours, $\delta$={delta}", col, "-"))
        series.append(([gdp_epsilon(c, delta, dps=15) for _, c in pairs],
                       rf"composition, $\delta$={delta}", col, "--"))
    _eps(ax2, ts, series, "steps t",
         r"$(\varepsilon, \delta)$-DP, L/n = 0.5, $\eta$ = 0.1, D = 1, $\sigma$ = 8",
         marked=f["t_eps"])
    return fig


@figure(PAPER, "figure_8", "NoisyCGD strongly convex: Thm 4.5 vs composition (Fig. 8)")
def figure_8() -> Figure:
    """Figure 8: f-DP at E in {5, 50, 500} (left) and eps vs E (right), c = 0.99, l = 20."""
    f = FIGURE_8
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=5.0)

    def ours(E: int) -> object:
        return thm_4_5_from_c(f["c"], f["L_over_b_sigma"], f["l"], E, dps=15)

    def comp(E: int) -> object:
        return thm_4_4(f["L_over_b_sigma"], 1, 1, E, dps=15)

    curves = []
    for E, col in zip(f["E_fdp"], PALETTE, strict=True):
        curves.append((ours(E), f"ours, E={E}", col, "-"))
        curves.append((comp(E), f"composition, E={E}", col, "--"))
    _tradeoff(ax, curves, "f-DP (Thm 4.5 vs Thm 4.4)")
    Es = _dense(f["E_eps"][0], f["E_eps"][-1], 30, f["E_eps"])
    mus = {"ours": [ours(E) for E in Es], "composition": [comp(E) for E in Es]}
    series = []
    for delta, col in zip(f["deltas"], DELTA_COLOURS, strict=True):
        for name, style in (("ours", "-"), ("composition", "--")):
            series.append(([gdp_epsilon(m, delta, dps=15) for m in mus[name]],
                           rf"{name}, $\delta$={delta}", col, style))
    _eps(ax2, Es, series, "epochs E",
         r"$(\varepsilon, \delta)$-DP, c = 0.99, l = 20, L/(b$\sigma$) = 0.2", marked=f["E_eps"])
    return fig


@figure(PAPER, "figure_9", "NoisyCGD constrained convex: Thm 4.6 vs composition (Fig. 9)")
def figure_9() -> Figure:
    """Figure 9 (eta = 0.02, L/b = 0.5, l = 20, D = 1, sigma = 3): f-DP (left) and eps vs E
    (right) of min(composition, mu*) as the paper plots it; dotted, the best bound of the
    paper's argument over every window of Thm C.3 (tau = 0 included), which lies below the
    plotted curve at every E, so the curve is valid also below E = D b/(eta L) = 100."""
    f = FIGURE_9
    Es = _dense(1, f["E_eps"][-1], 30, f["E_eps"])
    v = figure_9_values(Es)
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=5.2)
    with precision(20):
        eff = to_mpf(f["L_over_b"]) / to_mpf(f["sigma"])
    curves = [(v["mu_star"], f"ours, G({mpmath.nstr(v['mu_star'], 4)})", GREYS[1], "-")]
    curves += [(eff * mpmath.sqrt(E), f"composition, E={E}", col, "--")
               for E, col in zip(f["E_fdp"], PALETTE, strict=True)]
    _tradeoff(ax, curves, "f-DP (Thm 4.6 vs Thm 4.4)")
    series = []
    for delta, col in zip(f["deltas"], DELTA_COLOURS, strict=True):
        series.append((v[delta]["paper"], rf"ours as plotted, $\delta$={delta}", col, "-"))
        series.append((v[delta]["exact"], rf"every window of Thm C.3, $\delta$={delta}", col,
                       ":"))
        series.append((v[delta]["composition"], rf"composition, $\delta$={delta}", col, "--"))
    _eps(ax2, Es, series, "epochs E",
         r"$(\varepsilon, \delta)$-DP, $\eta$ = 0.02, L/b = 0.5, l = 20, $\sigma$ = 3",
         marked=f["E_eps"])
    ax2.axvline(v["E_valid"], color=GREYS[0], linewidth=0.8)
    ax2.annotate(r"$E = Db/(\eta L)$", (v["E_valid"], ax2.get_ylim()[1]), xytext=(-4, -12),
                 textcoords="offset points", ha="right", fontsize=8)
    return fig


@figure(PAPER, "thm_4_6_every_window",
        "NoisyCGD constrained: mu against E for every window of Thm C.3 (Tables 10-12)")
def thm_4_6_every_window() -> Figure:
    """Table 10's first cell (l = 10, L/b = 0.25, eta = 0.04, D = 1, sigma = 3): mu against E
    for composition (Thm 4.4), Thm 4.6's mu* (drawn solid where its hypothesis
    E >= D b/(eta L) = 100 holds), the window tau = 0 of Thm C.3, and the exact optimum over
    every window; the printed E* = 31 and the crossing E* = 41 are marked."""
    lv, lb, eta = 10, "0.25", "0.04"
    D, sigma = noisycgd_constrained.TABLES_10_12_D, noisycgd_constrained.TABLES_10_12_SIGMA
    cell = noisycgd_constrained.tables_10_12_cell(lv, lb, eta, dps=20)
    Es = _dense(1, 600, 45, (cell["E_star"], cell["E_star_script"], cell["E_min_valid"]))
    exact = [noisycgd_constrained.thm_4_6_exact(lb, 1, sigma, eta, D, lv, E, dps=20) for E in Es]
    with precision(20):
        eff = to_mpf(lb) / to_mpf(sigma)
        comp = [float(eff * mpmath.sqrt(E)) for E in Es]
        first = [float(eff * mpmath.sqrt(1 + mpmath.mpf(E - 1) / lv)) for E in Es]
    mu_star = float(cell["mu_star"])
    fig, ax = new_figure(width=6.0, height=5.0)
    ax.plot(Es, comp, color=PALETTE[1], linestyle="--", label="composition (Thm 4.4)")
    ax.plot(Es, first, color=PALETTE[2], linewidth=4.5, alpha=0.45,
            label=r"window $\tau = 0$ of Thm C.3: $\frac{L}{b\sigma}\sqrt{1 + (E-1)/l}$")
    ax.plot(Es, [float(r.mu) for r in exact], color=PALETTE[0], linewidth=1.4,
            label="exact optimum over every window")
    ax.plot([1, cell["E_min_valid"]], [mu_star, mu_star], color=GREYS[1], linestyle=":",
            label=r"$\mu^*$, $E < Db/(\eta L)$: outside Thm 4.6")
    ax.plot([cell["E_min_valid"], Es[-1]], [mu_star, mu_star], color=GREYS[1],
            label=r"$\mu^*$, Thm 4.6 ($E \geq Db/(\eta L)$)")
    for E, text, y, va in ((cell["E_star_script"], "printed E* = 31", 1.08, "top"),
                           (cell["E_star"], "E* = 41", 1.08, "top"),
                           (cell["E_min_valid"], "Db/(ηL)", 0.02, "bottom")):
        ax.axvline(E, color=GREYS[0], linewidth=0.7)
        ax.annotate(text, (E, y), xytext=(-3, 0), textcoords="offset points", rotation=90,
                    fontsize=8, va=va, ha="right")
    ax.set_xscale("log")
    ax.set_ylim(0, 1.1)
    ax.set_xlabel("epochs E")
    ax.set_ylabel(r"$\mu$")
    ax.set_title("Table 10, L/b = 0.25, $\\eta$ = 0.04, l = 10: bounds against E")
    _legend_below(ax)
    return fig


@figure(PAPER, "lemma_c11_windows",
        "Lemma C.11: the window as its statement writes it and as its proof computes it")
def lemma_c11_windows() -> Figure:
    """Lemma C.11 at D = 1, s = 1/2, l = 4, K = 5 (exact rationals): the cumulative budget
    U_i and cumulative shifts A_i. Left, the window as the statement writes it
    (z_{tau*} = D, l K - 1 steps): the printed constant shift overshoots the budget at the
    end; the exact optimum (taut string) stays under it. Right, the window the proof
    computes (z_{tau* - 1} = D, l K steps): the printed constant shift is the optimum."""
    from fractions import Fraction

    D, s, l, K = Fraction(1), Fraction(1, 2), 4, 5
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=4.6, sharey=True)
    U = [float(u) for u in window_budget(D, s, l, K)]
    printed_sol, opt = lemma_c11_printed(D, s, l, K), window_optimum(D, s, l, K)
    U2 = [float(D)] + [float(D + s * ((i - 1) // l + 1)) for i in range(1, l * K + 1)]
    inten = intended_window_optimum(D, s, l, K)
    for axis, budget, curves, title in (
        (ax, U, ((printed_sol, "printed constant shift", PALETTE[1], "--"),
                 (opt, "exact optimum (taut string)", PALETTE[0], "-")),
         r"as stated: $z_{\tau^*} = D$, $lK - 1$ steps"),
        (ax2, U2, ((inten, "printed constant shift = exact optimum", PALETTE[2], "-"),),
         r"as computed in the proof: $z_{\tau^*-1} = D$, $lK$ steps"),
    ):
        axis.step(range(len(budget)), budget, where="post", color=GREYS[1],
                  label=r"budget $U_i$ (D + s $\cdot$ hits so far)")
        for sol, label, colour, style in curves:
            A = np.concatenate([[0.0], np.cumsum([float(a) for a in sol.a])])
            (line,) = axis.plot(range(len(A)), A, color=colour, linestyle=style, marker="o",
                                markersize=2.5, label=label)
            line.set_gid("discrete")
        axis.set_xlabel("step i of the window")
        axis.xaxis.set_major_locator(MaxNLocator(integer=True))
        axis.set_title(title)
        _legend_below(axis)
    ax.set_ylabel("cumulative shift")
    return fig


@figure(PAPER, "pure_dp_vs_gdp",
        "Exponential mechanism: (2LD, 0)-DP against 2 sqrt(LD)-GDP (Cor. 5.4, App. D.4)")
def pure_dp_vs_gdp() -> Figure:
    """f_{2LD,0} (dashed) and G(2 sqrt(LD)) (solid) at LD = 0.5 (pure DP is stronger), at the
    threshold c* of App. D.4 (they touch at the kink) and at LD = 1 (GDP is stronger)."""
    cstar = langevin.app_d4_threshold(dps=20)
    fig, ax = new_figure(width=4.6, height=5.2)
    xs = np.linspace(0, 1, 401)
    for x, name, col in ((mpmath.mpf("0.5"), "0.5", PALETTE[0]),
                         (cstar, f"c* = {mpmath.nstr(cstar, 4)}", PALETTE[2]),
                         (mpmath.mpf(1), "1", PALETTE[1])):
        ax.plot(xs, EpsDelta(2 * x, 0).vectorized(xs), color=col, linestyle="--",
                label=rf"$f_{{2LD,0}}$, LD = {name}")
        ax.plot(xs, Gaussian(2 * mpmath.sqrt(x)).vectorized(xs), color=col,
                label=rf"$G(2\sqrt{{LD}})$, LD = {name}")
    _unit_square(ax, "Pure DP vs GDP (App. D.4)", ncol=2)
    return fig

# --- Sec. 4.3, App. C.4, D.3.3, D.5: NoisySGD ---------------------------------------------

_BLACK = "#222222"
#: Type-I errors for curves on [0, 1], denser near 0 where C_p(G(mu)) is steep.
_X = np.unique(np.concatenate([np.linspace(0.0, 1.0, 201),
                               np.geomspace(1e-6, 0.05, 40)]))


def _curve(f: object, xs: np.ndarray = _X, dps: int = 15) -> np.ndarray:
    """float64 values of a tradeoff function for plotting (mpmath at ``dps`` digits)."""
    with precision(dps):
        return np.array([float(f(mpmath.mpf(float(x)))) for x in xs])


@figure("bok2024", "figure_4", "C_p(G(mu)) and the one-step tradeoff family f^(lambda) (Fig. 4)")
def figure_4() -> Figure:
    """Figure 4: C_{0.25}(G(2.5)) with f^(lambda) for lambda in {0, 0.5, 1}, each touching it
    at the point of fact (c) (marked), App. C.4.1."""
    f = noisysgd.FIGURE_4
    fig, ax = new_figure(width=5.4, height=4.2)
    cp = noisysgd.def_4_7_gaussian(f["p"], f["mu"])
    ax.plot(_X, _curve(cp), color=_BLACK, linewidth=2.6, label=r"$C_p(G(\mu))$")
    zs = np.linspace(-9, 9, 361)
    for lam, col, ls in zip(f["lambdas"], PALETTE, ("--", "-.", ":"), strict=True):
        with precision(15):
            pts = np.array([[float(v) for v in noisysgd.one_step_tradeoff(
                f["p"], f["mu"], lam, z, dps=15)] for z in zs])
        ax.plot(pts[:, 0], pts[:, 1], color=col, linestyle=ls,
                label=rf"$f^{{(\lambda)}}$, $\lambda$ = {lam}")
        tan = noisysgd.thm_4_8_tangency(f["p"], f["mu"], lam, dps=15)
        ax.plot([float(tan["alpha"])], [float(tan["f"])], marker="o", color=col, linestyle="none",
                markersize=6)
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_xlabel("Type I error")
    ax.set_ylabel("Type II error")
    ax.set_title(r"$p$ = 0.25, $L/(b\sigma)$ = 2.5 (dots: tangency, fact (c))")
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0))
    return fig


@figure("bok2024", "figure_5", "Shifted interpolated processes of Thms 4.9 and 4.10, simulated "
        "(Fig. 5)")
def figure_5() -> Figure:
    """Figure 5 drawn from a simulation (:func:`coupled_run`): left, Thm 4.9's two processes
    X~ and X~' tracking X and X' from step 0; right, Thm 4.10's one process leaving X'_tau and
    reaching X_t.  Bottom: the distance |X~_k - X_k| and the proofs' bound z_k."""
    fig, axes = new_figure(ncols=2, nrows=2, width=4.6, height=3.6)
    common = {"n": 8, "b": 2, "t": 24, "L": 1.0, "eta": 0.3, "sigma": 0.04, "seed": 5,
              "spread": 0.3}
    runs = (noisysgd_coupling.coupled_run("C.13", tau=12, m=0.5, drift=(0.5, 0.25), **common),
            noisysgd_coupling.coupled_run("4.10", tau=10, D=2.0, drift=(0.0, 0.25), **common))
    names = (r"Thm 4.9 ($\tau$ = 12)", r"Thm 4.10 ($\tau$ = 10)")
    colours = STYLE["axes.prop_cycle"].by_key()["color"]
    for j, (r, name) in enumerate(zip(runs, names, strict=True)):
        ax = axes[0, j]
        ax.plot(r.X[:, 0], r.X[:, 1], color=PALETTE[0], marker=".", label=r"$X_k$, dataset $S$")
        ax.plot(r.X_prime[:, 0], r.X_prime[:, 1], color=PALETTE[1], marker=".",
                label=r"$X'_k$, dataset $S'$")
        if r.X_tilde_prime is not None:
            # Drawn first and wider: before tau it coincides with X~ (both ignore i*).
            ax.plot(r.X_tilde_prime[:, 0], r.X_tilde_prime[:, 1], color=PALETTE[1],
                    linestyle="--", linewidth=3.4,
                    label=r"$\tilde X'_k$ (shifted), dataset $S'$")
        ax.plot(r.X_tilde[:, 0], r.X_tilde[:, 1], color=PALETTE[0], linestyle="--",
                label=r"$\tilde X_k$ (shifted), dataset $S$")
        hits = np.flatnonzero(r.V) + 1
        ax.plot(r.X[hits, 0], r.X[hits, 1], color=PALETTE[2], marker="o", linestyle="none",
                markersize=6, label=r"$i^*$ in the batch ($V_{k-1}$ = 1)")
        ax.plot([r.X[0, 0]], [r.X[0, 1]], color=colours[6], marker="s", linestyle="none",
                label=r"$X_0 = X'_0$")
        if r.theorem == "Thm 4.10":
            circ = np.linspace(0, 2 * np.pi, 200)
            ax.plot(np.cos(circ), np.sin(circ), color="0.55", linewidth=0.8,
                    label=r"boundary of $\mathcal{K}$")
            ax.plot([r.X_tilde[r.tau, 0]], [r.X_tilde[r.tau, 1]], color=colours[4], marker="D",
                    linestyle="none", label=r"$\tilde X_\tau = X'_\tau$")
            ax.set_aspect("equal")
        ax.set_xlabel("coordinate 1")
        ax.set_ylabel("coordinate 2")
        ax.set_title(name)
        ks = np.arange(r.X.shape[0])
        ax2 = axes[1, j]
        ok = np.isfinite(r.bound)
        ax2.plot(ks[ok], r.bound[ok], color=_BLACK, label=r"bound $z_k$ of the proof")
        ax2.plot(ks[ok], r.distance[ok], color=colours[3], marker="x", linestyle="none",
                 label=r"$|\tilde X_k - X_k|$, simulated")
        ax2.set_xlabel("step k")
        ax2.set_ylabel("distance")
        ax2.set_title(f"{name}: distance and bound")
    h0, l0 = axes[0, 0].get_legend_handles_labels()
    h1, l1 = axes[0, 1].get_legend_handles_labels()
    extra = [(h, lab) for h, lab in zip(h1, l1, strict=True) if lab not in l0]
    fig.legend([*h0, *(h for h, _ in extra)], [*l0, *(lab for _, lab in extra)],
               loc="outside right upper")
    h2, l2 = axes[1, 0].get_legend_handles_labels()
    fig.legend(h2, l2, loc="outside right lower")
    return fig


@figure("bok2024", "figure_10", "NoisySGD constrained: Thm 4.10 vs composition, CLT (Fig. 10)")
def figure_10() -> Figure:
    """Figure 10: a 5 x 5 grid of f-DP curves, rows b/n, columns L/b (D = 1, sigma = 3).  Solid:
    Thm 4.10 by the CLT at eta in {0.2, 0.1, 0.05}; dashed: Thm 4.8 by the CLT at t in {5000,
    20000, 80000}, as the paper draws them (App. D.3.3)."""
    f = noisysgd_accounting.FIGURE_10
    colours = STYLE["axes.prop_cycle"].by_key()["color"]
    ours_col = dict(zip(f["etas"], colours[:3], strict=True))
    comp_col = dict(zip(f["ts"], colours[3:6], strict=True))
    fig, axes = new_figure(ncols=5, nrows=5, width=1.9, height=1.9, sharex=True, sharey=True)
    xs = np.linspace(0, 1, 101)
    for i, r in enumerate(f["rows"]):
        for j, c in enumerate(f["cols"]):
            ax = axes[i, j]
            vals = noisysgd_accounting.figure_10_values(r, c, dps=15)
            for e, (mu, _) in vals["ours"].items():
                ax.plot(xs, Gaussian(mu).vectorized(xs), color=ours_col[e], linewidth=1.2)
            for tt, mu in vals["composition"].items():
                ax.plot(xs, Gaussian(mu).vectorized(xs), color=comp_col[tt], linewidth=1.2,
                        linestyle="--")
            if (i, j) in f["certified"]:
                cert = noisysgd_accounting.figure_10_certified(r, c)   # cached, as the claim
                for key, col in (("ours", ours_col[f["certified_eta"]]),
                                 ("composition", comp_col[f["certified_t"]])):
                    # a wide translucent stroke: the certified interval is far narrower
                    # than a line, so it is drawn as a halo around the curves
                    ax.plot(cert["x"][0], cert[key][0], color=col, linewidth=5, alpha=0.35,
                            zorder=1)
                ax.set_title(f"b/n={r}, L/b={c} (certified)", fontsize=7)
            else:
                ax.set_title(f"b/n={r}, L/b={c}", fontsize=7)
            ax.set_xlim(0, 1)
            ax.set_ylim(0, 1)
            ax.set_xticks([0, 0.5, 1], ["0", "0.5", "1"])
            ax.set_yticks([0, 0.5, 1], ["0", "0.5", "1"])
            ax.grid(True, alpha=0.3)
    for ax in axes[-1, :]:
        ax.set_xlabel("Type I", fontsize=8)
    for ax in axes[:, 0]:
        ax.set_ylabel("Type II", fontsize=8)
    handles = [Line2D([], [], color=ours_col[e], label=rf"Thm 4.10 (CLT), $\eta$ = {e}")
               for e in f["etas"]]
    handles += [Line2D([], [], color=comp_col[tt], linestyle="--",
                       label=f"Thm 4.8 (CLT), t = {tt}") for tt in f["ts"]]
    handles += [Line2D([], [], color=ours_col[f["certified_eta"]], linewidth=5, alpha=0.35,
                       label=rf"Thm 4.10 certified, $\eta$ = {f['certified_eta']}"),
                Line2D([], [], color=comp_col[f["certified_t"]], linewidth=5, alpha=0.35,
                       label=f"Thm 4.8 certified, t = {f['certified_t']}")]
    fig.legend(handles=handles, loc="outside lower center", ncols=4)
    return fig


@figure("bok2024", "clt_vs_certified",
        "Lemma A.5's CLT against the certified composition of C_p(G(mu))^t")
def clt_vs_certified() -> Figure:
    """delta(eps) of C_p(G(mu))^{(x) t}: the certified interval (band, App. D.5) and the CLT
    curve G(mu_CLT) (Lemma A.5 + Lemma A.3); where the CLT curve is below the band the CLT
    claims less privacy loss than is certified."""

    fig, axes = new_figure(ncols=len(noisysgd_accounting.CLT_SETTINGS), width=3.6, height=3.4)
    colours = STYLE["axes.prop_cycle"].by_key()["color"]
    for ax, (p, mu, t), col in zip(axes, noisysgd_accounting.CLT_SETTINGS, colours, strict=False):
        f = noisysgd.NoisySGDTradeoff(mpmath.mpf(p), mpmath.mpf(0), ((mpmath.mpf(mu), t),), "")
        m = clt_mu(p, mu, t, dps=20)
        eps = np.linspace(0, float(2 * m * (m / 2 + 6.5)), 200)   # past delta ~ 1e-10
        lo, hi = noisysgd_accounting.noisysgd_delta_profile(f, eps)
        eps_max = 1.05 * float(eps[hi > 1e-10].max())
        clt = np.array([float(gdp_delta(m, e, dps=20)) for e in eps])
        label = f"p={float(p):g}, t={t}"
        ax.fill_between(eps, np.maximum(lo, 1e-300), hi, color=col, alpha=0.35, linewidth=0)
        ax.plot(eps, hi, color=col, label=f"certified, {label}")
        ax.plot(eps, clt, color=col, linestyle="--", label=f"CLT, {label}")
        below = clt < lo
        if below.any():
            ax.plot(eps[below], clt[below], color=_BLACK, linestyle="none", marker=".",
                    markersize=3, label="CLT below the certified band")
        ax.set_yscale("log")
        ax.set_ylim(1e-10, 1)
        ax.set_xlim(0, eps_max)
        ax.set_xlabel(r"$\varepsilon$")
        ax.set_ylabel(r"$\delta(\varepsilon)$")
        ax.set_title(rf"$p$ = {float(p):g}, $\mu$ = {float(mu):.3g}, $t$ = {t}")
        ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.2), fontsize=8)
    return fig


@figure("bok2024", "thm_4_8_certified_curve",
        "Thm 4.8 as a certified f-DP curve (MNIST NoisySGD) against the CLT")
def thm_4_8_certified_curve() -> Figure:
    """Left: the certified tradeoff curve of C_{1/40}(G(2/3))^{(x) 40E} for E = 50, 100, 200
    (lower end; the interval is thinner than the line) and the CLT curve of Table 3 (dashed).
    Right: the certified band minus the CLT curve; above 0 the CLT claims less privacy than is
    certified, below 0 more."""
    data = noisysgd_accounting.thm_4_8_certified_curves()
    fig, (ax, ax2) = new_figure(ncols=2, width=4.3, height=3.8)
    for (E, d), col in zip(data.items(), PALETTE, strict=True):
        ax.plot(d["x"], d["lower"], color=col, label=f"certified, E={E}")
        ax.plot(d["x"], d["clt"], color=col, linestyle="--", label=f"CLT (Table 3), E={E}")
        ax2.fill_between(d["x"], d["lower"] - d["clt"], d["upper"] - d["clt"], color=col,
                         alpha=0.4, linewidth=0)
        ax2.plot(d["x"], d["upper"] - d["clt"], color=col, linewidth=1.0,
                 label=f"certified - CLT, E={E}")
    ax2.axhline(0, color=_BLACK, linewidth=0.8)
    _unit_square(ax, r"NoisySGD, $p$ = 1/40, $L/(b\sigma)$ = 2/3", ncol=2)
    ax2.set_xlim(0, 1)
    ax2.set_xlabel("Type I error")
    ax2.set_ylabel("type II error: certified - CLT")
    ax2.set_title("Certified minus CLT (< 0: the CLT is optimistic)")
    _legend_below(ax2)
    return fig
