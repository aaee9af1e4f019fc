"""Minibatch sampling schemes of DP-SGD: exact laws, decompositions, sensitivity, variance.

Three schemes draw a minibatch from a dataset of ``N = |D|`` examples (indices
``0..N-1``):

* ``"poisson"``  every index independently with probability ``q``; the batch size is
  Binomial(N, q) (Mironov, Talwar & Zhang 2019);
* ``"fswor"``    a uniform subset of fixed size ``B`` (fixed size *without* replacement);
* ``"fswr"``     ``B`` iid uniform indices, an ordered tuple (fixed size *with* replacement).

Everything here is exact: laws are ``dict`` s from a batch (a sorted tuple for sets, an
ordered tuple for FSwR) to a ``Fraction``, built by enumeration on small ``N``, and
symbolic results are sympy expressions derived from those laws or from inclusion
probabilities simplified by sympy for symbolic ``N, B``.  Privacy analyses use these
facts through Birrell, Ebrahimi, Behnia & Pacheco 2024:

* Lemma A.1 (FSwoR decomposition) and Lemma D.1 (FSwR decomposition):
  :func:`lemma_a1_law`, :func:`lemma_d1_law`;
* the mean-shift sensitivities (31)-(32) and the ratio (37): :func:`mean_shift_sensitivity`,
  :func:`noise_to_shift_ratio`;
* the variances (21), (143)-(147) of the minibatch mean: :func:`variance_by_enumeration`,
  :func:`variance_symbolic`, :func:`variance_closed_form`, and a seeded Monte Carlo
  :func:`monte_carlo_variance` with vector "gradients".

Monte Carlo and plotting helpers use float64 numpy; nothing else does.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from fractions import Fraction
from itertools import combinations, permutations, product
from math import comb, factorial
from typing import Literal

import mpmath
import numpy as np
import sympy as sp

from dpsym.errors import require, require_integer

__all__ = [
    "SCHEMES",
    "DecompositionCheck",
    "Law",
    "MonteCarloVariance",
    "batch_size_extremes",
    "batch_size_law",
    "binomial_pmf",
    "check_lemma_a1",
    "check_lemma_d1",
    "fswor_law",
    "fswr_law",
    "inclusion_probabilities",
    "lemma_a1_law",
    "lemma_d1_law",
    "mean_shift_sensitivity",
    "monte_carlo_variance",
    "noise_to_shift_ratio",
    "poisson_law",
    "sample_batch",
    "selection_counts",
    "variance_by_enumeration",
    "variance_closed_form",
    "variance_ratio",
    "variance_symbolic",
]

Scheme = Literal["poisson", "fswor", "fswr"]
SCHEMES: tuple[Scheme, ...] = ("poisson", "fswor", "fswr")
Law = dict[tuple[int, ...], Fraction]

_REF = "Birrell et al. 2024, Sec. 3.1"
#: Enumeration is exponential; these caps keep a call below a second.
_MAX_SUPPORT = 200_000


def _sizes(N: object, B: object, ref: str, allow_equal: bool = True) -> tuple[int, int]:
    n = require_integer("N", N, ref, minimum=1)
    b = require_integer("B", B, ref, minimum=1)
    require(b <= n if allow_equal else b < n, "B", b,
            f"B {'<=' if allow_equal else '<'} N = {n}", ref)
    return n, b


def _fraction(x: object, name: str, ref: str) -> Fraction:
    try:
        f = Fraction(x) if not isinstance(x, float) else Fraction(repr(x))
    except (TypeError, ValueError):
        raise ValueError(f"{name}={x!r} violates a rational number ({ref})") from None
    return f


def _check_support(size: int, ref: str) -> None:
    require(size <= _MAX_SUPPORT, "support size", size,
            f"<= {_MAX_SUPPORT} for exact enumeration", ref)


def binomial_pmf(n: int, k: int, p: Fraction) -> Fraction:
    """P(Binomial(n, p) = k), exact."""
    if k < 0 or k > n:
        return Fraction(0)
    return comb(n, k) * p**k * (1 - p) ** (n - k)


# --- exact laws -----------------------------------------------------------------------------

def fswor_law(N: int, B: int) -> Law:
    """Uniform law on the size-``B`` subsets of {0..N-1} (FSwoR, eq. (5): Z = C(N, B))."""
    n, b = _sizes(N, B, _REF)
    _check_support(comb(n, b), _REF)
    p = Fraction(1, comb(n, b))
    return {s: p for s in combinations(range(n), b)}


def fswr_law(N: int, B: int) -> Law:
    """Uniform law on {0..N-1}^B, ordered tuples (FSwR, eq. (5): Z = N^B)."""
    n = require_integer("N", N, _REF, minimum=1)
    b = require_integer("B", B, _REF, minimum=1)
    _check_support(n**b, _REF)
    p = Fraction(1, n**b)
    return {t: p for t in product(range(n), repeat=b)}


def poisson_law(N: int, q: object) -> Law:
    """Law of the Poisson-sampled index set: each index kept independently w.p. ``q``."""
    n = require_integer("N", N, "Poisson sampling", minimum=1)
    qq = _fraction(q, "q", "Poisson sampling")
    require(0 <= qq <= 1, "q", q, "0 <= q <= 1", "Poisson sampling")
    _check_support(2**n, "Poisson sampling")
    law: Law = {}
    for k in range(n + 1):
        p = qq**k * (1 - qq) ** (n - k)
        for s in combinations(range(n), k):
            law[s] = p
    return law


def batch_size_law(scheme: Scheme, N: int, B: int | None = None,
                   q: object = None) -> dict[int, Fraction]:
    """Law of the batch size |B_t|: Binomial(N, q) for Poisson, a point mass at B otherwise.

    For Poisson with ``B`` given and ``q`` omitted, ``q = B/N`` (the rate with mean B).
    """
    require(scheme in SCHEMES, "scheme", scheme, f"one of {SCHEMES}", "dpsym.sampling")
    n = require_integer("N", N, _REF, minimum=1)
    if scheme != "poisson":
        _, b = _sizes(n, B, _REF, allow_equal=True)
        return {b: Fraction(1)}
    if q is None:
        _, b = _sizes(n, B, _REF)
        q = Fraction(b, n)
    qq = _fraction(q, "q", "Poisson sampling")
    require(0 <= qq <= 1, "q", q, "0 <= q <= 1", "Poisson sampling")
    return {k: binomial_pmf(n, k, qq) for k in range(n + 1)}


def _binomial_log_pmf(n: int, k: int, q: mpmath.mpf) -> mpmath.mpf:
    return (mpmath.loggamma(n + 1) - mpmath.loggamma(k + 1) - mpmath.loggamma(n - k + 1)
            + k * mpmath.log(q) + (n - k) * mpmath.log1p(-q))


def batch_size_extremes(N: int, q: object, steps: int, p: object = "0.5",
                        dps: int = 30) -> tuple[int, int]:
    """Quantiles of the smallest and largest Poisson batch size over ``steps`` steps.

    The sizes are iid Binomial(N, q).  Returns (k_min, k_max): the largest k_min with
    P(min >= k_min) >= p and the smallest k_max with P(max <= k_max) >= p, from the exact
    binomial tails in mpmath (P(max <= k) = F(k)^steps).  A Poisson run must provision
    memory for k_max examples; a fixed-size run for exactly |B| = qN.
    """
    n = require_integer("N", N, "Poisson sampling", minimum=1)
    t = require_integer("steps", steps, "Poisson sampling", minimum=1)
    with mpmath.workdps(dps):
        qq = mpmath.mpf(Fraction(q).numerator) / Fraction(q).denominator \
            if not isinstance(q, float) else mpmath.mpf(repr(q))
        require(0 < qq < 1, "q", q, "0 < q < 1", "Poisson sampling")
        pp = mpmath.mpf(Fraction(str(p)).numerator) / Fraction(str(p)).denominator
        require(0 < pp < 1, "p", p, "0 < p < 1", "batch_size_extremes")
        mean = n * qq
        sd = mpmath.sqrt(mean * (1 - qq))
        span = int(mpmath.ceil(40 * sd + 50))
        lo, hi = max(0, int(mean) - span), min(n, int(mean) + span)
        pmf = {k: mpmath.exp(_binomial_log_pmf(n, k, qq)) for k in range(lo, hi + 1)}
        # Mass outside [lo, hi] is below exp(-800) and only makes the quantiles safer.
        cdf, acc = {}, mpmath.mpf(0)
        for k in range(lo, hi + 1):
            acc += pmf[k]
            cdf[k] = acc
        k_max = next(k for k in range(lo, hi + 1) if cdf[k] ** t >= pp)
        k_min = max(k for k in range(lo, hi + 1)
                    if (1 - (cdf[k - 1] if k > lo else 0)) ** t >= pp)
    return k_min, k_max


def sample_batch(scheme: Scheme, N: int, B: int, rng: np.random.Generator) -> np.ndarray:
    """One minibatch of indices (Poisson with rate q = B/N): float-free, seeded by ``rng``."""
    require(scheme in SCHEMES, "scheme", scheme, f"one of {SCHEMES}", "dpsym.sampling")
    if scheme == "poisson":
        return np.flatnonzero(rng.random(N) < B / N)
    if scheme == "fswor":
        return rng.choice(N, size=B, replace=False)
    return rng.integers(0, N, size=B)


def selection_counts(scheme: Scheme, N: int, B: int, count: int,
                     rng: np.random.Generator) -> np.ndarray:
    """``count`` independent minibatches as a (count x N) matrix of selection counts c_i
    (0/1 for Poisson and FSwoR, multiplicities for FSwR); Poisson rate q = B/N."""
    require(scheme in SCHEMES, "scheme", scheme, f"one of {SCHEMES}", "dpsym.sampling")
    if scheme == "poisson":
        return (rng.random((count, N)) < B / N).astype(float)
    out = np.zeros((count, N))
    rows = np.repeat(np.arange(count), B)
    if scheme == "fswor":
        # The B smallest of N iid uniforms form a uniform size-B subset.
        idx = np.argpartition(rng.random((count, N)), B - 1, axis=1)[:, :B]
    else:
        idx = rng.integers(0, N, size=(count, B))
    np.add.at(out, (rows, idx.ravel()), 1.0)
    return out


# --- Lemma A.1 and Lemma D.1 --------------------------------------------------------------

def _lemma_a1_terms(N: int, B: int) -> Iterator[tuple[int, tuple[int, ...], tuple[int, ...],
                                                      Fraction]]:
    """(J, b', b~, probability) of the construction in Lemma A.1."""
    q = Fraction(B, N)
    bprimes = list(combinations(range(N - 1), B))
    p_b = Fraction(1, len(bprimes))
    for bp in bprimes:
        yield 0, bp, (), p_b * (1 - q)
        subs = list(combinations(bp, B - 1))
        for bt in subs:
            yield 1, bp, bt, p_b * q / len(subs)


def lemma_a1_law(N: int, B: int) -> Law:
    """Law of B built as in Lemma A.1 (Birrell et al. 2024, eq. (23)).

    J ~ Bernoulli(q), q = B/N; B' uniform size-B subset of {0..N-2}; B~ | B' uniform
    size-(B-1) subset of B'; B = B' if J = 0, B = B~ u {N-1} if J = 1.
    """
    n, b = _sizes(N, B, "Birrell et al. 2024, Lemma A.1", allow_equal=False)
    _check_support(comb(n - 1, b) * (b + 1), "Birrell et al. 2024, Lemma A.1")
    law: Law = {}
    for j, bp, bt, p in _lemma_a1_terms(n, b):
        batch = bp if j == 0 else tuple(sorted((*bt, n - 1)))
        law[batch] = law.get(batch, Fraction(0)) + p
    return law


def _lemma_d1_terms(N: int, B: int) -> Iterator[tuple[tuple[int, ...], int,
                                                      tuple[int, ...], Fraction]]:
    """(b', n, pi, probability) of the construction in Lemma D.1."""
    p_b = Fraction(1, (N - 1) ** B)
    perms = list(permutations(range(B)))
    p_pi = Fraction(1, len(perms))
    for bp in product(range(N - 1), repeat=B):
        for n in range(B + 1):
            p_n = binomial_pmf(B, n, Fraction(1, N))
            for pi in perms:
                yield bp, n, pi, p_b * p_n * p_pi


def _phi(bp: tuple[int, ...], n: int, pi: tuple[int, ...], last: int) -> tuple[int, ...]:
    """Eq. (99): coordinates pi(0..n-1) of b' are replaced by the differing element."""
    replaced = set(pi[:n])
    return tuple(last if i in replaced else x for i, x in enumerate(bp))


def lemma_d1_law(N: int, B: int) -> Law:
    """Law of B = Phi(B', N, Pi) of Lemma D.1 (Birrell et al. 2024, eq. (99)).

    B' iid uniform on {0..N-2}^B; N ~ Binomial(B, 1/N) copies of the last element; Pi a
    uniform permutation choosing which coordinates are replaced.
    """
    n = require_integer("N", N, "Birrell et al. 2024, Lemma D.1", minimum=2)
    b = require_integer("B", B, "Birrell et al. 2024, Lemma D.1", minimum=1)
    _check_support((n - 1) ** b * (b + 1) * factorial(b), "Birrell et al. 2024, Lemma D.1")
    law: Law = {}
    for bp, k, pi, p in _lemma_d1_terms(n, b):
        batch = _phi(bp, k, pi, n - 1)
        law[batch] = law.get(batch, Fraction(0)) + p
    return law


@dataclass(frozen=True)
class DecompositionCheck:
    """Exact comparison of a decomposition's law with the target law.

    ``equal``: the two laws agree atom by atom; ``support``: number of atoms; ``max_diff``:
    the largest atom-wise difference (0 when equal); ``marginal_ok``: the D'-part of the
    construction has the D' sampling law (what makes eq. (28) / (103) a batch of D');
    ``coupling_ok``: the structural fact behind the sensitivity bound (Lemma A.1: b' and
    b~ u {N-1} differ in one element; Lemma D.1: Phi(b', n, pi) differs from b' in exactly
    n coordinates and the count of N-1 is Binomial(B, 1/N)).
    """

    N: int
    B: int
    equal: bool
    support: int
    max_diff: Fraction
    marginal_ok: bool
    coupling_ok: bool

    @property
    def holds(self) -> bool:
        return self.equal and self.marginal_ok and self.coupling_ok


def _compare(law: Law, target: Law) -> tuple[bool, Fraction]:
    keys = set(law) | set(target)
    diff = max(abs(law.get(k, Fraction(0)) - target.get(k, Fraction(0))) for k in keys)
    return diff == 0, diff


def check_lemma_a1(N: int, B: int) -> DecompositionCheck:
    """Lemma A.1 by exact enumeration: the construction has the FSwoR law of D."""
    law = lemma_a1_law(N, B)
    equal, diff = _compare(law, fswor_law(N, B))
    marg: Law = {}
    coupling = True
    for j, bp, bt, p in _lemma_a1_terms(N, B):
        marg[bp] = marg.get(bp, Fraction(0)) + p
        if j == 1:
            coupling &= len(set(bp) ^ {*bt, N - 1}) == 2
    marginal_ok = _compare(marg, fswor_law(N - 1, B))[0]
    return DecompositionCheck(N, B, equal, len(law), diff, marginal_ok, coupling)


def check_lemma_d1(N: int, B: int) -> DecompositionCheck:
    """Lemma D.1 by exact enumeration: the construction has the FSwR law of D."""
    law = lemma_d1_law(N, B)
    equal, diff = _compare(law, fswr_law(N, B))
    marg: Law = {}
    counts: dict[int, Fraction] = {}
    coupling = True
    for bp, k, pi, p in _lemma_d1_terms(N, B):
        marg[bp] = marg.get(bp, Fraction(0)) + p
        batch = _phi(bp, k, pi, N - 1)
        coupling &= sum(x != y for x, y in zip(bp, batch, strict=True)) == k
        c = batch.count(N - 1)
        counts[c] = counts.get(c, Fraction(0)) + p
    coupling &= all(counts.get(k, Fraction(0)) == binomial_pmf(B, k, Fraction(1, N))
                    for k in range(B + 1))
    marginal_ok = _compare(marg, fswr_law(N - 1, B))[0]
    return DecompositionCheck(N, B, equal, len(law), diff, marginal_ok, coupling)


# --- sensitivity (31)-(32), (37) --------------------------------------------------------------

def _sup_norm_linear(coeffs: dict[int, sp.Expr], C: sp.Expr) -> sp.Expr:
    """sup ||sum_i c_i g_i|| over ||g_i|| <= C: C sum |c_i| (triangle inequality, attained
    by aligning g_i with sign(c_i) along one unit vector)."""
    return sp.simplify(C * sum(abs(c) for c in coeffs.values() if c != 0))


def mean_shift_sensitivity(scheme: Scheme, adjacency: str, N: int, B: int) -> sp.Expr:
    """Worst-case ||Delta mu_t|| of one DP-SGD step, derived by enumeration (symbols C, eta).

    mu_t(b) = theta - eta/|B| sum_{i in b} Clip(g_i) (eq. (5)); the clipped gradients are
    free in the ball of radius C.  For each pair of batches that the decomposition
    couples (Lemma A.1 for FSwoR, one differing element for Poisson), the mean difference
    is a linear form in the g_i whose worst norm is C times the l1-norm of its
    coefficients; the maximum over pairs is returned.

    * FSwoR, add/remove (eq. (31)-(32)): b' vs b~ u {N-1} -> 2 C eta / |B| = r_t.
    * FSwoR, replace-one (eq. (60)): the same pair with D_{N-1} replaced -> r_t.
    * Poisson (either adjacency, per mixture component, eq. (93)): one extra element with
      the normalisation by the expected batch size |B| = qN -> C eta / |B| = r_t / 2.
    """
    require(scheme in ("poisson", "fswor"), "scheme", scheme, "poisson or fswor",
            "Birrell et al. 2024, eq. (32)")
    require(adjacency in ("add-remove", "replace-one"), "adjacency", adjacency,
            "add-remove or replace-one", "Birrell et al. 2024, eq. (32)")
    n, b = _sizes(N, B, "Birrell et al. 2024, eq. (32)", allow_equal=False)
    C, eta = sp.symbols("C eta", positive=True)
    worst = sp.Integer(0)
    if scheme == "fswor":
        for j, bp, bt, _ in _lemma_a1_terms(n, b):
            if j == 0:
                continue
            coeffs: dict[int, sp.Expr] = {}
            for i in (*bt, n - 1):
                coeffs[i] = coeffs.get(i, 0) - eta / b
            for i in bp:
                coeffs[i] = coeffs.get(i, 0) + eta / b
            worst = sp.Max(worst, _sup_norm_linear(coeffs, C))
    else:
        # A Poisson batch of D is T (J = 0) or T u {N-1} (J = 1) with T a Poisson batch of
        # D'; Opacus-style normalisation by the expected size B = qN for both.
        for k in range(n):
            for t in combinations(range(n - 1), k):
                coeffs = {i: sp.Integer(0) for i in t}
                coeffs[n - 1] = -eta / b
                worst = sp.Max(worst, _sup_norm_linear(coeffs, C))
    return sp.simplify(worst)


def noise_to_shift_ratio(scheme: Scheme) -> sp.Expr:
    """sigma~_t / (worst mean shift), eq. (37): sigma/2 for FSwoR, sigma for Poisson.

    sigma~_t = C eta sigma / |B| is the standard deviation of the update (eq. (5)); the
    shift is :func:`mean_shift_sensitivity` with |B| kept symbolic (its value C eta k/|B|
    with k = 2 or 1 is read off the enumeration at (N, B) = (4, 2) and rescaled).
    """
    C, eta, sigma, Bs = sp.symbols("C eta sigma B", positive=True)
    shift = mean_shift_sensitivity(scheme, "add-remove", 4, 2)
    k = sp.simplify(shift / (C * eta / 2))
    return sp.simplify((C * eta * sigma / Bs) / (k * C * eta / Bs))


# --- variance of the minibatch mean (Sec. 4.1, App. F) --------------------------------------

def _check_variance_args(N: int, B: int) -> tuple[int, int]:
    return _sizes(N, B, "Birrell et al. 2024, Sec. 4.1", allow_equal=True)


def variance_by_enumeration(scheme: Scheme, N: int, B: int) -> tuple[sp.Expr, tuple[sp.Symbol,
                                                                                      ...]]:
    """Var[Z] of the minibatch mean Z (eq. (20)) as a polynomial in symbols a_1..a_N.

    Z_P = (1/B) sum a_i J_i (J_i iid Bernoulli(B/N)), Z_B = (1/B) sum_{i in B} a_i (uniform
    size-B subset) and Z_R = (1/B) sum_j a_{R_j} (R_j iid uniform), each expectation an
    exact sum over the scheme's law.
    """
    n, b = _check_variance_args(N, B)
    a = sp.symbols(f"a1:{n + 1}", real=True)
    law = poisson_law(n, Fraction(b, n)) if scheme == "poisson" else (
        fswor_law(n, b) if scheme == "fswor" else fswr_law(n, b))
    m1 = sp.Integer(0)
    m2 = sp.Integer(0)
    for batch, p in law.items():
        z = sum((a[i] for i in batch), sp.Integer(0)) / b
        m1 += sp.Rational(p.numerator, p.denominator) * z
        m2 += sp.Rational(p.numerator, p.denominator) * z**2
    return sp.expand(m2 - m1**2), a


def inclusion_probabilities(scheme: Scheme) -> dict[str, sp.Expr]:
    """First- and second-order moments of the selection counts, symbolic in N, B.

    With c_i the number of times index i is selected: returns E[c_i], E[c_i^2] and
    E[c_i c_j] (i != j).  FSwoR uses C(N-1, B-1)/C(N, B) and C(N-2, B-2)/C(N, B),
    simplified by sympy; Poisson uses iid Bernoulli(q), q = B/N; FSwR sums the pair
    probabilities of the B iid uniform draws.
    """
    N, B = sp.symbols("N B", positive=True, integer=True)
    q = B / N
    if scheme == "poisson":
        out = {"E[c_i]": q, "E[c_i^2]": q, "E[c_i c_j]": q**2}
    elif scheme == "fswor":
        p1 = sp.combsimp(sp.binomial(N - 1, B - 1) / sp.binomial(N, B))
        p2 = sp.combsimp(sp.binomial(N - 2, B - 2) / sp.binomial(N, B))
        out = {"E[c_i]": p1, "E[c_i^2]": p1, "E[c_i c_j]": p2}
    elif scheme == "fswr":
        # c_i = sum_j 1{R_j = i}: a pair of indicators from the same draw j has
        # P(R_j = i, R_j = k) = [i = k]/N, from different draws 1/N^2 (independence).
        same, cross = B * (1 / N), B * (B - 1) * (1 / N) ** 2
        out = {"E[c_i]": B * (1 / N), "E[c_i^2]": same + cross, "E[c_i c_j]": cross}
    else:
        raise ValueError(f"scheme={scheme!r} violates one of {SCHEMES} (dpsym.sampling)")
    return {k: sp.factor(sp.simplify(v)) for k, v in out.items()}


def variance_symbolic(scheme: Scheme) -> sp.Expr:
    """Var[Z] for symbolic N, B in terms of abar = mean a_i and a2bar = mean a_i^2.

    Var[Z] = (1/B^2) (E[c_i^2] sum a_i^2 + E[c_i c_j] sum_{i != j} a_i a_j) - abar^2 with
    the moments of :func:`inclusion_probabilities` and sum_{i != j} a_i a_j =
    N^2 abar^2 - N a2bar.
    """
    N, B = sp.symbols("N B", positive=True, integer=True)
    abar, a2bar = sp.symbols("abar a2bar", real=True)
    m = inclusion_probabilities(scheme)
    var = (m["E[c_i^2]"] * N * a2bar + m["E[c_i c_j]"] * (N**2 * abar**2 - N * a2bar)) / B**2 \
        - (m["E[c_i]"] * N * abar / B) ** 2
    return sp.factor(sp.simplify(var))


def _recip(x: object) -> object:
    """1/x keeping the arithmetic type: sympy, float, or exact Fraction for int/Fraction."""
    if isinstance(x, sp.Basic):
        return sp.Integer(1) / x
    if isinstance(x, float):
        return 1.0 / x
    return Fraction(1) / Fraction(x)


def variance_closed_form(scheme: Scheme, abar_sq: object, a2bar: object, N: object,
                         B: object) -> object:
    """The printed variances, eq. (21) / (143)-(144) and (147), at given values.

    Var[Z_P] = (1/B - 1/N) a2bar;  Var[Z_B] = N/(N-1) (Var[Z_P] - (1/B - 1/N) abar^2);
    Var[Z_R] = (1 - 1/N)/(1 - q) Var[Z_B] with q = B/N.  ``abar_sq`` is abar^2 (for vector
    gradients ||abar||^2, with a2bar = mean ||a_i||^2: the identities hold coordinate-wise,
    hence for the trace of the covariance).  Exact for int/Fraction input, sympy for
    symbols, float otherwise.  Needs N > 1, and B < N for FSwR (the printed form divides
    by 1 - q).
    """
    require(scheme in SCHEMES, "scheme", scheme, f"one of {SCHEMES}", "dpsym.sampling")
    c = _recip(B) - _recip(N)
    vp = c * a2bar
    if scheme == "poisson":
        return vp
    vb = N * _recip(N - 1) * (vp - c * abar_sq)
    if scheme == "fswor":
        return vb
    return (1 - _recip(N)) * _recip(1 - B * _recip(N)) * vb


def variance_ratio(abar_sq: float, a2bar: float, N: int) -> float:
    """Eq. (22): Var[Z_B] / Var[Z_P] = (1 - abar^2/a2bar) / (1 - 1/N) (float, B < N).

    For vector gradients take abar^2 = ||mean a_i||^2 and a2bar = mean ||a_i||^2 (the
    identity holds coordinate-wise, hence for the trace of the covariance).
    """
    require(a2bar > 0, "a2bar", a2bar, "a2bar > 0", "Birrell et al. 2024, eq. (22)")
    require(N > 1, "N", N, "N > 1", "Birrell et al. 2024, eq. (22)")
    return (1 - abar_sq / a2bar) / (1 - 1 / N)


@dataclass(frozen=True)
class MonteCarloVariance:
    """Seeded Monte Carlo estimate of tr Cov[Z] per scheme vs the closed forms (21)."""

    N: int
    B: int
    samples: int
    measured: dict[str, float]
    closed_form: dict[str, float]
    stderr: dict[str, float]
    ratio_measured: float
    ratio_closed_form: float


def monte_carlo_variance(a: np.ndarray, B: int, samples: int = 4000,
                         seed: int = 0) -> MonteCarloVariance:
    """Sample ``samples`` minibatch means of the rows of ``a`` under each scheme.

    Returns the measured E||Z - abar||^2 (with standard errors of that mean), the closed
    forms of eq. (21) with abar^2 = ||abar||^2 and a2bar = mean ||a_i||^2, and the measured
    and predicted ratio (22) of FSwoR to Poisson.
    """
    a = np.asarray(a, dtype=float)
    require(a.ndim == 2, "a", a.shape, "a 2-D array (examples x dimensions)", "eq. (20)")
    N = a.shape[0]
    _sizes(N, B, "Birrell et al. 2024, Sec. 4.1", allow_equal=False)
    require(samples >= 2, "samples", samples, "samples >= 2", "Monte Carlo")
    rng = np.random.default_rng(seed)
    mean = a.mean(axis=0)
    abar_sq = float(mean @ mean)
    a2bar = float(np.mean(np.sum(a * a, axis=1)))
    measured, stderr, closed = {}, {}, {}
    for scheme in SCHEMES:
        dev = np.empty(samples)
        for start in range(0, samples, 250):
            counts = selection_counts(scheme, N, B, min(250, samples - start), rng)
            z = counts @ a / B - mean  # eq. (20): divide by B for every scheme
            dev[start:start + len(counts)] = np.einsum("ij,ij->i", z, z)
        measured[scheme] = float(dev.mean())
        stderr[scheme] = float(dev.std(ddof=1) / np.sqrt(samples))
        closed[scheme] = float(variance_closed_form(scheme, abar_sq, a2bar, float(N), float(B)))
    return MonteCarloVariance(N, B, samples, measured, closed, stderr,
                              measured["fswor"] / measured["poisson"],
                              variance_ratio(abar_sq, a2bar, N))
