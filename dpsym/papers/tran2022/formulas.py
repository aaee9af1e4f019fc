"""Tran & Cutkosky 2022: the paper's printed formulas as sympy expressions, each typed once.

Every numeric statement function of this package evaluates these expressions (through
:func:`evaluate`), and :mod:`.rates` derives them from one another, so a formula lives in
exactly one place.  Symbols (all positive):

========  ===============================================================================
N         dataset size (= epoch length, one sample per step)
T         iterations;  ``lg`` = log2 T, ``lgN`` = log2 N (kept as symbols, as the paper does)
d         dimension
eps       privacy epsilon;  ``ell`` = log(1/delta)
R         bound on F(w_1) - inf F (not the tree depth of Alg. 1)
G, L      Lipschitz and smoothness constants of f(., x)
alpha     momentum (1 - beta);  eta step size;  gamma cross-batch parameter (Alg. 2)
sigma     noise multiplier;  V  node count per record (Alg. 1, Thm 10)
K         16 lg ell (Thm 9)
========  ===============================================================================

The displays of the proofs (App. D.2 and E.2) are kept as printed, so that every step can be
checked (:mod:`.rates`).  ``E1`` (a mean momentum error) is Lemma 5's last argument.
"""

from __future__ import annotations

from collections.abc import Mapping

import mpmath
import sympy as sp
from mpmath import mpf

from dpsym.errors import HypothesisError, require
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, to_mpf
from dpsym.papers.registry import cite

__all__ = [
    "ALG1_NODE_STD",
    "ALG2_V_GT",
    "ALG2_V_LE",
    "E1",
    "ETA",
    "GAMMA_9",
    "LEM_5",
    "LEM_7",
    "LEM_7_GAMMA",
    "LEM_7_SQRT_1",
    "LEM_7_SQRT_1_TERMS",
    "LEM_7_SQRT_2",
    "LEM_7_TOTAL",
    "LEM_7_TOTAL_TERMS",
    "LEM_7_VARS",
    "LEM_11",
    "LEM_12",
    "SYMBOLS",
    "THM_4_SIGMA",
    "THM_4_SIMPLIFIED",
    "THM_4_THRESHOLD",
    "THM_6_ALPHA",
    "THM_6_DISPLAYS",
    "THM_6_PRINTED",
    "THM_6_T",
    "THM_8_SIGMA",
    "THM_9_ALPHA",
    "THM_9_DISPLAYS",
    "THM_9_PRINTED",
    "THM_9_T",
    "K",
    "N",
    "T",
    "evaluate",
]

N, T, d, eps, ell, lg, lgN = sp.symbols("N T d epsilon ell lg lgN", positive=True)
R, L, G = sp.symbols("R L G", positive=True)
alpha, eta, gamma, sigma, V = sp.symbols("alpha eta gamma sigma V", positive=True)
delta_G, delta_D, delta_r, E1 = sp.symbols("delta_G delta_Delta delta_r E1", positive=True)

SYMBOLS = {s.name: s for s in (N, T, d, eps, ell, lg, lgN, R, L, G, alpha, eta, gamma, sigma, V,
                               delta_G, delta_D, delta_r, E1)}

_E = sp.exp(-1)
K = 16 * lg * ell  # Theorem 9

# --- Section 3 (Algorithm 1) ---------------------------------------------------------------
ALG1_NODE_STD = 4 * alpha * G * sigma * sp.sqrt(V)                       # Alg. 1, zeta's std
THM_4_SIGMA = 2 * sp.sqrt(ell) / eps                                    # Thm 4
THM_4_THRESHOLD = 1 / (sp.sqrt(2 * ell + 2 * eps) - sp.sqrt(2 * ell))   # App. D.1, quadratic
THM_4_SIMPLIFIED = sp.sqrt(2 * ell + 2 * eps) / eps                     # App. D.1, simplified
z, k = sp.symbols("z k", positive=True)
#: App. D.1 / E.1: (z, k z/(2 sigma^2))-RDP implies (k z/(2 sigma^2) + log(1/delta)/(z-1), delta)-DP
#: (k = 1 for Thm 4, 3 as printed for Thm 8).
RDP_TO_DP = k * z / (2 * sigma**2) + ell / (z - 1)
LEM_5 = 3 * R / (2 * eta * T) + 3 * L * eta / 4 + 3 * E1               # Lemma 5 (E1 = mean error)
LEM_11 = 2 * G * sp.sqrt(alpha) + 2 * eta * N * L + eta * L / alpha     # Lemma 11
LEM_12 = 4 * alpha * G * sigma * sp.sqrt(d * V * lg)                     # Lemma 12
ETA = 1 / sp.sqrt(N * T)                                                 # Thms 6 and 9
THM_6_ALPHA = eps * N / (T * lg * sp.sqrt(d * ell))                     # Thm 6
THM_6_T = eps * N**2 / (lg * sp.sqrt(d * ell))                          # Thm 6 (implicit in T)
THM_6_PRINTED = (
    (sp.Rational(3, 2) * R + 6 * L * sp.sqrt(lg * ell)
     + 12 * G * sp.sqrt(lg) * ell**sp.Rational(1, 4))
    * d**sp.Rational(1, 4) / sp.sqrt(eps * N)
    + 3 * L * (d * ell)**sp.Rational(1, 4) * sp.sqrt(lg) / (4 * sp.sqrt(eps) * N**sp.Rational(3, 2))
    + 6 * G / sp.sqrt(N) + 6 * G * lg * sp.sqrt(d * ell) / (eps * N))
#: The displays of the proof of Thm 6 (App. D.2), in order.
THM_6_DISPLAYS = (
    3 * R / (2 * eta * T) + 3 * eta * L / 4 + 6 * G * sp.sqrt(alpha) + 6 * eta * N * L
    + 3 * eta * L / alpha + 12 * alpha * G * lg * sp.sqrt(d * T * ell) / (eps * sp.sqrt(N)),
    3 * R / (2 * eta * T) + 6 * G * sp.sqrt(alpha) + 6 * eta * N * L + 6 * eta * L / alpha
    + 12 * alpha * G * lg * sp.sqrt(d * T * ell) / (eps * sp.sqrt(N)),
    (sp.Rational(3, 2) * R + 6 * L) * sp.sqrt(N) / sp.sqrt(T) + 6 * L / (alpha * sp.sqrt(N * T))
    + 6 * G * sp.sqrt(alpha) + 6 * G / (alpha * T)
    + 12 * alpha * G * lg * sp.sqrt(d * T * ell) / (eps * sp.sqrt(N)),
    (sp.Rational(3, 2) * R + 6 * L + 12 * G) * sp.sqrt(N) / sp.sqrt(T)
    + 6 * L * sp.sqrt(T) * lg * sp.sqrt(d * ell) / (eps * N * sp.sqrt(N))
    + 6 * G * sp.sqrt(eps * N) / ((d * ell)**sp.Rational(1, 4) * sp.sqrt(T * lg))
    + 6 * G * lg * sp.sqrt(d * ell) / (eps * N),
)

# --- Section 4 (Algorithm 2) ---------------------------------------------------------------
ALG2_V_LE = 3 * lgN                    # V_{<=2N}
ALG2_V_GT = 4 * T / N * lgN            # V_{>2N}
THM_8_SIGMA = 4 * sp.sqrt(ell) / eps   # Thm 8
LEM_7 = (192 * G * alpha * lg * sp.sqrt(d * ell) / eps
         + 128 * (G + 2 * L) * alpha * sp.sqrt(eta * d * T * ell) * lg / eps
         + 16 * eta * L * alpha * lg * sp.sqrt(3 * d * T * N * ell) / eps)
_C = (1 - _E)
#: Var_1 .. Var_5 of the proof of Lemma 7 (App. E.2), each as in its last printed line.
LEM_7_VARS = (
    12 * alpha**2 * delta_G**2 * sigma**2 * lgN**2,
    12 * alpha**2 * delta_G**2 * sigma**2 * lgN**2 / _C**2,
    16 * gamma * alpha**2 * delta_G**2 * sigma**2 * T * lgN**2 / (_C**2 * N),
    16 * alpha**2 * delta_D**2 * sigma**2 * T * lgN**2 / (gamma * N * _C**2),
    48 * T * alpha**2 * eta**2 * N**2 * L**2 * sigma**2 * lg**2 / N,
)
#: The printed total variance and its square root (App. E.2), term by term in printed order.
LEM_7_TOTAL_TERMS = (
    256 * G**2 * alpha**2 * sigma**2 * lgN**2,
    256 * G**2 * alpha**2 * sigma**2 * lgN**2 / _C**2,
    256 * G**2 * gamma * alpha**2 * sigma**2 * T * lgN**2 / (_C**2 * N),
    1024 * eta**2 * N**2 * L**2 * alpha**2 * sigma**2 * T * lgN**2 / (_C**2 * gamma * N),
    48 * T * alpha**2 * eta**2 * N**2 * L**2 * sigma**2 * lg**2 / N,
)
LEM_7_TOTAL = sp.Add(*LEM_7_TOTAL_TERMS)
LEM_7_SQRT_1_TERMS = tuple(sp.sqrt(d) * x for x in (
    16 * G * alpha * sigma * lgN,
    16 * G * alpha * sigma * lgN / _C,
    16 * G * alpha * sp.sqrt(gamma) * sigma * sp.sqrt(T) * lgN / (_C * sp.sqrt(N)),
    32 * eta * N * L * alpha * sigma * sp.sqrt(T) * lgN / (_C * sp.sqrt(gamma * N)),
    4 * eta * N * L * alpha * sigma * lg * sp.sqrt(3 * T) / sp.sqrt(N)))
LEM_7_SQRT_1 = sp.Add(*LEM_7_SQRT_1_TERMS)
LEM_7_SQRT_2 = sp.sqrt(d) * (
    48 * G * alpha * sigma * lg
    + 32 * G * alpha * sp.sqrt(gamma) * sigma * sp.sqrt(T) * lg / sp.sqrt(N)
    + 64 * eta * N * L * alpha * sigma * sp.sqrt(T) * lg / sp.sqrt(gamma * N)
    + 4 * eta * N * L * alpha * sigma * lg * sp.sqrt(3 * T) / sp.sqrt(N))
LEM_7_GAMMA = sp.sqrt(d) * (
    48 * G * alpha * sigma * lg + 32 * G * alpha * sigma * sp.sqrt(eta * T) * lg
    + 64 * L * alpha * sigma * sp.sqrt(eta * T) * lg
    + 4 * eta * N * L * alpha * sigma * lg * sp.sqrt(3 * T) / sp.sqrt(N))
GAMMA_9 = eta * N                                                        # Thm 9
THM_9_ALPHA = N**sp.Rational(3, 4) * eps / (T**sp.Rational(3, 4) * sp.sqrt(d))
THM_9_T = N**sp.Rational(7, 3) * eps**sp.Rational(4, 3) / d**sp.Rational(2, 3)
THM_9_PRINTED = ((sp.Rational(3, 2) * R + 24 * K * (G + 2 * L) + 12 * L) * d**sp.Rational(1, 3)
                 / (eps * N)**sp.Rational(2, 3)
                 + 6 * G / sp.sqrt(N) + 36 * G * K * sp.sqrt(d) / (eps * N)
                 + 9 * K * L * sp.sqrt(d) / (eps * N))
#: The displays of the proof of Thm 9 (App. E.2), in order.
THM_9_DISPLAYS = (
    3 * R / (2 * eta * T) + 3 * eta * L / 4 + 3 * (
        2 * G * sp.sqrt(alpha) + 2 * eta * N * L + eta * L / alpha
        + 12 * K * G * alpha * sp.sqrt(d) / eps
        + 8 * K * (G + 2 * L) * alpha * sp.sqrt(eta * d * T) / eps
        + K * alpha * eta * L * sp.sqrt(3 * d * T * N) / eps),
    3 * R / (2 * eta * T) + 3 * eta * L / 4 + 6 * G * sp.sqrt(alpha) + 6 * eta * N * L
    + 3 * eta * L / alpha + 36 * G * K * alpha * sp.sqrt(d) / eps
    + 24 * K * (G + 2 * L) * alpha * sp.sqrt(eta * d * T) / eps
    + 3 * K * alpha * eta * L * sp.sqrt(3 * d * T * N) / eps,
    3 * R / (2 * eta * T) + 6 * G * sp.sqrt(alpha) + 6 * eta * N * L + 6 * eta * L / alpha
    + 36 * G * K * alpha * sp.sqrt(d) / eps
    + 24 * K * (G + 2 * L) * alpha * sp.sqrt(eta * d * T) / eps
    + 3 * K * alpha * eta * L * sp.sqrt(3 * d * T * N) / eps,
    (sp.Rational(3, 2) * R + 6 * L) * sp.sqrt(N) / sp.sqrt(T) + 6 * L / (alpha * sp.sqrt(N * T))
    + 6 * G * sp.sqrt(alpha) + 36 * G * K * alpha * sp.sqrt(d) / eps
    + 24 * K * (G + 2 * L) * alpha * T**sp.Rational(1, 4) * sp.sqrt(d)
    / (eps * N**sp.Rational(1, 4))
    + 9 * K * alpha * L * sp.sqrt(d) / eps,
    (sp.Rational(3, 2) * R + 24 * K * (G + 2 * L) + 6 * L) * sp.sqrt(N) / sp.sqrt(T)
    + 6 * L * T**sp.Rational(1, 4) * sp.sqrt(d) / (eps * N**sp.Rational(5, 4))
    + 6 * G * N**sp.Rational(3, 8) * sp.sqrt(eps) / (T**sp.Rational(3, 8) * d**sp.Rational(1, 4))
    + 36 * G * K * N**sp.Rational(3, 4) / T**sp.Rational(3, 4)
    + 9 * K * N**sp.Rational(3, 4) * L / T**sp.Rational(3, 4),
)


def evaluate(expr: sp.Expr, values: Mapping[str, Number], dps: int = DEFAULT_DPS) -> mpf:
    """``expr`` at ``values`` (symbol name -> number) in mpmath at ``dps`` digits.

    ``lg`` and ``lgN`` default to log2 T and log2 N when T and N are given.
    """
    vals = dict(values)
    with precision(dps + GUARD_DPS):
        num = {k: to_mpf(v, k, cite("tran2022")) for k, v in vals.items()}
        # The symbols are declared positive (as the paper assumes; 0 is allowed where the
        # formula stays finite, e.g. L = 0 for a linear loss); a negative value (G = -1,
        # T = -1e-5) would return a meaningless, even negative, bound.
        for sym in expr.free_symbols:
            if sym.name in num and sym.is_positive:
                require(num[sym.name] >= 0, sym.name, vals[sym.name], f"{sym.name} >= 0",
                        cite("tran2022"))
        if "lg" not in num and "T" in num:
            num["lg"] = mpmath.log(num["T"], 2)
        if "lgN" not in num and "N" in num:
            num["lgN"] = mpmath.log(num["N"], 2)
        free = sorted(expr.free_symbols, key=lambda s: s.name)
        missing = [s.name for s in free if s.name not in num]
        if missing:
            raise ValueError(f"values={sorted(vals)} violates 'a value for every symbol' "
                             f"(missing {missing})")
        f = sp.lambdify(free, expr, "mpmath")
        try:
            out = f(*[num[s.name] for s in free])
        except ZeroDivisionError:
            zero = next(s.name for s in free if num[s.name] == 0)
            raise HypothesisError(zero, vals.get(zero, 0), f"{zero} > 0 (it divides)",
                                  cite("tran2022")) from None
    with precision(dps):
        return +mpf(out)
