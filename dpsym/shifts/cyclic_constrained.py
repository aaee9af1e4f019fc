"""The shift problem of cyclic NoisyCGD on a constrained convex problem (Bok et al. 2024,
Lemma C.11 and the proof of Thm 4.6), solved exactly in rational arithmetic.

With c = 1 (convex, eta <= 2/M) the interpolated process pays a_i per step and its distance
to X obeys z_i = z_{i-1} + s_i - a_i (Thm C.3), where a step adds the sensitivity
s = eta L / b only when it uses the batch j* holding the differing example (a *hit*).
With the cumulative shift A_i = a_1 + ... + a_i and the cumulative *budget*
U_i = z_0 + s_1 + ... + s_i, the constraints z_i >= 0, z_N = 0, a_i >= 0 say that A stays
under U and ends on it. Minimising sum a_i^2 = sum (A_i - A_{i-1})^2 under an upper
obstacle with pinned ends is the taut-string problem: its solution is the greatest convex
minorant (GCM) of the points (0, 0), (i, U_i), computed here exactly
(:func:`c1_shift_optimum`). Because U is a staircase, the GCM only touches (0, 0), the
last point and the points just before a hit, so the value alone is computed from those
few points (:func:`c1_window_value`).

**The windows of Thm C.3.** NoisyCGD has t = l E steps; step m uses batch
((m - 1) mod l) + 1, so the hits are the steps m = j*, j* + l, ...; the last hit
(m = t + j* - l) is charged separately by Lemma 3.1 and the interpolation ends at
t* = t + j* - l - 1. Thm C.3 may start the interpolation at any time tau' with
||X_tau' - X'_tau'|| <= z_tau':

* tau' = 0, where both runs coincide (z_0 = 0): the window has the E - 1 hits
  j*, ..., j* + (E - 2) l (:func:`first_window_value`; the proof of Thm 4.5 at c = 1);
* any tau' >= 1, where both iterates lie in K (z_tau' = D). Starting just after a hit,
  at tau* = j* + l (tau - 1), dominates every later start before the next hit (the extra
  steps cost nothing: a = 0 keeps z = D) and every start before it back to the previous
  hit. So these windows, of K = E - tau epochs, N = l K - 1 steps and K - 1 hits at
  offsets l, 2l, ..., are the only ones to consider (:func:`window_optimum`).

:func:`best_window` minimises over all of them: the exact optimum of the shift problem
over every window, tau = 0 included.

**Lemma C.11.** Its statement starts the window at tau* with z_{tau*} = D and uses the
constant a = (D + s K)/(l K), which assumes l K steps and K hits; on (tau*, t*] (l K - 1
steps, K - 1 hits) it ends at z = a - s != 0 (:func:`lemma_c11_printed`). Its proof's
formula for z_k counts the steps tau*, ..., t* and the hit at tau*, i.e. the window that
starts one step earlier, z_{tau* - 1} = D (:func:`lemma_c11_intended`): there the printed
constant is feasible, ends at 0, and is the exact optimum (:func:`intended_window_optimum`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from itertools import pairwise
from math import ceil

from dpsym.errors import require, require_integer

__all__ = [
    "WindowSolution",
    "best_window",
    "c1_shift_optimum",
    "c1_window_value",
    "first_window_optimum",
    "first_window_value",
    "intended_window_optimum",
    "lemma_c11_corrected",
    "lemma_c11_intended",
    "lemma_c11_printed",
    "thm_4_6_window_value",
    "window_budget",
    "window_optimum",
    "window_value",
]

REF = "Bok et al. 2024, Lemma C.11 / proof of Thm 4.6"

Point = tuple[int, Fraction]


@dataclass(frozen=True)
class WindowSolution:
    """Shifts a_1..a_N, distances z_0, z_1..z_N, and sum a_i^2 (exact rationals)."""

    a: list[Fraction]
    z: list[Fraction]
    value: Fraction

    @property
    def feasible(self) -> bool:
        """z_i >= 0 for all i, z_N = 0 and a_i >= 0."""
        return all(x >= 0 for x in self.z) and self.z[-1] == 0 and all(x >= 0 for x in self.a)


def _lower_hull(points: Sequence[Point]) -> list[Point]:
    """Vertices of the greatest convex minorant of ``points`` (sorted by x), exactly."""
    hull: list[Point] = []
    for p in points:
        while len(hull) >= 2:
            (x1, y1), (x2, y2) = hull[-2], hull[-1]
            # drop the middle point unless the chain turns strictly left (convex)
            if (y2 - y1) * (p[0] - x2) >= (p[1] - y2) * (x2 - x1):
                hull.pop()
            else:
                break
        hull.append(p)
    return hull


def _check(D: Fraction, s: Fraction, l: int, K: int,
           steps_short: int = 1) -> tuple[Fraction, Fraction, int, int]:
    """Validate a window of l K - ``steps_short`` steps (1: (tau*, t*]; 0: (tau* - 1, t*])."""
    l = require_integer("l", l, REF, minimum=1)
    K = require_integer("K", K, REF, minimum=1)
    Dq, sq = Fraction(D), Fraction(s)
    require(Dq > 0, "D", D, "D > 0 (diameter)", REF)
    require(sq > 0, "s", s, "s > 0 (sensitivity eta L / b)", REF)
    require(l * K - steps_short >= 1, "l K", l * K,
            f"l K >= {1 + steps_short} (a window of at least one step)", REF)
    return Dq, sq, l, K


def _trajectory(z0: Fraction, s_seq: Sequence[Fraction], a: Sequence[Fraction]) -> WindowSolution:
    z = [Fraction(z0)]
    for si, ai in zip(s_seq, a, strict=True):
        z.append(z[-1] + si - ai)
    return WindowSolution(list(a), z, sum((x * x for x in a), Fraction(0)))


def c1_shift_optimum(z0: Fraction, s_seq: Sequence[Fraction]) -> WindowSolution:
    """The exact minimiser of sum a_i^2 subject to z_i = z_{i-1} + s_i - a_i >= 0, a_i >= 0,
    z_N = 0 (the shift problem of Thm C.3 with c = 1), for any z_0 >= 0 and s_i >= 0.

    A = GCM of (0, 0), (i, U_i), U_i = z_0 + s_1 + ... + s_i; its slopes are the shifts.
    It is optimal because a convex A below the obstacle that touches it wherever its slope
    increases satisfies the KKT conditions of this convex programme.

    >>> c1_shift_optimum(Fraction(1), [Fraction(0), Fraction(1)]).a
    [Fraction(1, 1), Fraction(1, 1)]
    """
    s_q = [Fraction(x) for x in s_seq]
    require(len(s_q) >= 1, "s_seq", len(s_q), "at least one step", REF)
    require(Fraction(z0) >= 0 and all(x >= 0 for x in s_q), "s_seq", "(negative entry)",
            "z_0 >= 0 and s_i >= 0", REF)
    U, acc = [], Fraction(z0)
    for x in s_q:
        acc += x
        U.append(acc)
    hull = _lower_hull([(0, Fraction(0))] + [(i, U[i - 1]) for i in range(1, len(U) + 1)])
    a: list[Fraction] = []
    for (x1, y1), (x2, y2) in pairwise(hull):
        a += [(y2 - y1) / (x2 - x1)] * (x2 - x1)
    return _trajectory(Fraction(z0), s_q, a)


def c1_window_value(z0: Fraction, s: Fraction, l: int, steps: int, first_hit: int) -> Fraction:
    """The optimal value of the c = 1 shift problem on a window of ``steps`` steps started at
    distance z_0, with hits of size s at the offsets first_hit, first_hit + l, ... (<= steps).

    Same GCM as :func:`c1_shift_optimum`, over the only points it can touch: (0, 0), the
    point before each hit and the last point (the budget is flat between hits, so any other
    point lies above the chord joining those). O(number of hits) instead of O(steps).

    >>> c1_window_value(Fraction(0), Fraction(1, 10), 10, 30, 1)  # 3 hits, 30 steps: 3 s^2/l
    Fraction(3, 1000)
    """
    z0, s = Fraction(z0), Fraction(s)
    steps = require_integer("steps", steps, REF, minimum=1)
    hits = list(range(first_hit, steps + 1, l))
    pts: list[Point] = [(0, Fraction(0))]
    for m, h in enumerate(hits):
        if h - 1 >= 1:
            pts.append((h - 1, z0 + m * s))
    end = (steps, z0 + len(hits) * s)
    if pts[-1][0] != steps:
        pts.append(end)
    hull = _lower_hull(pts)
    return sum(((y2 - y1) ** 2 / (x2 - x1) for (x1, y1), (x2, y2) in pairwise(hull)),
               Fraction(0))


def window_budget(D: Fraction, s: Fraction, l: int, K: int) -> list[Fraction]:
    """U_0 = D, U_i = D + s floor(i/l) for i = 1..N = l K - 1: the budget of the window
    (tau*, t*] of the proof of Thm 4.6 (K = E - tau epochs)."""
    Dq, sq, l, K = _check(D, s, l, K)
    return [Dq + sq * (i // l) for i in range(l * K)]


def _window_steps(s: Fraction, l: int, steps: int, first_hit: int) -> list[Fraction]:
    return [s if i >= first_hit and (i - first_hit) % l == 0 else Fraction(0)
            for i in range(1, steps + 1)]


def window_optimum(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The exact optimum of the window (tau*, t*]: z_{tau*} = D, N = l K - 1 steps, hits at
    offsets l, 2l, ..., (K - 1) l (the same for every j*).

    >>> window_optimum(Fraction(1), Fraction(1, 11), 2, 1).value  # one step, no hit
    Fraction(1, 1)
    """
    Dq, sq, l, K = _check(D, s, l, K)
    return c1_shift_optimum(Dq, _window_steps(sq, l, l * K - 1, l))


@lru_cache(maxsize=65536)
def window_value(D: Fraction, s: Fraction, l: int, K: int) -> Fraction:
    """The value of :func:`window_optimum` (without the shifts), in O(K)."""
    Dq, sq, l, K = _check(D, s, l, K)
    return c1_window_value(Dq, sq, l, l * K - 1, l)


def first_window_optimum(s: Fraction, l: int, E: int) -> WindowSolution:
    """The exact optimum of the window that starts at tau' = 0 (z_0 = 0), from the step
    before the first hit j* to t*: l (E - 1) steps with the E - 1 hits at offsets 1, 1 + l,
    ... (the steps before j* carry no hit, so a = 0 there). Its value is (E - 1) s^2 / l,
    the c = 1 case of Lemma C.10's sum (Thm 4.5 as c -> 1).

    >>> first_window_optimum(Fraction(1, 100), 10, 41).value == Fraction(40, 10) / 100**2
    True
    """
    l = require_integer("l", l, REF, minimum=1)
    E = require_integer("E", E, REF, minimum=2)
    sq = Fraction(s)
    require(sq > 0, "s", s, "s > 0 (sensitivity eta L / b)", REF)
    return c1_shift_optimum(Fraction(0), _window_steps(sq, l, l * (E - 1), 1))


def first_window_value(s: Fraction, l: int, E: int) -> Fraction:
    """The value of :func:`first_window_optimum`, in O(E); 0 at E = 1 (no hit before the last)."""
    l = require_integer("l", l, REF, minimum=1)
    E = require_integer("E", E, REF, minimum=1)
    if E == 1:
        return Fraction(0)
    return c1_window_value(Fraction(0), Fraction(s), l, l * (E - 1), 1)


def best_window(D: Fraction, s: Fraction, l: int, E: int) -> tuple[Fraction, int]:
    """The exact optimum of the shift problem of NoisyCGD at E epochs over every window of
    Thm C.3 (see the module docstring): ``(value, tau)``, tau = 0 for the window started at
    z_0 = 0, else K = E - tau epochs from a hit at distance D.

    >>> best_window(Fraction(1), Fraction(1, 100), 10, 41)   # tau = 0 wins: 40 s^2 / l
    (Fraction(1, 2500), 0)
    """
    Dq, sq = Fraction(D), Fraction(s)
    require(Dq > 0, "D", D, "D > 0 (diameter)", REF)
    require(sq > 0, "s", s, "s > 0 (sensitivity eta L / b)", REF)
    E = require_integer("E", E, REF, minimum=1)
    best, tau = first_window_value(sq, l, E), 0
    for K in range(1, E):
        if l * K >= 2:
            v = window_value(Dq, sq, l, K)
            if v < best:
                best, tau = v, E - K
    return best, tau


def lemma_c11_printed(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The printed constant shift a = (D + s K)/(l K) run on the window as the statement
    of Lemma C.11 sets it, (tau*, t*] (N = l K - 1 steps, K - 1 hits): it ends at
    z_N = a - s, so it is infeasible unless a = s.

    >>> lemma_c11_printed(Fraction(1), Fraction(1, 2), 4, 4).z[-1]
    Fraction(-5, 16)
    """
    Dq, sq, l, K = _check(D, s, l, K)
    a = (Dq + sq * K) / (l * K)
    return _trajectory(Dq, _window_steps(sq, l, l * K - 1, l), [a] * (l * K - 1))


def lemma_c11_intended(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The printed constant a = (D + s K)/(l K) on the window its proof computes:
    z_{tau* - 1} = D, the steps tau*, ..., t* (N = l K), hits at offsets 1, 1 + l, ...
    (K hits). Feasible for every (D, s, l, K): just before hit m + 1 the distance is
    D (1 - m/K) >= 0, and it ends at 0.

    >>> sol = lemma_c11_intended(Fraction(1), Fraction(1, 2), 4, 4)
    >>> sol.feasible, sol.value == (1 + Fraction(1, 2) * 4) ** 2 / 16
    (True, True)
    """
    Dq, sq, l, K = _check(D, s, l, K, steps_short=0)
    a = (Dq + sq * K) / (l * K)
    return _trajectory(Dq, _window_steps(sq, l, l * K, 1), [a] * (l * K))


def intended_window_optimum(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The exact optimum of the window (tau* - 1, t*] of :func:`lemma_c11_intended`; it
    equals the printed constant shift, value (D + s K)^2 / (l K).

    >>> intended_window_optimum(Fraction(1), Fraction(1, 11), 2, 1).value
    Fraction(72, 121)
    """
    Dq, sq, l, K = _check(D, s, l, K, steps_short=0)
    return c1_shift_optimum(Dq, _window_steps(sq, l, l * K, 1))


def lemma_c11_corrected(D: Fraction, s: Fraction, l: int, K: int) -> WindowSolution:
    """The constant shift a' = (D + s (K - 1))/(l K - 1) that fits the window as printed,
    (tau*, t*]: it ends exactly at z_N = 0 and is feasible iff K = 1 or l a' >= s, i.e.
    D >= s (1 - 1/l); in particular at K = ceil(D/s), the choice of Thm 4.6.

    >>> lemma_c11_corrected(Fraction(1), Fraction(1, 2), 4, 4).feasible
    True
    """
    Dq, sq, l, K = _check(D, s, l, K)
    a = (Dq + sq * (K - 1)) / (l * K - 1)
    return _trajectory(Dq, _window_steps(sq, l, l * K - 1, l), [a] * (l * K - 1))


def thm_4_6_window_value(D: Fraction, s: Fraction, l: int, K: int | None = None) -> Fraction:
    """The value the proof of Thm 4.6 assigns to the window, (D + s K)^2 / (l K), at
    K = ceil(D/s) unless given.

    >>> thm_4_6_window_value(Fraction(1), Fraction(1, 2), 4)
    Fraction(1, 2)
    """
    Dq, sq = Fraction(D), Fraction(s)
    K = ceil(Dq / sq) if K is None else K
    return (Dq + sq * K) ** 2 / (l * K)
