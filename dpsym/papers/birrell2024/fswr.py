"""Birrell, Ebrahimi, Behnia & Pacheco 2024: FSwR, fixed-size minibatches WITH replacement.

Sec. 3.3 and App. D.  Each numbered statement is a function of the paper's symbols:
``alpha`` the Renyi order, ``sigma`` the noise multiplier, ``B`` = |B| the batch size,
``D`` = |D| (Thm 3.6) or ``N`` (Thm 3.7) the dataset size, ``q`` = |B|/|D|, ``T`` the
number of steps, ``m`` the Taylor order, ``K`` the number of expanded mixture
components.  The mathematics lives in :mod:`dpsym.rdp.fixed_size_replacement`.

>>> from dpsym.papers.birrell2024.fswr import thm_3_6, thm_3_7
>>> from dpsym.numerics import nstr
>>> nstr(thm_3_6(alpha=2, sigma=6, B=120, D=50000, dps=20), 6)
'295.593'
>>> nstr(thm_3_7(alpha=2, sigma=6, B=120, N=50000, dps=20), 6)
'6.77099e-7'
"""

from __future__ import annotations

import functools
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
from mpmath import mpf

from dpsym.errors import require, require_integer
from dpsym.numerics import DEFAULT_DPS, GUARD_DPS, Number, precision, round_up, to_mpf
from dpsym.papers.birrell2024.add_remove import BATCH, D_SIZE, SIGMA, T_TRAINING, thm_3_3
from dpsym.papers.registry import cite
from dpsym.rdp.conversions import epsilon_from_rdp, optimize_order, rdp_to_epsilon
from dpsym.rdp.fixed_size_replacement import (
    a_tilde,
    binomial_weights,
    crude_lower_bound_rdp,
    log_F,
    log_F_bruteforce,
    lower_bound_curve,
    lower_bound_rdp,
    q_tilde,
    symbolic_q_tilde_series,
    upper_bound_blowup_order,
    upper_bound_floor,
    upper_bound_rdp,
    worst_case_mixture_rdp,
)

PAPER = "birrell2024"

__all__ = [
    "ALPHAS_FIG9",
    "ALPHAS_FIG9_DRAWN",
    "BATCHES_FIG1",
    "BATCHES_FIG8",
    "Q_FIG1",
    "SIGMAS_FIG8",
    "AppD3Gap",
    "Eq110Check",
    "app_d_3_gap",
    "epsilon_consequence",
    "eq_110_check",
    "eq_116",
    "eq_117",
    "eq_120",
    "eq_120_below_thm_3_7",
    "eq_120_zero",
    "eq_126_as_printed",
    "figure_1_exact_vs_truncated",
    "figure_1_values",
    "figure_8_values",
    "figure_9_curves",
    "thm_3_6",
    "thm_3_6_above_thm_3_7",
    "thm_3_6_blowup_order",
    "thm_3_6_floor",
    "thm_3_6_leading_order",
    "thm_3_6_q_tilde",
    "thm_3_6_q_tilde_check",
    "thm_3_6_q_tilde_series",
    "thm_3_6_weights",
    "thm_3_7",
    "thm_3_7_attains_max_of_104",
    "thm_3_7_quadrature_check",
    "thm_3_7_recursion_check",
    "thm_3_7_truncation_check",
]

#: Figure 1: sigma = 6, q = 0.001, |D| = |B|/q, integer alpha = 2..10.
Q_FIG1 = "0.001"
BATCHES_FIG1 = (20, 30, 40, 60, 80)
#: Figure 8: alpha = 2, q = 0.001, |B| = 2..200.
SIGMAS_FIG8 = (2, 3, 4, 5, 6)
#: The batch sizes at which :func:`figure_8_values` evaluates: 2..200 in steps of 4, and 200.
BATCHES_FIG8 = (*range(2, 200, 4), 200)
#: Figure 9 (``fs_rdp_bounds_figs.py``): {2..10} u linspace(1.001, 10, 500), sorted.
ALPHAS_FIG9 = tuple(sorted({float(a) for a in range(2, 11)}
                           | {float(x) for x in np.linspace(1.001, 10, 500)}))
#: The orders at which :func:`figure_9_curves` draws by default: 100 points of the paper's
#: range, denser around the blow-up at alpha_c ~ 1.871.
ALPHAS_FIG9_DRAWN = tuple(sorted({float(a) for a in range(2, 11)}
                                 | {float(x) for x in np.linspace(1.001, 10, 70)}
                                 | {float(x) for x in np.linspace(1.8, 2.0, 21)}))


def _dataset_size(B: int, q: Number) -> int:
    with precision(30):
        d = to_mpf(B, "B") / to_mpf(q, "q")
        n = int(mpmath.nint(d))
    return n


def _times(T: Number, value: mpf, dps: int) -> mpf:
    with precision(dps + GUARD_DPS):
        t = to_mpf(T, "T", cite(PAPER, "eq. (16)"))
        require(t >= 0, "T", T, "T >= 0 (a number of steps)", cite(PAPER, "eq. (16)"))
        out = t * value
    return round_up(out, dps)


def thm_3_6(alpha: Number, sigma: Number, B: int, D: int, T: Number = 1, m: int = 4,
            K: int | None = None, h: str = "min", dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 3.6 (and App. D.1, eq. (112) for K < |B|): FSwR RDP upper bound, add/remove.

    eps_[0,T](alpha) <= T/(alpha-1) log[ sum_{n=1}^{|B|} a~_n H_{alpha, sigma/n}(q~) ] with
    q~ = 1 - (1 - 1/|D|)^{|B|}, a~_n = C(|B|,n) |D|^{-n} (1-1/|D|)^{|B|-n} / q~, for
    |D| > |B|.  H is bounded as ``h`` says ("min" of the Taylor bound at order ``m`` and
    the convexity bound; "taylor"; "convexity"; "exact").  ``K=3, m=4`` is what the
    authors' code computes.  Rounded up.
    """
    return _times(T, upper_bound_rdp(alpha, sigma, B, D, K=K, m=m, h=h, dps=dps + 5), dps)


def thm_3_6_weights(B: int, D: int, dps: int = DEFAULT_DPS) -> tuple[mpf, list[mpf]]:
    """(q~, [a~_1..a~_|B|]) of Thm 3.6."""
    return q_tilde(B, D, dps=dps), a_tilde(B, D, dps=dps)


def thm_3_6_floor(alpha: Number, sigma: Number, B: int, D: int, K: int | None = None,
                  dps: int = DEFAULT_DPS) -> mpf:
    """The smallest value eq. (112) takes with ANY bound on H, the exact H included."""
    return upper_bound_floor(alpha, sigma, B, D, K=K, dps=dps)


def thm_3_6_blowup_order(sigma: Number = SIGMA, B: int = BATCH, D: int = D_SIZE,
                         dps: int = 30) -> mpf:
    """Order above which the n = |B| component alone makes Thm 3.6's bracket exceed ~2."""
    return upper_bound_blowup_order(sigma, B, D, dps=dps)


def thm_3_7(alpha: int, sigma: Number, B: int, N: int, index_sets: object = None,
            dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 3.7: FSwR one-step RDP lower bound at integer alpha >= 2 (eq. (17)).

    (1/(alpha-1)) log sum_{n_1..n_alpha} a_{n_1}...a_{n_alpha} exp(4/sigma^2 sum_{i<j} n_i n_j),
    a_n = C(|B|,n) N^{-n} (1-1/N)^{|B|-n}, under the theorem's hypothesis that anti-parallel
    saturated clipped gradients exist.  ``index_sets``: None (exact), "figure9", "figure1"
    or k -> T_k (eq. (126), a smaller valid lower bound).  Rounded down.
    """
    return lower_bound_rdp(alpha, sigma, B, N, index_sets=index_sets, dps=dps)


def eq_116(alpha: Number, sigma: Number, B: int, N: int, dps: int = 30) -> mpf:
    """Eq. (116) at real alpha > 1: D_alpha(sum_n a_n N(n, sigma^2/4) || N(0, sigma^2/4))."""
    return worst_case_mixture_rdp(alpha, sigma, B, N, dps=dps)


def eq_117(alpha: int, sigma: Number, B: int, N: int, dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (117)-(118) summed term by term (all (|B|+1)^alpha index tuples), / (alpha-1)."""
    v = log_F_bruteforce(alpha, sigma, B, N, dps=dps + 5)
    with precision(dps + 5):
        out = v / (alpha - 1)
    with precision(dps):
        return +out


def eq_120(alpha: Number, sigma: Number, B: int, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Eq. (120): alpha |B|/(alpha-1) (2 |B| (alpha-1)/sigma^2 - log|B| - log(1/q))."""
    return crude_lower_bound_rdp(alpha, sigma, B, q, dps=dps)


def eq_120_zero(sigma: Number, B: int, q: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The order alpha_L > 1 where (120) turns positive: 1 + sigma^2 (log|B| + log(1/q))/(2|B|).

    Above alpha_L the FSwR RDP is at least (120), which then grows like 2 alpha |B|^2/sigma^2.
    """
    ref = cite(PAPER, "eq. (120)")
    with precision(dps + GUARD_DPS):
        s = to_mpf(sigma, "sigma", ref)
        qv = to_mpf(q, "q", ref)
        out = 1 + s * s * (mpmath.log(B) + mpmath.log(1 / qv)) / (2 * B)
    with precision(dps):
        return +out


def thm_3_6_q_tilde(B: int, D: int, dps: int = DEFAULT_DPS) -> mpf:
    """q~ = 1 - (1 - 1/|D|)^{|B|} as Thm 3.6 prints it (without cancellation)."""
    ref = cite(PAPER, "Thm 3.6")
    b = require_integer("B", B, ref, minimum=1)
    d = require_integer("D", D, ref, minimum=2)
    with precision(dps + GUARD_DPS):
        out = -mpmath.expm1(b * mpmath.log1p(-mpf(1) / d))
    with precision(dps):
        return +out


def thm_3_6_q_tilde_check(cases: Sequence[tuple[int, int]] = ((120, 50000), (3, 7), (80, 80000),
                                                              (1, 2)), dps: int = 30) -> mpf:
    """max over (|B|, |D|) of |q~(113, K = |B|)/q~(Thm 3.6) - 1| and |sum a~_n - 1|."""
    worst = mpf(0)
    for b, n in cases:
        qt, at = thm_3_6_weights(b, n, dps=dps + 10)
        closed = thm_3_6_q_tilde(b, n, dps=dps + 10)
        with precision(dps + 10):
            worst = max(worst, abs(qt / closed - 1), abs(mpmath.fsum(at) - 1))
    return worst


def thm_3_6_q_tilde_series() -> dict[str, object]:
    """Series in q (|D| = |B|/q) of q~ and of a~_n/q^(n-1) at q -> 0, |B| symbolic:
    q~ = q - (|B|-1) q^2/(2|B|) + O(q^3) and a~_n ~ C(|B|, n) |B|^-n q^(n-1)."""
    import sympy as sp

    ser = symbolic_q_tilde_series()
    q = sp.Symbol("q", positive=True)
    out: dict[str, object] = {"q_tilde": ser["q_tilde"]}
    for n in (1, 2, 3):
        out[f"a_tilde_{n}_lead"] = sp.factor(sp.limit(ser[f"a_tilde_{n}"] / q ** (n - 1), q, 0))
    return out


def thm_3_6_leading_order(sigma: Number = 6, B: int = 10, ns: Sequence[int] = (10**4, 10**6, 10**8),
                          dps: int = 30) -> list[tuple[int, mpf]]:
    """Thm 3.6 / Thm 3.3 (m = 4) at alpha = 2 (both expansions exact there) for |D| in
    ``ns``: the ratio tends to 1 like O(q) (Sec. 3.3: same leading order)."""
    rows = []
    for n in ns:
        up = thm_3_6(2, sigma, B, n, dps=dps)
        wo = thm_3_3(2, sigma, Fraction(B, n), m=4, dps=dps)
        with precision(dps):
            rows.append((n, up / wo))
    return rows


#: (alpha, sigma, |B|, N) of the Thm 3.7 checks: small enough for the full alpha-fold sum.
THM_3_7_SMALL = ((2, "0.7", 4, 6), (2, 2, 6, 9), (3, "1.5", 5, 12), (3, 1, 4, 5), (4, 1, 4, 9),
                 (4, "2.5", 3, 4))


def thm_3_7_recursion_check(cases: Sequence[tuple] = THM_3_7_SMALL, dps: int = 40) -> mpf:
    """max relative gap of log F_alpha(4/sigma^2, 0) between the recursion (122)-(123)
    (memoised) and the alpha-fold sum (117)."""
    worst = mpf(0)
    for a, s, b, n in cases:
        r, bf = log_F(a, s, b, n, dps=dps), log_F_bruteforce(a, s, b, n, dps=dps)
        with precision(dps):
            worst = max(worst, abs(r - bf) / abs(bf))
    return worst


def thm_3_7_quadrature_check(cases: Sequence[tuple] = ((3, "1.5", 5, 12),), dps: int = 30) -> mpf:
    """max relative gap between the Renyi integral (116) by quadrature and the closed sum
    (117) (Thm 3.7)."""
    worst = mpf(0)
    for a, s, b, n in cases:
        quad, rec = eq_116(a, s, b, n, dps=dps), thm_3_7(a, s, b, n, dps=dps)
        with precision(dps + 10):
            worst = max(worst, abs(quad - rec) / rec)
    return worst


def thm_3_7_truncation_check(cases: Sequence[tuple] = ((4, 6, 40, 40000), (5, 3, 20, 20000),
                                                       (3, 6, 120, 50000)),
                             dps: int = 30) -> list[tuple]:
    """Rows (convention, alpha, sigma, |B|, truncated, exact): truncating the index sets
    T_k (124)-(125) lowers F_{T,k} (every term is positive)."""
    rows = []
    for conv in ("figure1", "figure9"):
        for a, s, b, n in cases:
            rows.append((conv, a, s, b, lower_bound_rdp(a, s, b, n, index_sets=conv, dps=dps),
                         lower_bound_rdp(a, s, b, n, dps=dps)))
    return rows


@functools.cache
def thm_3_7_attains_max_of_104(cases: Sequence[tuple] = ((2, 2, 3, 5), (3, 1, 3, 4),
                                                         (2, "1.5", 4, 6)),
                               draws: int = 20, seed: int = 2024, dps: int = 30) -> mpf:
    """Monte Carlo: max over random planar shift configurations |mu_n| <= n r of
    log(E[(sum a_n L_{mu_n})^alpha]) - log F_alpha (Thm 3.7's collinear value).

    At integer alpha, E[(sum a_n L_{mu_n})^alpha] = sum prod a exp(sum_{i<j} mu_i.mu_j /
    s~^2) increases in every inner product, which Cauchy-Schwarz caps at n_i n_j r^2:
    the collinear saturated configuration maximises the right side of (104), so a result
    <= 0 is expected (seeded, ``draws`` configurations per case).
    """
    rng = np.random.default_rng(seed)
    worst = mpf(-1)
    with precision(dps + 10):
        for a, s, b, n in cases:
            sv = mpf(s)
            lw = [mpmath.log(x) for x in binomial_weights(b, n, dps=dps + 10)]
            top = log_F(a, s, b, n, dps=dps + 10)
            for _ in range(draws):
                ang = rng.uniform(0, 2 * np.pi, b + 1)
                rad = rng.uniform(0, 1, b + 1) * np.arange(b + 1)
                mu = [(mpf(float(rad[k] * np.cos(ang[k]))), mpf(float(rad[k] * np.sin(ang[k]))))
                      for k in range(b + 1)]
                terms = []
                for ns in itertools.product(range(b + 1), repeat=a):
                    inner = mpmath.fsum(mu[ns[i]][0] * mu[ns[j]][0] + mu[ns[i]][1] * mu[ns[j]][1]
                                        for i in range(a) for j in range(i + 1, a))
                    terms.append(mpmath.fsum(lw[k] for k in ns) + 4 / sv**2 * inner)
                val = mpmath.log(mpmath.fsum(mpmath.exp(t) for t in terms))
                worst = max(worst, val - top)
    return worst


def eq_120_below_thm_3_7(alphas: Sequence[int] = range(2, 7), sigma: Number = SIGMA,
                         B: int = BATCH, D: int = D_SIZE, dps: int = 30) -> list[tuple]:
    """Rows (alpha, (120), Thm 3.7 with the Figure 9 index sets): the crude bound keeps one
    term of the sum, so it lies below."""
    return [(a, eq_120(a, sigma, B, Fraction(B, D), dps=dps),
             thm_3_7(a, sigma, B, D, index_sets="figure9", dps=dps)) for a in alphas]


@functools.cache
def thm_3_6_above_thm_3_7(orders: Sequence[int] = (2, 3, 5),
                          settings: Sequence[tuple] = ((2, 10, 10000), (6, 20, 20000),
                                                       (6, 120, 50000)),
                          dps: int = 30) -> list[tuple]:
    """Rows (sigma, |B|, |D|, alpha, min of the three upper bounds, lower): Thm 3.6 with
    min(Taylor, convexity), with K = 3, and with the exact H, against Thm 3.7 (exact, or
    the Figure 9 index sets at |B| = 120)."""
    rows = []
    for s, b, d in settings:
        sets = "figure9" if b > 60 else None
        lows = lower_bound_curve(orders, s, b, d, index_sets=sets, dps=dps)
        for a, lo in zip(orders, lows, strict=True):
            ups = [thm_3_6(a, s, b, d, dps=dps), thm_3_6(a, s, b, d, K=min(3, b), dps=dps),
                   thm_3_6(a, s, b, d, h="exact", dps=dps)]
            rows.append((s, b, d, a, min(ups), lo))
    return rows


def figure_1_exact_vs_truncated(batches: Sequence[int] = (20, 40), dps: int = 20
                                ) -> dict[int, tuple[list[mpf], list[mpf]]]:
    """|B| -> (exact Thm 3.7, Figure 1's truncation) at alpha = 2..10, sigma = 6, q = 0.001."""
    ex = figure_1_values("exact", batches=batches, dps=dps)
    tr = figure_1_values("figure1", batches=batches, dps=dps)
    return {b: (ex[b], tr[b]) for b in batches}


@dataclass(frozen=True)
class AppD3Gap:
    """App. D.3's gap at sigma = 6, |B| = 120, |D| = 50,000 (Figure 9).

    ``alpha_c``: where the n = |B| term alone lifts the bracket of (112) past ~2, for any H;
    ``floor_19``: the least value (112) can take at alpha = 1.9 with any H;
    ``upper_2``/``upper_exact_2``: Thm 3.6 at alpha = 2 with the Taylor bound (exact there)
    and with the exact H; ``lower_2``: Thm 3.7 at alpha = 2 (= the maximum of (104));
    ``alpha_lower``: where (120) turns positive (alpha_L of :func:`eq_120_zero`).
    """

    alpha_c: mpf
    floor_19: mpf
    upper_2: mpf
    upper_exact_2: mpf
    lower_2: mpf
    alpha_lower: mpf


@functools.cache
def app_d_3_gap(sigma: Number = SIGMA, B: int = BATCH, D: int = D_SIZE,
                dps: int = 30) -> AppD3Gap:
    """The numbers behind App. D.3's remark on the gap of Figure 9."""
    return AppD3Gap(thm_3_6_blowup_order(sigma, B, D, dps=dps),
                    thm_3_6_floor("1.9", sigma, B, D, dps=dps), thm_3_6(2, sigma, B, D, dps=dps),
                    thm_3_6(2, sigma, B, D, h="exact", dps=dps), thm_3_7(2, sigma, B, D, dps=dps),
                    eq_120_zero(sigma, B, Fraction(B, D), dps=dps))


@functools.cache
def epsilon_consequence(delta: Number = "1e-5", T: Number = T_TRAINING, sigma: Number = SIGMA,
                        B: int = BATCH, D: int = D_SIZE, dps: int = 20) -> dict[str, tuple]:
    """(eps, order) at ``delta`` after T steps (Balle et al. 2020's conversion), FSwR vs FSwoR.

    * ``thm_3_6``: Thm 3.6 (K = |B|, min(Taylor m = 4, convexity)), eps minimised over real
      alpha in (1, alpha_c] (:func:`dpsym.rdp.conversions.optimize_order`): the best
      Thm 3.6 gives;
    * ``thm_3_6_floor``: a floor no order beats: below alpha_c the conversion term alone,
      which decreases on (1, 3], is at least its value at alpha_c; above alpha_c the floor
      of (112) times T exceeds it;
    * ``integer_exact``: the exact Thm 3.7 value at alpha = 2, 3 (which at integer alpha is
      also the maximum of the right side of (104));
    * ``any_rdp_floor``: min over alpha in (1, 3] (step 0.01) of the conversion with RDP
      T max(0, (120)): no RDP curve respecting (120) gives less;
    * ``fswor``: FSwoR add/remove, Thm 3.3 (m = 4) on the integer orders 2..64.
    """
    out: dict[str, tuple] = {}
    with precision(dps + GUARD_DPS):
        tv = to_mpf(T, "T")
        d = to_mpf(delta, "delta")
        q = mpf(B) / D
    ac = upper_bound_blowup_order(sigma, B, D, dps=dps)

    def rdp(a: mpf, p: int) -> mpf:
        with precision(p + GUARD_DPS):
            return tv * upper_bound_rdp(a, sigma, B, D, dps=p)

    out["thm_3_6"] = optimize_order(rdp, delta, alpha_min="1.01", alpha_max=ac, search_dps=15,
                                    dps=dps)
    with precision(dps + GUARD_DPS):
        out["thm_3_6_floor"] = (epsilon_from_rdp(ac, 0, d, dps=dps), ac)
        low = lower_bound_curve([2, 3], sigma, B, D, dps=dps)
        out["integer_exact"] = rdp_to_epsilon([2, 3], [tv * v for v in low], d, dps=dps)
        best = None
        for i in range(1, 201):
            a = 1 + mpf(i) / 100
            crude = max(crude_lower_bound_rdp(a, sigma, B, q, dps=dps), mpf(0))
            e = epsilon_from_rdp(a, tv * crude, d, dps=dps)
            if best is None or e < best[0]:
                best = (e, a)
        out["any_rdp_floor"] = best
        orders = list(range(2, 65))
        wo = [tv * thm_3_3(a, sigma, q, m=4, dps=dps) for a in orders]
        out["fswor"] = rdp_to_epsilon(orders, wo, d, dps=dps)
    return out


def eq_126_as_printed(alpha: int, sigma: Number, B: int, N: int, index_sets: object = None,
                      dps: int = 30) -> mpf:
    """log10 of (126) as printed, F_{T,alpha}(4 sigma^2, 0)/(alpha - 1) (no log, c = 4
    sigma^2), for comparison with Thm 3.7's log F_{T,alpha}(4/sigma^2, 0)/(alpha - 1).

    F_{T,alpha}(c, 0) is the recursion (122)-(125) with c in place of 4/sigma^2, i.e.
    :func:`dpsym.rdp.fixed_size_replacement.log_F` at the noise 1/sigma.
    """
    ref = cite(PAPER, "eq. (126)")
    a = require_integer("alpha", alpha, ref, minimum=2)
    b = require_integer("B", B, ref, minimum=1)
    require_integer("N", N, ref, minimum=b + 1)
    require(index_sets is None or isinstance(index_sets, str), "index_sets", index_sets,
            "None or the name of an index-set family", ref)
    with precision(dps + GUARD_DPS):
        s = to_mpf(sigma, "sigma", ref)
        require(s > 0, "sigma", sigma, "sigma > 0", ref)
        s_inv = 1 / s
    lf = log_F(a, s_inv, B, N, index_sets=index_sets, dps=dps + GUARD_DPS)
    with precision(dps + GUARD_DPS):
        out = lf / mpmath.log(10) - mpmath.log10(a - 1)
    with precision(dps):
        return +out


@dataclass(frozen=True)
class Eq110Check:
    """(110) at (|B|, |D|, K) for D' = D plus one element: ``q_tilde`` the smallest q~ of
    (106) for D, ``needed`` = (1 + a'_0/sum_{n<=K} a'_n)^(-1) for D', ``q`` = |B|/|D|.
    (111) reuses q~ with the a'_n, so it needs q~ >= ``needed`` (a'~_0 >= 0)."""

    B: int
    D: int
    K: int
    q_tilde: mpf
    needed: mpf
    q: mpf


def eq_110_check(B: int = BATCH, D: int = D_SIZE, K: int | None = None,
                 dps: int = 30) -> Eq110Check:
    """The inequality (110) must give: q~ >= (1 + a'_0/sum a'_n)^(-1)."""
    ref = cite(PAPER, "eq. (110)")
    B = require_integer("B", B, ref, minimum=1)
    D = require_integer("D", D, ref, minimum=B)
    k = B if K is None else K
    with precision(dps):
        q = mpf(B) / D
    return Eq110Check(B, D, k, q_tilde(B, D, K=k, dps=dps), q_tilde(B, D + 1, K=k, dps=dps), q)


@functools.cache
def figure_1_values(convention: str = "figure1", batches: Sequence[int] = BATCHES_FIG1,
                    alphas: Sequence[int] = tuple(range(2, 11)), dps: int = 15
                    ) -> dict[int, list[mpf]]:
    """Thm 3.7 at sigma = 6, q = 0.001 (|D| = |B|/q), per batch size, alpha = 2..10.

    ``convention="figure1"`` truncates as the paper's text says (T_2 = all,
    T_k = {0, 1, 2, |B|}); ``"exact"`` is the untruncated bound (larger or equal).
    """
    return {b: lower_bound_curve(alphas, SIGMA, b, _dataset_size(b, Q_FIG1),
                                 index_sets=convention, dps=dps) for b in batches}


@functools.cache
def figure_8_values(batches: Sequence[int] = BATCHES_FIG8,
                    sigmas: Sequence[Number] = SIGMAS_FIG8, dps: int = 15
                    ) -> dict[Number, list[mpf]]:
    """Exact Thm 3.7 at alpha = 2, q = 0.001 (|D| = |B|/q), as a function of |B|."""
    return {s: [lower_bound_rdp(2, s, b, _dataset_size(b, Q_FIG1), dps=dps) for b in batches]
            for s in sigmas}


@functools.cache
def figure_9_curves(alphas: Sequence[float] = ALPHAS_FIG9_DRAWN, dps: int = 15) -> dict[str, list]:
    """Figure 9 data at sigma = 6, |B| = 120, |D| = 50,000 (one step).

    ``upper``: Thm 3.6 (K = |B|, min(Taylor m = 4, convexity)); ``authors``: K = 3 (the
    authors' code); ``fswor``: Thm 3.3 with m = 4; ``lower``: Thm 3.7 at alpha = 2..10 with
    the Figure 9 index sets (T_2 = all, T_k = {|B|}).
    """
    q = Fraction(BATCH, D_SIZE)
    return {
        "alphas": list(alphas),
        "upper": [upper_bound_rdp(a, SIGMA, BATCH, D_SIZE, m=4, dps=dps) for a in alphas],
        "authors": [upper_bound_rdp(a, SIGMA, BATCH, D_SIZE, K=3, m=4, dps=dps) for a in alphas],
        "fswor": [thm_3_3(a, SIGMA, q, m=4, dps=dps) for a in alphas],
        "lower": lower_bound_curve(range(2, 11), SIGMA, BATCH, D_SIZE, index_sets="figure9",
                                   dps=dps),
    }


