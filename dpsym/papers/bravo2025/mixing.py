"""Bravo, Flores-Mella & Guzman 2025, Section 4 and Appendix C: mixing of projected Langevin.

Covered: the KL bound (9) (Corollary 3.7 at alpha = 1, sigma^2 = 2 eta) and its weakly
smooth display, the adaptivity in p remarked after it, the step-size threshold
Theta(p, M, D) of (10), Lemma 4.1 (TV <= 1/2 after ceil(D^2/eta) steps) with the
inequalities its proof uses and its Lipschitz case p = 0, Theorem 4.2 = Theorem 1.1 (mixing
time ceil(D^2/eta) ceil(log2(1/eps))), the one-step KL constant in the proof of Lemma C.1,
and a small seeded simulation of PLA on [-1, 1] with f = |x| (whose stationary law exists
by Theorem C.2) that compares the distance to stationarity with these bounds.

Symbols: p, M (Hoelder exponent and constant; p = 0, M = 2L is the Lipschitz case), D
(diameter), eta (step), T (steps), eps (target TV), h (modulus offset), L (Lipschitz).
The modulus offsets h come from :mod:`dpsym.shifts.modulus`; (9) is evaluated through
:func:`dpsym.papers.bravo2025.corollaries.cor_3_7`.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.langevin import GridKernel, abs_subgradient, binned_tv, projected_gaussian_kl, simulate
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.bravo2025 import printed
from dpsym.papers.bravo2025.corollaries import cor_3_7
from dpsym.papers.bravo2025.privacy import ceil_fraction, exact
from dpsym.papers.registry import cite
from dpsym.shifts.modulus import lipschitz, weakly_smooth

__all__ = [
    "PLA_EXPERIMENT",
    "Lemma41",
    "MixingExperiment",
    "adaptivity_profile",
    "eq_9",
    "eq_9_weakly_smooth_printed",
    "eq_10",
    "eq_10_limits",
    "eq_10_symbolic",
    "holder_constant_estimate",
    "lem_4_1",
    "lem_4_1_inequalities",
    "lem_4_1_p0_printed",
    "lem_4_1_sweep",
    "lem_c_1_corrected",
    "lem_c_1_counterexample",
    "lem_c_1_paper",
    "pinsker",
    "pla_mixing_experiment",
    "sec_4_adaptivity",
    "sqrt_plus_quadratic_gradient",
    "thm_4_2",
    "thm_4_2_tv_bound",
]

PAPER = "bravo2025"
REF_9 = cite(PAPER, "eq. (9)")
REF_10 = cite(PAPER, "eq. (10) / Lemma 4.1")
REF_41 = cite(PAPER, "Lemma 4.1")
REF_42 = cite(PAPER, "Thm 4.2 (= Thm 1.1)")
REF_C1 = cite(PAPER, "Lemma C.1")


def eq_9(D: Number, eta: Number, T: Number, h: Number, form: str = "log",
         dps: int = DEFAULT_DPS) -> mpf:
    """(9): KL(X_T || X'_T) <= D^2/(4 eta T) + h ln(T e)/(4 eta) for two PLA chains
    (sigma^2 = 2 eta) with modulus sqrt(delta^2 + h) that differ only in their start.

    This is Corollary 3.7 at alpha = 1 (``form="log"``; ``"sum"`` keeps H_T instead of
    ln(T e)).  Rounded up.
    """
    with precision(dps + GUARD_DPS):
        ev = to_mpf(eta, "eta", REF_9)
        require(ev > 0, "eta", eta, "eta > 0", REF_9)
        out = cor_3_7(1, 2 * ev, D, T, h, form=form, dps=mpmath.mp.dps)
    return round_up(out, dps)


def eq_9_weakly_smooth_printed(eta: Number, p: Number, M: Number,
                               dps: int = DEFAULT_DPS) -> mpf:
    """The second term of (9) per unit ln(T e) as the paper displays it for a (p, M)-weakly
    smooth potential, (eta^((1+p)/(2(1-p))) sqrt((1-p)/(1+p)) (M/2)^(1/(1-p)))^2
    (:data:`dpsym.papers.bravo2025.printed.EQ_9_WEAKLY_SMOOTH`, evaluated as printed);
    it must equal h/(4 eta) with h of :func:`dpsym.shifts.modulus.weakly_smooth`.  0 <= p < 1.
    """
    S = printed.SYMBOLS
    f = sp.lambdify((S["eta"], S["p"], S["M"]), printed.formula(printed.EQ_9_WEAKLY_SMOOTH),
                    "mpmath")
    with precision(dps + GUARD_DPS):
        ev, Mv = to_mpf(eta, "eta", REF_9), to_mpf(M, "M", REF_9)
        pv = to_mpf(p, "p", REF_9)
        require(0 <= pv < 1, "p", p, "0 <= p < 1", REF_9)
        out = f(ev, pv, Mv)
    with precision(dps):
        return +out


def pinsker(kl: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Prop. A.3 (Pinsker): TV <= sqrt(KL/2), capped at 1 (rounded up)."""
    with precision(dps + GUARD_DPS):
        k = to_mpf(kl, "kl", f"{PAPER}, Prop. A.3")
        require(k >= 0, "kl", kl, "KL >= 0", f"{PAPER}, Prop. A.3")
        out = min(mpf(1), mpmath.sqrt(k / 2))
    return round_up(out, dps)


@functools.cache
def eq_10_symbolic() -> tuple[sp.Expr, sp.Expr, dict[str, sp.Symbol]]:
    """(10) as a sympy expression: ``(Theta, K, symbols)`` with
    ``Theta = (M/2)^(2/(1+p)) [((1-p)/(1+p)) K]^((1-p)/(1+p))`` and
    ``K = max{16 ln(sqrt(2e) D (M/2)^(1/(1+p))), 27}`` (the one place (10) is written;
    :func:`eq_10` evaluates it, :func:`eq_10_limits` takes its limits)."""
    S = printed.SYMBOLS
    p, M, D = S["p"], S["M"], S["D"]
    K = sp.Max(16 * sp.log(sp.sqrt(2 * sp.E) * D * (M / 2) ** (1 / (1 + p))), 27)
    r = (1 - p) / (1 + p)
    return (M / 2) ** (2 / (1 + p)) * (r * K) ** r, K, {"p": p, "M": M, "D": D}


@functools.cache
def _eq_10_evaluator() -> Callable[..., mpf]:
    theta, _, sy = eq_10_symbolic()
    return sp.lambdify((sy["p"], sy["M"], sy["D"]), theta, "mpmath")


def eq_10(p: Number, M: Number, D: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Theta(p, M, D) of (10):

        Theta = (M/2)^(2/(1+p)) [ ((1-p)/(1+p)) max{16 ln(sqrt(2e) D (M/2)^(1/(1+p))), 27} ]
                ^((1-p)/(1+p)),

    with the limit M/2 at p = 1 (:func:`eq_10_limits`).  Lemma 4.1 and Theorem 4.2 need
    1/eta >= Theta.  Evaluated from :func:`eq_10_symbolic`; rounded up (a larger threshold is
    the safe side).

    >>> from dpsym.numerics import nstr
    >>> nstr(eq_10(0, 2, 2), 10), nstr(eq_10(1, 3, 5), 10)
    ('27.0', '1.5')
    """
    with precision(dps + GUARD_DPS):
        pv = to_mpf(p, "p", REF_10)
        require(0 <= pv <= 1, "p", p, "0 <= p <= 1", REF_10)
        Mv, Dv = to_mpf(M, "M", REF_10), to_mpf(D, "D", REF_10)
        require(Mv > 0, "M", M, "M > 0", REF_10)
        require(Dv > 0, "D", D, "D > 0 (diameter)", REF_10)
        out = Mv / 2 if pv == 1 else _eq_10_evaluator()(pv, Mv, Dv)
    return round_up(out, dps)


def eq_10_limits() -> tuple[Derivation, Derivation]:
    """sympy: p -> 1 gives Theta -> M/2 (either branch of the max, K > 0), and p = 0 gives
    (M/2)^2 max{16 ln(sqrt(2e) D M/2), 27} (the Lipschitz case with M = 2L)."""
    theta, K_expr, sy = eq_10_symbolic()
    p, M = sy["p"], sy["M"]
    K = sp.Symbol("K", positive=True)
    theta = theta.subs(K_expr, K)
    lim1 = sp.limit(theta, p, 1, "-")
    d1 = Derivation(lim1, M / 2, sp.simplify(lim1 - M / 2),
                    "lim_{p->1-} (M/2)^(2/(1+p)) (((1-p)/(1+p)) K)^((1-p)/(1+p)) = M/2, K > 0")
    at0 = theta.subs(p, 0)
    d0 = Derivation(at0, (M / 2) ** 2 * K, sp.simplify(at0 - (M / 2) ** 2 * K),
                    "p = 0: Theta = (M/2)^2 K with K = max{16 ln(sqrt(2e) D M/2), 27} at p = 0")
    return d1, d0


@dataclass(frozen=True)
class Lemma41:
    """Lemma 4.1 at given (p, M, D, eta): ``T = ceil(D^2/eta)``, the KL bound (9) at T with
    the weakly smooth h, the Pinsker TV bound, and Theta."""

    T: int
    kl: mpf
    tv: mpf
    theta: mpf


def _ceil_d2_over_eta(D: Number, eta: Number, ref: str) -> int:
    Dq, eq = exact(D, "D", ref), exact(eta, "eta", ref)
    require(Dq > 0, "D", D, "D > 0", ref)
    require(eq > 0, "eta", eta, "eta > 0", ref)
    return ceil_fraction(Dq * Dq / eq)


def lem_4_1(p: Number, M: Number, D: Number, eta: Number, dps: int = DEFAULT_DPS) -> Lemma41:
    """Lemma 4.1: if 1/eta >= Theta(p, M, D) and T = ceil(D^2/eta), two PLA chains on a convex
    compact domain of diameter D with a convex (p, M)-weakly smooth potential satisfy
    TV(X_T, X'_T) <= 1/2.  Returns T and the bounds the proof chains (9) -> Pinsker; the
    lemma's claim is ``tv <= 1/2``.
    """
    with precision(dps + GUARD_DPS):
        ev = to_mpf(eta, "eta", REF_41)
        require(ev > 0, "eta", eta, "eta > 0", REF_41)
        theta = eq_10(p, M, D, dps=mpmath.mp.dps)
        require(1 / ev >= theta, "eta", eta, f"1/eta >= Theta = {mpmath.nstr(theta, 10)}",
                REF_41)
        T = _ceil_d2_over_eta(D, eta, REF_41)
        h = weakly_smooth(ev, p, M, dps=mpmath.mp.dps).h
        kl = eq_9(D, ev, T, h, dps=mpmath.mp.dps)
        tv = pinsker(kl, dps=mpmath.mp.dps)
    with precision(dps):
        return Lemma41(T, round_up(kl, dps), round_up(tv, dps), round_up(theta, dps))


def lem_4_1_inequalities() -> list[Derivation]:
    """The two scalar facts of the proof of Lemma 4.1 (sympy):

    (i)  F(x) = x/4 - ln x >= x/8 for x >= 27: min_{x>=27} (x/8 - ln x) is at x = 27 (the
         derivative 1/8 - 1/x > 0 there) and equals 27/8 - 3 ln 3 > 0;
    (ii) F_p(x) = x/4 - ((1-p)/(1+p)) ln x >= F(x) for x >= 1, since 0 <= (1-p)/(1+p) <= 1.
    """
    x = sp.Symbol("x", positive=True)
    g = x / 8 - sp.log(x)
    crit = sp.solve(sp.diff(g, x), x)
    gmin = sp.nsimplify(g.subs(x, 27))
    d1 = Derivation(gmin, sp.Rational(27, 8) - 3 * sp.log(3),
                    sp.simplify(gmin - (sp.Rational(27, 8) - 3 * sp.log(3))),
                    f"x/8 - ln x: critical point {crit} < 27, so the minimum on [27, inf) is "
                    f"27/8 - 3 ln 3 = {sp.N(gmin, 6)} > 0: {bool(gmin > 0)}")
    p = sp.Symbol("p", nonnegative=True)
    diff = (x / 4 - (1 - p) / (1 + p) * sp.log(x)) - (x / 4 - sp.log(x))
    target = 2 * p / (1 + p) * sp.log(x)
    d2 = Derivation(sp.simplify(diff), target, sp.simplify(diff - target),
                    "F_p(x) - F(x) = 2p/(1+p) ln x >= 0 for x >= 1, p >= 0")
    return [d1, d2]


def lem_4_1_p0_printed(M: Number, D: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The Lipschitz case of Lemma 4.1 as the paper states it after the lemma,
    1/eta >= (M/2)^2 max{16 ln(D (M/2) e), 27}
    (:data:`dpsym.papers.bravo2025.printed.LEM_4_1_P0`): the right side.  It has e where
    (10) at p = 0 has sqrt(2e), so it is at least Theta(0, M, D) and the lemma still follows.
    Rounded up."""
    S = printed.SYMBOLS
    f = sp.lambdify((S["M"], S["D"]), printed.formula(printed.LEM_4_1_P0), "mpmath")
    with precision(dps + GUARD_DPS):
        Mv, Dv = to_mpf(M, "M", REF_41), to_mpf(D, "D", REF_41)
        require(Mv > 0 and Dv > 0, "M", M, "M > 0 and D > 0", REF_41)
        out = f(Mv, Dv)
    return round_up(out, dps)


def lem_4_1_sweep(draws: int = 400, seed: int = 0, dps: int = 20) -> tuple[mpf, dict]:
    """Sufficiency of Theta: the largest KL bound (9) at 1/eta = Theta(p, M, D),
    T = ceil(D^2/eta), over seeded random p in [0, 0.999), M, D log-uniform in [1e-3, 1e3].

    Lemma 4.1 needs it <= 1/2.  Returns (max KL, the parameters attaining it).
    """
    n = require_integer("draws", draws, REF_41, minimum=1)
    rng = np.random.default_rng(seed)
    best, arg = mpf(-1), {}
    with precision(dps + GUARD_DPS):
        for _ in range(n):
            p = repr(float(rng.uniform(0, 0.999)))
            M = repr(float(10 ** rng.uniform(-3, 3)))
            D = repr(float(10 ** rng.uniform(-3, 3)))
            theta = eq_10(p, M, D, dps=dps)
            eta = 1 / theta
            T = int(mpmath.ceil(to_mpf(D) ** 2 / eta))
            kl = eq_9(D, eta, T, weakly_smooth(eta, p, M, dps=dps).h, dps=dps)
            if kl > best:
                best, arg = kl, {"p": p, "M": M, "D": D, "T": T}
    return best, arg


def thm_4_2(p: Number, M: Number, D: Number, eta: Number, eps: Number) -> int:
    """Theorem 4.2 (= Theorem 1.1): if 1/eta >= Theta(p, M, D) then for all eps > 0
    T_mix,TV(eps) <= ceil(D^2/eta) ceil(log2(1/eps)) (Lemma 4.1 + boosting, Prop. A.14).

    Also for convex L-Lipschitz f with p = 0, M = 2L.  Returns the bound (an integer; 0 for
    eps >= 1, where nothing needs to be done since TV <= 1).
    """
    with precision(DEFAULT_DPS):
        ev = to_mpf(eta, "eta", REF_42)
        require(ev > 0, "eta", eta, "eta > 0", REF_42)
        theta = eq_10(p, M, D)
        require(1 / ev >= theta, "eta", eta, f"1/eta >= Theta = {mpmath.nstr(theta, 10)}",
                REF_42)
        epsq = exact(eps, "eps", REF_42)
        require(epsq > 0, "eps", eps, "eps > 0", REF_42)
    if epsq >= 1:
        return 0
    k = 0
    while Fraction(1, 2 ** k) > epsq:  # exact ceil(log2(1/eps))
        k += 1
    return _ceil_d2_over_eta(D, eta, REF_42) * k


def thm_4_2_tv_bound(T: Number, D: Number, eta: Number) -> mpf:
    """The TV bound behind Theorem 4.2 at step T: 2^-floor(T / ceil(D^2/eta)) (Lemma 4.1's
    1/2 at ceil(D^2/eta) steps, then sub-multiplicativity of dbar, Prop. A.14).  The
    caller checks 1/eta >= Theta (see :func:`lem_4_1`)."""
    Ti = require_integer("T", T, REF_42, minimum=0)
    base = _ceil_d2_over_eta(D, eta, REF_42)
    return mpf(2) ** -(Ti // base)


# --- Section 4: adaptivity in p -------------------------------------------------------------

def holder_constant_estimate(grad: Callable[[np.ndarray], np.ndarray], p: float,
                             xs: np.ndarray) -> float:
    """M(p) = sup_{x != y} |g(x) - g(y)| / |x - y|^p estimated on the 1-D grid ``xs``
    (float64; a *lower* estimate of the supremum, exact up to the grid's resolution)."""
    g = grad(xs)
    dx = np.abs(xs[:, None] - xs[None, :])
    dg = np.abs(g[:, None] - g[None, :])
    mask = dx > 0
    return float((dg[mask] / dx[mask] ** p).max())


def adaptivity_profile(eta: Number, ps: Sequence[float], grad: Callable[[np.ndarray], np.ndarray],
                       xs: np.ndarray) -> list[tuple[float, float, float]]:
    """The weakly smooth KL term of (9) per unit ln(Te), h(p, M(p))/(4 eta), for each p.

    After (9) the paper notes that f is (p, M(p))-weakly smooth for many p, that
    log M(p) is convex (a supremum of functions affine in p), and that the infimum over p
    of the KL bound "may have a nontrivial optimal choice of p".  Returns
    ``[(p, M(p), h/(4 eta)), ...]`` with M(p) from :func:`holder_constant_estimate` and h
    from :func:`dpsym.shifts.modulus.weakly_smooth` (float64 values, for plotting and for
    locating the optimum).
    """
    out = []
    with precision(20):
        ev = to_mpf(eta, "eta", REF_9)
        for p in ps:
            M = holder_constant_estimate(grad, float(p), xs)
            h = weakly_smooth(ev, repr(float(p)), repr(M), dps=20).h
            out.append((float(p), M, float(h / (4 * ev))))
    return out


def sec_4_adaptivity(eta: Number = "0.5", beta: float = 5.0, points: int = 401
                     ) -> tuple[bool, tuple[float, float, float], list[tuple[float, float, float]]]:
    """The adaptivity remark after (9) on f(x) = (2/3)|x|^(3/2) + beta x^2/2 over [-1, 1]
    (p in [0, 1/2] on 26 points, M(p) on a grid of ``points``): returns (log M(p) convex on
    the grid, the minimiser (p*, M(p*), term) of h(p, M(p))/(4 eta), the profile of
    :func:`adaptivity_profile`)."""
    xs = np.linspace(-1, 1, points)
    prof = adaptivity_profile(eta, np.linspace(0, 0.5, 26), sqrt_plus_quadratic_gradient(beta),
                              xs)
    logM = np.log([m for _, m, _ in prof])
    convex = bool(np.all(np.diff(logM, 2) >= -1e-12))
    return convex, min(prof, key=lambda r: r[2]), prof


def sqrt_plus_quadratic_gradient(beta: float) -> Callable[[np.ndarray], np.ndarray]:
    """Gradient of f(x) = (2/3)|x|^(3/2) + beta x^2/2: sign(x) sqrt|x| + beta x (convex;
    (p, M)-weakly smooth exactly for p <= 1/2 on [-1, 1])."""
    return lambda x: np.sign(x) * np.sqrt(np.abs(x)) + beta * x


# --- Appendix C: Lemma C.1 ------------------------------------------------------------------

def lem_c_1_paper(D: Number, eta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The first step of Lemma C.1's proof: KL(J mu || J nu) <= D^2/(4 eta) for all mu, nu on X
    (false for non-nonexpansive maps: :func:`lem_c_1_counterexample`)."""
    with precision(dps + GUARD_DPS):
        Dv, ev = to_mpf(D, "D", REF_C1), to_mpf(eta, "eta", REF_C1)
        require(Dv > 0, "D", D, "D > 0", REF_C1)
        require(ev > 0, "eta", eta, "eta > 0", REF_C1)
        out = Dv ** 2 / (4 * ev)
    return round_up(out, dps)


def lem_c_1_corrected(D: Number, eta: Number, L: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Corrected one-step constant for convex L-Lipschitz f: KL(J mu || J nu) <=
    phi(D)^2/(4 eta) = (D^2 + (2 eta L)^2)/(4 eta) (Lemma 3.2 with delta = D, a = phi(D),
    sigma^2 = 2 eta; phi the Lipschitz modulus of :mod:`dpsym.shifts.modulus`).
    """
    with precision(dps + GUARD_DPS):
        mod = lipschitz(eta, L, dps=mpmath.mp.dps)
        Dv, ev = to_mpf(D, "D", REF_C1), to_mpf(eta, "eta", REF_C1)
        require(Dv > 0, "D", D, "D > 0", REF_C1)
        out = mod(Dv) ** 2 / (4 * ev)
    return round_up(out, dps)


def lem_c_1_counterexample(eta: Number = 1, L: Number = 5, x: Number = "1e-9",
                           dps: int = DEFAULT_DPS) -> tuple[mpf, mpf, mpf]:
    """X = [-1, 1] (D = 2), f = L|x|, mu = delta_x, nu = delta_{-x}: the exact one-step KL
    between the projected Gaussians N(x - eta L, 2 eta) and N(-x + eta L, 2 eta) on X,
    against the printed D^2/(4 eta) and the corrected phi(D)^2/(4 eta).

    Returns (exact KL, printed bound, corrected bound).
    """
    with precision(dps + GUARD_DPS):
        ev, Lv, xv = to_mpf(eta, "eta", REF_C1), to_mpf(L, "L", REF_C1), to_mpf(x, "x", REF_C1)
        require(0 < xv <= 1, "x", x, "0 < x <= 1 (a point of X = [-1, 1])", REF_C1)
        kl = projected_gaussian_kl(xv - ev * Lv, -xv + ev * Lv, 2 * ev, -1, 1,
                                   dps=mpmath.mp.dps)
        paper = lem_c_1_paper(2, ev, dps=mpmath.mp.dps)
        fixed = lem_c_1_corrected(2, ev, Lv, dps=mpmath.mp.dps)
    with precision(dps):
        return +kl, +paper, +fixed


# --- simulation: PLA on [-1, 1] with f = |x| ------------------------------------------------

#: The simulation's parameters: D = 2 (X = [-1, 1]), L = 1 (p = 0, M = 2), eta = 1/Theta =
#: 1/27 (the largest step Lemma 4.1 allows), chains from x0 = 1, 20000 chains, 20 bins
#: plus the two atoms, the kernel grid with 400 cells, seed 2025.
PLA_EXPERIMENT = {"D": 2, "L": 1, "eta": Fraction(1, 27), "x0": 1.0, "chains": 20000,
                  "bins": 20, "cells": 400, "seed": 2025,
                  "times": (1, 2, 3, 5, 8, 12, 20, 30, 50, 80, 108, 150, 216)}


@dataclass(frozen=True)
class MixingExperiment:
    """Empirical vs proved distance to stationarity of PLA on [-1, 1] with f = |x|.

    ``mc``: binned TV estimates (value, sd bound, noise floor) from the Monte Carlo;
    ``grid``: TV between the discretised-kernel law of X_T and its stationary vector, at
    the same binning and on the full grid; ``pinsker``: min(1, sqrt(KL/2)) with KL from
    (9); ``boosted``: the Theorem 4.2 staircase 2^-floor(T/ceil(D^2/eta)).
    """

    times: tuple[int, ...]
    mc: tuple[tuple[float, float, float], ...]
    grid_binned: tuple[float, ...]
    grid_full: tuple[float, ...]
    pinsker: tuple[float, ...]
    boosted: tuple[float, ...]
    theta: float


def pla_mixing_experiment(params: dict | None = None) -> MixingExperiment:
    """Run the seeded PLA experiment of :data:`PLA_EXPERIMENT` (about 1 s; the default run
    is cached, the function being deterministic).

    The interval is [-1, 1] (so ``params["D"]`` must be 2) and f = L|x|; ``params`` may
    change eta (with 1/eta >= Theta), the start, the sample sizes and the seed.
    """
    if params is None:
        return _default_experiment()
    return _experiment(dict(params))


@functools.cache
def _default_experiment() -> MixingExperiment:
    return _experiment(dict(PLA_EXPERIMENT))


def _experiment(P: dict) -> MixingExperiment:
    eta = P["eta"]
    ef = float(eta)
    grad = abs_subgradient(float(P["L"]))
    times = tuple(P["times"])
    kern = GridKernel.build(ef, grad, P["cells"])
    pi = kern.stationary()
    start = kern.cells + 1 if P["x0"] == 1.0 else int(np.argmin(np.abs(
        np.concatenate(([-1.0], (kern.edges[:-1] + kern.edges[1:]) / 2, [1.0])) - P["x0"])))
    laws = kern.laws(start, times)
    pib = kern.coarsen(pi, P["bins"])
    sims = simulate(P["x0"], ef, times, P["chains"], grad, seed=P["seed"])
    mc, gb, gf, pk, bo = [], [], [], [], []
    with precision(20):
        ev = mpf(Fraction(eta).numerator) / Fraction(eta).denominator
        h = lipschitz(ev, P["L"], dps=20).h
        theta = eq_10(0, 2 * P["L"], P["D"], dps=20)
        # the Thm 4.2 staircase is a bound only under the step-size condition of Lemma 4.1
        require(1 / ev >= theta, "eta", eta, f"1/eta >= Theta = {mpmath.nstr(theta, 10)}", REF_42)
        for t in times:
            est = binned_tv(sims[t], pib)
            mc.append((est.value, est.sd_bound, est.bias_bound))
            gb.append(0.5 * float(np.abs(kern.coarsen(laws[t], P["bins"]) - pib).sum()))
            gf.append(0.5 * float(np.abs(laws[t] - pi).sum()))
            pk.append(float(pinsker(eq_9(P["D"], ev, t, h, dps=20), dps=20)) if t > 0 else 1.0)
            bo.append(float(thm_4_2_tv_bound(t, P["D"], eta)))
    return MixingExperiment(times, tuple(mc), tuple(gb), tuple(gf), tuple(pk), tuple(bo),
                            float(theta))
