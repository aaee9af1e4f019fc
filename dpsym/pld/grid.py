"""Certified grid measures for privacy-loss distributions: discretisation and exact composition.

**delta-dominance.**  For a finite non-negative measure w on (-inf, +inf] (a privacy-loss
distribution, possibly with mass at +inf) write delta_w(eps) = int (1 - e^{eps - s})_+ dw(s),
with (1 - e^{eps - inf}) = 1.  Composition of pairs is convolution of their loss laws
(Dong, Roth & Su 2022, Sec. 3; Gopi, Lee & Wutschitz 2021, Thm 3.3) and Fubini gives

    delta_{a * b}(eps) = int delta_b(eps - x) da(x) = int delta_a(eps - y) db(y).

*Lemma.*  If delta_{a'} >= delta_a and delta_{b'} >= delta_b at every eps in R, then
delta_{a' * b'} >= delta_{a * b} everywhere (same with <=).  Proof: delta_{a'*b'}(eps) =
int delta_{b'}(eps - x) da'(x) >= int delta_b(eps - x) da'(x) = int delta_{a'}(eps - y)
db(y) >= int delta_a(eps - y) db(y) = delta_{a*b}(eps), using only that a' and b are
non-negative measures.  No normalisation, no validity of the pair and no Blackwell argument
is needed.  Moving mass up in s (or to +inf) raises delta_w everywhere, moving it down (or
dropping it) lowers it, and raising (lowering) single masses raises (lowers) delta_w.

So a certified composition only needs, for every factor, a grid measure *above* the true
loss law in the delta order (the upper chain) and one *below* it (the lower chain), and
then operations that keep each chain on its side: exact integer convolution, and windowing
that moves mass up/down.  Masses are integers m_i < 2^63 in units of 2^-E, with a scale E
per measure chosen so that the largest mass uses 62-63 bits (the mass at +inf is an exact
rational); they are rounded up in the upper chain and down in the lower chain after every
convolution, which is done exactly (Kronecker substitution and a big-integer product:
python-flint's fmpz / GMP, or Python's int without flint).  There is no floating-point FFT
and so no roundoff to bound.

**Upper measure of a pair (connect the dots).**  As a function of gamma = e^eps,
delta(gamma) = E_P[(1 - gamma e^{-L})_+] is convex and decreasing, with delta(0) = 1.  The
measure whose delta is the piecewise-linear interpolant of the points (0, 1),
(gamma_j, delta(gamma_j)) on the grid t_j = j h, and constant delta(gamma_n) beyond, has
mass gamma_j (s_j - s_{j-1}) >= 0 at t_j (s the chord slopes) and delta(gamma_n) at +inf;
chords of a convex function lie above it, so it dominates (Doroshenko, Ghazi, Kamath, Kumar
& Manurangsi 2022, "Connect the dots", PETS).  The masses are computed in ball arithmetic
and their upper ends used.

**Lower measure (tangents at the cell midpoints).**  The tangent of delta at
m_j = e^{t_j + h/2} (value delta(m_j), slope -Q(L > t_j + h/2)) lies below delta
everywhere.  With v_j the smaller of the two neighbouring cells' tangents at gamma_j, every
chord from (gamma_j, v_j) to (gamma_{j+1}, v_{j+1}) lies below the tangent of its own cell,
hence below delta; so does the chord from (0, 1) to gamma_lo when v_lo <= 1 - gamma_lo
(delta >= (1 - gamma)_+ always), and the curve is cut to 0 at the last grid point with
v > 0.  The greatest convex minorant of these points is a delta-curve of a grid measure
below delta; its masses are rounded down and the inequality at every grid point is then
*verified* in ball arithmetic (masses are shrunk by 2^-30 until it holds).  Its error is
about h^2 e^{2t} delta''/8 per grid point and step, the optimal order for grid-kinked
curves; the upper measure's error enters essentially once (it is exact at grid points),
which is why the lower chain sets the grid spacing.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np

from dpsym.balls import (
    HAVE_FLINT,
    arb_precision,
    ball,
    exact_fraction_of,
    flint,
    lower_mpf,
    upper_mpf,
)
from dpsym.pld.pairs import LossPair

__all__ = [
    "GridMeasure",
    "convolve",
    "lower_measure",
    "self_compose",
    "upper_measure",
]

PREC_BITS = 128
_TOP_BITS = 62  # the largest mass of a measure is scaled to [2^61, 2^63)


def _sum(m: np.ndarray) -> int:
    """Exact sum of a uint64 vector (split in 32-bit halves: no overflow for n < 2^31)."""
    hi = int((m >> np.uint64(32)).sum(dtype=np.uint64))
    lo = int((m & np.uint64(0xFFFFFFFF)).sum(dtype=np.uint64))
    return (hi << 32) + lo


@dataclass
class GridMeasure:
    """A measure sum_i masses[i] 2^-scale delta_{(offset + i) h} + inf delta_{+inf}.

    ``side`` is ``"upper"`` or ``"lower"``: which side of the true law (in the delta order)
    every operation keeps it on.  ``masses`` is a numpy uint64 array (entries < 2^63),
    ``inf`` an exact rational.
    """

    h: Fraction
    offset: int
    masses: np.ndarray
    inf: Fraction = Fraction(0)
    side: str = "upper"
    scale: int = 62
    _suffix: dict = field(default_factory=dict, repr=False, compare=False)

    @property
    def size(self) -> int:
        return int(self.masses.size)

    def total(self) -> Fraction:
        """Total mass (grid + inf), exactly."""
        return Fraction(_sum(self.masses), 1 << self.scale) + self.inf

    def points(self) -> np.ndarray:
        """The grid points t_i (float64)."""
        return (np.arange(self.size) + self.offset) * float(self.h)

    def mean_var(self) -> tuple[float, float]:
        """Mean and variance of the finite part (float64, for sizing windows)."""
        w = self.masses.astype(np.float64)
        tot = w.sum()
        if tot == 0:
            return 0.0, 0.0
        t = self.points()
        mu = float((w * t).sum() / tot)
        return mu, float((w * (t - mu) ** 2).sum() / tot)

    # -- delta and eps --------------------------------------------------------------

    def _float_delta_on_grid(self) -> np.ndarray:
        """delta at every grid point t_j (float64 estimates, to locate cells)."""
        w = self.masses.astype(np.float64) * 2.0 ** -self.scale
        t = self.points()
        shift = t.max() if t.size else 0.0
        s0 = np.cumsum(w[::-1])[::-1]
        s1 = np.cumsum((w * np.exp(-(t - shift)))[::-1])[::-1]
        nxt0 = np.append(s0[1:], 0.0)
        nxt1 = np.append(s1[1:], 0.0)
        return nxt0 - np.exp(t - shift) * nxt1 + float(self.inf)

    def _suffix_balls(self, k: int):
        """(sum_{i>=k} m_i, sum_{i>=k} m_i e^{-t_i}) 2^-scale as arb balls."""
        if k not in self._suffix:
            h = ball(self.h)
            s1 = flint.arb(0)
            for i in range(self.size - 1, k - 1, -1):
                m = int(self.masses[i])
                if m:
                    s1 += flint.arb(m) * (-(h * (self.offset + i))).exp()
            s0 = _sum(self.masses[k:]) if k < self.size else 0
            unit = flint.arb(2) ** self.scale
            self._suffix[k] = (flint.arb(s0) / unit, s1 / unit)
        return self._suffix[k]

    def _fill_suffixes(self, ks: set[int]) -> None:
        """:meth:`_suffix_balls` for every k in ``ks`` in one backward pass (the same sums,
        accumulated once instead of once per k): many delta evaluations, one pass."""
        todo = sorted((k for k in ks if k not in self._suffix), reverse=True)
        if not todo:
            return
        h = ball(self.h)
        unit = flint.arb(2) ** self.scale
        s1 = flint.arb(0)
        i = self.size - 1
        for k in todo:
            while i >= k:
                m = int(self.masses[i])
                if m:
                    s1 += flint.arb(m) * (-(h * (self.offset + i))).exp()
                i -= 1
            s0 = _sum(self.masses[k:]) if k < self.size else 0
            self._suffix[k] = (flint.arb(s0) / unit, s1 / unit)

    def delta_bounds(self, eps: list[Fraction]) -> list:
        """:meth:`delta_bound` at every eps of ``eps``, sharing one pass over the masses."""
        with arb_precision(PREC_BITS):
            self._fill_suffixes({max(0, min(self.size, math.floor(e / self.h) - self.offset
                                             + 1)) for e in eps})
        return [self.delta_bound(e) for e in eps]

    def delta_ball(self, eps: Fraction):
        """delta(eps) of this measure as an arb ball (exact up to the ball's radius)."""
        with arb_precision(PREC_BITS):
            e = ball(eps)
            # masses strictly above eps: indices i with (offset + i) h > eps
            k = max(0, min(self.size, math.floor(eps / self.h) - self.offset + 1))
            s0, s1 = self._suffix_balls(k)
            return s0 - e.exp() * s1 + ball(self.inf)

    def delta_bound(self, eps: Fraction):
        """The chain's side of delta(eps): upper end (upper chain) or lower end (lower)."""
        b = self.delta_ball(eps)
        v = upper_mpf(b) if self.side == "upper" else lower_mpf(b)
        return min(max(v, 0), 1)

    def _delta_at_index(self, j: int):
        """delta at the grid point t_j (index into masses; masses i > j count), a ball."""
        s0, s1 = self._suffix_balls(max(j + 1, 0))
        t = ball((self.offset + j) * self.h)
        return s0 + ball(self.inf) - t.exp() * s1

    def epsilon_bound(self, delta: Fraction):
        """The chain's side of eps(delta) = inf{eps: delta_w(eps) <= delta}, an mpf.

        +inf when the mass at +inf alone exceeds delta; -inf when delta >= the total mass.
        With F_j(eps) = sum_{i>=j} m_i (1 - e^{eps - t_i}) + inf <= delta_w(eps) (equality
        on the cell (t_{j-1}, t_j]), the root of F_j is a lower bound of eps(delta) for
        every j and exact for the cell that contains it; the cell is located by a float
        estimate and certified by evaluating delta_w at its two ends in ball arithmetic.
        """
        import mpmath

        with arb_precision(PREC_BITS):
            target = ball(delta)
            if self.inf >= delta:
                return mpmath.inf
            if not self.total() > delta:
                return mpmath.ninf
            est = self._float_delta_on_grid()
            below = np.nonzero(est <= float(delta))[0]
            j = int(below[0]) if below.size else self.size - 1
            # certify delta(t_j) <= delta < delta(t_{j-1}) (moving j if the float misled)
            for _ in range(64):
                ok_hi = self._delta_at_index(j) <= target if j < self.size else True
                ok_lo = j == 0 or self._delta_at_index(j - 1) > target
                if not ok_hi and j < self.size - 1:
                    j += 1
                    continue
                if ok_hi and j > 0 and self._delta_at_index(j - 1) <= target:
                    j -= 1
                    continue
                break
            t_j = (self.offset + j) * self.h
            t_prev = (self.offset + j - 1) * self.h
            s0, s1 = self._suffix_balls(j)
            num = s0 + ball(self.inf) - target
            root = (num / s1).log() if (num > 0 and s1 > 0) else None
            if self.side == "upper":
                # eps <= t_j when delta(t_j) <= delta is certified; the root of F_j is
                # exact when delta(t_{j-1}) > delta is certified too
                cap = mpmath.mpf(t_j.numerator) / t_j.denominator if ok_hi else mpmath.inf
                if root is not None and ok_lo and root.is_finite():
                    return min(upper_mpf(root), cap)
                return cap
            floor = (mpmath.mpf(t_prev.numerator) / t_prev.denominator
                     if (j > 0 and ok_lo) else mpmath.ninf)
            if root is not None and root.is_finite():
                return max(lower_mpf(root), floor)
            return floor


# --- discretisation of one pair ---------------------------------------------------------


def _tails_on(pair: LossPair, ts):
    """pair.tails at each arb ball of ``ts``."""
    return [pair.tails(t) for t in ts]


def _scale_for(max_mass: float) -> int:
    """The scale E with max_mass * 2^E in [2^61, 2^63)."""
    if not max_mass > 0:
        return _TOP_BITS
    return _TOP_BITS - math.frexp(max_mass)[1] + 1


def _carry_from_mpf(values: list) -> np.ndarray:
    """Upper-chain integer masses from exact non-negative mpf values (carry rounding).

    Integer and fractional parts are split exactly (an mpf is man * 2^exp); the fraction
    is rounded up to 2^-40.
    """
    q = np.zeros(len(values), dtype=np.uint64)
    frac = np.zeros(len(values), dtype=np.uint64)
    for i, v in enumerate(values):
        if not mpmath.isfinite(v):
            raise ArithmeticError("a mass ball is unbounded: raise PREC_BITS")
        sign, man, exp, _ = v._mpf_
        if sign or not man:
            continue
        man, exp = int(man), int(exp)
        if exp >= 0:
            q[i] = man << exp
            continue
        f = man >> -exp
        rem = man - (f << -exp)
        q[i] = f
        frac[i] = -(-(rem << _FRAC_BITS) >> -exp)
    return carry_round(q, frac, "upper")


def upper_measure(pair: LossPair, h: Fraction, j_lo: int, j_hi: int) -> GridMeasure:
    """The connect-the-dots measure above ``pair`` on the grid t_j = j h, j_lo <= j <= j_hi."""
    with arb_precision(PREC_BITS):
        hb = ball(h)
        js = range(j_lo, j_hi + 1)
        ts = [hb * j for j in js]
        gam = [t.exp() for t in ts]
        tails = _tails_on(pair, ts)
        dlt = [sp - g * sq for (sp, sq), g in zip(tails, gam, strict=True)]
        xs = [flint.arb(0), *gam]
        ys = [flint.arb(1), *dlt]
        slopes = [(ys[i + 1] - ys[i]) / (xs[i + 1] - xs[i]) for i in range(len(xs) - 1)]
        slopes.append(flint.arb(0))
        balls = [g * (slopes[i + 1] - slopes[i]) for i, g in enumerate(gam)]
        scale = _scale_for(max(float(upper_mpf(b)) for b in balls))
        masses = _carry_from_mpf([upper_mpf(b * flint.arb(2) ** scale) for b in balls])
        inf = exact_fraction_of(max(upper_mpf(dlt[-1]), mpmath.mpf(0)))
    return GridMeasure(h, j_lo, masses, inf, "upper", scale)


def _lower_convex_hull(x: np.ndarray, y: np.ndarray) -> list[int]:
    hull: list[int] = []
    for i in range(len(x)):
        while len(hull) >= 2:
            a, b = hull[-2], hull[-1]
            if (y[b] - y[a]) * (x[i] - x[a]) >= (y[i] - y[a]) * (x[b] - x[a]):
                hull.pop()
            else:
                break
        hull.append(i)
    return hull


def lower_measure(pair: LossPair, h: Fraction, j_lo: int, j_hi: int) -> GridMeasure:
    """The tangent-minorant measure below ``pair`` on t_j = j h, j_lo <= j <= j_hi."""
    with arb_precision(PREC_BITS):
        hb = ball(h)
        js = list(range(j_lo, j_hi + 1))
        n = len(js)
        gam = [(hb * j).exp() for j in js]
        half = hb / 2
        mids = [hb * j + half for j in js[:-1]]
        tails = _tails_on(pair, mids)
        gm = [m.exp() for m in mids]
        dm = [sp - g * sq for (sp, sq), g in zip(tails, gm, strict=True)]
        v = np.empty(n, dtype=object)
        for i in range(n):
            cands = []
            if i > 0:   # tangent of cell i-1 at gamma_i
                cands.append(lower_mpf(dm[i - 1] - tails[i - 1][1] * (gam[i] - gm[i - 1])))
            if i < n - 1:
                cands.append(lower_mpf(dm[i] - tails[i][1] * (gam[i] - gm[i])))
            v[i] = min(cands)
        v[0] = min(v[0], lower_mpf(1 - gam[0]))
        vf = np.array([float(x) for x in v])
        pos = np.nonzero(vf <= 0)[0]
        k = int(pos[0]) - 1 if pos.size else n - 1
        if k < 0:
            return GridMeasure(h, j_lo, np.zeros(1, dtype=np.uint64), Fraction(0), "lower")
        gf = np.array([float(g.mid()) for g in gam[:k + 1]])
        X = np.concatenate([[0.0], gf])
        Y = np.concatenate([[1.0], vf[:k], [0.0]])
        hull = _lower_convex_hull(X, Y)
        hx, hy = X[hull], Y[hull]
        sl = np.diff(hy) / np.diff(hx)
        sr = np.append(sl[1:], 0.0)
        mass_f = np.zeros(k + 1)
        mass_f[np.array(hull[1:]) - 1] = hx[1:] * (sr - sl)
        mass_f = np.clip(mass_f, 0.0, None)
        scale = _scale_for(float(mass_f.max()))
        for shrink in range(8):
            factor = (1.0 - 2.0 ** -30) ** (2 ** shrink) if shrink else 1.0 - 2.0 ** -40
            masses = np.floor(np.ldexp(mass_f * factor, scale)).astype(np.uint64)
            if _verify_lower(masses, scale, gam[:k + 1], hb, j_lo, v[:k + 1]):
                return GridMeasure(h, j_lo, masses, Fraction(0), "lower", scale)
    raise ArithmeticError(  # pragma: no cover - shrinking always succeeds
        "lower measure could not be verified")


def _verify_lower(masses: np.ndarray, scale: int, gam, hb, j_lo: int, v) -> bool:
    """Check sum_{i>j} m_i (1 - gamma_j e^{-t_i}) <= v_j at every j and total <= 1."""
    if _sum(masses) > 1 << scale:
        return False
    s0 = 0
    s1 = flint.arb(0)
    unit = flint.arb(2) ** scale
    for j in range(len(gam) - 1, -1, -1):
        g = (flint.arb(s0) - gam[j] * s1) / unit
        if upper_mpf(g) > v[j]:
            return False
        m = int(masses[j])
        if m:
            s0 += m
            s1 += flint.arb(m) * (-(hb * (j_lo + j))).exp()
    return True


# --- exact convolution ------------------------------------------------------------------


def _pack(m: np.ndarray) -> int:
    words = np.zeros((m.size, 3), dtype=np.uint64)
    words[:, 0] = m
    return int.from_bytes(words.tobytes(), "little")


def _unpack(x: int, n: int) -> np.ndarray:
    return np.frombuffer(x.to_bytes(24 * n, "little"), dtype=np.uint64).reshape(n, 3)


def _product(a: np.ndarray, b: np.ndarray | None) -> np.ndarray:
    """The exact convolution of two uint64 vectors (b=None: a with itself), as (n, 3) words.

    Kronecker substitution with 192-bit slots: every product coefficient is < 2^126 * n <
    2^192, so slots never carry into each other.
    """
    A = _pack(a)
    if HAVE_FLINT:
        fa = flint.fmpz(A)
        prod = fa * fa if b is None else fa * flint.fmpz(_pack(b))
        C = int(prod)
    else:  # pragma: no cover - exact but slower
        C = A * A if b is None else A * _pack(b)
    n = a.size + (a.size if b is None else b.size) - 1
    return _unpack(C, n)


_FRAC_BITS = 40


def _bits(w: list[np.ndarray], lo: int, n: int) -> np.ndarray:
    """Bits lo .. lo+n-1 (n <= 64) of each multiword integer sum_j w[j] 2^(64 j)."""
    k, o = divmod(lo, 64)
    if k >= len(w):
        return np.zeros_like(w[0])
    out = w[k] >> np.uint64(o)
    if o and k + 1 < len(w):
        out = out | (w[k + 1] << np.uint64(64 - o))
    if n < 64:
        out = out & np.uint64((1 << n) - 1)
    return out


def _sticky(w: list[np.ndarray], lo: int) -> np.ndarray:
    """Whether any bit below bit ``lo`` is set."""
    k, o = divmod(lo, 64)
    out = np.zeros(w[0].shape, dtype=bool)
    for j in range(min(k, len(w))):
        out |= w[j] != 0
    if o and k < len(w):
        out |= (w[k] & np.uint64((1 << o) - 1)) != 0
    return out


def carry_round(q: np.ndarray, frac: np.ndarray, side: str) -> np.ndarray:
    """Integer masses q + (fractions frac / 2^40) made integral without dust.

    Rounding every entry up would add up to one unit per entry and step; instead the
    fractional parts are carried: upwards in the loss (left to right) in the upper chain,
    where a completed unit is deposited at the entry that completes it (mass only moves up,
    the last incomplete unit goes to the last entry), and downwards (right to left) in the
    lower chain, where the incomplete rest is dropped (mass only moves down or vanishes).
    ``frac`` must over-estimate the true fractions in the upper chain and under-estimate
    them in the lower chain.
    """
    one = np.uint64(1 << _FRAC_BITS)
    if side == "upper":
        c = np.cumsum(frac, dtype=np.uint64)
        done = c // one
        dep = np.diff(done, prepend=np.uint64(0))
        out = q + dep
        if c.size and c[-1] % one:
            out[-1] += np.uint64(1)
        return out
    c = np.cumsum(frac[::-1], dtype=np.uint64)[::-1]
    done = c // one
    dep = done - np.append(done[1:], np.uint64(0))
    return q + dep


def _rescale(words: np.ndarray, side: str) -> tuple[np.ndarray, int]:
    """(masses, shift): the (n, 3)-word coefficients divided by 2^shift and made integral by
    :func:`carry_round`, with shift chosen so that the largest result lies below 2^63."""
    w = [words[:, i] for i in range(3)]
    approx = (w[2].astype(np.float64) * 2.0**128 + w[1].astype(np.float64) * 2.0**64
              + w[0].astype(np.float64))
    i = int(np.argmax(approx))
    top = int(w[0][i]) + (int(w[1][i]) << 64) + (int(w[2][i]) << 128)
    shift = max(0, top.bit_length() - (_TOP_BITS + 1))
    out = _bits(w, shift, 64)
    if shift + 64 < 192 and (_bits(w, shift + 64, 64) != 0).any():
        raise ArithmeticError("rescale overflow")  # pragma: no cover - shift is chosen for it
    if shift == 0:
        return out, 0
    lo = max(0, shift - _FRAC_BITS)
    frac = _bits(w, lo, shift - lo) << np.uint64(_FRAC_BITS - (shift - lo))
    if side == "upper":
        frac = frac + _sticky(w, lo).astype(np.uint64)
    return carry_round(out, frac, side), shift


def _shift_down(masses: np.ndarray, k: int, side: str) -> np.ndarray:
    """masses / 2^k rounded up (upper) or down (lower)."""
    out = masses >> np.uint64(k)
    if side == "upper":
        out = out + ((masses & np.uint64((1 << k) - 1)) != 0).astype(np.uint64)
    return out


def _deposit(masses: np.ndarray, i: int, amount: int, scale: int, side: str
             ) -> tuple[np.ndarray, int]:
    """Add ``amount`` (units 2^-scale) to masses[i], coarsening the scale if it would pass
    2^63 (rounding on the measure's side).  Returns (masses, scale)."""
    total = int(masses[i]) + amount
    k = max(0, total.bit_length() - 63)
    if k:
        masses = _shift_down(masses, k, side)
        amount = -(-amount >> k) if side == "upper" else amount >> k  # ceil / floor
        scale -= k
    masses[i] = np.uint64(int(masses[i]) + amount)
    return masses, scale


def _window(m: GridMeasure, lo: int | None, hi: int | None) -> GridMeasure:
    """Keep grid indices in [lo, hi]: mass above goes to +inf (upper) or to hi (lower);
    mass below goes to lo (upper) or is dropped (lower).  Zero ends are trimmed."""
    masses, off, inf, scale = m.masses, m.offset, m.inf, m.scale
    if hi is not None and off + masses.size - 1 > hi:
        cut = max(0, hi - off + 1)
        above = _sum(masses[cut:])
        masses = masses[:cut].copy()
        if m.side == "upper":
            inf = _ceil_dyadic(inf + Fraction(above, 1 << scale))
        elif masses.size and above:
            masses, scale = _deposit(masses, masses.size - 1, above, scale, m.side)
    if lo is not None and off < lo:
        cut = min(masses.size, lo - off)
        below = _sum(masses[:cut])
        masses = masses[cut:].copy()
        off = lo
        if m.side == "upper" and below:
            if masses.size == 0:
                masses = np.zeros(1, dtype=np.uint64)
            masses, scale = _deposit(masses, 0, below, scale, m.side)
    nz = np.nonzero(masses)[0]
    if nz.size == 0:
        return GridMeasure(m.h, off, np.zeros(1, dtype=np.uint64), inf, m.side, scale)
    return GridMeasure(m.h, off + int(nz[0]), masses[nz[0]:nz[-1] + 1].copy(), inf, m.side,
                       scale)


def _ceil_dyadic(x: Fraction, bits: int = 256) -> Fraction:
    """x rounded up to a multiple of 2^-bits (keeps the exact mass at +inf short)."""
    return Fraction(-(-x.numerator * (1 << bits) // x.denominator), 1 << bits)


def convolve(a: GridMeasure, b: GridMeasure | None, lo: int | None = None,
             hi: int | None = None) -> GridMeasure:
    """The composition a * b (b=None: a * a), exact, rescaled on a's side, windowed."""
    bb = a if b is None else b
    if a.h != bb.h or a.side != bb.side:
        raise ValueError("convolve: measures on different grids or sides")
    words = _product(a.masses, None if b is None else b.masses)
    masses, shift = _rescale(words, a.side)
    inf = Fraction(0)
    if a.side == "upper" and (a.inf or bb.inf):  # exact: (A + a_inf)(B + b_inf) - A B
        ta = Fraction(_sum(a.masses), 1 << a.scale)
        tb = Fraction(_sum(bb.masses), 1 << bb.scale)
        inf = _ceil_dyadic(a.inf * (tb + bb.inf) + bb.inf * ta)
    out = GridMeasure(a.h, a.offset + bb.offset, masses, inf, a.side,
                      a.scale + bb.scale - shift)
    return _window(out, lo, hi)


def self_compose(m: GridMeasure, count: int, lo: int | None = None,
                 hi: int | None = None) -> GridMeasure:
    """m composed with itself ``count`` times (binary powering), windowed at every step."""
    result: GridMeasure | None = None
    power = _window(m, lo, hi)
    n = count
    while n:
        if n & 1:
            result = power if result is None else convolve(result, power, lo, hi)
        n >>= 1
        if n:
            power = convolve(power, None, lo, hi)
    assert result is not None
    return result
