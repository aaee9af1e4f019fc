"""The central limit theorem for composed subsampled Gaussian tradeoff functions.

Dong, Roth & Su 2022 (DRS22), Cor. 4 (Bok et al. 2024, Lemma A.5): for mu >= 0, if
t -> oo with p sqrt(t) -> p0, then

    C_p(G(mu))^{(x) t}  ->  G( sqrt(2) p0 sqrt(K(mu)) ),
    K(mu) = e^{mu^2} Phi(3 mu / 2) + 3 Phi(-mu / 2) - 2,

where C_p is the subsampling operator (sampling rate p) and (x) t the t-fold
composition.  This is a *limit*, not a bound: at finite t it can be optimistic (the
MNIST setting of Bok et al. 2024, Table 4, is an example), so dpsym reports it as an
approximation and never as a certified privacy guarantee.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import std_normal_cdf
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, to_mpf

__all__ = ["clt_K", "clt_K_series", "clt_K_symbolic", "clt_mu"]

REF = "DRS22, Cor. 4 (Bok et al. 2024, Lemma A.5)"


@cache
def clt_K_symbolic() -> sp.Expr:
    """K(mu) = e^{mu^2} Phi(3 mu/2) + 3 Phi(-mu/2) - 2 (Lemma A.5) as a sympy expression in
    the positive symbol ``mu``; the one source of K (numbers come from :func:`clt_K`, which
    evaluates this expression).

    >>> import sympy as sp
    >>> sp.simplify(clt_K_symbolic().subs(sp.Symbol("mu", positive=True), 0))
    0
    """
    mu = sp.Symbol("mu", positive=True)
    return sp.exp(mu**2) * std_normal_cdf(3 * mu / 2) + 3 * std_normal_cdf(-mu / 2) - 2


@cache
def _K_mpmath() -> Callable[[mpf], mpf]:
    (mu,) = clt_K_symbolic().free_symbols
    return sp.lambdify(mu, clt_K_symbolic(), "mpmath")


def clt_K(mu: Number, dps: int = DEFAULT_DPS) -> mpf:
    """K(mu) = e^{mu^2} Phi(1.5 mu) + 3 Phi(-0.5 mu) - 2 (Lemma A.5), >= 0, evaluated from
    :func:`clt_K_symbolic`.

    K(mu) ~ mu^2 / 2 as mu -> 0, so the three terms cancel to about 2 log10(1/mu)
    digits; the working precision is raised by that much.

    >>> from dpsym.numerics import nstr
    >>> nstr(clt_K("1e-8", dps=30) / mpf("1e-16"), 12)
    '0.500000003989'
    """
    with precision(dps + GUARD_DPS):
        m = to_mpf(mu, "mu", REF)
        require(m >= 0, "mu", mu, "mu >= 0", REF)
        if m == 0:
            return mpf(0)
        extra = max(0, int(-2 * mpmath.log10(m))) + GUARD_DPS
    with precision(dps + extra):
        k = _K_mpmath()(to_mpf(mu))
    with precision(dps):
        return +k


@cache
def clt_K_series(order: int = 6) -> sp.Expr:
    """Taylor series of K(mu) at 0 to O(mu^order), derived by sympy from
    :func:`clt_K_symbolic`.

    >>> clt_K_series(3)
    mu**2/2
    """
    K = clt_K_symbolic()
    (mu,) = K.free_symbols
    return sp.series(K, mu, 0, order).removeO()


def clt_mu(p: Number, mu: Number, t: int, dps: int = DEFAULT_DPS) -> mpf:
    """The CLT approximation sqrt(2) p sqrt(t) sqrt(K(mu)) to the GDP parameter of
    C_p(G(mu))^{(x) t} (Lemma A.5 with p0 = p sqrt(t)).  An approximation, not a bound."""
    t = require_integer("t", t, REF, minimum=1)
    with precision(dps + GUARD_DPS):
        pp = to_mpf(p, "p", REF)
        require(0 < pp <= 1, "p", p, "0 < p <= 1 (sampling rate)", REF)
        k = clt_K(mu, dps=dps + GUARD_DPS)
        out = mpmath.sqrt(2) * pp * mpmath.sqrt(t) * mpmath.sqrt(k)
    with precision(dps):
        return +out
