"""Tradeoff functions as objects (Dong, Roth & Su 2022; Bok et al. 2024, Sec. 2).

For distributions P, Q the tradeoff function T(P, Q)(x) is the smallest type-II error of a
test of P against Q whose type-I error is at most x.  Bok et al. 2024, Lemma 2.3 (= DRS22,
Prop. 2.2): f : [0, 1] -> [0, 1] is a tradeoff function iff it is convex, continuous,
non-increasing and f(x) <= 1 - x.  It is *symmetric* when f = f^-1 (the generalised
inverse), which holds for T(P, Q) when T(P, Q) = T(Q, P).

Objects here: :class:`Gaussian` G(mu), :class:`EpsDelta` f_{eps,delta} and
:class:`PiecewiseLinear` (convex polygons through (0, 1) and (1, 0), such as the curve of
Bok et al. Figure 2).  :func:`check_tradeoff` tests the Lemma 2.3 properties on a grid at
high precision and :func:`dominates` compares two curves.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Sequence
from dataclasses import dataclass, field
from itertools import pairwise

import mpmath
import numpy as np
from mpmath import mpf

from dpsym.errors import require
from dpsym.numerics import DEFAULT_DPS, Number, Phi_inv, precision, to_mpf

__all__ = [
    "EpsDelta",
    "Gaussian",
    "PiecewiseLinear",
    "TradeoffCheck",
    "TradeoffFunction",
    "check_tradeoff",
    "dominates",
    "min_gap_to_gaussian",
]

REF_23 = "Bok et al. 2024, Lemma 2.3"


def _x(x: Number) -> mpf:
    v = to_mpf(x, "x", REF_23)
    require(0 <= v <= 1, "x", x, "0 <= x <= 1 (type-I error)", REF_23)
    return v


class TradeoffFunction(ABC):
    """A tradeoff function f on [0, 1]; calling it evaluates at the current mpmath precision."""

    @abstractmethod
    def __call__(self, x: Number) -> mpf: ...

    def inverse(self, y: Number) -> mpf:
        """Generalised inverse f^-1(y) = inf{x in [0, 1] : f(x) <= y} by bisection."""
        yv = _x(y)
        if self(0) <= yv:
            return mpf(0)
        lo, hi = mpf(0), mpf(1)
        for _ in range(mpmath.mp.prec + 4):
            mid = (lo + hi) / 2
            if self(mid) <= yv:
                hi = mid
            else:
                lo = mid
        return hi

    def derivative(self, x: Number) -> mpf:
        """f'(x) by a central difference at the working precision (override when known)."""
        return mpmath.diff(lambda t: self(t), _x(x))

    def vectorized(self, xs: np.ndarray) -> np.ndarray:
        """float64 values for plotting only."""
        with precision(20):
            return np.array([float(self(float(x))) for x in xs])


@dataclass(frozen=True)
class Gaussian(TradeoffFunction):
    """G(mu)(x) = Phi(Phi^-1(1 - x) - mu) (Bok et al. 2024, Def. 2.4; DRS22, Def. 2.7).

    Evaluated as Phi(-Phi^-1(x) - mu) so that no 1 - x is formed: accurate for x near 0.
    G(0) = Id(x) = 1 - x; G(mu) is symmetric, so ``inverse`` is G(mu) itself.
    With z = Phi^-1(1 - x), G'(x) = -phi(z - mu)/phi(z) = -exp(mu z - mu^2/2).
    """

    mu: Number

    def __post_init__(self) -> None:
        with precision(DEFAULT_DPS):
            m = to_mpf(self.mu, "mu", "Bok et al. 2024, Def. 2.4")
            require(m >= 0, "mu", self.mu, "mu >= 0", "Bok et al. 2024, Def. 2.4")

    def _m(self) -> mpf:
        return to_mpf(self.mu, "mu")

    def __call__(self, x: Number) -> mpf:
        xv = _x(x)
        if xv == 0:
            return mpf(1)
        if xv == 1:
            return mpf(0)
        return mpmath.ncdf(-Phi_inv(xv) - self._m())

    def inverse(self, y: Number) -> mpf:
        return self(y)

    def derivative(self, x: Number) -> mpf:
        xv = _x(x)
        require(0 < xv < 1, "x", x, "0 < x < 1 (G(mu) has infinite slope at 0)", REF_23)
        m = self._m()
        z = -Phi_inv(xv)
        return -mpmath.exp(m * z - m * m / 2)


@dataclass(frozen=True)
class EpsDelta(TradeoffFunction):
    """f_{eps,delta}(x) = max(0, 1 - delta - e^eps x, e^-eps (1 - delta - x)) (DRS22, eq. (5)).

    A mechanism is (eps, delta)-DP iff it is f_{eps,delta}-DP (DRS22, Prop. 2.5).
    """

    eps: Number
    delta: Number

    def __post_init__(self) -> None:
        ref = "Dong, Roth & Su 2022, Prop. 2.5"
        with precision(DEFAULT_DPS):
            e = to_mpf(self.eps, "eps", ref)
            d = to_mpf(self.delta, "delta", ref)
            require(e >= 0, "eps", self.eps, "eps >= 0", ref)
            require(0 <= d <= 1, "delta", self.delta, "0 <= delta <= 1", ref)

    def __call__(self, x: Number) -> mpf:
        xv = _x(x)
        e, d = to_mpf(self.eps), to_mpf(self.delta)
        return max(mpf(0), 1 - d - mpmath.exp(e) * xv, mpmath.exp(-e) * (1 - d - xv))

    def inverse(self, y: Number) -> mpf:
        # f_{eps,delta} is symmetric (DRS22, Sec. 2.2).
        return self(y)

    def piecewise(self, dps: int = DEFAULT_DPS) -> PiecewiseLinear:
        """f_{eps,delta} as a :class:`PiecewiseLinear` curve: its kink is on the diagonal at
        x = (1 - delta)/(1 + e^eps), and it reaches 0 at x = 1 - delta.

        >>> f = EpsDelta(1, 0).piecewise()
        >>> [mpmath.nstr(x, 6) for x, _ in f.points]
        ['0.0', '0.268941', '1.0']
        """
        with precision(dps):
            e, d = to_mpf(self.eps), to_mpf(self.delta)
            kink = (1 - d) / (1 + mpmath.exp(e))
            pts = [(mpf(0), 1 - d), (kink, kink)]
            pts += [(1 - d, mpf(0)), (mpf(1), mpf(0))] if d > 0 else [(mpf(1), mpf(0))]
        return PiecewiseLinear(pts)


@dataclass(frozen=True)
class PiecewiseLinear(TradeoffFunction):
    """Linear interpolation through ``points`` [(x_0, y_0), ..., (x_k, y_k)], x_0 = 0, x_k = 1."""

    points: Sequence[tuple[Number, Number]]
    _xy: tuple[tuple[mpf, mpf], ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        with precision(DEFAULT_DPS):
            pts = tuple((to_mpf(a, "x"), to_mpf(b, "y")) for a, b in self.points)
        require(len(pts) >= 2 and pts[0][0] == 0 and pts[-1][0] == 1,
                "points", self.points, "x from 0 to 1", REF_23)
        require(all(p[0] < q[0] for p, q in pairwise(pts)),
                "points", self.points, "strictly increasing x", REF_23)
        object.__setattr__(self, "_xy", pts)

    def __call__(self, x: Number) -> mpf:
        xv = _x(x)
        # Breakpoints are converted at the caller's precision so that f(x_i) = y_i exactly.
        pts = [(to_mpf(a, "x"), to_mpf(b, "y")) for a, b in self.points]
        for (x0, y0), (x1, y1) in pairwise(pts):
            if xv == x1:
                return y1
            if x0 <= xv < x1:
                return y0 + (y1 - y0) * (xv - x0) / (x1 - x0)
        return pts[0][1]  # xv == 0


@dataclass(frozen=True)
class TradeoffCheck:
    """Result of checking Lemma 2.3 on a grid; ``worst_*`` are the largest violations found."""

    convex: bool
    continuous: bool
    non_increasing: bool
    below_identity: bool
    symmetric: bool
    worst_convexity: mpf
    worst_monotonicity: mpf
    worst_identity: mpf
    worst_symmetry: mpf
    worst_jump: mpf

    @property
    def is_tradeoff(self) -> bool:
        """All four properties of Lemma 2.3 hold on the grid."""
        return self.convex and self.continuous and self.non_increasing and self.below_identity


def check_tradeoff(
    f: TradeoffFunction, n: int = 400, dps: int = 30, tol: Number = "1e-20"
) -> TradeoffCheck:
    """Check the properties of Lemma 2.3 (and symmetry) on an n-point grid at ``dps`` digits.

    * convex: second differences >= -tol on a uniform grid;
    * non-increasing: first differences <= tol;
    * f(x) <= 1 - x + tol;
    * continuous: a convex function is continuous on (0, 1), so only the endpoints can
      jump; f(h) -> f(0) and f(1 - h) -> f(1) are checked with h = 10^-dps (gap <= 1e-6);
    * symmetric: f^-1 = f, with f^-1 the generalised inverse computed by bisection
      (:meth:`TradeoffFunction.inverse`, never a shortcut), to 1e-8.
    """
    with precision(dps):
        t = to_mpf(tol)
        xs = [mpf(i) / n for i in range(n + 1)]
        ys = [f(x) for x in xs]
        d1 = [b - a for a, b in pairwise(ys)]
        d2 = [ys[i - 1] - 2 * ys[i] + ys[i + 1] for i in range(1, n)]
        worst_conv = max([mpf(0), *(-v for v in d2)])
        worst_mono = max([mpf(0), *d1])
        worst_id = max(mpf(0), *[y - (1 - x) for x, y in zip(xs, ys, strict=False)])
        h = mpf(10) ** (-dps)
        worst_jump = max(abs(f(0) - f(h)), abs(f(1) - f(1 - h)))
        sym = [abs(TradeoffFunction.inverse(f, x) - y)
               for x, y in zip(xs[::10], ys[::10], strict=False)]
        worst_sym = max(sym, default=mpf(0))
        return TradeoffCheck(
            convex=worst_conv <= t,
            continuous=worst_jump <= mpf("1e-6"),
            non_increasing=worst_mono <= t,
            below_identity=worst_id <= t,
            symmetric=worst_sym <= mpf("1e-8"),
            worst_convexity=worst_conv,
            worst_monotonicity=worst_mono,
            worst_identity=worst_id,
            worst_symmetry=worst_sym,
            worst_jump=worst_jump,
        )


def dominates(
    f: TradeoffFunction, g: TradeoffFunction, n: int = 2000, dps: int = 30
) -> tuple[bool, mpf, mpf]:
    """Whether f >= g on an (n+1)-point grid: ``(holds, min(f - g), argmin)``.

    "f >= g pointwise" is how f-DP orders privacy (Bok et al. 2024, Def. 2.2): a mechanism
    whose tradeoff function dominates G(mu) is mu-GDP.
    """
    with precision(dps):
        best, arg = mpf("inf"), mpf(0)
        for i in range(n + 1):
            x = mpf(i) / n
            d = f(x) - g(x)
            if d < best:
                best, arg = d, x
        return best >= -mpf(10) ** (-dps + 5), best, arg


def min_gap_to_gaussian(f: PiecewiseLinear, mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """min over x in [0, 1] of f(x) - G(mu)(x) for a piecewise linear f, exactly.

    On each linear piece f - G(mu) is linear minus convex, hence concave, so its minimum over
    the piece is at an end: the minimum over [0, 1] is the minimum over the breakpoints (no
    grid). A negative value means f does not dominate G(mu), i.e. a mechanism whose tradeoff
    function is f is not mu-GDP (Bok et al. 2024, Def. 2.4).

    The gap is 0 at x = 0 and x = 1, so f dominates G(mu) iff the minimum is 0. For pure
    DP (eps = 1, delta = 0), whose kink is at 1/(1 + e):

    >>> mpmath.nstr(min_gap_to_gaussian(EpsDelta(1, 0).piecewise(), 2), 6)
    '0.0'
    >>> mpmath.nstr(min_gap_to_gaussian(EpsDelta(1, 0).piecewise(), 1), 6)
    '-0.0815544'
    """
    with precision(dps):
        g = Gaussian(mu)
        return min(f(x) - g(x) for x, _ in f.points)
