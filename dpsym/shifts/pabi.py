"""The PABI shift problem (P) under a modulus of continuity (Bravo, Flores-Mella & Guzman 2025).

Projected noisy iterations ``X_{t+1} = Pi_X[Phi_t(X_t) + xi_t]``, ``xi_t ~ N(0, sigma_t^2 I)``,
``t = 0..T-1``, where ``Phi_t`` has modulus of continuity ``phi_t(delta) = sqrt(c_t delta^2 +
h_t)``.  Lemma 3.3 bounds ``R_alpha(X_T || X'_T) <= (alpha/2) sum_{t=1}^T a_t^2 / sigma_{t-1}^2``
for every feasible shift sequence ``a``; with ``u_0 = D``, ``u_T = 0`` and
``a_t = phi_{t-1}(u_{t-1}) - u_t`` this is problem (P) (Section 3.1):

    minimise  E(u) = sum_{t=1}^T (phi_{t-1}(u_{t-1}) - u_t)^2 / sigma_{t-1}^2
    over      u = (u_1..u_{T-1}) with  0 <= u_t <= phi_{t-1}(u_{t-1})            (3)

Index convention (the paper's, used by every function here): the sequences ``c, h, sigma2``
have length ``T`` and entry ``k`` (0-based) is ``c_k, h_k, sigma_k^2``, the modulus and noise
of step ``k`` (the map from ``X_k`` to ``X_{k+1}``).  The shift ``a_t`` (``t = 1..T``) is
absorbed by the noise of step ``t-1``; in Python lists ``a[k]`` is ``a_{k+1}`` and is
divided by ``sigma2[k]``.  ``u`` lists carry both ends: ``u[0] = D``, ``u[T] = 0``.

Closed forms (Lemma 3.5, Theorem 3.4), with ``P_t = prod_{l=t}^{T-1} c_l`` (``P_T = 1``)
and ``W_t = sum_{k=t}^{T-1} sigma_k^2 P_{k+1}`` (``W_T = 0``):

    u*_t = (W_t / W_{t-1}) phi_{t-1}(u*_{t-1}),                                   (4)
    E(u*) = D^2 P_0 / W_0 + sum_{t=0}^{T-1} h_t P_{t+1} / W_t.               (Thm 3.4)

The objective is typed once: :func:`term` is the summand ``(phi(u_prev) - u)^2 / sigma^2``
(and :func:`modulus_value` its ``phi``), written with an injectable square root so that the
mpmath path (:func:`objective`), the float64 plotting path (:func:`objective_float`), the
multistart solver and the sympy path (:func:`symbolic_objective`) all evaluate the same
expression; the first and second derivatives of the summand live in one place too
(:func:`term_derivatives`, checked against sympy in the tests) and every gradient and
Hessian is assembled from them.  Symbolic checks (sympy) of the closed form's stationarity,
of its value and of the T = 2 KKT solution live here, next to a generic numeric solver
(scipy multistart, then Newton on grad E = 0 in mpmath) that does not use the closed form.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.registry import cite

__all__ = [
    "NumericSolution",
    "ShiftProblem",
    "ShiftSolution",
    "a_to_u",
    "hessian_float",
    "is_feasible",
    "modulus_value",
    "objective",
    "objective_float",
    "objective_gradient",
    "objective_hessian",
    "optimal_shifts",
    "optimal_value",
    "renyi_bound_from_shifts",
    "shift_problem",
    "shifted_distances",
    "solve_numeric",
    "symbolic_objective",
    "symbolic_optimum",
    "t2_kkt_symbolic",
    "term",
    "term_derivatives",
    "u_to_a",
    "value_identity_symbolic",
    "verify_stationarity_symbolic",
    "w_coordinates",
]

PAPER = "bravo2025"
REF_LEM = cite(PAPER, "Lemma 3.5")
REF_THM = cite(PAPER, "Thm 3.4")
REF_P = cite(PAPER, "problem (P)")
REF_33 = cite(PAPER, "Lemma 3.3")


# --- the one formula: phi_t and the summand of E ------------------------------------------

def modulus_value(c: object, h: object, x: object, sqrt: Callable = mpmath.sqrt) -> object:
    """``phi(x) = sqrt(c x^2 + h)``, the modulus of continuity of Theorem 3.4 (Def. 2.1).

    ``sqrt`` selects the arithmetic: ``mpmath.sqrt`` (default), ``numpy.sqrt`` (arrays,
    elementwise) or ``sympy.sqrt`` (symbols).
    """
    return sqrt(c * x * x + h)


def term(u_prev: object, u: object, c: object, h: object, sigma2: object,
         sqrt: Callable = mpmath.sqrt) -> object:
    """One summand of E in (P): ``(phi(u_prev) - u)^2 / sigma2`` with ``phi`` of
    :func:`modulus_value`; ``E(u) = sum_t term(u_{t-1}, u_t, c_{t-1}, h_{t-1}, sigma_{t-1}^2)``.

    With ``c = sigma2 = 1`` it is the ``g_{t-1}`` of Appendix B (Prop. B.1).

    >>> from dpsym.numerics import nstr
    >>> nstr(term(0, 1, 1, 4, 2), 10)         # (sqrt(4) - 1)^2 / 2
    '0.5'
    """
    return (modulus_value(c, h, u_prev, sqrt) - u) ** 2 / sigma2


def term_derivatives(x: object, y: object, c: object, h: object, s: object,
                     sqrt: Callable = mpmath.sqrt) -> tuple[object, ...]:
    """First and second partial derivatives of :func:`term` ``(x, y, c, h, s)`` in ``(x, y)``.

    Returns ``(d/dx, d/dy, d2/dx2, d2/dxdy, d2/dy2)``, from ``phi' = c x / phi`` and
    ``phi'' = c h / phi^3``; undefined where ``phi(x) = 0`` (``h = 0`` and ``x = 0``).  The
    tests compare each with sympy's derivative of :func:`term`.
    """
    ph = modulus_value(c, h, x, sqrt)
    d1 = c * x / ph
    d2 = c * h / ph ** 3
    res = ph - y
    return (2 * res * d1 / s, -2 * res / s, 2 * (d1 * d1 + res * d2) / s, -2 * d1 / s,
            2 / s + 0 * res)


def _objective(full: Sequence, c: Sequence, h: Sequence, s: Sequence, sqrt: Callable) -> object:
    """E at ``full = (u_0, .., u_T)`` (any arithmetic): the sum of the T summands."""
    return sum(term(full[t - 1], full[t], c[t - 1], h[t - 1], s[t - 1], sqrt)
               for t in range(1, len(c) + 1))


def _derivatives(full: Sequence, c: Sequence, h: Sequence, s: Sequence,
                 sqrt: Callable) -> tuple[list, list, list]:
    """grad E, and the diagonal and off-diagonal of the tridiagonal Hess E, in u_1..u_{T-1}.

    u_t enters summand t as its second argument and summand t + 1 as its first.
    """
    T = len(c)
    grad, diag, off = [], [], []
    for t in range(1, T):
        _, gy, _, _, hyy = term_derivatives(full[t - 1], full[t], c[t - 1], h[t - 1], s[t - 1],
                                            sqrt)
        gx, _, hxx, hxy, _ = term_derivatives(full[t], full[t + 1], c[t], h[t], s[t], sqrt)
        grad.append(gy + gx)
        diag.append(hyy + hxx)
        if t < T - 1:
            off.append(hxy)
    return grad, diag, off


# --- validated data -------------------------------------------------------------------------

@dataclass(frozen=True)
class ShiftProblem:
    """Validated data of (P): diameter ``D``, moduli ``(c_t, h_t)`` and variances ``sigma2``."""

    D: mpf
    c: tuple[mpf, ...]
    h: tuple[mpf, ...]
    sigma2: tuple[mpf, ...]

    @property
    def T(self) -> int:
        return len(self.c)

    def phi(self, t: int, x: mpf) -> mpf:
        """The modulus ``phi_t(x) = sqrt(c_t x^2 + h_t)`` (even in x)."""
        return modulus_value(self.c[t], self.h[t], x)


def _seq(name: str, xs: Sequence[Number] | Number, ref: str) -> tuple[mpf, ...]:
    require(isinstance(xs, Sequence) and not isinstance(xs, str), name, xs,
            "a sequence of length T", ref)
    return tuple(to_mpf(x, f"{name}[{i}]", ref) for i, x in enumerate(xs))


def _shift_problem(D: Number, c: Sequence[Number], h: Sequence[Number],
                   sigma2: Sequence[Number], ref: str = REF_THM) -> ShiftProblem:
    """Coerce and validate the data of (P) at the current precision (Thm 3.4's hypotheses:
    ``D > 0``, ``c_t > 0``, ``h_t >= 0``, ``sigma_t^2 > 0``, equal lengths ``T >= 1``)."""
    Dv = to_mpf(D, "D", ref)
    require(Dv > 0, "D", D, "D > 0 (diameter of the domain)", ref)
    cs, hs, ss = _seq("c", c, ref), _seq("h", h, ref), _seq("sigma2", sigma2, ref)
    require(len(cs) >= 1, "c", c, "length T >= 1", ref)
    require(len(hs) == len(cs), "h", h, f"the same length as c (T = {len(cs)})", ref)
    require(len(ss) == len(cs), "sigma2", sigma2, f"the same length as c (T = {len(cs)})", ref)
    for i, v in enumerate(cs):
        require(v > 0, f"c[{i}]", v, "c_t > 0", ref)
    for i, v in enumerate(hs):
        require(v >= 0, f"h[{i}]", v, "h_t >= 0", ref)
    for i, v in enumerate(ss):
        require(v > 0, f"sigma2[{i}]", v, "sigma_t^2 > 0", ref)
    return ShiftProblem(Dv, cs, hs, ss)


def shift_problem(D: Number, c: Sequence[Number], h: Sequence[Number],
                  sigma2: Sequence[Number], ref: str = REF_THM,
                  dps: int = DEFAULT_DPS) -> ShiftProblem:
    """The validated data of (P) (Thm 3.4's hypotheses: ``D > 0``, ``c_t > 0``,
    ``h_t >= 0``, ``sigma_t^2 > 0``, equal lengths ``T >= 1``), converted at ``dps``
    digits.  Its :meth:`ShiftProblem.phi` computes at the caller's precision."""
    with precision(dps):
        return _shift_problem(D, c, h, sigma2, ref)


# --- the closed form, once, in any arithmetic (mpmath numbers or sympy symbols) ----------

def _products(c: Sequence) -> list:
    """P_t = prod_{l=t}^{T-1} c_l, t = 0..T (P_T = 1)."""
    P = [1] * (len(c) + 1)
    for t in range(len(c) - 1, -1, -1):
        P[t] = P[t + 1] * c[t]
    return P


def _weights(P: Sequence, s: Sequence) -> list:
    """W_t = sum_{k=t}^{T-1} s_k P_{k+1}, t = 0..T (W_T = 0)."""
    W = [0] * (len(s) + 1)
    for t in range(len(s) - 1, -1, -1):
        W[t] = W[t + 1] + s[t] * P[t + 1]
    return W


def _theorem_3_4(D: object, h: Sequence, P: Sequence, W: Sequence) -> object:
    """E(u*) = D^2 P_0 / W_0 + sum_t h_t P_{t+1} / W_t (Theorem 3.4)."""
    return D ** 2 * P[0] / W[0] + sum(h[t] * P[t + 1] / W[t] for t in range(len(h)))


def _recursion(D: object, c: Sequence, h: Sequence, W: Sequence, sqrt: Callable) -> list:
    """u*_0 = D, u*_t = (W_t / W_{t-1}) phi_{t-1}(u*_{t-1}), t = 1..T (eq. (4); u*_T = 0)."""
    u = [D]
    for t in range(1, len(c) + 1):
        u.append(W[t] / W[t - 1] * modulus_value(c[t - 1], h[t - 1], u[-1], sqrt))
    return u


# --- the closed form (Lemma 3.5, Theorem 3.4) ----------------------------------------------

@dataclass(frozen=True)
class ShiftSolution:
    """Closed-form optimum of (P) (Lemma 3.5 / Theorem 3.4).

    ``u``: ``u*_0 = D, u*_1, .., u*_{T-1}, u*_T = 0`` (length T+1); ``a``: the optimal shifts
    ``a*_1..a*_T`` (``a[k]`` is absorbed by the noise ``sigma2[k]``); ``ratios``:
    ``r_t = W_t / W_{t-1}``, ``t = 1..T``; ``value``: ``E(u*)`` by the Theorem 3.4 formula,
    rounded up to ``dps`` digits (it is a privacy bound up to the factor alpha/2).
    """

    u: tuple[mpf, ...]
    a: tuple[mpf, ...]
    ratios: tuple[mpf, ...]
    value: mpf
    dps: int


def optimal_shifts(D: Number, c: Sequence[Number], h: Sequence[Number],
                   sigma2: Sequence[Number], *, dps: int = DEFAULT_DPS) -> ShiftSolution:
    """The unique minimiser of (P) by the recursion (4) of Lemma 3.5 (Bravo et al. 2025).

    ``c, h, sigma2`` are ``(c_0..c_{T-1})``, ``(h_0..h_{T-1})``, ``(sigma_0^2..sigma_{T-1}^2)``:
    step ``t`` maps ``X_t`` to ``X_{t+1}`` with modulus ``sqrt(c_t d^2 + h_t)`` and noise
    variance ``sigma_t^2``.  Returns ``u*`` (with ``u*_0 = D``, ``u*_T = 0``), the shifts
    ``a*_t = phi_{t-1}(u*_{t-1}) - u*_t`` and ``E(u*)`` (Theorem 3.4), computed with guard
    digits; ``u`` and ``a`` are rounded to nearest, ``value`` up.

    >>> from dpsym.numerics import nstr
    >>> s = optimal_shifts(1, [1, 1, 1], [0, 0, 0], [1, 1, 1])
    >>> [nstr(x, 5) for x in s.a], nstr(s.value, 5)
    (['0.33333', '0.33333', '0.33333'], '0.33333')
    """
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, sigma2, REF_LEM)
        P = _products(pr.c)
        W = _weights(P, pr.sigma2)
        u = _recursion(pr.D, pr.c, pr.h, W, mpmath.sqrt)
        r = [W[t] / W[t - 1] for t in range(1, pr.T + 1)]
        a = [pr.phi(t - 1, u[t - 1]) - u[t] for t in range(1, pr.T + 1)]
        value = _theorem_3_4(pr.D, pr.h, P, W)
    with precision(dps):
        return ShiftSolution(tuple(+x for x in u), tuple(+x for x in a),
                             tuple(+x for x in r), round_up(value, dps), dps)


def optimal_value(D: Number, c: Sequence[Number], h: Sequence[Number],
                  sigma2: Sequence[Number], *, dps: int = DEFAULT_DPS) -> mpf:
    """min (P) = E(u*) in closed form (Theorem 3.4 of Bravo et al. 2025), rounded up.

        E* = D^2 prod_{k=0}^{T-1} c_k / sum_{j=0}^{T-1} sigma_j^2 prod_{l=j+1}^{T-1} c_l
             + sum_{t=0}^{T-1} h_t prod_{k=t+1}^{T-1} c_k / sum_{j=t}^{T-1} sigma_j^2
               prod_{l=j+1}^{T-1} c_l,

    so ``R_alpha(X_T || X'_T) <= (alpha/2) E*``.  Same index convention as
    :func:`optimal_shifts` (entry ``t`` of ``c, h, sigma2`` belongs to step ``t``).

    >>> from dpsym.numerics import nstr
    >>> nstr(optimal_value(1, [1] * 4, [0] * 4, [2] * 4), 10)   # D^2/(sigma^2 T)
    '0.125'
    """
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, sigma2, REF_THM)
        P = _products(pr.c)
        value = _theorem_3_4(pr.D, pr.h, P, _weights(P, pr.sigma2))
    return round_up(value, dps)


# --- the objective, its derivatives and the feasibility bookkeeping (Lemmas 3.1-3.3) ---

def _full_u(pr: ShiftProblem, u: Sequence[Number]) -> list[mpf]:
    """``u`` given as the T-1 interior values or as all T+1 values (ends D and 0 checked)."""
    vals = [to_mpf(x, f"u[{i}]", REF_P) for i, x in enumerate(u)]
    if len(vals) == pr.T - 1:
        return [pr.D, *vals, mpf(0)]
    require(len(vals) == pr.T + 1, "u", u, f"length T-1 = {pr.T - 1} or T+1 = {pr.T + 1}", REF_P)
    require(vals[0] == pr.D and vals[-1] == 0, "u", u, "u_0 = D and u_T = 0 (eq. (3))", REF_P)
    return vals


def objective(u: Sequence[Number], D: Number, c: Sequence[Number], h: Sequence[Number],
              sigma2: Sequence[Number], *, dps: int = DEFAULT_DPS) -> mpf:
    """``E(u) = sum_{t=1}^T (phi_{t-1}(u_{t-1}) - u_t)^2 / sigma_{t-1}^2`` of problem (P).

    ``u`` is the interior ``(u_1..u_{T-1})`` (any real vector: Lemma 3.5 minimises over
    R^{T-1}) or the full ``(D, u_1, .., u_{T-1}, 0)``.

    >>> from dpsym.numerics import nstr
    >>> nstr(objective([2], 3, [1, 1], [0, 0], [1, 1]), 10)     # (3 - 2)^2 + 2^2
    '5.0'
    """
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, sigma2, REF_P)
        e = _objective(_full_u(pr, u), pr.c, pr.h, pr.sigma2, mpmath.sqrt)
    with precision(dps):
        return +e


def _grad_hess(pr: ShiftProblem, x: list[mpf]) -> tuple[list[mpf], mpmath.matrix]:
    """Gradient and (tridiagonal) Hessian of E in the interior variables u_1..u_{T-1}.

    At a point with phi_t(u_t) = 0 (h_t = 0, u_t = 0) E is not differentiable and a
    ValueError is raised.
    """
    for t in range(1, pr.T):
        require(pr.phi(t, x[t]) > 0, f"u[{t}]", x[t], "phi_t(u_t) > 0 (E differentiable there)",
                REF_P)
    g, diag, off = _derivatives(x, pr.c, pr.h, pr.sigma2, mpmath.sqrt)
    n = pr.T - 1
    H = mpmath.matrix(n, n)
    for i in range(n):
        H[i, i] = diag[i]
    for i, v in enumerate(off):
        H[i, i + 1] = H[i + 1, i] = v
    return g, H


def objective_gradient(u: Sequence[Number], D: Number, c: Sequence[Number],
                       h: Sequence[Number], sigma2: Sequence[Number], *,
                       dps: int = DEFAULT_DPS) -> list[mpf]:
    """``grad E(u)`` in ``(u_1..u_{T-1})``; its components are eq. (5) times 2/(s_{t-1} s_t)."""
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, sigma2, REF_P)
        g, _ = _grad_hess(pr, _full_u(pr, u))
    with precision(dps):
        return [+v for v in g]


def objective_hessian(u: Sequence[Number], D: Number, c: Sequence[Number],
                      h: Sequence[Number], sigma2: Sequence[Number], *,
                      dps: int = DEFAULT_DPS) -> mpmath.matrix:
    """``Hess E(u)`` (tridiagonal, (T-1)x(T-1)); Appendix B: PSD on the feasible set only."""
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, sigma2, REF_P)
        _, H = _grad_hess(pr, _full_u(pr, u))
    with precision(dps):
        return H * 1


def u_to_a(u: Sequence[Number], D: Number, c: Sequence[Number], h: Sequence[Number], *,
           dps: int = DEFAULT_DPS) -> list[mpf]:
    """Shifts ``a_t = phi_{t-1}(u_{t-1}) - u_t``, t = 1..T, from ``u`` (Section 3.1)."""
    T = len(c)
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, [1] * T, REF_P)
        x = _full_u(pr, u)
        a = [pr.phi(t - 1, x[t - 1]) - x[t] for t in range(1, T + 1)]
    with precision(dps):
        return [+v for v in a]


def shifted_distances(a: Sequence[Number], D: Number, c: Sequence[Number],
                      h: Sequence[Number], *, dps: int = DEFAULT_DPS) -> list[mpf]:
    """``phi_[0:t](D, a)`` for t = 0..T-1 (the induction notation before Lemma 3.3).

    ``phi_[0:0] = phi_0(D) - a_1`` and ``phi_[0:t] = phi_t(phi_[0:t-1]) - a_{t+1}``; Lemma 3.3
    needs them all >= 0, and the last one = 0 for a bound on ``R_alpha`` itself.
    """
    T = len(c)
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, [1] * T, REF_33)
        av = _seq("a", a, REF_33)
        require(len(av) == T, "a", a, f"length T = {T}", REF_33)
        out = []
        d = pr.D
        for t in range(T):
            d = pr.phi(t, d) - av[t]
            out.append(d)
    with precision(dps):
        return [+v for v in out]


def a_to_u(a: Sequence[Number], D: Number, c: Sequence[Number], h: Sequence[Number], *,
           dps: int = DEFAULT_DPS) -> list[mpf]:
    """``u = (D, phi_[0:0], .., phi_[0:T-1])``: the inverse of :func:`u_to_a` (Section 3.1)."""
    with precision(dps + GUARD_DPS):
        Dv = to_mpf(D, "D", REF_P)
    return [Dv, *shifted_distances(a, D, c, h, dps=dps)]


def is_feasible(a: Sequence[Number], D: Number, c: Sequence[Number], h: Sequence[Number], *,
                tol: Number = 0, dps: int = DEFAULT_DPS) -> bool:
    """Feasible shift (Section 3.1): ``a_t >= 0``, ``phi_[0:t-1] >= 0``, ``phi_[0:T-1] = 0``.

    ``tol`` is an absolute slack for the three conditions (0: exact comparison).
    """
    with precision(dps + GUARD_DPS):
        tv = to_mpf(tol, "tol", REF_P)
        d = shifted_distances(a, D, c, h, dps=dps + GUARD_DPS)
        av = _seq("a", a, REF_P)
        return (all(x >= -tv for x in av) and all(x >= -tv for x in d)
                and abs(d[-1]) <= tv)


def renyi_bound_from_shifts(alpha: Number, a: Sequence[Number], sigma2: Sequence[Number], *,
                            dps: int = DEFAULT_DPS) -> mpf:
    """Right side of eq. (2), ``(alpha/2) sum_{t=1}^T a_t^2 / sigma_{t-1}^2``, rounded up.

    Lemma 3.3 (Bravo et al. 2025); ``a[k]`` pairs with ``sigma2[k]``.  Feasibility of ``a``
    is the caller's business (see :func:`is_feasible`).
    """
    with precision(dps + GUARD_DPS):
        al = to_mpf(alpha, "alpha", REF_33)
        require(al >= 1, "alpha", alpha, "alpha >= 1", REF_33)
        av, sv = _seq("a", a, REF_33), _seq("sigma2", sigma2, REF_33)
        require(len(av) == len(sv), "a", a, "the same length as sigma2", REF_33)
        for i, v in enumerate(av):
            require(v >= 0, f"a[{i}]", v, "a_t >= 0", REF_33)
        for i, v in enumerate(sv):
            require(v > 0, f"sigma2[{i}]", v, "sigma_t^2 > 0", REF_33)
        val = al / 2 * mpmath.fsum(x * x / s for x, s in zip(av, sv, strict=True))
    return round_up(val, dps)


# --- generic numeric solver (does not use the closed form) ---

@dataclass(frozen=True)
class NumericSolution:
    """Minimiser of (P) found numerically.

    ``u``: interior minimiser ``(u_1..u_{T-1})`` after the mpmath Newton polish; ``value``:
    ``E(u)``; ``starts_u``: the float64 minimisers of every scipy start (rows);
    ``starts_value``: their objective values; ``newton_steps``: Newton iterations used;
    ``grad_norm``: the final max |grad E|.
    """

    u: tuple[mpf, ...]
    value: mpf
    starts_u: np.ndarray
    starts_value: np.ndarray
    newton_steps: int
    grad_norm: mpf


def _float_full(x: np.ndarray, D: float) -> list:
    return [D, *x, 0.0]


def _E_float(x: np.ndarray, D: float, c: np.ndarray, h: np.ndarray, s: np.ndarray) -> float:
    return float(_objective(_float_full(x, D), c, h, s, np.sqrt))


def _grad_float(x: np.ndarray, D: float, c: np.ndarray, h: np.ndarray,
                s: np.ndarray) -> np.ndarray:
    with np.errstate(divide="ignore", invalid="ignore"):
        g, _, _ = _derivatives(_float_full(x, D), c, h, s, np.sqrt)
    # phi_t(u_t) = 0 (h_t = 0 at u_t = 0) is a kink of E: take 0 there (measure zero)
    return np.nan_to_num(np.array(g, dtype=float), nan=0.0, posinf=0.0, neginf=0.0)


def solve_numeric(D: Number, c: Sequence[Number], h: Sequence[Number], sigma2: Sequence[Number],
                  *, starts: int = 20, seed: int = 0, box: float = 2.0,
                  dps: int = DEFAULT_DPS) -> NumericSolution:
    """Minimise (P) over R^{T-1} without the closed form: multistart BFGS, then Newton.

    ``starts`` BFGS runs (scipy, float64) from points uniform in ``[-box D, box D]^{T-1}``
    (seeded); the best one is polished by Newton's method on ``grad E = 0`` with the exact
    tridiagonal Hessian in mpmath at ``dps + 10`` digits until the step is below
    ``10^-(dps+5)``.  Every start's end point is kept so that uniqueness can be inspected.
    """
    from scipy.optimize import minimize

    starts = require_integer("starts", starts, REF_P, minimum=1)
    with precision(dps + GUARD_DPS):
        pr = _shift_problem(D, c, h, sigma2, REF_P)
    T = pr.T
    if T == 1:
        with precision(dps):
            val = objective([], D, c, h, sigma2, dps=dps)
        return NumericSolution((), val, np.zeros((starts, 0)), np.full(starts, float(val)), 0,
                               mpf(0))
    Df = float(pr.D)
    cf = np.array([float(x) for x in pr.c])
    hf = np.array([float(x) for x in pr.h])
    sf = np.array([float(x) for x in pr.sigma2])
    rng = np.random.default_rng(seed)
    xs, Es = [], []
    for _ in range(starts):
        x0 = rng.uniform(-box * Df, box * Df, T - 1)
        r = minimize(_E_float, x0, args=(Df, cf, hf, sf), jac=_grad_float, method="BFGS",
                     options={"gtol": 1e-11, "maxiter": 20000})
        xs.append(r.x)
        Es.append(r.fun)
    xs_arr, Es_arr = np.array(xs), np.array(Es)
    best = xs_arr[int(np.argmin(Es_arr))]
    with precision(dps + GUARD_DPS):
        x = [pr.D, *(mpf(float(v)) for v in best), mpf(0)]
        tol = mpf(10) ** (-(dps + 5))
        steps = 0
        for steps in range(1, 200):  # noqa: B007 - the count is reported
            g, H = _grad_hess(pr, x)
            step = mpmath.lu_solve(H, mpmath.matrix(g))
            for i in range(T - 1):
                x[i + 1] -= step[i]
            if max(abs(v) for v in step) <= tol * max(mpf(1), pr.D):
                break
        g, _ = _grad_hess(pr, x)
        val = _objective(x, pr.c, pr.h, pr.sigma2, mpmath.sqrt)
        gn = max(abs(v) for v in g)
    with precision(dps):
        return NumericSolution(tuple(+v for v in x[1:-1]), +val, xs_arr, Es_arr, steps, +gn)


# --- sympy: objective, closed form, stationarity, Theorem 3.4 value, T = 2 KKT ---

def _symbols(T: int) -> tuple[sp.Symbol, tuple, tuple, tuple]:
    D = sp.Symbol("D", positive=True)
    c = sp.symbols(f"c0:{T}", positive=True)
    h = sp.symbols(f"h0:{T}", nonnegative=True)
    s = sp.symbols(f"s0:{T}", positive=True)  # s_t = sigma_t^2
    return D, c, h, s


def symbolic_objective(T: int) -> tuple[sp.Expr, tuple[sp.Symbol, ...], dict[str, object]]:
    """``E(u)`` of (P) with symbolic ``D, c_t, h_t, s_t = sigma_t^2`` and ``u_1..u_{T-1}``.

    Returns ``(E, u_symbols, {"D":, "c":, "h":, "s":})``.
    """
    T = require_integer("T", T, REF_P, minimum=1)
    D, c, h, s = _symbols(T)
    u = sp.symbols(f"u1:{T}", real=True) if T > 1 else ()
    E = _objective([D, *u, sp.Integer(0)], c, h, s, sp.sqrt)
    return E, tuple(u), {"D": D, "c": c, "h": h, "s": s}


def symbolic_optimum(T: int) -> tuple[list[sp.Expr], sp.Expr, dict[str, object]]:
    """Closed forms as sympy expressions: ``([u*_1..u*_{T-1}], E* (Thm 3.4), symbols)``."""
    T = require_integer("T", T, REF_LEM, minimum=1)
    D, c, h, s = _symbols(T)
    P = _products(c)
    W = _weights(P, s)
    u = _recursion(D, c, h, W, sp.sqrt)
    return u[1:-1], _theorem_3_4(D, h, P, W), {"D": D, "c": c, "h": h, "s": s}


def w_coordinates(T: int) -> tuple[sp.Symbol, tuple, tuple, list, list, list]:
    """Data of (P) in the coordinates (D, c_t, h_t, W_t): ``s_t = (W_t - W_{t+1}) / P_{t+1}``.

    ``(s_0..s_{T-1}) -> (W_0..W_{T-1})`` is a bijection of the positive data (s_t > 0 iff
    W_t > W_{t+1}), and in these coordinates ``r_t = W_t / W_{t-1}`` is a monomial ratio,
    which keeps sympy's rational arithmetic small.  Returns ``(D, c, h, W, P, s)``.
    """
    T = require_integer("T", T, REF_LEM, minimum=1)
    D = sp.Symbol("D", positive=True)
    c = sp.symbols(f"c0:{T}", positive=True)
    h = sp.symbols(f"h0:{T}", nonnegative=True)
    W = [*sp.symbols(f"W0:{T}", positive=True), sp.Integer(0)]
    P = _products(c)
    s = [(W[t] - W[t + 1]) / P[t + 1] for t in range(T)]
    return D, c, h, W, P, s


@functools.cache
def verify_stationarity_symbolic(T: int) -> Derivation:
    """grad E(u*) = 0 exactly for the closed form (4) (Lemma 3.5), any T >= 2 (sympy).

    For each t = 1..T-1 sympy differentiates the full symbolic E in u_t, then substitutes
    the closed form locally: ``phi_{t-1}(u_{t-1}) -> Q`` (a positive symbol standing for the
    already-substituted history), ``u_t = r_t Q`` and ``u_{t+1} = r_{t+1} phi_t(u_t)`` with
    ``r_t = W_t / W_{t-1}`` as rational functions of the data (``u_T = 0``, ``r_T = 0``).
    That covers every t exactly, since dE/du_t depends on u only through u_{t-1}, u_t,
    u_{t+1}: with ``phi_t(u_t) phi_t'(u_t) = c_t u_t``, dE/du_t / 2 reduces to
    ``phi_{t-1} [-(1 - r_t)/s_{t-1} + (1 - r_{t+1}) c_t r_t / s_t]``, so the optimal ratios do
    not depend on h.  The data are in the coordinates of :func:`w_coordinates`.  For T <= 3
    the nested-radical u* is also substituted in full, in the original coordinates.
    """
    T = require_integer("T", T, REF_LEM, minimum=2)
    D, c, h, W, _, s = w_coordinates(T)
    u = sp.symbols(f"u1:{T}", real=True)
    full = [D, *u, sp.Integer(0)]
    E = _objective(full, c, h, s, sp.sqrt)
    r = [None] + [W[t] / W[t - 1] for t in range(1, T + 1)]
    Q = sp.Symbol("Q", positive=True)
    resid = sp.Integer(0)
    for t in range(1, T):
        g = sp.diff(E, full[t])
        g = g.subs(modulus_value(c[t - 1], h[t - 1], full[t - 1], sp.sqrt), Q)
        ut = r[t] * Q
        if t + 1 < T:
            g = g.subs(full[t + 1], r[t + 1] * modulus_value(c[t], h[t], ut, sp.sqrt))
        g = g.subs(full[t], ut)
        resid += sp.Abs(sp.simplify(sp.together(g)))
    notes = (f"T={T}: dE/du_t at u_t = r_t phi_(t-1), u_(t+1) = r_(t+1) phi_t(u_t), "
             "r_t = W_t/W_(t-1), simplifies to 0 for t=1..T-1")
    if T <= 3:
        E0, u0, _ = symbolic_objective(T)
        ustar, _, _ = symbolic_optimum(T)
        sub = dict(zip(u0, ustar, strict=True))
        for v in u0:
            resid += sp.Abs(sp.simplify(sp.diff(E0, v).subs(sub)))
        notes += "; full nested-radical gradient at u* also simplifies to 0"
    return Derivation(sp.Integer(0), sp.Integer(0), sp.simplify(resid), notes)


@functools.cache
def value_identity_symbolic(T: int) -> Derivation:
    """E(u*) equals the Theorem 3.4 expression, exactly (sympy), for symbolic data.

    ``q_t = phi_{t-1}(u*_{t-1})^2`` obeys ``q_1 = c_0 D^2 + h_0``, ``q_{t+1} = c_t r_t^2 q_t +
    h_t`` and ``E(u*) = sum_t (1 - r_t)^2 q_t / s_{t-1}`` -- this is E evaluated at (4) with
    the square roots squared away (each summand is ``(phi_{t-1} - r_t phi_{t-1})^2``).  The
    identity is checked in the coordinates of :func:`w_coordinates` (numerator of the
    difference over a common denominator expands to 0).
    """
    T = require_integer("T", T, REF_THM, minimum=1)
    D, c, h, W, P, s = w_coordinates(T)
    r = [None] + [W[t] / W[t - 1] for t in range(1, T + 1)]
    q = [None, modulus_value(c[0], h[0], D, sp.sqrt) ** 2]
    for t in range(1, T):
        q.append(modulus_value(c[t], h[t], r[t] * sp.sqrt(q[t]), sp.sqrt) ** 2)
    E = sum((1 - r[t]) ** 2 * q[t] / s[t - 1] for t in range(1, T + 1))
    thm = _theorem_3_4(D, h, P, W)
    num, _den = sp.fraction(sp.together(E - thm))
    res = sp.expand(num)
    return Derivation(E, thm, res, f"T={T}: numerator of E(u*) - Theorem 3.4 value expands "
                      "to 0 (coordinates D, c_t, h_t, W_t)")


def t2_kkt_symbolic() -> tuple[Derivation, Derivation]:
    """T = 2 directly: sympy solves dE/du_1 = 0 and compares with (4) and with Thm 3.4."""
    E, (u1,), _ = symbolic_objective(2)
    sols = sp.solve(sp.diff(E, u1), u1)
    ustar, value, _ = symbolic_optimum(2)
    # the real critical point(s); phi_1 >= 0 everywhere so E is coercive and any solution counts
    sol = sols[0]
    d1 = Derivation(sol, ustar[0], sp.simplify(sol - ustar[0]),
                    f"T=2: sympy.solve(dE/du1=0) = {sols}; equals (4)")
    ev = sp.simplify(E.subs(u1, sol))
    d2 = Derivation(ev, value, sp.simplify(sp.together(ev - value)),
                    "T=2: E at the KKT point equals the Theorem 3.4 value")
    return d1, d2


# --- float64 paths for plotting only (vectorised over leading axes) ---

def _float_grid_full(U: np.ndarray, D: float) -> list:
    U = np.asarray(U, dtype=float)
    return [np.full(U.shape[:-1], float(D)), *np.moveaxis(U, -1, 0), np.zeros(U.shape[:-1])]


def objective_float(U: np.ndarray, D: float, c: Sequence[float], h: Sequence[float],
                    sigma2: Sequence[float]) -> np.ndarray:
    """``E`` at the points ``U[..., :]`` (interior coordinates), float64 (plots only); the
    summands are :func:`term` with ``numpy.sqrt``."""
    cf, hf, sf = (np.asarray(v, dtype=float) for v in (c, h, sigma2))
    return _objective(_float_grid_full(U, D), cf, hf, sf, np.sqrt)


def hessian_float(U: np.ndarray, D: float, c: Sequence[float], h: Sequence[float],
                  sigma2: Sequence[float]) -> np.ndarray:
    """``Hess E`` at the points ``U[..., :]``, shape ``(..., T-1, T-1)``, float64 (plots only).

    Assembled from :func:`term_derivatives`, like :func:`objective_hessian`.
    """
    U = np.asarray(U, dtype=float)
    cf, hf, sf = (np.asarray(v, dtype=float) for v in (c, h, sigma2))
    _, diag, off = _derivatives(_float_grid_full(U, D), cf, hf, sf, np.sqrt)
    n = U.shape[-1]
    H = np.zeros((*U.shape[:-1], n, n))
    for i in range(n):
        H[..., i, i] = diag[i]
    for i, v in enumerate(off):
        H[..., i, i + 1] = H[..., i + 1, i] = v
    return H
