"""The figures of Bravo, Flores-Mella & Guzman 2025 (arXiv:2501.04134) and of its evidence.

Only the paper's own figures are named ``figure_N``: Figure 1 (Sec. 5.1) and Figure 2
(App. B).  The others say what they show.  Each function draws; the data come from the
section modules (:mod:`.shift_problem`, :mod:`.corollaries`, :mod:`.mixing`,
:mod:`.privacy`) and the concept modules.
"""

from __future__ import annotations

import mpmath
import numpy as np
from matplotlib.figure import Figure

from dpsym.figures import figure, new_figure
from dpsym.papers.bravo2025 import corollaries as cor
from dpsym.papers.bravo2025 import mixing as mix
from dpsym.papers.bravo2025 import privacy as pri
from dpsym.papers.bravo2025 import shift_problem as sp3
from dpsym.shifts import gaussian_chain as gc
from dpsym.shifts import modulus as mod
from dpsym.shifts import pabi

PAPER = "bravo2025"

#: Colours, one meaning each within a figure.
BLUE, RED, GREEN, GOLD, PURPLE, TEAL, GREY = ("#1b6ca8", "#d1495b", "#2e8b57", "#edae49",
                                              "#6c4f9c", "#00798c", "#444444")
BROWN, PINK = "#8c564b", "#c2519c"


def _legend_right(ax: object, **kwargs: object) -> None:
    """A legend outside the panel, on its right."""
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, fontsize=8,
              **kwargs)


# --- Section 3 and Appendix B --------------------------------------------------------------

@figure(PAPER, "figure_2", "E is not convex on R^2 (App. B, Figure 2)")
def figure_2() -> Figure:
    """Figure 2: the objective E of (P) for T = 3, D = 5, eta = L = 1, sigma = (1, 0.01, 0.4).

    Left: log10 E over the (u_1, u_2) plane with the feasibility boundary
    ``u_2 = sqrt(u_1^2 + 4)``, the region where Hess E has a negative eigenvalue (hatched) and
    the closed-form minimiser u*.  Right: E along the line u_2 = 3 and its chord, which E
    crosses near u_1 = 0 (E is not convex there).  The plotted window is ours.
    """
    f = sp3.FIGURE_2
    Df, cf = float(f["D"]), [float(x) for x in f["c"]]
    hf, sf = [float(x) for x in f["h"]], [float(x) for x in f["sigma2"]]
    sol = pabi.optimal_shifts(f["D"], f["c"], f["h"], f["sigma2"], dps=20)
    u1 = np.linspace(-3, 5.5, 341)
    u2 = np.linspace(0, 6, 241)
    U1, U2 = np.meshgrid(u1, u2)
    U = np.stack([U1, U2], axis=-1)
    E = pabi.objective_float(U, Df, cf, hf, sf)
    lam_min = np.linalg.eigvalsh(pabi.hessian_float(U, Df, cf, hf, sf))[..., 0]
    fig, (ax, ax2) = new_figure(ncols=2, width=4.6, height=3.8)
    cs = ax.contourf(U1, U2, np.log10(E), levels=24, cmap="viridis")
    fig.colorbar(cs, ax=ax, label=r"$\log_{10} E(u_1, u_2)$")
    ax.contourf(U1, U2, (lam_min < 0).astype(float), levels=[0.5, 1.5], colors="none",
                hatches=["//"])
    ax.contour(U1, U2, lam_min, levels=[0], colors="white", linewidths=0.8)
    ax.plot(u1, np.sqrt(u1 ** 2 + 4), color=RED, label=r"$u_2=\varphi(u_1)$, boundary of R")
    ax.plot([float(sol.u[1])], [float(sol.u[2])], "w*", markersize=11, label=r"$u^\star$")
    ax.set_xlabel(r"$u_1$")
    ax.set_ylabel(r"$u_2$")
    ax.set_ylim(0, 6)
    ax.set_title(r"$E$; hatched: Hess $E$ not PSD")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=8, ncols=2)
    x = np.linspace(-2, 2, 401)
    line = pabi.objective_float(np.stack([x, np.full_like(x, 3.0)], axis=-1), Df, cf, hf, sf)
    ax2.plot(x, line, color=BLUE, label=r"$E(u_1, 3)$")
    ax2.plot([-2, 2], [line[0], line[-1]], "--", color=GREY, label="chord")
    ax2.set_xlabel(r"$u_1$")
    ax2.set_ylabel(r"$E$")
    ax2.set_title(r"slice $u_2 = 3$")
    ax2.legend(loc="upper center", bbox_to_anchor=(0.5, -0.18), fontsize=8, ncols=2)
    return fig


@figure(PAPER, "shift_profiles", "Optimal vs naive shift schedules (Lemma 3.5)")
def shift_profiles() -> Figure:
    """Left: optimal shifts ``a*_t`` (normalised by their mean) for T = 50 and each kind of
    modulus: uniform (c = 1, h = 0), back-loaded (c < 1 or h > 0), front-loaded (c > 1).
    Right: ``E(naive) / E*`` against T for two naive schedules: the linear ``u_t = D(T-t)/T``
    (Lipschitz and nonconvex rows) and "all at the last step" (strongly convex and
    Lipschitz rows).
    """
    cfg = sp3.RENYI_VS_T
    s2 = 2 * float(cfg["eta"])
    T = 50
    colours = {0: BLUE, 2: RED, 4: GREEN, 5: GREY, 6: PURPLE, 7: GOLD}
    fig, (ax, ax2) = new_figure(ncols=2, width=4.4, height=3.8)
    for i, col in colours.items():
        label, kind, params = cfg["rows"][i]
        m = mod.modulus(kind, eta=cfg["eta"], **params, dps=20)
        sol = pabi.optimal_shifts(cfg["D"], [m.c] * T, [m.h] * T, [str(s2)] * T, dps=20)
        a = np.array([float(x) for x in sol.a])
        ax.plot(range(1, T + 1), a / a.mean(), color=col, label=label)
    ax.set_xlabel("step t")
    ax.set_ylabel(r"$a^\star_t$ / mean")
    ax.set_yscale("log")
    ax.set_title(r"optimal shifts, T = 50")
    Ts = [int(t) for t in np.unique(np.geomspace(2, 200, 20).round())]
    for (i, sched), ls in zip(((0, "linear"), (6, "linear"), (4, "last"), (0, "last")),
                              ("-", "-", "--", "--"), strict=True):
        label, kind, params = cfg["rows"][i]
        m = mod.modulus(kind, eta=cfg["eta"], **params, dps=20)
        ratios = []
        for TT in Ts:
            c, h, ss = [m.c] * TT, [m.h] * TT, [str(s2)] * TT
            u = sp3.naive_schedules(cfg["D"], c, h, dps=20)[sched]
            e = pabi.objective(u, cfg["D"], c, h, ss, dps=20)
            ratios.append(float(e / pabi.optimal_value(cfg["D"], c, h, ss, dps=20)))
        ax2.plot(Ts, ratios, color=colours[i], linestyle=ls, label=f"{label}: {sched}")
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("T")
    ax2.set_ylabel(r"$E(\mathrm{naive}) / E(u^\star)$")
    ax2.set_title("price of a naive schedule")
    handles = [*ax.get_legend_handles_labels()[0], *ax2.get_legend_handles_labels()[0]]
    labels = [*ax.get_legend_handles_labels()[1], *ax2.get_legend_handles_labels()[1]]
    fig.legend(handles, labels, loc="outside lower center", ncols=3, fontsize=8)
    fig.suptitle(r"$\eta=10^{-2}$, $\sigma^2=2\eta$, $D=1$", fontsize=10)
    return fig


@figure(PAPER, "thm34_bound_per_table1_row", "Theorem 3.4 bound vs T for every Table 1 row")
def thm34_bound_per_table1_row() -> Figure:
    """Theorem 3.4's Renyi bound (alpha = 1, i.e. KL) against T for every Table 1 row.

    eta = 1e-2, sigma^2 = 2 eta (projected Langevin), D = 1; computed from the general closed
    form (:func:`dpsym.shifts.pabi.optimal_value`), not from the table's cells.
    """
    Ts = [int(t) for t in np.unique(np.geomspace(1, 2000, 24).round())]
    vals = sp3.renyi_vs_T(Ts)
    fig, ax = new_figure(width=6.6, height=4.2)
    colors = (BLUE, RED, RED, RED, GREEN, GREY, PURPLE, GOLD)
    styles = ("-", "--", "-.", ":", "-", "-", "-", "-")
    for (label, v), col, ls in zip(vals.items(), colors, styles, strict=True):
        ax.plot(Ts, [float(x) for x in v], color=col, linestyle=ls, label=label)
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations T")
    ax.set_ylabel(r"$R_1(X_T \| X'_T)$ bound (Thm 3.4)")
    ax.set_title(r"$\eta=10^{-2}$, $\sigma^2=2\eta$, $D=1$")
    _legend_right(ax)
    return fig


@figure(PAPER, "shift_solver_multistart", "Multistart evidence for a unique minimiser of (P)")
def shift_solver_multistart() -> Figure:
    """Histogram of ``log10 max_t |u_t - u*_t|`` over the end points of 100 BFGS runs
    started uniformly in ``[-10 D, 10 D]^(T-1)`` (instances G and H): every run ends at the
    closed-form u* up to float64 tolerance, although E is nonconvex (App. B).
    """
    fig, ax = new_figure(width=5.6, height=3.6)
    for name, col in (("G time-varying", BLUE), ("H Figure 2", RED)):
        dist = sp3.multistart_distances(name)
        ax.hist(np.log10(np.maximum(dist, 1e-17)), bins=30, range=(-17, 0), alpha=0.7,
                color=col, label=f"{name} (T={len(sp3.INSTANCES[name][1])})")
    ax.set_xlabel(r"$\log_{10}\max_t |u_t - u^\star_t|$ at the end of a BFGS run")
    ax.set_ylabel("runs (of 100)")
    ax.set_title(r"every start converges to $u^\star$")
    ax.legend(loc="upper right", fontsize=8)
    return fig


@figure(PAPER, "pabi_vs_exact_gaussian_chain",
        "Theorem 3.4 against the exact divergence of linear Gaussian chains")
def pabi_vs_exact_gaussian_chain() -> Figure:
    """Theorem 3.4's bound (lines) and the exact R_alpha of the linear Gaussian chains
    ``X_{t+1} = a X_t + N(0, sigma^2)`` started D apart (markers; alpha = 2, D = 1,
    sigma^2 = 0.2) against T.  With the modulus ``sqrt(c) delta`` of the map (a^2 = c; c =
    0.84, 1, 1.44) the bound is attained; a modulus with h = 0.04 on top of c = 1 (the convex
    Lipschitz one) bounds the same chain (a = 1) strictly.
    """
    Ts = [int(t) for t in np.unique(np.geomspace(1, 200, 18).round())]
    fig, ax = new_figure(width=6.0, height=4.0)
    rows = ((r"$c=0.84$", "0.84", "0", GREEN), (r"$c=1$", "1", "0", BLUE),
            (r"$c=1.44$", "1.44", "0", PURPLE), (r"$c=1,\ h=0.04$", "1", "0.04", RED))
    for label, c, h, col in rows:
        bound = [float(sp3.thm_3_4(2, 1, [c] * T, [h] * T, ["0.2"] * T, dps=20)) for T in Ts]
        slope = float(mpmath.sqrt(mpmath.mpf(c)))
        exact = [float(gc.linear_chain_renyi(2, 1, [slope] * T, ["0.2"] * T, dps=20))
                 for T in Ts]
        ax.plot(Ts, bound, color=col, label=f"Thm 3.4, {label}")
        ax.plot(Ts, exact, "o", color=col, markersize=4, markerfacecolor="none",
                label=f"exact, {label}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations T")
    ax.set_ylabel(r"$R_2(X_T \| X'_T)$")
    ax.set_title(r"linear Gaussian chains, $D=1$, $\sigma^2=0.2$")
    _legend_right(ax)
    return fig


# --- Section 3.3 ---------------------------------------------------------------------------

@figure(PAPER, "cor38_comparisons",
        "Cor. 3.8 vs Altschuler-Talwar (c < 1), Balle et al. (c > 1), c -> 1 transition")
def cor38_comparisons() -> Figure:
    """Three panels (alpha = 1, D = 1, sigma^2 = 1):
    (a) c < 1: ratio (7)/AT23 = (1-c)/(1-c^T) against T, c in {0.5, 0.9, 0.99};
    (b) c > 1: (7) and Balle et al. against T, c in {1.01, 1.1};
    (c) the bound against c across c = 1 for T in {10, 100}, with AT23 (c < 1) and
        Balle et al. (c > 1); the dots are (8) at c = 1.
    """
    fig, axes = new_figure(3, width=4.0, height=3.4)
    Ts = np.unique(np.logspace(0, 3, 40).astype(int))
    ax = axes[0]
    for c, col in zip(("0.5", "0.9", "0.99"), (BLUE, RED, GREEN), strict=True):
        ax.plot(Ts, [float(cor.cor_3_8_ratio(c, int(t), dps=20)) for t in Ts], color=col,
                label=f"c = {c}")
    ax.plot(Ts, 1 / Ts, color=GREY, linestyle=":", label="1/T")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("T")
    ax.set_ylabel("(7) / Altschuler-Talwar")
    ax.set_title("(a) contractive, c < 1")
    ax.legend(loc="lower left", fontsize=8)
    ax = axes[1]
    for c, col in zip(("1.01", "1.1"), (GOLD, PURPLE), strict=True):
        ax.plot(Ts, [float(cor.cor_3_8(1, 1, 1, int(t), c, dps=20)) for t in Ts], color=col,
                label=f"(7), c = {c}")
        ax.plot(Ts, [float(cor.balle_2019(1, 1, 1, int(t), c, dps=20)) for t in Ts], color=col,
                linestyle="--", label=f"Balle et al., c = {c}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("T")
    ax.set_ylabel(r"Renyi bound ($\alpha=1$, $D=\sigma=1$)")
    ax.set_title("(b) expansive, c > 1")
    ax.legend(loc="upper left", fontsize=8)
    ax = axes[2]
    cs = np.linspace(0.9, 1.1, 81)
    for T, col in zip((10, 100), (TEAL, BROWN), strict=True):
        ax.plot(cs, [float(cor.cor_3_8(1, 1, 1, T, repr(float(c)), dps=20)) for c in cs],
                color=col, label=f"(7)/(8), T = {T}")
        lo, hi = cs[cs < 1], cs[cs > 1]
        ax.plot(lo, [float(cor.altschuler_talwar_2023(1, 1, 1, T, repr(float(c)), dps=20))
                     for c in lo], color=col, linestyle="--", label=f"AT23, T = {T}")
        ax.plot(hi, [float(cor.balle_2019(1, 1, 1, T, repr(float(c)), dps=20)) for c in hi],
                color=col, linestyle=":", label=f"Balle et al., T = {T}")
        ax.plot([1.0], [float(cor.cor_3_8(1, 1, 1, T, 1, dps=20))], "o", color=col,
                markersize=4)
    ax.set_yscale("log")
    ax.set_xlabel("c")
    ax.set_ylabel("Renyi bound")
    ax.set_title(r"(c) transition $c\to 1$")
    _legend_right(ax)
    return fig


@figure(PAPER, "cor39_estimates",
        "Cor. 3.9: the sum and its integral estimates; the lower one fails for c > 1")
def cor39_estimates() -> Figure:
    """sum - estimate against c for T in {2, 5, 20}: the upper estimate stays above the sum;
    the lower estimate crosses it at c* > 1."""
    fig, ax = new_figure(1, width=5.6, height=3.8)
    cs = np.linspace(0.2, 3.0, 113)
    for T, col in zip((2, 5, 20), (BLUE, RED, GREEN), strict=True):
        s = [float(cor.cor_3_9_sum(repr(float(c)), T, dps=20)) for c in cs]
        up = [float(cor.cor_3_9_upper_estimate(repr(float(c)), T, dps=20)) for c in cs]
        lo = [float(cor.cor_3_9_lower_estimate(repr(float(c)), T, dps=20)) for c in cs]
        ax.plot(cs, np.array(up) - np.array(s), color=col, label=f"upper - sum, T = {T}")
        ax.plot(cs, np.array(s) - np.array(lo), color=col, linestyle="--",
                label=f"sum - lower, T = {T}")
    ax.axhline(0, color=GREY, linewidth=0.8)
    ax.axvline(1, color=GREY, linewidth=0.8, linestyle=":")
    ax.set_xlabel("c")
    ax.set_ylabel("gap (negative = estimate violated)")
    ax.set_title("Corollary 3.9 integral estimates")
    _legend_right(ax)
    return fig


# --- Section 4 ------------------------------------------------------------------------------

@figure(PAPER, "pla_mixing",
        "PLA on [-1,1], f=|x|: empirical TV to stationarity vs (9)+Pinsker and Thm 4.2")
def pla_mixing() -> Figure:
    """TV distance to stationarity against T: Monte Carlo (with 2-sd bars and the noise
    floor), the discretised kernel, and the bounds (9)+Pinsker and Theorem 4.2 (a staircase,
    exact at integer T)."""
    e = mix.pla_mixing_experiment()
    P = mix.PLA_EXPERIMENT
    h = mod.lipschitz(P["eta"], P["L"], dps=20).h
    fig, ax = new_figure(1, width=6.2, height=3.8)
    t = np.array(e.times, dtype=float)
    v = np.array([m[0] for m in e.mc])
    sd = np.array([m[1] for m in e.mc])
    floor = np.array([m[2] for m in e.mc])
    ax.errorbar(t, v, yerr=2 * sd, fmt="o", markersize=3, color=BLUE,
                label="Monte Carlo (binned)")
    ax.plot(t, floor, "s", markersize=3, color=GREY, label="MC noise floor")
    ax.plot(t, e.grid_binned, "x", markersize=5, color=GREEN, label="kernel on a grid (binned)")
    dense = np.unique(np.geomspace(1, max(e.times), 60).round()).astype(int)
    pk = [float(mix.pinsker(mix.eq_9(P["D"], P["eta"], int(T), h, dps=20), dps=20))
          for T in dense]
    ax.plot(dense, pk, linestyle="--", color=RED, label="(9) + Pinsker")
    stair = [float(mix.thm_4_2_tv_bound(int(T), P["D"], P["eta"])) for T in dense]
    (line,) = ax.step(dense, stair, where="post", linestyle="-.", color=PURPLE,
                      label="Thm 4.2 staircase")
    line.set_gid("discrete")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_ylim(1e-3, 1.5)
    ax.set_xlabel("iterations T")
    ax.set_ylabel("TV to stationarity from x0 = 1")
    ax.set_title(r"PLA, $f=|x|$ on $[-1,1]$, $\eta=1/27$")
    _legend_right(ax)
    return fig


# --- Section 5 ------------------------------------------------------------------------------

@figure(PAPER, "figure_1", "Figure 1: 2 Tbar + V against the step size (Thm 5.2, Rem. 5.3)")
def figure_1() -> Figure:
    """Figure 1: ln(2 Tbar + V) on a log axis against eta in [n^-1, n^-1/3], n = 1000,
    L = 1, M = 2, D = 1, for the printed p in {0, 0.2, 0.4, 0.6, 1}; dotted: p = 0.8, which
    the paper omits as indistinguishable from p = 1 (Remark 5.3)."""
    curves = pri.figure_1_curves()
    etas = pri.figure_1_grid()
    fig, ax = new_figure(1, width=5.8, height=3.8)
    styles = {"0": (BLUE, "-"), "0.2": (RED, "-"), "0.4": (GREEN, "--"), "0.6": (GOLD, "-."),
              "1": (GREY, "-"), "0.8": (PURPLE, ":")}
    for p, vals in curves.items():
        col, ls = styles[p]
        ax.plot(etas, [float(v) for v in vals], color=col, linestyle=ls, label=f"p = {p}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel(r"step size $\eta$")
    ax.set_ylabel(r"$\ln(2\bar T + V)$")
    ax.set_title(r"$n=1000$, $L=1$, $M=2$, $D=1$")
    _legend_right(ax)
    return fig


@figure(PAPER, "rem53_privacy_curve",
        "Noisy SGD RDP vs T: composition and the Remark 5.3 cap (p = 0, 0.5, 1)")
def rem53_privacy_curve() -> Figure:
    """RDP eps/alpha against T for n = 1000, L = 1, M = 2, D = 1, eta = 0.1, sigma = 1:
    composition 16 L^2 T/(n^2 sigma^2) vs Remark 5.3's cap min{T, 2 Tbar + V} for
    p in {0, 0.5, 1} (Tbar = 2500).  The Lipschitz case p = 0 caps only at
    T = 2 Tbar + V ~ 2.2e6, since V = O(n^2); p = 0.5 pays V ~ 7e3 on top of 2 Tbar.
    """
    fig, ax = new_figure(1, width=6.0, height=3.8)
    Ts = np.unique(np.logspace(1, 7, 37).astype(int))
    comp = [float(pri.composition_bound(2, 1, 1000, 1, int(t), dps=20)) / 2 for t in Ts]
    ax.plot(Ts, comp, color=GREY, label="composition (Rem. 5.3)")
    for p, col in (("0", BLUE), ("0.5", RED), ("1", GREEN)):
        vals = [float(pri.rem_5_3(2, 1, 1000, 1, "0.1", 1, 2, p, int(t), dps=20)) / 2
                for t in Ts]
        ax.plot(Ts, vals, linestyle="--", color=col, label=rf"$\min\{{T, 2\bar T+V\}}$, p = {p}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("iterations T")
    ax.set_ylabel(r"RDP bound $\varepsilon/\alpha$")
    ax.set_title(r"$n=1000,\ \eta=0.1,\ \sigma=1,\ M=2,\ D=L=1$")
    _legend_right(ax)
    return fig


@figure(PAPER, "thm52_poisson_small_n",
        "Thm 5.2 at n = 10 with Poisson batches: last-iterate divergence vs the bound")
def thm52_poisson_small_n() -> Figure:
    """R_2(X_T || X'_T) of the instance of :func:`dpsym.papers.bravo2025.privacy.
    thm_5_2_poisson_small_n` (batches larger than b make the gradient map expansive) on two
    grids, against Theorem 5.2's bound, which applies from T = Tbar."""
    r = pri.thm_5_2_poisson_small_n()
    fig, ax = new_figure(1, width=6.0, height=3.8)
    ax.plot(r.times, r.renyi, color=BLUE, label=f"exact, {r.params['cells']} cells")
    ax.plot(r.times, r.renyi_fine, color=RED, linestyle="--",
            label=f"exact, {2 * r.params['cells'] + 1} cells")
    ax.plot([r.tbar, r.times[-1]], [float(r.bound)] * 2, color=GREY,
            label=r"Thm 5.2 bound ($T\geq\bar T$)")
    ax.axvline(r.tbar, color=GREY, linestyle=":", linewidth=0.8)
    ax.set_yscale("log")
    ax.set_xlabel("iterations T")
    ax.set_ylabel(r"$R_2(X_T\|X'_T)$")
    ax.set_title(rf"$n={r.params['n']}$, $b={r.params['b']}$, $\eta M=2$, "
                 rf"$\sigma=8\sqrt{{2}}L/b$, $\bar T={r.tbar}$")
    _legend_right(ax)
    return fig


@figure(PAPER, "eq23_sufficient_condition",
        "(23) at the paper's 6.25 condition and at the corrected one, against sigma")
def eq23_sufficient_condition() -> Figure:
    """alpha - alpha* (positive: (23) fails) at ln(1/delta) just inside the paper's
    sufficient condition 6.25 A ln(n/b)^2 and at the corrected b^4 sigma^2 ln(n/b)^2 A /
    (1024 L^4), against sigma, for n = 1000, b = 5, L = 1, eta = 0.1, D = beta = 1; the
    dotted lines are Theorem 5.4's hypothesis sigma >= 2 sqrt(10) L/b and the paper's
    assumption sigma >= 40 L^2/b^2."""
    sig = np.linspace(1.27, 2.2, 60)
    printed_gap, corrected_gap = [], []
    for s in sig:
        ex = pri.eq_23_counterexample(repr(float(s)), dps=20)
        printed_gap.append(float(ex["alpha"] - ex["alpha_star"]))
        ell = pri.eq_23_sufficient_corrected(ex["A"], 1000, 5, repr(float(s)), 1, dps=20)
        _, alpha, _ = pri.eq_22(1, 1000, 5, "0.1", repr(float(s)), 1, 1, ex["Tbar"],
                                mpmath.exp(-ell), dps=20)
        corrected_gap.append(float(alpha - ex["alpha_star"]))
    fig, ax = new_figure(1, width=6.0, height=3.8)
    ax.plot(sig, printed_gap, color=RED, label="6.25 A ln(n/b)^2 (as printed)")
    ax.plot(sig, corrected_gap, color=BLUE, label="corrected condition")
    ax.axhline(0, color=GREY, linewidth=0.8)
    ax.axvline(2 * np.sqrt(10) / 5, color=GREEN, linestyle=":", linewidth=1,
               label=r"$\sigma = 2\sqrt{10}L/b$ (Thm 5.4)")
    ax.axvline(40 / 25, color=PURPLE, linestyle=":", linewidth=1,
               label=r"$\sigma = 40L^2/b^2$ (paper)")
    ax.set_xlabel(r"$\sigma$")
    ax.set_ylabel(r"$\alpha - \alpha^*$  (> 0: (23) fails)")
    ax.set_title(r"$n=1000$, $b=5$, $L=1$, $\eta=0.1$, $D=\beta=1$")
    _legend_right(ax)
    return fig


__all__ = [
    "cor38_comparisons",
    "cor39_estimates",
    "eq23_sufficient_condition",
    "figure_1",
    "figure_2",
    "pabi_vs_exact_gaussian_chain",
    "pla_mixing",
    "rem53_privacy_curve",
    "shift_profiles",
    "shift_solver_multistart",
    "thm34_bound_per_table1_row",
    "thm52_poisson_small_n",
]
