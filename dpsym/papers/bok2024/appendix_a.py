"""Section 2 and Appendix A: GDP <-> (eps, delta) and RDP (Lemmas A.3, A.4), App. A.1's
conversion procedure, and the data of Figure 2.

Symbols: mu (GDP parameter), eps, delta ((eps, delta)-DP), alpha (Renyi order), rho (an
(alpha, alpha rho)-RDP curve). Figures are drawn in :mod:`dpsym.papers.bok2024.figures`.
"""

from __future__ import annotations

from mpmath import mpf

from dpsym.fdp import PiecewiseLinear, gdp_delta, gdp_epsilon, gdp_to_rdp
from dpsym.fdp.tradeoff import min_gap_to_gaussian
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
    "figure_2_curve",
    "figure_2_gap",
    "lem_a_3",
    "lem_a_3_epsilon",
    "lem_a_4",
]

PAPER = "bok2024"


def lem_a_3(mu: Number, eps: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.3: mu-GDP is (eps, delta)-DP with
    delta = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2), for every eps >= 0.

    >>> from dpsym.numerics import nstr
    >>> nstr(lem_a_3(1, 0, dps=30), 12)   # 2 Phi(1/2) - 1
    '0.382924922548'
    """
    return gdp_delta(mu, eps, dps=dps)


def lem_a_3_epsilon(mu: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.3 inverted: the eps at which mu-GDP gives the target delta (rounded up).

    >>> from dpsym.numerics import nstr
    >>> nstr(lem_a_3_epsilon(1, "1e-5", dps=30), 10)
    '4.377178096'
    """
    return gdp_epsilon(mu, delta, dps=dps)


def lem_a_4(mu: Number, alpha: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.4: mu-GDP is (alpha, alpha mu^2 / 2)-RDP for every alpha > 1.

    >>> lem_a_4(1, 2)
    mpf('1.0')
    """
    return gdp_to_rdp(mu, alpha, dps=dps)


#: The Gaussian curves drawn in Figure 2: G(0) = Id, G(0.5), G(1), G(5).
FIGURE_2_MUS = ("0", "0.5", "1", "5")
#: Figure 2's illustrative T(A(S), A(S')) is piecewise linear with its kink on the diagonal;
#: the paper prints no number, the kink (0.37, 0.37) is the one of the authors' plotting
#: script (repository jinhobok/shifted_interpolation_dp, plot_intro.py).
FIGURE_2_PIVOT = "0.37"


def figure_2_curve() -> PiecewiseLinear:
    """The tradeoff curve of the mechanism A in Figure 2: (0, 1) -> (p, p) -> (1, 0).

    >>> figure_2_curve()("0.37")
    mpf('0.37')
    """
    return PiecewiseLinear([(0, 1), (FIGURE_2_PIVOT, FIGURE_2_PIVOT), (1, 0)])


def figure_2_gap(mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """min over x of f(x) - G(mu)(x) for the Figure 2 curve f, exactly (minimum over the
    breakpoints, :func:`dpsym.fdp.tradeoff.min_gap_to_gaussian`). Zero means A is mu-GDP;
    a negative gap means A is *not* mu-GDP (Def. 2.4): Figure 2's A is 1-GDP, not 0.5-GDP.

    >>> from dpsym.numerics import nstr
    >>> nstr(figure_2_gap(1, dps=30), 6), nstr(figure_2_gap("0.5", dps=30), 6)
    ('0.0', '-0.063234')
    """
    with precision(dps + GUARD_DPS):
        return +min_gap_to_gaussian(figure_2_curve(), mu, dps=dps + GUARD_DPS)


def app_a1_epsilon(rho: Number, delta: Number, optimal: bool = False,
                   dps: int = DEFAULT_DPS) -> dict[str, mpf]:
    """App. A.1's numerical procedure: eps at ``delta`` for an (alpha, alpha rho)-RDP curve as
    the minimum of [BS16, Lemma 3.5], [Mir17, Prop. 3], [BBG+20, Thm 20] and [ALC+21,
    Lemma 1], each optimised over alpha > 1.  Returns each conversion and ``"min"``.

    With ``optimal``, also ``"asoodeh2021"``: the optimal single-order conversion
    evaluated at the order that is best for [BBG+20] (a valid bound at any order; not in
    the paper's minimum).  Upper bounds, rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(app_a1_epsilon("0.5", "1e-5", dps=20)["min"], 8)
    '4.728387'
    """
    out = zcdp_curve_epsilon(rho, delta, dps=dps)
    if optimal:
        _, alpha = optimize_order(zcdp_curve(rho), delta, conversion="balle2020", dps=dps)
        with precision(dps + GUARD_DPS):
            tau = alpha * to_mpf(rho)
        out["asoodeh2021"] = epsilon_from_rdp(alpha, tau, delta, "asoodeh2021", dps=dps)
    return out
