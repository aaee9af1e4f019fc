"""Adaptive composition over the tree nodes a record touches: RDP, zCDP and GDP.

Node ``i`` of a tree mechanism releases ``G_i(D, earlier outputs) + N(0, (Delta_i / rho)^2 I)``
where ``Delta_i`` bounds its L2 sensitivity.  For neighbouring datasets differing in record
s, the nodes whose inputs do not involve s have identical conditional laws, and each node
that does is a Gaussian mechanism with mean shift at most ``Delta_i``: a ``rho``-GDP step.
Composing adaptively over the at most ``V`` nodes that contain s gives

* RDP:  ``(alpha, V alpha rho^2 / 2)`` for every alpha > 1 (Mironov 2017, Prop. 1; the
  Gaussian Renyi divergence is alpha mu^2 / 2),
* zCDP: ``V rho^2 / 2``,
* GDP:  ``mu = rho sqrt(V)`` (Dong, Roth & Su 2022, Cor. 3.3, which allows adaptivity),

and the three say the same thing: the worst pair is one Gaussian shift of ``mu`` standard
deviations.  The GDP route converts to (eps, delta) exactly (:func:`dpsym.fdp.gdp_epsilon`);
the RDP route loses the gap between a single Renyi constraint and the Gaussian tradeoff
curve.  Conversions are never retyped here: (eps, delta) come from
:mod:`dpsym.rdp.conversions` and :mod:`dpsym.fdp.gdp`.

A mechanism described by ``k`` such budgets, each ``(z, z / (2 sigma^2))``-RDP, is
:func:`budget_guarantee` ``(k, sigma)``: ``rho = k / (2 sigma^2)``, ``mu = sqrt(k) / sigma``.
"""

from __future__ import annotations

from dataclasses import dataclass

import mpmath
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.gdp import gdp_epsilon, gdp_mu_from_epsilon_delta
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, find_root, precision, round_up, to_mpf
from dpsym.rdp.conversions import zcdp_curve_epsilon, zcdp_to_epsilon

__all__ = [
    "GaussianGuarantee",
    "budget_guarantee",
    "sigma_for_gdp",
    "sigma_for_zcdp",
    "tree_composition",
]

REF = "adaptive Gaussian tree composition"


@dataclass(frozen=True)
class GaussianGuarantee:
    """A mechanism whose worst neighbouring pair is a Gaussian shift of ``mu`` standard deviations.

    ``zcdp`` is ``mu^2 / 2``: the mechanism is ``(alpha, alpha * zcdp)``-RDP for every alpha > 1.
    """

    mu: mpf
    zcdp: mpf
    dps: int = DEFAULT_DPS

    def rdp(self, alpha: Number) -> mpf:
        """RDP of order alpha > 1: ``alpha * zcdp`` (rounded up)."""
        with precision(self.dps + GUARD_DPS):
            a = to_mpf(alpha, "alpha", REF)
            require(a > 1, "alpha", alpha, "alpha > 1", REF)
            out = a * self.zcdp
        return round_up(out, self.dps)

    def epsilon(self, delta: Number, route: str = "gdp") -> mpf:
        """eps at ``delta``: ``"gdp"`` (exact Gaussian tradeoff), ``"zcdp"`` (Bun & Steinke 2016,
        Lemma 3.5 = Mironov's conversion at the best order), or ``"rdp"`` (the best of the
        single-order RDP conversions, optimised over the order)."""
        require(route in ("gdp", "zcdp", "rdp"), "route", route, "'gdp', 'zcdp' or 'rdp'", REF)
        if route == "gdp":
            return gdp_epsilon(self.mu, delta, dps=self.dps)
        if route == "zcdp":
            return zcdp_to_epsilon(self.zcdp, delta, dps=self.dps)
        return zcdp_curve_epsilon(self.zcdp, delta, conversions=("balle2020",),
                                  dps=self.dps)["min"]


def _positive(x: Number, name: str) -> mpf:
    v = to_mpf(x, name, REF)
    require(v > 0, name, x, f"{name} > 0", REF)
    return v


def tree_composition(V: Number, rho: Number, dps: int = DEFAULT_DPS) -> GaussianGuarantee:
    """At most ``V`` nodes per record, each calibrated with noise ``Delta_i / rho``.

    >>> from dpsym.numerics import nstr
    >>> g = tree_composition(16, "0.25")
    >>> nstr(g.mu, 10), nstr(g.zcdp, 10), nstr(g.rdp(3), 10)
    ('1.0', '0.5', '1.5')
    """
    with precision(dps + GUARD_DPS):
        v, r = _positive(V, "V"), _positive(rho, "rho")
        mu = r * mpmath.sqrt(v)
        z = v * r * r / 2
    return GaussianGuarantee(round_up(mu, dps), round_up(z, dps), dps)


def budget_guarantee(k: Number, sigma: Number, dps: int = DEFAULT_DPS) -> GaussianGuarantee:
    """``k`` budgets of ``(z, z / (2 sigma^2))``-RDP each: ``mu = sqrt(k) / sigma``."""
    with precision(dps + GUARD_DPS):
        kk, s = _positive(k, "k"), _positive(sigma, "sigma")
        mu = mpmath.sqrt(kk) / s
        z = kk / (2 * s * s)
    return GaussianGuarantee(round_up(mu, dps), round_up(z, dps), dps)


def sigma_for_zcdp(eps: Number, delta: Number, k: Number = 1, dps: int = DEFAULT_DPS) -> mpf:
    """Smallest sigma with ``k`` budgets meeting (eps, delta) by the zCDP route.

    Solves ``zcdp_to_epsilon(k / (2 sigma^2), delta) = eps`` (the conversion lives in
    :mod:`dpsym.rdp.conversions`); eps is decreasing in sigma.  Rounded up (a larger sigma is
    the safe side).
    """
    with precision(dps + GUARD_DPS):
        e = _positive(eps, "eps")
        kk = _positive(k, "k")

        def gap(s: mpf) -> mpf:
            return zcdp_to_epsilon(kk / (2 * s * s), delta, dps=dps + GUARD_DPS) - e

        s = find_root(gap, mpf("0.1"), mpf(10), lower=0, side="upper")
    return round_up(s, dps)


def sigma_for_gdp(eps: Number, delta: Number, k: Number = 1, dps: int = DEFAULT_DPS) -> mpf:
    """Smallest sigma with ``k`` budgets meeting (eps, delta) exactly: ``sqrt(k) / mu*`` where
    ``mu*`` is the largest GDP parameter meeting (eps, delta) (rounded down), so sigma is
    rounded up."""
    with precision(dps + GUARD_DPS):
        kk = _positive(k, "k")
        mu = gdp_mu_from_epsilon_delta(eps, delta, dps=dps + GUARD_DPS)
        out = mpmath.sqrt(kk) / mu
    return round_up(out, dps)
