"""A sharper shift schedule for Theorem 3.4 (Liang et al. 2025, App. B.3), and its limit.

The proof of Theorem 3.4 starts the shifted-divergence induction at ``z_tau = D`` and pays
the whole shift in one step (``a_tau = (1 + eta L) D``).  Its own recursion (47) allows any
schedule; spreading the shift over ``k = T - tau`` steps optimally (Cauchy-Schwarz,
:mod:`dpsym.shifts.smooth_reduction`) replaces ``(1 + eta L)^2 D^2`` by

    cost_k = D^2 ((1 + eta L)^2 - 1) / (1 - (1 + eta L)^(-2k))

at the price of ``k`` per-step costs instead of one.  With ``A`` the per-step cost of (10)
(or (11)) per unit alpha/beta and ``B_k = cost_k / (2 eta^2 sigma^2)``, the bound
``alpha (k A/beta + B_k/(1 - beta))`` is minimised over beta by the same sympy-derived split
as Theorem 3.4 (:func:`dpsym.papers.liang2025.closed_forms.noise_split_symbolic`):

    rho_k = (sqrt(k A) + sqrt(B_k))^2,    rho_ref(T) = min(rho_GC(T), min_{1<=k<=T} rho_k).

``k = 1`` is the paper's ``rho_DC``; every k gives a valid bound (as valid as Theorem 3.4
itself: the "nb" per-step cost inherits the one-sided adjacency of (10), see
:mod:`.adjacency`).  As ``eta L -> 0``, ``cost_k -> D^2 / k`` and the minimum over real k is
``4 C D / (eta sigma^2 sqrt(n b))`` (sympy, :func:`linear_limit_symbolic`): linear in D,
like the convex bounds of Altschuler & Talwar, whereas Remark 3.5 reads the quadratic
D-dependence of (14) as inherent to non-convexity.  For fixed ``eta L > 0`` and ``D -> oo``
the refined bound is still quadratic in D (``cost_k >= D^2 eta L (2 + eta L)``).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up
from dpsym.papers.liang2025._common import PAPER, S, check
from dpsym.papers.liang2025.closed_forms import closed_forms, noise_split_symbolic, rho_gc
from dpsym.papers.liang2025.privacy import VARIANTS, lem_2_6_expr
from dpsym.papers.registry import cite
from dpsym.shifts.smooth_reduction import k_step_shift_cost, optimal_allocation_symbolic

__all__ = [
    "RefinedBound",
    "k_step_symbolic",
    "linear_limit_symbolic",
    "refined_bound",
    "refined_rho_k",
]

REF = cite(PAPER, "eq. (47) with the optimal k-step shift schedule")


@functools.cache
def k_step_symbolic(variant: str = "nb") -> tuple[sp.Expr, sp.Expr, sp.Symbol]:
    """``(rho_k, B_k, cost)`` in the paper's symbols, ``cost`` a symbol for ``sum a^2``.

    ``B_k`` comes from the shift term of (47) (Lemma 2.6 with noise variance
    ``(1 - beta) eta^2 sigma^2``) as ``B_k/(1 - beta)`` per unit alpha; ``rho_k`` is the
    sympy minimum of ``k A/beta + B_k/(1 - beta)`` over beta.
    """
    require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", REF)
    cost = sp.Symbol("cost", positive=True)
    shift = lem_2_6_expr(sp.sqrt(cost), (1 - S.beta) * S.eta ** 2 * S.sigma ** 2)
    B_k = sp.simplify(shift * (1 - S.beta) / S.alpha)
    ns = noise_split_symbolic()
    A = closed_forms(variant).A
    rho_k = ns.minimum.subs({ns.A: S.k * A, ns.B: B_k})
    return rho_k, B_k, cost


@functools.cache
def _rho_k_fn(variant: str):
    rho_k, _, cost = k_step_symbolic(variant)
    return sp.lambdify((S.k, cost, S.n, S.b, S.eta, S.C, S.sigma), rho_k, "mpmath")


def refined_rho_k(*, k: int, n: int, b: int, eta: Number, C: Number, sigma: Number,
                  L: Number, D: Number, variant: str = "nb", dps: int = DEFAULT_DPS) -> mpf:
    """``rho_k = (sqrt(k A) + sqrt(B_k))^2`` for the optimal k-step schedule (rounded up).

    ``k = 1`` is Theorem 3.4's ``rho_DC`` (with the optimal beta).

    >>> from dpsym.numerics import nstr
    >>> kw = dict(n=8, b=2, eta="0.2", C=2, sigma=4, L=1, D=1)
    >>> nstr(refined_rho_k(k=1, **kw), 12), nstr(refined_rho_k(k=4, **kw), 12)
    ('1.53125', '1.0461678593')
    """
    with precision(dps + GUARD_DPS):
        p = check(REF, k=k, n=n, b=b, eta=eta, C=C, sigma=sigma, L=L, D=D)
        require(variant in VARIANTS, "variant", variant, f"one of {VARIANTS}", REF)
        c = 1 + p["eta"] * p["L"]
    cost = k_step_shift_cost(c, p["D"], p["k"], dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        out = mpf(_rho_k_fn(variant)(p["k"], cost, p["n"], p["b"], p["eta"], p["C"],
                                     p["sigma"]))
    return round_up(out, dps)


@dataclass(frozen=True)
class RefinedBound:
    """``rho``: ``min(rho_GC(T), min_k rho_k)``; ``k``: the best schedule length (``None``
    when the composition bound rho_GC(T) is smaller); ``rho_k``: ``min_k rho_k`` alone;
    ``rho_gc``: rho_GC(T); ``k_searched``: how many k were evaluated."""

    rho: mpf
    k: int | None
    rho_k: mpf
    best_k: int
    rho_gc: mpf
    k_searched: int


@functools.cache
def refined_bound(*, T: int, n: int, b: int, eta: Number, C: Number, sigma: Number,
                  L: Number, D: Number, variant: str = "nb", dps: int = 30) -> RefinedBound:
    """The refined guarantee ``alpha rho_ref(T)`` (per unit alpha) with the best k <= T.

    Search: every k up to 64, then a geometric grid up to ``min(T, rho_1/A)`` (beyond it
    ``rho_k >= k A`` exceeds the k = 1 value) and an integer scan around the grid's best.
    Any k gives a valid bound, so the search affects only how small the result is.

    >>> from dpsym.numerics import nstr
    >>> r = refined_bound(T=200, n=8, b=2, eta="0.2", C=2, sigma=4, L=1, D=1)
    >>> nstr(r.rho * mpf("1.1"), 12), r.k
    ('1.15078464523', 4)
    """
    kw = dict(n=n, b=b, eta=eta, C=C, sigma=sigma, L=L, D=D, variant=variant, dps=dps)
    with precision(dps + GUARD_DPS):
        p = check(REF, T=T, n=n, b=b, C=C, sigma=sigma)
        A = mpf(sp.lambdify((S.n, S.b, S.C, S.sigma), closed_forms(variant).A, "mpmath")(
            p["n"], p["b"], p["C"], p["sigma"]))
    cache: dict[int, mpf] = {}

    def f(k: int) -> mpf:
        if k not in cache:
            cache[k] = refined_rho_k(k=k, **kw)
        return cache[k]

    Tv = p["T"]
    first = f(1)
    k_cap = int(min(Tv, max(1, mpmath.floor(first / A) + 1)))
    ks = set(range(1, min(k_cap, 64) + 1))
    if k_cap > 64:
        ratio = (k_cap / 64) ** (1 / 200)
        ks |= {min(k_cap, math.ceil(64 * ratio ** i)) for i in range(201)}
    best = min(ks, key=f)
    lo, hi = max(1, int(best / 1.2) - 2), min(k_cap, int(best * 1.2) + 2)
    if hi - lo <= 400:
        best = min(range(lo, hi + 1), key=f)
    else:  # integer golden-section refinement on the bracket (f is unimodal in practice)
        while hi - lo > 3:
            m1, m2 = lo + (hi - lo) // 3, hi - (hi - lo) // 3
            if f(m1) <= f(m2):
                hi = m2
            else:
                lo = m1
        best = min(range(lo, hi + 1), key=f)
    g = rho_gc(T=T, n=n, b=b, C=C, sigma=sigma, variant=variant, dps=dps)
    rk = f(best)
    return RefinedBound(min(g, rk), None if g <= rk else best, rk, best, g, len(cache))


@dataclass(frozen=True)
class LinearLimit:
    """The eta L -> 0 limit: ``rho(k) = (sqrt(k A) + D/(sqrt(2 k) eta sigma))^2``, its
    minimiser over real k > 0 and the minimum (linear in D)."""

    rho_of_k: sp.Expr
    k_star: sp.Expr
    minimum: sp.Expr
    checks: tuple[Derivation, ...]


@functools.cache
def linear_limit_symbolic() -> LinearLimit:
    """As ``eta L -> 0``, ``cost_k -> D^2/k`` (:func:`optimal_allocation_symbolic`), and
    ``min_{k > 0} (sqrt(k A) + sqrt(B_k))^2 = 4 C D/(eta sigma^2 sqrt(n b))`` ("nb").

    >>> d = linear_limit_symbolic()
    >>> d.minimum
    4*C*D/(sqrt(b)*eta*sqrt(n)*sigma**2)
    """
    sr = optimal_allocation_symbolic()
    kr = sp.Symbol("kappa", positive=True)  # real relaxation of k
    cost_limit = sr.limit_c_1.subs({sr.D: S.D, sr.k: kr})
    rho_k, _, cost = k_step_symbolic("nb")
    f = sp.simplify(rho_k.subs({cost: cost_limit, S.k: kr}))
    crit = [r for r in sp.solve(sp.Eq(sp.diff(f, kr), 0), kr) if r.is_positive]
    require(len(crit) == 1, "roots", crit, "one positive stationary point", REF)
    k_star = sp.simplify(crit[0])
    minimum = sp.simplify(sp.factor(f.subs(kr, k_star)))
    d2 = sp.simplify(sp.diff(f, kr, 2).subs(kr, k_star))
    checks = (
        Derivation(sp.diff(minimum, S.D, 2), sp.Integer(0), sp.simplify(sp.diff(minimum, S.D, 2)),
                   "the eta L -> 0 minimum is linear in D (second D-derivative 0)"),
        Derivation(d2, d2, sp.Integer(0 if d2.is_positive else 1),
                   f"second derivative at k* is {d2} > 0 (a minimum)"),
        Derivation(minimum, 4 * S.C * S.D / (S.eta * S.sigma ** 2 * sp.sqrt(S.n * S.b)),
                   sp.simplify(minimum - 4 * S.C * S.D / (S.eta * S.sigma ** 2
                                                          * sp.sqrt(S.n * S.b))),
                   "minimum = 4 C D/(eta sigma^2 sqrt(n b))"),
    )
    return LinearLimit(f, k_star, minimum, checks)
