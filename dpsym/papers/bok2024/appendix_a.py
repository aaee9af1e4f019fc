"""Appendix A: GDP <-> (eps, delta) and RDP (Lemmas A.3, A.4) and Figure 2."""

from __future__ import annotations

import numpy as np
from matplotlib.figure import Figure
from mpmath import mpf

from dpsym.fdp import Gaussian, PiecewiseLinear, gdp_delta, gdp_epsilon, gdp_to_rdp
from dpsym.figures import figure, new_figure
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, to_mpf
from dpsym.rdp.conversions import (
    epsilon_from_rdp,
    optimize_order,
    zcdp_curve,
    zcdp_curve_epsilon,
)

__all__ = [
    "FIGURE_2_MUS",
    "FIGURE_2_PIVOT",
    "app_a1_epsilon",
    "figure_2",
    "figure_2_curve",
    "figure_2_gap",
    "lem_a_3",
    "lem_a_3_epsilon",
    "lem_a_4",
]


def lem_a_3(mu: Number, eps: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.3: mu-GDP is (eps, delta)-DP with
    delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2)."""
    return gdp_delta(mu, eps, dps=dps)


def lem_a_3_epsilon(mu: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.3 inverted: the eps at which mu-GDP gives the target delta."""
    return gdp_epsilon(mu, delta, dps=dps)


def lem_a_4(mu: Number, alpha: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.4: mu-GDP is (alpha, alpha mu^2 / 2)-RDP for every alpha > 1."""
    return gdp_to_rdp(mu, alpha, dps=dps)


#: The Gaussian curves drawn in Figure 2: G(0) = Id, G(0.5), G(1), G(5).
FIGURE_2_MUS = ("0", "0.5", "1", "5")
#: Figure 2's illustrative T(A(S), A(S')) is piecewise linear with its kink at (0.37, 0.37);
#: the paper gives no number, 0.37 is the pivot in the authors' plotting code.
FIGURE_2_PIVOT = "0.37"


def figure_2_curve() -> PiecewiseLinear:
    """The tradeoff curve of the mechanism A in Figure 2: (0, 1) -> (p, p) -> (1, 0)."""
    return PiecewiseLinear([(0, 1), (FIGURE_2_PIVOT, FIGURE_2_PIVOT), (1, 0)])


def figure_2_gap(mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """min over x of f(x) - G(mu)(x) for the Figure 2 curve f, exactly.

    On each linear piece f - G(mu) is linear minus convex, hence concave, so its minimum
    over the piece is at an end: the minimum over [0, 1] is the minimum over the three
    breakpoints.  A negative gap means A is *not* mu-GDP (Bok et al. 2024, Def. 2.4).
    """
    with precision(dps):
        f, g = figure_2_curve(), Gaussian(mu)
        return min(f(x) - g(x) for x in (0, FIGURE_2_PIVOT, 1))


@figure("bok2024", "figure_2", "Tradeoff functions: G(mu) and an f-DP curve (Fig. 2)")
def figure_2() -> Figure:
    """Figure 2: G(0) = Id, G(0.5), G(1), G(5) and the curve of A, 1-GDP but not 0.5-GDP."""
    fig, ax = new_figure(width=4.4, height=4.0)
    xs = np.linspace(0, 1, 401)
    labels = {"0": "G(0) = Id (full privacy)", "5": "G(5) (essentially no privacy)"}
    for mu in FIGURE_2_MUS:
        ax.plot(xs, Gaussian(mu).vectorized(xs), label=labels.get(mu, f"G({mu})"))
    f = figure_2_curve()
    ax.plot(xs, f.vectorized(xs), color="black", linestyle="--",
            label=r"$T(\mathcal{A}(S), \mathcal{A}(S'))$")
    ax.set_xlabel("Type I error")
    ax.set_ylabel("Type II error")
    ax.set_xlim(0, 1)
    ax.set_ylim(0, 1)
    ax.set_aspect("equal")
    ax.set_title("f-DP and GDP (Bok et al. 2024, Fig. 2)")
    ax.legend(loc="upper right")
    return fig




def app_a1_epsilon(rho: Number, delta: Number, optimal: bool = False,
                   dps: int = DEFAULT_DPS) -> dict[str, mpf]:
    """App. A.1's numerical procedure: eps at ``delta`` for an (alpha, alpha rho)-RDP curve as
    the minimum of [BS16, Lemma 3.5], [Mir17, Prop. 3], [BBG+20, Thm 20] and [ALC+21,
    Lemma 1], each optimised over alpha > 1.  Returns each conversion and ``"min"``.

    With ``optimal``, also ``"asoodeh2021"``: the optimal single-order conversion
    evaluated at the order that is best for [BBG+20] (a valid bound at any order; not in
    the paper's minimum).  Upper bounds, rounded up."""
    out = zcdp_curve_epsilon(rho, delta, dps=dps)
    if optimal:
        _, alpha = optimize_order(zcdp_curve(rho), delta, conversion="balle2020", dps=dps)
        with precision(dps + GUARD_DPS):
            tau = alpha * to_mpf(rho)
        out["asoodeh2021"] = epsilon_from_rdp(alpha, tau, delta, "asoodeh2021", dps=dps)
    return out
