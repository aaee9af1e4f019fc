"""RDP of DP-SGD with fixed-size minibatches drawn WITH replacement (FSwR).

Birrell, Ebrahimi, Behnia & Pacheco 2024, Sec. 3.3 and App. D.  A minibatch is |B| iid
uniform indices of a dataset of size |D|; under add/remove adjacency the element ``d`` in
which D and D' differ is drawn N ~ Binomial(|B|, 1/|D|) times (Lemma D.1), so one step is
dominated (eq. (104), quasiconvexity) by the Renyi divergence of the Gaussian mixture

    P = sum_{n=0}^{|B|} a_n N(Delta mu_n, s^2)   against   Q = N(0, s^2),
    a_n = C(|B|, n) |D|^{-n} (1 - 1/|D|)^{|B| - n},   ||Delta mu_n|| <= n r,  s/r = sigma/2.

Upper bound (App. D.1, eq. (112); Thm 3.6 is K = |B|).  For 1 < K <= |B| and
q~ = (1 + a_0 / sum_{n=1}^K a_n)^{-1} (the smallest admissible value of (106), so a~_0 = 0),
a~_n = a_n / q~, convexity of D_alpha's integrand in the mixture weights gives

    eps <= log[ sum_{n=1}^K a~_n H_{alpha, sigma/n}(q~)
                + sum_{n=K+1}^{|B|} a_n exp(2 alpha (alpha - 1) n^2 / sigma^2) ] / (alpha - 1),

with H of eq. (8).  With K = |B|, q~ = 1 - (1 - 1/|D|)^{|B|} and sum_n a~_n = 1.
H_{alpha, sigma/n}(q~) may be bounded by the Taylor bound (Thm 3.2 / App. B), by the
convexity bound 1 - q~ + q~ exp(2 alpha (alpha - 1) n^2 / sigma^2), by their minimum, or
evaluated exactly; see :func:`upper_bound_rdp`.

Lower bound (Thm 3.7, App. D.2).  For anti-parallel saturated clipped gradients
Delta mu_n = n r exactly, and for integer alpha the Gaussian MGF gives

    eps >= log F_alpha(4/sigma^2, 0) / (alpha - 1),
    F_k(c, d) = E[exp(c sum_{i<j} n_i n_j + d sum_i n_i)],  n_i iid Binomial(|B|, 1/|D|),

computed by the recursion (122)-(123): F_2 by the binomial MGF, F_k(c, d) =
sum_n a_n e^{dn} F_{k-1}(c, d + c n).  Since d only ever equals c times an integer s (the
sum of the n's chosen above), F_k(c, c s) is memoised on (k, s): the *exact* bound then
costs O(alpha^2 |B|^2) terms instead of the O(|B|^{alpha-1}) the paper states, so the
index-set truncations (124)-(125) are only needed to reproduce the paper's figures.

All sums here have non-negative terms and are evaluated in log space at ``dps`` + guard
digits; mpf exponents do not overflow, so exp(2 alpha (alpha-1) |B|^2 / sigma^2) is fine.
Upper bounds are rounded up and lower bounds down.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from typing import TYPE_CHECKING

import mpmath
from mpmath import mp, mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import (
    DEFAULT_DPS,
    GUARD_DPS,
    Number,
    logsumexp,
    precision,
    round_down,
    round_up,
    to_mpf,
)
from dpsym.rdp.gaussian_mixture import H_minus_1
from dpsym.rdp.taylor import h_taylor_bound

if TYPE_CHECKING:
    from dpsym.fdp.symbolic import Derivation

__all__ = [
    "H_METHODS",
    "a_tilde",
    "binomial_weights",
    "crude_lower_bound_rdp",
    "figure_index_sets",
    "log_F",
    "log_F_bruteforce",
    "lower_bound_curve",
    "lower_bound_rdp",
    "q_tilde",
    "symbolic_eq_120",
    "symbolic_product_moment",
    "symbolic_q_tilde_series",
    "upper_bound_blowup_order",
    "upper_bound_floor",
    "upper_bound_log_terms",
    "upper_bound_rdp",
    "worst_case_mixture_rdp",
]

REF_UP = "Birrell et al. 2024, Thm 3.6 / eq. (112)"
REF_LOW = "Birrell et al. 2024, Thm 3.7"
REF_CRUDE = "Birrell et al. 2024, eq. (120)"

#: How H_{alpha, sigma/n}(q~) is handled in the upper bound.
H_METHODS = ("min", "taylor", "convexity", "exact")

IndexSets = Callable[[int], Iterable[int]] | str | None


# --- validation ----------------------------------------------------------------------------

def _sizes(B: Number, D: Number, ref: str, strict: bool) -> tuple[int, int]:
    b = require_integer("B", B, ref, minimum=1)
    d = require_integer("D", D, ref, minimum=2)
    if strict:
        require(d > b, "D", D, f"|D| > |B| = {b}", ref)
    return b, d


# Inputs are converted once at this many digits, before the working precision is set, so
# that a decimal string such as alpha="1.85" is not rounded to a double on the way in.
_INPUT_DPS = 1000


def _sigma(sigma: Number, ref: str) -> mpf:
    with mp.workdps(_INPUT_DPS):
        s = to_mpf(sigma, "sigma", ref)
    require(s > 0, "sigma", sigma, "sigma > 0", ref)
    return s


def _alpha(alpha: Number, ref: str) -> mpf:
    with mp.workdps(_INPUT_DPS):
        a = to_mpf(alpha, "alpha", ref)
    require(a > 1, "alpha", alpha, "alpha > 1", ref)
    return a


def _work_dps(dps: int, D: int) -> int:
    # The bounds are log(1 + x) with x ~ q^2: log F loses ~2 log10(|D|) digits to that.
    return dps + GUARD_DPS + 2 * len(str(D))


# --- weights ------------------------------------------------------------------------------

def _log_weights(B: int, D: int) -> list[mpf]:
    """log a_n, n = 0..B, at the current precision."""
    logd, log1m = mpmath.log(D), mpmath.log1p(-mpf(1) / D)
    lg = mpmath.loggamma
    return [lg(B + 1) - lg(n + 1) - lg(B - n + 1) - n * logd + (B - n) * log1m
            for n in range(B + 1)]


def binomial_weights(B: Number, D: Number, dps: int = DEFAULT_DPS) -> list[mpf]:
    """a_n = C(|B|, n) |D|^{-n} (1 - 1/|D|)^{|B| - n}, n = 0..|B| (eq. (105)).

    The probability that the differing element is drawn n times into a minibatch of |B|
    iid uniform indices (Lemma D.1).
    """
    b, d = _sizes(B, D, "Birrell et al. 2024, eq. (105)", strict=False)
    with precision(dps + GUARD_DPS):
        out = [mpmath.exp(x) for x in _log_weights(b, d)]
    with precision(dps):
        return [+x for x in out]


def _log_q_tilde(lw: Sequence[mpf], K: int) -> mpf:
    """log q~ = -log(1 + a_0 / S_K), S_K = sum_{n=1}^K a_n (eq. (113) with equality)."""
    log_sk = logsumexp(lw[1:K + 1])
    return -mpmath.log1p(mpmath.exp(lw[0] - log_sk))


def q_tilde(B: Number, D: Number, K: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """q~ = (1 + a_0 / sum_{n=1}^K a_n)^{-1}; for K = |B| this is 1 - (1 - 1/|D|)^{|B|}.

    Thm 3.6 / eq. (113).  The smallest q~ admissible in (106); it makes a~_0 = 0.
    """
    b, d = _sizes(B, D, REF_UP, strict=True)
    k = b if K is None else require_integer("K", K, REF_UP, minimum=1)
    require(k <= b, "K", K, f"1 <= K <= |B| = {b}", REF_UP)
    with precision(dps + GUARD_DPS):
        out = mpmath.exp(_log_q_tilde(_log_weights(b, d), k))
    with precision(dps):
        return +out


def a_tilde(B: Number, D: Number, K: Number | None = None,
            dps: int = DEFAULT_DPS) -> list[mpf]:
    """[a~_1, ..., a~_K], a~_n = a_n / q~ (Thm 3.6 / eq. (107)); they sum to 1 when K = |B|."""
    b, d = _sizes(B, D, REF_UP, strict=True)
    k = b if K is None else require_integer("K", K, REF_UP, minimum=1)
    require(k <= b, "K", K, f"1 <= K <= |B| = {b}", REF_UP)
    with precision(dps + GUARD_DPS):
        lw = _log_weights(b, d)
        lq = _log_q_tilde(lw, k)
        out = [mpmath.exp(lw[n] - lq) for n in range(1, k + 1)]
    with precision(dps):
        return [+x for x in out]


# --- lower bound: the recursion (122)-(126) ---------------------------------------------

def figure_index_sets(convention: str, B: int) -> Callable[[int], list[int]] | None:
    """Index sets T_k of (124)-(125) used by the paper's figures.

    * ``"exact"``: every T_k = {0..|B|} (no truncation; returns None);
    * ``"figure9"``: T_2 = {0..|B|}, T_k = {|B|} for k > 2 (App. D.2.1, Figure 9);
    * ``"figure1"``: T_2 = {0..|B|}, T_k = {0, 1, 2, |B|} for k > 2 (App. D.2.1, Figure 1).
    """
    full = list(range(B + 1))
    if convention == "exact":
        return None
    if convention == "figure9":
        return lambda k: full if k == 2 else [B]
    if convention == "figure1":
        small = sorted({0, 1, 2, B} & set(full))
        return lambda k: full if k == 2 else small
    raise ValueError(f"convention={convention!r} violates convention in "
                     "('exact', 'figure9', 'figure1') (Birrell et al. 2024, App. D.2.1)")


def _resolve_sets(index_sets: IndexSets, B: int) -> Callable[[int], list[int]]:
    if index_sets is None:
        index_sets = "exact"
    if isinstance(index_sets, str):
        fn = figure_index_sets(index_sets, B)
        if fn is None:
            full = list(range(B + 1))
            return lambda k: full
        return fn
    sets = index_sets

    def checked(k: int) -> list[int]:
        t = sorted(set(int(n) for n in sets(k)))
        require(bool(t) and t[0] >= 0 and t[-1] <= B, "index_sets", f"T_{k}={t}",
                f"a non-empty subset of {{0..{B}}}", REF_LOW + ", eq. (124)")
        return t

    return checked


def _log_F_orders(alphas: Sequence[int], c: mpf, B: int, D: int,
                  sets: Callable[[int], list[int]]) -> dict[int, mpf]:
    """log F_{T,alpha}(c, 0) for each alpha, at the current precision.

    Forward form of the recursion (123): after the outer levels alpha, alpha-1, ..., 3
    have chosen n_1, n_2, ..., the state is the sum s = n_1 + n_2 + ... and the weight
    G(s) = sum prod a_{n_i} exp(c sum_{i<j} n_i n_j); a new choice n multiplies by
    a_n exp(c s n) (the d = c s of (123)).  Level 2 is (122): sum_{n in T_2} a_n
    exp(c s n) (1 - p + p exp(c (s + n)))^{|B|}.  Every term is positive, so the sums are
    formed directly in mpf (whose exponent range is unbounded).  When T_k is the same set
    for all k > 2 (the paper's conventions), one pass serves every alpha.
    """
    p = mpf(1) / D
    a = [mpmath.exp(x) for x in _log_weights(B, D)]
    kmax = max(alphas)
    upper = sorted(set(range(3, kmax + 1)))
    shared = len({tuple(sets(k)) for k in upper}) <= 1
    cache: dict[int, dict[int, mpf]] = {}

    h: list[mpf] = []  # h[t] = (1 - p + p e^{c t})^{|B|}, the binomial MGF, shared by all alpha

    def level2(G: dict[int, mpf]) -> mpf:
        t2 = sets(2)
        top = max(G) + B
        h.extend(mpmath.exp(B * mpmath.log1p(p * mpmath.expm1(c * t)))
                 for t in range(len(h), top + 1))
        total = mpf(0)
        for s, g in G.items():
            pw = powers(mpmath.exp(c * s), t2)
            total += g * mpmath.fsum(a[n] * wn * h[s + n] for n, wn in zip(t2, pw, strict=True))
        return total

    def powers(w: mpf, t: list[int]) -> list[mpf]:
        # w^n for n in t (sorted): one multiplication per step when t is contiguous.
        out, last, wn = [], 0, mpf(1)
        for n in t:
            wn = wn * w if n == last + 1 else w**n
            last = n
            out.append(wn)
        return out

    def advance(G: dict[int, mpf], t: list[int]) -> dict[int, mpf]:
        nxt: dict[int, mpf] = {}
        for s, g in G.items():
            for n, wn in zip(t, powers(mpmath.exp(c * s), t), strict=True):
                nxt[s + n] = nxt.get(s + n, mpf(0)) + g * a[n] * wn
        return nxt

    out = {}
    for alpha in sorted(set(alphas)):
        if shared:
            # G after alpha - 2 levels, built incrementally and shared across orders.
            G = cache.get(alpha - 2)
            if G is None:
                j0 = max((j for j in cache if j < alpha - 2), default=0)
                G = cache.get(j0, {0: mpf(1)})
                for j in range(j0, alpha - 2):
                    G = advance(G, sets(kmax - j) if upper else [])
                    cache[j + 1] = G
        else:
            G = {0: mpf(1)}
            for k in range(alpha, 2, -1):
                G = advance(G, sets(k))
        out[alpha] = mpmath.log(level2(G))
    return out


def _log_F_at(k: int, c: mpf, B: int, D: int, sets: Callable[[int], list[int]]) -> mpf:
    return _log_F_orders([k], c, B, D, sets)[k]


def log_F(alpha: Number, sigma: Number, B: Number, D: Number,
          index_sets: IndexSets = None, dps: int = DEFAULT_DPS) -> mpf:
    """log F_{T,alpha}(4/sigma^2, 0) of (122)-(125) for integer alpha >= 2 (not rounded)."""
    a = require_integer("alpha", alpha, REF_LOW + " (integer alpha)", minimum=2)
    s = _sigma(sigma, REF_LOW)
    b, d = _sizes(B, D, REF_LOW, strict=False)
    sets = _resolve_sets(index_sets, b)
    with precision(dps + GUARD_DPS):
        out = _log_F_at(a, 4 / (s * s), b, d, sets)
    with precision(dps):
        return +out


def log_F_bruteforce(alpha: Number, sigma: Number, B: Number, D: Number,
                     dps: int = DEFAULT_DPS) -> mpf:
    """log of the alpha-fold sum (117) over all (n_1..n_alpha) in {0..|B|}^alpha.

    O((|B|+1)^alpha) terms: a cross-check of the recursion for small |B| and alpha.
    """
    import itertools

    a = require_integer("alpha", alpha, REF_LOW + " (integer alpha)", minimum=2)
    s = _sigma(sigma, REF_LOW)
    b, d = _sizes(B, D, REF_LOW, strict=False)
    require((b + 1) ** a <= 10**6, "B", B, "(|B|+1)^alpha <= 1e6 (brute force)", REF_LOW)
    with precision(dps + GUARD_DPS):
        lw = _log_weights(b, d)
        c = 4 / (s * s)
        terms = []
        for ns in itertools.product(range(b + 1), repeat=a):
            tot = sum(ns)
            pair = (tot * tot - sum(n * n for n in ns)) // 2  # sum_{i<j} n_i n_j
            terms.append(mpmath.fsum(lw[n] for n in ns) + c * pair)
        out = logsumexp(terms)
    with precision(dps):
        return +out


def lower_bound_rdp(alpha: Number, sigma: Number, B: Number, D: Number,
                    index_sets: IndexSets = None, dps: int = DEFAULT_DPS) -> mpf:
    """One-step FSwR RDP lower bound of Thm 3.7: log F_{T,alpha}(4/sigma^2, 0) / (alpha - 1).

    ``alpha`` is an integer >= 2, ``sigma > 0`` the noise multiplier, ``B`` the batch
    size, ``D`` the dataset size N of (17).  ``index_sets`` is ``None``/``"exact"`` (the
    exact value (17)), ``"figure9"``, ``"figure1"`` (see :func:`figure_index_sets`) or a
    function k -> T_k; a truncation only lowers the value (all terms are positive), so
    every choice is a valid lower bound.  Rounded down.

    Read with Thm 3.7's hypothesis (anti-parallel, saturated clipped gradients exist):
    the value is the Renyi divergence of one step on an explicit worst-case pair.

    >>> from dpsym.numerics import nstr
    >>> nstr(lower_bound_rdp(2, 6, 120, 50000, dps=20), 6)
    '6.77099e-7'
    """
    a = require_integer("alpha", alpha, REF_LOW + " (integer alpha)", minimum=2)
    s = _sigma(sigma, REF_LOW)
    b, d = _sizes(B, D, REF_LOW, strict=False)
    sets = _resolve_sets(index_sets, b)
    with precision(_work_dps(dps, d)):
        out = _log_F_at(a, 4 / (s * s), b, d, sets) / (a - 1)
    return round_down(max(out, mpf(0)), dps)


def lower_bound_curve(alphas: Iterable[Number], sigma: Number, B: Number, D: Number,
                      index_sets: IndexSets = None, dps: int = DEFAULT_DPS) -> list[mpf]:
    """:func:`lower_bound_rdp` at several integer orders in one pass of the recursion."""
    al = [require_integer("alpha", x, REF_LOW + " (integer alpha)", minimum=2) for x in alphas]
    s = _sigma(sigma, REF_LOW)
    b, d = _sizes(B, D, REF_LOW, strict=False)
    sets = _resolve_sets(index_sets, b)
    with precision(_work_dps(dps, d)):
        logs = _log_F_orders(al, 4 / (s * s), b, d, sets)
        vals = [max(logs[x] / (x - 1), mpf(0)) for x in al]
    return [round_down(v, dps) for v in vals]


def crude_lower_bound_rdp(alpha: Number, sigma: Number, B: Number, q: Number,
                          dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (120): the n = |B| term alone, alpha |B|/(alpha-1) (2|B|(alpha-1)/sigma^2
    - log|B| - log(1/q)), with q = |B|/|D|.  Valid for every real alpha > 1 (the term
    (a_B L_B)^alpha is below the integrand of (116)).  Rounded down; may be negative.
    """
    a = _alpha(alpha, REF_CRUDE)
    s = _sigma(sigma, REF_CRUDE)
    b = require_integer("B", B, REF_CRUDE, minimum=1)
    with precision(dps + GUARD_DPS):
        qv = to_mpf(q, "q", REF_CRUDE)
        require(0 < qv <= 1, "q", q, "0 < q <= 1", REF_CRUDE)
        out = a * b / (a - 1) * (2 * b * (a - 1) / (s * s) - mpmath.log(b) - mpmath.log(1 / qv))
    return round_down(out, dps)


def worst_case_mixture_rdp(alpha: Number, sigma: Number, B: Number, D: Number,
                           dps: int = 30) -> mpf:
    """D_alpha(sum_n a_n N(n, sigma^2/4) || N(0, sigma^2/4)) for real alpha > 1, eq. (116).

    The one-step divergence on Thm 3.7's worst-case pair, by quadrature, so a lower bound
    on the FSwR RDP at every real order (the paper evaluates it at integer alpha only).
    In z = 2 theta / sigma the likelihood ratio of component n is exp(2 n z/sigma -
    2 n^2/sigma^2); the integrand is split at the modes z = 2 n alpha / sigma of the
    components that can dominate.  Rounded down.
    """
    a = _alpha(alpha, REF_LOW + ", eq. (116)")
    s = _sigma(sigma, REF_LOW)
    b, d = _sizes(B, D, REF_LOW, strict=False)
    with precision(dps + GUARD_DPS + 10):
        lw = _log_weights(b, d)

        def log_mix(z: mpf) -> mpf:
            return logsumexp(lw[n] + 2 * n * z / s - 2 * n * n / (s * s) for n in range(b + 1))

        def log_integrand(z: mpf) -> mpf:
            return a * log_mix(z) - z * z / 2

        # log E[(a_n L_n)^alpha], component n's own contribution, peaked at z = 2 n alpha/s;
        # components far below the largest one cannot shape the integral.
        own = [a * lw[n] + 2 * a * (a - 1) * n * n / (s * s) for n in range(b + 1)]
        keep = max(own) - 3 * mp.dps
        peaks = [mpf(0)] + [2 * n * a / s for n in range(1, b + 1) if own[n] > keep]
        scale = max(log_integrand(z) for z in peaks)

        def f(z: mpf) -> mpf:
            return mpmath.exp(log_integrand(z) - scale)

        pts = sorted(set(peaks))
        val = mpmath.quad(f, [mpmath.ninf, *pts, mpmath.inf])
        log_e = mpmath.log(val) + scale - mpmath.log(2 * mpmath.pi) / 2
        out = log_e / (a - 1)
    return round_down(max(out, mpf(0)), dps)


# --- upper bound: eq. (112) / Thm 3.6 -----------------------------------------------------

def _log_expm1(x: mpf) -> mpf:
    if x > 1:
        return x + mpmath.log1p(-mpmath.exp(-x))
    return mpmath.log(mpmath.expm1(x))


def _log_h_minus_1(alpha: mpf, s_n: mpf, qt: mpf, m: int, method: str, dps: int) -> mpf:
    """log(H_{alpha, s_n}(q~) - 1) or of an upper bound on it, by ``method``."""
    x = 2 * alpha * (alpha - 1) / (s_n * s_n)
    # Jensen: (1 - q + q L)^alpha <= 1 - q + q L^alpha, and E[L^alpha] = e^x.
    convex = mpmath.log(qt) + _log_expm1(x)
    if method == "convexity":
        return convex
    if method == "exact":
        return mpmath.log(H_minus_1(alpha, s_n, qt, dps=dps))
    taylor_m1 = h_taylor_bound(alpha, s_n, qt, m, dps=dps)
    # A valid bound on H - 1 > 0 is positive; guard the log anyway.
    taylor = mpmath.log(taylor_m1) if taylor_m1 > 0 else mpmath.ninf
    if method == "taylor":
        return taylor
    return min(taylor, convex)


def upper_bound_log_terms(alpha: Number, sigma: Number, B: Number, D: Number,
                          K: Number | None = None, m: int = 4, h: str = "min",
                          dps: int = DEFAULT_DPS) -> list[mpf]:
    """The logs of the non-negative terms of (bracket of (112)) - 1, indexed by n = 1..|B|.

    Term n <= K is a~_n (H_{alpha, sigma/n}(q~) - 1) (or ``h``'s bound on it); term n > K is
    a_n (exp(2 alpha (alpha - 1) n^2 / sigma^2) - 1).  They add up to the bracket minus 1
    because a~_0 + sum_{n<=K} a~_n + sum_{n>K} a_n = 1.  Not rounded (for diagnostics).
    """
    a, s, b, d, k = _upper_args(alpha, sigma, B, D, K, m, h)
    with precision(_work_dps(dps, d)):
        out = _upper_terms(a, s, b, d, k, m, h, dps)
    with precision(dps):
        return [+x for x in out]


def _upper_args(alpha: Number, sigma: Number, B: Number, D: Number, K: Number | None,
                m: int, h: str) -> tuple[mpf, mpf, int, int, int]:
    a = _alpha(alpha, REF_UP)
    s = _sigma(sigma, REF_UP)
    b, d = _sizes(B, D, REF_UP, strict=True)
    k = b if K is None else require_integer("K", K, REF_UP, minimum=1)
    require(k <= b, "K", K, f"1 <= K <= |B| = {b}", REF_UP)
    require_integer("m", m, REF_UP + " (Taylor order, App. B)", minimum=2)
    require(h in H_METHODS, "h", h, f"h in {H_METHODS}", REF_UP)
    return a, s, b, d, k


def _upper_terms(a: mpf, s: mpf, b: int, d: int, k: int, m: int, h: str,
                 dps: int) -> list[mpf]:
    lw = _log_weights(b, d)
    lq = _log_q_tilde(lw, k)
    qt = mpmath.exp(lq)
    out = []
    for n in range(1, b + 1):
        if n <= k:
            out.append(lw[n] - lq + _log_h_minus_1(a, s / n, qt, m, h, mp.dps))
        else:
            out.append(lw[n] + _log_expm1(2 * a * (a - 1) * n * n / (s * s)))
    return out


def upper_bound_rdp(alpha: Number, sigma: Number, B: Number, D: Number,
                    K: Number | None = None, m: int = 4, h: str = "min",
                    dps: int = DEFAULT_DPS) -> mpf:
    """One-step FSwR RDP upper bound, eq. (112); Thm 3.6 is ``K=None`` (K = |B|).

    ``alpha > 1`` real, ``sigma > 0``, ``B`` the batch size, ``D > B`` the dataset size,
    ``K`` the number of mixture components expanded (1 <= K <= |B|; the authors' code
    uses K = min(m - 1, |B|)), ``m`` the Taylor order for H (App. B), and ``h`` how
    H_{alpha, sigma/n}(q~) is bounded:

    * ``"taylor"``: the Taylor bound of Thm 3.2 / App. B (the paper's statement);
    * ``"convexity"``: 1 - q~ + q~ exp(2 alpha (alpha - 1) n^2 / sigma^2) (Jensen);
    * ``"min"``: the smaller of the two (both are valid, so their minimum is);
    * ``"exact"``: H itself (by :func:`dpsym.rdp.gaussian_mixture.H`), the best any bound
      on H can do inside (112).

    T steps with constant sigma compose to T times this (eq. (16)).  Rounded up.
    """
    a, s, b, d, k = _upper_args(alpha, sigma, B, D, K, m, h)
    with precision(_work_dps(dps, d)):
        terms = _upper_terms(a, s, b, d, k, m, h, dps + GUARD_DPS)
        lx = logsumexp(terms)
        out = (lx + mpmath.log1p(mpmath.exp(-lx)) if lx > 0
               else mpmath.log1p(mpmath.exp(lx))) / (a - 1)
    return round_up(out, dps)


def upper_bound_floor(alpha: Number, sigma: Number, B: Number, D: Number,
                      K: Number | None = None, dps: int = DEFAULT_DPS) -> mpf:
    """The least value eq. (112) can take, whatever bound (or exact value) is used for H.

    H_{alpha,s}(q~) = E[(1 - q~ + q~ L)^alpha] >= max(1, q~^alpha E[L^alpha]) =
    max(1, q~^alpha exp(2 alpha (alpha-1)/s^2)) (Jensen, and dropping 1 - q~ >= 0), so
    the bracket of (112) is at least sum_{n<=K} a~_n max(1, q~^alpha e^{x_n}) +
    sum_{n>K} a_n e^{x_n}, x_n = 2 alpha (alpha-1) n^2/sigma^2.  Rounded down.  Where this
    floor is large, no Taylor order (nor the exact H) can repair Thm 3.6: the loss is in the
    convexity split (108), which weights the n-fold component by a~_n rather than the
    a_n^alpha it carries in the true mixture.
    """
    a, s, b, d, k = _upper_args(alpha, sigma, B, D, K, 2, "min")
    with precision(_work_dps(dps, d)):
        lw = _log_weights(b, d)
        lq = _log_q_tilde(lw, k)
        terms = []
        for n in range(1, b + 1):
            x = 2 * a * (a - 1) * n * n / (s * s)
            if n <= k:
                # a~_n (max(1, q~^a e^x) - 1)
                lh = a * lq + x
                if lh > 0:
                    terms.append(lw[n] - lq + _log_expm1(lh))
            else:
                terms.append(lw[n] + _log_expm1(x))
        lx = logsumexp(terms)
        out = (lx + mpmath.log1p(mpmath.exp(-lx)) if lx > 0
               else mpmath.log1p(mpmath.exp(lx))) / (a - 1)
    return round_down(out, dps)


def upper_bound_blowup_order(sigma: Number, B: Number, D: Number, level: Number = 1,
                             dps: int = 30) -> mpf:
    """The order alpha_c at which the n = |B| term of (112) with K = |B| reaches ``level``.

    That term is at least a~_B (q~)^alpha exp(2 alpha (alpha-1) |B|^2 / sigma^2)
    = a_B q~^(alpha-1) exp(...), since H_{alpha, s}(q~) >= q~^alpha E[L^alpha] for *any*
    H (exact or bounded), and the other components contribute at least 1 - a~_B.  So for
    alpha > alpha_c(level = 1) the bracket of Thm 3.6 exceeds 2 - a~_B and the one-step
    bound exceeds about log(2)/(alpha - 1) whatever bound on H is used: the
    blow-up is made by the convexity split (108), not by the Taylor expansion.
    Solved in closed form (a quadratic in alpha).
    """
    s = _sigma(sigma, REF_UP)
    b, d = _sizes(B, D, REF_UP, strict=True)
    with precision(dps + GUARD_DPS):
        lv = mpmath.log(to_mpf(level, "level", REF_UP))
        lw = _log_weights(b, d)
        lq = _log_q_tilde(lw, b)
        # log a_B + (alpha - 1) log q~ + 2 alpha (alpha - 1) B^2/s^2 = log level, for u = alpha - 1:
        # c2 u^2 + (c2 + lq) u + (lw_B - lv) = 0 with c2 = 2 B^2 / s^2.
        c2 = 2 * b * b / (s * s)
        bb = c2 + lq
        cc = lw[b] - lv
        disc = bb * bb - 4 * c2 * cc
        u = (-bb + mpmath.sqrt(disc)) / (2 * c2)
        out = 1 + u
    with precision(dps):
        return +out


# --- symbolic derivations (sympy) ----------------------------------------------------------

def _mgf(t: object) -> object:
    import sympy as sp

    from dpsym.rdp.taylor import gaussian_mgf

    return gaussian_mgf().subs(sp.Symbol("t_", real=True), t)


def symbolic_product_moment(k: int = 3) -> Derivation:
    """E_{N(0,sigma^2/4)}[prod_{i<=k} N_{n_i}/N_0] = exp(4/sigma^2 sum_{i<j} n_i n_j), (117)-(118).

    Derived from the Gaussian MGF (sympy): with theta = sigma Z/2 each ratio is
    exp(2 n_i Z/sigma - 2 n_i^2/sigma^2), so the product is exp(t Z - 2 sum n_i^2/sigma^2)
    with t = 2 sum n_i / sigma.
    """
    import sympy as sp

    from dpsym.fdp.symbolic import Derivation

    sigma = sp.Symbol("sigma", positive=True)
    ns = sp.symbols(f"n1:{k + 1}", real=True)
    derived = sp.exp(-2 * sum(n**2 for n in ns) / sigma**2) * _mgf(2 * sum(ns) / sigma)
    target = sp.exp(4 / sigma**2 * sum(ns[i] * ns[j] for i in range(k) for j in range(i + 1, k)))
    residual = sp.simplify(sp.expand(sp.log(derived) - sp.log(target), force=True))
    return Derivation(derived, target, residual,
                      f"k = {k}: MGF of Z at t = 2 sum n_i/sigma; residual of the logs")


def symbolic_eq_120() -> Derivation:
    """Eq. (120) from the n = |B| term of (116): log(a_B^alpha E[L_B^alpha]) / (alpha - 1).

    a_B = |D|^{-|B|} with |D| = |B|/q, and E[L_B^alpha] for L_B = N_{|B|}/N_0 from the
    Gaussian MGF; compared with the printed alpha |B|/(alpha-1) (2|B|(alpha-1)/sigma^2 -
    log|B| - log(1/q)).
    """
    import sympy as sp

    from dpsym.fdp.symbolic import Derivation

    a, s, b, q = sp.symbols("alpha sigma B q", positive=True)
    # L_B^alpha = exp(alpha (2 B Z/sigma - 2 B^2/sigma^2)).
    moment = sp.exp(-2 * a * b**2 / s**2) * _mgf(2 * a * b / s)
    log_ab = -b * sp.log(b / q)
    derived = (a * log_ab + sp.log(moment)) / (a - 1)
    target = a * b / (a - 1) * (2 * b * (a - 1) / s**2 - sp.log(b) - sp.log(1 / q))
    residual = sp.simplify(sp.expand_log(sp.expand(derived - target), force=True))
    return Derivation(derived, target, residual, "n = |B| term of (116), a_B = (q/|B|)^|B|")


def symbolic_q_tilde_series(order: int = 3) -> dict[str, object]:
    """Series in q (|D| = |B|/q, |B| symbolic) of q~ and of a~_1, a~_2, a~_3 (Thm 3.6).

    Returns {"q_tilde": series, "a_tilde_n": series}; q~ = q - (|B|-1) q^2/(2|B|) + O(q^3)
    and a~_n = C(|B|, n) |B|^{-n} q^{n-1} (1 + O(q)), i.e. q~ = O(q), a~_n = O(q^{n-1}).
    """
    import sympy as sp

    b, q = sp.symbols("B q", positive=True)
    qt = 1 - (1 - q / b) ** b
    out: dict[str, object] = {"q_tilde": sp.series(qt, q, 0, order).removeO()}
    for n in (1, 2, 3):
        an = sp.binomial(b, n) * (q / b) ** n * (1 - q / b) ** (b - n)
        out[f"a_tilde_{n}"] = sp.simplify(sp.series(an / qt, q, 0, n + 1).removeO())
    return out
