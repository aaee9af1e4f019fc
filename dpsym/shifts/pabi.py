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

Symbolic checks (sympy) of the stationarity system (5), of the optimal value and of the
T = 2 KKT solution live here too, next to a generic numeric solver (scipy multistart, then
Newton on grad E = 0 in mpmath) that does not use the closed form.
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf

__all__ = [
    "NumericSolution",
    "ShiftProblem",
    "ShiftSolution",
    "a_to_u",
    "hessian_float",
    "is_feasible",
    "objective",
    "objective_float",
    "objective_gradient",
    "objective_hessian",
    "optimal_shifts",
    "optimal_value",
    "prop_b_1_symbolic",
    "renyi_bound_from_shifts",
    "shifted_distances",
    "solve_numeric",
    "stationarity_symbolic",
    "symbolic_objective",
    "symbolic_optimum",
    "t2_kkt_symbolic",
    "u_to_a",
    "value_identity_symbolic",
    "verify_stationarity_symbolic",
]

REF_LEM = "Bravo et al. 2025, Lemma 3.5"
REF_THM = "Bravo et al. 2025, Thm 3.4"
REF_P = "Bravo et al. 2025, problem (P)"


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
        return mpmath.sqrt(self.c[t] * x * x + self.h[t])


def _seq(name: str, xs: Sequence[Number] | Number, ref: str) -> tuple[mpf, ...]:
    require(isinstance(xs, Sequence) and not isinstance(xs, str), name, xs,
            "a sequence of length T", ref)
    return tuple(to_mpf(x, f"{name}[{i}]", ref) for i, x in enumerate(xs))


def _problem(D: Number, c: Sequence[Number], h: Sequence[Number], sigma2: Sequence[Number],
             ref: str = REF_THM) -> ShiftProblem:
    """Coerce and validate the data at the current precision (Thm 3.4 hypotheses)."""
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


def _PW(pr: ShiftProblem) -> tuple[list[mpf], list[mpf]]:
    """P_t = prod_{l=t}^{T-1} c_l and W_t = sum_{k=t}^{T-1} sigma_k^2 P_{k+1}, t = 0..T."""
    T = pr.T
    P = [mpf(1)] * (T + 1)
    W = [mpf(0)] * (T + 1)
    for t in range(T - 1, -1, -1):
        P[t] = P[t + 1] * pr.c[t]
        W[t] = W[t + 1] + pr.sigma2[t] * P[t + 1]
    return P, W


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
        pr = _problem(D, c, h, sigma2, REF_LEM)
        P, W = _PW(pr)
        T = pr.T
        u = [pr.D]
        a = []
        r = []
        for t in range(1, T + 1):
            ph = pr.phi(t - 1, u[-1])
            rt = W[t] / W[t - 1]
            r.append(rt)
            u.append(rt * ph)
            a.append(ph - u[-1])
        value = _value(pr, P, W)
    with precision(dps):
        return ShiftSolution(tuple(+x for x in u), tuple(+x for x in a),
                             tuple(+x for x in r), round_up(value, dps), dps)


def _value(pr: ShiftProblem, P: list[mpf], W: list[mpf]) -> mpf:
    return pr.D ** 2 * P[0] / W[0] + mpmath.fsum(pr.h[t] * P[t + 1] / W[t] for t in range(pr.T))


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
        pr = _problem(D, c, h, sigma2, REF_THM)
        P, W = _PW(pr)
        value = _value(pr, P, W)
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
    """
    with precision(dps + GUARD_DPS):
        pr = _problem(D, c, h, sigma2, REF_P)
        x = _full_u(pr, u)
        e = mpmath.fsum((pr.phi(t - 1, x[t - 1]) - x[t]) ** 2 / pr.sigma2[t - 1]
                        for t in range(1, pr.T + 1))
    with precision(dps):
        return +e


def _grad_hess(pr: ShiftProblem, x: list[mpf]) -> tuple[list[mpf], mpmath.matrix]:
    """Gradient and (tridiagonal) Hessian of E in the interior variables u_1..u_{T-1}.

    phi_t' = c_t u / phi_t and phi_t'' = c_t h_t / phi_t^3; at a point with phi_t(u_t) = 0
    (h_t = 0, u_t = 0) E is not differentiable and a ValueError is raised.
    """
    T = pr.T
    n = T - 1
    g = [mpf(0)] * n
    H = mpmath.matrix(n, n)
    for t in range(1, T):
        ph_prev = pr.phi(t - 1, x[t - 1])
        ph = pr.phi(t, x[t])
        require(ph > 0, f"u[{t}]", x[t], "phi_t(u_t) > 0 (E differentiable there)", REF_P)
        d1 = pr.c[t] * x[t] / ph
        d2 = pr.c[t] * pr.h[t] / ph ** 3
        res = ph - x[t + 1]
        g[t - 1] = -2 * (ph_prev - x[t]) / pr.sigma2[t - 1] + 2 * res * d1 / pr.sigma2[t]
        H[t - 1, t - 1] = 2 / pr.sigma2[t - 1] + 2 * (d1 ** 2 + res * d2) / pr.sigma2[t]
        if t < T - 1:
            H[t - 1, t] = H[t, t - 1] = -2 * d1 / pr.sigma2[t]
    return g, H


def objective_gradient(u: Sequence[Number], D: Number, c: Sequence[Number],
                       h: Sequence[Number], sigma2: Sequence[Number], *,
                       dps: int = DEFAULT_DPS) -> list[mpf]:
    """``grad E(u)`` in ``(u_1..u_{T-1})``; its components are eq. (5) times 2/(s_{t-1} s_t)."""
    with precision(dps + GUARD_DPS):
        pr = _problem(D, c, h, sigma2, REF_P)
        g, _ = _grad_hess(pr, _full_u(pr, u))
    with precision(dps):
        return [+v for v in g]


def objective_hessian(u: Sequence[Number], D: Number, c: Sequence[Number],
                      h: Sequence[Number], sigma2: Sequence[Number], *,
                      dps: int = DEFAULT_DPS) -> mpmath.matrix:
    """``Hess E(u)`` (tridiagonal, (T-1)x(T-1)); Appendix B: PSD on the feasible set only."""
    with precision(dps + GUARD_DPS):
        pr = _problem(D, c, h, sigma2, REF_P)
        _, H = _grad_hess(pr, _full_u(pr, u))
    with precision(dps):
        return H * 1


def u_to_a(u: Sequence[Number], D: Number, c: Sequence[Number], h: Sequence[Number], *,
           dps: int = DEFAULT_DPS) -> list[mpf]:
    """Shifts ``a_t = phi_{t-1}(u_{t-1}) - u_t``, t = 1..T, from ``u`` (Section 3.1)."""
    T = len(c)
    with precision(dps + GUARD_DPS):
        pr = _problem(D, c, h, [1] * T, REF_P)
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
        pr = _problem(D, c, h, [1] * T, "Bravo et al. 2025, Lemma 3.3")
        av = _seq("a", a, "Bravo et al. 2025, Lemma 3.3")
        require(len(av) == T, "a", a, f"length T = {T}", "Bravo et al. 2025, Lemma 3.3")
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
    ref = "Bravo et al. 2025, Lemma 3.3"
    with precision(dps + GUARD_DPS):
        al = to_mpf(alpha, "alpha", ref)
        require(al >= 1, "alpha", alpha, "alpha >= 1", ref)
        av, sv = _seq("a", a, ref), _seq("sigma2", sigma2, ref)
        require(len(av) == len(sv), "a", a, "the same length as sigma2", ref)
        for i, v in enumerate(av):
            require(v >= 0, f"a[{i}]", v, "a_t >= 0", ref)
        for i, v in enumerate(sv):
            require(v > 0, f"sigma2[{i}]", v, "sigma_t^2 > 0", ref)
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


def _E_float(x: np.ndarray, D: float, c: np.ndarray, h: np.ndarray, s: np.ndarray) -> float:
    full = np.concatenate(([D], x, [0.0]))
    return float(np.sum((np.sqrt(c * full[:-1] ** 2 + h) - full[1:]) ** 2 / s))


def _grad_float(x: np.ndarray, D: float, c: np.ndarray, h: np.ndarray,
                s: np.ndarray) -> np.ndarray:
    full = np.concatenate(([D], x, [0.0]))
    ph = np.sqrt(c * full[:-1] ** 2 + h)
    res = ph - full[1:]
    with np.errstate(divide="ignore", invalid="ignore"):
        d1 = np.where(ph > 0, c * full[:-1] / ph, np.sqrt(c))
    return -2 * res[:-1] / s[:-1] + 2 * res[1:] * d1[1:] / s[1:]


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
        pr = _problem(D, c, h, sigma2, REF_P)
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
        val = mpmath.fsum((pr.phi(t - 1, x[t - 1]) - x[t]) ** 2 / pr.sigma2[t - 1]
                          for t in range(1, T + 1))
        gn = max(abs(v) for v in g)
    with precision(dps):
        return NumericSolution(tuple(+v for v in x[1:-1]), +val, xs_arr, Es_arr, steps, +gn)


# --- sympy: objective, stationarity (5), closed form, Theorem 3.4 value, T = 2 KKT ---

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
    full = [D, *u, sp.Integer(0)]
    E = sum((sp.sqrt(c[t - 1] * full[t - 1] ** 2 + h[t - 1]) - full[t]) ** 2 / s[t - 1]
            for t in range(1, T + 1))
    return E, tuple(u), {"D": D, "c": c, "h": h, "s": s}


def _sym_PW(c: tuple, s: tuple, T: int) -> tuple[list, list]:
    P = [sp.Integer(1)] * (T + 1)
    W = [sp.Integer(0)] * (T + 1)
    for t in range(T - 1, -1, -1):
        P[t] = P[t + 1] * c[t]
        W[t] = W[t + 1] + s[t] * P[t + 1]
    return P, W


def symbolic_optimum(T: int) -> tuple[list[sp.Expr], sp.Expr, dict[str, object]]:
    """Closed forms as sympy expressions: ``([u*_1..u*_{T-1}], E* (Thm 3.4), symbols)``."""
    T = require_integer("T", T, REF_LEM, minimum=1)
    D, c, h, s = _symbols(T)
    P, W = _sym_PW(c, s, T)
    u = [D]
    for t in range(1, T):
        u.append(W[t] / W[t - 1] * sp.sqrt(c[t - 1] * u[-1] ** 2 + h[t - 1]))
    value = D ** 2 * P[0] / W[0] + sum(h[t] * P[t + 1] / W[t] for t in range(T))
    return u[1:], value, {"D": D, "c": c, "h": h, "s": s}


def stationarity_symbolic(T: int) -> list[Derivation]:
    """Eq. (5) from differentiating E: ``dE/du_t * s_{t-1} s_t / 2`` minus the paper's (5).

    (5): ``(c_t s_{t-1} + s_t) u_t - s_{t-1} phi_t'(u_t) u_{t+1} = s_t phi_{t-1}(u_{t-1})``.
    One Derivation per t = 1..T-1 (residual 0 means sympy's derivative equals (5)).
    """
    E, u, sy = symbolic_objective(T)
    D, c, h, s = sy["D"], sy["c"], sy["h"], sy["s"]
    full = [D, *u, sp.Integer(0)]
    out = []
    for t in range(1, T):
        phi_prev = sp.sqrt(c[t - 1] * full[t - 1] ** 2 + h[t - 1])
        phi_t = sp.sqrt(c[t] * full[t] ** 2 + h[t])
        dphi = sp.diff(phi_t, full[t])
        derived = sp.expand(sp.diff(E, full[t]) * s[t - 1] * s[t] / 2)
        target = sp.expand((c[t] * s[t - 1] + s[t]) * full[t] - s[t - 1] * dphi * full[t + 1]
                           - s[t] * phi_prev)
        out.append(Derivation(derived, target, sp.simplify(derived - target),
                              f"T={T}, t={t}: s_(t-1) s_t/2 * dE/du_t equals eq. (5)"))
    return out


@functools.cache
def verify_stationarity_symbolic(T: int) -> Derivation:
    """grad E(u*) = 0 exactly for the closed form (4) (Lemma 3.5), any T >= 2 (sympy).

    For each t = 1..T-1 sympy differentiates the full symbolic E in u_t, then substitutes
    the closed form locally: ``phi_{t-1}(u_{t-1}) -> Q`` (a positive symbol standing for the
    already-substituted history), ``u_t = r_t Q`` and ``u_{t+1} = r_{t+1} phi_t(u_t)`` with
    ``r_t = W_t / W_{t-1}`` as rational functions of the data (``u_T = 0``, ``r_T = 0``).
    That covers every t exactly, since dE/du_t depends on u only through u_{t-1}, u_t,
    u_{t+1}.  The data are in the coordinates of :func:`_W_coordinates`.  For T <= 3 the
    nested-radical u* is also substituted in full, in the original coordinates.
    """
    T = require_integer("T", T, REF_LEM, minimum=2)
    D, c, h, W, _, s = _W_coordinates(T)
    u = sp.symbols(f"u1:{T}", real=True)
    full = [D, *u, sp.Integer(0)]
    E = sum((sp.sqrt(c[t - 1] * full[t - 1] ** 2 + h[t - 1]) - full[t]) ** 2 / s[t - 1]
            for t in range(1, T + 1))
    r = [None] + [W[t] / W[t - 1] for t in range(1, T + 1)]
    Q = sp.Symbol("Q", positive=True)
    resid = sp.Integer(0)
    for t in range(1, T):
        g = sp.diff(E, full[t])
        g = g.subs(sp.sqrt(c[t - 1] * full[t - 1] ** 2 + h[t - 1]), Q)
        ut = r[t] * Q
        if t + 1 < T:
            g = g.subs(full[t + 1], r[t + 1] * sp.sqrt(c[t] * ut ** 2 + h[t]))
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


def _stationary_reduction(T: int) -> None:  # pragma: no cover - documentation of the algebra
    """With u_{t+1} = r_{t+1} phi_t(u_t) and u_t = r_t phi_{t-1}(u_{t-1}):

    dE/du_t / 2 = -(1-r_t) phi_{t-1}/s_{t-1} + (1-r_{t+1}) phi_t phi_t'/s_t
                = phi_{t-1} [-(1-r_t)/s_{t-1} + (1-r_{t+1}) c_t r_t / s_t]
    because phi_t(u_t) phi_t'(u_t) = c_t u_t = c_t r_t phi_{t-1}.
    """


def _W_coordinates(T: int) -> tuple[sp.Symbol, tuple, tuple, list, list, list]:
    """Data in the coordinates (D, c_t, h_t, W_t): ``s_t = (W_t - W_{t+1}) / P_{t+1}``.

    ``(s_0..s_{T-1}) -> (W_0..W_{T-1})`` is a bijection of the positive data (s_t > 0 iff
    W_t > W_{t+1}), and in these coordinates ``r_t = W_t / W_{t-1}`` is a monomial ratio,
    which keeps sympy's rational arithmetic small.  Returns ``(D, c, h, W, P, s)``.
    """
    D = sp.Symbol("D", positive=True)
    c = sp.symbols(f"c0:{T}", positive=True)
    h = sp.symbols(f"h0:{T}", nonnegative=True)
    W = [*sp.symbols(f"W0:{T}", positive=True), sp.Integer(0)]
    P = [sp.Integer(1)] * (T + 1)
    for t in range(T - 1, -1, -1):
        P[t] = P[t + 1] * c[t]
    s = [(W[t] - W[t + 1]) / P[t + 1] for t in range(T)]
    return D, c, h, W, P, s


@functools.cache
def value_identity_symbolic(T: int) -> Derivation:
    """E(u*) equals the Theorem 3.4 expression, exactly (sympy), for symbolic data.

    ``q_t = phi_{t-1}(u*_{t-1})^2`` obeys ``q_1 = c_0 D^2 + h_0``, ``q_{t+1} = c_t r_t^2 q_t +
    h_t`` and ``E(u*) = sum_t (1 - r_t)^2 q_t / s_{t-1}`` -- this is E evaluated at (4) with
    the square roots squared away (each summand is ``(phi_{t-1} - r_t phi_{t-1})^2``).  The
    identity is checked in the coordinates of :func:`_W_coordinates` (numerator of the
    difference over a common denominator expands to 0).
    """
    T = require_integer("T", T, REF_THM, minimum=1)
    D, c, h, W, P, s = _W_coordinates(T)
    r = [None] + [W[t] / W[t - 1] for t in range(1, T + 1)]
    q = [None, c[0] * D ** 2 + h[0]]
    for t in range(1, T):
        q.append(c[t] * r[t] ** 2 * q[t] + h[t])
    E = sum((1 - r[t]) ** 2 * q[t] / s[t - 1] for t in range(1, T + 1))
    thm = D ** 2 * P[0] / W[0] + sum(h[t] * P[t + 1] / W[t] for t in range(T))
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


def prop_b_1_symbolic() -> list[Derivation]:
    """Proposition B.1: Hessian, determinant and trace of g(x, y) = (sqrt(x^2 + h) - y)^2.

    Targets are the paper's printed entries; residual 0 means sympy's derivative agrees.
    """
    x, y = sp.symbols("u_prev u_t", real=True)
    h = sp.Symbol("h", positive=True)
    g = (sp.sqrt(x ** 2 + h) - y) ** 2
    H = sp.hessian(g, (x, y))
    R = sp.sqrt(x ** 2 + h)
    printed = sp.Matrix([[2 - 2 * h * y / R ** 3, -2 * x / R], [-2 * x / R, 2]])
    det_printed = 4 * h * (R - y) / R ** 3
    tr_printed = 4 - 2 * h * y / R ** 3
    out = [Derivation(H, printed, sp.simplify(H - printed).norm(), "Prop B.1: Hessian")]
    out.append(Derivation(H.det(), det_printed, sp.simplify(H.det() - det_printed),
                          "Prop B.1: det = 4h(sqrt(x^2+h) - y)/(x^2+h)^(3/2)"))
    out.append(Derivation(H.trace(), tr_printed, sp.simplify(H.trace() - tr_printed),
                          "Prop B.1: trace = 4 - 2hy/(x^2+h)^(3/2)"))
    return out


# --- float64 paths for plotting only (vectorised over leading axes) ---

def objective_float(U: np.ndarray, D: float, c: Sequence[float], h: Sequence[float],
                    sigma2: Sequence[float]) -> np.ndarray:
    """``E`` at the points ``U[..., :]`` (interior coordinates), float64 (plots only)."""
    U = np.asarray(U, dtype=float)
    cf, hf, sf = (np.asarray(v, dtype=float) for v in (c, h, sigma2))
    lead = U.shape[:-1]
    full = np.concatenate((np.full((*lead, 1), float(D)), U, np.zeros((*lead, 1))), axis=-1)
    ph = np.sqrt(cf * full[..., :-1] ** 2 + hf)
    return np.sum((ph - full[..., 1:]) ** 2 / sf, axis=-1)


def hessian_float(U: np.ndarray, D: float, c: Sequence[float], h: Sequence[float],
                  sigma2: Sequence[float]) -> np.ndarray:
    """``Hess E`` at the points ``U[..., :]``, shape ``(..., T-1, T-1)``, float64 (plots only).

    Same formulas as :func:`objective_hessian` (phi' = c u/phi, phi'' = c h/phi^3).
    """
    U = np.asarray(U, dtype=float)
    cf, hf, sf = (np.asarray(v, dtype=float) for v in (c, h, sigma2))
    lead = U.shape[:-1]
    n = U.shape[-1]
    full = np.concatenate((np.full((*lead, 1), float(D)), U, np.zeros((*lead, 1))), axis=-1)
    H = np.zeros((*lead, n, n))
    for t in range(1, n + 1):
        ph = np.sqrt(cf[t] * full[..., t] ** 2 + hf[t])
        d1 = cf[t] * full[..., t] / ph
        d2 = cf[t] * hf[t] / ph ** 3
        res = ph - full[..., t + 1]
        H[..., t - 1, t - 1] = 2 / sf[t - 1] + 2 * (d1 ** 2 + res * d2) / sf[t]
        if t < n:
            H[..., t - 1, t] = H[..., t, t - 1] = -2 * d1 / sf[t]
    return H
