"""Optimal allocation of a shift over k steps of an expansive (smooth, non-convex) map.

Privacy amplification by iteration for an L-smooth loss without convexity (Liang, Zhang,
He, Wu & Xing 2025, arXiv:2502.17772, App. B.2-B.3): one noisy gradient step is
``c``-Lipschitz with ``c = 1 + eta L > 1`` (Lemma 3.2, "noisy smooth-reduction"), so a shift
``z_t`` carried into a step grows to ``c z_t``, and a shift ``a_t >= 0`` paid for by the
step's Gaussian noise (Lemma 2.6) costs ``alpha a_t^2 / (2 s^2)``.  The shifts obey

    z_{t+1} = c z_t - a_t,   z_tau = D,   z_{tau+k} = 0,   a_t >= 0,   z_t >= 0,     (47)

and the total shift cost is ``sum_t a_t^2`` (times ``alpha / (2 s^2)``).  The paper spends
the whole shift in one step (``k = 1``, ``a_tau = c D``, cost ``c^2 D^2``); this module
finds the best schedule for any number ``k`` of steps.

Derivation (:func:`optimal_allocation_symbolic`, sympy, symbolic ``k``): unrolling (47)
gives the single linear constraint ``sum_{j=0}^{k-1} c^(k-1-j) a_{tau+j} = c^k D``.  By
Cauchy-Schwarz, ``(w . a)^2 <= |w|^2 |a|^2`` with ``w_j = c^(k-1-j)``, so

    min sum a^2 = c^(2k) D^2 / |w|^2 = D^2 (c^2 - 1) / (1 - c^(-2k)),
    a*_{tau+j} = lambda c^(k-1-j),   lambda = c^k D (c^2 - 1) / (c^(2k) - 1),
    z*_{tau+i} = c^i D (c^(2(k-i)) - 1) / (c^(2k) - 1)  >= 0,

with equality iff ``a`` is proportional to ``w``; every ``a*`` and ``z*`` is non-negative,
so the Cauchy-Schwarz optimum is feasible.  ``k = 1`` gives the paper's ``c^2 D^2``;
``k -> infinity`` gives ``D^2 (c^2 - 1) = D^2 eta L (2 + eta L)``; ``c -> 1`` (``eta L -> 0``)
gives ``D^2 / k``, the convex (contractive) value, whose ``1/k`` decay is what makes a
bound linear rather than quadratic in ``D`` possible.

The same problem is problem (P) of Bravo, Flores-Mella & Guzman 2025 with modulus
``phi(u) = c u`` (``c_t = c^2``, ``h_t = 0``) and constant noise, and the shift problem of
Bok, Su & Altschuler 2024 with ``s_k = 0`` and ``z_0 = D``; :func:`cross_check` solves it
with both generic numeric solvers of :mod:`dpsym.shifts` (neither uses the closed form).
"""

from __future__ import annotations

import functools
from dataclasses import dataclass

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.shifts.interpolation import generic_branch, solve_shift_problem
from dpsym.shifts.pabi import optimal_value as pabi_optimal_value
from dpsym.shifts.pabi import solve_numeric as pabi_solve_numeric

__all__ = [
    "CrossCheck",
    "KStepAllocation",
    "SmoothReductionSymbolic",
    "allocation_checks_symbolic",
    "cross_check",
    "k_step_allocation",
    "k_step_shift_cost",
    "optimal_allocation_symbolic",
    "shift_cost_of_schedule",
]

REF = "Liang et al. 2025, eq. (47) (k-step allocation, Cauchy-Schwarz)"


@dataclass(frozen=True)
class SmoothReductionSymbolic:
    """Sympy results for the k-step allocation (symbols ``c, D, k, i, h``).

    ``w_norm2 = sum_j c^(2j)`` (geometric sum), ``cost = min sum a^2``, ``a = a*_{tau+j}``
    in terms of ``j``, ``z = z*_{tau+i}`` in terms of ``i``, ``limit_k_inf`` and
    ``limit_c_1`` the two limits, ``taylor_h`` the expansion of ``cost / D^2`` to first
    order in ``h = c - 1`` (with the ``O(h^2)`` term removed).
    """

    c: sp.Symbol
    D: sp.Symbol
    k: sp.Symbol
    j: sp.Symbol
    i: sp.Symbol
    h: sp.Symbol
    w_norm2: sp.Expr
    cost: sp.Expr
    a: sp.Expr
    z: sp.Expr
    limit_k_inf: sp.Expr
    limit_c_1: sp.Expr
    taylor_h: sp.Expr


@functools.cache
def optimal_allocation_symbolic() -> SmoothReductionSymbolic:
    """Derive the k-step optimum of (47) with sympy, for symbolic ``c > 0``, ``D`` and ``k``.

    1. ``z_{tau+k} = c^k D - sum_{j<k} c^(k-1-j) a_{tau+j} = 0`` is the linear constraint
       ``w . a = c^k D``; sympy sums ``|w|^2`` (the ``c != 1`` branch of the geometric sum).
    2. Cauchy-Schwarz: ``min |a|^2 = (c^k D)^2 / |w|^2`` at ``a = (c^k D / |w|^2) w``.
    3. ``z*_{tau+i} = c^i D - sum_{j<i} c^(i-1-j) a*_{tau+j}`` (sympy sums and factors it).
    4. Limits ``k -> oo`` (with ``c = 1 + h``, ``h > 0``) and ``c -> 1``, and the Taylor
       expansion in ``h``.

    >>> d = optimal_allocation_symbolic()
    >>> d.cost
    D**2*c**(2*k)*(c**2 - 1)/(c**(2*k) - 1)
    >>> d.limit_c_1
    D**2/k
    """
    c, D = sp.symbols("c D", positive=True)
    k = sp.Symbol("k", integer=True, positive=True)
    j, i = sp.symbols("j i", integer=True, nonnegative=True)
    h = sp.Symbol("h", positive=True)
    w = c ** (k - 1 - j)
    w_norm2 = generic_branch(sp.summation(w ** 2, (j, 0, k - 1)))
    rhs = c ** k * D
    cost = sp.simplify(rhs ** 2 / w_norm2)
    a = sp.simplify(rhs / w_norm2 * w)
    paid = generic_branch(sp.summation(sp.expand(c ** (i - 1 - j) * a), (j, 0, i - 1)))
    z = sp.factor(sp.simplify(c ** i * D - paid))
    cost_h = cost.subs(c, 1 + h)
    limit_k_inf = sp.factor(sp.limit(cost_h, k, sp.oo))
    limit_c_1 = sp.simplify(sp.limit(cost_h, h, 0))
    taylor_h = sp.expand(sp.simplify(sp.series(cost_h / D ** 2, h, 0, 2).removeO()))
    return SmoothReductionSymbolic(c, D, k, j, i, h, w_norm2, cost, a, z, limit_k_inf,
                                   limit_c_1, taylor_h)


@functools.cache
def allocation_checks_symbolic() -> list[Derivation]:
    """Exact checks of the derived optimum (sympy; each residual must simplify to 0).

    * the constraint ``sum_j c^(k-1-j) a*_{tau+j} = c^k D`` holds (symbolic ``k``);
    * ``sum_j (a*_{tau+j})^2`` equals the derived minimum (symbolic ``k``);
    * the end conditions ``z*_tau = D`` and ``z*_{tau+k} = 0``;
    * the recursion ``z*_{t+1} = c z*_t - a*_t`` at every ``i`` (symbolic ``i``);
    * the minimum equals ``D^2 (c^2 - 1) / (1 - c^(-2k))`` and, at ``k = 1``, the paper's
      one-step cost ``c^2 D^2`` (App. B.3: ``a_tau = (1 + eta L) D``);
    * the Lagrange (KKT) system for ``k = 1..4`` solved by ``sympy.solve`` gives the same
      minimum (an independent derivation for small ``k``).
    """
    d = optimal_allocation_symbolic()
    c, D, k, j, i = d.c, d.D, d.k, d.j, d.i
    out = []
    lhs = generic_branch(sp.summation(sp.expand(c ** (k - 1 - j) * d.a), (j, 0, k - 1)))
    out.append(Derivation(lhs, c ** k * D, sp.simplify(lhs - c ** k * D),
                          "constraint w . a* = c^k D"))
    ssq = generic_branch(sp.summation(sp.expand(d.a ** 2), (j, 0, k - 1)))
    out.append(Derivation(ssq, d.cost, sp.simplify(ssq - d.cost), "sum (a*)^2 = minimum"))
    out.append(Derivation(d.z.subs(i, 0), D, sp.simplify(d.z.subs(i, 0) - D), "z*_tau = D"))
    out.append(Derivation(d.z.subs(i, k), sp.Integer(0), sp.simplify(d.z.subs(i, k)),
                          "z*_(tau+k) = 0"))
    rec = c * d.z - d.a.subs(j, i)
    out.append(Derivation(rec, d.z.subs(i, i + 1), sp.simplify(rec - d.z.subs(i, i + 1)),
                          "z*_(t+1) = c z*_t - a*_t"))
    target = D ** 2 * (c ** 2 - 1) / (1 - c ** (-2 * k))
    out.append(Derivation(d.cost, target, sp.simplify(d.cost - target),
                          "minimum = D^2 (c^2 - 1) / (1 - c^(-2k))"))
    one = d.cost.subs(k, 1)
    out.append(Derivation(one, c ** 2 * D ** 2, sp.simplify(one - c ** 2 * D ** 2),
                          "k = 1: the paper's one-step cost (1 + eta L)^2 D^2"))
    for kk in range(1, 5):
        a = sp.symbols(f"a0:{kk}", real=True)
        lam = sp.Symbol("lam", real=True)
        lag = sum(x ** 2 for x in a) - lam * (sum(c ** (kk - 1 - m) * a[m] for m in range(kk))
                                            - c ** kk * D)
        (sol,) = sp.solve([sp.diff(lag, v) for v in (*a, lam)], (*a, lam), dict=True)
        val = sp.simplify(sum(sol[x] ** 2 for x in a))
        ref = d.cost.subs(k, kk)
        out.append(Derivation(val, ref, sp.simplify(val - ref),
                              f"k = {kk}: Lagrange system solved by sympy gives the minimum"))
    return out


def _c_D_k(c: Number, D: Number, k: Number) -> tuple[mpf, mpf, int]:
    cv = to_mpf(c, "c", REF)
    require(cv > 0, "c", c, "c > 0 (Lipschitz constant of one step; c = 1 + eta L)", REF)
    Dv = to_mpf(D, "D", REF)
    require(Dv >= 0, "D", D, "D >= 0 (initial shift, the diameter)", REF)
    kk = require_integer("k", k, REF, minimum=1)
    return cv, Dv, kk


@functools.cache
def _cost_fn():
    d = optimal_allocation_symbolic()
    return sp.lambdify((d.c, d.D, d.k), d.cost, "mpmath")


@functools.cache
def _alloc_fns():
    d = optimal_allocation_symbolic()
    return (sp.lambdify((d.c, d.D, d.k, d.j), d.a, "mpmath"),
            sp.lambdify((d.c, d.D, d.k, d.i), d.z, "mpmath"))


def _extra_digits(cv: mpf) -> int:
    """Digits lost by the closed form's (c^2 - 1)/(c^(2k) - 1) cancellation near c = 1."""
    if cv == 1:
        return 0
    return max(0, int(-mpmath.log10(abs(cv - 1)))) + 2


def k_step_shift_cost(c: Number, D: Number, k: Number, *, dps: int = DEFAULT_DPS) -> mpf:
    """``min sum_t a_t^2`` over the k-step schedules of (47): ``D^2 (c^2-1)/(1 - c^(-2k))``.

    Evaluated from the sympy-derived closed form (:func:`optimal_allocation_symbolic`),
    with its ``c -> 1`` limit ``D^2 / k`` at ``c = 1``; rounded up (it enters a privacy
    bound).  ``c = 1 + eta L`` for one step of DP-SGD on an L-smooth loss.

    >>> from dpsym.numerics import nstr
    >>> nstr(k_step_shift_cost("1.2", 1, 1), 10), nstr(k_step_shift_cost("1.2", 1, 4), 10)
    ('1.44', '0.5733407293')
    """
    with precision(dps + GUARD_DPS):
        cv, Dv, kk = _c_D_k(c, D, k)
    with precision(dps + GUARD_DPS + _extra_digits(cv)):
        cv, Dv, kk = _c_D_k(c, D, k)
        if cv == 1:
            d = optimal_allocation_symbolic()
            out = mpf(sp.lambdify((d.D, d.k), d.limit_c_1, "mpmath")(Dv, kk))
        else:
            out = mpf(_cost_fn()(cv, Dv, kk))
    return round_up(out, dps)


@dataclass(frozen=True)
class KStepAllocation:
    """The optimal k-step schedule: shifts ``a`` (``a[j] = a*_{tau+j}``, j = 0..k-1), the
    shift sequence ``z`` (``z[i] = z*_{tau+i}``, i = 0..k, ``z[0] = D``, ``z[k] = 0``) and
    ``cost = sum a^2`` (rounded up)."""

    a: tuple[mpf, ...]
    z: tuple[mpf, ...]
    cost: mpf


def k_step_allocation(c: Number, D: Number, k: Number, *,
                      dps: int = DEFAULT_DPS) -> KStepAllocation:
    """The Cauchy-Schwarz-optimal shifts ``a*_{tau+j} = lambda c^(k-1-j)`` of (47), with the
    resulting shifts ``z*`` (sympy-derived closed forms, lambdified).

    >>> from dpsym.numerics import nstr
    >>> s = k_step_allocation(2, 1, 2)
    >>> [nstr(x, 6) for x in s.a], [nstr(x, 6) for x in s.z], nstr(s.cost, 6)
    (['1.6', '0.8'], ['1.0', '0.4', '0.0'], '3.2')
    """
    with precision(dps + GUARD_DPS):
        cv, Dv, kk = _c_D_k(c, D, k)
    with precision(dps + GUARD_DPS + _extra_digits(cv)):
        cv, Dv, kk = _c_D_k(c, D, k)
        if cv == 1:
            a = [Dv / kk] * kk
            z = [Dv * (kk - i) / kk for i in range(kk + 1)]
        else:
            fa, fz = _alloc_fns()
            a = [mpf(fa(cv, Dv, kk, j)) for j in range(kk)]
            z = [mpf(fz(cv, Dv, kk, i)) for i in range(kk + 1)]
        cost = mpmath.fsum(x * x for x in a)
    with precision(dps):
        return KStepAllocation(tuple(+x for x in a), tuple(+x for x in z), round_up(cost, dps))


def shift_cost_of_schedule(c: Number, D: Number, a: list[Number], *,
                           dps: int = DEFAULT_DPS) -> tuple[mpf, list[mpf]]:
    """``(sum a_t^2, [z_tau, .., z_{tau+k}])`` for a given schedule ``a`` of (47).

    Feasibility is checked and a violation raises: every ``a_t >= 0`` and ``z_t >= 0``,
    and the final shift within ``1e-6 max(1, D)`` of 0 (a schedule meant to end at 0).
    The residual final shift is then settled exactly by adjusting the last ``a`` (paying
    the rest, or paying less if it overshot), so the returned cost always belongs to a
    schedule that ends at exactly ``z = 0``: inputs rounded to float still give a valid
    bound.
    """
    with precision(dps + GUARD_DPS):
        cv, Dv, _ = _c_D_k(c, D, max(1, len(a)))
        av = [to_mpf(x, f"a[{t}]", REF) for t, x in enumerate(a)]
        require(len(av) >= 1, "a", a, "a schedule of length k >= 1", REF)
        for t, x in enumerate(av):
            require(x >= 0, f"a[{t}]", x, "a_t >= 0 (Lemma 2.6)", REF)
        z = [Dv]
        for x in av:
            z.append(cv * z[-1] - x)
        require(abs(z[-1]) <= mpf("1e-6") * max(1, Dv), "a", a,
                f"a schedule ending at z = 0 (eq. (47)); it ends at {mpmath.nstr(z[-1], 5)}",
                REF)
        av[-1] += z[-1]
        z[-1] = mpf(0)
        require(av[-1] >= 0, "a", a, "a_t >= 0 after settling the final shift", REF)
        for t, x in enumerate(z):
            require(x >= 0, f"z[{t}]", x, "z_t >= 0", REF)
        cost = mpmath.fsum(x * x for x in av)
    with precision(dps):
        return round_up(cost, dps), [+x for x in z]


@dataclass(frozen=True)
class CrossCheck:
    """The k-step minimum three ways: ``closed_form`` (this module), ``pabi_closed_form``
    (Bravo et al. 2025, Thm 3.4 with ``c_t = c^2``, ``h_t = 0``), ``pabi_numeric``
    (multistart BFGS + mpmath Newton, :func:`dpsym.shifts.pabi.solve_numeric`) and
    ``slsqp`` (float64 SLSQP, :func:`dpsym.shifts.interpolation.solve_shift_problem`, with
    its schedule ``slsqp_a``)."""

    closed_form: mpf
    pabi_closed_form: mpf
    pabi_numeric: mpf
    slsqp: float
    slsqp_a: tuple[float, ...]


@functools.cache
def cross_check(c: Number, D: Number, k: int, *, dps: int = 30, starts: int = 4,
                seed: int = 0) -> CrossCheck:
    """Solve the k-step problem with the generic solvers of :mod:`dpsym.shifts`.

    Problem (P) of Bravo et al. minimises ``sum_t (phi(u_{t-1}) - u_t)^2 / sigma^2`` with
    ``u_0 = D``, ``u_k = 0``; with ``phi(u) = c u`` and ``sigma^2 = 1`` this is (47) with
    ``a_t = c u_{t-1} - u_t``.  The Bok et al. solver takes ``c``, the per-step sensitivities
    ``s_t = 0`` and ``z_0 = D`` directly.
    """
    with precision(dps + GUARD_DPS):
        cv, Dv, kk = _c_D_k(c, D, k)
        c2 = cv * cv
    cf = k_step_shift_cost(cv, Dv, kk, dps=dps)
    pc = pabi_optimal_value(Dv, [c2] * kk, [0] * kk, [1] * kk, dps=dps)
    pn = pabi_solve_numeric(Dv, [c2] * kk, [0] * kk, [1] * kk, starts=starts, seed=seed,
                            dps=dps).value
    a, val = solve_shift_problem(float(cv), [0.0] * kk, z0=float(Dv))
    return CrossCheck(cf, pc, pn, val, tuple(float(x) for x in a))
