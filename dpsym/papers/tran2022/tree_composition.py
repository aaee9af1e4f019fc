"""Tran & Cutkosky 2022, App. C: Algorithm 5 and Theorem 10 (tree composition of RDP).

Algorithm 5 releases ``f_i = G_i(D, earlier outputs) + N(0, Delta_i^2 / rho^2 I)`` for
i = 1..K, where ``G_i`` reads only the records in ``S_i``; ``V = max_s |{i : s in S_i}|``.

Theorem 10: Algorithm 5 is ``(alpha, V alpha rho^2 / 2)``-RDP for all alpha (here alpha is
the Renyi order, not the momentum).  The same factorisation shows it is ``rho sqrt(V)``-GDP
and ``V rho^2 / 2``-zCDP (:func:`dpsym.aggregation.tree_composition`), which converts to
(eps, delta) exactly.

After the theorem the paper converts: with ``rho <= sqrt(log(1/delta) / V)`` and the order
``alpha = 1 + sqrt(log(1/delta)) / (rho sqrt(V))``, "(V rho^2 + rho sqrt(V log(1/delta)), delta)
<= (2 rho sqrt(V log(1/delta)), delta)"-DP.  :func:`thm_10_conversion` evaluates each piece;
:func:`thm_10_conversion_symbolic` derives the value at the chosen order.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.aggregation import GaussianGuarantee, tree_composition
from dpsym.errors import require
from dpsym.fdp.gdp import gdp_epsilon
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.registry import cite
from dpsym.rdp.conversions import epsilon_from_rdp

__all__ = [
    "Thm10Conversion",
    "gaussian_renyi_product",
    "thm_10",
    "thm_10_conversion",
    "thm_10_conversion_symbolic",
    "thm_10_proof_integral",
]

PAPER = "tran2022"
REF = cite(PAPER, "Thm 10")


def thm_10(V: Number, rho: Number, dps: int = DEFAULT_DPS) -> GaussianGuarantee:
    """Theorem 10: Algorithm 5 is (alpha, V alpha rho^2/2)-RDP; V rho^2/2-zCDP; rho sqrt(V)-GDP.

    >>> from dpsym.numerics import nstr
    >>> g = thm_10(4, "0.5")
    >>> nstr(g.rdp(3), 10), nstr(g.zcdp, 10), nstr(g.mu, 10)
    ('1.5', '0.5', '1.0')
    """
    return tree_composition(V, rho, dps=dps)


@dataclass(frozen=True)
class Thm10Conversion:
    """The conversion after Theorem 10 at one (V, rho, delta), each piece as printed or exact."""

    order: mpf                  # 1 + sqrt(ell) / (rho sqrt V)
    at_order: mpf               # (alpha, V alpha rho^2/2) -> eps by Mironov 2017 at that order
    printed_intermediate: mpf   # V rho^2 + rho sqrt(V ell)
    printed_final: mpf          # 2 rho sqrt(V ell)
    exact_gdp: mpf              # tight eps of the rho sqrt(V)-GDP mechanism
    hypothesis_holds: bool      # rho <= sqrt(ell / V)


def thm_10_conversion(V: Number, rho: Number, delta: Number,
                      dps: int = DEFAULT_DPS) -> Thm10Conversion:
    """Evaluate the conversion remark after Theorem 10 (every value rounded up)."""
    with precision(dps + GUARD_DPS):
        v, r, d = to_mpf(V, "V", REF), to_mpf(rho, "rho", REF), to_mpf(delta, "delta", REF)
        require(v > 0, "V", V, "V > 0", REF)
        require(r > 0, "rho", rho, "rho > 0", REF)
        require(0 < d < 1, "delta", delta, "0 < delta < 1", REF)
        ell = mpmath.log(1 / d)
        order = 1 + mpmath.sqrt(ell) / (r * mpmath.sqrt(v))
        g = thm_10(v, r, dps=dps + GUARD_DPS)
        at = epsilon_from_rdp(order, g.rdp(order), d, "mironov2017", dps=dps + GUARD_DPS)
        inter = v * r * r + r * mpmath.sqrt(v * ell)
        final = 2 * r * mpmath.sqrt(v * ell)
        ok = r <= mpmath.sqrt(ell / v)
    return Thm10Conversion(round_up(order, dps), round_up(at, dps), round_up(inter, dps),
                           round_up(final, dps), gdp_epsilon(g.mu, d, dps=dps), bool(ok))


@dataclass(frozen=True)
class Thm10ConversionSymbolic:
    exact: Derivation           # value at the chosen order vs V rho^2/2 + 3/2 rho sqrt(V ell)
    final_minus_exact: sp.Expr  # with rho = u sqrt(ell/V): ell u (1 - u) / 2
    printed_minus_exact: sp.Expr  # with rho = u sqrt(ell/V): -ell u (1 - u) / 2


def thm_10_conversion_symbolic() -> Thm10ConversionSymbolic:
    """Derive eps at the paper's order by sympy and compare with the printed chain."""
    V, rho, ell, u = sp.symbols("V rho ell u", positive=True)
    order = 1 + sp.sqrt(ell) / (rho * sp.sqrt(V))
    at = sp.simplify(V * order * rho**2 / 2 + ell / (order - 1))
    target = V * rho**2 / 2 + sp.Rational(3, 2) * rho * sp.sqrt(V * ell)
    exact = Derivation(at, target, sp.simplify(sp.expand(at - target)),
                       "Mironov 2017 at alpha = 1 + sqrt(ell)/(rho sqrt V) on V alpha rho^2/2")
    sub = {rho: u * sp.sqrt(ell / V)}
    final = sp.factor(sp.simplify((2 * rho * sp.sqrt(V * ell) - at).subs(sub)))
    printed = sp.factor(sp.simplify((V * rho**2 + rho * sp.sqrt(V * ell) - at).subs(sub)))
    return Thm10ConversionSymbolic(exact, final, printed)


@dataclass(frozen=True)
class Thm10ProofIntegral:
    """One factor of the proof of Theorem 10, as printed and as it should read (d = 1)."""

    printed: mpf    # (1/(sigma sqrt(2 pi))) int exp(-(1-alpha)(x-mu)^2/s^2) exp(-alpha x^2/s^2) dx
    correct: mpf    # (1/(s sqrt(2 pi))) int exp(-(1-alpha)(x-mu)^2/(2 s^2) - alpha x^2/(2 s^2)) dx
    claimed: mpf    # exp((alpha-1) alpha mu^2/(2 s^2)), the proof's next line


def thm_10_proof_integral(alpha: Number, mu: Number, s: Number, sigma: Number,
                          dps: int = 30) -> Thm10ProofIntegral:
    """App. C, proof of Thm 10: the Gaussian integral of one IN(s) factor, with s = Delta/rho.

    As printed the exponents lack the factor 2 of the Gaussian density and the normaliser
    carries sigma (the symbol of the density's definition) instead of s; the next line of the
    proof, exp((alpha-1) alpha mu^2/(2 s^2)), is the value of the correct integral.  All three by
    quadrature / closed form at ``dps`` digits."""
    with precision(dps + GUARD_DPS):
        a, m = to_mpf(alpha, "alpha", REF), to_mpf(mu, "mu", REF)
        sd, sg = to_mpf(s, "s", REF), to_mpf(sigma, "sigma", REF)
        require(a > 1, "alpha", alpha, "alpha > 1", REF)
        require(sd > 0 and sg > 0, "s", s, "s > 0 and sigma > 0", REF)

        def quad(scale: mpf) -> mpf:
            return mpmath.quad(lambda x: mpmath.exp(-((1 - a) * (x - m) ** 2 + a * x * x)
                                                   / scale), [-mpmath.inf, m / 2, mpmath.inf])

        printed = quad(sd * sd) / (sg * mpmath.sqrt(2 * mpmath.pi))
        correct = quad(2 * sd * sd) / (sd * mpmath.sqrt(2 * mpmath.pi))
        claimed = mpmath.exp((a - 1) * a * m * m / (2 * sd * sd))
    with precision(dps):
        return Thm10ProofIntegral(+printed, +correct, +claimed)


def gaussian_renyi_product(alpha: Number, mu: tuple[Number, ...], sigma: Number,
                           dps: int = 30) -> tuple[mpf, mpf]:
    """App. C's Gaussian fact in d = len(mu): (quadrature of D_alpha(N(0, s^2 I) || N(mu, s^2 I)),
    alpha ||mu||^2 / (2 s^2)).  The quadrature is a product of one-dimensional integrals of
    Q^(1-alpha) P^alpha, which is the additivity the paper's display uses."""
    with precision(dps + GUARD_DPS):
        a, s = to_mpf(alpha, "alpha", REF), to_mpf(sigma, "sigma", REF)
        require(a > 1, "alpha", alpha, "alpha > 1", REF)
        require(s > 0, "sigma", sigma, "sigma > 0", REF)
        total = mpf(0)
        for m in mu:
            m = to_mpf(m, "mu", REF)

            def integrand(x: mpf, m: mpf = m) -> mpf:
                p = mpmath.npdf(x, 0, s)
                q = mpmath.npdf(x, m, s)
                return q ** (1 - a) * p**a

            total += mpmath.log(mpmath.quad(integrand, [-mpmath.inf, m / 2, mpmath.inf]))
        quad = total / (a - 1)
        closed = a * sum(to_mpf(m) ** 2 for m in mu) / (2 * s * s)
    with precision(dps):
        return +quad, +closed
