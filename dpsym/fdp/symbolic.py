"""Symbolic derivations (sympy) behind the GDP and RDP conversions.

Each function derives a published formula from its definition and returns the derived
expression together with its difference from the published one, simplified (0 when
the derivation reproduces it).  Nothing here is typed in from the papers except the
target formula being checked.
"""

from __future__ import annotations

from dataclasses import dataclass

import sympy as sp

__all__ = [
    "Derivation",
    "balle_equals_cks",
    "gaussian_renyi_divergence",
    "gdp_delta_curve",
    "gdp_delta_from_conjugate",
    "std_normal_cdf",
    "std_normal_pdf",
]


@dataclass(frozen=True)
class Derivation:
    """A derived expression, the published target, and target - derived simplified."""

    derived: sp.Expr
    target: sp.Expr
    residual: sp.Expr
    notes: str

    @property
    def holds(self) -> bool:
        return sp.simplify(self.residual) == 0


def std_normal_cdf(x: sp.Expr) -> sp.Expr:
    """The standard normal CDF as a sympy expression, Phi(x) = (1 + erf(x / sqrt 2)) / 2.

    The one symbolic Phi of dpsym: every sympy derivation that needs Phi calls this.

    >>> import sympy as sp
    >>> sp.simplify(std_normal_cdf(sp.Integer(0)))
    1/2
    """
    return (1 + sp.erf(x / sp.sqrt(2))) / 2


def std_normal_pdf(x: sp.Expr) -> sp.Expr:
    """The standard normal density phi(x) = e^{-x^2/2} / sqrt(2 pi), the derivative of
    :func:`std_normal_cdf`.

    >>> import sympy as sp
    >>> x = sp.Symbol("x", real=True)
    >>> sp.simplify(sp.diff(std_normal_cdf(x), x) - std_normal_pdf(x))
    0
    """
    return sp.exp(-x**2 / 2) / sp.sqrt(2 * sp.pi)


def gdp_delta_curve(mu: sp.Expr, eps: sp.Expr) -> sp.Expr:
    """The privacy curve of G(mu) as a sympy expression (DRS22, Cor. 2.13; Bok et al. 2024,
    Lemma A.3): delta(eps) = Phi(-eps/mu + mu/2) - e^eps Phi(-eps/mu - mu/2).

    >>> import sympy as sp
    >>> mu = sp.Symbol("mu", positive=True)
    >>> sp.simplify(gdp_delta_curve(mu, 0) - (2 * std_normal_cdf(mu / 2) - 1))
    0
    """
    return std_normal_cdf(-eps / mu + mu / 2) - sp.exp(eps) * std_normal_cdf(-eps / mu - mu / 2)


def gdp_delta_from_conjugate() -> Derivation:
    """Lemma A.3 of Bok et al. 2024 from the convex conjugate of G(mu).

    DRS22, Prop. 2.12: f-DP implies (eps, 1 + f*(-e^eps))-DP, f*(y) = sup_x (x y - f(x)),
    and for G(mu) this is tight.  Parametrise x = 1 - Phi(z), so G(mu)(x) = Phi(z - mu),
    and maximise J(z) = -e^eps (1 - Phi(z)) - Phi(z - mu): sympy solves J'(z) = 0 (in
    log form, where it is linear in z), checks J''(z*) < 0, and substitutes.
    """
    z = sp.Symbol("z", real=True)
    mu, eps = sp.symbols("mu epsilon", positive=True)
    J = -sp.exp(eps) * (1 - std_normal_cdf(z)) - std_normal_cdf(z - mu)
    dJ = sp.diff(J, z)
    # J'(z) = e^eps phi(z) - phi(z - mu); zero iff eps + log phi(z) = log phi(z - mu).
    stationarity = sp.expand(eps + sp.log(std_normal_pdf(z)) - sp.log(std_normal_pdf(z - mu)),
                             log=True, force=True)
    (z_star,) = sp.solve(sp.Eq(stationarity, 0), z)
    d2 = sp.simplify(sp.diff(J, z, 2).subs(z, z_star))
    concave = sp.simplify(d2 / (sp.exp(eps) * std_normal_pdf(z_star)))
    derived = sp.simplify(1 + J.subs(z, z_star))
    target = gdp_delta_curve(mu, eps)
    residual = sp.simplify(sp.expand(target - derived))
    zero_grad = sp.simplify(dJ.subs(z, z_star))
    notes = (f"z* = {z_star}; J'(z*) = {zero_grad}; "
             f"J''(z*) / (e^eps phi(z*)) = {concave} < 0, so z* is the maximiser")
    return Derivation(derived, target, residual, notes)


def gaussian_renyi_divergence() -> Derivation:
    """D_alpha(N(mu, 1) || N(0, 1)) = alpha mu^2 / 2 (Bok et al. 2024, Lemma A.4).

    Integrates phi(x - mu)^alpha phi(x)^(1 - alpha) over the real line with sympy.
    """
    x = sp.Symbol("x", real=True)
    mu = sp.Symbol("mu", positive=True)
    alpha = sp.Symbol("alpha", positive=True)
    integrand = sp.exp(-alpha * (x - mu)**2 / 2 - (1 - alpha) * x**2 / 2) / sp.sqrt(2 * sp.pi)
    integral = sp.integrate(sp.expand(integrand), (x, -sp.oo, sp.oo), conds="none")
    derived = sp.simplify(sp.expand_log(sp.log(integral), force=True) / (alpha - 1))
    target = alpha * mu**2 / 2
    return Derivation(derived, target, sp.simplify(target - derived),
                      f"integral = {sp.simplify(integral)}")


def balle_equals_cks() -> Derivation:
    """Balle et al. 2020, Thm 21 and Canonne, Kamath & Steinke 2020, Prop. 12 coincide.

    CKS20: delta = e^{(alpha-1)(tau-eps)} / (alpha - 1) * (1 - 1/alpha)^alpha; solving for
    eps must give Balle et al.'s
    eps = tau + log((alpha-1)/alpha) - (log delta + log alpha)/(alpha-1).
    """
    alpha = sp.Symbol("alpha", positive=True)
    tau, eps, delta = sp.symbols("tau epsilon delta", positive=True)
    a1 = sp.Symbol("a1", positive=True)  # alpha - 1 > 0
    cks = sp.exp(a1 * (tau - eps)) / a1 * (1 - 1 / (a1 + 1))**(a1 + 1)
    (eps_cks,) = sp.solve(sp.Eq(sp.log(cks), sp.log(delta)), eps)
    derived = eps_cks.subs(a1, alpha - 1)
    target = tau + sp.log((alpha - 1) / alpha) - (sp.log(delta) + sp.log(alpha)) / (alpha - 1)
    residual = sp.simplify(sp.expand_log(sp.expand(target - derived), force=True))
    return Derivation(derived, target, residual, "solved CKS20 Prop. 12 for eps")
