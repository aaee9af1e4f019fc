"""Tran & Cutkosky 2022, App. F: Propositions 13, 14, 16 and Corollary 15 (geometric sums).

alpha is the momentum parameter, N the dataset size (= epoch length), gamma the cross-batch
parameter of Algorithm 2.  Each function returns the exact left-hand side next to the printed
bound, both as mpf at ``dps`` digits, after checking the statement's hypotheses:

* Prop. 13: ``sum_{i>=0} (1-alpha)^{Ni} = 1 / (1 - (1-alpha)^N)``
  ``<= max(1, 1/(alpha N)) / (1 - e^-1)``;
* Prop. 14: ``sum_{i>=0} (1-gamma)^{-i} (1-alpha)^{Ni} <= max(1, 1/(alpha N - ln(1/(1-gamma))))
  / (1 - e^-1)`` for ``ln(1/(1-gamma)) / N <= alpha <= 1``, and its special case ``1/(1 - e^-1)``
  for gamma <= 1/2, alpha >= (1 + ln 2)/N (:func:`prop_14_special`);
* Cor. 15: ``sum_{j<i} (1-gamma)^j (1-alpha)^{(i-1-j)N} <= (1-gamma)^{i-1} * Prop. 14's bound``;
* Prop. 16: ``sum_i b_i gamma^{2 (s mod 2^i)} <= 1 + sum_{i=1}^{R} gamma^{2^i}`` over the binary
  digits of s (exact rationals; the paper never uses it).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, to_mpf
from dpsym.papers.registry import cite
from dpsym.rdp.arb_series import exact_fraction

__all__ = [
    "SumVsBound",
    "cor_15",
    "prop_13",
    "prop_14",
    "prop_14_proof_first_line",
    "prop_14_special",
    "prop_16",
    "prop_16_exhaustive",
]

PAPER = "tran2022"


@dataclass(frozen=True)
class SumVsBound:
    """Exact value of a statement's left-hand side and the printed bound."""

    value: mpf
    bound: mpf
    hypothesis_holds: bool = True

    @property
    def holds(self) -> bool:
        return self.value <= self.bound


def _alpha_N(alpha: Number, N: Number, ref: str) -> tuple[mpf, int]:
    n = require_integer("N", N, ref, minimum=1)
    a = to_mpf(alpha, "alpha", ref)
    require(0 < a <= 1, "alpha", alpha, "0 < alpha <= 1", ref)
    return a, n


def prop_13(alpha: Number, N: Number, dps: int = DEFAULT_DPS) -> SumVsBound:
    """Proposition 13: ``sum_{i>=0} (1-alpha)^{Ni} <= max(1, 1/(alpha N)) / (1 - e^-1)``.

    >>> from dpsym.numerics import nstr
    >>> r = prop_13("0.01", 100)
    >>> nstr(r.value, 12), nstr(r.bound, 12)
    ('1.57736753009', '1.58197670687')
    """
    ref = cite(PAPER, "Prop. 13")
    with precision(dps + GUARD_DPS):
        a, n = _alpha_N(alpha, N, ref)
        value = 1 / (1 - (1 - a) ** n)
        bound = max(mpf(1), 1 / (a * n)) / (1 - mpmath.exp(-1))
    with precision(dps):
        return SumVsBound(+value, +bound)


def _prop_14_parts(alpha: Number, gamma: Number, N: Number, ref: str) -> tuple[mpf, mpf, mpf, int]:
    a, n = _alpha_N(alpha, N, ref)
    g = to_mpf(gamma, "gamma", ref)
    require(0 < g < 1, "gamma", gamma, "0 < gamma < 1 (gamma = 1 makes (1-gamma)^-i undefined)",
            ref)
    lg = mpmath.log(1 / (1 - g))
    return a, g, lg, n


def prop_14(alpha: Number, gamma: Number, N: Number, dps: int = DEFAULT_DPS) -> SumVsBound:
    """Proposition 14: ``sum_i (1-gamma)^{-i} (1-alpha)^{Ni} <= max(1, 1/(alpha N - ln 1/(1-gamma)))
    / (1 - e^-1)`` for ``ln(1/(1-gamma))/N <= alpha <= 1``.

    At ``alpha N = ln(1/(1-gamma))`` the bound is +inf (the statement is then trivially true).
    """
    ref = cite(PAPER, "Prop. 14")
    with precision(dps + GUARD_DPS):
        a, g, lg, n = _prop_14_parts(alpha, gamma, N, ref)
        require(a * n >= lg, "alpha", alpha,
                f"alpha >= ln(1/(1-gamma))/N = {mpmath.nstr(lg / n, 15)}", ref)
        ratio = (1 - a) ** n / (1 - g)
        value = 1 / (1 - ratio)
        gap = a * n - lg
        bound = mpmath.inf if gap == 0 else max(mpf(1), 1 / gap) / (1 - mpmath.exp(-1))
    with precision(dps):
        return SumVsBound(+value, +bound)


def prop_14_special(alpha: Number, gamma: Number, N: Number, dps: int = DEFAULT_DPS) -> SumVsBound:
    """Prop. 14's special case: the sum is ``<= 1/(1 - e^-1)`` when gamma <= 1/2 and
    alpha >= (1 + ln 2)/N.

    No hypothesis is enforced here: ``hypothesis_holds`` reports whether the special case's
    conditions are met, so the bound can be examined where Lemma 7 uses it (alpha = 1/N).
    The sum must converge: ``(1-alpha)^N < 1 - gamma``.
    """
    ref = cite(PAPER, "Prop. 14 (special case)")
    with precision(dps + GUARD_DPS):
        a, g, _lg, n = _prop_14_parts(alpha, gamma, N, ref)
        ratio = (1 - a) ** n / (1 - g)
        require(ratio < 1, "alpha", alpha, "(1-alpha)^N < 1 - gamma (a convergent sum)", ref)
        value = 1 / (1 - ratio)
        bound = 1 / (1 - mpmath.exp(-1))
        ok = g <= mpf(1) / 2 and a * n >= 1 + mpmath.log(2)
    with precision(dps):
        return SumVsBound(+value, +bound, bool(ok))


def prop_14_proof_first_line(alpha: Number, gamma: Number, N: Number,
                             dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """Prop. 14's proof, first line, as printed: ``sum_i (1-gamma)^{-i} (1-alpha)^{Ni}`` "="
    ``sum_i ((1-alpha)^N)^i``.  Returns (left side, right side) exactly summed; they differ for
    every gamma > 0 (the (1-gamma)^{-i} factor is dropped, restored on the next line)."""
    ref = cite(PAPER, "Prop. 14 (proof)")
    with precision(dps + GUARD_DPS):
        a, g, _lg, n = _prop_14_parts(alpha, gamma, N, ref)
        ratio = (1 - a) ** n / (1 - g)
        require(ratio < 1, "alpha", alpha, "(1-alpha)^N < 1 - gamma (a convergent sum)", ref)
        lhs = 1 / (1 - ratio)
        rhs = 1 / (1 - (1 - a) ** n)
    with precision(dps):
        return +lhs, +rhs


def cor_15(alpha: Number, gamma: Number, N: Number, i: int,
           dps: int = DEFAULT_DPS) -> SumVsBound:
    """Corollary 15: ``sum_{j<i} (1-gamma)^j (1-alpha)^{(i-1-j)N} <= (1-gamma)^{i-1} B`` with B the
    bound of Prop. 14."""
    ref = cite(PAPER, "Cor. 15")
    i = require_integer("i", i, ref, minimum=1)
    with precision(dps + GUARD_DPS):
        a, g, _lg, n = _prop_14_parts(alpha, gamma, N, ref)
        value = mpmath.fsum((1 - g) ** j * (1 - a) ** ((i - 1 - j) * n) for j in range(i))
        bound = (1 - g) ** (i - 1) * prop_14(a, g, n, dps=dps + GUARD_DPS).bound
    with precision(dps):
        return SumVsBound(+value, +bound)


def prop_16(gamma: Number | Fraction, s: int) -> tuple[Fraction, Fraction]:
    """Proposition 16 for one s, exactly: ``(sum_i b_i gamma^{2 (s mod 2^i)},``
    ``1 + sum_{i=1}^R gamma^{2^i})`` with R = floor(log2 s) (gamma an exact rational)."""
    ref = cite(PAPER, "Prop. 16")
    g = exact_fraction(gamma, "gamma", ref)
    require(0 < g < 1, "gamma", gamma, "0 < gamma < 1", ref)
    s = require_integer("s", s, ref, minimum=1)
    R = s.bit_length() - 1
    lhs = sum((g ** (2 * (s % (1 << i))) for i in range(R + 1) if (s >> i) & 1), Fraction(0))
    rhs = 1 + sum((g ** (1 << i) for i in range(1, R + 1)), Fraction(0))
    return lhs, rhs


def prop_16_exhaustive(R_max: int = 10,
                       gammas: tuple[Fraction, ...] = (Fraction(1, 10), Fraction(1, 2),
                                                       Fraction(9, 10))) -> tuple[int, int]:
    """(cases, violations) of Prop. 16 over every s < 2^(R_max+1), with the bound at R = R_max.

    The statement's R is the length of the binary expansion; padding with zero digits only
    raises the right-hand side, so the bound at R = R_max covers every shorter s as well, and
    :func:`prop_16` (tightest R) is checked too.
    """
    cases = bad = 0
    for g in gammas:
        wide = 1 + sum((g ** (1 << i) for i in range(1, R_max + 1)), Fraction(0))
        for s in range(1, 1 << (R_max + 1)):
            lhs, rhs = prop_16(g, s)
            cases += 1
            bad += lhs > rhs or lhs > wide
    return cases, bad
