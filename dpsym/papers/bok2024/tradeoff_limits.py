"""Limits of tradeoff functions (App. A.3): Remark A.8's counterexample to Lemma A.7 at alpha = 0.

Lemma A.7: if T(P_n, P) -> Id then lim_n T(P_n, Q)(alpha') = T(P, Q)(alpha') for every
alpha' in (0, 1].  Remark A.8 shows that alpha' = 0 must be excluded: with the Dirac masses
P = delta_0, Q = (delta_0 + delta_1)/2 and P_n = (1 - 1/n) delta_0 + (1/n) delta_1,
TV(P_n, P) = 1/n -> 0 but

    T(P_n, Q)(alpha) = 1 - n alpha/2                        for alpha <= 1/n,
                       (1/2)(1 - alpha)/(1 - 1/n)           for alpha > 1/n,

so lim_n T(P_n, Q)(0) = 1 while T(P, Q)(0) = 1/2 (T(P, Q)(alpha) = (1 - alpha)/2).
:func:`rem_a_8` is the printed formula; :func:`rem_a_8_exact` computes T(P_n, Q) from the
distributions by the Neyman-Pearson lemma, exactly.
"""

from __future__ import annotations

import itertools
from fractions import Fraction

from dpsym.errors import require, require_integer
from dpsym.fdp.neyman_pearson import discrete_tradeoff
from dpsym.papers.registry import cite
from dpsym.rdp.arb_series import exact_fraction

__all__ = ["rem_a_8", "rem_a_8_exact", "rem_a_8_limit", "rem_a_8_tv"]

PAPER = "bok2024"
_Q = (Fraction(1, 2), Fraction(1, 2))   # Q on the atoms {0, 1}


def _alpha(alpha: Fraction | int | str) -> Fraction:
    a = exact_fraction(alpha, "alpha", cite(PAPER, "Remark A.8"))
    require(0 <= a <= 1, "alpha", alpha, "0 <= alpha <= 1", cite(PAPER, "Remark A.8"))
    return a


def rem_a_8(n: int, alpha: Fraction | int | str) -> Fraction:
    """T(P_n, Q)(alpha) as printed in Remark A.8 (exact rational arithmetic).

    >>> rem_a_8(4, Fraction(1, 8)), rem_a_8(4, Fraction(1, 2))
    (Fraction(3, 4), Fraction(1, 3))
    """
    n = require_integer("n", n, cite(PAPER, "Remark A.8"), minimum=2)
    a = _alpha(alpha)
    if a <= Fraction(1, n):
        return 1 - Fraction(n) * a / 2
    return (1 - a) / (1 - Fraction(1, n)) / 2


def _polygon(vertices: list[tuple[Fraction, Fraction]], a: Fraction) -> Fraction:
    """The lower envelope of the polygon through ``vertices`` at a (its minimum over the
    vertical segment when a repeats)."""
    vals = [b for x, b in vertices if x == a]
    if vals:
        return min(vals)
    for (x0, y0), (x1, y1) in itertools.pairwise(vertices):
        if x0 < a < x1:
            return y0 + (y1 - y0) * (a - x0) / (x1 - x0)
    raise AssertionError("alpha outside [0, 1]")  # pragma: no cover - vertices span [0, 1]


def rem_a_8_exact(n: int | None, alpha: Fraction | int | str) -> Fraction:
    """T(P_n, Q)(alpha) from the Neyman-Pearson lemma (n = None gives T(P, Q), P = delta_0).

    Where the polygon has a vertical segment (at alpha = 0 for T(P, Q): the test rejecting
    the atom 1 has level 0 and power 1/2) the tradeoff function is its lowest point, the
    infimum of the type-II errors over the tests of that level.

    >>> rem_a_8_exact(None, 0), rem_a_8_exact(4, 0)
    (Fraction(1, 2), Fraction(1, 1))
    """
    a = _alpha(alpha)
    if n is not None:
        n = require_integer("n", n, cite(PAPER, "Remark A.8"), minimum=1)
    P = (Fraction(1), Fraction(0)) if n is None else (1 - Fraction(1, n), Fraction(1, n))
    return _polygon(discrete_tradeoff(P, _Q), a)


def rem_a_8_tv(n: int) -> Fraction:
    """TV(P_n, P) = 1/n (so P_n -> P and T(P_n, P) -> Id, Lemma A.6)."""
    n = require_integer("n", n, cite(PAPER, "Remark A.8"), minimum=2)
    P_n = (1 - Fraction(1, n), Fraction(1, n))
    return (abs(P_n[0] - 1) + abs(P_n[1] - 0)) / 2


def rem_a_8_limit(alpha: Fraction | int | str) -> Fraction:
    """lim_n T(P_n, Q)(alpha) as printed: 1 at alpha = 0, (1 - alpha)/2 for alpha > 0."""
    a = _alpha(alpha)
    return Fraction(1) if a == 0 else (1 - a) / 2
