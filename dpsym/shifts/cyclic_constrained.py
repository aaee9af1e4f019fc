"""The shift problem of cyclic NoisyCGD on a constrained convex problem (Bok et al. 2024,
Lemma C.11 and the proof of Thm 4.6), solved exactly.

With c = 1 (convex, eta <= 2/M) the two processes start the window at distance at most D
(the diameter), and a step adds sensitivity s = eta L / b only when it uses the batch j*
holding the differing example.  Index the window's steps i = 1..N after tau* =
j* + l (tau - 1); with K = E - tau epochs left and t* = t + j* - l - 1 it has

    N = l K - 1 steps, and "hits" (steps using batch j*) at i = l, 2l, ..., (K - 1) l,

for every j* (the offset of the first hit is l whatever j* is).  With cumulative shifts
A_i = a_1 + ... + a_i, the constraints z_i = D + s floor(i/l) - A_i >= 0, z_N = 0, a_i >= 0
say A stays under the *budget* U_i = D + s floor(i/l) and ends on it.  Minimising
sum a_i^2 = sum (A_i - A_{i-1})^2 under an upper obstacle with pinned ends is the
taut-string problem; its solution is the greatest convex minorant (GCM) of the points
(0, 0), (i, U_i), computed here in exact rational arithmetic.

The proof of Thm 4.6 uses the constant shift a = (D + s K)/(l K), which assumes l K steps
and K hits; with the true N = l K - 1 steps and K - 1 hits it ends at z_N = a - s != 0.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from itertools import pairwise
from math import ceil

from dpsym.errors import require, require_integer

__all__ = [
    "WindowSolution",
    "lemma_c11_corrected",
    "lemma_c11_printed",
    "thm_4_6_window_value",
    "window_budget",
    "window_optimum",
]

REF = "Bok et al. 2024, Lemma C.11 / proof of Thm 4.6"


@dataclass(frozen=True)
class WindowSolution:
    """Shifts a_1..a_N, distances z_0 = D, z_1..z_N, and sum a_i^2 (exact rationals)."""

    a: list[Fraction]
    z: list[Fraction]
    value: Fraction

    @property
    def feasible(self) -> bool:
        """z_i >= 0 for all i, z_N = 0 and a_i >= 0."""
        return all(x >= 0 for x in self.z) and self.z[-1] == 0 and all(x >= 0 for x in self.a)


def _check(D: Fraction, s: Fraction, l: int, K: int) -> tuple[Fraction, Fraction, int, int]:
    l = require_integer("l", l, REF, minimum=1)
    K = require_integer("K", K, REF, minimum=1)
    Dq, sq = Fraction(D), Fraction(s)
    require(Dq > 0, "D", D, "D > 0 (diameter)", REF)
    require(sq > 0, "s", s, "s > 0 (sensitivity eta L / b)", REF)
    require(l * K >= 2, "l K", l * K, "l K >= 2 (a window of at least one step)", REF)
    return Dq, sq, l, K


def window_budget(D: Fraction, s: Fraction, l: int, K: int) -> list[Fraction]:
    """U_0 = D, U_i = D + s floor(i/l) for i = 1..N = l K - 1 (cumulative budget)."""
    Dq, sq, l, K = _check(D, s, l, K)
    return [Dq + sq * (i // l) for i in range(l * K)]


def _trajectory(D: Fraction, U: list[Fraction], a: list[Fraction]) -> WindowSolution:
    z, A = [D], Fraction(0)
    for i, ai in enumerate(a, start=1):
        A += ai
        z.append(U[i] - A)
    return WindowSolution(a, z, sum((x * x for x in a), Fraction(0)))


def window_optimum(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The exact minimiser: A = greatest convex minorant of (0, 0), (i, U_i), i = 1..N.

    The GCM is built by a monotone-chain lower hull (exact rationals); its slopes are the
    shifts.  It is optimal because a convex A below the obstacle that touches it wherever
    its slope increases satisfies the KKT conditions of this convex programme."""
    U = window_budget(D, s, l, K)
    pts = [(0, Fraction(0))] + [(i, U[i]) for i in range(1, len(U))]
    hull: list[tuple[int, Fraction]] = []
    for p in pts:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            # drop the middle point unless the chain turns strictly left (convex)
            if (y2 - y1) * (p[0] - x2) >= (p[1] - y2) * (x2 - x1):
                hull.pop()
            else:
                break
        hull.append(p)
    a: list[Fraction] = []
    for (x1, y1), (x2, y2) in pairwise(hull):
        a += [(y2 - y1) / (x2 - x1)] * (x2 - x1)
    return _trajectory(Fraction(D), U, a)


def lemma_c11_printed(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The printed constant shift a = (D + s K)/(l K) run on the true window (N = l K - 1
    steps, K - 1 hits): it ends at z_N = a - s, so it is infeasible unless a = s."""
    U = window_budget(D, s, l, K)
    a = (Fraction(D) + Fraction(s) * K) / (l * K)
    return _trajectory(Fraction(D), U, [a] * (len(U) - 1))


def lemma_c11_corrected(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The corrected constant shift a' = (D + s (K - 1))/(l K - 1), which ends exactly at
    z_N = 0.  It is feasible iff K = 1 or l a' >= s, i.e. D >= s (1 - 1/l) (the gap
    z_i - 0 is smallest just before each hit and linear in the hit count); in particular
    at K = ceil(D/s), the choice of Thm 4.6."""
    U = window_budget(D, s, l, K)
    a = (Fraction(D) + Fraction(s) * (K - 1)) / (l * K - 1)
    return _trajectory(Fraction(D), U, [a] * (len(U) - 1))


def thm_4_6_window_value(D: Fraction, s: Fraction, l: int, K: int | None = None) -> Fraction:
    """The value the proof of Thm 4.6 assigns to the window, (D + s K)^2 / (l K), at
    K = ceil(D/s) unless given."""
    Dq, sq = Fraction(D), Fraction(s)
    K = ceil(Dq / sq) if K is None else K
    return (Dq + sq * K) ** 2 / (l * K)
