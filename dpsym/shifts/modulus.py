"""Moduli of continuity of gradient maps (Bravo, Flores-Mella & Guzman 2025, Sec. 2, Table 1).

A modulus of continuity of ``Phi`` (Definition 2.1) is an increasing continuous ``phi`` with
``||Phi(x) - Phi(y)|| <= phi(||x - y||)``; ``phi(0) > 0`` is allowed, so discontinuous maps
(subgradient steps) are covered.  For the gradient map ``Phi(x) = x - eta grad f(x)`` every
class in Table 1 has a modulus ``phi(delta) = sqrt(c delta^2 + h)``; this module derives
each pair ``(c, h)`` with sympy from the class's defining inequalities, via

    ||Phi x - Phi y||^2 = delta^2 - 2 eta s + eta^2 G^2,
    s = <g_x - g_y, x - y>,  G = ||g_x - g_y||,  delta = ||x - y||,

maximised over the (s, G) the class allows, and evaluates the derived expressions (never
retyped: :func:`lipschitz` and its siblings lambdify :func:`derive_class`):

=============================  ====================================  =====================
class                          constraints on (s, G)                 (c, h)
=============================  ====================================  =====================
convex, L-Lipschitz            s >= 0 (monotone), G <= 2L            (1, (2 eta L)^2)
convex, (p, M)-weakly smooth   s >= 2p/(1+p) M^(-1/p) G^((1+p)/p)    (1, h_p) below
kappa-str. convex, beta-smooth s >= kappa delta^2, G <= beta delta   (1-2 eta kappa+eta^2 beta^2, 0)
convex, beta-smooth            s >= G^2/beta, G <= beta delta        (1, 0) if eta <= 2/beta
nonconvex, beta-smooth         s >= -G delta, G <= beta delta        ((1 + eta beta)^2, 0)
(lambda, kappa)-str. dissip.   s >= kappa delta^2 - lambda, G<=b d   (1-2 eta kappa+eta^2 beta^2,
                                                                       2 eta lambda)
=============================  ====================================  =====================

``h_p = sup_{G >= 0} [eta^2 G^2 - 4 eta p/(1+p) M^(-1/p) G^((1+p)/p)]
= 4 (1-p)/(1+p) eta^(2/(1-p)) (M/2)^(2/(1-p))`` (Hoelder co-coercivity; Lei & Ying 2020,
Lemma D.3, as cited by the paper); ``p = 0`` gives ``(eta M)^2``, the Lipschitz value with
``M = 2L``, and ``p -> 1`` gives 0 when ``eta M <= 2``.  The comparison of each derived pair
with the paper's Table 1 is in :func:`dpsym.papers.bravo2025.shift_problem.table_1`.

Remark 3.6's gradient descent-ascent step on a convex/concave saddle problem has the modulus
``sqrt(delta^2 + min{2 eta L, eta beta delta}^2)`` (:func:`descent_ascent`), not of this form.

:func:`stress_test` samples point pairs for a concrete function of each class (seeded) and
reports ``max ||Phi x - Phi y|| / phi(||x - y||)``, which must not exceed 1.
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, Number, precision, to_mpf
from dpsym.papers.registry import cite

__all__ = [
    "CLASSES",
    "DescentAscent",
    "Modulus",
    "StressReport",
    "convex_smooth",
    "derive_class",
    "derive_descent_ascent",
    "derive_holder_h",
    "descent_ascent",
    "descent_ascent_stress_test",
    "lipschitz",
    "lipschitz_tightness",
    "modulus",
    "nonconvex_smooth",
    "stress_params",
    "stress_test",
    "strongly_convex_smooth",
    "strongly_dissipative",
    "weakly_smooth",
]

PAPER = "bravo2025"
REF = cite(PAPER, "Sec. 2 / Table 1")
REF_DEF = cite(PAPER, "Def. 2.1")
REF_36 = cite(PAPER, "Remark 3.6")


@dataclass(frozen=True)
class Modulus:
    """``phi(delta) = sqrt(c delta^2 + h)`` for one step of a gradient map."""

    kind: str
    c: mpf
    h: mpf

    def __call__(self, delta: Number) -> mpf:
        d = to_mpf(delta, "delta", REF_DEF)
        require(d >= 0, "delta", delta, "delta >= 0", REF_DEF)
        return mpmath.sqrt(self.c * d * d + self.h)


def _pos(name: str, x: Number, ref: str = REF) -> mpf:
    v = to_mpf(x, name, ref)
    require(v > 0, name, x, f"{name} > 0", ref)
    return v


#: The symbols of each class's (c, h), in the order its function takes them.
_PARAMS = {
    "lipschitz": ("eta", "L"),
    "weakly_smooth": ("eta", "p", "M"),
    "strongly_convex_smooth": ("eta", "kappa", "beta"),
    "convex_smooth": ("eta", "beta"),
    "nonconvex_smooth": ("eta", "beta"),
    "strongly_dissipative": ("eta", "lambda", "kappa", "beta"),
}


@functools.cache
def _evaluator(kind: str) -> Callable[..., tuple[mpf, mpf]]:
    """``(c, h)`` of class ``kind`` as an mpmath function of its parameters, lambdified from
    the sympy derivation :func:`derive_class` (the formula is not typed a second time)."""
    c, h, _ = derive_class(kind)
    args = [sp.Symbol(n, positive=True) for n in _PARAMS[kind]]
    return sp.lambdify(args, (c, h), "mpmath")


def _evaluate(kind: str, *values: mpf) -> Modulus:
    c, h = _evaluator(kind)(*values)
    return Modulus(kind, +mpf(c), +mpf(h))


def lipschitz(eta: Number, L: Number, *, dps: int = DEFAULT_DPS) -> Modulus:
    """Convex, L-Lipschitz (subgradient step): ``(c, h) = (1, (2 eta L)^2)`` (Table 1, row 1).

    >>> from dpsym.numerics import nstr
    >>> m = lipschitz("0.3", 1)
    >>> nstr(m.c, 5), nstr(m.h, 5)
    ('1.0', '0.36')
    """
    with precision(dps):
        return _evaluate("lipschitz", _pos("eta", eta), _pos("L", L))


def weakly_smooth(eta: Number, p: Number, M: Number, *, dps: int = DEFAULT_DPS) -> Modulus:
    """Convex, (p, M)-weakly smooth: ``(1, 4 (1-p)/(1+p) eta^(2/(1-p)) (M/2)^(2/(1-p)))``.

    Table 1, row 2 (Section 2, item (2)); ``0 <= p <= 1``.  At ``p = 1`` the value is the
    limit 0, which needs ``eta M <= 2`` (otherwise ``h -> inf`` and a ValueError is raised).

    >>> from dpsym.numerics import nstr
    >>> nstr(weakly_smooth("0.1", "0.5", 2).h * 7500, 10)     # 4 (1/3) (1/10)^4 = 1/7500
    '1.0'
    """
    with precision(dps):
        e, Mv = _pos("eta", eta), _pos("M", M)
        pv = to_mpf(p, "p", REF)
        require(0 <= pv <= 1, "p", p, "0 <= p <= 1", REF)
        if pv == 1:
            require(e * Mv <= 2, "eta", eta, "eta M <= 2 at p = 1 (h -> inf otherwise)", REF)
            return Modulus("weakly_smooth", mpf(1), mpf(0))
        return _evaluate("weakly_smooth", e, pv, Mv)


def strongly_convex_smooth(eta: Number, kappa: Number, beta: Number, *,
                           dps: int = DEFAULT_DPS) -> Modulus:
    """kappa-strongly convex, beta-smooth: ``(1 - 2 eta kappa + eta^2 beta^2, 0)`` (row 3)."""
    with precision(dps):
        e, k, b = _pos("eta", eta), _pos("kappa", kappa), _pos("beta", beta)
        require(k <= b, "kappa", kappa, "kappa <= beta", REF)
        return _evaluate("strongly_convex_smooth", e, k, b)


def convex_smooth(eta: Number, beta: Number, *, dps: int = DEFAULT_DPS) -> Modulus:
    """Convex, beta-smooth with ``eta <= 2/beta``: ``(1, 0)``, nonexpansive (row 4)."""
    with precision(dps):
        e, b = _pos("eta", eta), _pos("beta", beta)
        require(e * b <= 2, "eta", eta, f"eta <= 2/beta = {mpmath.nstr(2 / b, 10)}", REF)
        return _evaluate("convex_smooth", e, b)


def nonconvex_smooth(eta: Number, beta: Number, *, dps: int = DEFAULT_DPS) -> Modulus:
    """Nonconvex, beta-smooth: ``((1 + eta beta)^2, 0)`` (row 5; Hardt et al. 2016)."""
    with precision(dps):
        return _evaluate("nonconvex_smooth", _pos("eta", eta), _pos("beta", beta))


def strongly_dissipative(eta: Number, lam: Number, kappa: Number, beta: Number, *,
                         dps: int = DEFAULT_DPS) -> Modulus:
    """(lambda, kappa)-str. dissipative, beta-smooth: ``(1-2 eta kappa+eta^2 beta^2, 2 eta lam)``.

    Row 6; ``<grad f(x) - grad f(y), x - y> >= -lam + kappa ||x - y||^2`` for all x, y.
    """
    with precision(dps):
        e, lv = _pos("eta", eta), _pos("lam", lam)
        k, b = _pos("kappa", kappa), _pos("beta", beta)
        require(k <= b, "kappa", kappa, "kappa <= beta", REF)
        return _evaluate("strongly_dissipative", e, lv, k, b)


CLASSES: dict[str, Callable[..., Modulus]] = {
    "lipschitz": lipschitz,
    "weakly_smooth": weakly_smooth,
    "strongly_convex_smooth": strongly_convex_smooth,
    "convex_smooth": convex_smooth,
    "nonconvex_smooth": nonconvex_smooth,
    "strongly_dissipative": strongly_dissipative,
}


def modulus(kind: str, **params: Number) -> Modulus:
    """``(c, h)`` of the Table 1 class ``kind`` (a key of :data:`CLASSES`) at ``params``."""
    require(kind in CLASSES, "kind", kind, f"one of {sorted(CLASSES)}", REF)
    return CLASSES[kind](**params)


# --- sympy derivations -------------------------------------------------------------------

_eta, _delta = sp.symbols("eta delta", positive=True)
_s, _G = sp.Symbol("s", real=True), sp.Symbol("G", nonnegative=True)
_SQ = _delta ** 2 - 2 * _eta * _s + _eta ** 2 * _G ** 2  # ||Phi x - Phi y||^2


def _c_h(expr: sp.Expr) -> tuple[sp.Expr, sp.Expr]:
    """Split a bound ``c delta^2 + h`` (polynomial in delta of degree <= 2, no linear term)."""
    poly = sp.Poly(sp.expand(expr), _delta)
    coeffs = dict(poly.terms())
    require(set(coeffs) <= {(0,), (2,)}, "bound", expr, "the form c delta^2 + h", REF)
    return sp.simplify(coeffs.get((2,), 0)), sp.simplify(coeffs.get((0,), 0))


@functools.cache
def derive_holder_h() -> tuple[sp.Expr, Derivation]:
    """``h_p = max_{G >= 0} [eta^2 G^2 - 4 eta p/(1+p) M^(-1/p) G^((1+p)/p)]`` by calculus.

    In log coordinates (``G = e^g``, ``eta = e^a``, ``M = e^m``) both terms are exponentials
    of expressions linear in ``g, a, m``: ``J = e^(E1) - k e^(E2)``, ``E1 = 2a + 2g``,
    ``E2 = a - m/p + g (1+p)/p``, ``k = 4p/(1+p)``.  sympy solves ``J'(g) = 0`` (linear after
    taking logs), checks ``J''(g*) e^(-E1) = 2 (p-1)/p < 0`` (a maximum for 0 < p < 1; the
    critical point is unique and J -> -inf as G -> inf, J(0) = 0) and evaluates
    ``h_p = J(g*) = e^(E1*) (1 - k e^(E2* - E1*))`` back in ``(eta, M)``; the Derivation
    records ``J(g*) e^(-E1*) = (1-p)/(1+p)`` and ``E1* = log 4 + 2 (a + m - log 2)/(1-p)``,
    i.e. ``h_p = 4 (1-p)/(1+p) eta^(2/(1-p)) (M/2)^(2/(1-p))``.
    """
    p = sp.Symbol("p", positive=True)
    a, m, g = sp.symbols("a m g", real=True)
    E1 = 2 * a + 2 * g
    E2 = a - m / p + g * (1 + p) / p
    k = 4 * p / (1 + p)
    J = sp.exp(E1) - k * sp.exp(E2)
    dJ = sp.diff(J, g)  # = 2 e^E1 - 4 e^E2
    require(sp.simplify(dJ - (2 * sp.exp(E1) - 4 * sp.exp(E2))) == 0, "dJ", dJ,
            "2 e^E1 - 4 e^E2", REF)
    gs = sp.solve(sp.Eq(sp.log(2) + E1, sp.log(4) + E2), g)
    require(len(gs) == 1, "g*", gs, "a unique critical point", REF)
    E1s, E2s = sp.simplify(E1.subs(g, gs[0])), sp.simplify(E2.subs(g, gs[0]))
    gap = sp.simplify(E2s - E1s)  # -log 2
    second = sp.simplify(4 - k * ((1 + p) / p) ** 2 * sp.exp(gap))  # J''(g*) e^(-E1*)
    require(sp.simplify(second - 2 * (p - 1) / p) == 0, "J''", second, "2 (p-1)/p", REF)
    coeff = sp.simplify(1 - k * sp.exp(gap))  # J(g*) e^(-E1*)
    target_exp = sp.log(4) + 2 * (a + m - sp.log(2)) / (1 - p)
    res = sp.Abs(sp.simplify(coeff - (1 - p) / (1 + p))) + sp.Abs(sp.simplify(E1s - target_exp))
    eta, M = sp.Symbol("eta", positive=True), sp.Symbol("M", positive=True)
    # back in (eta, M): E1* = log 4 + (2/(1-p)) log(e^(a+m)/2) = log 4 + (2/(1-p)) log(eta M/2)
    inner = sp.simplify((1 - p) / 2 * (E1s - sp.log(4)))
    require(sp.simplify(inner - (a + m - sp.log(2))) == 0, "E1*", E1s,
            "log 4 + 2 (a + m - log 2)/(1 - p)", REF)
    h = coeff * 4 * (eta * M / 2) ** (2 / (1 - p))
    return h, Derivation(sp.Tuple(coeff, E1s), sp.Tuple((1 - p) / (1 + p), target_exp),
                         sp.simplify(res),
                         f"Hoelder h: g* = {sp.simplify(gs[0])}, E2* - E1* = {gap}, "
                         f"J''(g*) e^(-E1*) = {sp.factor(second)} (< 0 for 0 < p < 1)")


@functools.cache
def derive_class(kind: str) -> tuple[sp.Expr, sp.Expr, Derivation]:
    """Derive ``(c, h)`` of Table 1's class ``kind`` from ``||Phi x - Phi y||^2`` (sympy).

    ``_SQ = delta^2 - 2 eta s + eta^2 G^2`` is decreasing in s, so s is set to the class's
    lower bound (which may depend on G); the result is then maximised in G on the allowed
    interval by checking the sign of its G-derivative (sympy) or, for the Hoelder class,
    by :func:`derive_holder_h`.  Returns ``(c, h, Derivation)``: the Derivation compares the
    worst case of ``||Phi x - Phi y||^2`` with ``c delta^2 + h`` (it holds when the worst case
    has that form) and its notes say how s and G were set.
    """
    require(kind in CLASSES, "kind", kind, f"one of {sorted(CLASSES)}", REF)
    eta, d, s, G = _eta, _delta, _s, _G
    L, k, b, lam = sp.symbols("L kappa beta lambda", positive=True)
    require(sp.diff(_SQ, s) == -2 * eta, "s", s, "d/ds ||Phi x - Phi y||^2 = -2 eta < 0", REF)
    if kind == "weakly_smooth":
        h, der = derive_holder_h()
        worst = d ** 2 + h  # s >= 0 part leaves delta^2; the G-part is the sup above
        c = sp.Integer(1)
        return c, h, Derivation(worst, c * d ** 2 + h, sp.simplify(worst - c * d ** 2 - h),
                                f"{kind}: s -> Hoelder co-coercivity, sup over G; "
                                f"{der.notes}; residual of the sup: {der.residual}")
    lower_s = {
        "lipschitz": sp.Integer(0),
        "strongly_convex_smooth": k * d ** 2,
        "convex_smooth": G ** 2 / b,
        "nonconvex_smooth": -G * d,
        "strongly_dissipative": k * d ** 2 - lam,
    }[kind]
    G_max = {"lipschitz": 2 * L}.get(kind, b * d)
    bound_G = sp.expand(_SQ.subs(s, lower_s))
    dG = sp.diff(bound_G, G)
    if kind == "convex_smooth":
        # dG = 2 G eta (eta - 2/beta) <= 0 when eta <= 2/beta: eta = 2/(beta (1 + v)), v >= 0
        v = sp.Symbol("v", nonnegative=True)
        sign = sp.factor(dG.subs(eta, 2 / (b * (1 + v))) / G)
        require(sign.is_nonpositive is True, "dG/G", sign, "<= 0 for eta <= 2/beta", REF)
        worst = bound_G.subs(G, 0)  # nonincreasing in G for theta <= 1
    else:
        # nondecreasing in G on [0, G_max]: dG >= 0 for G >= 0 (sympy decides the sign)
        require(sp.factor(dG).is_nonnegative is True, "dG", dG, "dG >= 0 for G >= 0", REF)
        worst = bound_G.subs(G, G_max)
    c, h = _c_h(worst)
    g_at = "0" if kind == "convex_smooth" else G_max
    return c, h, Derivation(worst, c * d ** 2 + h, sp.simplify(sp.expand(worst - c * d ** 2 - h)),
                            f"{kind}: s -> {lower_s}, G -> {g_at}; dBound/dG = {sp.factor(dG)}")


# --- Remark 3.6: gradient descent-ascent ---------------------------------------------------

@dataclass(frozen=True)
class DescentAscent:
    """Remark 3.6: ``phi(delta) = sqrt(delta^2 + min{2 eta L, eta beta delta}^2)``, the modulus
    of ``z -> z - eta F(z)`` for the monotone field ``F = (grad_x f, -grad_y f)`` of a
    convex/concave ``f`` with ``||F|| <= L`` and ``F`` beta-Lipschitz; ``lipschitz`` is the
    convex-Lipschitz modulus ``sqrt(delta^2 + (2 eta L)^2)`` that dominates it.  Values are
    computed at ``dps`` digits."""

    eta: mpf
    L: mpf
    beta: mpf
    dps: int = DEFAULT_DPS

    def __call__(self, delta: Number) -> mpf:
        with precision(self.dps):
            d = to_mpf(delta, "delta", REF_36)
            require(d >= 0, "delta", delta, "delta >= 0", REF_36)
            return mpmath.sqrt(d * d + min(2 * self.eta * self.L, self.eta * self.beta * d) ** 2)

    @property
    def lipschitz(self) -> Modulus:
        return lipschitz(self.eta, self.L, dps=self.dps)


def descent_ascent(eta: Number, L: Number, beta: Number, *, dps: int = DEFAULT_DPS
                   ) -> DescentAscent:
    """The modulus of Remark 3.6 (see :class:`DescentAscent`).

    >>> from dpsym.numerics import nstr
    >>> m = descent_ascent("0.1", 1, 2)
    >>> nstr(m(1), 10), nstr(m(20), 10), nstr(m.lipschitz(20), 10)
    ('1.019803903', '20.00099998', '20.00099998')
    """
    with precision(dps):
        return DescentAscent(_pos("eta", eta, REF_36), _pos("L", L, REF_36),
                             _pos("beta", beta, REF_36), dps)


def derive_descent_ascent() -> Derivation:
    """Remark 3.6 by the expansion of Section 2: for a monotone ``F`` (``s = <F z - F z',
    z - z'> >= 0``) with ``||F|| <= L`` and ``F`` beta-Lipschitz, ``G = ||F z - F z'|| <=
    min{2 L, beta delta}`` and ``||Phi z - Phi z'||^2 = delta^2 - 2 eta s + eta^2 G^2`` is
    largest at ``s = 0`` and the largest G (sympy checks the signs of the derivatives)."""
    eta, d, s, G = _eta, _delta, _s, _G
    L, b = sp.symbols("L beta", positive=True)
    require(sp.diff(_SQ, s).is_negative is True, "s", s, "decreasing in s", REF_36)
    require(sp.factor(sp.diff(_SQ, G)).is_nonnegative is True, "G", G, "nondecreasing in G",
            REF_36)
    worst = _SQ.subs({s: 0, G: sp.Min(2 * L, b * d)})
    target = d ** 2 + sp.Min(2 * eta * L, eta * b * d) ** 2
    # on each branch of the min (beta delta >= 2L and <= 2L) the difference must vanish
    x = sp.Symbol("x", nonnegative=True)
    res = (sp.Abs(sp.simplify((worst - target).subs(d, 2 * L * (1 + x) / b)))
           + sp.Abs(sp.simplify((worst - target).subs(L, b * d * (1 + x) / 2))))
    return Derivation(worst, target, res,
                      "s -> 0 (monotone F), G -> min{2L, beta delta}: "
                      "phi(delta)^2 = delta^2 + min{2 eta L, eta beta delta}^2")


def lipschitz_tightness(eta: Number, L: Number, delta: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """``||Phi x - Phi y|| / phi(delta)`` for ``f = L|x|`` (d = 1) at ``x = delta/2 = -y``.

    The subgradient step maps the pair to ``+-(delta/2 - eta L)``, at distance
    ``|delta - 2 eta L|``, while ``phi(delta) = sqrt(delta^2 + (2 eta L)^2)``: the ratio tends to
    1 as ``delta -> 0``, so the Lipschitz modulus (Table 1, row 1) cannot be improved at 0.
    """
    ref = "Bravo et al. 2025, Sec. 2, item (1)"
    with precision(dps):
        m = lipschitz(eta, L, dps=dps)
        d = to_mpf(delta, "delta", ref)
        require(d > 0, "delta", delta, "delta > 0", ref)
        e, Lv = to_mpf(eta, "eta", ref), to_mpf(L, "L", ref)
        x, y = d / 2, -d / 2
        px, py = x - e * Lv * mpmath.sign(x), y - e * Lv * mpmath.sign(y)
        return abs(px - py) / m(d)


# --- numeric stress test -----------------------------------------------------------------

@dataclass(frozen=True)
class StressReport:
    """Result of :func:`stress_test`: worst ratio ``||Phi x - Phi y|| / phi(||x - y||)``."""

    kind: str
    pairs: int
    max_ratio: float
    max_excess_over_h: float | None
    violations: int


def _test_function(kind: str, params: dict[str, float], rng: np.random.Generator,
                   dim: int) -> Callable[[np.ndarray], np.ndarray]:
    """A (sub)gradient oracle of a concrete function of class ``kind`` (rows = points)."""
    if kind == "lipschitz":
        # max of affine pieces with ||a_i|| <= L: convex, L-Lipschitz, nondifferentiable
        L = params["L"]
        A = rng.normal(size=(7, dim))
        A *= L / np.linalg.norm(A, axis=1, keepdims=True) * rng.uniform(0.5, 1, (7, 1))
        A[0] = L * np.eye(dim)[0]
        A[1] = -L * np.eye(dim)[0]
        bb = rng.normal(scale=0.1, size=7)
        return lambda X: A[np.argmax(X @ A.T + bb, axis=1)]
    if kind == "weakly_smooth":
        # f = |x|^(1+p)/(1+p) * M/2^(1-p): grad = (M/2^(1-p)) x |x|^(p-1) is (p, M)-Hoelder
        p, M = params["p"], params["M"]
        scale = M / 2 ** (1 - p)

        def g(X: np.ndarray) -> np.ndarray:
            n = np.linalg.norm(X, axis=1, keepdims=True)
            with np.errstate(divide="ignore", invalid="ignore"):
                out = np.where(n > 0, X * n ** (p - 1), 0.0)
            return scale * out
        return g
    if kind in ("strongly_convex_smooth", "convex_smooth"):
        # kappa/2 |x|^2 + (beta - kappa) * 2 * lse(B x) with ||B|| <= 1: Hess in [kappa, beta]
        beta = params["beta"]
        kap = params.get("kappa", 0.0)
        B = rng.normal(size=(5, dim))
        B /= np.linalg.norm(B, 2)

        def g(X: np.ndarray) -> np.ndarray:
            Z = X @ B.T
            P = np.exp(Z - Z.max(axis=1, keepdims=True))
            P /= P.sum(axis=1, keepdims=True)
            return kap * X + 2 * (beta - kap) * P @ B
        return g
    if kind == "nonconvex_smooth":
        # beta * sum_i sin(x_i): Hessian -beta diag(sin x), spectral norm <= beta
        beta = params["beta"]
        return lambda X: beta * np.cos(X)
    if kind == "strongly_dissipative":
        # K/2 |x|^2 + a sum sin(x_i): beta = K + a; <g_x - g_y, x - y> >= K d^2 - 2 a sqrt(dim) d
        # >= (K/2) d^2 - 2 a^2 dim / K, so (lambda, kappa) = (2 a^2 dim / K, K/2)
        K, a = 2 * params["kappa"], params["beta"] - 2 * params["kappa"]
        return lambda X: K * X + a * np.cos(X)
    raise ValueError(f"kind={kind!r} violates kind in {sorted(CLASSES)} ({REF})")


def stress_params(kind: str) -> dict[str, float]:
    """Default (eta, class constants) for :func:`stress_test`, matching its test functions."""
    return {
        "lipschitz": {"eta": 0.3, "L": 1.0},
        "weakly_smooth": {"eta": 0.3, "p": 0.5, "M": 2.0},
        "strongly_convex_smooth": {"eta": 0.3, "kappa": 0.5, "beta": 2.0},
        "convex_smooth": {"eta": 0.9, "beta": 2.0},
        "nonconvex_smooth": {"eta": 0.3, "beta": 1.5},
        # K = 2 kappa = 1, a = beta - 1 = 0.5, dim = 2: lambda = 2 a^2 dim / K = 1
        "strongly_dissipative": {"eta": 0.3, "lam": 1.0, "kappa": 0.5, "beta": 1.5},
    }[kind]


def stress_test(kind: str, params: dict[str, float] | None = None, *, pairs: int = 20000,
                dim: int = 2, seed: int = 0, against: Modulus | None = None) -> StressReport:
    """Sample point pairs and check ``||Phi x - Phi y|| <= phi(||x - y||)`` (float64, seeded).

    Half the pairs are uniform in ``[-3, 3]^dim``, half are close pairs (``||x - y||`` log-uniform
    in ``[1e-4, 1]``), which probe ``phi(0) = sqrt(h)``.  A violation is a ratio above
    ``1 + 1e-9``.  ``max_excess_over_h`` is ``max (||Phi x - Phi y||^2 - c delta^2) / h`` (how
    much of ``h`` is used; None when h = 0).  ``against`` replaces the class's modulus by
    another one (a negative control: a too-small modulus must produce violations).
    """
    pairs = require_integer("pairs", pairs, REF, minimum=2)
    params = dict(stress_params(kind) if params is None else params)
    if kind == "strongly_dissipative":
        require(dim == 2 and params == stress_params(kind), "params", params,
                "the default parameters (the test function's lambda uses dim = 2)", REF)
    mod = modulus(kind, **params) if against is None else against
    c, h = float(mod.c), float(mod.h)
    rng = np.random.default_rng(seed)
    grad = _test_function(kind, params, rng, dim)
    eta = params["eta"]
    n1 = pairs // 2
    X = rng.uniform(-3, 3, size=(pairs, dim))
    Y = np.empty_like(X)
    Y[:n1] = rng.uniform(-3, 3, size=(n1, dim))
    dirs = rng.normal(size=(pairs - n1, dim))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    Y[n1:] = X[n1:] + dirs * 10 ** rng.uniform(-4, 0, size=(pairs - n1, 1))
    PX = X - eta * grad(X)
    PY = Y - eta * grad(Y)
    num = np.linalg.norm(PX - PY, axis=1)
    delta = np.linalg.norm(X - Y, axis=1)
    phi = np.sqrt(c * delta ** 2 + h)
    ratio = num / phi
    excess = float(np.max((num ** 2 - c * delta ** 2) / h)) if h > 0 else None
    return StressReport(kind, pairs, float(ratio.max()), excess, int(np.sum(ratio > 1 + 1e-9)))


def descent_ascent_stress_test(eta: float = 0.3, b: float = 2.0, *, pairs: int = 20000,
                               seed: int = 0) -> tuple[StressReport, StressReport]:
    """Stress test of Remark 3.6 on a convex/concave saddle function (float64, seeded).

    ``f(x, y) = sqrt(1 + x^2) - sqrt(1 + y^2) + b x y`` on the box ``[-3, 3]^2`` (d = 1 per
    player): ``F(x, y) = (x/sqrt(1+x^2) + b y, y/sqrt(1+y^2) - b x)`` is monotone (convex
    parts plus a skew bilinear part), ``beta = 1 + b`` bounds its Lipschitz constant and
    ``L = sqrt(2) (1 + 3 b)`` bounds ``||F||`` on the box.  Pairs as in :func:`stress_test`
    (half close pairs).  Returns the reports against :func:`descent_ascent` and against
    the dominating convex-Lipschitz modulus; neither may exceed 1.
    """
    n = require_integer("pairs", pairs, REF_36, minimum=2)
    rng = np.random.default_rng(seed)
    L, beta = float(np.sqrt(2) * (1 + 3 * b)), 1 + b

    def field(Z: np.ndarray) -> np.ndarray:
        x, y = Z[:, 0], Z[:, 1]
        return np.column_stack((x / np.sqrt(1 + x * x) + b * y, y / np.sqrt(1 + y * y) - b * x))

    n1 = n // 2
    Z = rng.uniform(-3, 3, size=(n, 2))
    W = np.empty_like(Z)
    W[:n1] = rng.uniform(-3, 3, size=(n1, 2))
    dirs = rng.normal(size=(n - n1, 2))
    dirs /= np.linalg.norm(dirs, axis=1, keepdims=True)
    W[n1:] = np.clip(Z[n1:] + dirs * 10 ** rng.uniform(-4, 0, size=(n - n1, 1)), -3, 3)
    num = np.linalg.norm(Z - eta * field(Z) - W + eta * field(W), axis=1)
    delta = np.linalg.norm(Z - W, axis=1)
    # phi evaluated by the mpmath definitions on every pair would be slow; their float64
    # twins are the same expressions through numpy.vectorize
    da = descent_ascent(repr(eta), repr(L), repr(beta))
    lip = da.lipschitz
    # Modulus.__call__ works at the working precision: set it, not the caller's
    with precision(DEFAULT_DPS):
        phi_da = np.vectorize(lambda v: float(da(repr(float(v)))))(delta)
        phi_lip = np.vectorize(lambda v: float(lip(repr(float(v)))))(delta)
    reports = []
    for kind, phi in (("descent_ascent", phi_da), ("lipschitz", phi_lip)):
        ratio = num / phi
        reports.append(StressReport(kind, n, float(ratio.max()), None,
                                    int(np.sum(ratio > 1 + 1e-9))))
    return reports[0], reports[1]
