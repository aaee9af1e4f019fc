"""Figures of Liang et al. 2025 (arXiv:2502.17772): theory analogues of its Figures 1 and 2,
the later version's theory figure, and dpsym's evidence (adjacency orders, the k-step
schedule, the CPU-scale audit, utility against D).

Every float64 curve comes from the package's sympy expressions (lambdified) or from its
mpmath functions; nothing is retyped here.
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.figures import figure, new_figure
from dpsym.papers.liang2025 import adjacency, closed_forms, experiments, refined
from dpsym.papers.liang2025._common import S
from dpsym.papers.liang2025.printed import SEC_4
from dpsym.rdp.conversions import rdp_to_epsilon
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp

__all__ = [
    "adjacency_orders",
    "audit",
    "constant_vs_D",
    "figure_1_theory",
    "figure_2_theory",
    "plateau_and_refinement",
    "utility_vs_D",
]

PAPER = "liang2025"
COLOURS = ("#1b6ca8", "#d1495b", "#2e8b57", "#edae49", "#6c4f9c", "#00798c", "#444444")
DELTA = float(SEC_4["delta"].value)
N = int(SEC_4["n"].value)
ETA, SIGMA, C = (float(SEC_4[k].value) for k in ("eta", "sigma", "C"))


def _outside_legend(ax: object, **kwargs: object) -> None:
    ax.legend(loc="upper left", bbox_to_anchor=(1.02, 1.0), borderaxespad=0.0, **kwargs)


def _epochs_panels(fig: Figure, ax: object, ax2: object, title2: str, ncols: int) -> None:
    """Log-log epoch axes; the right panel's legend beside it, the left one's below."""
    ax2.set_xscale("log")
    ax2.set_yscale("log")
    ax2.set_xlabel("epochs E")
    ax2.set_title(title2)
    _outside_legend(ax2)
    fig.legend(*ax.get_legend_handles_labels(), loc="outside lower center", ncols=ncols)


def _eps_gc(T: np.ndarray, b: int, sigma: float) -> np.ndarray:
    rho = closed_forms.numpy_fn("rho_gc")(T, N, b, ETA, C, sigma, 1.0, 1.0)
    return closed_forms.dp_epsilon_numpy(rho, DELTA)


def _eps_combined(T: np.ndarray, b: int, sigma: float, L: float, D: float) -> np.ndarray:
    args = (N, b, ETA, C, sigma, L, D)
    rho = np.minimum(closed_forms.numpy_fn("rho_gc")(T, *args),
                     closed_forms.numpy_fn("rho_dc")(T, *args))
    return closed_forms.dp_epsilon_numpy(rho, DELTA)


def _accountant(b: int, sigma: float, epochs: np.ndarray) -> np.ndarray:
    """Standard RDP accountant (MTZ19) of T = ceil(n/b) E steps, eps at delta (float)."""
    orders = experiments.AUDIT_ORDERS
    q, z = mpf(b) / N, mpf(b) * mpf(sigma) / mpf(C)
    one = [poisson_gaussian_rdp(q, z, a, dps=15) for a in orders]
    steps = [math.ceil(N / b * float(E)) for E in epochs]
    return np.array([float(rdp_to_epsilon(orders, [v * t for v in one], DELTA, dps=15)[0])
                     for t in steps])


@figure(PAPER, "figure_1_theory",
        "Theory analogue of Figure 1(a): eps(1e-5) of Thm 3.3 against epochs, per batch size")
def figure_1_theory() -> Figure:
    """(a) at the experiments' sigma_DP = 0.002: (12) with beta -> 1 and the optimal Lemma
    2.4 gives eps > 10^3 after one epoch for every batch size (the MIA estimates the paper
    plots are below 1.5).  (b) at a fixed noise multiplier b sigma/C = 1 the bound (12) is
    the same for every b (per epoch rho = 2 E): the batch-size ordering of Fig. 1 comes from
    holding sigma_DP fixed on the *averaged* gradient; the standard accountant is shown for
    two batch sizes."""
    fig, (ax, ax2) = new_figure(ncols=2, width=4.3, height=3.4)
    epochs = np.geomspace(1, 400, 60)
    for colour, b in zip(COLOURS, experiments.FIG1_BATCHES, strict=False):
        T = np.ceil(N / b) * epochs
        ax.plot(epochs, _eps_gc(T, b, SIGMA), color=colour, label=f"b = {b}")
    ax.axhline(1.0, color="#999999", linestyle=":", linewidth=1.2, label="eps = 1")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("epochs E")
    ax.set_ylabel(r"$\varepsilon$ at $\delta = 10^{-5}$")
    ax.set_title(r"(a) $\sigma_{DP} = 0.002$ (Sec. 4)")
    ax.set_ylim(0.3, None)
    ep2 = np.geomspace(1, 400, 40)
    b0 = experiments.FIG1_BATCHES[0]
    ax2.plot(ep2, _eps_gc(np.ceil(N / b0 * ep2), b0, C / b0), color="#444444",
             label="(12), every b")
    for colour, b in ((COLOURS[0], experiments.FIG1_BATCHES[0]),
                      (COLOURS[5], experiments.FIG1_BATCHES[-1])):
        ep_acc = np.geomspace(1, 400, 16)
        ax2.plot(ep_acc, _accountant(b, C / b, ep_acc), color=colour, linestyle="--",
                 label=f"b = {b}, accountant")
    _epochs_panels(fig, ax, ax2, r"(b) noise multiplier $b\sigma_{DP}/C = 1$", 4)
    return fig


@figure(PAPER, "figure_2_theory",
        "Theory analogue of Figure 2: min((12), (14)) against epochs for the diameters D")
def figure_2_theory() -> Figure:
    """(a) the experiments' setting (sigma_DP = 0.002, L = 0.1 assumed): the curves for
    D = 20, 60, 100 coincide with the composition bound (12), because the crossover T* is
    2.6e5 to 1e8 epochs away; (b) a noise multiplier of 1 (b = 100) and small domains, where
    the plateau of Thm 3.4 is reached within the plotted epochs."""
    fig, (ax, ax2) = new_figure(ncols=2, width=4.3, height=3.4)
    epochs = np.geomspace(1, 1000, 60)
    styles = ("-", "--", ":")
    for colour, b in zip((COLOURS[0], COLOURS[1]), experiments.FIG2_BATCHES, strict=True):
        T = np.ceil(N / b) * epochs
        for ls, D in zip(styles, experiments.FIG2_DIAMETERS, strict=True):
            ax.plot(epochs, _eps_combined(T, b, SIGMA, 0.1, float(D)), color=colour,
                    linestyle=ls, label=f"b = {b}, D = {D}")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("epochs E")
    ax.set_ylabel(r"$\varepsilon$ at $\delta = 10^{-5}$")
    ax.set_title(r"(a) $\sigma_{DP} = 0.002$, L = 0.1: D has no effect")
    b = experiments.FIG2_BATCHES[0]
    T = np.ceil(N / b) * epochs
    for colour, D in zip((COLOURS[2], COLOURS[3], COLOURS[4]), (0.25, 0.5, 1.0), strict=True):
        ax2.plot(epochs, _eps_combined(T, b, C / b, 1.0, D), color=colour,
                 label=f"D = {D}, L = 1")
    ax2.plot(epochs, _eps_gc(T, b, C / b), color="#444444", linestyle=":",
             label="(12) alone")
    _epochs_panels(fig, ax, ax2, rf"(b) $b\sigma_{{DP}}/C = 1$, b = {b}: plateaus", 3)
    return fig


@figure(PAPER, "plateau_and_refinement",
        "Theory figure of arXiv:2502.17772v4: eps(alpha = 1.1) against T, and the k-step "
        "refinement")
def plateau_and_refinement() -> Figure:
    """At alpha = 1.1, L = 1, C = 2, sigma = 4, D = 1, n = 8, b = 2, eta = 0.2 (the setting of
    the later version's theory figure): (12) rises with slope 0.034375 per iteration, (14)
    with the optimal beta* = 1/7 is 1.684375, so their minimum kinks at T* = 49; (14) at
    beta = 1/2 is 2.54375; the optimal k-step schedule plateaus at 1.1508 from T = 34."""
    kw = {"n": 8, "b": 2, "eta": "0.2", "C": 2, "sigma": 4, "L": 1, "D": 1}
    alpha = 1.1
    T = np.arange(1, 201)
    args = (8, 2, 0.2, 2.0, 4.0, 1.0, 1.0)
    gc = alpha * closed_forms.numpy_fn("rho_gc")(T, *args)
    dc = alpha * closed_forms.numpy_fn("rho_dc")(T, *args) * np.ones_like(T, dtype=float)
    from dpsym.papers.liang2025.privacy import thm_3_4

    half = float(thm_3_4(alpha="1.1", beta="0.5", **kw, dps=15))
    rho_k = [float(refined.refined_rho_k(k=k, **kw, dps=15)) for k in range(1, 201)]
    ref = alpha * np.minimum(np.minimum.accumulate(rho_k), gc / alpha)
    fig, ax = new_figure(width=5.2, height=3.6)
    ax.plot(T, gc, color=COLOURS[6], linestyle=":", label="(12), beta -> 1")
    ax.plot(T, np.full_like(T, half, dtype=float), color=COLOURS[3], linestyle="--",
            label="(14), beta = 1/2")
    ax.plot(T, np.minimum(gc, dc), color=COLOURS[0], label="min((12), (14) at beta*)")
    ax.plot(T, ref, color=COLOURS[1], label="k-step schedule (dpsym)")
    ax.set_xlabel("iterations T")
    ax.set_ylabel(r"RDP $\varepsilon$ at $\alpha = 1.1$")
    ax.set_ylim(0, 3.0)
    ax.set_title("Later version's theory setting")
    _outside_legend(ax)
    return fig


@figure(PAPER, "adjacency_orders",
        "One step of DPSGD-GC: the two orders of add/remove adjacency against (12)")
def adjacency_orders() -> Figure:
    """q = 0.01, C/(b sigma_DP) = 2 (the counterexample's shift): D_alpha(P_D' || P_D) (the
    order the proof of (10) omits) exceeds the claim 2 alpha q mu^2 of (12) (beta -> 1) from
    alpha = 4 on; D_alpha(P_D || P_D') stays far below it."""
    orders = (2, 3, 4, 6, 8, 10, 14, 20)
    first = [float(adjacency.mixture_first(a, "0.01", 2, dps=15)) for a in orders]
    second = [float(adjacency.mixture_second(a, "0.01", 2, dps=15)) for a in orders]
    alphas = np.linspace(1.5, 20, 60)
    claim = [float(closed_forms.rho_gc(T=1, n=100, b=1, C=1, sigma="0.5", dps=15)) * a
             for a in alphas]
    fig, ax = new_figure(width=5.2, height=3.6)
    (l1,) = ax.plot(orders, first, color=COLOURS[1], marker="o", markersize=4,
                    label=r"$D_\alpha(P_{D'} \| P_D)$, exact")
    (l2,) = ax.plot(orders, second, color=COLOURS[0], marker="s", markersize=4,
                    label=r"$D_\alpha(P_D \| P_{D'})$, exact")
    l1.set_gid("discrete")
    l2.set_gid("discrete")
    ax.plot(alphas, claim, color=COLOURS[6], linestyle="--", label="(12) at T = 1")
    ax.set_yscale("log")
    ax.set_xlabel(r"Rényi order $\alpha$")
    ax.set_ylabel("Rényi divergence")
    ax.set_title(r"$q = 0.01$, $C/(b\sigma_{DP}) = 2$")
    _outside_legend(ax)
    return fig


@figure(PAPER, "constant_vs_D",
        "Remark 3.5: the constant of Thm 3.4 against D, one-step vs optimal k-step schedule")
def constant_vs_D() -> Figure:
    """rho (per unit alpha) against D at C = 1, n b = 100, eta = sigma = 1: the paper's
    (sqrt A + sqrt B)^2 grows like D^2; the optimal k-step schedule (T large) approaches the
    eta L -> 0 limit 4 C D/(eta sigma^2 sqrt(n b)), linear in D."""
    Ds = np.geomspace(0.1, 100, 16)
    fig, ax = new_figure(width=5.2, height=3.6)
    for colour, h in ((COLOURS[0], "0.1"), (COLOURS[1], "0.01")):
        paper = closed_forms.numpy_fn("rho_dc")(1, 100, 1, 1.0, 1.0, 1.0, float(h), Ds)
        ref = [float(refined.refined_bound(T=10 ** 6, n=100, b=1, eta=1, C=1, sigma=1, L=h,
                                           D=f"{D:.6g}", dps=15).rho_k) for D in Ds]
        ax.plot(Ds, paper, color=colour, label=f"eta L = {h}: Thm 3.4")
        ax.plot(Ds, ref, color=colour, linestyle="--", label=f"eta L = {h}: k-step")
    lim = sp.lambdify(S.D, refined.linear_limit_symbolic().minimum.subs(
        {S.C: 1, S.eta: 1, S.sigma: 1, S.b: 1, S.n: 100}), "numpy")
    ax.plot(Ds, lim(Ds), color=COLOURS[6], linestyle=":", label="limit eta L -> 0")
    ax.set_xscale("log")
    ax.set_yscale("log")
    ax.set_xlabel("diameter D")
    ax.set_ylabel(r"$\rho$ (RDP per unit $\alpha$)")
    ax.set_title("C = 1, nb = 100, eta = sigma = 1")
    _outside_legend(ax)
    return fig


@figure(PAPER, "audit",
        "CPU-scale audit: eps lower bounds (95% CI) against upper bounds for the same runs")
def audit() -> Figure:
    """For the DPSGD-GC and DPSGD-DC audits of :func:`experiments.audit_results`: the
    Clopper-Pearson interval of the membership-inference eps (its lower end certified), the
    standard accountant, Thm 3.3's (12), and (for DC) min((12), (14)) at assumed L."""
    results = experiments.audit_results()
    fig, ax = new_figure(width=5.6, height=3.0)
    ys = np.arange(len(results))[::-1]
    for y, c in zip(ys, results, strict=True):
        r = c.result
        hi = r.eps_upper if math.isfinite(r.eps_upper) else 2 * float(c.eps_accountant)
        ax.plot([max(r.eps_lower, 1e-3), hi], [y, y], color=COLOURS[1], linewidth=4,
                solid_capstyle="butt", label="audit: 95% CI" if y == ys[0] else "_ci")
        ax.scatter([max(r.eps_hat, 1e-3)], [y], color=COLOURS[1], marker="|", s=200, zorder=3,
                   label="audit: point estimate (24)" if y == ys[0] else "_pt")
        ax.scatter([float(c.eps_accountant)], [y], color=COLOURS[0], marker="D", s=40,
                   zorder=3, label="standard accountant" if y == ys[0] else "_acc")
        ax.scatter([float(c.eps_eq12)], [y], color=COLOURS[6], marker="s", s=40, zorder=3,
                   label="Thm 3.3 (12)" if y == ys[0] else "_12")
        for L, v in c.eps_combined.items():
            ax.scatter([float(v)], [y - 0.15], color=COLOURS[2], marker="^", s=40, zorder=3,
                       label=f"min((12), (14)), L = {L}" if L == "1" else f"_L{L}")
    ax.set_xscale("log")
    ax.set_yticks(ys, [c.name for c in results])
    ax.set_ylim(-0.7, len(results) - 0.3)
    ax.set_xlabel(r"$\varepsilon$ at $\delta = 10^{-5}$")
    ax.set_title("Lower bounds (audit) and upper bounds (theory)")
    _outside_legend(ax)
    return fig


@figure(PAPER, "utility_vs_D",
        "Remark 3.13 on a non-convex proxy: training loss and test accuracy against D")
def utility_vs_D() -> Figure:
    """DPSGD-DC on the digits (one hidden layer, 300 steps, b = 64, 3 seeds) for each D, at
    noise multipliers 1 and 12.8; the unprojected run (DPSGD-GC) is the horizontal line."""
    rows = experiments.utility_results()
    fig, (ax, ax2) = new_figure(ncols=2, width=4.0, height=3.4)
    for colour, sigma in zip((COLOURS[0], COLOURS[1]), experiments.UTILITY_SIGMAS,
                             strict=True):
        pts = [r for r in rows if r.sigma == sigma and r.D is not None]
        free = next(r for r in rows if r.sigma == sigma and r.D is None)
        z = 64 * sigma
        for axis, key in ((ax, "loss_mean"), (ax2, "acc_mean")):
            (ln,) = axis.plot([r.D for r in pts], [getattr(r, key) for r in pts], color=colour,
                              marker="o", label=f"noise multiplier {z:g}: DC")
            ln.set_gid("discrete")
            axis.axhline(getattr(free, key), color=colour, linestyle="--",
                         label=f"noise multiplier {z:g}: GC")
    for axis, lab in ((ax, "training loss"), (ax2, "test accuracy")):
        axis.set_xscale("log", base=2)
        axis.set_xlabel("diameter D")
        axis.set_ylabel(lab)
    ax.set_title("Training loss")
    ax2.set_title("Test accuracy")
    _outside_legend(ax2)
    return fig
