"""Exact-rational helpers shared by the constrained results (ceilings are taken exactly)."""

from __future__ import annotations

import numbers
from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.errors import HypothesisError, require
from dpsym.numerics import Number


def _exact(x: Number, name: str, ref: str) -> Fraction:
    """An input as an exact rational: decimal strings exactly, floats as their binary value."""
    if isinstance(x, bool) or not (isinstance(x, str) or (isinstance(x, numbers.Real)
                                   and not hasattr(x, "__len__"))):
        raise HypothesisError(name, x, "a real number", ref)
    try:
        if isinstance(x, mpf):
            return Fraction(mpmath.nstr(x, 60, min_fixed=-10**6, max_fixed=10**6))
        if isinstance(x, numbers.Integral):
            return Fraction(int(x))  # Fraction(numpy.int64(3)) keeps a numpy numerator
        if isinstance(x, numbers.Real) and not isinstance(x, float | Fraction):
            return Fraction(float(x))  # numpy floats
        return Fraction(x)
    except (TypeError, ValueError, OverflowError, ZeroDivisionError):
        raise HypothesisError(name, x, "a finite real number", ref) from None


def _ceil(x: Fraction) -> int:
    """Exact ceiling of a rational (the theorems' ceilings must not see float noise)."""
    return -(-x.numerator // x.denominator)


def _require_eta_le_2_over_M(eta: Number, M: Number | None, ref: str) -> None:
    """The step-size hypothesis eta <= 2/M of Thms 4.3 and 4.6, checked exactly when M is given."""
    if M is not None:
        Mq = _exact(M, "M", ref)
        require(Mq > 0 and _exact(eta, "eta", ref) <= 2 / Mq, "eta", eta,
                f"eta <= 2/M = {show(2 / Mq)}", ref)


def show(q: Fraction) -> str:
    """A rational for a message, 6 digits, however large (float(q) may overflow)."""
    with mpmath.workdps(15):
        return mpmath.nstr(mpf(q.numerator) / q.denominator, 6)


def q_ratio(L: Number, n: Number, eta: Number, D: Number, ref: str,
            n_name: str = "n") -> Fraction:
    """q = D n / (eta L), exactly (its ceiling enters Thm 4.3); ``n_name`` is the caller's
    name for n (b in Thm 4.6)."""
    Lq, nq, eq, Dq = (_exact(v, k, ref) for v, k in ((L, "L"), (n, n_name), (eta, "eta"),
                                                      (D, "D")))
    require(Lq > 0, "L", L, "L > 0", ref)
    require(nq > 0, n_name, n, f"{n_name} > 0", ref)
    require(eq > 0, "eta", eta, "eta > 0", ref)
    require(Dq > 0, "D", D, "D > 0 (diameter)", ref)
    return Dq * nq / (eq * Lq)
