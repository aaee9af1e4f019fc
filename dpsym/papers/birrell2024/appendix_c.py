"""Birrell et al. 2024, App. C: the chi^k lemmas behind the higher-order bounds (83), (90).

With D_chi^k(Q || P) = E_P |dQ/dP - 1|^k (70) (and D_chi^0 := 1):

* Lemma C.3 (Hoelder): D_chi^beta <= (D_chi^gamma)^(beta/gamma) for gamma >= beta > 0;
* Lemma C.4: under (60), max D_chi^k(N_{Delta mu} || N_0) <= B~_{sigma,k} and
  max D_chi^k(N_{Delta mu} || N_{Delta mu'}) <= B~_{sigma,k} (the second uses
  |Delta mu - Delta mu'| <= r_t);
* Lemma C.5: int ((p - q)/r)^k r <= D(q||p) + D(p||q) + D(p||r) + [k even] D(q||r);
* Lemma C.7: under (60), int |X|^beta1 |Y|^beta2 dN_0 <= B~_{sigma,beta1+beta2} for
  beta1 + beta2 an integer (X, Y the likelihood ratios of the two shifts, minus 1).

Each is checked on Gaussian instances (the only ones the paper uses): a scan in float64
(:func:`dpsym.rdp.gaussian_mixture.B_abs_moment_float64` and scipy quadrature of the same
integrands), with the worst case recomputed in mpmath.  Means are in units of the common
standard deviation; a shift of rho r_t with sigma~ = sigma r_t / 2 (37) is d = 2 rho/sigma.

>>> from dpsym.numerics import nstr
>>> lhs, rhs = lem_c_4(sigma=6, k=4, rho=1)
>>> nstr(lhs, 10), nstr(rhs, 10)
('0.07039875316', '0.07039875316')
"""

from __future__ import annotations

import functools
import itertools
import warnings
from collections.abc import Sequence
from dataclasses import dataclass

import mpmath
import numpy as np
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import GUARD_DPS, Number, precision, to_mpf
from dpsym.papers.registry import cite
from dpsym.rdp.gaussian_mixture import (
    B_abs_moment,
    B_abs_moment_float64,
    B_tilde,
    gaussian_ratio_minus_1,
)
from dpsym.rdp.taylor import MAX_TAYLOR_ORDER

PAPER = "birrell2024"

__all__ = [
    "LemmaScan",
    "chi_k_gaussian",
    "lem_c_3",
    "lem_c_3_scan",
    "lem_c_4",
    "lem_c_4_scan",
    "lem_c_5",
    "lem_c_5_scan",
    "lem_c_7",
    "lem_c_7_scan",
]


@dataclass(frozen=True)
class LemmaScan:
    """A scan of an inequality lhs <= rhs: ``cases`` instances, the largest lhs/rhs found
    (``worst_ratio``, recomputed in mpmath) and where (``worst``)."""

    cases: int
    worst_ratio: mpf
    worst: tuple


def chi_k_gaussian(d: Number, k: Number, dps: int = 30) -> mpf:
    """D_chi^k(N(d, 1) || N(0, 1)) (70): E|e^{dZ - d^2/2} - 1|^k = B_{2/|d|, k} of (45).

    Symmetric in the two Gaussians and in the sign of d; 1 at k = 0 (the paper's
    convention D_chi^0 := 1), 0 at d = 0 for k > 0.
    """
    ref = cite(PAPER, "eq. (70)")
    with precision(dps):
        dv, kv = abs(to_mpf(d, "d", ref)), to_mpf(k, "k", ref)
    require(kv >= 0, "k", k, "k >= 0", ref)
    if kv == 0:
        return mpf(1)
    if dv == 0:
        return mpf(0)
    with precision(dps + GUARD_DPS):
        sigma = 2 / dv
    return B_abs_moment(sigma, kv, dps=dps)


def _chi_float(d: float, k: float) -> float:
    if k == 0:
        return 1.0
    if d == 0:
        return 0.0
    return B_abs_moment_float64(2 / abs(d), k)


# --- Lemma C.3 ----------------------------------------------------------------------------


def lem_c_3(beta: Number, gamma: Number, d: Number, dps: int = 30) -> tuple[mpf, mpf]:
    """Lemma C.3 (71) for N(d, 1) against N(0, 1): (D_chi^beta, (D_chi^gamma)^(beta/gamma))."""
    ref = cite(PAPER, "Lemma C.3")
    with precision(dps):
        b, g = to_mpf(beta, "beta", ref), to_mpf(gamma, "gamma", ref)
    require(g >= b > 0, "gamma", gamma, f"gamma >= beta = {beta} > 0", ref)
    lhs, big = chi_k_gaussian(d, b, dps=dps), chi_k_gaussian(d, g, dps=dps)
    with precision(dps):
        return lhs, big ** (b / g)


@functools.cache
def lem_c_3_scan(ds: Sequence[float] = (0.1, 0.5, 1.0, 2.0),
                 pairs: Sequence[tuple[float, float]] = ((0.5, 1), (1, 2), (1.5, 3.7), (2, 4),
                                                         (3, 8), (1, 5)),
                 dps: int = 20) -> LemmaScan:
    """lhs/rhs of Lemma C.3 over shifts ``ds`` and exponent pairs (beta, gamma)."""
    cands = []
    for d in ds:
        for b, g in pairs:
            cands.append((_chi_float(d, b) / _chi_float(d, g) ** (b / g), (d, b, g)))
    _, (d, b, g) = max(cands)
    lhs, rhs = lem_c_3(b, g, d, dps=dps)
    with precision(dps):
        return LemmaScan(len(cands), lhs / rhs, (d, b, g))


# --- Lemma C.4 ----------------------------------------------------------------------------


def lem_c_4(sigma: Number, k: int, rho: Number, dps: int = 30) -> tuple[mpf, mpf]:
    """Lemma C.4 (72) at a shift of rho r_t (|Delta mu|, or |Delta mu - Delta mu'| for the
    second inequality): (D_chi^k of the two Gaussians, B~_{sigma,k})."""
    ref = cite(PAPER, "Lemma C.4")
    k = require_integer("k", k, ref, minimum=0, maximum=MAX_TAYLOR_ORDER)
    with precision(dps):
        s, r = to_mpf(sigma, "sigma", ref), to_mpf(rho, "rho", ref)
    require(s > 0, "sigma", sigma, "sigma > 0", ref)
    require(0 <= r <= 1, "rho", rho, "0 <= rho <= 1 (constraints (60))", ref)
    with precision(dps):
        d = 2 * r / s
    return chi_k_gaussian(d, k, dps=dps), B_tilde(sigma, k, dps=dps)


@functools.cache
def lem_c_4_scan(sigmas: Sequence[float] = (1, 2, 6, 20), ks: Sequence[int] = range(9),
                 rhos: Sequence[float] = (0.25, 0.5, 0.75, 1.0), dps: int = 20) -> LemmaScan:
    """lhs/rhs of Lemma C.4 over sigma, k and shifts rho <= 1 (equality at rho = 1, k even:
    B_{sigma,k} = M_{sigma,k} = B~_{sigma,k})."""
    cands = []
    for s in sigmas:
        for k in ks:
            bt = float(B_tilde(s, k, dps=17))
            for r in rhos:
                cands.append((_chi_float(2 * r / s, k) / bt, (s, k, r)))
    _, (s, k, r) = max(cands)
    lhs, rhs = lem_c_4(s, k, r, dps=dps)
    with precision(dps):
        return LemmaScan(len(cands), lhs / rhs, (s, k, r))


# --- Lemma C.5 ----------------------------------------------------------------------------


def _c5_integrand(a: object, b: object, k: int, lib: object):
    def f(z: object) -> object:
        return ((gaussian_ratio_minus_1(a, z, lib) - gaussian_ratio_minus_1(b, z, lib)) ** k
                * lib.exp(-z * z / 2) / lib.sqrt(2 * lib.pi))

    return f


def lem_c_5(a: Number, b: Number, k: int, dps: int = 30) -> tuple[mpf, mpf]:
    """Lemma C.5 (74) for p = N(a, 1), q = N(b, 1), r = N(0, 1): (lhs, rhs).

    lhs = int ((p - q)/r)^k r (signed for odd k), by quadrature; rhs = D(q||p) + D(p||q)
    + D(p||r) + [k even] D(q||r), each a :func:`chi_k_gaussian`.
    """
    ref = cite(PAPER, "Lemma C.5")
    k = require_integer("k", k, ref, minimum=1, maximum=MAX_TAYLOR_ORDER)
    with precision(dps + GUARD_DPS):
        av, bv = to_mpf(a, "a", ref), to_mpf(b, "b", ref)
        f = _c5_integrand(av, bv, k, mpmath)
        peak = k * max(abs(av), abs(bv))
        lhs = mpmath.quad(f, [mpmath.ninf, -peak - 8, 0, peak + 8, mpmath.inf])
        rhs = (2 * chi_k_gaussian(av - bv, k, dps=dps) + chi_k_gaussian(av, k, dps=dps)
               + (chi_k_gaussian(bv, k, dps=dps) if k % 2 == 0 else 0))
    with precision(dps):
        return +lhs, +rhs


@functools.cache
def lem_c_5_scan(cases: int = 300, seed: int = 5, dps: int = 20) -> LemmaScan:
    """lhs/rhs of Lemma C.5 over ``cases`` seeded unit-variance Gaussian triples: means a, b
    uniform in [-2, 2] (r at 0, rounded to 6 decimals), k uniform in 1..8; a case float64
    quadrature cannot settle is computed in mpmath, and the worst is recomputed there."""
    import scipy.integrate as si

    rng = np.random.default_rng(seed)
    cands = []
    for _ in range(cases):
        a, b = (float(x) for x in rng.uniform(-2, 2, 2))
        k = int(rng.integers(1, 9))
        a, b = round(a, 6), round(b, 6)
        f = _c5_integrand(a, b, k, np)
        peak = k * max(abs(a), abs(b))
        pts = [-peak - 12, -peak - 4, 0.0, peak + 4, peak + 12]
        with warnings.catch_warnings():
            warnings.simplefilter("error", si.IntegrationWarning)
            try:
                lhs = sum(si.quad(f, lo, hi, epsabs=0, epsrel=1e-9, limit=400)[0]
                          for lo, hi in itertools.pairwise(pts))
                rhs = (2 * _chi_float(a - b, k) + _chi_float(a, k)
                       + (_chi_float(b, k) if k % 2 == 0 else 0.0))
                ratio = lhs / rhs
            except si.IntegrationWarning:  # float64 cannot settle it: ask mpmath
                lm, rm = lem_c_5(str(a), str(b), k, dps=15)
                ratio = float(lm / rm)
        cands.append((ratio, (a, b, k)))
    _, (a, b, k) = max(cands)
    lhs, rhs = lem_c_5(str(a), str(b), k, dps=dps)
    with precision(dps):
        return LemmaScan(len(cands), lhs / rhs, (a, b, k))


# --- Lemma C.7 ----------------------------------------------------------------------------


def _c7_integrand(a: object, b: object, b1: object, b2: object, lib: object):
    def f(z: object) -> object:
        return (abs(gaussian_ratio_minus_1(a, z, lib)) ** b1
                * abs(gaussian_ratio_minus_1(b, z, lib)) ** b2
                * lib.exp(-z * z / 2) / lib.sqrt(2 * lib.pi))

    return f


def lem_c_7(sigma: Number, beta1: Number, beta2: Number, rho1: Number, rho2: Number,
            parallel: bool = True, dps: int = 30) -> tuple[mpf, mpf]:
    """Lemma C.7 (76) for collinear shifts |Delta mu| = rho1 r_t, |Delta mu'| = rho2 r_t
    (parallel or anti-parallel): (int |X|^beta1 |Y|^beta2 dN_0, B~_{sigma,beta1+beta2})."""
    ref = cite(PAPER, "Lemma C.7")
    with precision(dps + 10):
        s = to_mpf(sigma, "sigma", ref)
        b1, b2 = to_mpf(beta1, "beta1", ref), to_mpf(beta2, "beta2", ref)
        r1, r2 = to_mpf(rho1, "rho1", ref), to_mpf(rho2, "rho2", ref)
    require(b1 > 0 and b2 > 0, "beta1", beta1, "beta1, beta2 > 0", ref)
    total = b1 + b2
    require(total == int(total), "beta2", beta2, "beta1 + beta2 an integer", ref)
    require(0 <= r1 <= 1 and 0 <= r2 <= 1, "rho1", rho1, "rho1, rho2 in [0, 1] ((60))", ref)
    with precision(dps + 10):
        a, b = 2 * r1 / s, (1 if parallel else -1) * 2 * r2 / s
        f = _c7_integrand(a, b, b1, b2, mpmath)
        kinks = sorted({a / 2, b / 2})  # where X = 0 and Y = 0
        top = total * max(abs(a), abs(b))
        lhs = mpmath.quad(f, [mpmath.ninf, -top - 8, *kinks, top + 8, mpmath.inf])
    with precision(dps):
        return +lhs, B_tilde(sigma, int(total), dps=dps)


@functools.cache
def lem_c_7_scan(sigmas: Sequence[float] = (1, 2, 6),
                 betas: Sequence[tuple[float, float]] = ((1, 1), (1, 2), (0.5, 2.5), (2, 2),
                                                         (1.5, 3.5), (3, 3)),
                 rhos: Sequence[float] = (0.5, 1.0), dps: int = 20) -> LemmaScan:
    """lhs/rhs of Lemma C.7 over sigma, (beta1, beta2) and collinear pairs of norms in
    ``rhos`` (equality at parallel equal shifts of norm r_t and even beta1 + beta2)."""
    import scipy.integrate as si

    cands = []
    for s in sigmas:
        for b1, b2 in betas:
            bt = float(B_tilde(s, int(b1 + b2), dps=17))
            for r1 in rhos:
                for r2 in rhos:
                    for par in (True, False):
                        a, b = 2 * r1 / s, (1 if par else -1) * 2 * r2 / s
                        f = _c7_integrand(a, b, b1, b2, np)
                        top = (b1 + b2) * max(abs(a), abs(b))
                        pts = sorted({-top - 12, -top - 4, a / 2, b / 2, top + 4, top + 12})
                        lhs = sum(si.quad(f, lo, hi, epsabs=0, epsrel=1e-9, limit=400)[0]
                                  for lo, hi in itertools.pairwise(pts))
                        cands.append((lhs / bt, (s, b1, b2, r1, r2, par)))
    _, w = max(cands)
    lhs, rhs = lem_c_7(*w, dps=dps)
    with precision(dps):
        return LemmaScan(len(cands), lhs / rhs, w)
