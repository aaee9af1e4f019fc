"""Birrell, Ebrahimi, Behnia & Pacheco 2024: the sampling facts behind the accountants.

Lemma A.1 (FSwoR decomposition), Lemma D.1 (FSwR decomposition), the sensitivity facts
(31)-(32) and (37), and the gradient-variance comparison of Sec. 4.1 / App. F
(eqs. (20)-(22), (143)-(147)).  Each function is a thin statement over
:mod:`dpsym.sampling`.  Symbols: N = |D| (dataset size), B = |B| (batch size),
q = B/N, abar = mean a_i, a2bar = mean a_i^2 (for vectors: ||mean a_i||^2 is passed as
``abar_sq`` and a2bar = mean ||a_i||^2), C (clipping norm), eta (learning rate), sigma
(noise multiplier).
"""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import numpy as np
import sympy as sp

from dpsym.errors import require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.papers.birrell2024 import printed
from dpsym.papers.registry import cite
from dpsym.sampling import (
    SCHEMES,
    DecompositionCheck,
    MonteCarloVariance,
    check_lemma_a1,
    check_lemma_d1,
    mean_shift_sensitivity,
    monte_carlo_variance,
    noise_to_shift_ratio,
    variance_by_enumeration,
    variance_closed_form,
    variance_ratio,
    variance_symbolic,
)

__all__ = [
    "EQ_22_ALIGNMENTS",
    "app_f_enumeration",
    "app_f_ratios",
    "app_f_symbolic",
    "eq_21",
    "eq_22",
    "eq_22_montecarlo",
    "eq_32",
    "eq_37",
    "eq_143",
    "eq_144",
    "eq_145",
    "eq_146",
    "eq_147",
    "lem_a_1",
    "lem_d_1",
    "sec_4_1_printed_index_set",
    "synthetic_gradients",
]

PAPER = "birrell2024"


def lem_a_1(N: int, B: int) -> DecompositionCheck:
    """Lemma A.1: with q = B/N, J ~ Bernoulli(q), B' a uniform size-B subset of {0..N-2},
    B~ | B' a uniform size-(B-1) subset of B', the set B = B' (J = 0) or B~ u {N-1}
    (J = 1) is a uniform size-B subset of {0..N-1}.  Checked by exact enumeration
    (Fractions), together with: B' has the FSwoR law of D' (eq. (28)) and b', b~ u {N-1}
    differ in exactly one element (the source of eq. (31))."""
    return check_lemma_a1(N, B)


def lem_d_1(N: int, B: int) -> DecompositionCheck:
    """Lemma D.1: B' iid uniform on {0..N-2}^B, K ~ Binomial(B, 1/N), Pi a uniform
    permutation; replacing the coordinates Pi(1..K) of B' by N-1 (eq. (99)) gives B iid
    uniform on {0..N-1}.  Checked by exact enumeration, with: the B'-marginal is FSwR on
    D', Phi(b', n, pi) differs from b' in n coordinates (||Delta mu_n|| <= n r_t), and the
    count of N-1 in B has the law a_n of eq. (105)."""
    return check_lemma_d1(N, B)


def eq_32(N: int = 5, B: int = 2, scheme: str = "fswor") -> sp.Expr:
    """Eq. (31)-(32): max over the pairs coupled by Lemma A.1 of ||mu(b~ u {N-1}) - mu(b')||
    is 2 C eta / |B| =: r_t (FSwoR), twice the Poisson value C eta / |B|.  Derived by
    enumerating the pairs at (N, B) with the clipped gradients free in the C-ball."""
    return mean_shift_sensitivity(scheme, "add-remove", N, B)  # type: ignore[arg-type]


def eq_37(scheme: str = "fswor") -> sp.Expr:
    """Eq. (37): sigma~_t / r_t = sigma_t / 2 for FSwoR (sigma_t for Poisson, whose shift
    is r_t / 2), so Thm 3.1's mixture has variance sigma^2/4 in units of the shift."""
    return noise_to_shift_ratio(scheme)  # type: ignore[arg-type]


def eq_21(abar_sq: object, a2bar: object, N: object, B: object) -> dict[str, object]:
    """Eq. (21): Var[Z_P] = (1/B - 1/N) a2bar, Var[Z_R] = (1-1/N)/(1-q) Var[Z_B],
    Var[Z_B] = N/(N-1) (Var[Z_P] - (1/B - 1/N) abar^2), for the minibatch means (20)."""
    return {s: variance_closed_form(s, abar_sq, a2bar, N, B) for s in SCHEMES}  # type: ignore


def eq_22(abar_sq: float, a2bar: float, N: int) -> float:
    """Eq. (22) = (146): Var[Z_B]/Var[Z_P] = (1 - abar^2/a2bar) / (1 - 1/N)."""
    return variance_ratio(abar_sq, a2bar, N)


def eq_143(abar_sq: object, a2bar: object, N: object, B: object) -> tuple[object, object]:
    """Eq. (143): Var[Z_P] = (1/B - 1/N) a2bar and Var[Z_R] = (1-q)^-1 Var[Z_P] - abar^2/B
    (returned as computed from (21)/(147); their equality with (143)'s last line is the
    claim ``birrell2024/eq21/symbolic``)."""
    v = eq_21(abar_sq, a2bar, N, B)
    return v["poisson"], v["fswr"]


def eq_144(abar_sq: object, a2bar: object, N: object, B: object) -> object:
    """Eq. (144): Var[Z_B] = N/(N-1) (Var[Z_P] - (1/B - 1/N) abar^2)."""
    return eq_21(abar_sq, a2bar, N, B)["fswor"]


def eq_146(abar_sq: float, a2bar: float, N: int) -> float:
    """Eq. (146), the same statement as (22)."""
    return eq_22(abar_sq, a2bar, N)


def eq_145(abar_sq: float, a2bar: float, N: int, B: int) -> float:
    """Eq. (145): Var[Z_R]/Var[Z_P] = (1 - abar^2/a2bar) / (1 - q), q = B/N."""
    v = eq_21(abar_sq, a2bar, float(N), float(B))
    return float(v["fswr"]) / float(v["poisson"])


def eq_147(N: int, B: int) -> Fraction:
    """Eq. (147): Var[Z_R] / Var[Z_B] = (1 - 1/N)/(1 - q) > 1 (exact rational)."""
    n = require_integer("N", N, cite(PAPER, "eq. (147)"), minimum=2)
    b = require_integer("B", B, cite(PAPER, "eq. (147)"), minimum=1)
    require(b < n, "B", b, f"B < N = {n}", cite(PAPER, "eq. (147)"))
    v = eq_21(Fraction(0), Fraction(1), n, b)
    return Fraction(v["fswr"]) / Fraction(v["fswor"])  # type: ignore[arg-type]


def app_f_symbolic() -> dict[str, sp.Expr]:
    """App. F for symbolic N, B: derived variance minus printed (21)/(143)-(144), per
    scheme (0 when the printed formula is right)."""
    N, B = sp.symbols("N B", positive=True, integer=True)
    abar, a2bar = sp.symbols("abar a2bar", real=True)
    return {s: sp.simplify(variance_symbolic(s) - variance_closed_form(s, abar**2, a2bar, N, B))
            for s in SCHEMES}  # type: ignore[arg-type]


@cache
def app_f_enumeration(N: int, B: int) -> dict[str, sp.Expr]:
    """App. F at (N, B) by exact enumeration with symbols a_1..a_N: derived minus printed."""
    out = {}
    for s in SCHEMES:
        v, a = variance_by_enumeration(s, N, B)  # type: ignore[arg-type]
        abar = sum(a) / sp.Integer(N)
        a2bar = sum(x**2 for x in a) / sp.Integer(N)
        out[s] = sp.expand(v - variance_closed_form(s, abar**2, a2bar, sp.Integer(N),  # type: ignore
                                                    sp.Integer(B)))
    return out


def app_f_ratios() -> dict[str, Derivation]:
    """The variance ratios of Sec. 4.1 / App. F, derived (ratios of
    :func:`dpsym.sampling.variance_symbolic`, symbolic N = |D|, B = |B|) against the printed
    (22) = (146), (145), (147) and the last line of (143)."""
    N, B = sp.symbols("N B", positive=True, integer=True)
    abar, a2bar = sp.symbols("abar a2bar", real=True)
    names = {"N": N, "B": B, "abar": abar, "a2bar": a2bar}
    vp, vb, vr = (variance_symbolic(s) for s in ("poisson", "fswor", "fswr"))  # type: ignore
    derived = {"22": vb / vp, "145": vr / vp, "147": vr / vb, "143": vr}
    target = {"22": printed.EQ_22, "145": printed.EQ_145, "147": printed.EQ_147,
              "143": printed.EQ_143}
    out = {}
    for key, d in derived.items():
        t = sp.sympify(target[key].value, locals={**names, "VarP": vp})
        out[key] = Derivation(d, t, sp.simplify(d - t), f"eq. ({key})")
    return out


def sec_4_1_printed_index_set(N: int, B: int) -> sp.Expr:
    """E[Z_B] - abar when B is drawn, as printed in Sec. 4.1 / App. F, from {2..N} instead
    of {1..N} (symbols a_1..a_N): nonzero, so the printed index set contradicts E[Z_B] =
    abar (eq. (142)); with {1..N} the difference is 0."""
    n = require_integer("N", N, cite(PAPER, "Sec. 4.1"), minimum=3)
    b = require_integer("B", B, cite(PAPER, "Sec. 4.1"), minimum=1)
    require(b < n, "B", b, f"B < N = {n}", cite(PAPER, "Sec. 4.1"))
    from itertools import combinations

    a = sp.symbols(f"a1:{n + 1}", real=True)
    subsets = list(combinations(range(1, n), b))  # indices 2..N (0-based 1..N-1)
    mean = sum(sum(a[i] for i in s) for s in subsets) / (b * sp.Integer(len(subsets)))
    return sp.simplify(mean - sum(a) / n)


# --- Monte Carlo with synthetic gradient vectors -------------------------------------------

#: Alignment levels m of the synthetic gradients a_i = m u + xi_i (u a unit vector,
#: xi_i ~ N(0, I_d / d)): abar^2/a2bar grows from ~0 to ~1 with m.
EQ_22_ALIGNMENTS = (0.0, 0.25, 0.5, 1.0, 2.0, 4.0)


def synthetic_gradients(N: int, d: int, alignment: float, seed: int) -> np.ndarray:
    """N synthetic "gradients" in R^d: alignment * e_1 + N(0, I/d) noise (seeded)."""
    rng = np.random.default_rng(seed)
    a = rng.normal(size=(N, d)) / np.sqrt(d)
    a[:, 0] += alignment
    return a


@cache
def eq_22_montecarlo(N: int = 200, B: int = 20, d: int = 10, samples: int = 3000,
                     seed: int = 2024) -> tuple[tuple[float, MonteCarloVariance], ...]:
    """Measured vs eq. (21)/(22) variances for each alignment of :data:`EQ_22_ALIGNMENTS`:
    (abar^2/a2bar, Monte Carlo result) per alignment (cached: the ledger, the figure and
    the notebook share one computation)."""
    out = []
    for k, m in enumerate(EQ_22_ALIGNMENTS):
        a = synthetic_gradients(N, d, m, seed + k)
        mean = a.mean(axis=0)
        frac = float(mean @ mean) / float(np.mean(np.sum(a * a, axis=1)))
        out.append((frac, monte_carlo_variance(a, B, samples=samples, seed=seed + 100 + k)))
    return tuple(out)
