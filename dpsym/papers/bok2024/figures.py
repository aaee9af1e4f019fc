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
from matplotlib.ticker import MaxNLocator

from dpsym.fdp import EpsDelta, Gaussian, gdp_epsilon
from dpsym.figures import PALETTE, figure, new_figure, tradeoff_panel
from dpsym.numerics import precision, to_mpf
from dpsym.papers.bok2024 import appendix_a, langevin, noisycgd_constrained
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
    "figure_1",
    "figure_2",
    "figure_3",
    "figure_6",
    "figure_7",
    "figure_8",
    "figure_9",
    "lemma_c11_windows",
    "pure_dp_vs_gdp",
    "thm_4_6_every_window",
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
