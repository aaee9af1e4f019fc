"""Bravo, Flores-Mella & Guzman 2025, Section 5 and App. A.3: privacy of noisy SGD's last iterate.

Covered: Def. A.16 / Lemma A.17 (sampled Gaussian mechanism over a ball), Lemma A.18
(Mironov, Talwar & Zhang 2019, Thm 11), Theorem 5.2 (convex, L-Lipschitz, (p, M)-weakly
smooth losses, Poisson batches), Remark 5.3 / Theorem 1.2 (the capped curve
min{T, 2 Tbar + V}), Figure 1, Theorem 5.4 (beta-smooth nonconvex losses, batches
without replacement), the (eps, delta) conversion (22), its validity condition (23) and the
sufficient condition the paper derives for it, and the comparison with (24).  Evidence:
the size of Poisson batches (which may exceed b) and what it does to the modulus of (14); the
last-iterate divergence of a small Poisson instance against Theorem 5.2's bound; Lemma A.18
outside its hypothesis q < 1/5.

Symbols follow the paper: alpha (Renyi order), L (Lipschitz constant / gradient bound), n
(dataset size), b (expected or fixed batch size), eta (step size), sigma (noise: the
update adds N(0, eta^2 sigma^2 I)), D (diameter), p, M (Hoelder exponent and constant),
beta (smoothness), T (iterations), Tbar (the PABI window), delta (DP failure probability).

Two quantities are computed by the shared concept modules, never here:

* the RDP of the Poisson-subsampled Gaussian, :func:`dpsym.rdp.poisson_gaussian_rdp`
  (MTZ19), which is the *dominating* direction R_alpha(mixture || N(0, s^2)); the paper's
  S_alpha (Def. A.16) is the other direction, so every bound built on it here stays an
  upper bound (MTZ19, Thm 5);
* the RDP -> (eps, delta) conversion, :mod:`dpsym.rdp.conversions` (Mironov 2017, Prop. 3),
  which cross-checks (22).

Every privacy bound is computed with guard digits and rounded *up*.
"""

from __future__ import annotations

import functools
from dataclasses import dataclass
from fractions import Fraction

import mpmath
import numpy as np
import sympy as sp
from mpmath import mpf

from dpsym.errors import MAX_INTEGER, require, require_integer
from dpsym.fdp.symbolic import Derivation
from dpsym.langevin import GridKernel
from dpsym.numerics import (
    DEFAULT_DPS,
    GUARD_DPS,
    Number,
    precision,
    round_down,
    round_up,
    to_mpf,
)
from dpsym.papers.bravo2025 import printed
from dpsym.papers.bravo2025.corollaries import cor_3_7, cor_3_8
from dpsym.papers.registry import cite
from dpsym.rdp.conversions import epsilon_from_rdp
from dpsym.rdp.gaussian_mixture import (
    renyi_gaussian_vs_mixture,
    sgm_alpha_star,
    sgm_alpha_star_conditions,
)
from dpsym.rdp.subsampled_gaussian import poisson_gaussian_rdp
from dpsym.shifts.modulus import nonconvex_smooth, weakly_smooth

__all__ = [
    "FIGURE_1_ETA_EXPONENT",
    "PoissonInstance",
    "alpha_star",
    "ceil_fraction",
    "composition_bound",
    "def_a_16",
    "eq_22",
    "eq_22_conversion",
    "eq_22_derived",
    "eq_22_eta_growth",
    "eq_22_symbolic",
    "eq_23_alpha_star_floor",
    "eq_23_corrected_sweep",
    "eq_23_counterexample",
    "eq_23_holds",
    "eq_23_sufficient_corrected",
    "eq_23_sufficient_printed",
    "eq_24_tail_bound",
    "exact",
    "figure_1_curves",
    "figure_1_gaps",
    "figure_1_grid",
    "figure_1_value",
    "lem_a_17",
    "lem_a_18",
    "lem_a_18_conditions",
    "lem_a_18_outside_hypothesis",
    "rem_5_3",
    "rem_5_3_V",
    "thm_5_2",
    "thm_5_2_batch_tail",
    "thm_5_2_exact_sampling",
    "thm_5_2_modulus_counterexample",
    "thm_5_2_poisson_small_n",
    "thm_5_2_symbolic",
    "thm_5_2_tbar",
    "thm_5_4",
    "thm_5_4_A",
    "thm_5_4_alpha_star",
    "thm_5_4_pabi_term",
    "thm_5_4_symbolic",
    "thm_5_4_tbar_check",
    "thm_5_4_tbar_min",
]

PAPER = "bravo2025"
REF_A16 = cite(PAPER, "Def. A.16")
REF_A17 = cite(PAPER, "Lemma A.17")
REF_A18 = cite(PAPER, "Lemma A.18 (= Mironov, Talwar & Zhang 2019, Thm 11)")
REF_52 = cite(PAPER, "Thm 5.2")
REF_53 = cite(PAPER, "Remark 5.3")
REF_54 = cite(PAPER, "Thm 5.4")
REF_22 = cite(PAPER, "eq. (22)-(23)")
REF_24 = cite(PAPER, "eq. (24)")


# --- exact rationals for ceilings ----------------------------------------------------------

def exact(x: Number, name: str, ref: str) -> Fraction:
    """An input as an exact rational (decimal strings exactly, floats as their binary value)."""
    if isinstance(x, bool):
        raise ValueError(f"{name}={x} violates a real number ({ref})")
    try:
        if isinstance(x, mpf):
            return Fraction(mpmath.nstr(x, 60, min_fixed=-10**6, max_fixed=10**6))
        out = Fraction(x)
    except (TypeError, ValueError):
        raise ValueError(f"{name}={x} violates a real number ({ref})") from None
    return out


def ceil_fraction(x: Fraction) -> int:
    """Exact ceiling of a rational (a theorem's ceiling must not see float noise)."""
    return -(-x.numerator // x.denominator)


def _positive(x: Number, name: str, ref: str) -> mpf:
    v = to_mpf(x, name, ref)
    require(v > 0, name, x, f"{name} > 0", ref)
    return v


def _p_check(p: Number, ref: str) -> mpf:
    pv = to_mpf(p, "p", ref)
    require(0 <= pv <= 1, "p", p, "0 <= p <= 1 (Hoelder exponent)", ref)
    return pv


# --- Appendix A.3: the sampled Gaussian mechanism -------------------------------------------

@functools.lru_cache(maxsize=512)
def def_a_16(alpha: Number, q: Number, sigma: Number, dps: int = 30) -> mpf:
    """S_alpha(q, sigma) = R_alpha( N(0, s^2) || (1-q) N(0, s^2) + q N(1, s^2) ) (Def. A.16).

    The paper's own direction (mixture second), evaluated by the foundation's quadrature
    :func:`dpsym.rdp.gaussian_mixture.renyi_gaussian_vs_mixture`. Used to check the
    direction convention (this value is <= :func:`lem_a_17` with r = 1); accounting uses
    the dominating direction. Not rounded (a check, not a bound).
    """
    a = to_mpf(alpha, "alpha", REF_A16)
    require(a > 1, "alpha", alpha, "alpha > 1", REF_A16)
    qv = to_mpf(q, "q", REF_A16)
    require(0 < qv < 1, "q", q, "0 < q < 1", REF_A16)
    _positive(sigma, "sigma", REF_A16)
    return renyi_gaussian_vs_mixture(alpha, q, sigma, dps=dps)


def lem_a_17(alpha: Number, q: Number, sigma: Number, r: Number = 1,
             dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.17 (Altschuler & Talwar 2022, Lemma 2.11): the supremum over mu on B(0, r) of
    R_alpha(N(0, s^2 I) || (1-q) N(0, s^2 I) + q N(0, s^2 I) * mu) is S_alpha(q, sigma / r).

    Returned as the Poisson-subsampled Gaussian RDP at noise multiplier sigma / r
    (:func:`dpsym.rdp.poisson_gaussian_rdp`), the dominating direction, hence an upper
    bound on S_alpha(q, sigma / r) (rounded up; cached, the function is pure).
    """
    with precision(dps + GUARD_DPS):
        s = _positive(sigma, "sigma", REF_A17)
        rv = _positive(r, "r", REF_A17)
        qv = to_mpf(q, "q", REF_A17)
        require(0 < qv < 1, "q", q, "0 < q < 1", REF_A17)
        a = to_mpf(alpha, "alpha", REF_A17)
        require(a > 1, "alpha", alpha, "alpha > 1", REF_A17)
        ratio = s / rv
    return _lem_a_17_cached(qv, ratio, a, dps)


@functools.lru_cache(maxsize=512)
def _lem_a_17_cached(qv: mpf, ratio: mpf, a: mpf, dps: int) -> mpf:
    """The cache of :func:`lem_a_17`, keyed on validated mpfs (never on raw user input)."""
    return poisson_gaussian_rdp(qv, ratio, a, dps=dps)


def lem_a_18_conditions(alpha: Number, q: Number, sigma: Number,
                        dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """The slacks of the two conditions defining alpha*(q, sigma) in Lemma A.18 (MTZ19,
    Thm 11), from :func:`dpsym.rdp.gaussian_mixture.sgm_alpha_star_conditions`.

    With M = log(1 + 1/(q (alpha - 1))):
    g1 = M sigma^2/2 - log(sigma^2) - alpha and
    g2 = (M^2 sigma^2/2 - log(5 sigma^2)) / (M + log(q alpha) + 1/(2 sigma^2)) - alpha;
    alpha satisfies the lemma's conditions iff both are >= 0.
    """
    a = to_mpf(alpha, "alpha", REF_A18)
    require(a > 1, "alpha", alpha, "alpha > 1", REF_A18)
    _positive(sigma, "sigma", REF_A18)
    return sgm_alpha_star_conditions(alpha, q, sigma, dps=dps)


def alpha_star(q: Number, sigma: Number, dps: int = DEFAULT_DPS) -> mpf:
    """alpha*(q, sigma) of Lemma A.18: where the first of its two conditions fails.

    Both slacks of :func:`lem_a_18_conditions` are positive as alpha -> 1+ (M -> inf);
    alpha* is the smallest alpha > 1 at which one of them reaches 0, so every alpha in
    (1, alpha*] satisfies both.  (The paper says "the largest alpha satisfying" them; the
    conditions hold on an initial interval and the smallest crossing is the safe reading
    when they are not monotone.)  Found by root finding on min(g1, g2) and rounded *down*
    (fewer orders are certified, never more).  Hypotheses q in (0, 1/5), sigma >= 4.
    """
    qv = to_mpf(q, "q", REF_A18)
    require(0 < qv < mpf(1) / 5, "q", q, "0 < q < 1/5", REF_A18)
    s = to_mpf(sigma, "sigma", REF_A18)
    require(s >= 4, "sigma", sigma, "sigma >= 4", REF_A18)
    return sgm_alpha_star(q, sigma, dps=dps)


def lem_a_18(alpha: Number, q: Number, sigma: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Lemma A.18 (MTZ19, Thm 11): S_alpha(q, sigma) <= 2 alpha q^2 / sigma^2 for
    1 < alpha <= alpha*(q, sigma), q in (0, 1/5), sigma >= 4.  Returns the bound (rounded up).
    """
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF_A18)
        astar = alpha_star(q, sigma, dps=dps)
        require(1 < a <= astar, "alpha", alpha, f"1 < alpha <= alpha* = {mpmath.nstr(astar, 8)}",
                REF_A18)
        qv, s = to_mpf(q), to_mpf(sigma)
        out = 2 * a * qv * qv / (s * s)
    return round_up(out, dps)


# --- Theorem 5.2, Remark 5.3, Figure 1 ------------------------------------------------------

def thm_5_2_tbar(D: Number, n: Number, eta: Number, L: Number) -> int:
    """Tbar = ceil(D n / (4 eta L)) of Theorem 5.2 (the minimiser of
    16 L^2 R / n^2 + D^2/(eta^2 R) over R, rounded up), computed exactly.
    """
    Dq, nq, eq, Lq = (exact(v, k, REF_52) for v, k in ((D, "D"), (n, "n"), (eta, "eta"),
                                                          (L, "L")))
    for v, k, raw in ((Dq, "D", D), (nq, "n", n), (eq, "eta", eta), (Lq, "L", L)):
        require(v > 0, k, raw, f"{k} > 0", REF_52)
    return ceil_fraction(Dq * nq / (4 * eq * Lq))


def _holder_term(eta: mpf, p: mpf, M: mpf) -> mpf:
    """h / eta^2 with h the weakly smooth modulus (:func:`dpsym.shifts.modulus.weakly_smooth`):
    the coefficient 4 eta^(2p/(1-p)) ((1-p)/(1+p)) (M/2)^(2/(1-p)) of alpha ln(Tbar e)/sigma^2
    in Theorem 5.2 (Cor. 3.7 with sigma_j^2 = eta^2 sigma^2/2 gives alpha h ln(R e)/(eta^2
    sigma^2)).  At p = 1 the limit 0, which needs eta M <= 2 (checked there).
    """
    return weakly_smooth(eta, p, M, dps=mpmath.mp.dps).h / eta ** 2


def _thm_5_2_hyp(alpha: mpf, L: mpf, n: int, b: mpf, sigma: mpf, check_alpha: bool) -> None:
    q = b / n
    require(b <= n, "b", b, f"b <= n = {n}", REF_52)
    require(sigma >= 8 * mpmath.sqrt(2) * L / b, "sigma", sigma,
            f"sigma >= 8 sqrt(2) L / b = {mpmath.nstr(8 * mpmath.sqrt(2) * L / b, 8)}", REF_52)
    # Lemma A.18 needs q < 1/5; Theorem 5.2 as printed allows any b <= n (see
    # lem_a_18_outside_hypothesis for what happens at q >= 1/5)
    require(q < mpf(1) / 5, "b", b, f"b/n < 1/5 (Lemma A.18, used in the proof), b/n = {q}",
            REF_52)
    if check_alpha:
        astar = alpha_star(q, b * sigma / (2 * mpmath.sqrt(2) * L), dps=mpmath.mp.dps)
        require(1 < alpha <= astar, "alpha", alpha,
                f"1 < alpha <= alpha*(b/n, b sigma/(2 sqrt2 L)) = {mpmath.nstr(astar, 8)}",
                REF_52)


def thm_5_2(alpha: Number, L: Number, n: Number, b: Number, eta: Number, sigma: Number,
            D: Number, M: Number, p: Number, T: Number | None = None, *,
            check_alpha: bool = True, dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 5.2: for T >= Tbar = ceil(Dn/(4 eta L)), sigma >= 8 sqrt2 L / b and
    1 < alpha <= alpha*(b/n, b sigma/(2 sqrt2 L)), Poisson noisy SGD on convex, L-Lipschitz,
    (p, M)-weakly smooth losses is (alpha, eps)-RDP with

        eps <= alpha/sigma^2 ( 16 L^2 Tbar / n^2 + D^2/(eta^2 Tbar)
                               + 4 eta^(2p/(1-p)) ((1-p)/(1+p)) (M/2)^(2/(1-p)) ln(Tbar e) ).

    The proof takes the modulus of the stochastic gradient map (14) to be the full-batch one,
    which holds only when |B_t| <= b (:func:`thm_5_2_batch_tail`,
    :func:`thm_5_2_modulus_counterexample`; the bound itself is compared with an exact
    small-n computation in :func:`thm_5_2_poisson_small_n`).  b/n < 1/5 is required here
    (Lemma A.18's hypothesis, used in the proof).  ``check_alpha=False`` skips the alpha*
    root finding (for plotting).  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_5_2(2, L=1, n=1000, b=10, eta="0.01", sigma=2, D=1, M=2, p="0.5"), 10)
    '0.4007417754'
    """
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF_52)
        require(a > 1, "alpha", alpha, "alpha > 1", REF_52)
        Lv, ev, sv, Dv, Mv = (_positive(x, k, REF_52) for x, k in
                              ((L, "L"), (eta, "eta"), (sigma, "sigma"), (D, "D"), (M, "M")))
        nn = require_integer("n", n, REF_52, minimum=1)
        bv = _positive(b, "b", REF_52)
        pv = _p_check(p, REF_52)
        tbar = thm_5_2_tbar(D, n, eta, L)
        if T is not None:
            Ti = require_integer("T", T, REF_52, minimum=1)
            require(Ti >= tbar, "T", T, f"T >= Tbar = {tbar}", REF_52)
        _thm_5_2_hyp(a, Lv, nn, bv, sv, check_alpha)
        # (16): Tbar sampling steps at 16 alpha L^2/(n^2 sigma^2) each (Lemmas A.17, A.18);
        # (17): Cor. 3.7 (ln form) over the last Tbar steps with sigma_j^2 = eta^2 sigma^2/2.
        h = weakly_smooth(ev, pv, Mv, dps=mpmath.mp.dps).h
        pabi = cor_3_7(a, ev ** 2 * sv ** 2 / 2, Dv, tbar, h, form="log", dps=mpmath.mp.dps)
        out = composition_bound(a, Lv, nn, sv, tbar, dps=mpmath.mp.dps) + pabi
    return round_up(out, dps)


def thm_5_2_exact_sampling(alpha: Number, L: Number, n: Number, b: Number, eta: Number,
                           sigma: Number, D: Number, M: Number, p: Number, T: Number,
                           dps: int = DEFAULT_DPS) -> tuple[mpf, int]:
    """Theorem 5.2's proof with the exact sampled-Gaussian RDP instead of Lemma A.18.

    The proof bounds eps by (T - tau) S + Cor. 3.7 over the last R = T - tau steps, for every
    tau; here S is the Poisson-subsampled Gaussian RDP at q = b/n, noise b sigma/(2 sqrt2 L)
    (:func:`lem_a_17`, an upper bound of S_alpha) and Cor. 3.7 keeps H_R.  No hypothesis on
    sigma, alpha or b/n is needed (those serve only Lemma A.18).  Returns (eps, R): the
    smallest value over R on a geometric grid of [1, T] refined locally, always including
    Tbar when Tbar <= T -- every R gives a valid bound, the search only makes it small, and
    including Tbar makes the result <= :func:`thm_5_2` whenever that applies.  Rounded up.
    """
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF_52)
        require(a > 1, "alpha", alpha, "alpha > 1", REF_52)
        Lv, ev, sv, Dv, Mv = (_positive(x, k, REF_52) for x, k in
                              ((L, "L"), (eta, "eta"), (sigma, "sigma"), (D, "D"), (M, "M")))
        nn = require_integer("n", n, REF_52, minimum=1)
        bv = _positive(b, "b", REF_52)
        require(bv < nn, "b", b, f"b < n = {nn}", REF_52)
        Ti = require_integer("T", T, REF_52, minimum=1)
        pv = _p_check(p, REF_52)
        work = mpmath.mp.dps
        step = lem_a_17(a, bv / nn, bv * sv / (2 * mpmath.sqrt(2) * Lv), dps=work)
        h = weakly_smooth(ev, pv, Mv, dps=work).h
        s2j = ev ** 2 * sv ** 2 / 2
        cache: dict[int, mpf] = {}

        def f(R: int) -> mpf:
            if R not in cache:
                cache[R] = R * step + cor_3_7(a, s2j, Dv, R, h, form="sum", dps=work)
            return cache[R]

        grid = {int(x) for x in np.unique(np.geomspace(1, Ti, 60).round())} | {1, Ti}
        tbar = thm_5_2_tbar(D, n, eta, L)
        if tbar <= Ti:
            grid.add(tbar)
        best = min(grid, key=f)
        while best + 1 <= Ti and f(best + 1) < f(best):
            best += 1
        while best - 1 >= 1 and f(best - 1) < f(best):
            best -= 1
        out = f(best)
    return round_up(out, dps), best


def rem_5_3_V(D: Number, M: Number, eta: Number, n: Number, L: Number, p: Number,
              dps: int = DEFAULT_DPS) -> mpf:
    """V(D, M, Tbar, n, p) of Remark 5.3 (depends on eta and L too):

        V = n^2/(4 L^2 eta^2) (eta M/2)^(2/(1-p)) ((1-p)/(1+p)) ln(Tbar e),

    i.e. Theorem 5.2's Hoelder term times n^2/(16 L^2); at p = 1 the limit 0 (eta M <= 2
    required there; V -> inf as p -> 1 when eta M > 2).  Rounded up.
    """
    with precision(dps + GUARD_DPS):
        Mv, ev, Lv = (_positive(x, k, REF_53) for x, k in ((M, "M"), (eta, "eta"), (L, "L")))
        _positive(D, "D", REF_53)
        nn = require_integer("n", n, REF_53, minimum=1)
        pv = _p_check(p, REF_53)
        tbar = thm_5_2_tbar(D, n, eta, L)
        out = nn ** 2 / (16 * Lv ** 2) * _holder_term(ev, pv, Mv) * mpmath.log(tbar * mpmath.e)
    return round_up(out, dps)


def composition_bound(alpha: Number, L: Number, n: Number, sigma: Number, T: Number,
                      dps: int = DEFAULT_DPS) -> mpf:
    """Remark 5.3, first part: composition alone gives eps <= 16 alpha L^2 T / (n^2 sigma^2)."""
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF_53)
        require(a > 1, "alpha", alpha, "alpha > 1", REF_53)
        Lv, sv = _positive(L, "L", REF_53), _positive(sigma, "sigma", REF_53)
        nn = require_integer("n", n, REF_53, minimum=1)
        Ti = require_integer("T", T, REF_53, minimum=1)
        out = 16 * a * Lv ** 2 * Ti / (nn ** 2 * sv ** 2)
    return round_up(out, dps)


def rem_5_3(alpha: Number, L: Number, n: Number, sigma: Number, eta: Number, D: Number,
            M: Number, p: Number, T: Number, dps: int = DEFAULT_DPS) -> mpf:
    """Remark 5.3 = Theorem 1.2: eps <= 16 alpha L^2/(n^2 sigma^2) min{T, 2 Tbar + V}.

    The 2 Tbar uses D^2/(eta^2 Tbar) <= 16 L^2 Tbar / n^2 (Tbar >= Dn/(4 eta L)).  The
    hypotheses of Theorem 5.2 (sigma, alpha, b) are the caller's business here; the
    Theorem 5.2 branch applies only when T >= Tbar, otherwise the composition bound.
    """
    with precision(dps + GUARD_DPS):
        Ti = require_integer("T", T, REF_53, minimum=1)
        tbar = thm_5_2_tbar(D, n, eta, L)
        V = rem_5_3_V(D, M, eta, n, L, p, dps=mpmath.mp.dps)
        cap = 2 * tbar + V if Ti >= tbar else mpmath.inf
        steps = min(mpf(Ti), cap)
        out = composition_bound(alpha, L, n, sigma, 1, dps=mpmath.mp.dps) * steps
    return round_up(out, dps)


#: Figure 1's parameters (its caption, :data:`dpsym.papers.bravo2025.printed.FIGURE_1`) and
#: the step-size range [n^-1, n^-1/3] it draws: Remark 5.3 says that p = 0.8 is omitted as
#: indistinguishable from p = 1 while the curves with p <= 0.6 are drawn apart, which holds
#: on [n^-1, n^-1/3] and not on [n^-1, n^-1/2] (:func:`figure_1_gaps`).
FIGURE_1_ETA_EXPONENT = Fraction(1, 3)


def figure_1_value(p: Number, eta: Number, n: int = 1000, L: Number = 1, M: Number = 2,
                   D: Number = 1, dps: int = DEFAULT_DPS) -> mpf:
    """2 Tbar + V(D, M, Tbar, n, p) at step eta (the quantity of Figure 1), rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(figure_1_value(1, "0.1"), 10)          # p = 1: V = 0, Tbar = 2500
    '5000.0'
    """
    with precision(dps + GUARD_DPS):
        tbar = thm_5_2_tbar(D, n, eta, L)
        out = 2 * tbar + rem_5_3_V(D, M, eta, n, L, p, dps=mpmath.mp.dps)
    return round_up(out, dps)


def figure_1_grid(exponent: Fraction = FIGURE_1_ETA_EXPONENT, points: int = 61) -> np.ndarray:
    """Step sizes eta log-spaced on [n^-1, n^-exponent], n = 1000 (Figure 1's x axis)."""
    n = printed.FIGURE_1["n"]
    return np.logspace(-np.log10(n), -float(exponent) * np.log10(n), points)


def figure_1_curves(exponent: Fraction = FIGURE_1_ETA_EXPONENT, points: int = 61,
                    ps: tuple[str, ...] = (*printed.FIGURE_1["p"], "0.8")
                    ) -> dict[str, list[mpf]]:
    """ln(2 Tbar + V) on :func:`figure_1_grid` for each p (Figure 1's curves; 20 digits)."""
    f = printed.FIGURE_1
    etas = figure_1_grid(exponent, points)
    with precision(30):
        return {p: [mpmath.log(figure_1_value(p, repr(float(e)), f["n"], f["L"], f["M"], f["D"],
                                              dps=20)) for e in etas] for p in ps}


def figure_1_gaps(exponent: Fraction, ps: tuple[str, ...] = ("0.6", "0.7", "0.8"),
                  points: int = 61) -> dict[str, mpf]:
    """max over the grid of |ln(2 Tbar + V)(p) / ln(2 Tbar + V)(p = 1) - 1|: how far each
    curve of Figure 1 is from the smooth case p = 1, on [n^-1, n^-exponent]."""
    curves = figure_1_curves(exponent, points, (*ps, "1"))
    with precision(30):
        return {p: max(abs(v / w - 1) for v, w in zip(curves[p], curves["1"], strict=True))
                for p in ps}


# --- Theorem 5.4 and the (eps, delta) conversion --------------------------------------------

def thm_5_4_alpha_star(L: Number, n: Number, b: Number, sigma: Number,
                       dps: int = DEFAULT_DPS) -> mpf:
    """alpha* = b^2 sigma^2 ln(n/b) / (16 L^2) of Theorem 5.4 (Bun et al. 2018, Thm 12:
    log(1/s)/(4 rho) with s = b/n, rho = 4 L^2/(b^2 sigma^2)); rounded down.
    """
    with precision(dps + GUARD_DPS):
        Lv, bv, sv = (_positive(x, k, REF_54) for x, k in ((L, "L"), (b, "b"), (sigma, "sigma")))
        nv = _positive(n, "n", REF_54)
        require(bv <= nv, "b", b, f"b <= n = {n} (a batch of the dataset)", REF_54)
        out = bv ** 2 * sv ** 2 * mpmath.log(nv / bv) / (16 * Lv ** 2)
    return round_down(out, dps)


def thm_5_4_tbar_min(eta: Number, beta: Number) -> int:
    """The smallest R with (1 + eta beta)^(2R) >= 2, i.e. c^R/(c^R - 1) <= 2 for c = (1+eta beta)^2.

    This is what the proof of Theorem 5.4 needs of its window Tbar = T - tau: the last step
    of the proof bounds (21) by 2 alpha D^2 (c - 1)/(eta^2 sigma^2), i.e. uses
    c^Tbar/(c^Tbar - 1) <= 2.  Every Tbar at least this large makes the theorem's bound valid;
    the bound increases with Tbar, so this is the best admissible window.

    >>> thm_5_4_tbar_min("0.1", 1), thm_5_4_tbar_min("0.01", 1)
    (4, 35)
    """
    with precision(60):
        ev, bv = _positive(eta, "eta", REF_54), _positive(beta, "beta", REF_54)
        lp = mpmath.log1p(ev * bv)  # not (1 + eta beta)^(2R): 1 + 1e-320 rounds to 1
        x = mpmath.log(2) / (2 * lp)
        require(x <= MAX_INTEGER, "eta", eta, f"eta beta large enough that the window "
                f"(1 + eta beta)^(2R) >= 2 has R <= {MAX_INTEGER}", REF_54)
        r = int(mpmath.ceil(x))
        # guard the ceiling against rounding at an exact integer
        while 2 * r * lp < mpmath.log(2):
            r += 1
        while r > 1 and 2 * (r - 1) * lp >= mpmath.log(2):
            r -= 1
    return max(r, 1)


def _thm_5_4_hyp(L: mpf, n: int, b: mpf, sigma: mpf) -> None:
    require(b <= mpf(n) / 10, "b", b, f"b <= n/10 = {mpf(n) / 10}", REF_54)
    require(sigma >= 2 * mpmath.sqrt(10) * L / b, "sigma", sigma,
            f"sigma >= 2 sqrt(10) L / b = {mpmath.nstr(2 * mpmath.sqrt(10) * L / b, 8)}", REF_54)


def thm_5_4_pabi_term(alpha: Number, sigma: Number, eta: Number, beta: Number, D: Number,
                      R: Number, dps: int = DEFAULT_DPS) -> mpf:
    """(21): alpha D^2 c^R (c - 1) / (eta^2 sigma^2 (c^R - 1)), c = (1 + eta beta)^2: the
    Corollary 3.8 bound over the last R = T - tau steps with sigma_j^2 = eta^2 sigma^2 / 2
    (computed by :func:`dpsym.papers.bravo2025.corollaries.cor_3_8`, c from
    :func:`dpsym.shifts.modulus.nonconvex_smooth`).  Rounded up.
    """
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF_54)
        sv, ev, bv, Dv = (_positive(x, k, REF_54) for x, k in
                          ((sigma, "sigma"), (eta, "eta"), (beta, "beta"), (D, "D")))
        Ri = require_integer("R", R, REF_54, minimum=1)
        c = nonconvex_smooth(ev, bv, dps=mpmath.mp.dps).c
        out = cor_3_8(a, ev ** 2 * sv ** 2 / 2, Dv, Ri, c, dps=mpmath.mp.dps)
    return round_up(out, dps)


def thm_5_4(alpha: Number, L: Number, n: Number, b: Number, eta: Number, sigma: Number,
            D: Number, beta: Number, Tbar: Number, T: Number | None = None,
            dps: int = DEFAULT_DPS) -> mpf:
    """Theorem 5.4: for b <= n/10, sigma >= 2 sqrt(10) L/b, 1 < alpha <= alpha* =
    b^2 sigma^2 ln(n/b)/(16 L^2) and T >= Tbar, noisy SGD (batches without replacement) on
    L-bounded-gradient, beta-smooth losses is (alpha, eps)-RDP with

        eps <= alpha/sigma^2 ( 52 L^2 Tbar / n^2 + 4 D^2 beta / eta + 2 D^2 beta^2 ).

    ``Tbar`` is the window T - tau of the proof; it must satisfy what the proof's last step
    uses, (1 + eta beta)^(2 Tbar) >= 2 (:func:`thm_5_4_tbar_min`), which is checked.
    Rounded up.
    """
    with precision(dps + GUARD_DPS):
        a = to_mpf(alpha, "alpha", REF_54)
        Lv, bv, ev, sv, Dv, betav = (_positive(x, k, REF_54) for x, k in
                                     ((L, "L"), (b, "b"), (eta, "eta"), (sigma, "sigma"),
                                      (D, "D"), (beta, "beta")))
        nn = require_integer("n", n, REF_54, minimum=1)
        tb = require_integer("Tbar", Tbar, REF_54, minimum=1)
        tmin = thm_5_4_tbar_min(eta, beta)
        require(tb >= tmin, "Tbar", Tbar,
                f"(1 + eta beta)^(2 Tbar) >= 2, i.e. Tbar >= {tmin} (proof of Thm 5.4)", REF_54)
        if T is not None:
            Ti = require_integer("T", T, REF_54, minimum=1)
            require(Ti >= tb, "T", T, f"T >= Tbar = {tb}", REF_54)
        _thm_5_4_hyp(Lv, nn, bv, sv)
        astar = thm_5_4_alpha_star(L, n, b, sigma, dps=mpmath.mp.dps)
        require(1 < a <= astar, "alpha", alpha, f"1 < alpha <= alpha* = {mpmath.nstr(astar, 8)}",
                REF_54)
        out = a / sv ** 2 * thm_5_4_A(Lv, nn, ev, Dv, betav, tb, dps=mpmath.mp.dps)
    return round_up(out, dps)


def thm_5_4_tbar_check(products: tuple[Number, ...] = ("0.0001", "0.001", "0.01", "0.1",
                                                       "0.5", "1", "3", "100"),
                       dps: int = 30) -> list[tuple[str, int, int, bool, bool, bool]]:
    """Theorem 5.4's window Tbar, from what its proof needs (beta = 1, eta = the product
    eta beta, D = sigma = alpha = 1).

    The proof ends by bounding (21) at R = Tbar by 2 alpha D^2 (2 eta beta + eta^2 beta^2)/
    (eta^2 sigma^2), i.e. by assuming c^Tbar/(c^Tbar - 1) <= 2, c = (1 + eta beta)^2.  For
    each eta beta returns (eta beta, Tbar_min of :func:`thm_5_4_tbar_min`, the Bernoulli
    choice ceil(1/(2 eta beta)), whether (21) at Tbar_min is within the final bound, whether
    it is not at Tbar_min - 1 (minimality; True when Tbar_min = 1), whether the Bernoulli
    choice is admissible)."""
    rows = []
    with precision(dps + GUARD_DPS):
        for eb in products:
            ev = _positive(eb, "eta", REF_54)
            tmin = thm_5_4_tbar_min(eb, 1)
            final = 2 * (2 * ev + ev * ev) / ev ** 2
            within = thm_5_4_pabi_term(1, 1, eb, 1, 1, tmin, dps=dps) <= final
            minimal = tmin == 1 or thm_5_4_pabi_term(1, 1, eb, 1, 1, tmin - 1, dps=dps) > final
            bern = int(mpmath.ceil(1 / (2 * ev)))
            rows.append((str(eb), tmin, bern, bool(within), bool(minimal), bern >= tmin))
    return rows


def thm_5_4_A(L: Number, n: Number, eta: Number, D: Number, beta: Number, Tbar: Number,
              dps: int = DEFAULT_DPS) -> mpf:
    """A = 52 L^2 Tbar/n^2 + 4 D^2 beta/eta + 2 D^2 beta^2: Theorem 5.4's bound is alpha A /
    sigma^2, and A is the bracket of (22) and (23).  Rounded up.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_5_4_A(1, 1000, "0.1", 1, 1, 4), 10)      # 52*4/10^6 + 40 + 2
    '42.000208'
    """
    with precision(dps + GUARD_DPS):
        Lv, ev, Dv, bv = (_positive(x, k, REF_54) for x, k in
                          ((L, "L"), (eta, "eta"), (D, "D"), (beta, "beta")))
        nn = require_integer("n", n, REF_54, minimum=1)
        tb = require_integer("Tbar", Tbar, REF_54, minimum=1)
        out = 52 * Lv ** 2 * tb / nn ** 2 + 4 * Dv ** 2 * bv / ev + 2 * Dv ** 2 * bv ** 2
    return round_up(out, dps)


def _eq_22_inputs(L: Number, n: Number, b: Number, eta: Number, sigma: Number, D: Number,
                  beta: Number, Tbar: Number, delta: Number) -> tuple[mpf, mpf, mpf]:
    """(A, sigma, ln(1/delta)) at the current precision, hypotheses checked."""
    _positive(b, "b", REF_22)
    sv = _positive(sigma, "sigma", REF_22)
    dv = to_mpf(delta, "delta", REF_22)
    require(0 < dv < 1, "delta", delta, "0 < delta < 1", REF_22)
    A = thm_5_4_A(L, n, eta, D, beta, Tbar, dps=mpmath.mp.dps)
    return A, sv, -mpmath.log(dv)


def eq_22(L: Number, n: Number, b: Number, eta: Number, sigma: Number, D: Number,
          beta: Number, Tbar: Number, delta: Number,
          dps: int = DEFAULT_DPS) -> tuple[mpf, mpf, bool]:
    """(22): (eps, alpha, valid) for the conversion of Theorem 5.4 at alpha = 1 + sigma
    sqrt(ln(1/delta)/A), A of :func:`thm_5_4_A`:

        eps <= A/sigma^2 + (2/sigma) sqrt(ln(1/delta) A).

    ``valid`` is (23): alpha <= alpha* of Theorem 5.4, without which the RDP bound, and so
    (22), is not established.  Rounded up (eps).

    >>> from dpsym.numerics import nstr
    >>> eps, alpha, valid = eq_22(1, 1000, 50, "0.1", 1, 1, 1, 4, "1e-5")
    >>> nstr(eps, 8), nstr(alpha, 8), valid
    ('85.979533', '1.5235608', True)
    """
    crit, val, syms, _ = eq_22_derived()
    f_alpha, f_eps = (sp.lambdify(syms, e, "mpmath") for e in (crit, val))
    with precision(dps + GUARD_DPS):
        A, sv, ell = _eq_22_inputs(L, n, b, eta, sigma, D, beta, Tbar, delta)
        alpha, eps = f_alpha(A, sv, ell), f_eps(A, sv, ell)
        valid = alpha <= thm_5_4_alpha_star(L, n, b, sigma, dps=mpmath.mp.dps)
    with precision(dps):  # alpha rounded here, not at the caller's precision
        alpha = +alpha
    return round_up(eps, dps), alpha, bool(valid)


def eq_22_conversion(L: Number, n: Number, b: Number, eta: Number, sigma: Number, D: Number,
                     beta: Number, Tbar: Number, delta: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The eps of (22) recomputed by Mironov's conversion (2017, Prop. 3) of the RDP
    alpha A / sigma^2 of Theorem 5.4 at the alpha (22) chooses
    (:func:`dpsym.rdp.conversions.epsilon_from_rdp`): a second path to (22).  Rounded up."""
    f_alpha = sp.lambdify(eq_22_derived()[2], eq_22_derived()[0], "mpmath")
    with precision(dps + GUARD_DPS):
        A, sv, ell = _eq_22_inputs(L, n, b, eta, sigma, D, beta, Tbar, delta)
        alpha = f_alpha(A, sv, ell)
        eps = epsilon_from_rdp(alpha, alpha * A / sv ** 2, mpmath.exp(-ell),
                               conversion="mironov2017", dps=dps + GUARD_DPS)
    return round_up(eps, dps)


def eq_23_holds(L: Number, n: Number, b: Number, eta: Number, sigma: Number, D: Number,
                beta: Number, Tbar: Number, delta: Number, dps: int = DEFAULT_DPS) -> bool:
    """(23): 1 + sigma sqrt(ln(1/delta)/A) <= b^2 sigma^2 ln(n/b)/(16 L^2)."""
    return eq_22(L, n, b, eta, sigma, D, beta, Tbar, delta, dps=dps)[2]


def eq_23_sufficient_printed(A: Number, n: Number, b: Number, dps: int = DEFAULT_DPS) -> mpf:
    """The paper's sufficient condition for (23), ln(1/delta) < 6.25 A ln(n/b)^2
    (:data:`dpsym.papers.bravo2025.printed.EQ_23_CONSTANT`): its right side, rounded down.
    It is not sufficient (:func:`eq_23_counterexample`)."""
    with precision(dps + GUARD_DPS):
        Av, nv, bv = (_positive(x, k, REF_22) for x, k in ((A, "A"), (n, "n"), (b, "b")))
        out = mpf(str(printed.EQ_23_CONSTANT)) * Av * mpmath.log(nv / bv) ** 2
    return round_down(out, dps)


def eq_23_sufficient_corrected(A: Number, n: Number, b: Number, sigma: Number, L: Number,
                               dps: int = DEFAULT_DPS) -> mpf:
    """A sufficient condition for (23), derived as the paper does with the constants fixed:

        ln(1/delta) <= b^4 sigma^2 ln(n/b)^2 A / (1024 L^4).

    Write x = sigma sqrt(ln(1/delta)/A).  If x >= 1 then 1 + x <= 2x, and 2x <= alpha* =
    b^2 sigma^2 ln(n/b)/(16 L^2) is the condition above (the paper's 256 should be 1024).
    If x < 1 then 1 + x < 2 <= alpha*, because Theorem 5.4's hypotheses (b <= n/10,
    sigma >= 2 sqrt(10) L/b) give alpha* >= (40/16) ln 10 = 5.76: (23) holds with no
    condition, so no assumption on x is needed.  Under sigma^2 >= 40 L^2/b^2 (Theorem 5.4's
    hypothesis; the paper writes sigma >= 40 L^2/b^2) the condition is implied by
    ln(1/delta) <= (5 b^2/(128 L^2)) A ln(n/b)^2.  Returns the right side, rounded down.
    """
    with precision(dps + GUARD_DPS):
        Av, nv, bv, sv, Lv = (_positive(x, k, REF_22) for x, k in
                              ((A, "A"), (n, "n"), (b, "b"), (sigma, "sigma"), (L, "L")))
        out = bv ** 4 * sv ** 2 * mpmath.log(nv / bv) ** 2 * Av / (1024 * Lv ** 4)
    return round_down(out, dps)


def eq_23_alpha_star_floor(dps: int = DEFAULT_DPS) -> mpf:
    """The least alpha* = b^2 sigma^2 ln(n/b)/(16 L^2) that Theorem 5.4's hypotheses allow
    (b <= n/10, sigma >= 2 sqrt(10) L/b): (40/16) ln 10, at the corner of both.  The paper
    uses alpha* >= 3 (:data:`dpsym.papers.bravo2025.printed.EQ_23_ALPHA_STAR_LOWER`).
    Rounded down."""
    with precision(dps + GUARD_DPS):
        out = thm_5_4_alpha_star(1, 10, 1, 2 * mpmath.sqrt(10), dps=mpmath.mp.dps)
    return round_down(out, dps)


def eq_23_counterexample(sigma: Number, L: Number = 1, n: Number = 1000, b: Number = 5,
                         eta: Number = "0.1", D: Number = 1, beta: Number = 1,
                         dps: int = DEFAULT_DPS) -> dict[str, object]:
    """The paper's sufficient condition for (23) at an instance of Theorem 5.4.

    Tbar is the proof's smallest window (:func:`thm_5_4_tbar_min`), ln(1/delta) =
    (1 - 10^-6) 6.25 A ln(n/b)^2 (strictly inside the printed condition), alpha the choice
    of (22).  Returns A, ln(1/delta), alpha, alpha* and whether (23) holds, and whether
    sigma meets Theorem 5.4's hypothesis and the paper's "sigma >= 40 L^2/b^2".  At b = 5,
    L = 1 the hypothesis is sigma >= 2 sqrt(10)/5 = 1.265 and the paper's assumption
    sigma >= 1.6.
    """
    with precision(dps + GUARD_DPS):
        sv, Lv, bv = (_positive(x, k, REF_22) for x, k in ((sigma, "sigma"), (L, "L"), (b, "b")))
        tbar = thm_5_4_tbar_min(eta, beta)
        A = thm_5_4_A(L, n, eta, D, beta, tbar, dps=mpmath.mp.dps)
        ell = eq_23_sufficient_printed(A, n, b, dps=mpmath.mp.dps) * (1 - mpf(10) ** -6)
        _, alpha, holds = eq_22(L, n, b, eta, sv, D, beta, tbar, mpmath.exp(-ell),
                                dps=mpmath.mp.dps)
        astar = thm_5_4_alpha_star(L, n, b, sv, dps=mpmath.mp.dps)
        out = {"Tbar": tbar, "A": A, "ell": ell, "alpha": alpha, "alpha_star": astar,
               "holds": holds,
               "theorem_hypothesis": bool(sv >= 2 * mpmath.sqrt(10) * Lv / bv),
               "paper_assumption": bool(sv >= 40 * Lv ** 2 / bv ** 2)}
    with precision(dps):
        return {k: (+v if isinstance(v, mpf) else v) for k, v in out.items()}


def eq_23_corrected_sweep(draws: int = 300, seed: int = 0) -> tuple[int, int, mpf]:
    """Sufficiency of :func:`eq_23_sufficient_corrected`, by a seeded sweep over Theorem 5.4's
    hypotheses: L = 1, n in [100, 10^6], b <= n/10, sigma in [1, 10] x 2 sqrt(10)/b, eta,
    beta, D log-uniform, Tbar the proof's window, and ln(1/delta) = u x the corrected
    threshold with u uniform in (0, 1] (so sigma sqrt(ln(1/delta)/A) < 1 occurs too).
    Returns (draws, draws where (23) holds, min over draws of alpha* - alpha) (20 digits)."""
    draws = require_integer("draws", draws, REF_54, minimum=1, maximum=10**5)
    seed = require_integer("seed", seed, REF_54, minimum=0)
    ndraws = require_integer("draws", draws, REF_22, minimum=1)
    rng = np.random.default_rng(seed)
    ok, worst = 0, mpf("inf")
    with precision(30):
        for _ in range(ndraws):
            n = int(10 ** rng.uniform(2, 6))
            b = max(1, int(rng.uniform(0.02, 1) * n // 10))
            sigma = repr(float(rng.uniform(1, 10) * 2 * np.sqrt(10) / b))
            eta, beta, D = (repr(float(10 ** rng.uniform(-3, 0))) for _ in range(3))
            tbar = thm_5_4_tbar_min(eta, beta)
            A = thm_5_4_A(1, n, eta, D, beta, tbar, dps=20)
            ell = eq_23_sufficient_corrected(A, n, b, sigma, 1, dps=20) * mpf(
                repr(float(rng.uniform(1e-6, 1))))
            _, alpha, holds = eq_22(1, n, b, eta, sigma, D, beta, tbar, mpmath.exp(-ell), dps=20)
            ok += holds
            worst = min(worst, thm_5_4_alpha_star(1, n, b, sigma, dps=20) - alpha)
    return ndraws, ok, worst


def eq_22_eta_growth(beta: Number = 1, D: Number = 1, L: Number = 1, n: Number = 1000,
                     dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """How (22) blows up as eta -> 0+ (the comparison with (24) at the end of Sec. 5.2).

    With Theorem 5.4's window Tbar = ceil(ln 2/(2 ln(1 + eta beta))) (:func:`thm_5_4_tbar_min`)
    returns ``eta A`` at eta = 1e-6 and 1e-9: A (hence the leading term A/sigma^2 of (22))
    grows like 1/eta, with eta A -> 4 D^2 beta + 26 ln(2) L^2/(n^2 beta) (the square-root term
    grows like eta^(-1/2)); the first term of (24) carries 2 D^2/eta^2, i.e. grows like
    1/eta^2, which is the paper's "smaller polynomial blowup in 1/eta" for (22)."""
    out = []
    with precision(dps + GUARD_DPS):
        for eta in ("1e-6", "1e-9"):
            tbar = thm_5_4_tbar_min(eta, beta)
            out.append(mpf(eta) * thm_5_4_A(L, n, eta, D, beta, tbar, dps=mpmath.mp.dps))
    with precision(dps):
        return +out[0], +out[1]


def eq_24_tail_bound(xs: tuple[Number, ...] = ("0", "0.5", "1", "2", "5", "10", "30"),
                     dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """The step before (24): the Gaussian tail bound (1/sqrt(2 pi)) int_x^inf e^(-t^2/2) dt <=
    e^(-x^2/2) for x >= 0, hence Phi^-1(1 - u) <= sqrt(2 ln(1/u)) for 0 < u <= 1/2.
    Returns (max over xs of Q(x) e^(x^2/2), max over u = Q(xs) of Phi^-1(1-u) /
    sqrt(2 ln(1/u)) for u < 1/2): both must be <= 1."""
    from dpsym.numerics import Phi, Phi_inv
    with precision(dps + GUARD_DPS):
        ratios, inv = [], []
        for x in xs:
            xv = to_mpf(x, "x", REF_24)
            require(xv >= 0, "x", x, "x >= 0", REF_24)
            u = Phi(-xv)
            ratios.append(u * mpmath.exp(xv * xv / 2))
            if u < mpf(1) / 2:
                inv.append(-Phi_inv(u) / mpmath.sqrt(2 * mpmath.log(1 / u)))
        out = (max(ratios), max(inv))
    with precision(dps):
        return +out[0], +out[1]


# --- Theorem 5.2: Poisson batches larger than b, and b/n >= 1/5 -----------------------------

def thm_5_2_batch_tail(n: Number, b: Number, T: Number = 1,
                       dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """(P(|B_t| > b), P(max_t |B_t| > b over T steps)) for Poisson batches, |B_t| ~
    Binomial(n, b/n): the tail is the regularised incomplete beta function
    P(X > b) = I_q(b + 1, n - b), q = b/n (mpmath ``betainc``; the tests compare it with
    the direct sum of the pmf).

    Theorem 5.2 normalises the batch gradient by the *expected* size b, so on
    {|B_t| = k > b} the map (14) is a gradient step of size eta k / b and its modulus
    has h(eta k/b) > h(eta): the stated modulus holds only on {|B_t| <= b}.

    >>> from dpsym.numerics import nstr
    >>> nstr(thm_5_2_batch_tail(1000, 50)[0], 6)
    '0.462471'
    """
    nn = require_integer("n", n, REF_52, minimum=1)
    bb = require_integer("b", b, REF_52, minimum=1)
    require(bb <= nn, "b", b, f"b <= n = {nn}", REF_52)
    Ti = require_integer("T", T, REF_52, minimum=1)
    with precision(dps + GUARD_DPS):
        q = mpf(bb) / nn
        tail = mpmath.betainc(bb + 1, nn - bb, 0, q, regularized=True) if bb < nn else mpf(0)
        over_T = -mpmath.expm1(Ti * mpmath.log1p(-tail))
    with precision(dps):
        return +tail, +over_T


def thm_5_2_modulus_counterexample(eta: Number, L: Number, b: Number, k: Number,
                                   dps: int = DEFAULT_DPS) -> tuple[mpf, mpf]:
    """The modulus of (14) on a batch of size |B_t| = k > b.

    f(x, z) = L |x| for every z (convex, L-Lipschitz, (0, 2L)-weakly smooth), d = 1.
    The map x -> x - (eta/b) sum_{i in B} L sign(x) sends x = e, y = -e to points at
    distance |2e - 2 eta k L / b| -> 2 eta k L / b as e -> 0, while the modulus the proof
    uses gives sqrt(delta^2 + (2 eta L)^2) -> 2 eta L.  Returns (achieved sup as e -> 0,
    that modulus at delta -> 0).

    >>> from dpsym.numerics import nstr
    >>> [nstr(v, 4) for v in thm_5_2_modulus_counterexample("0.01", 1, 50, 60)]
    ['0.024', '0.02']
    """
    with precision(dps + GUARD_DPS):
        ev, Lv, bv, kv = (_positive(x, nm, REF_52) for x, nm in
                          ((eta, "eta"), (L, "L"), (b, "b"), (k, "k")))
        achieved = 2 * ev * kv * Lv / bv
        claimed = 2 * ev * Lv
    with precision(dps):
        return +achieved, +claimed


@dataclass(frozen=True)
class PoissonInstance:
    """The last-iterate Renyi divergence of a Poisson noisy-SGD instance against Thm 5.2.

    ``renyi[i]`` is R_alpha(X_T || X'_T) at ``times[i]`` on a grid of ``cells`` cells and
    ``renyi_fine`` on ``2 cells + 1`` (their agreement measures the discretisation);
    ``bound`` is :func:`thm_5_2` at the instance; ``tbar`` its window; ``expansion`` the
    largest Lipschitz constant of the map (14) over the batch sizes k <= n (k > b gives
    |1 - eta k M/b| > 1 near 0: the modulus of the proof fails there); ``p_expansive`` the
    probability of such a batch in one step.
    """

    params: dict[str, object]
    times: tuple[int, ...]
    renyi: tuple[float, ...]
    renyi_fine: tuple[float, ...]
    bound: mpf
    tbar: int
    expansion: float
    p_expansive: float


def thm_5_2_poisson_small_n(n: int = 10, b: int = 1, L: Number = "0.1", D: Number = 2,
                            M: Number = 2, eta: Number = 1, alpha: Number = 2,
                            T_max: int = 150, cells: int = 301) -> PoissonInstance:
    """Does Theorem 5.2's bound hold for Poisson batches at small n?  An instance, computed.

    X = [-D/2, D/2] (d = 1); the n - 1 shared losses are the Huber function with
    gradient clip(M x, -L, L) (convex, L-Lipschitz, (1, M)-weakly smooth), the differing
    point has f(x, z) = L x in S and f(x, z') = -L x in S' (gradient difference 2L).  Noisy
    SGD as in Section 5: Poisson batches with q = b/n, the sum of gradients divided by b,
    noise N(0, eta^2 sigma^2) with the smallest sigma Theorem 5.2 allows, 8 sqrt(2) L/b,
    both runs from x_0 = 0.  With eta M = 2 (the largest step p = 1 allows), a batch with
    k > b shared points makes the map (14) expansive near 0 (slope 1 - 2k/b): the modulus
    the proof uses fails there, which is the gap this instance probes.  Only the count of
    shared points in the batch matters (Binomial(n - 1, q)), and whether the differing point
    is in it (Bernoulli(q)), so the one-step law is a finite mixture of projected Gaussians:
    :meth:`dpsym.langevin.GridKernel.mixture` discretises it and the laws of X_T are
    propagated exactly on the grid (float64; ``cells`` odd, so that a cell is centred at
    x_0 = 0, and the finer grid has ``2 cells + 1``).  Returns :class:`PoissonInstance` for
    T = 1..T_max; Theorem 5.2's bound (checked hypotheses: b/n < 1/5, sigma, alpha <= alpha*)
    applies for T >= Tbar.
    """
    from scipy.stats import binom

    nn = require_integer("n", n, REF_52, minimum=2)
    bb = require_integer("b", b, REF_52, minimum=1)
    Tm = require_integer("T_max", T_max, REF_52, minimum=1)
    nc = require_integer("cells", cells, REF_52, minimum=3)
    require(nc % 2 == 1, "cells", cells, "an odd number (a cell centred at x_0 = 0)", REF_52)
    with precision(DEFAULT_DPS):
        sigma = 8 * mpmath.sqrt(2) * _positive(L, "L", REF_52) / bb
        bound = thm_5_2(alpha, L, nn, bb, eta, sigma, D, M, 1)  # checks the hypotheses
        tbar = thm_5_2_tbar(D, nn, eta, L)
        Lf, Df, Mf, ef, sf, af = (float(to_mpf(v)) for v in (L, D, M, eta, sigma, alpha))
    q = bb / nn
    weights = binom.pmf(np.arange(nn), nn - 1, q)

    def grad(x: np.ndarray) -> np.ndarray:
        return np.clip(Mf * x, -Lf, Lf)

    def components(sign: float) -> list[tuple[float, object]]:
        out = []
        for k, w in enumerate(weights):
            for c_in, wc in ((0, 1 - q), (1, q)):
                out.append((float(w * wc), lambda x, k=k, c_in=c_in:
                            x - ef / bb * (k * grad(x) + c_in * sign * Lf)))
        return out

    def divergences(m: int) -> list[float]:
        Ks, Kp = (GridKernel.mixture(ef, ef * sf, components(s), m, a=-Df / 2, b=Df / 2)
                  for s in (1.0, -1.0))
        p = np.zeros(m + 2)
        p[m // 2 + 1] = 1.0  # the middle cell (state 0 is the atom at -D/2), centred at 0
        pp = p.copy()
        out = []
        for _ in range(Tm):
            p, pp = p @ Ks.matrix, pp @ Kp.matrix
            keep = p > 0
            out.append(float(np.log(np.sum(p[keep] ** af * pp[keep] ** (1 - af))) / (af - 1)))
        return out

    slopes = [abs(1 - ef * k * Mf / bb) for k in range(nn + 1)]
    p_exp = float(sum(w for k, w in enumerate(weights) if abs(1 - ef * k * Mf / bb) > 1))
    params = {"n": nn, "b": bb, "L": L, "D": D, "M": M, "eta": eta, "alpha": alpha,
              "sigma": mpmath.nstr(sigma, 10), "p": 1, "x0": 0, "cells": cells}
    return PoissonInstance(params, tuple(range(1, Tm + 1)), tuple(divergences(nc)),
                           tuple(divergences(2 * nc + 1)), bound, tbar, max(slopes), p_exp)


def lem_a_18_outside_hypothesis(q: Number, sigma: Number, dps: int = 20
                                ) -> tuple[mpf, mpf, mpf]:
    """Lemma A.18's inequality at q >= 1/5, outside its hypothesis q in (0, 1/5).

    Theorem 5.2 allows any b <= n, but its proof applies Lemma A.18 at q = b/n.  Here
    alpha*(q, sigma) is the end of the range where the lemma's two conditions hold (as in
    :func:`alpha_star`, without the check on q), and the exact S_alpha in the paper's
    direction (:func:`def_a_16`) and the dominating direction (:func:`lem_a_17`) are
    compared with 2 alpha q^2/sigma^2 there.  Returns (alpha*, dominating S_alpha, bound).
    """
    with precision(dps + GUARD_DPS):
        qv, s = to_mpf(q, "q", REF_A18), to_mpf(sigma, "sigma", REF_A18)
        require(0 < qv < 1, "q", q, "0 < q < 1", REF_A18)
        require(s >= 4, "sigma", sigma, "sigma >= 4", REF_A18)
        astar = sgm_alpha_star(qv, s, dps=dps + GUARD_DPS, hypothesis_q=False)
        rdp = lem_a_17(astar, qv, s, dps=dps)
        bound = 2 * astar * qv * qv / (s * s)
    with precision(dps):
        return +astar, +rdp, +bound


# --- sympy derivations ----------------------------------------------------------------------

def thm_5_2_symbolic() -> list[Derivation]:
    """The algebra of Theorem 5.2's proof (sympy):

    (a) argmin_R 16 L^2 R/n^2 + D^2/(eta^2 R) = D n/(4 eta L), minimum 8 D L/(eta n);
    (b) Lemma A.18 at q = b/n, noise b sigma/(2 sqrt2 L): 2 alpha q^2 / noise^2 =
        16 alpha L^2/(n^2 sigma^2) (the per-step sampling term);
    (c) Cor. 3.7 with sigma_j^2 = eta^2 sigma^2/2 and h = eta^2 H (H the Hoelder term):
        alpha/(2 sigma_j^2) (D^2/R + h ln(R e)) = alpha/sigma^2 (D^2/(eta^2 R) + H ln(R e));
    (d) at R >= D n/(4 eta L): D^2/(eta^2 R) <= 16 L^2 R/n^2 (so eps <= 16 alpha L^2/(n^2
        sigma^2) (2 Tbar + V), Remark 5.3), as the difference factors with sign.
    """
    R, L, n, D, eta, sigma, alpha, b, H = sp.symbols("R L n D eta sigma alpha b H",
                                                     positive=True)
    g = 16 * L ** 2 * R / n ** 2 + D ** 2 / (eta ** 2 * R)
    crit = [r for r in sp.solve(sp.diff(g, R), R) if r.is_positive]
    out = [Derivation(crit[0], D * n / (4 * eta * L), sp.simplify(crit[0] - D * n / (4 * eta * L)),
                      f"argmin_R: {crit}")]
    gmin = sp.simplify(g.subs(R, crit[0]))
    out.append(Derivation(gmin, 8 * D * L / (eta * n), sp.simplify(gmin - 8 * D * L / (eta * n)),
                          "minimum value 8 D L/(eta n)"))
    q, noise = b / n, b * sigma / (2 * sp.sqrt(2) * L)
    samp = 2 * alpha * q ** 2 / noise ** 2
    out.append(Derivation(samp, 16 * alpha * L ** 2 / (n ** 2 * sigma ** 2),
                          sp.simplify(samp - 16 * alpha * L ** 2 / (n ** 2 * sigma ** 2)),
                          "2 alpha (b/n)^2/(b sigma/(2 sqrt2 L))^2 = 16 alpha L^2/(n^2 sigma^2); "
                          "noise >= 4 iff sigma >= 8 sqrt2 L/b"))
    s2j = eta ** 2 * sigma ** 2 / 2
    lhs = alpha / (2 * s2j) * (D ** 2 / R + eta ** 2 * H * sp.log(R * sp.E))
    rhs = alpha / sigma ** 2 * (D ** 2 / (eta ** 2 * R) + H * sp.log(R * sp.E))
    out.append(Derivation(lhs, rhs, sp.simplify(lhs - rhs),
                          "(17): Cor. 3.7 with sigma_j^2 = eta^2 sigma^2/2"))
    R0 = D * n / (4 * eta * L)
    x = sp.Symbol("x", nonnegative=True)  # R = R0 (1 + x)
    diff = sp.factor(sp.together((16 * L ** 2 * R / n ** 2 - D ** 2 / (eta ** 2 * R))
                                 .subs(R, R0 * (1 + x))))
    out.append(Derivation(diff, diff, sp.Integer(0) if diff.is_nonnegative else sp.Integer(1),
                          f"R = R0 (1+x): 16 L^2 R/n^2 - D^2/(eta^2 R) = {diff} >= 0"))
    return out


def thm_5_4_symbolic() -> list[Derivation]:
    """The constants of Theorem 5.4 (sympy): with rho = 4 L^2/(b^2 sigma^2), s = b/n,
    (a) 13 s^2 rho = 52 L^2/(n^2 sigma^2) (Bun et al. 2018, Thm 12, per step);
    (b) log(1/s)/(4 rho) = b^2 sigma^2 ln(n/b)/(16 L^2) = alpha*;
    (c) rho <= 1/10 iff sigma >= 2 sqrt(10) L/b (at equality rho = 1/10);
    (d) (21) at c^R/(c^R - 1) <= 2, c = (1 + eta beta)^2: 2 D^2 (c - 1)/eta^2 =
        4 D^2 beta/eta + 2 D^2 beta^2.
    """
    L, n, b, sigma, D, eta, beta = sp.symbols("L n b sigma D eta beta", positive=True)
    rho, s = 4 * L ** 2 / (b ** 2 * sigma ** 2), b / n
    a = 13 * s ** 2 * rho
    out = [Derivation(a, 52 * L ** 2 / (n ** 2 * sigma ** 2),
                      sp.simplify(a - 52 * L ** 2 / (n ** 2 * sigma ** 2)), "13 s^2 rho")]
    w = sp.log(1 / s) / (4 * rho)
    tw = b ** 2 * sigma ** 2 * sp.log(n / b) / (16 * L ** 2)
    out.append(Derivation(w, tw, sp.simplify(sp.expand_log(w - tw, force=True)),
                          "log(1/s)/(4 rho) = alpha*"))
    r_eq = rho.subs(sigma, 2 * sp.sqrt(10) * L / b)
    out.append(Derivation(r_eq, sp.Rational(1, 10), sp.simplify(r_eq - sp.Rational(1, 10)),
                          "rho = 1/10 at sigma = 2 sqrt(10) L/b (rho decreasing in sigma)"))
    c = (1 + eta * beta) ** 2
    fin = 2 * D ** 2 * (c - 1) / eta ** 2
    tfin = 4 * D ** 2 * beta / eta + 2 * D ** 2 * beta ** 2
    out.append(Derivation(fin, tfin, sp.simplify(sp.expand(fin - tfin)),
                          "(21) with c^R/(c^R-1) <= 2: 2 D^2 (2 eta beta + eta^2 beta^2)/eta^2"))
    return out


@functools.cache
def eq_22_derived() -> tuple[sp.Expr, sp.Expr, tuple[sp.Symbol, sp.Symbol, sp.Symbol], list]:
    """(22) derived by sympy: Mironov's eps(alpha) = alpha A/sigma^2 + l/(alpha - 1)
    (l = ln(1/delta)) minimised over alpha > 1.  Returns ``(alpha*, eps at alpha*, (A, sigma,
    l), all critical points)``; :func:`eq_22` evaluates these expressions."""
    al = sp.Symbol("alpha", positive=True)
    A, sigma, ell = sp.symbols("A sigma ell", positive=True)
    f = al * A / sigma ** 2 + ell / (al - 1)
    crits = sp.solve(sp.diff(f, al), al)
    crit = next(r for r in crits if sp.simplify(r - 1).is_positive)
    return crit, sp.simplify(f.subs(al, crit)), (A, sigma, ell), crits


def eq_22_symbolic() -> list[Derivation]:
    """(22) (sympy): argmin_alpha alpha A/sigma^2 + l/(alpha - 1) = 1 + sigma sqrt(l/A) and
    the value A/sigma^2 + 2 sqrt(A l)/sigma (l = ln(1/delta)), the paper's expressions."""
    crit, val, (A, sigma, ell), crits = eq_22_derived()
    target = 1 + sigma * sp.sqrt(ell / A)
    out = [Derivation(crit, target, sp.simplify(crit - target),
                      f"critical points {crits}; the one above 1 is {crit}")]
    tv = A / sigma ** 2 + 2 * sp.sqrt(A * ell) / sigma
    out.append(Derivation(val, tv, sp.simplify(val - tv), "value (22)"))
    return out
