"""Shift sequences of the shifted interpolated process (Bok, Su & Altschuler 2024, Sec. 3, App. C).

Notation (Thm C.3): per step k = 1..t the maps phi_k, phi'_k are c-Lipschitz and differ by at
most s_k; the interpolated process tracks X at distance z_k (z_0 given, z_t = 0) and pays
a_k = lambda_k (c z_{k-1} + s_k) per step, with

    z_k = (1 - lambda_k)(c z_{k-1} + s_k),   i.e.   z_k + a_k = c z_{k-1} + s_k.

The privacy bound is G(sqrt(sum_k a_k^2) / sigma); the best bound solves the *shift problem*

    minimise sum_k a_k^2  subject to  z_k + a_k = c z_{k-1} + s_k,  a_k, z_k >= 0,  z_t = 0,

a convex quadratic programme (lambda_k = a_k / (c z_{k-1} + s_k) is then in [0, 1]).

* :func:`lemma_c6_symbolic` derives the optimum for constant s_k = s, 0 < c < 1, z_0 = 0
  (Lemma C.6) with sympy, for *symbolic* t: the recursion telescopes to the single linear
  constraint sum_k c^(t-k) a_k = s (1 - c^t)/(1 - c), and Cauchy-Schwarz (equivalently the
  Lagrange condition a_k proportional to c^(t-k)) gives the minimiser.
* :func:`solve_shift_problem` solves any instance numerically (scipy SLSQP) and
  :func:`kkt_certificate` certifies a candidate at high precision: feasibility plus KKT
  multipliers of the right sign prove global optimality of a convex programme.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf
from scipy.optimize import minimize

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, Number, precision, to_mpf

__all__ = [
    "ShiftSolution",
    "cyclic_shift_pattern",
    "cyclic_shifts",
    "generic_branch",
    "kkt_certificate",
    "lemma_c6_limit",
    "lemma_c6_shifts",
    "lemma_c6_symbolic",
    "lemma_c8_symbolic",
    "lemma_c10_symbolic",
    "solve_shift_problem",
]

REF_C6 = "Bok et al. 2024, Lemma C.6"


@dataclass(frozen=True)
class LemmaC6:
    """Sympy results of Lemma C.6: symbols (c, s, t, k) and expressions in them."""

    c: sp.Symbol
    s: sp.Symbol
    t: sp.Symbol
    k: sp.Symbol
    constraint_rhs: sp.Expr  # sum_k c^(t-k) a_k = this
    value: sp.Expr  # min sum a_k^2
    a: sp.Expr  # a_k
    z: sp.Expr  # z_k
    lam: sp.Expr  # lambda_k


@cache
def lemma_c6_symbolic() -> LemmaC6:
    """Derive Lemma C.6 with sympy for symbolic c, s, t and step index k.

    1. Unrolling z_k = c z_{k-1} + s - a_k from z_0 = 0 gives
       z_t = sum_{j<=t} c^(t-j) (s - a_j); z_t = 0 is the linear constraint
       sum_j c^(t-j) a_j = s sum_j c^(t-j)  (sympy sums the geometric series).
    2. Minimising sum a_j^2 under one linear constraint w . a = R: the Lagrange condition
       gives a_j = R w_j / |w|^2 (Cauchy-Schwarz equality), value R^2 / |w|^2.
    3. z_k = sum_{j<=k} c^(k-j) (s - a_j) and lambda_k = a_k / (c z_{k-1} + s).
    """
    c = sp.Symbol("c", positive=True)
    s = sp.Symbol("s", positive=True)
    t = sp.Symbol("t", integer=True, positive=True)
    k, j = sp.symbols("k j", integer=True, positive=True)
    w = c ** (t - j)
    rhs = generic_branch(sp.summation(s * w, (j, 1, t)))
    w_norm2 = generic_branch(sp.summation(w**2, (j, 1, t)))
    value = sp.factor(sp.simplify(rhs**2 / w_norm2))
    a_j = sp.simplify(rhs * w / w_norm2)
    a_k = sp.factor(sp.simplify(a_j.subs(j, k)))
    z_k = sp.factor(sp.simplify(generic_branch(sp.summation(sp.expand(c ** (k - j) * (s - a_j)),
                                                       (j, 1, k)))))
    lam_k = sp.factor(sp.simplify(a_k / (c * z_k.subs(k, k - 1) + s)))
    return LemmaC6(c, s, t, k, rhs, value, a_k, z_k, lam_k)


@cache
def lemma_c6_limit() -> sp.Expr:
    """lim_{t -> oo} of Lemma C.6's optimal value over s^2, by sympy: (1 + c)/(1 - c).

    0 < c < 1 is written c = e^-u, u > 0, so that sympy knows c^t -> 0.

    >>> lemma_c6_limit()
    (-c - 1)/(c - 1)
    """
    d = lemma_c6_symbolic()
    u = sp.Symbol("u", positive=True)
    lim = sp.limit((d.value / d.s**2).subs(d.c, sp.exp(-u)), d.t, sp.oo)
    return sp.simplify(lim.subs(u, -sp.log(d.c)))


def generic_branch(expr: sp.Expr) -> sp.Expr:
    """The c != 1 branch of a geometric sum (sympy returns Piecewise((c == 1 case), (generic)))."""
    expr = sp.piecewise_fold(expr)
    if isinstance(expr, sp.Piecewise):
        return sp.simplify(expr.args[-1].expr)
    return sp.simplify(expr)


@dataclass(frozen=True)
class ShiftSolution:
    """A shift sequence: a_k, z_k (k = 0..t, z_0 first) and lambda_k, and sum a_k^2."""

    a: list[mpf]
    z: list[mpf]
    lam: list[mpf]
    value: mpf


def lemma_c6_shifts(c: Number, s: Number, t: int, dps: int = DEFAULT_DPS) -> ShiftSolution:
    """The optimal shifts of Lemma C.6 at (c, s, t), from the sympy-derived closed forms."""
    t = require_integer("t", t, REF_C6, minimum=1)
    d = lemma_c6_symbolic()
    with precision(dps):
        cv, sv = to_mpf(c, "c", REF_C6), to_mpf(s, "s", REF_C6)
        require(0 < cv < 1, "c", c, "0 < c < 1", REF_C6)
        require(sv > 0, "s", s, "s > 0", REF_C6)
        subs = {d.c: cv, d.s: sv, d.t: t}
        fa = sp.lambdify(d.k, d.a.subs(subs), "mpmath")
        fz = sp.lambdify(d.k, d.z.subs(subs), "mpmath")
        fl = sp.lambdify(d.k, d.lam.subs(subs), "mpmath")
        a = [mpf(fa(mpf(k))) for k in range(1, t + 1)]
        z = [mpf(0)] + [mpf(fz(mpf(k))) for k in range(1, t + 1)]
        lam = [mpf(fl(mpf(k))) for k in range(1, t + 1)]
        value = mpf(sp.lambdify((), d.value.subs(subs), "mpmath")())
    return ShiftSolution(a, z, lam, value)


def solve_shift_problem(
    c: float, s: Sequence[float], z0: float = 0.0
) -> tuple[np.ndarray, float]:
    """Solve the shift problem numerically (float64, scipy SLSQP): (a, sum a^2).

    Variables a_1..a_t >= 0; z_k = c z_{k-1} + s_k - a_k must stay >= 0 and end at z_t = 0.
    Generic: s_k may vary with k (cyclic batches put s_k = 0 off the differing batch).
    The constraints are linear in a, z_k = c^k z_0 + sum_{j<=k} c^(k-j) (s_j - a_j), so their
    Jacobian, -c^(k-j) for j <= k, is passed exactly (finite differences make SLSQP ~100x
    slower here).

    >>> a, value = solve_shift_problem(0.5, [1.0, 1.0])
    >>> round(value, 9)   # Lemma C.6 at c = 1/2, s = 1, t = 2: (3/5)(3) = 1.8
    1.8
    """
    s = np.asarray(s, dtype=float)
    t = len(s)
    k = np.arange(1, t + 1)
    powers = np.where(k[:, None] > np.arange(t)[None, :],
                      float(c) ** np.maximum(k[:, None] - 1 - np.arange(t)[None, :], 0), 0.0)
    jac = -powers                               # d z_k / d a_j, rows k = 1..t
    free = powers @ s + float(c) ** k * z0      # z_k at a = 0

    def zs(a: np.ndarray) -> np.ndarray:
        return free + jac @ a

    cons = [{"type": "eq", "fun": lambda a: zs(a)[-1:], "jac": lambda a: jac[-1:]}]
    if t > 1:
        cons.append({"type": "ineq", "fun": lambda a: zs(a)[:-1], "jac": lambda a: jac[:-1]})
    x0 = np.full(t, (c * z0 + s.sum()) / t)
    res = minimize(lambda a: float(a @ a), x0, jac=lambda a: 2 * a, method="SLSQP",
                   bounds=[(0, None)] * t, constraints=cons,
                   options={"ftol": 1e-15, "maxiter": 1000})
    return res.x, float(res.x @ res.x)


def kkt_certificate(c: Number, s: Sequence[Number], a: Sequence[Number], z0: Number = 0,
                    dps: int = DEFAULT_DPS) -> dict[str, mpf]:
    """Certify that ``a`` solves the shift problem: residuals of feasibility and KKT.

    Substituting z, the problem is min |a|^2 over a >= 0 with linear constraints
    z_t(a) = 0 and z_k(a) >= 0, where z_k(a) = c^k z0 + sum_{j<=k} c^(k-j)(s_j - a_j).
    If every z_k (k < t) and a_k is strictly positive, only z_t = 0 binds and KKT reduces
    to 2 a = nu grad(z_t) = -nu (c^(t-1), ..., 1): a must be proportional to c^(t-k) with
    a multiplier nu < 0.  Returned: the largest constraint violation, the largest
    deviation from proportionality, min a_k and min z_k (k < t); for a convex programme
    these being ~0, ~0, > 0, > 0 prove global optimality.
    """
    with precision(dps):
        cv = to_mpf(c, "c")
        sv = [to_mpf(x, "s") for x in s]
        av = [to_mpf(x, "a") for x in a]
        t = len(sv)
        z = [to_mpf(z0, "z0")]
        for k in range(t):
            z.append(cv * z[-1] + sv[k] - av[k])
        grad = [cv ** (t - 1 - k) for k in range(t)]
        ratios = [av[k] / grad[k] for k in range(t)]
        spread = max(ratios) - min(ratios)
        return {
            "z_t": abs(z[-1]),
            "proportionality": spread / max(abs(r) for r in ratios),
            "min_a": min(av),
            "min_z_interior": min(z[1:-1]) if t > 1 else mpf("inf"),
        }


def _lambda_from(a: Sequence[mpf], z: Sequence[mpf], c: mpf, s: Sequence[mpf]) -> list[mpf]:
    return [a[k] / (c * z[k] + s[k]) for k in range(len(a))]


_ = mpmath  # mpmath is the lambdify target


@dataclass(frozen=True)
class LemmaC8:
    """Sympy results of Lemma C.8 (c = 1, z_tau = D, z_t = 0), with N = t - tau steps."""

    s: sp.Symbol
    D: sp.Symbol
    N: sp.Symbol
    value: sp.Expr  # min sum a_k^2 as a function of N
    argmin: sp.Expr  # minimiser over real N > 0
    min_value: sp.Expr  # value at the minimiser
    a: sp.Expr  # a_k (constant)
    z: sp.Expr  # z_k, k = tau + i  (i = 0..N), in terms of i
    lam: sp.Expr  # lambda at step tau + i (i = 1..N)


@cache
def lemma_c8_symbolic() -> LemmaC8:
    """Derive Lemma C.8 with sympy: the shift problem with c = 1 started at distance D.

    With c = 1 the recursion z_k + a_k = z_{k-1} + s telescopes over N = t - tau steps to
    sum a_k = D + N s (z_tau = D, z_t = 0), so by Cauchy-Schwarz a_k = s + D/N and the value
    is (D + N s)^2 / N; over real N > 0 it is minimised where its derivative vanishes.
    """
    s, D, N = sp.symbols("s D N", positive=True)
    i = sp.Symbol("i", integer=True, nonnegative=True)
    total = D + N * s
    value = sp.factor(total**2 / N)
    (argmin,) = [r for r in sp.solve(sp.diff(value, N), N) if r.is_positive]
    min_value = sp.simplify(value.subs(N, argmin))
    a = sp.simplify(total / N)
    z = sp.simplify(D + i * s - i * a)  # z after i steps
    lam = sp.simplify(a / (z.subs(i, i - 1) + s))
    return LemmaC8(s, D, N, value, argmin, min_value, a, z, lam)


@dataclass(frozen=True)
class LemmaC10:
    """Lemma C.10 (cyclic batches): its printed a_k, and sum a_k^2 summed by sympy."""

    c: sp.Symbol
    s: sp.Symbol
    l: sp.Symbol
    E: sp.Symbol
    j: sp.Symbol  # j*, the batch that differs
    k: sp.Symbol
    a: sp.Expr  # a_k for k >= j* (0 before)
    value: sp.Expr  # sum_{k=j*}^{t*} a_k^2, t = l E, t* = t + j* - l - 1


@cache
def lemma_c10_symbolic() -> LemmaC10:
    """The printed shifts of Lemma C.10 and the sum of their squares (sympy).

    a_k = c^(t-k+j*-2) (1 - c^2) s / ((1 - c^l)(1 + c^(t-l))) for j* <= k <= t* and 0 before,
    with t = l E and t* = t + j* - l - 1.  The sum is a geometric series in c^2.
    """
    c, s = sp.symbols("c s", positive=True)
    l, E, j, k = sp.symbols("l E j k", integer=True, positive=True)
    t = l * E
    a = c ** (t - k + j - 2) * (1 - c**2) * s / ((1 - c**l) * (1 + c ** (t - l)))
    t_star = t + j - l - 1
    # Summing over i = t* - k (so the exponent grows with i) makes the series a plain
    # geometric one, which sympy sums about 3x faster than over k.
    i = sp.Symbol("i", integer=True, nonnegative=True)
    term = sp.powsimp(sp.expand(a.subs(k, t_star - i) ** 2))
    value = sp.factor(sp.simplify(generic_branch(sp.summation(term, (i, 0, t_star - j)))))
    return LemmaC10(c, s, l, E, j, k, a, value)


def cyclic_shifts(c: Number, s: Number, l: int, E: int, j_star: int,
                  dps: int = DEFAULT_DPS) -> ShiftSolution:
    """Lemma C.10's sequences at numbers: a_k (printed formula), z_k by the recursion
    z_k = c z_{k-1} + s 1{r(k-1) = j*} - a_k with r(k) = (k mod l) + 1, lambda_k."""
    ref = "Bok et al. 2024, Lemma C.10"
    l = require_integer("l", l, ref, minimum=1)
    E = require_integer("E", E, ref, minimum=2)
    j_star = require_integer("j_star", j_star, ref, minimum=1)
    require(j_star <= l, "j_star", j_star, f"1 <= j* <= l = {l}", ref)
    d = lemma_c10_symbolic()
    with precision(dps):
        cv, sv = to_mpf(c, "c", ref), to_mpf(s, "s", ref)
        require(0 < cv < 1, "c", c, "0 < c < 1", ref)
        require(sv > 0, "s", s, "s > 0", ref)
        fa = sp.lambdify(d.k, d.a.subs({d.c: cv, d.s: sv, d.l: l, d.E: E, d.j: j_star}),
                         "mpmath")
        t_star = l * E + j_star - l - 1
        a = [mpf(fa(mpf(k))) if k >= j_star else mpf(0) for k in range(1, t_star + 1)]
        z = [mpf(0)]
        lam = []
        for k in range(1, t_star + 1):
            hit = sv if (k - 1) % l + 1 == j_star else mpf(0)
            budget = cv * z[-1] + hit
            z.append(budget - a[k - 1])
            lam.append(a[k - 1] / budget if budget > 0 else mpf(0))
        value = mpmath.fsum(x * x for x in a)
    return ShiftSolution(a, z, lam, value)


def cyclic_shift_pattern(s: float, l: int, E: int, j_star: int) -> list[float]:
    """s_k for the steps k = 1..t* of NoisyCGD: s on the steps that use batch j*, else 0."""
    t_star = l * E + j_star - l - 1
    return [s if (k - 1) % l + 1 == j_star else 0.0 for k in range(1, t_star + 1)]
