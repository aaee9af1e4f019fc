"""Figures of the NoisySGD part (Sec. 4.3, App. C.4, D.3.3, D.5): Figures 4, 5 and 10, and the
CLT of Lemma A.5 against certified composition.
"""

from __future__ import annotations

import mpmath
import numpy as np
from matplotlib.figure import Figure
from matplotlib.lines import Line2D

from dpsym.fdp import Gaussian, clt_mu
from dpsym.fdp.subsampling import SubsampledGaussian
from dpsym.figures import PALETTE, STYLE, figure, new_figure
from dpsym.numerics import precision
from dpsym.papers.bok2024.noisysgd import one_step_tradeoff, thm_4_8_tangency, thm_4_10
from dpsym.papers.bok2024.noisysgd_coupling import coupled_run

__all__ = ["FIGURE_4", "FIGURE_10", "figure_4", "figure_5", "figure_10", "figure_10_panel"]

#: Figure 4 (App. C.4.1): p = 0.25, L/(b sigma) = 2.5, lambda in {0, 0.5, 1}.
FIGURE_4 = {"p": "0.25", "mu": "2.5", "lambdas": ("0", "0.5", "1")}

#: Figure 10 (App. D.3.3): the panels' b/n (rows) and L/b (columns) as labelled in the paper,
#: our bound (Thm 4.10, CLT, best t - tau in {100, ..., 4900}, noise split alpha^2 = 10) for
#: eta in {0.2, 0.1, 0.05}, the composition bound (Thm 4.8, CLT) for t in {5000, 20000, 80000};
#: D = 1, sigma = 3.  ``certified``: the panels (row, column) where dpsym adds the certified
#: curves of Thm 4.10 (eta = 0.1, at the CLT's best t - tau) and of Thm 4.8 (t = 5000).
FIGURE_10 = {"rows": ("0.0025", "0.005", "0.01", "0.02", "0.04"),
             "cols": ("0.125", "0.25", "0.5", "1", "2"),
             "etas": ("0.2", "0.1", "0.05"), "ts": (5000, 20000, 80000),
             "k_grid": tuple(range(100, 5000, 100)), "alpha_sq": 10, "D": 1, "sigma": 3,
             "certified": ((2, 2), (3, 3), (4, 1)), "certified_eta": "0.1",
             "certified_t": 5000}

_BLACK = "#222222"
_X = np.linspace(0.0, 1.0, 201)


def _curve(f: object, xs: np.ndarray = _X, dps: int = 15) -> np.ndarray:
    """float64 values of a tradeoff function for plotting (mpmath at ``dps`` digits)."""
    with precision(dps):
        return np.array([float(f(mpmath.mpf(float(x)))) for x in xs])


@figure("bok2024", "figure_4", "C_p(G(mu)) and the one-step tradeoff family f^(lambda) (Fig. 4)")
def figure_4() -> Figure:
    """Figure 4: C_{0.25}(G(2.5)) with f^(lambda) for lambda in {0, 0.5, 1}, each touching it
    at the point of fact (c) (marked), App. C.4.1."""
    f = FIGURE_4
    fig, ax = new_figure(width=5.4, height=4.2)
    cp = SubsampledGaussian(f["p"], f["mu"])
    ax.plot(_X, _curve(cp), color=_BLACK, linewidth=2.6, label=r"$C_p(G(\mu))$")
    zs = np.linspace(-9, 9, 361)
    for lam, col, ls in zip(f["lambdas"], PALETTE, ("--", "-.", ":"), strict=True):
        with precision(15):
            pts = np.array([[float(v) for v in one_step_tradeoff(f["p"], f["mu"], lam, z, dps=15)]
                            for z in zs])
        ax.plot(pts[:, 0], pts[:, 1], color=col, linestyle=ls,
                label=rf"$f^{{(\lambda)}}$, $\lambda$ = {lam}")
        tan = thm_4_8_tangency(f["p"], f["mu"], lam, dps=15)
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
    runs = (coupled_run("C.13", tau=12, m=0.5, drift=(0.5, 0.25), **common),
            coupled_run("4.10", tau=10, D=2.0, drift=(0.0, 0.25), **common))
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


def figure_10_panel(b_over_n: str, L_over_b: str, eta: str | None = None, t: int | None = None,
                    dps: int = 20) -> dict[str, object]:
    """The GDP parameters one panel of Figure 10 draws, by the CLT (Lemma A.5) as the paper
    does: for each eta the best over t - tau in the grid of Thm 4.10 with alpha^2 = 10 (the
    noise split of App. D.3.3), with that t - tau; for each t Thm 4.8's CLT mu.  (b = 1 and
    n = 1/(b/n), L = L/b: the bounds depend on b/n, L/b and sigma only.)"""
    f = FIGURE_10
    n = 1 / mpmath.mpf(b_over_n)
    ours = {}
    for e in (f["etas"] if eta is None else (eta,)):
        best = None
        for k in f["k_grid"]:
            mu = thm_4_10(L_over_b, 1, n, f["sigma"], e, f["D"], t=k, tau=0,
                          alpha_sq=f["alpha_sq"], dps=dps).clt_mu(dps)
            if best is None or mu < best[0]:
                best = (mu, k)
        ours[e] = best
    comp = {tt: clt_mu(b_over_n, mpmath.mpf(L_over_b) / f["sigma"], tt, dps=dps)
            for tt in (f["ts"] if t is None else (t,))}
    return {"ours": ours, "composition": comp}


@figure("bok2024", "figure_10", "NoisySGD constrained: Thm 4.10 vs composition, CLT (Fig. 10)")
def figure_10() -> Figure:
    """Figure 10: a 5 x 5 grid of f-DP curves, rows b/n, columns L/b (D = 1, sigma = 3).  Solid:
    Thm 4.10 by the CLT at eta in {0.2, 0.1, 0.05}; dashed: Thm 4.8 by the CLT at t in {5000,
    20000, 80000}, as the paper draws them (App. D.3.3)."""
    f = FIGURE_10
    colours = STYLE["axes.prop_cycle"].by_key()["color"]
    ours_col = dict(zip(f["etas"], colours[:3], strict=True))
    comp_col = dict(zip(f["ts"], colours[3:6], strict=True))
    fig, axes = new_figure(ncols=5, nrows=5, width=1.9, height=1.9, sharex=True, sharey=True)
    xs = np.linspace(0, 1, 101)
    for i, r in enumerate(f["rows"]):
        for j, c in enumerate(f["cols"]):
            ax = axes[i, j]
            vals = figure_10_panel(r, c, dps=15)
            for e, (mu, _) in vals["ours"].items():
                ax.plot(xs, Gaussian(mu).vectorized(xs), color=ours_col[e], linewidth=1.2)
            for tt, mu in vals["composition"].items():
                ax.plot(xs, Gaussian(mu).vectorized(xs), color=comp_col[tt], linewidth=1.2,
                        linestyle="--")
            if (i, j) in f["certified"]:
                for band, col in figure_10_certified(r, c, xs):
                    # a wide translucent stroke: the certified interval is far narrower
                    # than a line, so it is drawn as a halo around the curves
                    ax.plot(xs, band[0], color=col, linewidth=5, alpha=0.35, zorder=1)
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


def figure_10_certified(b_over_n: str, L_over_b: str, xs: np.ndarray
                        ) -> list[tuple[tuple[np.ndarray, np.ndarray], str]]:
    """Certified (lower, upper) tradeoff curves for one panel of Figure 10: Thm 4.10 at
    eta = 0.1 and the t - tau the CLT picks (t = t - tau + 0: the bound does not depend on t
    once t - tau is fixed), and Thm 4.8 at t = 5000, with their colours."""
    from dpsym.papers.bok2024.noisysgd import thm_4_8
    from dpsym.papers.bok2024.noisysgd_accounting import noisysgd_tradeoff_interval

    f = FIGURE_10
    colours = STYLE["axes.prop_cycle"].by_key()["color"]
    ours_col = dict(zip(f["etas"], colours[:3], strict=True))
    comp_col = dict(zip(f["ts"], colours[3:6], strict=True))
    n = 1 / mpmath.mpf(b_over_n)
    e = f["certified_eta"]
    _, k = figure_10_panel(b_over_n, L_over_b, eta=e, t=f["certified_t"], dps=15)["ours"][e]
    ours = thm_4_10(L_over_b, 1, n, f["sigma"], e, f["D"], t=k, tau=0, alpha_sq=f["alpha_sq"])
    comp = thm_4_8(L_over_b, 1, n, f["sigma"], f["certified_t"])
    return [(noisysgd_tradeoff_interval(ours, xs), ours_col[e]),
            (noisysgd_tradeoff_interval(comp, xs), comp_col[f["certified_t"]])]


#: Settings (p, L/(b sigma), t) of the CLT-vs-certified comparison: few expected hits of i*
#: (p t = 2, 5), where Lemma A.5's CLT is optimistic in the tail, and Table 4's MNIST setting
#: at E = 50 (p t = 50), where it is pessimistic.
CLT_SETTINGS = (("0.1", "1", 20), ("0.05", "0.5", 100), ("0.025", "0.6666666666666666667", 2000))


@figure("bok2024", "clt_vs_certified",
        "Lemma A.5's CLT against the certified composition of C_p(G(mu))^t")
def clt_vs_certified() -> Figure:
    """delta(eps) of C_p(G(mu))^{(x) t}: the certified interval (band, App. D.5) and the CLT
    curve G(mu_CLT) (Lemma A.5 + Lemma A.3); where the CLT curve is below the band the CLT
    claims less privacy loss than is certified."""
    from dpsym.fdp import gdp_delta
    from dpsym.papers.bok2024.noisysgd import NoisySGDTradeoff
    from dpsym.papers.bok2024.noisysgd_accounting import noisysgd_delta_profile

    fig, axes = new_figure(ncols=len(CLT_SETTINGS), width=3.6, height=3.4)
    colours = STYLE["axes.prop_cycle"].by_key()["color"]
    for ax, (p, mu, t), col in zip(axes, CLT_SETTINGS, colours, strict=False):
        f = NoisySGDTradeoff(mpmath.mpf(p), mpmath.mpf(0), ((mpmath.mpf(mu), t),), "")
        m = clt_mu(p, mu, t, dps=20)
        eps = np.linspace(0, float(2 * m * (m / 2 + 6.5)), 200)   # past delta ~ 1e-10
        lo, hi = noisysgd_delta_profile(f, eps)
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
