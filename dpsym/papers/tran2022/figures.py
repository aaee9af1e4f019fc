"""Tran & Cutkosky 2022: Figure 1 (the tree), drawn from the implementation, and the noise of
the momentum estimate against N."""

from __future__ import annotations

import matplotlib.ticker
import numpy as np
import sympy as sp
from matplotlib.figure import Figure
from matplotlib.patches import FancyBboxPatch, Patch
from mpmath import mpf

from dpsym.figures import PALETTE, figure, new_figure
from dpsym.papers.tran2022 import illustration as il
from dpsym.papers.tran2022 import preliminaries, rates

__all__ = ["figure_1", "noise_against_N"]

PAPER = "tran2022"


@figure(PAPER, "figure_1",
        "The tree over T = 8 steps: COMPOSE(1, 7) and the nodes leaf 5 lies in")
def figure_1() -> Figure:
    """Figure 1 (Sec. 2): every node [y, z] of the tree over 8 leaves, labelled g[y:z], with
    COMPOSE(1, 7) = {[1,4], [5,6], [7,7]} and the ancestors of leaf 5 highlighted."""
    data = preliminaries.figure_1()
    comp, anc = set(data.compose), set(data.ancestors)
    fig, ax = new_figure(width=7.2, height=3.4)
    width = 0.86
    centre = {}
    for b, level in enumerate(data.levels):
        for v in level:
            centre[v] = ((v.y + v.z) / 2, b)
    for v, (x, y) in centre.items():
        if v.level + 1 < len(data.levels):
            parent = next(p for p in data.levels[v.level + 1] if p.y <= v.y <= p.z)
            px, py = centre[parent]
            ax.plot([x, px], [y + 0.2, py - 0.2], color="#999999", linewidth=1, zorder=1)
    for v, (x, y) in centre.items():
        w = v.length - (1 - width)
        face = "#ffffff"
        if v in comp and v in anc:
            face = "#c9a0dc"
        elif v in comp:
            face = "#9ecae1"
        elif v in anc:
            face = "#f4a6a6"
        ax.add_patch(FancyBboxPatch((x - w / 2, y - 0.2), w, 0.4,
                                    boxstyle="round,pad=0.02,rounding_size=0.08",
                                    facecolor=face, edgecolor="#333333", linewidth=1, zorder=2))
        ax.text(x, y, f"$g_{{[{v.y}:{v.z}]}}$", ha="center", va="center", fontsize=9, zorder=3)
    ax.set_xlim(0.4, 8.6)
    ax.set_ylim(-0.5, len(data.levels) - 0.5)
    ax.set_xticks(range(1, 9))
    ax.set_xlabel("step (leaf) $i$")
    ax.set_yticks(range(len(data.levels)))
    ax.set_yticklabels([f"$2^{b}$" for b in range(len(data.levels))])
    ax.set_ylabel("node length")
    ax.grid(False)
    handles = [Patch(facecolor="#9ecae1", edgecolor="#333333", label="COMPOSE(1, 7)"),
               Patch(facecolor="#f4a6a6", edgecolor="#333333", label="nodes containing leaf 5"),
               Patch(facecolor="#c9a0dc", edgecolor="#333333", label="both")]
    ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1.0), fontsize=9)
    ax.set_title("Figure 1: tree aggregation over T = 8 steps")
    return fig


@figure(PAPER, "noise_against_N",
        "Exact noise of the momentum estimate vs N (Algs 1, 2) and the slope of the bounds")
def noise_against_N() -> Figure:
    """Left: sqrt(E||m_hat_T - m_T||^2) at the paper's parameters (d = 10, eps = 1,
    delta = N^-2, G = L = 1), exact, with Lemma 12's and Lemma 7's bounds.  Right: the local
    slope d log B / d log N of each bound's rate-setting term, its limit (-1/2, -2/3) and the
    fitted slope of the exact values."""
    s = il.paper_sweep()
    fig, (ax, ax2) = new_figure(ncols=2, width=4.2, height=3.5)
    c1, c2 = PALETTE[0], PALETTE[1]
    for std, bound, colour, name in ((s.std1, s.bound1, c1, "Alg. 1"),
                                     (s.std2, s.bound2, c2, "Alg. 2")):
        ln, = ax.plot(s.Ns, std, "o-", color=colour, label=f"{name}, exact")
        ln.set_gid("discrete")
        lb, = ax.plot(s.Ns, bound, "s--", color=colour, markersize=4,
                      label=f"{name}, {'Lemma 12' if name == 'Alg. 1' else 'Lemma 7'}")
        lb.set_gid("discrete")
    ax.set_xscale("log", base=2)
    ax.set_yscale("log")
    ax.set_xlabel("dataset size $N$")
    ax.set_ylabel(r"noise std of $\hat m_T$")
    ax.set_title("Noise at the paper's parameters")
    ax.legend(loc="upper left", bbox_to_anchor=(0.0, -0.2), ncol=2, fontsize=8)
    ld1, ld2 = rates.log_derivative(1), rates.log_derivative(2)
    a, b = sp.symbols("a b", positive=True)
    f1 = sp.lambdify((a, b), ld1.slope, "numpy")
    # mpmath: N^7 overflows float64 inside the Alg. 2 slope expression.
    f2 = sp.lambdify((rates.N, rates.eps, rates.d), ld2.slope, "mpmath")
    grid = np.geomspace(64, 2.0**40, 30)
    t1 = _alg1_T(grid)
    ax2.plot(grid, f1(1 / np.log(grid), 1 / np.log(t1)), color=c1, label="Alg. 1, bound")
    ax2.plot(grid, [float(f2(mpf(n), 1, 10)) for n in grid], color=c2, label="Alg. 2, bound")
    ax2.axhline(float(ld1.limit), color=c1, linestyle=":", label="Alg. 1, limit -1/2")
    ax2.axhline(float(ld2.limit), color=c2, linestyle=":", label="Alg. 2, limit -2/3")
    mid = float(np.sqrt(s.Ns[0] * s.Ns[-1]))
    ax2.plot([mid], [s.slope1], "o", color=c1, label="Alg. 1, fitted (exact)")
    ax2.plot([mid], [s.slope2], "o", color=c2, label="Alg. 2, fitted (exact)")
    ax2.set_xscale("log", base=2)
    ax2.set_xticks([2.0**k for k in (6, 14, 22, 30, 38)])
    ax2.xaxis.set_minor_locator(matplotlib.ticker.NullLocator())
    ax2.set_xlabel("dataset size $N$")
    ax2.set_ylabel(r"slope $d\log(\mathrm{noise})/d\log N$")
    ax2.set_ylim(-0.75, -0.15)
    ax2.set_title("Log-log slope")
    ax2.legend(loc="upper left", bbox_to_anchor=(0.0, -0.2), ncol=2, fontsize=8)
    return fig


def _alg1_T(Ns: np.ndarray) -> np.ndarray:
    """Thm 6's T at d = 10, eps = 1, delta = N^-2 for each N (float64, for the slope curve)."""
    from dpsym.papers.tran2022.dp_nsgd import thm_6_parameters

    return np.array([float(thm_6_parameters(float(n), 1, float(n) ** -2, 10, dps=20).T)
                     for n in Ns])
