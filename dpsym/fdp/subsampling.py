"""The subsampling operator C_p (Dong, Roth & Su 2022, Def. 6; Bok et al. 2024, Def. 4.7).

For a tradeoff function f and a sampling rate p in [0, 1],

    f_p = p f + (1 - p) Id,        C_p(f) = min{f_p, f_p^-1}**,

with ^-1 the left-continuous inverse and ** the double convex conjugate, i.e. the lower
convex envelope on [0, 1].  C_p(f) is the pointwise largest tradeoff function below both
f_p and f_p^-1; a mechanism that is f-DP and run on a subsample of rate p is C_p(f)-DP
(DRS22, Thm 9).

**Any f, numerically, with a certified error** (:func:`subsample`).  The epigraph of
min{f_p, f_p^-1} is the union of the epigraphs of f_p and of its mirror image in the
diagonal, so the envelope is the lower convex hull of the two curves: no inverse has to be
computed.  Both curves are sampled at the same type-I errors x_i, as (x_i, f_p(x_i)) and
(f_p(x_i), x_i), and H is the lower convex hull of all those vertices.  Then

    H - omega  <=  C_p(f)  <=  H        on [0, 1],

because (upper) C_p(f) is convex and below min{f_p, f_p^-1} at every vertex, and (lower) on
each cell of either polyline the convex curve lies above the two lines through the cell's
ends whose slopes are those of the *neighbouring* chords (a convex function's one-sided
slopes at a cell's ends are bracketed by them), so it is at most

    gap = (m - s_a)(s_b - m) / (s_b - s_a) * (b - a)

below its chord (m the chord's slope, s_a, s_b the neighbours'; at an end cell the missing
neighbour's line is replaced by the monotonicity bound).  omega is the largest gap over all
cells plus the working-precision rounding, so the bound is certified for *any* convex,
non-increasing f; no derivative is used.

**C_p(G(mu)) in closed form** (:class:`SubsampledGaussian`).  f_p has slope -1 at
alpha_1 = Phi(-mu/2), where it takes the value alpha_2 = p Phi(-mu/2) + (1 - p) Phi(mu/2)
>= alpha_1, so the envelope is f_p on [0, alpha_1], the segment of slope -1 from (alpha_1,
alpha_2) to (alpha_2, alpha_1), and the mirror image f_p^-1 on [alpha_2, 1] (Bok et al.
2024, App. C.4.1, facts (a)-(c)).

>>> from dpsym.fdp import Gaussian
>>> from dpsym.numerics import nstr, precision
>>> closed = SubsampledGaussian(p="0.25", mu="2.5")
>>> env = subsample(Gaussian("2.5"), "0.25", n=400, dps=30)
>>> with precision(30):
...     x = closed.alpha_2 + mpf("0.1")
...     lo, hi = env.bounds(x)
...     print(nstr(closed(x), 12), lo <= closed(x) <= hi, float(env.omega) < 1e-3)
0.0286427228383 True True
"""

from __future__ import annotations

import itertools
from bisect import bisect_right
from collections.abc import Sequence
from dataclasses import dataclass, field

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.tradeoff import Gaussian, TradeoffFunction
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, Phi, precision, to_mpf

__all__ = [
    "IdentityMixture",
    "SubsampledEnvelope",
    "SubsampledGaussian",
    "lower_convex_hull",
    "subsample",
]

REF = "Bok et al. 2024, Def. 4.7 (DRS22, Def. 6)"


def _rate(p: Number) -> mpf:
    pv = to_mpf(p, "p", REF)
    require(0 <= pv <= 1, "p", p, "0 <= p <= 1 (sampling rate)", REF)
    return pv


@dataclass(frozen=True)
class IdentityMixture(TradeoffFunction):
    """f_p = p f + (1 - p) Id (Bok et al. 2024, Def. 4.7): a tradeoff function when f is.

    It is the tradeoff function T(P, p Q + (1 - p) P) when f = T(P, Q) (DRS22, Sec. 4.1): the
    one-sided subsampled curve, not symmetric for 0 < p < 1.
    """

    f: TradeoffFunction
    p: Number

    def __post_init__(self) -> None:
        with precision(DEFAULT_DPS):
            _rate(self.p)

    def __call__(self, x: Number) -> mpf:
        xv = to_mpf(x, "x", REF)
        pv = to_mpf(self.p, "p")
        return pv * self.f(xv) + (1 - pv) * (1 - xv)

    def derivative(self, x: Number) -> mpf:
        pv = to_mpf(self.p, "p")
        return pv * self.f.derivative(x) - (1 - pv)


def _cross(o: tuple[mpf, mpf], a: tuple[mpf, mpf], b: tuple[mpf, mpf]) -> mpf:
    return (a[0] - o[0]) * (b[1] - o[1]) - (a[1] - o[1]) * (b[0] - o[0])


def lower_convex_hull(points: Sequence[tuple[mpf, mpf]]) -> list[tuple[mpf, mpf]]:
    """Vertices of the lower convex hull of ``points`` (Andrew's monotone chain), by x.

    Of several points with the same x only the lowest can be on the lower hull.
    """
    pts = sorted(points)
    hull: list[tuple[mpf, mpf]] = []
    for q in pts:
        if hull and hull[-1][0] == q[0]:
            continue  # same x, higher (sorted) y
        while len(hull) >= 2 and _cross(hull[-2], hull[-1], q) <= 0:
            hull.pop()
        hull.append(q)
    return hull


def _chain_gap(xs: Sequence[mpf], ys: Sequence[mpf]) -> mpf:
    """Largest amount a convex non-increasing curve through (xs, ys) (xs increasing) can lie
    below its polyline, from the neighbouring chords' slopes (see the module docstring)."""
    k = len(xs) - 1
    if k < 1:
        return mpf(0)
    slopes = [(ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(k)]
    worst = mpf(0)
    for i in range(k):
        dx, m = xs[i + 1] - xs[i], slopes[i]
        if k == 1:
            gap = ys[0] - ys[1]  # only monotonicity is known
        elif i == 0:
            gap = (slopes[1] - m) * dx  # the curve is above the line through b of slope m_1
        elif i == k - 1:
            gap = (m - slopes[k - 2]) * dx
        else:
            sa, sb = slopes[i - 1], slopes[i + 1]
            gap = (m - sa) * (sb - m) / (sb - sa) * dx if sb > sa else mpf(0)
        worst = max(worst, gap)
    return worst


@dataclass(frozen=True)
class SubsampledEnvelope(TradeoffFunction):
    """C_p(f) enclosed between H - omega and H, H the hull polyline (see the module docstring).

    Calling it returns the *lower* end max(0, H(x) - omega), the safe side for a privacy
    guarantee (a lower tradeoff curve means more privacy loss); :meth:`upper` returns H(x)
    and :meth:`bounds` both.
    """

    p: mpf
    vertices: tuple[tuple[mpf, mpf], ...]
    omega: mpf
    _xs: tuple[mpf, ...] = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_xs", tuple(v[0] for v in self.vertices))

    def upper(self, x: Number) -> mpf:
        """H(x), the hull polyline: an upper bound on C_p(f)(x)."""
        xv = to_mpf(x, "x", REF)
        require(0 <= xv <= 1, "x", x, "0 <= x <= 1 (type-I error)", REF)
        i = min(max(bisect_right(self._xs, xv) - 1, 0), len(self.vertices) - 2)
        (x0, y0), (x1, y1) = self.vertices[i], self.vertices[i + 1]
        return y0 + (y1 - y0) * (xv - x0) / (x1 - x0)

    def bounds(self, x: Number) -> tuple[mpf, mpf]:
        """(lower, upper) enclosing C_p(f)(x)."""
        h = self.upper(x)
        return max(mpf(0), h - self.omega), h

    def __call__(self, x: Number) -> mpf:
        return self.bounds(x)[0]


def _default_grid(n: int, zmax: mpf) -> list[mpf]:
    """Type-I errors Phi(z) for z uniform on [-zmax, zmax], with 0 and 1: dense where
    Gaussian-like curves bend (both ends) and never coarser than 2 zmax/n in z."""
    zs = [-zmax + 2 * zmax * i / (n - 1) for i in range(n)]
    return [mpf(0), *(Phi(z) for z in zs), mpf(1)]


def subsample(f: TradeoffFunction, p: Number, n: int = 1000, grid: Sequence[Number] | None = None,
              zmax: Number = 12, dps: int = 30) -> SubsampledEnvelope:
    """C_p(f) = min{f_p, f_p^-1}** (Def. 4.7) for any tradeoff function f, certified.

    f_p is evaluated at the type-I errors of ``grid`` (default: n points Phi(z), z uniform on
    [-zmax, zmax], plus 0 and 1) at ``dps`` digits; the result encloses C_p(f) between H - omega
    and H (module docstring).  omega shrinks like the square of the grid spacing.
    """
    n = require_integer("n", n, REF, minimum=3)
    with precision(dps + GUARD_DPS):
        pv = _rate(p)
        fp = IdentityMixture(f, pv)
        raw = [to_mpf(x, "grid") for x in grid] if grid is not None \
            else _default_grid(n, to_mpf(zmax, "zmax", REF))
        xs = sorted(set(raw) | {mpf(0), mpf(1)})   # Phi(z) may round to 0 or 1
        require(all(0 <= x <= 1 for x in xs), "grid", "(values)", "0 <= x <= 1", REF)
        ys = [fp(x) for x in xs]
        require(all(b <= a for a, b in itertools.pairwise(ys)), "f", f,
                "a non-increasing tradeoff function (Bok et al. 2024, Lemma 2.3)", REF)
        # The mirror image f_p^-1: the points (f_p(x), x) plus (1, 0), since f_p^-1 = 0 on
        # [f_p(0), 1] (left-continuous inverse).
        mirror: list[tuple[mpf, mpf]] = []
        for u, w in sorted(zip(ys, xs, strict=True)):
            # Equal f_p values at the working precision (a vertical piece of the mirror
            # image): only the lowest point matters to the envelope and to the gap bound.
            if not mirror or u != mirror[-1][0]:
                mirror.append((u, w))
        if mirror[-1][0] < 1:
            mirror.append((mpf(1), mpf(0)))
        omega = max(_chain_gap(xs, ys),
                    _chain_gap([m[0] for m in mirror], [m[1] for m in mirror]))
        hull = lower_convex_hull([*zip(xs, ys, strict=True), *mirror])
        # Rounding of the f evaluations and of the hull arithmetic, at the working precision.
        omega += mpf(10) ** (-dps)
    return SubsampledEnvelope(pv, tuple(hull), omega)


@dataclass(frozen=True)
class SubsampledGaussian(TradeoffFunction):
    """C_p(G(mu)) in closed form (Bok et al. 2024, Def. 4.7 and App. C.4.1 (a)-(c)).

    With alpha_1 = Phi(-mu/2) and alpha_2 = p Phi(-mu/2) + (1 - p) Phi(mu/2):

        C_p(G(mu))(x) = p G(mu)(x) + (1 - p)(1 - x)    for x <= alpha_1,
                        alpha_1 + alpha_2 - x            for alpha_1 <= x <= alpha_2,
                        (G(mu)_p)^-1(x)                  for x >= alpha_2,

    the last branch by solving p Phi(z - mu) + (1 - p) Phi(z) = x for z and returning
    Phi(-z) (the point (Phi(-z), x) lies on f_p).  Symmetric: ``inverse`` is itself.
    """

    p: Number
    mu: Number

    def __post_init__(self) -> None:
        with precision(DEFAULT_DPS):
            _rate(self.p)
            m = to_mpf(self.mu, "mu", REF)
            require(m >= 0, "mu", self.mu, "mu >= 0", REF)

    def _pm(self) -> tuple[mpf, mpf]:
        return to_mpf(self.p, "p"), to_mpf(self.mu, "mu")

    @property
    def alpha_1(self) -> mpf:
        """Phi(-mu/2): where f_p has slope -1 (fact (a))."""
        return Phi(-self._pm()[1] / 2)

    @property
    def alpha_2(self) -> mpf:
        """f_p(alpha_1) = p Phi(-mu/2) + (1 - p) Phi(mu/2) (fact (b))."""
        p, m = self._pm()
        return p * Phi(-m / 2) + (1 - p) * Phi(m / 2)

    def _upper_branch_z(self, x: mpf) -> mpf:
        """z >= mu/2 with p Phi(z - mu) + (1 - p) Phi(z) = x, solved on 1 - x in log space."""
        p, m = self._pm()
        from dpsym.numerics import find_root

        target = mpmath.log(1 - x)

        def g(z: mpf) -> mpf:
            return mpmath.log(p * Phi(m - z) + (1 - p) * Phi(-z)) - target

        return find_root(g, m / 2, m / 2 + 1, lower=m / 2, side="nearest")

    def __call__(self, x: Number) -> mpf:
        xv = to_mpf(x, "x", REF)
        require(0 <= xv <= 1, "x", x, "0 <= x <= 1 (type-I error)", REF)
        p, m = self._pm()
        a1, a2 = self.alpha_1, self.alpha_2
        if xv <= a1:
            return p * Gaussian(m)(xv) + (1 - p) * (1 - xv)
        if xv <= a2:
            return a1 + a2 - xv
        if xv == 1:
            return mpf(0)
        return Phi(-self._upper_branch_z(xv))

    def inverse(self, y: Number) -> mpf:
        return self(y)

    def derivative(self, x: Number) -> mpf:
        xv = to_mpf(x, "x", REF)
        require(0 < xv < 1, "x", x, "0 < x < 1", REF)
        p, m = self._pm()
        a1, a2 = self.alpha_1, self.alpha_2
        if xv <= a1:
            return p * Gaussian(m).derivative(xv) - (1 - p)
        if xv <= a2:
            return mpf(-1)
        y = self(xv)  # f_p(y) = x, so the mirror branch has slope 1 / f_p'(y)
        return 1 / (p * Gaussian(m).derivative(y) - (1 - p))
