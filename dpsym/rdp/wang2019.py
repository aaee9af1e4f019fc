"""Wang, Balle & Kasiviswanathan 2019 bounds for subsampling without replacement (Gaussian case).

Wang et al. 2019 (Thm 9, Prop. 11) bound the RDP of a mechanism run on a uniformly random
fixed-size subset, replace-one adjacency.  Birrell et al. 2024 (App. E) specialise them to one
DP-SGD step with noise multiplier sigma, whose base Gaussian mechanism (mean shift r_t,
std sigma~_t = sigma r_t / 2) has RDP eps(j) = 2 j / sigma^2 (eqs. (128)-(129)), and with
eps(infinity) = infinity so that the min{...} factors of Thm 9 become 4 (e^{eps(2)} - 1)
and 2:

    K(alpha) = log[1 + 2 q^2 alpha(alpha-1)(e^{eps(2)} - 1)
                   + sum_{j=3}^{alpha} 2 q^j C(alpha, j) e^{(j-1) eps(j)}]          (127)

upper bound eps'(alpha) <= K(alpha)/(alpha-1) for integer alpha >= 2; linear
interpolation of K for real alpha >= 2 (130); eps'(alpha) <= K(2) on (1, 2) (131)-(132).
Lower bound, integer alpha >= 2 (133):

    eps'(alpha) >= alpha/(alpha-1) log(1-q)
                   + 1/(alpha-1) log[1 + alpha q/(1-q) + sum_{j=2}^{alpha} C(alpha,j)
                                     (q/(1-q))^j e^{(j-1) eps(j)}].

All terms are non-negative, summed in log space at guard precision; the lower bound's two
logs cancel to O(q^2), so it is evaluated with log10(1/q) extra digits.
"""

from __future__ import annotations

import mpmath
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import (
    DEFAULT_DPS,
    GUARD_DPS,
    Number,
    logsumexp,
    precision,
    round_down,
    round_up,
    to_mpf,
)

__all__ = ["base_rdp", "wang_K", "wang_lower_rdp", "wang_upper_rdp"]

REF = "Wang, Balle & Kasiviswanathan 2019, via Birrell et al. 2024"


def _sq(sigma: Number, q: Number, ref: str) -> tuple[mpf, mpf]:
    s = to_mpf(sigma, "sigma", ref)
    require(s > 0, "sigma", sigma, "sigma > 0", ref)
    qv = to_mpf(q, "q", ref)
    require(0 <= qv < 1, "q", q, "0 <= q < 1", ref)
    return s, qv


def _log_binom(n: int, k: int) -> mpf:
    return mpmath.loggamma(n + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(n - k + 1)


def _eps(j: int | mpf, s: mpf) -> mpf:
    """eps(j) = 2 j / sigma^2 of (128)-(129) at the current precision."""
    return 2 * j / (s * s)


def base_rdp(j: Number, sigma: Number, dps: int = DEFAULT_DPS) -> mpf:
    """eps(j) = 2 j / sigma^2, the RDP of order j of the base Gaussian step (128)-(129)
    (mean shift r_t, std sigma r_t / 2), rounded up to ``dps`` digits.

    >>> from dpsym.numerics import nstr
    >>> nstr(base_rdp(2, "0.7", dps=30), 25)
    '8.163265306122448979591837'
    """
    ref = REF + ", eqs. (128)-(129)"
    with precision(dps + GUARD_DPS):
        jv, s = to_mpf(j, "j", ref), to_mpf(sigma, "sigma", ref)
        require(s > 0, "sigma", sigma, "sigma > 0", ref)
        out = _eps(jv, s)
    return round_up(out, dps)


def _k_int(a: int, s: mpf, qv: mpf) -> mpf:
    """K(alpha) of (127) at the current precision (integer alpha >= 2)."""
    if qv == 0:
        return mpf(0)

    def eps(j: int) -> mpf:
        return _eps(j, s)

    logq = mpmath.log(qv)
    terms = [mpmath.log(2) + 2 * logq + mpmath.log(a) + mpmath.log(a - 1)
             + mpmath.log(mpmath.expm1(eps(2)))]
    terms += [mpmath.log(2) + j * logq + _log_binom(a, j) + (j - 1) * eps(j)
              for j in range(3, a + 1)]
    lx = logsumexp(terms)
    return mpmath.log1p(mpmath.exp(lx))


def wang_K(alpha: int, sigma: Number, q: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """K_t(alpha) of eq. (127) (integer alpha >= 2), rounded up."""
    ref = REF + ", eq. (127)"
    a = require_integer("alpha", alpha, ref, minimum=2)
    with precision(dps + GUARD_DPS):
        s, qv = _sq(sigma, q, ref)
        out = _k_int(a, s, qv)
    return round_up(out, dps)


def wang_upper_rdp(alpha: Number, sigma: Number, q: Number, *, steps: int = 1,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. 2019 upper bound on FSwoR replace-one RDP, eqs. (127), (130), (132).

    Integer alpha >= 2: K(alpha)/(alpha-1); real alpha > 2: the K-interpolation (130);
    1 < alpha < 2: K(2) (132, flat).  Times ``steps``; rounded up.
    """
    ref = REF + ", eqs. (127)/(130)/(132)"
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", ref)
        require(a > 1, "alpha", alpha, "alpha > 1", ref)
        s, qv = _sq(sigma, q, ref)
        t = require_integer("steps", steps, ref + " (composition)", minimum=1)
        if a < 2:
            out = _k_int(2, s, qv)
        else:
            fl = int(mpmath.floor(a))
            frac = a - fl
            out = (1 - frac) / (a - 1) * _k_int(fl, s, qv)
            if frac > 0:
                out += frac / (a - 1) * _k_int(fl + 1, s, qv)
        out *= t
    return round_up(out, dps)


def wang_lower_rdp(alpha: int, sigma: Number, q: Number, *, steps: int = 1,
                   dps: int = DEFAULT_DPS) -> mpf:
    """Wang et al. 2019 lower bound (Prop. 11) on FSwoR replace-one RDP, eq. (133).

    Integer alpha >= 2 only.  Times ``steps``; rounded *down* (it is a lower bound).
    """
    ref = REF + ", eq. (133)"
    a = require_integer("alpha", alpha, ref, minimum=2)
    t = require_integer("steps", steps, ref + " (composition)", minimum=1)
    with precision(dps + GUARD_DPS):
        s, qv = _sq(sigma, q, ref)
        if qv == 0:
            return mpf(0)
        extra = int(-mpmath.log10(qv)) * 2 + GUARD_DPS
    with precision(dps + GUARD_DPS + extra):
        s, qv = _sq(sigma, q, ref)
        r = qv / (1 - qv)
        logr = mpmath.log(r)
        terms = [mpf(0), mpmath.log(a) + logr]
        terms += [_log_binom(a, j) + j * logr + (j - 1) * _eps(j, s)
                  for j in range(2, a + 1)]
        out = t * (a * mpmath.log1p(-qv) + logsumexp(terms)) / (a - 1)
    return round_down(out, dps)
