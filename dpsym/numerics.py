"""Precision core: coercion, the normal distribution, log-space sums, root finding, formatting.

Every public numeric function in dpsym takes plain numbers (``int``, ``float``, ``str``,
``Fraction`` or ``mpf``) and an optional ``dps`` (decimal digits, default
:data:`DEFAULT_DPS`), computes in mpmath with :data:`GUARD_DPS` extra digits and returns
an ``mpf`` at ``dps`` digits.  A privacy bound is rounded *up* to ``dps`` digits
(:func:`round_up`), so the returned number is never smaller than the value computed with
the guard digits.

Floats are converted exactly (``0.1`` is the binary double nearest 0.1); pass strings or
``Fraction`` to mean decimal values exactly.

>>> from dpsym.numerics import Phi, Phi_inv, nstr, precision
>>> with precision(30):
...     nstr(Phi_inv("1e-300"), 20)
'-37.047096299361199237'
>>> nstr(Phi(Phi_inv("0.025")), 10)
'0.025'
"""

from __future__ import annotations

import contextlib
import contextvars
import math
import numbers
from collections.abc import Callable, Iterable, Iterator, Sequence
from fractions import Fraction
from typing import Literal, TypeAlias

import mpmath
from mpmath import libmp, mp, mpf

from dpsym.errors import MAX_DPS, MIN_DPS, HypothesisError, require, require_integer

__all__ = [
    "DEFAULT_DPS",
    "GUARD_DPS",
    "Number",
    "Phi",
    "Phi_inv",
    "agreeing_digits",
    "find_root",
    "log1mexp",
    "log_sum_signed",
    "logsumexp",
    "minimize_scalar",
    "ncdf",
    "nstr",
    "phi",
    "precision",
    "round_down",
    "round_up",
    "to_mpf",
]

DEFAULT_DPS = 50


class _GuardDigits(int):
    """The int 10, whose reflected addition validates the caller's ``dps``.

    Every public function starts with ``precision(dps + GUARD_DPS)``.  For an int ``dps``
    this is plain addition; for a ``dps`` that is not a number (a string, None, a list, a
    generator) Python falls back to ``GUARD_DPS.__radd__``, which raises the
    :class:`HypothesisError` naming ``dps`` instead of a TypeError from deep inside.  (A
    bool or float reaches :func:`precision` and is rejected there; a value out of
    [MIN_DPS, MAX_DPS] by :func:`precision` and :func:`round_up`.)
    """

    def __radd__(self, other: object) -> int:
        if isinstance(other, numbers.Integral) and not isinstance(other, bool):
            return int(other) + int(self)
        raise HypothesisError("dps", other, f"an integer with {MIN_DPS} <= dps <= {MAX_DPS}",
                              "dpsym precision policy")

    def __repr__(self) -> str:
        return str(int(self))


GUARD_DPS = _GuardDigits(10)

Number: TypeAlias = int | float | str | Fraction | mpf


#: Digits a function may add to the caller's ``dps`` in its outermost working precision:
#: GUARD_DPS, the ledger's re-evaluation at dps + 20, and a few digits of cancellation.
OUTER_SLACK_DPS = 40
#: The cap on any working precision, nested ones included (functions that lose digits to
#: cancellation raise their precision inside; they never need more than 4x the cap).
MAX_WORK_DPS = 4 * MAX_DPS

_depth = contextvars.ContextVar("dpsym_precision_depth", default=0)


@contextlib.contextmanager
def precision(dps: int) -> Iterator[None]:
    """Run the body with mpmath working at ``dps`` decimal digits (restored on exit).

    Bounded work: the outermost ``precision`` of a call may exceed :data:`MAX_DPS` (the
    cap on a caller's ``dps``) by at most :data:`OUTER_SLACK_DPS` guard digits, a nested
    one at most :data:`MAX_WORK_DPS`; beyond, ``HypothesisError`` names the cap.
    """
    work = require_integer("dps", dps, "dpsym precision policy", minimum=MIN_DPS,
                           maximum=None)
    depth = _depth.get()
    cap = MAX_DPS + OUTER_SLACK_DPS if depth == 0 else MAX_WORK_DPS
    require(work <= cap, "dps", dps, f"a working precision <= {cap} digits: the caller's dps "
            f"must lie in [{MIN_DPS}, {MAX_DPS}] (dpsym.errors.MAX_DPS)",
            "dpsym precision policy")
    token = _depth.set(depth + 1)
    try:
        with mp.workdps(work):
            yield
    finally:
        _depth.reset(token)


def to_mpf(x: Number, name: str = "x", ref: str = "dpsym", allow_inf: bool = False) -> mpf:
    """Coerce ``x`` to an ``mpf`` at the current precision, rejecting NaN (and inf by default).

    ``Fraction`` and decimal strings are rounded once, at the working precision; floats and
    integers are exact.
    """
    if isinstance(x, bool):
        raise HypothesisError(name, x, "a real number (not a bool)", ref)
    try:
        if isinstance(x, Fraction):
            v = mpf(x.numerator) / x.denominator
        elif isinstance(x, mpf | int | float | str):
            v = mpf(x)
        elif isinstance(x, numbers.Integral):
            v = mpf(int(x))  # numpy integers, exactly
        elif isinstance(x, numbers.Real) and not hasattr(x, "__len__"):
            v = mpf(float(x))  # numpy floating scalars (float32 widens exactly)
        else:  # bytes, complex, None, sequences, arrays: not a real number
            raise TypeError
    except (TypeError, ValueError, OverflowError):
        raise HypothesisError(name, _brief(x), "a real number", ref) from None
    if mpmath.isnan(v):
        raise HypothesisError(name, x, "a real number (not NaN)", ref)
    if mpmath.isinf(v) and not allow_inf:
        raise HypothesisError(name, x, "a finite number", ref)
    return v


def _brief(x: object) -> object:
    text = repr(x) if not isinstance(x, str) else x
    return text if len(text) <= 60 else text[:57] + "..."


def _round(x: mpf, dps: int, mode: str) -> mpf:
    dps = require_integer("dps", dps, "dpsym precision policy", minimum=MIN_DPS,
                          maximum=MAX_WORK_DPS)
    prec = max(1, int(dps * 3.3219280948873623) + 1)
    if not isinstance(x, mpf):
        with mp.workprec(prec + 64):
            x = mpf(x)
    # make_mpf wraps the raw value as is; mpf(raw) would round again at the global precision.
    return mp.make_mpf(libmp.mpf_pos(x._mpf_, prec, mode))


def round_up(x: mpf, dps: int) -> mpf:
    """Round ``x`` towards +inf to ``dps`` decimal digits (the safe side of an upper bound)."""
    return _round(x, dps, "c")


def round_down(x: mpf, dps: int) -> mpf:
    """Round ``x`` towards -inf to ``dps`` decimal digits (the safe side of a lower bound)."""
    return _round(x, dps, "f")


def phi(x: mpf) -> mpf:
    """Standard normal density."""
    return mpmath.npdf(x)


def Phi(x: Number) -> mpf:
    """Standard normal CDF at the current precision; relative accuracy holds deep in both tails.

    mpmath evaluates it as erfc(-x/sqrt 2)/2, so Phi(-40) ~ 3.6e-350 keeps full relative
    precision; 1 - Phi(x) for large x should be computed as Phi(-x).
    """
    return ncdf(to_mpf(x, "x", "Phi"))


#: Beyond this |x| mpmath's ncdf overflows a float in its series test; :func:`ncdf`
#: switches to the asymptotic expansion, which is then exact to thousands of digits.
_NCDF_SWITCH = mpf(10) ** 140


def ncdf(x: mpf) -> mpf:
    """Standard normal CDF of an ``mpf`` at the current precision, for every finite x.

    mpmath.ncdf raises OverflowError for |x| > ~1e154.  There, 1 - Phi(x) < e^(-10^280)
    for x > 0, and for x < 0 the Mills-ratio series
    Phi(x) = phi(x)/|x| sum_k (-1)^k (2k-1)!! / x^(2k) is summed until its terms fall
    below the working precision (each term is < 10^-280 times the previous one).
    """
    if abs(x) <= _NCDF_SWITCH:
        return mpmath.ncdf(x)
    if x > 0:
        return mpf(1)
    x2 = x * x
    term, total, k = mpf(1), mpf(1), 1
    eps = mpf(2) ** (-mp.prec - 8)
    while abs(term) > eps:
        term = -term * (2 * k - 1) / x2
        total += term
        k += 1
    return mpmath.npdf(x) / -x * total


def _log_Phi(x: mpf) -> mpf:
    return mpmath.log(mpmath.ncdf(x))


def Phi_inv(p: Number) -> mpf:
    """Inverse of the standard normal CDF, at the current precision, for 0 < p < 1.

    Newton's method on log Phi (quadratic convergence) from the asymptotic tail expansion,
    so that Phi_inv(1e-300) and Phi_inv(1e-100000) keep full relative precision.  For
    p > 1/2 the symmetry Phi_inv(p) = -Phi_inv(1 - p) is used; pass the complement
    directly when 1 - p is the small, known quantity.
    """
    pv = to_mpf(p, "p", "Phi_inv")
    require(0 < pv < 1, "p", p, "0 < p < 1", "inverse normal CDF")
    if pv > mpf("0.5"):
        return -Phi_inv(1 - pv)
    if pv == mpf("0.5"):
        return mpf(0)
    logp = mpmath.log(pv)
    if logp < -2:
        t = -2 * logp
        x = -mpmath.sqrt(t - mpmath.log(t) - mpmath.log(2 * mpmath.pi))
    else:
        x = mpmath.sqrt(2) * mpmath.erfinv(2 * pv - 1)
        if x == 0:
            x = mpf(-1e-30)
    tol = mpf(2) ** (-mp.prec + 4)
    for _ in range(200):
        lp = _log_Phi(x)
        # d/dx log Phi(x) = phi(x)/Phi(x): the inverse Mills ratio, accurate in the tail.
        ratio = mpmath.exp(mpmath.log(phi(x)) - lp)
        step = (lp - logp) / ratio
        x -= step
        if abs(step) <= tol * max(1, abs(x)):
            break
    else:  # pragma: no cover - Newton on a concave log-CDF always converges here
        raise ArithmeticError(f"Phi_inv did not converge for p={p}")
    return x


def logsumexp(xs: Iterable[mpf]) -> mpf:
    """log(sum(exp(x))) without overflow; -inf entries are skipped (an empty sum is -inf)."""
    vals = [mpf(x) for x in xs]
    finite = [v for v in vals if v != mpmath.ninf]
    if not finite:
        return mpmath.ninf
    m = max(finite)
    if m == mpmath.inf:
        return mpmath.inf
    return m + mpmath.log(mpmath.fsum(mpmath.exp(v - m) for v in finite))


def log1mexp(x: mpf) -> mpf:
    """log(1 - exp(x)) for x <= 0, accurate for x near 0 and for x very negative."""
    x = mpf(x)
    require(x <= 0, "x", x, "x <= 0", "log1mexp")
    if x == 0:
        return mpmath.ninf
    if x > -mpmath.log(2):
        return mpmath.log(-mpmath.expm1(x))
    return mpmath.log1p(-mpmath.exp(x))


def log_sum_signed(terms: Sequence[tuple[int, mpf]]) -> tuple[int, mpf]:
    """Sum of ``sign * exp(logabs)`` as ``(sign, log|sum|)``, raising precision on cancellation.

    The terms are summed exactly enough: if the sum is smaller than the largest term by
    ``k`` digits, the sum is redone with ``k`` more digits, so the result keeps the working
    precision.  A zero sum returns ``(0, -inf)``.
    """
    live = [(s, mpf(la)) for s, la in terms if s != 0 and la != mpmath.ninf]
    if not live:
        return 0, mpmath.ninf
    m = max(la for _, la in live)
    base = mp.dps
    extra = 0
    total = mpf(0)
    for _ in range(8):
        with mp.workdps(base + extra):
            total = mpmath.fsum(s * mpmath.exp(la - m) for s, la in live)
            if total == 0:
                if extra > 4 * base:
                    return 0, mpmath.ninf
                extra = 2 * extra + base
                continue
            lost = -int(mpmath.floor(mpmath.log10(abs(total))))
            if lost <= extra:
                return (1 if total > 0 else -1), m + mpmath.log(abs(total))
        extra = lost + GUARD_DPS
    if total == 0:
        return 0, mpmath.ninf
    return (1 if total > 0 else -1), m + mpmath.log(abs(total))


def find_root(
    f: Callable[[mpf], mpf],
    a: Number,
    b: Number,
    *,
    lower: Number | None = None,
    upper: Number | None = None,
    side: Literal["lower", "upper", "nearest"] = "nearest",
    rtol: mpf | None = None,
    max_widen: int = 4000,
) -> mpf:
    """Root of a continuous ``f``: widen ``[a, b]`` until the sign changes, then refine.

    The bracket grows geometrically (its width doubles each time) and never passes the
    domain limits ``lower`` / ``upper``, approaching an open limit by halving the gap, so
    no fixed cap such as [0, 500] exists; ``max_widen`` only stops a function without a
    root.  Refinement is the Illinois variant of regula falsi with a bisection safeguard;
    it stops when the bracket is narrower than ``rtol`` (default: 4 ulp of the working
    precision) relative to its endpoints.

    ``side`` chooses what is returned: ``"lower"`` the left end of the final bracket (a
    value <= the root), ``"upper"`` the right end (>= the root), ``"nearest"`` the end with
    the smaller |f|.  Callers that need a privacy bound pick the side that means more loss.
    """
    a, b = mpf(a), mpf(b)
    if a > b:
        a, b = b, a
    lo = None if lower is None else mpf(lower)
    hi = None if upper is None else mpf(upper)
    fa, fb = f(a), f(b)
    widen = 0
    while fa * fb > 0:
        widen += 1
        if widen > max_widen:
            raise ArithmeticError(f"find_root: no sign change found after widening to [{a}, {b}]")
        width = b - a
        na = a - width
        nb = b + width
        if lo is not None and na <= lo:
            na = (a + lo) / 2
        if hi is not None and nb >= hi:
            nb = (b + hi) / 2
        if na == a and nb == b:
            raise ArithmeticError("find_root: bracket cannot widen further inside the domain")
        if na != a:
            a, fa = na, f(na)
        if fa * fb <= 0:
            break
        if nb != b:
            b, fb = nb, f(nb)
    if fa == 0:
        return a
    if fb == 0:
        return b
    tol = rtol if rtol is not None else mpf(2) ** (-mp.prec + 2)
    last_side = 0
    for _ in range(20 * mp.prec):
        width = b - a
        if width <= tol * max(abs(a), abs(b)) or width == 0:
            break
        c = b - fb * (b - a) / (fb - fa)
        if not (a < c < b):
            c = (a + b) / 2
        fc = f(c)
        if fc == 0:
            return c
        if fa * fc < 0:
            b, fb = c, fc
            if last_side == -1:
                fa /= 2
            last_side = -1
        else:
            a, fa = c, fc
            if last_side == 1:
                fb /= 2
            last_side = 1
        if (b - a) > width / 2:
            # Illinois stalled: force a bisection step to keep the bracket shrinking.
            m = (a + b) / 2
            fm = f(m)
            if fm == 0:
                return m
            if fa * fm < 0:
                b, fb = m, fm
            else:
                a, fa = m, fm
            last_side = 0
    if side == "lower":
        return a
    if side == "upper":
        return b
    return a if abs(fa) <= abs(fb) else b


def minimize_scalar(
    f: Callable[[mpf], mpf], a: Number, b: Number, *, rtol: mpf | None = None
) -> tuple[mpf, mpf]:
    """Golden-section search for a minimum of a unimodal ``f`` on ``[a, b]``: ``(x*, f(x*))``.

    The returned value is ``f`` evaluated at the returned point, so when ``f`` is a valid
    upper bound for every ``x`` the returned value is itself a valid bound.
    """
    a, b = mpf(a), mpf(b)
    invphi = (mpmath.sqrt(5) - 1) / 2
    tol = rtol if rtol is not None else mpf(2) ** (-mp.prec // 2 + 2)
    c = b - invphi * (b - a)
    d = a + invphi * (b - a)
    fc, fd = f(c), f(d)
    while (b - a) > tol * max(1, abs(a), abs(b)):
        if fc <= fd:
            b, d, fd = d, c, fc
            c = b - invphi * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + invphi * (b - a)
            fd = f(d)
    return (c, fc) if fc <= fd else (d, fd)


def agreeing_digits(x: Number, reference: Number, cap: int = 1000) -> int:
    """Number of significant decimal digits on which ``x`` agrees with ``reference``."""
    with mp.workprec(max(mp.prec, _prec_of(x), _prec_of(reference))):
        return _agreeing_digits(mpf(x), mpf(reference), cap)


def _prec_of(x: Number) -> int:
    """Bits in the mantissa of an mpf (its raw tuple is (sign, man, exp, bitcount))."""
    return int(x._mpf_[3]) + 8 if isinstance(x, mpf) else 64


def _agreeing_digits(x: mpf, r: mpf, cap: int) -> int:
    if x == r:
        return cap
    if r == 0:
        return 0
    rel = abs(x - r) / abs(r)
    if rel >= 1:
        return 0
    return min(cap, int(mpmath.floor(-mpmath.log10(rel))))


def nstr(x: Number, n: int = 15, **kwargs: object) -> str:
    """Deterministic decimal string of ``x`` with ``n`` significant digits (for notebooks).

    Integers and rationals are shown exactly when short; ``mpf`` and floats via
    ``mpmath.nstr`` with a fixed exponent style, so output never depends on the platform.
    """
    if isinstance(x, int) and not isinstance(x, bool):
        return str(x)
    if isinstance(x, float) and not math.isfinite(x):
        return str(x)
    # Scientific notation outside [1e-5, 1e16): mpmath's default prints 1e-18 at 60 digits
    # as 0.000000000000000001...
    kwargs.setdefault("min_fixed", -5)
    kwargs.setdefault("max_fixed", 16)
    with mp.workdps(max(mp.dps, n + 5)):
        # A Fraction is divided here, at the digits shown, not at the caller's precision.
        v = mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpf(x)
        return mpmath.nstr(v, n, **kwargs)
