"""Exact Renyi divergences of Gaussian chains: the oracle for PABI bounds.

Privacy amplification by iteration (Feldman et al. 2018; Bravo, Flores-Mella & Guzman 2025,
Lemmas 3.2-3.3, Thm 3.4) bounds ``R_alpha(X_T || X'_T)`` for two noisy iterations started
apart.  Two families of instances have an exact divergence, computed here in closed form:

* **linear chains** ``X_{t+1} = a_t X_t + b_t + xi_t``, ``xi_t ~ N(0, sigma_t^2 I_d)``, started
  at two points ``D`` apart (no projection: the domain ``R^d`` is closed and convex).  Both
  laws are Gaussian with the same covariance ``V_T I_d`` and means ``Delta_T`` apart, where

      Delta_{t+1} = a_t Delta_t,  Delta_0 = D;      V_{t+1} = a_t^2 V_t + sigma_t^2,  V_0 = 0,

  so ``R_alpha = alpha Delta_T^2 / (2 V_T)`` (the Renyi divergence of two Gaussians with a
  common covariance).  The map ``x -> a_t x + b_t`` has the modulus ``|a_t| delta``, so any
  ``(c_t, h_t)`` with ``c_t >= a_t^2`` is a modulus ``sqrt(c_t delta^2 + h_t)`` of it and a
  PABI bound with those moduli must dominate this value; with ``c_t = a_t^2, h_t = 0`` it is
  attained (Theorem 3.4's first term).
* **one projected step** ``Y = Pi_[lo, hi](m + xi)``, ``xi ~ N(0, sigma^2)``: atoms at the ends
  and the Gaussian density inside, for two means ``m1, m2``.  With
  ``m_alpha = alpha m1 + (1 - alpha) m2`` the interior integral is closed form,
  ``int_lo^hi p1^alpha p2^(1-alpha) = exp(alpha (alpha-1) (m1-m2)^2 / (2 sigma^2))
  [Phi((hi - m_alpha)/sigma) - Phi((lo - m_alpha)/sigma)]``, and each atom contributes
  ``P1^alpha P2^(1-alpha)``.

Values are computed with guard digits and rounded to nearest: they are the quantities a
bound must dominate, not bounds themselves.
"""

from __future__ import annotations

from collections.abc import Sequence

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, Phi, precision, to_mpf
from dpsym.papers.registry import cite

__all__ = [
    "linear_chain_law",
    "linear_chain_renyi",
    "linear_chain_renyi_symbolic",
    "projected_gaussian_renyi",
]

REF = cite("bravo2025", "Lemmas 3.2-3.3 (exact Gaussian instances)")


def _recursion(D: object, a: Sequence, sigma2: Sequence) -> tuple[object, object]:
    """(Delta_T, V_T) by the recursion of the module docstring (any arithmetic)."""
    gap, var = D, 0
    for at, st in zip(a, sigma2, strict=True):
        gap, var = at * gap, at * at * var + st
    return gap, var


def linear_chain_law(D: Number, a: Sequence[Number], sigma2: Sequence[Number],
                     dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """``(Delta_T, V_T)``: the mean gap and the per-coordinate variance of ``X_T`` for the
    linear chains of the module docstring (``a_t`` real slopes, ``sigma2`` the variances).

    >>> from dpsym.numerics import nstr
    >>> gap, var = linear_chain_law(1, [2, 2], [1, 1])       # 2 * 2 * 1; 2^2 * 1 + 1
    >>> nstr(gap, 5), nstr(var, 5)
    ('4.0', '5.0')
    """
    with precision(dps + GUARD_DPS):
        Dv = to_mpf(D, "D", REF)
        require(Dv >= 0, "D", D, "D >= 0 (the distance between the starts)", REF)
        av = [to_mpf(x, f"a[{i}]", REF) for i, x in enumerate(a)]
        sv = [to_mpf(x, f"sigma2[{i}]", REF) for i, x in enumerate(sigma2)]
        require(len(av) >= 1, "a", a, "length T >= 1", REF)
        require(len(sv) == len(av), "sigma2", sigma2, f"the same length as a ({len(av)})", REF)
        for i, s in enumerate(sv):
            require(s > 0, f"sigma2[{i}]", s, "sigma_t^2 > 0", REF)
        gap, var = _recursion(Dv, av, sv)
    with precision(dps):
        return +gap, +var


def linear_chain_renyi(alpha: Number, D: Number, a: Sequence[Number], sigma2: Sequence[Number],
                       dps: int = DEFAULT_DPS) -> mpf:
    """Exact ``R_alpha(X_T || X'_T) = alpha Delta_T^2 / (2 V_T)`` for two linear Gaussian
    chains started ``D`` apart (module docstring); ``alpha >= 1`` (``alpha = 1`` is KL).

    >>> from dpsym.numerics import nstr
    >>> nstr(linear_chain_renyi(2, 1, [1] * 4, [1] * 4), 10)     # 2 * 1/(2 * 4)
    '0.25'
    """
    with precision(dps + GUARD_DPS):
        al = to_mpf(alpha, "alpha", REF)
        require(al >= 1, "alpha", alpha, "alpha >= 1", REF)
        gap, var = linear_chain_law(D, a, sigma2, dps=dps + GUARD_DPS)
        out = al * gap * gap / (2 * var)
    with precision(dps):
        return +out


def linear_chain_renyi_symbolic(T: int, alpha: sp.Expr, D: sp.Expr, a: Sequence[sp.Expr],
                                sigma2: Sequence[sp.Expr]) -> sp.Expr:
    """:func:`linear_chain_renyi` as a sympy expression (the same recursion on symbols)."""
    require(len(a) == T and len(sigma2) == T, "a", a, f"T = {T} slopes and variances", REF)
    gap, var = _recursion(D, a, sigma2)
    return sp.together(alpha * gap ** 2 / (2 * var))


def projected_gaussian_renyi(alpha: Number, m1: Number, m2: Number, sigma2: Number,
                             lo: Number = -1, hi: Number = 1, dps: int = DEFAULT_DPS) -> mpf:
    """Exact ``R_alpha(Pi_[lo,hi] N(m1, sigma2) || Pi_[lo,hi] N(m2, sigma2))``, ``alpha > 1``
    (module docstring; no quadrature).  By data processing it is at most
    ``alpha (m1 - m2)^2 / (2 sigma2)``.

    >>> from dpsym.numerics import nstr
    >>> nstr(projected_gaussian_renyi(2, "0.5", "-0.5", 1, -100, 100), 10)   # no clipping
    '1.0'
    """
    with precision(dps + GUARD_DPS):
        al = to_mpf(alpha, "alpha", REF)
        require(al > 1, "alpha", alpha, "alpha > 1", REF)
        m1v, m2v = to_mpf(m1, "m1", REF), to_mpf(m2, "m2", REF)
        s2 = to_mpf(sigma2, "sigma2", REF)
        require(s2 > 0, "sigma2", sigma2, "sigma2 > 0", REF)
        lov, hiv = to_mpf(lo, "lo", REF), to_mpf(hi, "hi", REF)
        require(lov < hiv, "hi", hi, f"hi > lo = {lo}", REF)
        s = mpmath.sqrt(s2)
        mix = al * m1v + (1 - al) * m2v
        total = (mpmath.exp(al * (al - 1) * (m1v - m2v) ** 2 / (2 * s2))
                 * (Phi((hiv - mix) / s) - Phi((lov - mix) / s)))
        for p1, p2 in ((Phi((lov - m1v) / s), Phi((lov - m2v) / s)),
                       (Phi((m1v - hiv) / s), Phi((m2v - hiv) / s))):
            total += p1 ** al * p2 ** (1 - al)
        out = mpmath.log(total) / (al - 1)
    with precision(dps):
        return +max(out, mpf(0))
