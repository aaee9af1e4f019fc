"""Hypothesis checks shared by every public function.

A parameter outside a statement's hypotheses raises :class:`HypothesisError`, a
``ValueError`` whose message names the parameter, its value, the violated hypothesis
and the statement, e.g. ``sigma=-1 violates sigma > 0 (Mironov et al. 2019, Sec. 3)``.
Nothing in dpsym returns NaN for bad input.
"""

from __future__ import annotations

import math
from fractions import Fraction
from numbers import Integral, Real

import mpmath

__all__ = [
    "HypothesisError",
    "require",
    "require_integer",
]


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
    if isinstance(value, str):
        return value if value.strip() else repr(value)
    return str(value)


def require(ok: bool, name: str, value: object, hypothesis: str, ref: str) -> None:
    """Raise :class:`HypothesisError` unless ``ok``."""
    if not ok:
        raise HypothesisError(name, value, hypothesis, ref)


def require_integer(name: str, value: object, ref: str, minimum: int | None = None) -> int:
    """Return ``value`` as an ``int`` if it is integral (and ``>= minimum``), else raise."""
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
            n = int(value)
        except ValueError:
            raise HypothesisError(name, value, "an integer", ref) from None
    elif isinstance(value, Real) and math.isfinite(float(value)) and float(value).is_integer():
        n = int(value)  # e.g. numpy.float32(5.0)
    else:
        raise HypothesisError(name, value, "an integer", ref)
    if minimum is not None and n < minimum:
        raise HypothesisError(name, value, f"{name} >= {minimum}", ref)
    return n
