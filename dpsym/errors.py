"""Hypothesis checks shared by every public function: dpsym's one validation layer.

A parameter outside a statement's hypotheses raises :class:`HypothesisError`, a
``ValueError`` whose message names the parameter, its value, the violated hypothesis
and the statement, e.g. ``sigma=-1 violates sigma > 0 (Mironov et al. 2019, Sec. 3)``.
Nothing in dpsym returns NaN for bad input.

What counts as a number (every public function, before any arithmetic):

* a *real* is an ``int``, ``float``, decimal ``str``, ``Fraction``, ``mpf`` or a numpy
  real scalar; never a ``bool``, ``bytes``, ``complex``, ``None``, a sequence or an array
  (:func:`dpsym.numerics.to_mpf` coerces, rejecting NaN and, by default, infinities);
* an *integer* (:func:`require_integer`) is an ``int``, a numpy integer, an integral
  ``Fraction``, or an integral ``float``/``mpf``/decimal string, at most
  :data:`MAX_INTEGER` in absolute value unless the caller documents a larger cap (a float
  above 2**53 is not exactly an integer the user typed);
* a *sequence* of reals (:func:`require_sequence`) is a list, tuple, range or 1-d array;
  never a string (which would be read character by character), bytes, a generator (which
  would be consumed by the first pass) or a scalar;
* ``dps`` (:func:`require_dps`) is an integer in [:data:`MIN_DPS`, :data:`MAX_DPS`].

Caches (``functools.lru_cache``) sit behind these checks, never in front of them: a cache
keyed on an unvalidated argument would answer ``True`` or ``2+0j`` with a stored value.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Real

import mpmath

__all__ = [
    "MAX_DPS",
    "MAX_INTEGER",
    "MIN_DPS",
    "HypothesisError",
    "require",
    "require_dps",
    "require_integer",
    "require_sequence",
]

#: The precision a caller may ask for, in decimal digits.  Below 5 digits a bound rounded
#: up is meaningless; above 1000 every function is slow (mpmath's cost grows faster than
#: linearly) and nothing in the covered papers needs it.
MIN_DPS = 5
MAX_DPS = 1000

#: The largest integer argument accepted unless a function documents its own cap: 2**53,
#: the largest range in which a float still names exactly one integer.  Orders, step
#: counts and dataset sizes beyond it describe no training run.
MAX_INTEGER = 2**53


class HypothesisError(ValueError):
    """A parameter violates a hypothesis of the statement being evaluated."""

    def __init__(self, name: str, value: object, hypothesis: str, ref: str) -> None:
        self.name = name
        self.value = value
        self.hypothesis = hypothesis
        self.ref = ref
        super().__init__(f"{name}={_show(value)} violates {hypothesis} ({ref})")


def _show(value: object) -> str:
    if isinstance(value, mpmath.mpf):
        return mpmath.nstr(value, 15)
    text = (value if value.strip() else repr(value)) if isinstance(value, str) else str(value)
    # a 10^308-digit integer or a long list would bury the message
    return text if len(text) <= 80 else text[:37] + "..." + text[-20:]


def require(ok: bool, name: str, value: object, hypothesis: str, ref: str) -> None:
    """Raise :class:`HypothesisError` unless ``ok``."""
    if not ok:
        raise HypothesisError(name, value, hypothesis, ref)


def require_integer(name: str, value: object, ref: str, minimum: int | None = None,
                    maximum: int | None = MAX_INTEGER) -> int:
    """Return ``value`` as an ``int`` if it is integral and in ``[minimum, maximum]``, else raise.

    ``maximum`` defaults to :data:`MAX_INTEGER`; pass ``None`` for no upper cap.
    """
    if isinstance(value, bool):
        raise HypothesisError(name, value, "an integer (not a bool)", ref)
    if isinstance(value, int):
        n = value
    elif isinstance(value, Integral) or (isinstance(value, Fraction)
                                         and value.denominator == 1):
        n = int(value)  # numpy and other registered integer types, integral Fractions
    elif isinstance(value, float | mpmath.mpf) and math.isfinite(float(value)):
        if value != int(value):
            raise HypothesisError(name, value, "an integer", ref)
        n = int(value)
    elif isinstance(value, str):
        try:
            f = Fraction(value.strip())  # "12", "1e12" and "1.2e3" name integers exactly
        except (ValueError, ZeroDivisionError):
            raise HypothesisError(name, value, "an integer", ref) from None
        if f.denominator != 1:
            raise HypothesisError(name, value, "an integer", ref)
        n = int(f)
    elif isinstance(value, Real) and math.isfinite(float(value)) and float(value).is_integer():
        n = int(value)  # e.g. numpy.float32(5.0)
    else:
        raise HypothesisError(name, value, "an integer", ref)
    if minimum is not None and n < minimum:
        raise HypothesisError(name, value, f"{name} >= {minimum}", ref)
    if maximum is not None and n > maximum:
        raise HypothesisError(name, value, f"{name} <= {maximum} (the cap on this integer)", ref)
    return n


def require_dps(dps: object, ref: str = "dpsym precision policy") -> int:
    """``dps`` as an ``int`` in [:data:`MIN_DPS`, :data:`MAX_DPS`], else :class:`HypothesisError`.

    >>> require_dps(30)
    30
    >>> require_dps(4)
    Traceback (most recent call last):
    ...
    dpsym.errors.HypothesisError: dps=4 violates 5 <= dps <= 1000 (dpsym precision policy)
    """
    if isinstance(dps, bool) or not isinstance(dps, Integral):  # not "30", 30.0 or None
        raise HypothesisError("dps", dps, f"an integer with {MIN_DPS} <= dps <= {MAX_DPS}", ref)
    n = int(dps)
    require(MIN_DPS <= n <= MAX_DPS, "dps", dps, f"{MIN_DPS} <= dps <= {MAX_DPS}", ref)
    return n


def require_sequence(name: str, value: object, ref: str, *, nonempty: bool = True,
                     max_length: int | None = None) -> list:
    """``value`` as a list if it is a list, tuple, range or 1-d array, else raise.

    Strings, bytes, generators, iterators, mappings, sets and scalars are rejected: a
    string would be iterated character by character and a generator consumed by the first
    pass over it.  Elements are not coerced here (the caller coerces each with its name).
    """
    if isinstance(value, list | tuple | range):
        out = list(value)
    elif type(value).__module__ == "numpy" and getattr(value, "ndim", None) == 1:
        out = list(value.tolist())
    else:
        kind = type(value).__name__
        raise HypothesisError(name, _short(value), f"a list or tuple of numbers (got {kind})", ref)
    if nonempty and not out:
        raise HypothesisError(name, out, "a non-empty sequence", ref)
    if max_length is not None and len(out) > max_length:
        raise HypothesisError(name, f"{len(out)} values", f"at most {max_length} values "
                              "(the cap on this sequence)", ref)
    return out


def _short(value: object) -> object:
    text = repr(value)
    return text if len(text) <= 60 else text[:57] + "..."
