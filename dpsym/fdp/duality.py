"""f-DP and (eps, delta)-DP are dual: a tradeoff function and its privacy curve determine each
other (Dong, Roth & Su 2022, Props 2.12 and 2.13; Bok et al. 2024, App. D.5).

For a tradeoff function f its privacy curve is

    delta(eps) = 1 + f*(-e^eps) = sup_x (1 - e^eps x - f(x)),       eps in R,

and conversely f(x) = sup_eps (1 - delta(eps) - e^eps x) (the envelope of the lines
supporting f).  When f is symmetric (f = f^-1) the curve satisfies, for eps <= 0,
delta(eps) = 1 - e^eps (1 - delta(-eps)) (Bok et al. 2024, proof of Prop. D.4), so delta on
[0, oo) fixes f.

:func:`delta_of_tradeoff` evaluates the supremum for a tradeoff *function*.
:func:`tradeoff_interval` goes the other way with certified intervals: given
delta_lo(eps_i) <= delta(eps_i) <= delta_hi(eps_i) on a grid 0 = eps_0 < ... < eps_N of a
symmetric f, it returns lower and upper curves that enclose f at any x:

* lower: f >= f_{eps_i, delta(eps_i)} >= f_{eps_i, delta_hi(eps_i)} for every i (f is
  (eps, delta(eps))-DP for every eps, DRS22 Prop. 2.12), so their maximum;
* upper: as a function of y = e^eps, delta is convex (a supremum of functions affine in y)
  and non-increasing, so on a cell [y_i, y_{i+1}] it lies above the extensions of the
  neighbouring chords and above delta(y_{i+1}); with the chord ends taken from the
  intervals on their safe sides this gives a line L_i(y) <= delta(y) on the cell.  Then
  1 - delta(y) - y x <= 1 - L_i(y) - y x, linear in y, and the mirrored term of the negative
  eps = -log y, (1 - delta(y) - x) / y <= (1 - L_i(y) - x) / y, a ratio of linear functions:
  both are monotone on the cell, so their maxima are at its ends.  Beyond eps_N the bound is
  delta >= max(0, L_N), with the kink where L_N reaches 0 as a third candidate end.

Both curves are accurate to second order in the eps spacing when the intervals are tight.

The curves are float64; each is moved by 4 ulp-scale units (1e-15) in its safe direction.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import numpy as np
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.tradeoff import TradeoffFunction
from dpsym.numerics import Number, to_mpf

__all__ = ["delta_of_tradeoff", "tradeoff_interval"]

REF = "Dong, Roth & Su 2022, Prop. 2.12"


def delta_of_tradeoff(f: TradeoffFunction, eps: Number, iterations: int | None = None) -> mpf:
    """delta(eps) = sup_x (1 - e^eps x - f(x)) at the current precision.

    The objective is concave, so its maximiser is where f'(x) crosses -e^eps; it is found by
    bisection on the sign of f' + e^eps (``f.derivative``), and an error dx in the maximiser
    changes the value only at second order.  Never below 0 (x = 0 gives 1 - f(0) >= 0).
    """
    e = mpmath.exp(to_mpf(eps, "eps", REF))
    lo, hi = mpf(0), mpf(1)
    steps = iterations if iterations is not None else mpmath.mp.prec + 8
    for _ in range(steps):
        mid = (lo + hi) / 2
        if f.derivative(mid) + e < 0:
            lo = mid
        else:
            hi = mid
    x = (lo + hi) / 2
    return max(mpf(0), 1 - e * x - f(x), 1 - f(0))


def tradeoff_interval(eps: Sequence[float], delta_lo: Sequence[float], delta_hi: Sequence[float],
                      x: Sequence[float]) -> tuple[np.ndarray, np.ndarray]:
    """(lower, upper) curves enclosing a symmetric tradeoff function at the type-I errors x,
    from a certified interval for its privacy curve on the grid ``eps`` (module docstring).

    ``eps`` must start at 0 and increase; delta_lo <= delta_hi elementwise.
    """
    e = np.asarray(eps, dtype=float)
    lo_d = np.asarray(delta_lo, dtype=float)
    hi_d = np.asarray(delta_hi, dtype=float)
    xs = np.asarray(x, dtype=float)
    require(e.ndim == 1 and e.size >= 2 and e[0] == 0 and bool(np.all(np.diff(e) > 0)), "eps",
            "(grid)", "an increasing grid starting at 0", REF)
    require(lo_d.shape == e.shape == hi_d.shape and bool(np.all(lo_d <= hi_d)), "delta",
            "(intervals)", "delta_lo <= delta_hi on the eps grid", REF)
    require(bool(np.all((xs >= 0) & (xs <= 1))), "x", "(values)", "0 <= x <= 1", REF)
    X = xs[:, None]
    E = np.exp(e)[None, :]
    # Lower: the max over the grid of f_{eps, delta_hi(eps)} (both of its pieces).
    a = 1 - hi_d[None, :]
    lower = np.max(np.maximum(a - E * X, (a - X) / E), axis=1)
    lower = np.clip(lower - 1e-15, 0, None)
    # Upper: on each cell [y_i, y_{i+1}] (y = e^eps) a line L <= delta, from the chords of
    # the neighbouring cells extended (slopes taken on their safe side) and delta(y_{i+1}).
    y = np.exp(e)
    n = y.size
    dy = np.diff(y)
    s_left = np.full(n - 1, -np.inf)   # chord (i-1, i) extended right of y_i: slope lower bound
    s_left[1:] = (lo_d[1:-1] - hi_d[:-2]) / dy[:-1]
    s_right = np.full(n - 1, np.inf)   # chord (i+1, i+2) extended left of y_{i+1}: upper bound
    s_right[:-1] = (hi_d[2:] - lo_d[1:-1]) / dy[1:]

    # Three lines below delta on cell i: L1 (left chord extended; absent on the first cell),
    # L2 (right chord extended; absent on the last), L3 = delta_lo(y_{i+1}).  Their maximum M
    # is convex and piecewise linear, so the bound functions 1 - M - y x and (1 - M - x)/y
    # peak at the cell's ends or where two lines cross.
    i = np.arange(n - 1)
    a1, b1 = s_left, lo_d[i] - s_left * y[i]
    a2, b2 = s_right, lo_d[i + 1] - s_right * y[i + 1]
    a3, b3 = np.zeros(n - 1), lo_d[i + 1]
    has1, has2 = np.isfinite(a1), np.isfinite(a2)
    a1, b1 = np.where(has1, a1, 0.0), np.where(has1, b1, -np.inf)
    a2, b2 = np.where(has2, a2, 0.0), np.where(has2, b2, -np.inf)
    pts = [y[:-1], y[1:]]
    with np.errstate(divide="ignore", invalid="ignore"):
        for (u, c), (v, d), ok in (((a1, b1), (a2, b2), has1 & has2),
                                   ((a1, b1), (a3, b3), has1), ((a2, b2), (a3, b3), has2)):
            cross = np.where(ok & (u != v), (d - c) / (u - v), y[:-1])
            pts.append(np.clip(np.nan_to_num(cross, nan=y[0]), y[:-1], y[1:]))
    cand = []
    for yy in pts:
        M = np.maximum(np.maximum(a1 * yy + b1, a2 * yy + b2), a3 * yy + b3)[None, :]
        cand.append(np.max(1 - M - yy[None, :] * X, axis=1))
        cand.append(np.max((1 - M - X) / yy[None, :], axis=1))
    upper = np.max(cand, axis=0)
    # Beyond eps_N: delta >= max(0, L_N) with L_N the last chord extended; ends y_N and the
    # zero y_0 of L_N (if any), where the bounds are 1 - y x and (1 - x)/y.
    sN = (lo_d[-1] - hi_d[-2]) / dy[-1]
    tail = [np.maximum(1 - lo_d[-1] - y[-1] * xs, (1 - lo_d[-1] - xs) / y[-1])]
    y0 = y[-1] - lo_d[-1] / sN if sN < 0 else np.inf
    if np.isfinite(y0):
        tail.append(np.maximum(1 - y0 * xs, (1 - xs) / y0))
    else:
        tail.append(np.maximum(1 - y[-1] * xs, (1 - xs) / y[-1]))
    upper = np.maximum(upper, np.max(tail, axis=0))
    upper = np.minimum(np.clip(upper + 1e-15, 0, None), 1 - xs + 1e-15)
    return lower, np.maximum(upper, lower)
