"""Interval arithmetic helpers: python-flint's arb balls next to mpmath numbers.

An arb ball [m +- r] provably contains the exact value of the expression that produced it
(Johansson, "Arb: efficient arbitrary-precision midpoint-radius interval arithmetic",
IEEE Trans. Computers 66 (2017)).  dpsym reports a privacy bound as the outer end of such a
ball: the upper end of an upper bound, the lower end of a lower bound.  The endpoints of a
ball are exact dyadic numbers and convert to mpf without rounding.

arb keeps its precision in a global context; :func:`arb_precision` sets it for a block and
restores it, so results never depend on the caller's setting.

>>> from dpsym.balls import arb_precision, ball, upper_mpf
>>> from dpsym.numerics import nstr
>>> with arb_precision(100):
...     x = ball("0.1") * 3
>>> nstr(upper_mpf(x), 20)
'0.3'
"""

from __future__ import annotations

import contextlib
import functools
import math
from collections.abc import Iterator
from fractions import Fraction

import mpmath
from mpmath import libmp, mp, mpf

try:  # pragma: no cover - exercised through HAVE_FLINT
    import flint

    HAVE_FLINT = True
except ImportError:  # pragma: no cover - platforms without python-flint wheels
    flint = None
    HAVE_FLINT = False

__all__ = [
    "HAVE_FLINT",
    "arb_precision",
    "ball",
    "ball_of_mpf",
    "decimal_string",
    "exact_fraction_of",
    "lower_mpf",
    "mpf_of_exact",
    "ncdf",
    "require_flint",
    "upper_mpf",
]


def require_flint(what: str) -> None:
    """Raise an ImportError naming ``what`` when python-flint is missing."""
    if not HAVE_FLINT:
        raise ImportError(f"{what} needs python-flint (pip install python-flint) for "
                          "certified interval arithmetic")


@contextlib.contextmanager
def arb_precision(bits: int) -> Iterator[None]:
    """Run the body with arb working at ``bits`` bits (restored on exit)."""
    require_flint("arb_precision")
    old = flint.ctx.prec
    flint.ctx.prec = int(bits)
    try:
        yield
    finally:
        flint.ctx.prec = old


def exact_fraction_of(x: object) -> Fraction:
    """The exact rational value of an int, Fraction, float, decimal string or mpf."""
    if isinstance(x, Fraction | int):
        return Fraction(x)
    if isinstance(x, mpf):
        sign, man, exp, _ = x._mpf_
        v = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -v if sign else v
    if isinstance(x, str):
        return Fraction(x.strip())
    return Fraction(float(x))


def ball(x: object):
    """An arb ball containing the exact value of ``x`` (at the current arb precision)."""
    if not isinstance(x, Fraction | int | mpf | str):
        x = Fraction(float(x))
    if isinstance(x, mpf):
        return ball_of_mpf(x)
    v = exact_fraction_of(x)
    if v.denominator == 1:
        return flint.arb(flint.fmpz(v.numerator))
    return flint.arb(flint.fmpq(v.numerator, v.denominator))


def ball_of_mpf(x: mpf):
    """An arb ball containing the mpf ``x`` (exact when the precision suffices)."""
    if not isinstance(x, mpf):  # an mpf is used as it is: mpf(x) would round it
        x = mpf(x)
    sign, man, exp, _ = x._mpf_
    if man == 0:
        return flint.arb(0)
    v = flint.arb(flint.fmpz(int(man))) * flint.arb(2) ** int(exp)
    return -v if sign else v


def mpf_of_exact(x) -> mpf:
    """The exact dyadic value of an exact arb (e.g. a ball's endpoint), without rounding."""
    if not x.is_finite():
        return mpmath.inf if x > 0 else mpmath.ninf
    man, exp = x.man_exp()
    return mp.make_mpf(libmp.from_man_exp(int(man), int(exp)))


def _mid_rad(x) -> tuple[tuple, tuple]:
    """The exact midpoint and radius of a finite ball as raw mpmath tuples."""
    m, r = x.mid(), x.rad()
    mm, me = m.man_exp() if not m.is_zero() else (0, 0)
    rm, re = r.man_exp() if not r.is_zero() else (0, 0)
    return libmp.from_man_exp(int(mm), int(me)), libmp.from_man_exp(int(rm), int(re))


def upper_mpf(x) -> mpf:
    """The upper end mid + rad of the ball ``x``, exactly, as an mpf (+inf if unbounded).

    (arb's own ``upper()`` rounds to the *current* precision; this does not, unless the
    exact sum would need more than 2**16 bits, and then it rounds towards +inf at 64 bits
    beyond both operands: mid = 1 with rad = 2^-10^300 would need a 10^300-bit mantissa.)
    """
    if not x.is_finite():
        return mpmath.inf
    m, r = _mid_rad(x)
    return mp.make_mpf(libmp.mpf_add(m, r, _exact_or(m, r), "c"))


def _exact_or(m: tuple, r: tuple) -> int:
    """0 (exact) when the sum of two raw mpfs needs <= 2**16 bits, else a directed precision
    of 64 bits more than the current precision or either operand's own mantissa."""
    if m[1] == 0 or r[1] == 0:
        return 0
    need = max(m[2] + m[3], r[2] + r[3]) - min(m[2], r[2]) + 2
    return 0 if need <= 2**16 else max(mp.prec, m[3], r[3]) + 64


def lower_mpf(x) -> mpf:
    """The lower end mid - rad of the ball ``x``, exactly, as an mpf (-inf if unbounded)."""
    if not x.is_finite():
        return mpmath.ninf
    m, r = _mid_rad(x)
    return mp.make_mpf(libmp.mpf_sub(m, r, _exact_or(m, r), "f"))


def relative_radius(x) -> float:
    """rad/|mid| of a ball (inf when the midpoint is 0 or the ball is unbounded)."""
    if not x.is_finite():
        return math.inf
    m = abs(float(x.mid()))
    return math.inf if m == 0 else float(x.rad()) / m


@functools.lru_cache(maxsize=8)
def _minus_inv_sqrt2(prec: int):
    return -flint.arb(2).rsqrt()


def ncdf(x):
    """Phi(x) = erfc(-x/sqrt 2)/2 for an arb ball x (relative accuracy deep in both tails)."""
    return (x * _minus_inv_sqrt2(flint.ctx.prec)).erfc() / 2


def decimal_string(x: mpf, digits: int, rounding: str = "up") -> str:
    """``x`` as a decimal string of ``digits`` significant digits, rounded towards +inf
    (``"up"``, for upper bounds), -inf (``"down"``) or to nearest (``"nearest"``).

    The conversion is exact before the one rounding, so an upper bound printed with "up"
    is still an upper bound.

    >>> from mpmath import mpf
    >>> decimal_string(mpf(1) / 3, 5), decimal_string(mpf(1) / 3, 5, "down")
    ('0.33334', '0.33333')
    """
    import decimal

    if not isinstance(x, mpf):  # an mpf is used as it is: mpf(x) would round it
        x = mpf(x)
    if not mpmath.isfinite(x):
        return str(x)
    sign, man, exp, _ = x._mpf_
    ctx = decimal.Context(prec=max(60, abs(int(exp)) + man.bit_length() + 10))
    d = ctx.multiply(decimal.Decimal(int(man)), ctx.power(decimal.Decimal(2), int(exp)))
    if sign:
        d = -d
    mode = {"up": decimal.ROUND_CEILING, "down": decimal.ROUND_FLOOR,
            "nearest": decimal.ROUND_HALF_EVEN}[rounding]
    out = decimal.Context(prec=digits, rounding=mode).plus(d)
    return str(out) if out != 0 else "0"
