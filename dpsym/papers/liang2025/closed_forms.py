"""Closed forms derived from Liang et al. 2025's bounds (sympy; not stated in the paper).

Every bound of Thms 3.3 and 3.4 is linear in the Renyi order: ``eps(alpha) = alpha rho``.
Writing Theorem 3.4's eq. (14) as ``alpha (A/beta + B/(1 - beta))`` -- ``A`` and ``B`` are
read off the assembled expression (:func:`dpsym.papers.liang2025.privacy.eq_14_expr`), not
retyped -- sympy derives

* the optimal noise split ``beta* = sqrt(A)/(sqrt(A) + sqrt(B))`` and
  ``rho_DC = min_beta (A/beta + B/(1-beta)) = (sqrt(A) + sqrt(B))^2``;
* for (12), ``rho_GC(T) = inf_{0<beta<1} eps/alpha = A T`` (the infimum at beta -> 1; every
  beta < 1 is valid, so the limit is a valid bound);
* the crossover ``T* = (1 + sqrt(B/A))^2`` where ``rho_GC(T*) = rho_DC``: the bounded domain
  helps only after T* iterations, and the guarantee that "converges" is
  ``min(rho_GC(T), rho_DC)`` (:func:`combined_rho`);
* the RDP -> DP optimum of Lemma 2.4 for ``eps(alpha) = rho alpha``:
  ``alpha* = 1 + sqrt(log(1/delta)/rho)``, ``eps = rho + 2 sqrt(rho log(1/delta))``;
* the GDP-style parameter ``mu = sqrt(2 rho)`` (the Gaussian mechanism with the same RDP
  curve ``alpha mu^2/2``; a heuristic comparison only, since rho-zCDP does not imply mu-GDP).

In the paper's symbols, with ``c = 1 + eta L``:
``A = 2 C^2/(n b sigma^2)``, ``B = c^2 D^2/(2 eta^2 sigma^2)``,
``rho_DC = (C sqrt(2/(n b)) + c D/(sqrt(2) eta))^2 / sigma^2``,
``T* = (1 + c D sqrt(n b)/(2 eta C))^2``, independent of sigma and alpha.
For the "n^2" variant ``A = 8 C^2/(n^2 sigma^2)`` and the side conditions restrict beta and
alpha (:func:`n2_alpha_max`).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.liang2025._common import PAPER, S, check
from dpsym.papers.liang2025.privacy import (
    VARIANTS,
    eq_12_expr,
    eq_13_expr,
    eq_14_expr,
    eq_15_expr,
    gaussian_cost_expr,
)
from dpsym.papers.registry import cite
from dpsym.rdp.gaussian_mixture import sgm_alpha_star

__all__ = [
    "ClosedForms",
    "beta_star",
    "closed_forms",
    "closed_forms_checks",
    "combined_rho",
    "dp_epsilon",
    "dp_epsilon_numpy",
    "gdp_mu",
    "n2_alpha_max",
    "noise_split_symbolic",
    "numpy_fn",
    "rdp_to_dp_symbolic",
    "rho_dc",
    "rho_gc",
    "t_star",
]

REF = cite(PAPER, "Thms 3.3, 3.4 (derived closed forms)")


@dataclass(frozen=True)
class NoiseSplit:
    """``f(beta) = A/beta + B/(1 - beta)``: its minimiser, minimum and second derivative there."""

    A: sp.Symbol
    B: sp.Symbol
    beta: sp.Symbol
    f: sp.Expr
    beta_star: sp.Expr
    minimum: sp.Expr
    curvature: sp.Expr


@functools.cache
def noise_split_symbolic() -> NoiseSplit:
    """Minimise ``A/beta + B/(1 - beta)`` over ``0 < beta < 1`` (A, B > 0) with sympy.

    sympy solves ``f'(beta) = 0``; the root in (0, 1) is ``sqrt(A)/(sqrt(A) + sqrt(B))``,
    the minimum ``(sqrt(A) + sqrt(B))^2`` and ``f'' > 0`` there (f is convex on (0, 1)).

    >>> d = noise_split_symbolic()
    >>> d.beta_star, d.minimum
    (sqrt(A)/(sqrt(A) + sqrt(B)), (sqrt(A) + sqrt(B))**2)
    """
    A, B, beta = sp.symbols("A B beta", positive=True)
    f = A / beta + B / (1 - beta)
    roots = sp.solve(sp.Eq(sp.diff(f, beta), 0), beta)
    inside = [r for r in roots
              if sp.simplify(r.subs({A: 1, B: 3})).is_positive
              and (sp.simplify(1 - r.subs({A: 1, B: 3}))).is_positive]
    require(len(inside) == 1, "roots", roots, "exactly one stationary point in (0, 1)", REF)
    (b_star,) = inside
    b_star = sp.simplify(sp.radsimp(b_star))
    target_b = sp.sqrt(A) / (sp.sqrt(A) + sp.sqrt(B))
    if sp.simplify(b_star - target_b) == 0:
        b_star = target_b
    minimum = sp.factor(sp.simplify(f.subs(beta, b_star)))
    target_m = (sp.sqrt(A) + sp.sqrt(B)) ** 2
    if sp.simplify(minimum - target_m) == 0:
        minimum = target_m
    curvature = sp.simplify(sp.diff(f, beta, 2).subs(beta, b_star))
    return NoiseSplit(A, B, beta, f, b_star, minimum, curvature)


@dataclass(frozen=True)
class RdpToDp:
    """Lemma 2.4 minimised over alpha for ``eps(alpha) = rho alpha``; ``ell = log(1/delta)``."""

    rho: sp.Symbol
    ell: sp.Symbol
    alpha: sp.Symbol
    objective: sp.Expr
    alpha_star: sp.Expr
    epsilon: sp.Expr


@functools.cache
def rdp_to_dp_symbolic() -> RdpToDp:
    """``min_{alpha > 1} rho alpha + ell/(alpha - 1)``, ``ell = log(1/delta)`` (Lemma 2.4).

    sympy solves the stationarity condition; the root above 1 is the minimiser (the
    objective is convex on alpha > 1).

    >>> d = rdp_to_dp_symbolic()
    >>> d.alpha_star, d.epsilon
    (sqrt(ell)/sqrt(rho) + 1, 2*sqrt(ell)*sqrt(rho) + rho)
    """
    rho, ell, alpha = sp.symbols("rho ell alpha", positive=True)
    obj = rho * alpha + ell / (alpha - 1)
    roots = sp.solve(sp.Eq(sp.diff(obj, alpha), 0), alpha)
    (a_star,) = [r for r in roots if (r.subs({rho: 1, ell: 2}) - 1).is_positive]
    a_star = sp.expand(a_star)
    eps = sp.expand(sp.simplify(obj.subs(alpha, a_star)))
    return RdpToDp(rho, ell, alpha, obj, a_star, eps)


@dataclass(frozen=True)
class ClosedForms:
    """The closed forms in the paper's symbols (one variant): ``A``, ``B`` read off the
    assembled (14)/(15), ``beta_star``, ``rho_dc``, ``rho_gc`` (per T, the inf over beta of
    (12)/(13) divided by alpha), ``t_star`` and ``mu_dc``, ``mu_gc`` (GDP-style)."""

    variant: str
    A: sp.Expr
    B: sp.Expr
    beta_star: sp.Expr
    rho_dc: sp.Expr
    rho_gc: sp.Expr
    t_star: sp.Expr
    mu_dc: sp.Expr
    mu_gc: sp.Expr


@functools.cache
def _mu_of_rho() -> tuple[sp.Expr, sp.Symbol]:
    """mu with ``alpha mu^2/2 = alpha rho`` (the Gaussian RDP curve, :func:`gaussian_cost_expr`)."""
    g, u, s2 = gaussian_cost_expr()
    rho, mu = sp.symbols("rho mu", positive=True)
    gauss = g.subs({u: mu, s2: 1})  # G(mu): unit noise, mean difference mu
    (sol,) = sp.solve(sp.Eq(gauss, S.alpha * rho), mu)
    return sol, rho


@functools.cache
def closed_forms(variant: str = "nb") -> ClosedForms:
    """Derive the closed forms for ``variant`` ("nb": eqs. (12)/(14); "n2": (13)/(15))."""
    require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", REF)
    dc = (eq_14_expr() if variant == "nb" else eq_15_expr()) / S.alpha
    gc = (eq_12_expr() if variant == "nb" else eq_13_expr()) / S.alpha
    # dc = A/beta + B/(1 - beta): A = (beta dc) at beta = 0, B = ((1 - beta) dc) at beta = 1.
    A = sp.simplify(sp.limit(sp.simplify(S.beta * dc), S.beta, 0))
    B = sp.simplify(sp.limit(sp.simplify((1 - S.beta) * dc), S.beta, 1))
    require(sp.simplify(A / S.beta + B / (1 - S.beta) - dc) == 0, "variant", variant,
            "eq. (14)/(15) of the form A/beta + B/(1 - beta)", REF)
    ns = noise_split_symbolic()
    sub = {ns.A: A, ns.B: B}
    b_star = sp.simplify(ns.beta_star.subs(sub))
    rho_dc = ns.minimum.subs(sub)
    rho_gc = sp.simplify(sp.limit(gc, S.beta, 1))
    (t_star,) = sp.solve(sp.Eq(rho_gc, rho_dc), S.T)
    mu, rho = _mu_of_rho()
    return ClosedForms(variant, A, B, b_star, rho_dc, rho_gc, sp.simplify(t_star),
                       mu.subs(rho, rho_dc), sp.simplify(mu.subs(rho, rho_gc)))


def closed_forms_checks(variant: str = "nb") -> list[Derivation]:
    """Exact checks: beta* is stationary with f'' > 0; rho_GC is decreasing in beta's limit;
    T* solves rho_GC = rho_DC; each closed form equals its display in the module docstring."""
    cf = closed_forms(variant)
    ns = noise_split_symbolic()
    out = []
    d1 = sp.diff(ns.f, ns.beta).subs(ns.beta, ns.beta_star)
    out.append(Derivation(d1, sp.Integer(0), sp.simplify(d1), "f'(beta*) = 0"))
    out.append(Derivation(ns.curvature, ns.curvature, sp.Integer(0 if ns.curvature.is_positive
                                                                 else 1),
                          f"f''(beta*) = {ns.curvature} > 0"))
    gap = sp.simplify(cf.rho_gc.subs(S.T, cf.t_star) - cf.rho_dc)
    out.append(Derivation(cf.rho_gc.subs(S.T, cf.t_star), cf.rho_dc, gap, "rho_GC(T*) = rho_DC"))
    if variant == "nb":
        c = 1 + S.eta * S.L
        shown = {
            "A = 2 C^2/(n b sigma^2)": (cf.A, 2 * S.C ** 2 / (S.n * S.b * S.sigma ** 2)),
            "B = c^2 D^2/(2 eta^2 sigma^2)": (cf.B, c ** 2 * S.D ** 2 / (2 * S.eta ** 2
                                                                       * S.sigma ** 2)),
            "rho_DC = (C sqrt(2/(nb)) + c D/(sqrt 2 eta))^2/sigma^2":
                (cf.rho_dc, (S.C * sp.sqrt(2 / (S.n * S.b)) + c * S.D / (sp.sqrt(2) * S.eta)) ** 2
                 / S.sigma ** 2),
            "T* = (1 + c D sqrt(n b)/(2 eta C))^2":
                (cf.t_star, (1 + c * S.D * sp.sqrt(S.n * S.b) / (2 * S.eta * S.C)) ** 2),
            "mu_GC = 2 C sqrt(T)/(sigma sqrt(n b))":
                (cf.mu_gc, 2 * S.C * sp.sqrt(S.T) / (S.sigma * sp.sqrt(S.n * S.b))),
            "mu_DC = (2C/sqrt(nb) + c D/eta)/sigma":
                (cf.mu_dc, (2 * S.C / sp.sqrt(S.n * S.b) + c * S.D / S.eta) / S.sigma),
        }
        for note, (derived, target) in shown.items():
            out.append(Derivation(derived, target, sp.simplify(sp.expand(derived - target)), note))
    return out


# --- numbers ---------------------------------------------------------------------------------

_ARGS = (S.T, S.n, S.b, S.eta, S.C, S.sigma, S.L, S.D)


@functools.cache
def _fn(variant: str, key: str):
    return sp.lambdify(_ARGS, getattr(closed_forms(variant), key), "mpmath")


def _eval(variant: str, key: str, p: dict) -> mpf:
    return mpf(_fn(variant, key)(*[p.get(s.name, mpf(1)) for s in _ARGS]))


def _dc_params(n: int, b: int, eta: Number, C: Number, sigma: Number, L: Number,
               D: Number, variant: str) -> dict:
    p = check(REF, n=n, b=b, eta=eta, C=C, sigma=sigma, L=L, D=D)
    require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", REF)
    return p


def beta_star(*, n: int, b: int, eta: Number, C: Number, sigma: Number, L: Number, D: Number,
              variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """The noise split minimising (14) (or (15)): ``sqrt(A)/(sqrt(A) + sqrt(B))``.

    For ``variant="n2"`` it must also satisfy ``sigma > 8C/(b sqrt(beta*))`` (raises if not).

    >>> from dpsym.numerics import nstr
    >>> nstr(beta_star(n=8, b=2, eta="0.2", C=2, sigma=4, L=1, D=1), 15)
    '0.142857142857143'
    """
    with precision(dps + GUARD_DPS):
        p = _dc_params(n, b, eta, C, sigma, L, D, variant)
        out = _eval(variant, "beta_star", p)
        if variant == "n2":
            thresh = 64 * p["C"] ** 2 / (p["b"] ** 2 * p["sigma"] ** 2)
            require(out > thresh, "sigma", sigma,
                    f"sigma > 8C/(b sqrt(beta*)) at beta* = {mpmath.nstr(out, 8)}",
                    cite(PAPER, "Thm 3.4, eq. (15)"))
    with precision(dps):
        return +out


def rho_dc(*, n: int, b: int, eta: Number, C: Number, sigma: Number, L: Number, D: Number,
           variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """``rho_DC = min_beta eps_(14)/alpha = (sqrt(A) + sqrt(B))^2`` (rounded up).

    >>> from dpsym.numerics import nstr
    >>> nstr(rho_dc(n=8, b=2, eta="0.2", C=2, sigma=4, L=1, D=1), 15)
    '1.53125'
    """
    if variant == "n2":
        beta_star(n=n, b=b, eta=eta, C=C, sigma=sigma, L=L, D=D, variant=variant, dps=dps)
    with precision(dps + GUARD_DPS):
        out = _eval(variant, "rho_dc", _dc_params(n, b, eta, C, sigma, L, D, variant))
    return round_up(out, dps)


def rho_gc(*, T: int, n: int, b: int, C: Number, sigma: Number, variant: str = "nb",
           dps: int = DEFAULT_DPS) -> mpf:
    """``rho_GC(T) = inf_{0<beta<1} eps_(12)/alpha = 2 C^2 T/(n b sigma^2)`` (rounded up).

    For "n2" the limit beta -> 1 needs sigma > 8C/b (checked); alpha <= alpha* is the
    caller's (:func:`n2_alpha_max` at beta -> 1).
    """
    with precision(dps + GUARD_DPS):
        p = check(REF, T=T, n=n, b=b, C=C, sigma=sigma)
        require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", REF)
        if variant == "n2":
            require(5 * p["b"] <= p["n"], "b", b, "b <= n/5", cite(PAPER, "Thm 3.3, eq. (13)"))
            require(p["sigma"] > 8 * p["C"] / p["b"], "sigma", sigma,
                    "sigma > 8C/b (beta -> 1 in Thm 3.3, eq. (13))", cite(PAPER, "Thm 3.3"))
        out = _eval(variant, "rho_gc", p)
    return round_up(out, dps)


def t_star(*, n: int, b: int, eta: Number, C: Number, sigma: Number = 1, L: Number,
           D: Number, variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """The crossover ``T* = (1 + sqrt(B/A))^2`` with ``rho_GC(T*) = rho_DC`` (sigma cancels).

    >>> from dpsym.numerics import nstr
    >>> nstr(t_star(n=8, b=2, eta="0.2", C=2, L=1, D=1), 15)
    '49.0'
    """
    with precision(dps + GUARD_DPS):
        out = _eval(variant, "t_star", _dc_params(n, b, eta, C, sigma, L, D, variant))
    with precision(dps):
        return +out


def combined_rho(*, T: int, n: int, b: int, eta: Number, C: Number, sigma: Number, L: Number,
                 D: Number, variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """``min(rho_GC(T), rho_DC)``: the guarantee of DPSGD-DC that "converges" in T.

    Thm 3.4 covers DPSGD-DC; Thm 3.3's proof (B.2) applies to it verbatim, because the
    projection is the same 1-Lipschitz map in both runs and cannot increase a shifted
    divergence (Lemma 2.7 with s = 0), so both bounds hold and so does their minimum.  The
    paper never writes the minimum; it is linear in T up to T* and flat after.
    """
    g = rho_gc(T=T, n=n, b=b, C=C, sigma=sigma, variant=variant, dps=dps)
    d = rho_dc(n=n, b=b, eta=eta, C=C, sigma=sigma, L=L, D=D, variant=variant, dps=dps)
    return min(g, d)


def n2_alpha_max(*, n: int, b: int, C: Number, sigma: Number, beta: Number,
                 dps: int = DEFAULT_DPS) -> mpf:
    """``alpha*(b/n, b sqrt(beta) sigma/(2C))``: the largest order the "n^2" variants allow."""
    with precision(dps + GUARD_DPS):
        p = check(cite(PAPER, "Thm 3.3"), n=n, b=b, C=C, sigma=sigma, beta=beta)
        s = p["b"] * mpmath.sqrt(p["beta"]) * p["sigma"] / (2 * p["C"])
        q = mpf(p["b"]) / p["n"]
    return sgm_alpha_star(q, s, dps=dps)


@functools.cache
def _dp_fns():
    d = rdp_to_dp_symbolic()
    return (sp.lambdify((d.rho, d.ell), d.alpha_star, "mpmath"),
            sp.lambdify((d.rho, d.ell), d.epsilon, "mpmath"),
            sp.lambdify((d.rho, d.ell, d.alpha), d.objective, "mpmath"))


def dp_epsilon(rho: Number, delta: Number, *, alpha_max: Number | None = None,
               dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """``(eps, alpha)``: Lemma 2.4 minimised over ``1 < alpha <= alpha_max`` for the RDP
    curve ``alpha rho``: ``rho + 2 sqrt(rho log(1/delta))`` at ``alpha* = 1 +
    sqrt(log(1/delta)/rho)`` when ``alpha* <= alpha_max`` (sympy-derived), else Lemma 2.4 at
    ``alpha_max`` (the objective is convex in alpha).  eps rounded up; it equals Bun &
    Steinke's zCDP conversion (:func:`dpsym.rdp.conversions.zcdp_to_epsilon`) when
    unconstrained.

    >>> from dpsym.numerics import nstr
    >>> eps, a = dp_epsilon("1.53125", "1e-5")
    >>> nstr(eps, 12), nstr(a, 10)
    ('9.92867034633', '3.742014807')
    """
    ref = cite(PAPER, "Lemma 2.4")
    with precision(dps + GUARD_DPS):
        r = to_mpf(rho, "rho", ref)
        require(r > 0, "rho", rho, "rho > 0", ref)
        ell = mpmath.log(1 / check(ref, delta=delta)["delta"])
        f_alpha, f_eps, f_obj = _dp_fns()
        a = mpf(f_alpha(r, ell))
        if alpha_max is not None:
            am = to_mpf(alpha_max, "alpha_max", ref)
            require(am > 1, "alpha_max", alpha_max, "alpha_max > 1", ref)
            if a > am:
                return round_up(mpf(f_obj(r, ell, am)), dps), +am
        out = mpf(f_eps(r, ell))
    return round_up(out, dps), a


def gdp_mu(rho: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """``mu = sqrt(2 rho)``: the Gaussian mechanism G(mu) has the RDP curve ``alpha rho``.

    A heuristic comparison only: rho-zCDP does not imply mu-GDP.  Rounded up.
    """
    mu, r = _mu_of_rho()
    with precision(dps + GUARD_DPS):
        rv = to_mpf(rho, "rho", REF)
        require(rv >= 0, "rho", rho, "rho >= 0", REF)
        out = mpf(sp.lambdify(r, mu, "mpmath")(rv))
    return round_up(out, dps)


# --- float64 paths for plotting, lambdified from the same sympy expressions -------------------

@functools.cache
def numpy_fn(key: str, variant: str = "nb"):
    """float64 version of a closed form (``"rho_gc"``, ``"rho_dc"``, ``"t_star"``,
    ``"beta_star"``) of :func:`closed_forms`, arguments ``(T, n, b, eta, C, sigma, L, D)``
    (plots only; lambdified, not retyped)."""
    return sp.lambdify(_ARGS, getattr(closed_forms(variant), key), "numpy")


@functools.cache
def _dp_numpy():
    d = rdp_to_dp_symbolic()
    return sp.lambdify((d.rho, d.ell), d.epsilon, "numpy")


def dp_epsilon_numpy(rho: object, delta: float) -> object:
    """float64 :func:`dp_epsilon` (unconstrained alpha) on arrays (plots only)."""
    import numpy as np

    return _dp_numpy()(np.asarray(rho, dtype=float), float(np.log(1 / delta)))
